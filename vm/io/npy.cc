// .npy reading and writing. The header is a Python dict literal, e.g.
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// parsed here by a small reader that accepts exactly the literals numpy writes.
#include "vm/io/npy.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include "vm/io/atomic_file.h"

namespace relax::vm {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
  bool has_descr = false, has_order = false, has_shape = false;
};

// Parses the header dict; returns an error message or empty.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  std::string parse(Header& h) {
    skip();
    if (!eat('{')) return "the header is not a dict";
    for (;;) {
      skip();
      if (eat('}')) break;
      std::string key;
      if (!string_literal(key))
        return "expected a quoted key at header offset " + std::to_string(p_);
      skip();
      if (!eat(':')) return "expected ':' after '" + key + "'";
      skip();
      if (key == "descr") {
        if (peek() == '[') return "structured dtypes are not supported";
        if (!string_literal(h.descr)) return "'descr' must be a string";
        h.has_descr = true;
      } else if (key == "fortran_order") {
        if (s_.substr(p_, 4) == "True") {
          h.fortran_order = true, p_ += 4;
        } else if (s_.substr(p_, 5) == "False") {
          h.fortran_order = false, p_ += 5;
        } else {
          return "'fortran_order' must be True or False";
        }
        h.has_order = true;
      } else if (key == "shape") {
        if (!eat('(')) return "'shape' must be a tuple";
        for (;;) {
          skip();
          if (eat(')')) break;
          int64_t v = 0;
          size_t start = p_;
          while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[p_] - '0', &v)) {
              return "a dimension of 'shape' overflows";
            }
            ++p_;
          }
          if (p_ < s_.size() && s_[p_] == 'L') ++p_;  // Python 2 longs
          if (p_ == start) return "'shape' must hold non-negative integers";
          h.shape.push_back(v);
          skip();
          if (!eat(',')) {
            skip();
            if (!eat(')')) return "unterminated 'shape' tuple";
            break;
          }
        }
        h.has_shape = true;
      } else {
        return "unknown header key '" + key + "'";
      }
      skip();
      if (!eat(',')) {
        skip();
        if (!eat('}')) return "expected ',' or '}' in the header";
        break;
      }
    }
    if (!h.has_descr || !h.has_order || !h.has_shape) {
      return "the header lacks 'descr', 'fortran_order' or 'shape'";
    }
    return "";
  }

 private:
  char peek() const { return p_ < s_.size() ? s_[p_] : '\0'; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++p_;
    return true;
  }
  void skip() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
  bool string_literal(std::string& out) {
    char q = peek();
    if (q != '\'' && q != '"') return false;
    size_t end = s_.find(q, p_ + 1);
    if (end == std::string_view::npos) return false;
    out = std::string(s_.substr(p_ + 1, end - p_ - 1));
    p_ = end + 1;
    return true;
  }

  std::string_view s_;
  size_t p_ = 0;
};

std::optional<DLDataType> dtype_of_descr(const std::string& descr, std::string* error) {
  if (descr.size() < 2) {
    *error = "unsupported dtype '" + descr + "'";
    return std::nullopt;
  }
  char order = descr[0];
  std::string type = descr.substr(1);
  if (order != '<' && order != '>' && order != '|' && order != '=') {
    order = '|';
    type = descr;
  }
  DLDataType t;
  if (type == "f2")
    t = kFloat16;
  else if (type == "f4")
    t = kFloat32;
  else if (type == "f8")
    t = kFloat64;
  else if (type == "i1")
    t = kInt8;
  else if (type == "i2")
    t = kInt16;
  else if (type == "i4")
    t = kInt32;
  else if (type == "i8")
    t = kInt64;
  else if (type == "u1")
    t = kUInt8;
  else if (type == "u2")
    t = DLDataType{kDLUInt, 16, 1};
  else if (type == "u4")
    t = DLDataType{kDLUInt, 32, 1};
  else if (type == "u8")
    t = DLDataType{kDLUInt, 64, 1};
  else if (type == "b1")
    t = kBool;
  else {
    *error = "unsupported dtype '" + descr +
             "' (supported: float16/32/64, int8/16/32/64, uint8/16/32/64, bool)";
    return std::nullopt;
  }
  if (order == '>' && dtype_bytes(t) > 1) {
    *error = "big-endian data ('" + descr + "') is not supported; save it little-endian";
    return std::nullopt;
  }
  return t;
}

}  // namespace

std::string npy_descr(DLDataType t) {
  if (t.lanes != 1) return "";
  if (is_bool(t)) return "|b1";
  char kind;
  switch (t.code) {
    case kDLFloat:
      kind = 'f';
      break;
    case kDLInt:
      kind = 'i';
      break;
    case kDLUInt:
      kind = 'u';
      break;
    default:
      return "";
  }
  if (t.bits % 8 != 0 || t.bits == 0 || t.bits > 64) return "";
  if (kind == 'f' && t.bits == 8) return "";
  return std::string(t.bits == 8 ? "|" : "<") + kind + std::to_string(t.bits / 8);
}

Result<Tensor> parse_npy(std::span<const uint8_t> bytes) {
  if (bytes.size() < kMagicLen + 2 || std::memcmp(bytes.data(), kMagic, kMagicLen) != 0) {
    return Error{"not a .npy file (bad magic string)"};
  }
  uint8_t major = bytes[6];
  size_t header_len, header_start;
  if (major == 1) {
    if (bytes.size() < 10) return Error{"truncated .npy file (in the header length)"};
    header_len = bytes[8] | static_cast<size_t>(bytes[9]) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Error{"truncated .npy file (in the header length)"};
    header_len = bytes[8] | static_cast<size_t>(bytes[9]) << 8 |
                 static_cast<size_t>(bytes[10]) << 16 | static_cast<size_t>(bytes[11]) << 24;
    header_start = 12;
  } else {
    return Error{".npy format version " + std::to_string(major) + " is not supported"};
  }
  if (bytes.size() - header_start < header_len) {
    return Error{"truncated .npy file: the header needs " + std::to_string(header_len) +
                 " bytes, " + std::to_string(bytes.size() - header_start) + " are left"};
  }
  std::string_view text(reinterpret_cast<const char*>(bytes.data() + header_start), header_len);
  Header h;
  if (std::string err = HeaderParser(text).parse(h); !err.empty()) {
    return Error{"invalid .npy header: " + err};
  }
  std::string err;
  auto dtype = dtype_of_descr(h.descr, &err);
  if (!dtype) return Error{err};
  int64_t numel = shape_numel(h.shape);
  int64_t nbytes;
  if (numel < 0 || __builtin_mul_overflow(numel, dtype_bytes(*dtype), &nbytes)) {
    return Error{"the .npy shape " + shape_string(h.shape) + " is too large"};
  }
  if (h.fortran_order && h.shape.size() > 1) {
    int64_t non_unit = 0;
    for (int64_t d : h.shape) non_unit += d > 1;
    // Fortran and C order agree when at most one dimension exceeds 1.
    if (non_unit > 1) {
      return Error{"Fortran-order arrays are not supported; save with np.ascontiguousarray"};
    }
  }
  size_t data_start = header_start + header_len;
  size_t available = bytes.size() - data_start;
  if (available < static_cast<uint64_t>(nbytes)) {
    return Error{"truncated .npy file: " + dtype_name(*dtype) + shape_string(h.shape) + " needs " +
                 std::to_string(nbytes) + " bytes of data, " + std::to_string(available) +
                 " are left"};
  }
  try {
    return tensor_from_bytes(h.shape, *dtype, bytes.data() + data_start);
  } catch (const VMError& e) {
    return Error{e.what()};
  }
}

Result<Tensor> read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open " + path};
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  auto t = parse_npy(bytes);
  if (!t) return Error{path + ": " + t.error().message};
  return t;
}

Result<std::vector<uint8_t>> encode_npy(const TensorObj& tensor) {
  std::string descr = npy_descr(tensor.dtype());
  if (descr.empty())
    return Error{"dtype " + dtype_name(tensor.dtype()) + " has no .npy equivalent"};
  Tensor host;
  const TensorObj* t = &tensor;
  if (tensor.device().device_type != kDLCPU) {
    host = clone_tensor(tensor, kCPU);
    t = host.get();
  }
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < t->shape().size(); ++i) {
    dict += std::to_string(t->shape()[i]);
    if (t->shape().size() == 1 || i + 1 < t->shape().size()) dict += ",";
    if (i + 1 < t->shape().size()) dict += " ";
  }
  dict += "), }";
  // Pad with spaces and a newline so that the data starts on a 64-byte boundary.
  bool v2 = dict.size() + 1 + 10 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::vector<uint8_t> out(kMagic, kMagic + kMagicLen);
  out.push_back(v2 ? 2 : 1);
  out.push_back(0);
  size_t len = dict.size();
  out.push_back(static_cast<uint8_t>(len));
  out.push_back(static_cast<uint8_t>(len >> 8));
  if (v2) {
    out.push_back(static_cast<uint8_t>(len >> 16));
    out.push_back(static_cast<uint8_t>(len >> 24));
  }
  out.insert(out.end(), dict.begin(), dict.end());
  auto data = static_cast<const uint8_t*>(t->data());
  out.insert(out.end(), data, data + t->nbytes());
  return out;
}

Status write_npy(const std::string& path, const TensorObj& tensor) {
  auto bytes = encode_npy(tensor);
  if (!bytes) return bytes.error();
  return write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
}

}  // namespace relax::vm

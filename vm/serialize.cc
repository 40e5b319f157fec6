// The executable's binary form (little-endian):
//
//   u64 magic  u32 version (2; version 1 had no param_info)  u32 reserved (0)
//   functions: u64 count, each: u8 kind, str name, i64 start, i64 end, i32 num_args,
//              i32 register_file_size, u64 n + str param_names[n], u64 m + str slot_names[m],
//              u64 k + param_info[k] (k is 0 or n)
//   param_info: u8 kind, str text, str dtype, i32 ndim, u64 d + (str text, u64 w + i64[w])[d],
//              u64 f + param_info[f] (tuple fields, nested at most kMaxParamInfoDepth deep)
//   constants: u64 count, each: u8 tag (a ValueKind) and its payload:
//              int i64 | float f64 | dtype u8 code, u8 bits, u16 lanes | string str |
//              shape u64 n + i64[n] | tensor dtype, i32 ndim, i64 shape[ndim], u64 nbytes, bytes
//   code:      u64 count + i64 words
//
// where str is u64 length + bytes. Loading checks every count against the bytes left, so a
// truncated or corrupt blob gives an error, never a huge allocation or a read past the end; the
// result is then finalized (validated) like a built executable.
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>

#include "vm/executable.h"
#include "vm/io/atomic_file.h"

namespace relax::vm {

static_assert(std::endian::native == std::endian::little,
              "the format assumes a little-endian host");

namespace {

class Writer {
 public:
  std::vector<uint8_t> bytes;

  template <class T>
  void put(T v) {
    auto p = reinterpret_cast<const uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  void put_raw(const void* p, size_t n) {
    auto b = static_cast<const uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
  void put_string(const std::string& s) {
    put<uint64_t>(s.size());
    put_raw(s.data(), s.size());
  }
  void put_dtype(DLDataType t) {
    put<uint8_t>(t.code);
    put<uint8_t>(t.bits);
    put<uint16_t>(t.lanes);
  }
};

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  template <class T>
  T get(const char* what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  // A count of items each at least `min_item_bytes` long, checked against what is left.
  uint64_t count(const char* what, size_t min_item_bytes) {
    size_t at = pos_;
    auto n = get<uint64_t>(what);
    if (n > remaining() / min_item_bytes) {
      throw VMError(std::string("truncated or corrupt executable: ") + what + " count " +
                    std::to_string(n) + " at byte " + std::to_string(at) + " exceeds the " +
                    std::to_string(remaining()) + " bytes left");
    }
    return n;
  }
  std::string get_string(const char* what) {
    auto n = get<uint64_t>(what);
    auto p = reinterpret_cast<const char*>(take(n, what));
    return std::string(p, n);
  }
  DLDataType get_dtype() {
    DLDataType t;
    t.code = get<uint8_t>("dtype");
    t.bits = get<uint8_t>("dtype");
    t.lanes = get<uint16_t>("dtype");
    return t;
  }
  const uint8_t* take(uint64_t n, const char* what) {
    need(n, what);
    const uint8_t* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  size_t remaining() const { return bytes_.size() - pos_; }
  size_t position() const { return pos_; }

 private:
  void need(uint64_t n, const char* what) {
    if (remaining() < n) {
      throw VMError(std::string("truncated executable: ") + what + " at byte " +
                    std::to_string(pos_) + " needs " + std::to_string(n) + " bytes, " +
                    std::to_string(remaining()) + " left");
    }
  }
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

void save_constant(Writer& w, const Value& c) {
  w.put<uint8_t>(static_cast<uint8_t>(c.kind()));
  switch (c.kind()) {
    case ValueKind::kInt:
      w.put<int64_t>(c.as_int());
      break;
    case ValueKind::kFloat:
      w.put<double>(c.as_float());
      break;
    case ValueKind::kDType:
      w.put_dtype(c.as_dtype());
      break;
    case ValueKind::kString:
      w.put_string(c.as_string()->str());
      break;
    case ValueKind::kShape: {
      auto dims = c.as_shape()->dims();
      w.put<uint64_t>(dims.size());
      for (int64_t d : dims) w.put<int64_t>(d);
      break;
    }
    case ValueKind::kTensor: {
      const TensorObj& t = *c.as_tensor();
      w.put_dtype(t.dtype());
      w.put<int32_t>(t.ndim());
      for (int64_t d : t.shape()) w.put<int64_t>(d);
      w.put<uint64_t>(t.nbytes());
      w.put_raw(t.data(), t.nbytes());
      break;
    }
    default:
      break;  // validate() rejects other kinds before anything is saved
  }
}

Value load_constant(Reader& r, size_t index) {
  auto tag = r.get<uint8_t>("constant tag");
  switch (static_cast<ValueKind>(tag)) {
    case ValueKind::kInt:
      return Value(r.get<int64_t>("int constant"));
    case ValueKind::kFloat:
      return Value(r.get<double>("float constant"));
    case ValueKind::kDType:
      return Value(r.get_dtype());
    case ValueKind::kString:
      return Value(r.get_string("string constant"));
    case ValueKind::kShape: {
      uint64_t n = r.count("shape constant", 8);
      std::vector<int64_t> dims(n);
      for (auto& d : dims) d = r.get<int64_t>("shape constant");
      return Value::shape(std::move(dims));
    }
    case ValueKind::kTensor: {
      DLDataType dtype = r.get_dtype();
      auto ndim = r.get<int32_t>("tensor constant");
      if (ndim < 0 || static_cast<uint64_t>(ndim) > r.remaining() / 8) {
        throw VMError("corrupt executable: constant " + std::to_string(index) + " has " +
                      std::to_string(ndim) + " dimensions");
      }
      std::vector<int64_t> shape(static_cast<size_t>(ndim));
      for (auto& d : shape) d = r.get<int64_t>("tensor constant");
      auto nbytes = r.get<uint64_t>("tensor constant");
      int64_t numel = shape_numel(shape);
      int64_t expect;
      if (dtype.bits == 0 || dtype.lanes == 0 || numel < 0 ||
          __builtin_mul_overflow(numel, dtype_bytes(dtype), &expect) ||
          static_cast<uint64_t>(expect) != nbytes) {
        throw VMError("corrupt executable: constant " + std::to_string(index) + " (" +
                      dtype_name(dtype) + shape_string(shape) + ") has " + std::to_string(nbytes) +
                      " bytes of data");
      }
      const uint8_t* data = r.take(nbytes, "tensor constant data");
      return Value(tensor_from_bytes(shape, dtype, data));
    }
    default:
      throw VMError("corrupt executable: constant " + std::to_string(index) + " has unknown tag " +
                    std::to_string(tag));
  }
}

void save_param_info(Writer& w, const ParamInfo& p) {
  w.put<uint8_t>(static_cast<uint8_t>(p.kind));
  w.put_string(p.text);
  w.put_string(p.dtype);
  w.put<int32_t>(p.ndim);
  w.put<uint64_t>(p.dims.size());
  for (const ParamInfo::Dim& d : p.dims) {
    w.put_string(d.text);
    w.put<uint64_t>(d.program.size());
    w.put_raw(d.program.data(), d.program.size() * sizeof(int64_t));
  }
  w.put<uint64_t>(p.fields.size());
  for (const ParamInfo& f : p.fields) save_param_info(w, f);
}

// The smallest record: kind, two empty strings, ndim, two empty lists.
constexpr size_t kMinParamInfoBytes = 1 + 8 + 8 + 4 + 8 + 8;

ParamInfo load_param_info(Reader& r, int depth) {
  if (depth > kMaxParamInfoDepth) {
    throw VMError("corrupt executable: parameter struct info nests deeper than " +
                  std::to_string(kMaxParamInfoDepth));
  }
  ParamInfo p;
  p.kind = static_cast<ParamInfo::Kind>(r.get<uint8_t>("parameter kind"));
  p.text = r.get_string("parameter struct info");
  p.dtype = r.get_string("parameter dtype");
  p.ndim = r.get<int32_t>("parameter ndim");
  p.dims.resize(r.count("parameter dimension", 16));
  for (ParamInfo::Dim& d : p.dims) {
    d.text = r.get_string("parameter dimension");
    d.program.resize(r.count("dimension program word", 8));
    const uint8_t* words = r.take(d.program.size() * 8, "dimension program");
    if (!d.program.empty()) std::memcpy(d.program.data(), words, d.program.size() * 8);
  }
  p.fields.resize(r.count("parameter field", kMinParamInfoBytes));
  for (ParamInfo& f : p.fields) f = load_param_info(r, depth + 1);
  return p;
}

}  // namespace

std::vector<uint8_t> Executable::save() const {
  Writer w;
  w.put<uint64_t>(kMagic);
  w.put<uint32_t>(kFormatVersion);
  w.put<uint32_t>(0);
  w.put<uint64_t>(functions.size());
  for (const FunctionInfo& fn : functions) {
    w.put<uint8_t>(static_cast<uint8_t>(fn.kind));
    w.put_string(fn.name);
    w.put<int64_t>(fn.start_instr);
    w.put<int64_t>(fn.end_instr);
    w.put<int32_t>(fn.num_args);
    w.put<int32_t>(fn.register_file_size);
    w.put<uint64_t>(fn.param_names.size());
    for (const auto& p : fn.param_names) w.put_string(p);
    w.put<uint64_t>(fn.shape_slot_names.size());
    for (const auto& p : fn.shape_slot_names) w.put_string(p);
    w.put<uint64_t>(fn.param_info.size());
    for (const ParamInfo& p : fn.param_info) save_param_info(w, p);
  }
  w.put<uint64_t>(constants.size());
  for (const Value& c : constants) save_constant(w, c);
  w.put<uint64_t>(instr_data.size());
  w.put_raw(instr_data.data(), instr_data.size() * sizeof(int64_t));
  return std::move(w.bytes);
}

Result<std::shared_ptr<Executable>> Executable::load(std::span<const uint8_t> bytes) {
  auto exe = std::make_shared<Executable>();
  try {
    Reader r(bytes);
    if (bytes.size() < 8 || r.get<uint64_t>("magic") != kMagic) {
      return Error{"not a relax executable (bad magic number)"};
    }
    auto version = r.get<uint32_t>("version");
    if (version != kFormatVersion) {
      return Error{"executable format version " + std::to_string(version) +
                   " is not supported (this runtime reads version " +
                   std::to_string(kFormatVersion) + "); rebuild it with this relax"};
    }
    (void)r.get<uint32_t>("reserved");
    // The smallest function record: kind, empty name, two i64, two i32, three empty lists.
    uint64_t nfuncs = r.count("function", 1 + 8 + 16 + 8 + 24);
    exe->functions.resize(nfuncs);
    for (FunctionInfo& fn : exe->functions) {
      fn.kind = static_cast<FunctionKind>(r.get<uint8_t>("function kind"));
      fn.name = r.get_string("function name");
      fn.start_instr = r.get<int64_t>("function start");
      fn.end_instr = r.get<int64_t>("function end");
      fn.num_args = r.get<int32_t>("function arguments");
      fn.register_file_size = r.get<int32_t>("function registers");
      fn.param_names.resize(r.count("parameter name", 8));
      for (auto& p : fn.param_names) p = r.get_string("parameter name");
      fn.shape_slot_names.resize(r.count("shape slot name", 8));
      for (auto& p : fn.shape_slot_names) p = r.get_string("shape slot name");
      fn.param_info.resize(r.count("parameter struct info", kMinParamInfoBytes));
      for (ParamInfo& p : fn.param_info) p = load_param_info(r, 0);
    }
    uint64_t nconsts = r.count("constant", 5);  // the smallest: a dtype
    exe->constants.reserve(nconsts);
    for (uint64_t i = 0; i < nconsts; ++i) exe->constants.push_back(load_constant(r, i));
    uint64_t nwords = r.count("code word", 8);
    exe->instr_data.resize(nwords);
    const uint8_t* code = r.take(nwords * 8, "code");
    if (nwords) std::memcpy(exe->instr_data.data(), code, nwords * 8);
    if (r.remaining()) {
      return Error{"corrupt executable: " + std::to_string(r.remaining()) +
                   " unexpected bytes after the code"};
    }
  } catch (const VMError& e) {
    return Error{e.what()};
  }
  if (Status s = exe->finalize(); !s) return Error{"invalid executable: " + s.error().message};
  return exe;
}

Status Executable::save_file(const std::string& path) const {
  std::vector<uint8_t> bytes = save();
  return write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<std::shared_ptr<Executable>> Executable::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open " + path};
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  auto exe = load(bytes);
  if (!exe) return Error{path + ": " + exe.error().message};
  return exe;
}

}  // namespace relax::vm

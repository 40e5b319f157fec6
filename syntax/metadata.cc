// Reading and writing TVM's metadata section (JSON object graph + base64 NDArray blobs). The
// NDArray blob is TVM's SaveDLTensor layout: magic, reserved, device, ndim, DLDataType, shape,
// byte size, then the row-major bytes, all little-endian.
#include "syntax/metadata.h"

#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

namespace relax::syntax {

namespace {

using ir::DataType;
using Code = DataType::Code;
using json = nlohmann::json;

constexpr uint64_t kNDArrayMagic = 0xDD5E40F096B4A13FULL;
constexpr const char* kConstantKind = "relax.expr.Constant";

// DLDataType codes of the blob. TVM v0.20 numbers the formats it knows (6 float8_e4m3fn,
// 7 float8_e5m2, 8 float4_e2m1fn); the small float formats it does not know are written with
// DLPack 1.1's numbers, and a reader takes the dtype named in the struct info first.
struct CodeEntry {
  Code code;
  uint8_t dl_code;
};
constexpr CodeEntry kCodes[] = {
    {Code::kInt, 0},
    {Code::kUInt, 1},
    {Code::kFloat, 2},
    {Code::kBFloat, 4},
    {Code::kFloat8E4M3FN, 6},
    {Code::kFloat8E5M2, 7},
    {Code::kFloat4E2M1FN, 8},
    {Code::kFloat8E4M3B11FNUZ, 9},
    {Code::kFloat8E4M3FNUZ, 11},
    {Code::kFloat8E5M2FNUZ, 13},
    {Code::kFloat8E8M0FNU, 14},
    {Code::kFloat6E2M3FN, 15},
    {Code::kFloat6E3M2FN, 16},
};

std::optional<uint8_t> dl_code_of(Code code) {
  for (const auto& e : kCodes) {
    if (e.code == code) return e.dl_code;
  }
  return std::nullopt;
}

std::optional<Code> code_of(uint8_t dl_code) {
  for (const auto& e : kCodes) {
    if (e.dl_code == dl_code) return e.code;
  }
  return std::nullopt;
}

// Bytes of one element as TVM stores it: whole bytes per lane (bool and 4-bit types take one).
int64_t element_bytes(DataType t) {
  return static_cast<int64_t>(t.bytes()) * t.lanes();
}

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}

std::vector<uint8_t> encode_ndarray(const ir::TensorData& d) {
  std::vector<uint8_t> out;
  put<uint64_t>(out, kNDArrayMagic);
  put<uint64_t>(out, 0);
  put<int32_t>(out, 1);  // kDLCPU
  put<int32_t>(out, 0);
  put<int32_t>(out, static_cast<int32_t>(d.shape.size()));
  put<uint8_t>(out, dl_code_of(d.dtype.code()).value_or(0));
  put<uint8_t>(out, static_cast<uint8_t>(d.dtype.bits()));
  put<uint16_t>(out, static_cast<uint16_t>(d.dtype.lanes()));
  for (int64_t dim : d.shape) put<int64_t>(out, dim);
  put<int64_t>(out, static_cast<int64_t>(d.bytes.size()));
  out.insert(out.end(), d.bytes.begin(), d.bytes.end());
  return out;
}

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& b) : b_(b) {}
  template <typename T>
  bool get(T& v) {
    if (b_.size() - at_ < sizeof(T)) return false;
    std::memcpy(&v, b_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  size_t left() const { return b_.size() - at_; }
  const uint8_t* here() const { return b_.data() + at_; }

 private:
  const std::vector<uint8_t>& b_;
  size_t at_ = 0;
};

// A blob to a tensor; `named` is the dtype the Constant's struct info names, when it does.
bool decode_ndarray(const std::vector<uint8_t>& blob, std::optional<DataType> named,
                    ir::TensorData& out, std::string& error) {
  Reader r(blob);
  uint64_t magic = 0, reserved = 0;
  int32_t device_type = 0, device_id = 0, ndim = 0;
  uint8_t code = 0, bits = 0;
  uint16_t lanes = 0;
  if (!r.get(magic) || !r.get(reserved) || !r.get(device_type) || !r.get(device_id) ||
      !r.get(ndim) || !r.get(code) || !r.get(bits) || !r.get(lanes)) {
    error = "the tensor blob is truncated";
    return false;
  }
  if (magic != kNDArrayMagic) {
    error = "the tensor blob does not start with TVM's NDArray magic number";
    return false;
  }
  if (ndim < 0 || ndim > kMaxConstantRank) {
    error = "the tensor blob has " + std::to_string(ndim) + " dimensions";
    return false;
  }
  std::optional<DataType> dtype;
  if (named && named->bits() == bits && named->lanes() == lanes) {
    dtype = named;
  } else if (auto c = code_of(code); c && lanes >= 1) {
    dtype = DataType(*c, bits, lanes);
    if (!DataType::parse(dtype->str())) dtype.reset();
  }
  if (!dtype || bits == 0) {
    error = "the tensor blob has an unknown dtype (code " + std::to_string(code) + ", " +
            std::to_string(bits) + " bits, " + std::to_string(lanes) + " lanes)";
    return false;
  }
  out.dtype = *dtype;
  out.shape.clear();
  int64_t numel = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t dim = 0;
    if (!r.get(dim)) {
      error = "the tensor blob is truncated";
      return false;
    }
    if (dim < 0 || (dim > 0 && numel > std::numeric_limits<int64_t>::max() / dim)) {
      error = "the tensor blob has a bad dimension " + std::to_string(dim);
      return false;
    }
    numel *= dim;
    out.shape.push_back(dim);
  }
  int64_t size = 0;
  if (!r.get(size)) {
    error = "the tensor blob is truncated";
    return false;
  }
  int64_t per = element_bytes(*dtype);
  if (numel > std::numeric_limits<int64_t>::max() / per || size != numel * per) {
    error = "the tensor blob holds " + std::to_string(size) + " bytes where its shape and dtype " +
            "need " + std::to_string(numel) + " x " + std::to_string(per);
    return false;
  }
  if (static_cast<uint64_t>(size) != r.left()) {
    error = "the tensor blob holds " + std::to_string(r.left()) + " bytes of data, not " +
            std::to_string(size);
    return false;
  }
  out.bytes.assign(r.here(), r.here() + size);
  return true;
}

// One JSON node of the graph by index, or null.
const json* node_at(const json& nodes, const json& index_text) {
  size_t index = 0;
  if (index_text.is_number_unsigned()) {
    index = index_text.get<size_t>();
  } else if (index_text.is_string()) {
    const std::string& s = index_text.get_ref<const std::string&>();
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
      return nullptr;
    index = std::stoull(s);
  } else {
    return nullptr;
  }
  if (!nodes.is_array() || index >= nodes.size() || !nodes[index].is_object()) return nullptr;
  return &nodes[index];
}

std::string type_key(const json* node) {
  if (!node) return "";
  auto it = node->find("type_key");
  return it != node->end() && it->is_string() ? it->get<std::string>() : "";
}

const json* attr(const json& node, const char* key) {
  auto attrs = node.find("attrs");
  if (attrs == node.end() || !attrs->is_object()) return nullptr;
  auto it = attrs->find(key);
  return it == attrs->end() ? nullptr : &*it;
}

// The dtype a Constant node's struct info names, if any.
std::optional<DataType> named_dtype(const json& nodes, const json& constant) {
  const json* si = attr(constant, "struct_info_");
  const json* node = si ? node_at(nodes, *si) : nullptr;
  if (type_key(node) != "relax.TensorStructInfo") return std::nullopt;
  const json* dtype = attr(*node, "dtype");
  if (!dtype || !dtype->is_string()) return std::nullopt;
  return DataType::parse(dtype->get<std::string>());
}

}  // namespace

std::string base64_encode(const std::vector<uint8_t>& bytes) {
  static const char* kTable = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += kTable[v >> 18];
    out += kTable[(v >> 12) & 63];
    out += kTable[(v >> 6) & 63];
    out += kTable[v & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = bytes[i] << 16;
    if (i + 1 < bytes.size()) v |= bytes[i + 1] << 8;
    out += kTable[v >> 18];
    out += kTable[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kTable[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool base64_decode(std::string_view text, std::vector<uint8_t>& out) {
  out.clear();
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int count = 0, padding = 0;
  for (char ch : text) {
    int v;
    if (ch >= 'A' && ch <= 'Z')
      v = ch - 'A';
    else if (ch >= 'a' && ch <= 'z')
      v = ch - 'a' + 26;
    else if (ch >= '0' && ch <= '9')
      v = ch - '0' + 52;
    else if (ch == '+')
      v = 62;
    else if (ch == '/')
      v = 63;
    else if (ch == '=') {
      ++padding;
      v = 0;
    } else if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
      continue;
    } else {
      return false;
    }
    if (padding && ch != '=') return false;  // data after padding
    acc = (acc << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      if (padding > 2) return false;
      out.push_back(static_cast<uint8_t>(acc >> 16));
      if (padding < 2) out.push_back(static_cast<uint8_t>(acc >> 8));
      if (padding < 1) out.push_back(static_cast<uint8_t>(acc));
      acc = 0;
      count = 0;
    }
  }
  return count == 0;
}

bool parse_metadata_json(std::string_view text, std::vector<ConstantData>& constants,
                         std::string& error) {
  constants.clear();
  json graph = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (graph.is_discarded() || !graph.is_object()) {
    error = "the metadata section is not valid JSON";
    return false;
  }
  auto nodes_it = graph.find("nodes");
  auto root_it = graph.find("root");
  if (nodes_it == graph.end() || !nodes_it->is_array() || root_it == graph.end()) {
    error = "the metadata section has no `root` and `nodes`";
    return false;
  }
  const json& nodes = *nodes_it;
  const json* root = node_at(nodes, *root_it);
  if (type_key(root) != "Map") {
    error = "the root of the metadata section is not a Map";
    return false;
  }
  std::vector<std::vector<uint8_t>> blobs;
  if (auto b = graph.find("b64ndarrays"); b != graph.end()) {
    if (!b->is_array()) {
      error = "`b64ndarrays` is not a list";
      return false;
    }
    for (const json& s : *b) {
      std::vector<uint8_t> blob;
      if (!s.is_string() || !base64_decode(s.get_ref<const std::string&>(), blob)) {
        error = "tensor blob " + std::to_string(blobs.size()) + " is not base64";
        return false;
      }
      blobs.push_back(std::move(blob));
    }
  }
  auto keys = root->find("keys");
  auto data = root->find("data");
  if (keys == root->end()) return true;  // an empty Map
  if (!keys->is_array() || data == root->end() || !data->is_array() ||
      keys->size() != data->size()) {
    error = "the root Map of the metadata section is malformed";
    return false;
  }
  for (size_t k = 0; k < keys->size(); ++k) {
    if ((*keys)[k] != kConstantKind) continue;  // other kinds: nothing refers to them here
    const json* array = node_at(nodes, (*data)[k]);
    if (type_key(array) != "Array") {
      error = "`relax.expr.Constant` in the metadata section is not an Array";
      return false;
    }
    auto items = array->find("data");
    if (items == array->end()) continue;
    if (!items->is_array()) {
      error = "the Array of constants is malformed";
      return false;
    }
    for (const json& item : *items) {
      std::string where = "constant " + std::to_string(constants.size());
      const json* node = node_at(nodes, item);
      if (type_key(node) != kConstantKind) {
        error = where + " is not a relax.expr.Constant node";
        return false;
      }
      const json* blob_index = attr(*node, "data");
      size_t index = blobs.size();
      if (blob_index && blob_index->is_string()) {
        const std::string& s = blob_index->get_ref<const std::string&>();
        if (!s.empty() && s.size() < 10 && s.find_first_not_of("0123456789") == std::string::npos)
          index = std::stoul(s);
      }
      if (index >= blobs.size()) {
        error = where + " names no tensor blob";
        return false;
      }
      auto tensor = std::make_shared<ir::TensorData>();
      std::string why;
      if (!decode_ndarray(blobs[index], named_dtype(nodes, *node), *tensor, why)) {
        error = where + ": " + why;
        return false;
      }
      constants.push_back(std::move(tensor));
    }
  }
  return true;
}

std::string metadata_json(const std::vector<const ir::TensorData*>& constants) {
  // Node 0 is None; 1 the Map; 2 the Array; then each constant's nodes in the order TVM's
  // indexer visits them (Constant, TensorStructInfo, ShapeExpr, its values, ShapeStructInfo,
  // ShapeType, DynTensorType).
  std::vector<std::string> nodes{R"({"type_key": ""})"};
  auto str = [](const std::string& s) { return json(s).dump(); };
  auto ref = [](size_t i) { return "\"" + std::to_string(i) + "\""; };
  nodes.push_back(R"({"type_key": "Map", "keys": ["relax.expr.Constant"], "data": [2]})");
  nodes.push_back("");  // the Array, filled in at the end
  std::vector<size_t> items;
  for (size_t c = 0; c < constants.size(); ++c) {
    const ir::TensorData& d = *constants[c];
    std::string dtype = str(d.dtype.str());
    std::string ndim = ref(d.shape.size());
    size_t constant = nodes.size(), sinfo = constant + 1, shape = constant + 2,
           values = constant + 3, first_dim = constant + 4,
           shape_sinfo = first_dim + d.shape.size(), shape_type = shape_sinfo + 1,
           tensor_type = shape_type + 1;
    items.push_back(constant);
    nodes.push_back(R"({"type_key": "relax.expr.Constant", "attrs": {"_checked_type_": )" +
                    ref(tensor_type) + R"(, "data": )" + ref(c) + R"(, "span": "0", )" +
                    R"("struct_info_": )" + ref(sinfo) + "}}");
    nodes.push_back(R"({"type_key": "relax.TensorStructInfo", "attrs": {"dtype": )" + dtype +
                    R"(, "ndim": )" + ndim + R"(, "shape": )" + ref(shape) +
                    R"(, "span": "0", "vdevice": "0"}})");
    nodes.push_back(R"({"type_key": "relax.expr.ShapeExpr", "attrs": {"_checked_type_": )" +
                    ref(shape_type) + R"(, "span": "0", "struct_info_": )" + ref(shape_sinfo) +
                    R"(, "values": )" + ref(values) + "}}");
    std::string dims;
    for (size_t i = 0; i < d.shape.size(); ++i)
      dims += (i ? ", " : "") + std::to_string(first_dim + i);
    nodes.push_back(R"({"type_key": "Array")" + (dims.empty() ? "" : ", \"data\": [" + dims + "]") +
                    "}");
    for (int64_t dim : d.shape) {
      nodes.push_back(R"({"type_key": "IntImm", "attrs": {"dtype": "int64", "span": "0", )" +
                      std::string(R"("value": ")") + std::to_string(dim) + "\"}}");
    }
    nodes.push_back(R"({"type_key": "relax.ShapeStructInfo", "attrs": {"ndim": )" + ndim +
                    R"(, "span": "0", "values": )" + ref(values) + "}}");
    nodes.push_back(R"({"type_key": "relax.ShapeType", "attrs": {"ndim": )" + ndim +
                    R"(, "span": "0"}})");
    nodes.push_back(R"({"type_key": "relax.DynTensorType", "attrs": {"dtype": )" + dtype +
                    R"(, "ndim": )" + ndim + R"(, "span": "0"}})");
  }
  std::string list;
  for (size_t i = 0; i < items.size(); ++i) list += (i ? ", " : "") + std::to_string(items[i]);
  nodes[2] = R"({"type_key": "Array")" + (list.empty() ? "" : ", \"data\": [" + list + "]") + "}";
  std::string out = "{\n  \"root\": 1,\n  \"nodes\": [\n";
  for (size_t i = 0; i < nodes.size(); ++i)
    out += "    " + nodes[i] + (i + 1 < nodes.size() ? ",\n" : "\n");
  out += "  ],\n  \"b64ndarrays\": [\n";
  for (size_t c = 0; c < constants.size(); ++c) {
    out += "    \"" + base64_encode(encode_ndarray(*constants[c])) + "\"" +
           (c + 1 < constants.size() ? ",\n" : "\n");
  }
  out += "  ],\n  \"attrs\": {\"tvm_version\": \"0.20.0\"}\n}";
  return out;
}

std::string metadata_statement(const std::vector<const ir::TensorData*>& constants) {
  // TVM escapes the JSON as a string body but keeps newlines (support::StrEscape).
  std::string escaped;
  for (char ch : metadata_json(constants)) {
    if (ch == '"' || ch == '\\') escaped += '\\';
    escaped += ch;
  }
  return "metadata = tvm.ir.load_json(\"\"\"" + escaped + "\"\"\")\n";
}

}  // namespace relax::syntax

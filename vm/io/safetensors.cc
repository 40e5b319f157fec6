// .safetensors reading and writing, with nlohmann/json (header-only) for the header.
#include "vm/io/safetensors.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "vm/io/atomic_file.h"

namespace relax::vm {

namespace {

constexpr uint64_t kMaxHeader = 100 << 20;  // the reference implementation's limit

struct DTypeName {
  const char* name;
  DLDataType dtype;
};
constexpr DTypeName kDTypes[] = {
    {"F16", kFloat16},
    {"F32", kFloat32},
    {"F64", kFloat64},
    {"BF16", kBFloat16},
    {"I8", kInt8},
    {"I16", kInt16},
    {"I32", kInt32},
    {"I64", kInt64},
    {"U8", kUInt8},
    {"U16", {kDLUInt, 16, 1}},
    {"U32", {kDLUInt, 32, 1}},
    {"U64", {kDLUInt, 64, 1}},
    {"BOOL", kBool},
};

std::optional<DLDataType> parse_name(const std::string& s) {
  for (const auto& d : kDTypes) {
    if (s == d.name) return d.dtype;
  }
  return std::nullopt;
}

const char* name_of(DLDataType t) {
  for (const auto& d : kDTypes) {
    if (d.dtype == t) return d.name;
  }
  return nullptr;
}

struct Entry {
  std::string name;
  DLDataType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

// Validates the header against a data section of `data_size` bytes; entries sorted by offset.
Result<std::vector<Entry>> parse_header(std::string_view text, uint64_t data_size,
                                        std::map<std::string, std::string>* metadata) {
  nlohmann::json header = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded()) return Error{"the safetensors header is not valid JSON"};
  if (!header.is_object()) return Error{"the safetensors header is not a JSON object"};
  std::vector<Entry> entries;
  for (auto& [key, value] : header.items()) {
    if (key == "__metadata__") {
      if (!value.is_object()) return Error{"__metadata__ must be an object of strings"};
      for (auto& [k, v] : value.items()) {
        if (!v.is_string()) return Error{"__metadata__ value `" + k + "` is not a string"};
        (*metadata)[k] = v.get<std::string>();
      }
      continue;
    }
    auto bad = [&](const std::string& what) { return Error{"tensor `" + key + "`: " + what}; };
    if (!value.is_object()) return bad("the entry is not an object");
    auto dt = value.find("dtype");
    auto sh = value.find("shape");
    auto off = value.find("data_offsets");
    if (dt == value.end() || sh == value.end() || off == value.end()) {
      return bad("needs dtype, shape and data_offsets");
    }
    Entry e;
    e.name = key;
    if (!dt->is_string()) return bad("dtype is not a string");
    auto dtype = parse_name(dt->get<std::string>());
    if (!dtype) return bad("unsupported dtype " + dt->dump());
    e.dtype = *dtype;
    if (!sh->is_array()) return bad("shape is not an array");
    for (auto& d : *sh) {
      if (!d.is_number_unsigned())
        return bad("shape " + sh->dump() + " has a non-integer or negative dimension");
      e.shape.push_back(static_cast<int64_t>(d.get<uint64_t>()));
    }
    if (!off->is_array() || off->size() != 2 || !(*off)[0].is_number_unsigned() ||
        !(*off)[1].is_number_unsigned()) {
      return bad("data_offsets must be [begin, end]");
    }
    e.begin = (*off)[0].get<uint64_t>();
    e.end = (*off)[1].get<uint64_t>();
    if (e.begin > e.end || e.end > data_size) {
      return bad("data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                 "] lie outside the data (" + std::to_string(data_size) + " bytes)");
    }
    int64_t numel = shape_numel(e.shape);
    int64_t nbytes = -1;
    if (numel < 0 || __builtin_mul_overflow(numel, dtype_bytes(e.dtype), &nbytes) ||
        static_cast<uint64_t>(nbytes) != e.end - e.begin) {
      return bad(dt->get<std::string>() + shape_string(e.shape) + " takes " +
                 std::to_string(nbytes) + " bytes but data_offsets span " +
                 std::to_string(e.end - e.begin));
    }
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t at = 0;
  for (const Entry& e : entries) {
    if (e.begin < at) return Error{"tensor `" + e.name + "` overlaps the tensor before it"};
    if (e.begin > at) {
      return Error{"the data has a hole at bytes [" + std::to_string(at) + ", " +
                   std::to_string(e.begin) + ")"};
    }
    at = e.end;
  }
  if (at != data_size) {
    return Error{"the data has " + std::to_string(data_size - at) + " bytes no tensor describes"};
  }
  return entries;
}

uint64_t read_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

Result<SafetensorsFile> parse_safetensors(std::span<const uint8_t> bytes) {
  if (bytes.size() < 8) return Error{"truncated safetensors file (no header size)"};
  uint64_t n = read_u64(bytes.data());
  if (n > kMaxHeader || n > bytes.size() - 8) {
    return Error{"truncated or corrupt safetensors file: header size " + std::to_string(n) +
                 " exceeds the " + std::to_string(bytes.size() - 8) + " bytes left"};
  }
  SafetensorsFile file;
  std::string_view text(reinterpret_cast<const char*>(bytes.data() + 8), n);
  uint64_t data_size = bytes.size() - 8 - n;
  auto entries = parse_header(text, data_size, &file.metadata);
  if (!entries) return entries.error();
  const uint8_t* data = bytes.data() + 8 + n;
  try {
    for (const Entry& e : *entries) {
      file.tensors.push_back({e.name, tensor_from_bytes(e.shape, e.dtype, data + e.begin)});
    }
  } catch (const VMError& e) {
    return Error{e.what()};
  }
  return file;
}

Result<SafetensorsFile> read_safetensors(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return Error{"cannot open " + path};
  auto size = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  auto fail = [&](const std::string& what) { return Error{path + ": " + what}; };
  uint8_t head[8];
  if (size < 8 || !in.read(reinterpret_cast<char*>(head), 8)) {
    return fail("truncated safetensors file (no header size)");
  }
  uint64_t n = read_u64(head);
  if (n > kMaxHeader || n > size - 8) {
    return fail("truncated or corrupt safetensors file: header size " + std::to_string(n) +
                " exceeds the " + std::to_string(size - 8) + " bytes left");
  }
  std::string text(n, '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(n))) return fail("cannot read the header");
  SafetensorsFile file;
  uint64_t data_start = 8 + n;
  auto entries = parse_header(text, size - data_start, &file.metadata);
  if (!entries) return fail(entries.error().message);
  try {
    // Straight into each tensor's storage: no second copy of the weights.
    for (const Entry& e : *entries) {
      Tensor t = empty_tensor(e.shape, e.dtype);
      in.seekg(static_cast<std::streamoff>(data_start + e.begin));
      if (!in.read(static_cast<char*>(t->data()), static_cast<std::streamsize>(e.end - e.begin))) {
        return fail("cannot read the data of `" + e.name + "`");
      }
      file.tensors.push_back({e.name, std::move(t)});
    }
  } catch (const VMError& e) {
    return fail(e.what());
  }
  return file;
}

Result<std::vector<uint8_t>> encode_safetensors(
    const std::vector<NamedTensor>& tensors, const std::map<std::string, std::string>& metadata) {
  nlohmann::json header = nlohmann::json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  uint64_t at = 0;
  std::vector<Tensor> hosts;
  for (const NamedTensor& nt : tensors) {
    const char* name = name_of(nt.tensor->dtype());
    if (!name) {
      return Error{"tensor `" + nt.name + "`: dtype " + dtype_name(nt.tensor->dtype()) +
                   " has no safetensors equivalent"};
    }
    if (nt.name == "__metadata__" || header.contains(nt.name)) {
      return Error{"tensor name `" + nt.name + "` is reserved or repeated"};
    }
    Tensor host = nt.tensor->device().device_type == kDLCPU ? nt.tensor : clone_tensor(*nt.tensor);
    uint64_t nbytes = host->nbytes();
    header[nt.name] = {{"dtype", name},
                       {"shape", std::vector<int64_t>(host->shape().begin(), host->shape().end())},
                       {"data_offsets", {at, at + nbytes}}};
    at += nbytes;
    hosts.push_back(std::move(host));
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // keep the data 8-byte aligned
  std::vector<uint8_t> out(8);
  uint64_t n = text.size();
  std::memcpy(out.data(), &n, 8);
  out.insert(out.end(), text.begin(), text.end());
  for (const Tensor& t : hosts) {
    auto p = static_cast<const uint8_t*>(t->data());
    out.insert(out.end(), p, p + t->nbytes());
  }
  return out;
}

Status write_safetensors(const std::string& path, const std::vector<NamedTensor>& tensors,
                         const std::map<std::string, std::string>& metadata) {
  auto bytes = encode_safetensors(tensors, metadata);
  if (!bytes) return bytes.error();
  return write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
}

}  // namespace relax::vm

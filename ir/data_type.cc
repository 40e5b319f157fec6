// DataType names: parsing and printing the dtype strings of the text format.
#include "ir/data_type.h"

#include <charconv>

namespace relax::ir {

namespace {

struct NamedCode {
  const char* name;
  DataType::Code code;
  int bits;
};

// Small-float formats have a fixed width in their name.
constexpr NamedCode kFixedFormats[] = {
    {"float8_e4m3fnuz", DataType::Code::kFloat8E4M3FNUZ, 8},
    {"float8_e5m2fnuz", DataType::Code::kFloat8E5M2FNUZ, 8},
    {"float8_e4m3b11fnuz", DataType::Code::kFloat8E4M3B11FNUZ, 8},
    {"float8_e4m3fn", DataType::Code::kFloat8E4M3FN, 8},
    {"float8_e8m0fnu", DataType::Code::kFloat8E8M0FNU, 8},
    {"float8_e4m3", DataType::Code::kFloat8E4M3, 8},
    {"float8_e3m4", DataType::Code::kFloat8E3M4, 8},
    {"float8_e5m2", DataType::Code::kFloat8E5M2, 8},
    {"float6_e2m3fn", DataType::Code::kFloat6E2M3FN, 6},
    {"float6_e3m2fn", DataType::Code::kFloat6E3M2FN, 6},
    {"float4_e2m1fn", DataType::Code::kFloat4E2M1FN, 4},
    // Legacy FP8 spellings (before 2025-03).
    {"e4m3_float8", DataType::Code::kFloat8E4M3FN, 8},
    {"e5m2_float8", DataType::Code::kFloat8E5M2, 8},
};

bool parse_int(std::string_view text, int& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// Splits off a lane suffix "x4" or "xvscalex4"; returns false on a malformed suffix.
bool parse_lanes(std::string_view suffix, int& lanes) {
  lanes = 1;
  if (suffix.empty()) return true;
  if (suffix[0] != 'x') return false;
  suffix.remove_prefix(1);
  if (suffix.starts_with("vscalex")) {
    suffix.remove_prefix(7);
    if (!parse_int(suffix, lanes) || lanes <= 0) return false;
    lanes = -lanes;
    return true;
  }
  return parse_int(suffix, lanes) && lanes > 0;
}

}  // namespace

const std::vector<std::string>& DataType::scalar_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out = {"bool", "handle", "void"};
    for (const char* kind : {"int", "uint", "float"}) {
      for (int bits : {8, 16, 32, 64}) out.push_back(kind + std::to_string(bits));
    }
    out.push_back("bfloat16");
    for (const NamedCode& f : kFixedFormats) out.push_back(f.name);
    return out;
  }();
  return names;
}

std::optional<DataType> DataType::parse(std::string_view text) {
  if (text == "void") return DataType::Void();
  if (text == "bool") return DataType::Bool();
  if (text.starts_with("boolx")) {
    int lanes;
    if (!parse_lanes(text.substr(4), lanes)) return std::nullopt;
    return DataType::Bool(lanes);
  }
  if (text == "handle") return DataType::Handle();
  for (const NamedCode& fixed : kFixedFormats) {
    std::string_view name = fixed.name;
    if (text.starts_with(name)) {
      int lanes;
      if (!parse_lanes(text.substr(name.size()), lanes)) continue;
      return DataType(fixed.code, fixed.bits, lanes);
    }
  }
  Code code;
  std::string_view rest;
  if (text.starts_with("bfloat")) {
    code = Code::kBFloat;
    rest = text.substr(6);
  } else if (text.starts_with("float")) {
    code = Code::kFloat;
    rest = text.substr(5);
  } else if (text.starts_with("uint")) {
    code = Code::kUInt;
    rest = text.substr(4);
  } else if (text.starts_with("int")) {
    code = Code::kInt;
    rest = text.substr(3);
  } else {
    return std::nullopt;
  }
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  int bits;
  if (!parse_int(rest.substr(0, digits), bits) || bits <= 0 || bits > 255) return std::nullopt;
  int lanes;
  if (!parse_lanes(rest.substr(digits), lanes)) return std::nullopt;
  return DataType(code, bits, lanes);
}

std::string DataType::str() const {
  if (is_void()) return "void";
  std::string base;
  switch (code_) {
    case Code::kInt:
      base = "int" + std::to_string(bits_);
      break;
    case Code::kUInt:
      // Only a scalar 1-bit uint is "bool"; vectors of them print as "uint1x4" (as TVM does).
      if (bits_ == 1 && lanes_ == 1) return "bool";
      base = "uint" + std::to_string(bits_);
      break;
    case Code::kFloat:
      base = "float" + std::to_string(bits_);
      break;
    case Code::kBFloat:
      base = "bfloat" + std::to_string(bits_);
      break;
    case Code::kHandle:
      base = "handle";
      break;
    default:
      for (const NamedCode& fixed : kFixedFormats) {
        if (fixed.code == code_) {
          base = fixed.name;
          break;
        }
      }
      break;
  }
  if (lanes_ == 1) return base;
  if (lanes_ < 0) return base + "xvscalex" + std::to_string(-lanes_);
  return base + "x" + std::to_string(lanes_);
}

}  // namespace relax::ir

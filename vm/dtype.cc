// Names of element types, parsing them back, and half-precision conversions.
#include "vm/dtype.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

namespace relax::vm {

std::string dtype_name(DLDataType t) {
  std::string base;
  if (is_bool(t)) {
    base = "bool";
  } else {
    switch (t.code) {
      case kDLInt:
        base = "int";
        break;
      case kDLUInt:
        base = "uint";
        break;
      case kDLFloat:
        base = "float";
        break;
      case kDLBfloat:
        base = "bfloat";
        break;
      case kDLOpaqueHandle:
        base = "handle";
        break;
      case kDLComplex:
        base = "complex";
        break;
      default:
        base = "code" + std::to_string(t.code) + "_";
        break;
    }
    base += std::to_string(t.bits);
  }
  if (t.lanes != 1) base += "x" + std::to_string(t.lanes);
  return base;
}

std::optional<DLDataType> parse_dtype(std::string_view name) {
  auto parse_int = [](std::string_view s) -> std::optional<int> {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
  };
  int lanes = 1;
  if (auto x = name.find('x'); x != std::string_view::npos) {
    auto l = parse_int(name.substr(x + 1));
    if (!l || *l <= 0 || *l > 65535) return std::nullopt;
    lanes = *l;
    name = name.substr(0, x);
  }
  DLDataType t{kDLInt, 0, static_cast<uint16_t>(lanes)};
  std::string_view bits;
  if (name == "bool") return DLDataType{kDLUInt, 1, static_cast<uint16_t>(lanes)};
  if (name.starts_with("uint")) {
    t.code = kDLUInt, bits = name.substr(4);
  } else if (name.starts_with("int")) {
    t.code = kDLInt, bits = name.substr(3);
  } else if (name.starts_with("bfloat")) {
    t.code = kDLBfloat, bits = name.substr(6);
  } else if (name.starts_with("float")) {
    t.code = kDLFloat, bits = name.substr(5);
  } else if (name == "handle") {
    return DLDataType{kDLOpaqueHandle, 64, static_cast<uint16_t>(lanes)};
  } else {
    return std::nullopt;
  }
  auto b = parse_int(bits);
  if (!b || *b <= 0 || *b > 255) return std::nullopt;
  t.bits = static_cast<uint8_t>(*b);
  return t;
}

float half_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400) == 0);
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ff) << 13;
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | mant << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  return std::bit_cast<float>(bits);
}

uint16_t float_to_half(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);  // inf / nan
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;  // overflow to inf
  if (e <= 0) {                         // subnormal or zero, round to nearest even
    if (e < -10) return sign;
    mant |= 0x800000;
    int shift = 14 - e;
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = static_cast<uint32_t>(e) << 10 | mant >> 13;
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;  // may carry into the exponent
  return static_cast<uint16_t>(sign | half);
}

float bfloat16_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

uint16_t float_to_bfloat16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

double load_as_double(const void* data, DLDataType t, int64_t i) {
  auto p = static_cast<const char*>(data);
  if (is_bool(t)) return p[i] != 0 ? 1.0 : 0.0;
  auto load = [&]<class T>(T) {
    T v;
    std::memcpy(&v, p + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return v;
  };
  switch (t.code) {
    case kDLInt:
      switch (t.bits) {
        case 8:
          return load(int8_t{});
        case 16:
          return load(int16_t{});
        case 32:
          return load(int32_t{});
        case 64:
          return static_cast<double>(load(int64_t{}));
      }
      break;
    case kDLUInt:
      switch (t.bits) {
        case 8:
          return load(uint8_t{});
        case 16:
          return load(uint16_t{});
        case 32:
          return load(uint32_t{});
        case 64:
          return static_cast<double>(load(uint64_t{}));
      }
      break;
    case kDLFloat:
      switch (t.bits) {
        case 16:
          return half_to_float(load(uint16_t{}));
        case 32:
          return load(float{});
        case 64:
          return load(double{});
      }
      break;
    case kDLBfloat:
      if (t.bits == 16) return bfloat16_to_float(load(uint16_t{}));
      break;
  }
  return std::nan("");
}

}  // namespace relax::vm

// Element types of tensors as DLPack describes them (DLDataType), with the names the IR uses
// ("float32", "int64", "bool", "bfloat16", "float32x4"). DLPack 0.6 has no bool code: bool is
// kDLUInt with 1 bit, stored one byte per element (as TVM does). Also the half-precision
// conversions that printing and I/O need.
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// In the global namespace, where argument-dependent lookup finds them for DLPack's types.
inline bool operator==(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}
inline bool operator!=(DLDataType a, DLDataType b) {
  return !(a == b);
}

namespace relax::vm {

inline constexpr DLDataType kFloat16{kDLFloat, 16, 1};
inline constexpr DLDataType kFloat32{kDLFloat, 32, 1};
inline constexpr DLDataType kFloat64{kDLFloat, 64, 1};
inline constexpr DLDataType kBFloat16{kDLBfloat, 16, 1};
inline constexpr DLDataType kInt8{kDLInt, 8, 1};
inline constexpr DLDataType kInt16{kDLInt, 16, 1};
inline constexpr DLDataType kInt32{kDLInt, 32, 1};
inline constexpr DLDataType kInt64{kDLInt, 64, 1};
inline constexpr DLDataType kUInt8{kDLUInt, 8, 1};
inline constexpr DLDataType kBool{kDLUInt, 1, 1};

inline bool is_bool(DLDataType t) {
  return t.code == kDLUInt && t.bits == 1;
}
inline bool is_float(DLDataType t) {
  return t.code == kDLFloat || t.code == kDLBfloat;
}
inline bool is_integer(DLDataType t) {
  return (t.code == kDLInt || t.code == kDLUInt) && !is_bool(t);
}

// Bytes one element takes in memory (bool: 1).
inline int64_t dtype_bytes(DLDataType t) {
  return (static_cast<int64_t>(t.bits) * t.lanes + 7) / 8;
}

std::string dtype_name(DLDataType t);
std::optional<DLDataType> parse_dtype(std::string_view name);

float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bfloat16_to_float(uint16_t b);
uint16_t float_to_bfloat16(float f);

// Reads element `i` of a buffer of the given type as a double (ints, bools and floats).
double load_as_double(const void* data, DLDataType t, int64_t i);

}  // namespace relax::vm

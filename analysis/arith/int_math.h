// Integer helpers for symbolic arithmetic: overflow-checked int64 operations, TVM's floor and
// truncating division on constants, gcd, and the value range of an integer dtype. Everything here
// is free of undefined behaviour for every int64 input (INT64_MIN included).
#pragma once

#include <cstdint>
#include <limits>

#include "ir/data_type.h"

namespace relax::analysis::arith {

// The canonical form keeps every coefficient in [-INT64_MAX, INT64_MAX] so that negation and
// absolute values never overflow; INT64_MIN counts as an overflow.
inline bool checked_add(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_add_overflow(a, b, out) && *out != std::numeric_limits<int64_t>::min();
}
inline bool checked_sub(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_sub_overflow(a, b, out) && *out != std::numeric_limits<int64_t>::min();
}
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out) && *out != std::numeric_limits<int64_t>::min();
}

// Floor division and modulo (Python's // and %): the remainder has the divisor's sign.
// Preconditions: b != 0 and not (a == INT64_MIN and b == -1).
inline int64_t floordiv_i64(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t floormod_i64(int64_t a, int64_t b) {
  if (b == -1) return 0;  // a % -1 is UB for INT64_MIN
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
// The smallest integer >= a / b, for b > 0.
inline int64_t ceildiv_i64(int64_t a, int64_t b) {
  return -floordiv_i64(-a, b);
}

// Greatest common divisor of |a| and |b| (gcd(0, 0) = 0). Inputs must not be INT64_MIN.
inline int64_t gcd_i64(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? static_cast<uint64_t>(-a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? static_cast<uint64_t>(-b) : static_cast<uint64_t>(b);
  while (y != 0) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return static_cast<int64_t>(x);
}

// True for the dtypes the canonical form covers: scalar signed integers of 8 to 64 bits.
inline bool is_index_dtype(ir::DataType t) {
  return t.is_int() && t.is_scalar() && t.bits() >= 8 && t.bits() <= 64;
}

// The smallest and largest value of an integer or bool dtype (uint64 is capped at INT64_MAX).
inline int64_t dtype_min(ir::DataType t) {
  if (t.is_int()) {
    return t.bits() >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (t.bits() - 1));
  }
  return 0;
}
inline int64_t dtype_max(ir::DataType t) {
  if (t.is_int()) {
    return t.bits() >= 64 ? std::numeric_limits<int64_t>::max()
                          : (int64_t{1} << (t.bits() - 1)) - 1;
  }
  if (t.is_bool()) return 1;
  if (t.is_uint()) {
    return t.bits() >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << t.bits()) - 1;
  }
  return std::numeric_limits<int64_t>::max();
}
inline bool fits_dtype(ir::DataType t, int64_t v) {
  return v >= dtype_min(t) && v <= dtype_max(t);
}

// Two's complement wrap of v to a signed integer of `bits` bits (a C++ narrowing conversion).
inline int64_t wrap_to_bits(int64_t v, int bits) {
  if (bits >= 64) return v;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (u & (uint64_t{1} << (bits - 1))) u |= ~mask;
  return static_cast<int64_t>(u);
}

}  // namespace relax::analysis::arith

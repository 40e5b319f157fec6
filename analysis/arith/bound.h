// The two abstract domains the analyzer reasons with: constant integer intervals (with infinite
// ends) and modular sets {coeff * k + base}. Interval arithmetic saturates to infinity instead of
// overflowing, so every operation is defined for every input.
#pragma once

#include <cstdint>
#include <string>

namespace relax::analysis::arith {

// An interval [min_value, max_value] of integers; kNegInf / kPosInf mark an open end.
struct ConstIntBound {
  static constexpr int64_t kPosInf = INT64_MAX;
  static constexpr int64_t kNegInf = -INT64_MAX;

  int64_t min_value = kNegInf;
  int64_t max_value = kPosInf;

  static ConstIntBound everything() { return {}; }
  static ConstIntBound point(int64_t v) { return {v, v}; }
  static ConstIntBound range(int64_t lo, int64_t hi) { return {lo, hi}; }

  bool is_const() const {
    return min_value == max_value && min_value != kNegInf && min_value != kPosInf;
  }
  bool is_empty() const { return min_value > max_value; }
  bool is_non_negative() const { return min_value >= 0; }
  bool is_positive() const { return min_value > 0; }
  bool is_negative() const { return max_value < 0; }
  bool contains(int64_t v) const { return min_value <= v && v <= max_value; }
  bool operator==(const ConstIntBound&) const = default;

  // "[0, +inf)", "[-inf, 3]", for test messages.
  std::string str() const;
};

// Interval operations, each a sound over-approximation of the exact set.
ConstIntBound bound_add(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_neg(const ConstIntBound& a);
ConstIntBound bound_mul(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_mul_const(const ConstIntBound& a, int64_t c);
// Floor division by a bound that excludes zero; everything when it may be zero.
ConstIntBound bound_floordiv(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_truncdiv(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_floormod(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_truncmod(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_min(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_max(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_intersect(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_union(const ConstIntBound& a, const ConstIntBound& b);
// x ** n for x in `a` (n >= 1); even powers are non-negative.
ConstIntBound bound_pow(const ConstIntBound& a, int n);

// The set {coeff * k + base | k integer}; coeff == 0 is the single value `base`, coeff == 1 is
// every integer. Invariant: coeff >= 0, and 0 <= base < coeff when coeff > 0.
struct ModularSet {
  int64_t coeff = 1;
  int64_t base = 0;

  static ModularSet everything() { return {1, 0}; }
  static ModularSet constant(int64_t v) { return {0, v}; }
  // Normalizes the base into [0, coeff).
  static ModularSet make(int64_t coeff, int64_t base);

  bool is_const() const { return coeff == 0; }
  bool is_everything() const { return coeff == 1; }
  bool operator==(const ModularSet&) const = default;
};

// Modular-set operations; they fall back to `everything` when a value would overflow.
ModularSet modular_add(const ModularSet& a, const ModularSet& b);
ModularSet modular_mul(const ModularSet& a, const ModularSet& b);
ModularSet modular_scale(const ModularSet& a, int64_t c);
// The smallest modular set containing both.
ModularSet modular_union(const ModularSet& a, const ModularSet& b);

// Shrinks an interval so that its ends lie in the modular set (may make it empty).
ConstIntBound tighten(const ConstIntBound& b, const ModularSet& m);

}  // namespace relax::analysis::arith

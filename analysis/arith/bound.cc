// Interval and modular-set arithmetic. Interval ends are widened to 128 bits, where the infinite
// ends become +-2^100, and narrowed back with saturation; a lower end never narrows to +inf and an
// upper end never to -inf, so a saturated result is still a sound bound.
#include "analysis/arith/bound.h"

#include <algorithm>

#include "analysis/arith/int_math.h"

namespace relax::analysis::arith {

namespace {

using Wide = __int128;
constexpr Wide kBig = Wide(1) << 100;
constexpr int64_t kPosInf = ConstIntBound::kPosInf;
constexpr int64_t kNegInf = ConstIntBound::kNegInf;

Wide widen(int64_t v) {
  if (v <= kNegInf) return -kBig;
  if (v >= kPosInf) return kBig;
  return v;
}
int64_t narrow_lo(Wide w) {
  if (w <= kNegInf) return kNegInf;
  if (w >= kPosInf) return kPosInf - 1;
  return static_cast<int64_t>(w);
}
int64_t narrow_hi(Wide w) {
  if (w >= kPosInf) return kPosInf;
  if (w <= kNegInf) return kNegInf + 1;
  return static_cast<int64_t>(w);
}
bool is_inf(Wide w) {
  return w >= kBig || w <= -kBig;
}
int sign(Wide w) {
  return w > 0 ? 1 : (w < 0 ? -1 : 0);
}

// Inputs are either infinite or within int64, so finite products fit in 127 bits.
Wide wmul(Wide a, Wide b) {
  if (a == 0 || b == 0) return 0;
  if (is_inf(a) || is_inf(b)) return sign(a) * sign(b) > 0 ? kBig : -kBig;
  return a * b;
}

// Limits of a / b at infinite ends (b != 0): finite / inf tends to 0 (floor: -1 for opposite
// signs), inf / inf is given the sign of the quotient, which lies inside the hull of the corners.
Wide wdiv(Wide a, Wide b, bool floor) {
  if (is_inf(b)) {
    if (is_inf(a)) return sign(a) * sign(b);
    if (!floor || a == 0 || sign(a) == sign(b)) return 0;
    return -1;
  }
  if (is_inf(a)) return sign(a) * sign(b) > 0 ? kBig : -kBig;
  // Both finite: |b| >= 1, so the quotient fits; a == INT64_MIN with b == -1 is 2^63, still fine.
  Wide q = a / b;
  if (floor && (a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

ConstIntBound hull4(Wide a, Wide b, Wide c, Wide d) {
  Wide lo = std::min(std::min(a, b), std::min(c, d));
  Wide hi = std::max(std::max(a, b), std::max(c, d));
  return {narrow_lo(lo), narrow_hi(hi)};
}

ConstIntBound divide(const ConstIntBound& a, const ConstIntBound& b, bool floor) {
  if (b.contains(0)) return ConstIntBound::everything();
  Wide al = widen(a.min_value), ah = widen(a.max_value);
  Wide bl = widen(b.min_value), bh = widen(b.max_value);
  return hull4(wdiv(al, bl, floor), wdiv(al, bh, floor), wdiv(ah, bl, floor), wdiv(ah, bh, floor));
}

}  // namespace

std::string ConstIntBound::str() const {
  auto end = [](int64_t v) {
    if (v <= kNegInf) return std::string("-inf");
    if (v >= kPosInf) return std::string("+inf");
    return std::to_string(v);
  };
  return "[" + end(min_value) + ", " + end(max_value) + "]";
}

ConstIntBound bound_add(const ConstIntBound& a, const ConstIntBound& b) {
  return {narrow_lo(widen(a.min_value) + widen(b.min_value)),
          narrow_hi(widen(a.max_value) + widen(b.max_value))};
}

ConstIntBound bound_neg(const ConstIntBound& a) {
  return {narrow_lo(-widen(a.max_value)), narrow_hi(-widen(a.min_value))};
}

ConstIntBound bound_mul(const ConstIntBound& a, const ConstIntBound& b) {
  Wide al = widen(a.min_value), ah = widen(a.max_value);
  Wide bl = widen(b.min_value), bh = widen(b.max_value);
  return hull4(wmul(al, bl), wmul(al, bh), wmul(ah, bl), wmul(ah, bh));
}

ConstIntBound bound_mul_const(const ConstIntBound& a, int64_t c) {
  return bound_mul(a, ConstIntBound::point(c));
}

ConstIntBound bound_floordiv(const ConstIntBound& a, const ConstIntBound& b) {
  return divide(a, b, /*floor=*/true);
}

ConstIntBound bound_truncdiv(const ConstIntBound& a, const ConstIntBound& b) {
  return divide(a, b, /*floor=*/false);
}

ConstIntBound bound_floormod(const ConstIntBound& a, const ConstIntBound& b) {
  if (b.min_value > 0) {
    // A constant divisor and a numerator inside one period: the result is a shifted interval.
    if (b.is_const() && a.min_value != kNegInf && a.max_value != kPosInf) {
      int64_t c = b.min_value;
      int64_t k = floordiv_i64(a.min_value, c);
      if (floordiv_i64(a.max_value, c) == k) {
        int64_t r = floormod_i64(a.min_value, c);
        return {r, r + (a.max_value - a.min_value)};
      }
    }
    int64_t hi = b.max_value == kPosInf ? kPosInf : b.max_value - 1;
    if (a.min_value >= 0) hi = std::min(hi, a.max_value);
    return {0, hi};
  }
  if (b.max_value < 0) {
    int64_t lo = b.min_value == kNegInf ? kNegInf : b.min_value + 1;
    if (a.max_value <= 0) lo = std::max(lo, a.min_value);
    return {lo, 0};
  }
  return ConstIntBound::everything();
}

ConstIntBound bound_truncmod(const ConstIntBound& a, const ConstIntBound& b) {
  // |result| < max |divisor|, and the result has the numerator's sign.
  Wide m = std::max(-widen(b.min_value), widen(b.max_value));
  int64_t lim = is_inf(m) ? kPosInf : narrow_hi(m - 1);
  int64_t neg_lim = lim == kPosInf ? kNegInf : -lim;
  if (a.min_value >= 0) return {0, std::min(lim, a.max_value)};
  if (a.max_value <= 0) return {std::max(neg_lim, a.min_value), 0};
  return {neg_lim, lim};
}

ConstIntBound bound_min(const ConstIntBound& a, const ConstIntBound& b) {
  return {std::min(a.min_value, b.min_value), std::min(a.max_value, b.max_value)};
}

ConstIntBound bound_max(const ConstIntBound& a, const ConstIntBound& b) {
  return {std::max(a.min_value, b.min_value), std::max(a.max_value, b.max_value)};
}

ConstIntBound bound_intersect(const ConstIntBound& a, const ConstIntBound& b) {
  return {std::max(a.min_value, b.min_value), std::min(a.max_value, b.max_value)};
}

ConstIntBound bound_union(const ConstIntBound& a, const ConstIntBound& b) {
  return {std::min(a.min_value, b.min_value), std::max(a.max_value, b.max_value)};
}

ConstIntBound bound_pow(const ConstIntBound& a, int n) {
  Wide lo = widen(a.min_value), hi = widen(a.max_value);
  if (n % 2 == 0) {
    // Even powers depend on |x| only.
    if (hi <= 0) {
      Wide t = -lo;
      lo = -hi;
      hi = t;
    } else if (lo < 0) {
      hi = std::max(-lo, hi);
      lo = 0;
    }
  }
  Wide rl = 1, rh = 1;
  for (int i = 0; i < n; ++i) {
    rl = wmul(rl, lo);
    rh = wmul(rh, hi);
  }
  return {narrow_lo(rl), narrow_hi(rh)};
}

ModularSet ModularSet::make(int64_t coeff, int64_t base) {
  if (coeff == INT64_MIN || base == INT64_MIN) return everything();
  if (coeff < 0) coeff = -coeff;
  if (coeff == 0) return {0, base};
  return {coeff, floormod_i64(base, coeff)};
}

ModularSet modular_add(const ModularSet& a, const ModularSet& b) {
  int64_t base;
  if (a.is_const() && b.is_const()) {
    if (!checked_add(a.base, b.base, &base)) return ModularSet::everything();
    return ModularSet::constant(base);
  }
  int64_t coeff = gcd_i64(a.coeff, b.coeff);
  if (!checked_add(a.base, b.base, &base)) return ModularSet::everything();
  return ModularSet::make(coeff, base);
}

ModularSet modular_mul(const ModularSet& a, const ModularSet& b) {
  int64_t cc, cb, bc, bb;
  if (!checked_mul(a.coeff, b.coeff, &cc) || !checked_mul(a.coeff, b.base, &cb) ||
      !checked_mul(b.coeff, a.base, &bc) || !checked_mul(a.base, b.base, &bb)) {
    return ModularSet::everything();
  }
  int64_t coeff = gcd_i64(gcd_i64(cc, cb), bc);
  if (coeff == 0) return ModularSet::constant(bb);
  return ModularSet::make(coeff, bb);
}

ModularSet modular_scale(const ModularSet& a, int64_t c) {
  return modular_mul(a, ModularSet::constant(c));
}

ModularSet modular_union(const ModularSet& a, const ModularSet& b) {
  int64_t diff;
  if (!checked_sub(a.base, b.base, &diff)) return ModularSet::everything();
  int64_t coeff = gcd_i64(gcd_i64(a.coeff, b.coeff), diff);
  if (coeff == 0) return a;  // the same constant
  return ModularSet::make(coeff, a.base);
}

ConstIntBound tighten(const ConstIntBound& b, const ModularSet& m) {
  if (m.coeff == 1) return b;
  if (m.coeff == 0) {
    if (b.contains(m.base)) return ConstIntBound::point(m.base);
    return {1, 0};  // empty
  }
  ConstIntBound r = b;
  int64_t step;
  if (r.min_value != kNegInf) {
    // Round up to the next member of the set; give up on overflow.
    int64_t d;
    if (checked_sub(m.base, r.min_value, &d) &&
        checked_add(r.min_value, floormod_i64(d, m.coeff), &step) && step < kPosInf) {
      r.min_value = step;
    }
  }
  if (r.max_value != kPosInf) {
    int64_t d;
    if (checked_sub(r.max_value, m.base, &d) &&
        checked_sub(r.max_value, floormod_i64(d, m.coeff), &step) && step > kNegInf) {
      r.max_value = step;
    }
  }
  return r;
}

}  // namespace relax::analysis::arith

// TVM's PrimExpr operator semantics: BinaryOpMatchTypes-style dtype matching, then constant
// folding for index types and floats (the rules of TVM's arith/const_fold.h, restated).
#include "syntax/frontend/prim_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace relax::syntax {

using ir::DataType;
using ir::make;
using ir::ObjectKind;
using namespace ir::tir;

namespace {

// Wraps an int64 result to the bit width and signedness of `t`.
int64_t wrap_to(int64_t x, DataType t) {
  if (t.bits() < 64 && t.bits() > 0) {
    x &= (int64_t{1} << t.bits()) - 1;
    if (t.is_int()) {
      int64_t m = int64_t{1} << (t.bits() - 1);
      x = (x ^ m) - m;
    }
  }
  return x;
}

double fold_float(DataType t, double exact32, double exact64) {
  if (t.bits() == 32) return static_cast<double>(static_cast<float>(exact32));
  return exact64;
}

bool is_index_type(DataType t) {
  return t.is_int() && t.is_scalar() && (t.bits() == 32 || t.bits() == 64);
}

// Brings two operands to one dtype, as TVM's BinaryOpMatchTypes does. False when impossible.
bool match_types(Ref<PrimExpr>& a, Ref<PrimExpr>& b) {
  DataType ta = a->dtype, tb = b->dtype;
  if (ta == tb) return true;
  // A scalar meets a vector: broadcast the scalar.
  if (ta.lanes() != tb.lanes()) {
    if (ta.is_scalar() && !tb.is_scalar()) {
      a = make<Broadcast>(ta.with_lanes(tb.lanes()), a, int32(tb.lanes()));
      ta = a->dtype;
    } else if (tb.is_scalar() && !ta.is_scalar()) {
      b = make<Broadcast>(tb.with_lanes(ta.lanes()), b, int32(ta.lanes()));
      tb = b->dtype;
    } else {
      return false;
    }
    if (ta == tb) return true;
  }
  if (ta.is_handle() || tb.is_handle() || ta.is_void() || tb.is_void()) return false;
  if (ta.is_floating() && !tb.is_floating()) {
    b = prim_cast(ta, b);
  } else if (!ta.is_floating() && tb.is_floating()) {
    a = prim_cast(tb, a);
  } else if (ta.is_floating() && tb.is_floating()) {
    if (ta.bits() < tb.bits())
      a = prim_cast(tb, a);
    else
      b = prim_cast(ta, b);
  } else if ((ta.is_int() && tb.is_int()) || (ta.is_uint() && tb.is_uint()) ||
             (ta.is_bool() && tb.is_bool())) {
    if (ta.bits() < tb.bits())
      a = prim_cast(tb, a);
    else
      b = prim_cast(ta, b);
  } else if (ta.is_bool() || tb.is_bool()) {
    // bool meets an integer: the bool is widened to the integer type.
    if (ta.is_bool())
      a = prim_cast(tb, a);
    else
      b = prim_cast(ta, b);
  } else {
    // int meets uint: the wider wins; on equal width, uint wins.
    if (ta.bits() < tb.bits())
      a = prim_cast(tb, a);
    else if (ta.bits() > tb.bits())
      b = prim_cast(ta, b);
    else if (ta.is_uint())
      b = prim_cast(ta, b);
    else
      a = prim_cast(tb, a);
  }
  return a->dtype == b->dtype;
}

Ref<PrimExpr> zero_of(DataType t) {
  if (t.is_floating()) return make<FloatImm>(t, 0.0);
  return make<IntImm>(t, 0);
}

// The exact result of folding two integer constants, checked against the dtype: signed results
// that leave the dtype's range are an overflow (nullopt; the node then stays as written);
// unsigned ones wrap, as the hardware and TVM do. Division by zero is left to the caller.
std::optional<int64_t> fold_int(ObjectKind kind, int64_t a, int64_t b, DataType t) {
  __int128 x = a, y = b, r = 0;
  switch (kind) {
    case ObjectKind::kAdd:
      r = x + y;
      break;
    case ObjectKind::kSub:
      r = x - y;
      break;
    case ObjectKind::kMul:
      r = x * y;  // |a|, |b| <= 2^63: the product fits in 127 bits
      break;
    case ObjectKind::kDiv:
    case ObjectKind::kMod:
      r = kind == ObjectKind::kDiv ? x / y : x % y;
      break;
    case ObjectKind::kFloorDiv:
    case ObjectKind::kFloorMod: {
      __int128 q = x / y;
      if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
      r = kind == ObjectKind::kFloorDiv ? q : x - q * y;
      break;
    }
    default:
      return std::nullopt;
  }
  if (t.is_uint() || t.is_bool()) return wrap_to(static_cast<int64_t>(r), t);
  int bits = t.bits() > 0 && t.bits() < 64 ? t.bits() : 64;
  __int128 lo = -(static_cast<__int128>(1) << (bits - 1));
  __int128 hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
  if (r < lo || r > hi) return std::nullopt;
  return static_cast<int64_t>(r);
}

// Constant folding and identities; null when nothing folds. Sets `*overflow` when two integer
// constants do not fold because the result leaves their dtype.
Ref<PrimExpr> try_fold(ObjectKind kind, const Ref<PrimExpr>& a, const Ref<PrimExpr>& b,
                       bool* overflow) {
  const IntImm* pa = a.as_ptr<IntImm>();
  const IntImm* pb = b.as_ptr<IntImm>();
  const FloatImm* fa = a.as_ptr<FloatImm>();
  const FloatImm* fb = b.as_ptr<FloatImm>();
  DataType t = a->dtype;
  auto fold_ints = [&]() -> Ref<PrimExpr> {
    auto r = fold_int(kind, pa->value, pb->value, t);
    if (!r) {
      *overflow = true;
      return nullptr;
    }
    return make<IntImm>(t, *r);
  };
  switch (kind) {
    case ObjectKind::kAdd:
      if (pa && pb) return fold_ints();
      if (pa && pa->value == 0) return b;
      if (pb && pb->value == 0) return a;
      if (fa && fb && (t.bits() == 32 || t.bits() == 64)) {
        return make<FloatImm>(
            t, fold_float(t, static_cast<float>(fa->value) + static_cast<float>(fb->value),
                          fa->value + fb->value));
      }
      if (fa && fa->value == 0) return b;
      if (fb && fb->value == 0) return a;
      return nullptr;
    case ObjectKind::kSub:
      if (pa && pb) return fold_ints();
      if (pb && pb->value == 0) return a;
      if (fa && fb && (t.bits() == 32 || t.bits() == 64)) {
        return make<FloatImm>(
            t, fold_float(t, static_cast<float>(fa->value) - static_cast<float>(fb->value),
                          fa->value - fb->value));
      }
      if (fb && fb->value == 0) return a;
      return nullptr;
    case ObjectKind::kMul:
      if (pa && pb) return fold_ints();
      if (pa) {
        if (pa->value == 1) return b;
        if (pa->value == 0) return a;
      }
      if (pb) {
        if (pb->value == 1) return a;
        if (pb->value == 0) return b;
      }
      if (fa && fb && (t.bits() == 32 || t.bits() == 64)) {
        return make<FloatImm>(
            t, fold_float(t, static_cast<float>(fa->value) * static_cast<float>(fb->value),
                          fa->value * fb->value));
      }
      if (fa) {
        if (fa->value == 1) return b;
        if (fa->value == 0) return a;
      }
      if (fb) {
        if (fb->value == 1) return a;
        if (fb->value == 0) return b;
      }
      return nullptr;
    case ObjectKind::kDiv:
      if (pa && pb && pb->value != 0) return fold_ints();
      if (pa && pa->value == 0) return a;
      if (pb && pb->value == 1) return a;
      if (fa && fb && fb->value != 0 && (t.bits() == 32 || t.bits() == 64)) {
        return make<FloatImm>(
            t, fold_float(t, static_cast<float>(fa->value) / static_cast<float>(fb->value),
                          fa->value / fb->value));
      }
      if (fa && fa->value == 0) return a;
      if (fb && fb->value == 1) return a;
      return nullptr;
    case ObjectKind::kMod:
      if (!is_index_type(a->dtype) || !is_index_type(b->dtype)) return nullptr;
      if (pa && pb && pb->value != 0) return fold_ints();
      if (pa && pa->value == 0) return a;
      if (pb && pb->value == 1) return zero_of(t);
      return nullptr;
    case ObjectKind::kFloorDiv:
      if (pa && pb && pb->value != 0) return fold_ints();
      if (pa && pa->value == 0) return a;
      if (pb && pb->value == 1) return a;
      if (fa && fb && fb->value != 0 && (t.bits() == 32 || t.bits() == 64)) {
        return make<FloatImm>(
            t,
            fold_float(t, std::floor(static_cast<float>(fa->value) / static_cast<float>(fb->value)),
                       std::floor(fa->value / fb->value)));
      }
      if (fa && fa->value == 0) return a;
      if (fb && fb->value == 1) return a;
      return nullptr;
    case ObjectKind::kFloorMod:
      if (!is_index_type(a->dtype) || !is_index_type(b->dtype)) return nullptr;
      if (pa && pb && pb->value != 0) return fold_ints();
      if (pa && pa->value == 0) return a;
      if (pb && pb->value == 1) return zero_of(t);
      return nullptr;
    case ObjectKind::kMin:
      if (pa && pb) return make<IntImm>(t, std::min(pa->value, pb->value));
      if (fa && fb) return make<FloatImm>(t, std::min(fa->value, fb->value));
      if (a.same_as(b)) return a;
      return nullptr;
    case ObjectKind::kMax:
      if (pa && pb) return make<IntImm>(t, std::max(pa->value, pb->value));
      if (fa && fb) return make<FloatImm>(t, std::max(fa->value, fb->value));
      if (a.same_as(b)) return a;
      return nullptr;
    default:
      return nullptr;
  }
}

}  // namespace

bool prim_match_types(Ref<PrimExpr>& a, Ref<PrimExpr>& b) {
  return a && b && match_types(a, b);
}

Ref<PrimExpr> prim_cast(DataType t, Ref<PrimExpr> value, ir::Span span) {
  if (!value || value->dtype == t) return value;
  if (t.is_scalar()) {
    if (auto imm = value.as_ptr<IntImm>()) {
      if (t.is_floating()) return make<FloatImm>(t, static_cast<double>(imm->value));
      if (t.is_integer_like())
        return make<IntImm>(t, t.is_bool() ? (imm->value != 0) : wrap_to(imm->value, t));
    }
    if (auto imm = value.as_ptr<FloatImm>()) {
      if (t.is_floating())
        return make<FloatImm>(
            t, t.bits() == 32 ? static_cast<double>(static_cast<float>(imm->value)) : imm->value);
      if (t.is_integer_like() && std::isfinite(imm->value)) {
        if (t.is_bool()) return make<IntImm>(t, imm->value != 0);
        // Only a value the dtype holds folds (converting any other is undefined behaviour in
        // C++ and an error in TVM); otherwise the Cast stays as written.
        double v = std::trunc(imm->value);
        int bits = t.bits() > 0 && t.bits() < 64 ? t.bits() : 64;
        double lo = t.is_uint() ? 0.0 : -std::ldexp(1.0, bits - 1);
        double hi = std::ldexp(1.0, t.is_uint() && bits < 64 ? bits : bits - 1);  // exclusive
        if (v >= lo && v < hi) return make<IntImm>(t, static_cast<int64_t>(v));
      }
    }
  }
  auto cast = make<Cast>(t, std::move(value));
  cast->span = span;
  return cast;
}

Ref<PrimExpr> prim_arith(ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b, ir::Span span,
                         bool* overflow) {
  if (!a || !b) return nullptr;
  if (!match_types(a, b)) return nullptr;
  bool overflowed = false;
  if (Ref<PrimExpr> folded = try_fold(kind, a, b, &overflowed)) return folded;
  if (overflow) *overflow = overflowed;
  auto node = make<BinaryOp>(kind, a->dtype, a, b);
  node->span = span;
  return node;
}

Ref<PrimExpr> prim_compare(ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b, ir::Span span) {
  if (!a || !b) return nullptr;
  if (a->dtype.lanes() != b->dtype.lanes()) {
    if (a->dtype.is_scalar()) {
      a = make<Broadcast>(a->dtype.with_lanes(b->dtype.lanes()), a, int32(b->dtype.lanes()));
    } else if (b->dtype.is_scalar()) {
      b = make<Broadcast>(b->dtype.with_lanes(a->dtype.lanes()), b, int32(a->dtype.lanes()));
    } else {
      return nullptr;
    }
  }
  return binary(kind, std::move(a), std::move(b), span);
}

Ref<PrimExpr> prim_negate(Ref<PrimExpr> x, ir::Span span, bool* overflow) {
  if (auto imm = x.as_ptr<IntImm>()) {
    if (auto r = fold_int(ObjectKind::kSub, 0, imm->value, x->dtype))
      return make<IntImm>(x->dtype, *r);
    if (overflow) *overflow = true;
    Ref<PrimExpr> minus_one = make<IntImm>(x->dtype.element_of(), -1);
    return prim_arith(ObjectKind::kMul, std::move(x), std::move(minus_one), span);
  }
  if (auto imm = x.as_ptr<FloatImm>()) return make<FloatImm>(x->dtype, -imm->value);
  Ref<PrimExpr> minus_one = x->dtype.is_floating()
                                ? Ref<PrimExpr>(make<FloatImm>(x->dtype.element_of(), -1.0))
                                : Ref<PrimExpr>(make<IntImm>(x->dtype.element_of(), -1));
  return prim_arith(ObjectKind::kMul, std::move(x), minus_one, span);
}

Ref<PrimExpr> prim_bitwise(std::string_view op, Ref<PrimExpr> a, Ref<PrimExpr> b, ir::Span span) {
  if (!a || !b) return nullptr;
  if (!match_types(a, b)) return nullptr;
  std::string name;
  if (op == "&")
    name = "tir.bitwise_and";
  else if (op == "|")
    name = "tir.bitwise_or";
  else if (op == "^")
    name = "tir.bitwise_xor";
  else if (op == "<<")
    name = "tir.shift_left";
  else if (op == ">>")
    name = "tir.shift_right";
  else
    return nullptr;
  auto call = make<Call>(a->dtype, name, std::vector<Ref<PrimExpr>>{a, b});
  call->span = span;
  return call;
}

Ref<PrimExpr> literal_like(int64_t value, DataType other, ir::Span span) {
  DataType elem = other.element_of();
  if (elem.is_floating()) return float_imm(elem, static_cast<double>(value), span);
  if (elem.is_integer_like()) return int_imm(elem, value, span);
  return int_imm(DataType::Int32(), value, span);
}

Ref<PrimExpr> literal_like(double value, DataType other, ir::Span span) {
  DataType elem = other.element_of();
  if (elem.is_floating()) return float_imm(elem, value, span);
  return float_imm(DataType::Float32(), value, span);
}

}  // namespace relax::syntax

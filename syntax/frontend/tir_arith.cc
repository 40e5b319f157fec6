// Small integer arithmetic for the TIR front end: linear forms (sum of coefficient * term plus a
// constant) to compare and cancel index expressions, structural expression equality, and
// substitution with constant refolding. Enough for the extents TVMScript computes from
// `range(a, b)`, slices and block regions; not a general simplifier.
#include <functional>
#include <limits>

#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_internal.h"

namespace relax::syntax::tirfe {

using ir::make;
using ir::ObjectKind;

namespace {

// Coefficients and the constant stay in [-INT64_MAX, INT64_MAX], so that negating them is
// defined; a form whose arithmetic leaves that range is `overflow` and simplifies nothing.
struct LinearForm {
  std::vector<std::pair<Ref<PrimExpr>, int64_t>> terms;
  int64_t constant = 0;
  bool overflow = false;

  static bool checked(bool overflowed, int64_t result) {
    return !overflowed && result != std::numeric_limits<int64_t>::min();
  }
  void add_term(const Ref<PrimExpr>& t, int64_t coef) {
    for (auto& [term, c] : terms) {
      if (expr_equal(term, t)) {
        overflow |= !checked(__builtin_add_overflow(c, coef, &c), c);
        return;
      }
    }
    terms.emplace_back(t, coef);
  }
  void add(const LinearForm& other, int64_t scale) {
    overflow |= other.overflow;
    int64_t scaled = 0;
    overflow |= !checked(__builtin_mul_overflow(other.constant, scale, &scaled), scaled);
    overflow |= !checked(__builtin_add_overflow(constant, scaled, &constant), constant);
    for (const auto& [t, c] : other.terms) {
      overflow |= !checked(__builtin_mul_overflow(c, scale, &scaled), scaled);
      add_term(t, scaled);
    }
  }
  bool is_constant() const {
    for (const auto& [t, c] : terms) {
      if (c != 0) return false;
    }
    return true;
  }
};

// True when `v` is a value of the integer dtype `t` (an immediate of `t` may hold it).
bool holds(DataType t, int64_t v) {
  if (t.bits() >= 64) return !t.is_uint() || v >= 0;
  int64_t lo = t.is_uint() ? 0 : -(int64_t{1} << (t.bits() - 1));
  int64_t hi = t.is_uint() ? (int64_t{1} << t.bits()) - 1 : (int64_t{1} << (t.bits() - 1)) - 1;
  return v >= lo && v <= hi;
}

LinearForm linear_form(const Ref<PrimExpr>& e) {
  LinearForm out;
  if (!e) return out;
  if (auto imm = e.as_ptr<IntImm>()) {
    out.constant = imm->value;
    out.overflow = imm->value == std::numeric_limits<int64_t>::min();
    return out;
  }
  switch (e->kind()) {
    case ObjectKind::kAdd:
    case ObjectKind::kSub: {
      const auto& b = static_cast<const BinaryOp&>(*e);
      out.add(linear_form(b.a), 1);
      out.add(linear_form(b.b), e->kind() == ObjectKind::kAdd ? 1 : -1);
      return out;
    }
    case ObjectKind::kMul: {
      const auto& b = static_cast<const BinaryOp&>(*e);
      if (auto c = as_const_int(b.b)) {
        out.add(linear_form(b.a), *c);
        return out;
      }
      if (auto c = as_const_int(b.a)) {
        out.add(linear_form(b.b), *c);
        return out;
      }
      break;
    }
    default:
      break;
  }
  out.add_term(e, 1);
  return out;
}

LinearForm difference(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  LinearForm d = linear_form(a);
  d.add(linear_form(b), -1);
  return d;
}

bool exprs_equal(const std::vector<Ref<PrimExpr>>& a, const std::vector<Ref<PrimExpr>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!expr_equal(a[i], b[i])) return false;
  }
  return true;
}

}  // namespace

bool expr_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  if (a.same_as(b)) return true;
  if (!a || !b) return false;
  if (a->kind() != b->kind() || a->dtype != b->dtype) return false;
  switch (a->kind()) {
    case ObjectKind::kTirVar:
      return false;  // identity only
    case ObjectKind::kIntImm:
      return a.as_ptr<IntImm>()->value == b.as_ptr<IntImm>()->value;
    case ObjectKind::kFloatImm: {
      double x = a.as_ptr<FloatImm>()->value, y = b.as_ptr<FloatImm>()->value;
      return x == y || (x != x && y != y);
    }
    case ObjectKind::kTirStringImm:
      return a.as_ptr<StringImm>()->value == b.as_ptr<StringImm>()->value;
    case ObjectKind::kCast:
      return expr_equal(a.as_ptr<Cast>()->value, b.as_ptr<Cast>()->value);
    case ObjectKind::kNot:
      return expr_equal(a.as_ptr<Not>()->a, b.as_ptr<Not>()->a);
    case ObjectKind::kSelect: {
      auto x = a.as_ptr<Select>(), y = b.as_ptr<Select>();
      return expr_equal(x->condition, y->condition) && expr_equal(x->true_value, y->true_value) &&
             expr_equal(x->false_value, y->false_value);
    }
    case ObjectKind::kBufferLoad: {
      auto x = a.as_ptr<BufferLoad>(), y = b.as_ptr<BufferLoad>();
      return x->buffer == y->buffer && exprs_equal(x->indices, y->indices) &&
             expr_equal(x->predicate, y->predicate);
    }
    case ObjectKind::kRamp: {
      auto x = a.as_ptr<Ramp>(), y = b.as_ptr<Ramp>();
      return expr_equal(x->base, y->base) && expr_equal(x->stride, y->stride) &&
             expr_equal(x->lanes, y->lanes);
    }
    case ObjectKind::kBroadcast: {
      auto x = a.as_ptr<Broadcast>(), y = b.as_ptr<Broadcast>();
      return expr_equal(x->value, y->value) && expr_equal(x->lanes, y->lanes);
    }
    case ObjectKind::kShuffle: {
      auto x = a.as_ptr<Shuffle>(), y = b.as_ptr<Shuffle>();
      return exprs_equal(x->vectors, y->vectors) && exprs_equal(x->indices, y->indices);
    }
    case ObjectKind::kLet: {
      auto x = a.as_ptr<Let>(), y = b.as_ptr<Let>();
      return x->var == y->var && expr_equal(x->value, y->value) && expr_equal(x->body, y->body);
    }
    case ObjectKind::kTirCall: {
      auto x = a.as_ptr<Call>(), y = b.as_ptr<Call>();
      return x->op == y->op && exprs_equal(x->args, y->args);
    }
    default:
      break;
  }
  if (auto x = a.as_ptr<BinaryOp>()) {
    auto y = b.as_ptr<BinaryOp>();
    return expr_equal(x->a, y->a) && expr_equal(x->b, y->b);
  }
  return false;
}

std::optional<int64_t> const_difference(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  if (!a || !b) return std::nullopt;
  if (!a->dtype.is_integer_like() || !b->dtype.is_integer_like()) return std::nullopt;
  LinearForm d = difference(a, b);
  if (d.overflow || !d.is_constant()) return std::nullopt;
  return d.constant;
}

Ref<PrimExpr> simplify_sum(const Ref<PrimExpr>& e) {
  if (!e || !e->dtype.is_int() || !e->dtype.is_scalar()) return e;
  if (e->kind() != ObjectKind::kAdd && e->kind() != ObjectKind::kSub &&
      e->kind() != ObjectKind::kMul)
    return e;
  LinearForm f = linear_form(e);
  DataType t = e->dtype;
  if (f.overflow || !holds(t, f.constant)) return e;
  Ref<PrimExpr> out;
  size_t live = 0;
  for (const auto& [term, c] : f.terms) {
    if (c == 0) continue;
    ++live;
    if (term->dtype != t || !holds(t, c) || !holds(t, -c)) return e;
    if (!out) {
      out = c == 1 ? term : prim_arith(ObjectKind::kMul, term, int_imm(t, c));
    } else if (c > 0) {
      out = prim_arith(ObjectKind::kAdd, out,
                       c == 1 ? term : prim_arith(ObjectKind::kMul, term, int_imm(t, c)));
    } else {
      out = prim_arith(ObjectKind::kSub, out,
                       c == -1 ? term : prim_arith(ObjectKind::kMul, term, int_imm(t, -c)));
    }
  }
  if (live == 0) return int_imm(t, f.constant);
  if (f.constant > 0) out = prim_arith(ObjectKind::kAdd, out, int_imm(t, f.constant));
  if (f.constant < 0) out = prim_arith(ObjectKind::kSub, out, int_imm(t, -f.constant));
  return out ? out : e;
}

Ref<PrimExpr> simplify_extent(const Ref<PrimExpr>& start, const Ref<PrimExpr>& stop,
                              bool* overflow) {
  if (!start || !stop) return nullptr;
  Ref<PrimExpr> raw = prim_arith(ObjectKind::kSub, stop, start, {}, overflow);
  if (!raw || raw->kind() == ObjectKind::kIntImm) return raw;
  if (!start->dtype.is_integer_like() || !stop->dtype.is_integer_like()) return raw;
  if (is_const_int(start, 0)) return raw;
  LinearForm d = difference(stop, start);
  if (d.overflow) return raw;
  if (d.is_constant()) return holds(raw->dtype, d.constant) ? int_imm(raw->dtype, d.constant) : raw;
  // (a + x) - a is x: the form the printer writes for `range(min, min + extent)`.
  if (stop->kind() == ObjectKind::kAdd) {
    const auto& add = static_cast<const BinaryOp&>(*stop);
    if (expr_equal(add.a, start) && add.b->dtype == raw->dtype) return add.b;
  }
  // A single remaining term: (x + c) - c is x.
  size_t live = 0;
  Ref<PrimExpr> only;
  int64_t coef = 0;
  for (const auto& [t, c] : d.terms) {
    if (c != 0) {
      ++live;
      only = t;
      coef = c;
    }
  }
  if (live == 1 && coef == 1 && d.constant == 0 && only->dtype == raw->dtype) return only;
  return raw;
}

Ref<PrimExpr> substitute(const Ref<PrimExpr>& e,
                         const std::unordered_map<const Var*, Ref<PrimExpr>>& map) {
  if (!e || map.empty()) return e;
  std::function<Ref<PrimExpr>(const Ref<PrimExpr>&)> go =
      [&](const Ref<PrimExpr>& x) -> Ref<PrimExpr> {
    if (!x) return x;
    switch (x->kind()) {
      case ObjectKind::kTirVar: {
        auto it = map.find(x.as_ptr<Var>());
        return it == map.end() ? x : it->second;
      }
      case ObjectKind::kIntImm:
      case ObjectKind::kFloatImm:
      case ObjectKind::kTirStringImm:
        return x;
      case ObjectKind::kCast: {
        auto v = go(x.as_ptr<Cast>()->value);
        return v.same_as(x.as_ptr<Cast>()->value) ? x : prim_cast(x->dtype, v);
      }
      case ObjectKind::kNot: {
        auto v = go(x.as_ptr<Not>()->a);
        return v.same_as(x.as_ptr<Not>()->a) ? x : Ref<PrimExpr>(make<Not>(v));
      }
      case ObjectKind::kSelect: {
        auto s = x.as_ptr<Select>();
        auto c = go(s->condition), t = go(s->true_value), f = go(s->false_value);
        if (c.same_as(s->condition) && t.same_as(s->true_value) && f.same_as(s->false_value))
          return x;
        return make<Select>(c, t, f);
      }
      case ObjectKind::kBufferLoad: {
        auto l = x.as_ptr<BufferLoad>();
        std::vector<Ref<PrimExpr>> idx;
        bool changed = false;
        for (const auto& i : l->indices) {
          idx.push_back(go(i));
          changed |= !idx.back().same_as(i);
        }
        if (!changed) return x;
        auto out = make<BufferLoad>(l->dtype, l->buffer, std::move(idx));
        out->predicate = l->predicate;
        return out;
      }
      case ObjectKind::kTirCall: {
        auto c = x.as_ptr<Call>();
        std::vector<Ref<PrimExpr>> args;
        bool changed = false;
        for (const auto& a : c->args) {
          args.push_back(go(a));
          changed |= !args.back().same_as(a);
        }
        if (!changed) return x;
        return make<Call>(c->dtype, c->op, std::move(args));
      }
      default:
        break;
    }
    if (auto b = x.as_ptr<BinaryOp>()) {
      auto l = go(b->a), r = go(b->b);
      if (l.same_as(b->a) && r.same_as(b->b)) return x;
      if (b->is_comparison() || b->kind() == ObjectKind::kAnd || b->kind() == ObjectKind::kOr) {
        return ir::tir::binary(b->kind(), l, r);
      }
      Ref<PrimExpr> out = prim_arith(b->kind(), l, r);
      return out ? out : x;
    }
    return x;
  };
  return go(e);
}

}  // namespace relax::syntax::tirfe

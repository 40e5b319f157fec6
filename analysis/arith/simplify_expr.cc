// Simplification outside the integer canonical form: comparisons (decided from the difference of
// their operands, or normalized to `lhs op rhs` with the gcd divided out), logic (and/or/not
// folding), select with a known condition, and the other dtypes, whose children are simplified
// and whose float constants fold only when the result is exact.
#include <cmath>

#include "analysis/arith/canonical.h"
#include "analysis/arith/expr_equal.h"
#include "analysis/arith/int_math.h"

namespace relax::analysis::arith {

namespace {

using ir::ObjectKind;

constexpr int kMaxDepth = 400;

bool is_comparison(ObjectKind k) {
  return k >= ObjectKind::kEQ && k <= ObjectKind::kGE;
}

std::optional<bool> as_const_bool(const Ref<PrimExpr>& e) {
  if (auto v = tir::as_const_int(e)) return *v != 0;
  return std::nullopt;
}

// The comparison that holds exactly when `k` does not (for integers; NaN breaks this for floats).
ObjectKind negate_comparison(ObjectKind k) {
  switch (k) {
    case ObjectKind::kEQ:
      return ObjectKind::kNE;
    case ObjectKind::kNE:
      return ObjectKind::kEQ;
    case ObjectKind::kLT:
      return ObjectKind::kGE;
    case ObjectKind::kLE:
      return ObjectKind::kGT;
    case ObjectKind::kGT:
      return ObjectKind::kLE;
    default:
      return ObjectKind::kLT;
  }
}

// Whether `a` is `not b`.
bool is_negation_of(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  auto n = a.as_ptr<tir::Not>();
  return n && expr_equal(n->a, b);
}

// Folds float arithmetic on constants when the double result is exact and representable in the
// dtype, so that folding never changes a value.
Ref<PrimExpr> fold_float(ObjectKind kind, DataType t, const Ref<PrimExpr>& a,
                         const Ref<PrimExpr>& b) {
  auto fa = a.as_ptr<tir::FloatImm>();
  auto fb = b.as_ptr<tir::FloatImm>();
  if (!fa || !fb || !t.is_float() || !t.is_scalar() || (t.bits() != 32 && t.bits() != 64))
    return nullptr;
  double x = fa->value, y = fb->value, r;
  if (std::isnan(x) || std::isnan(y)) return nullptr;
  bool exact;
  switch (kind) {
    case ObjectKind::kAdd:
    case ObjectKind::kSub: {
      if (kind == ObjectKind::kSub) y = -y;
      r = x + y;
      double bp = r - x;
      exact = (x - (r - bp)) + (y - bp) == 0.0;  // the rounding error of the sum (TwoSum)
      break;
    }
    case ObjectKind::kMul:
      r = x * y;
      exact = std::fma(x, y, -r) == 0.0;
      break;
    case ObjectKind::kDiv:
      if (y == 0.0) return nullptr;
      r = x / y;
      exact = std::fma(r, y, -x) == 0.0;
      break;
    case ObjectKind::kMin:
      r = std::min(x, y);
      exact = true;
      break;
    case ObjectKind::kMax:
      r = std::max(x, y);
      exact = true;
      break;
    default:
      return nullptr;
  }
  if (!exact || !std::isfinite(r)) return nullptr;
  if (t.bits() == 32 && static_cast<double>(static_cast<float>(r)) != r) return nullptr;
  return tir::float_imm(t, r);
}

std::optional<bool> fold_compare(ObjectKind kind, const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  double x, y;
  auto fa = a.as_ptr<tir::FloatImm>();
  auto fb = b.as_ptr<tir::FloatImm>();
  auto ia = a.as_ptr<tir::IntImm>();
  auto ib = b.as_ptr<tir::IntImm>();
  if (fa && fb) {
    x = fa->value;
    y = fb->value;
  } else if (ia && ib && !(a->dtype.is_uint() && a->dtype.bits() == 64)) {
    int64_t u = ia->value, v = ib->value;
    switch (kind) {
      case ObjectKind::kEQ:
        return u == v;
      case ObjectKind::kNE:
        return u != v;
      case ObjectKind::kLT:
        return u < v;
      case ObjectKind::kLE:
        return u <= v;
      case ObjectKind::kGT:
        return u > v;
      default:
        return u >= v;
    }
  } else {
    return std::nullopt;
  }
  switch (kind) {
    case ObjectKind::kEQ:
      return x == y;
    case ObjectKind::kNE:
      return x != y;
    case ObjectKind::kLT:
      return x < y;
    case ObjectKind::kLE:
      return x <= y;
    case ObjectKind::kGT:
      return x > y;
    default:
      return x >= y;
  }
}

}  // namespace

Ref<PrimExpr> Simplifier::simplify(const Ref<PrimExpr>& e) {
  if (!e) return e;
  DataType t = e->dtype;
  if (is_index_dtype(t)) {
    if (e->kind() == ObjectKind::kIntImm) return e;
    return render(canon(e), t);
  }
  if (e->kind() == ObjectKind::kIntImm || e->kind() == ObjectKind::kFloatImm ||
      e->kind() == ObjectKind::kTirVar) {
    return e;
  }
  const PrimExpr* node = e.get();
  bool shared = node->use_count() > 1;
  if (shared) {
    auto it = expr_memo_.find(node);
    if (it != expr_memo_.end()) return it->second.result;
  }
  if (depth_ >= kMaxDepth || !has_operands(node)) return e;
  ++depth_;
  Ref<PrimExpr> r = t.is_bool() && t.is_scalar() ? simplify_bool(e) : simplify_children(e);
  --depth_;
  if (shared) expr_memo_.emplace(node, ExprMemo{e, r});
  return r;
}

Ref<PrimExpr> Simplifier::simplify_bool(const Ref<PrimExpr>& e) {
  ObjectKind k = e->kind();
  if (is_comparison(k)) return simplify_compare(e);
  if (k == ObjectKind::kAnd || k == ObjectKind::kOr) return simplify_logic(e);
  if (k == ObjectKind::kNot) return simplify_not(e);
  if (k == ObjectKind::kSelect) {
    auto* s = e.as_ptr<tir::Select>();
    Ref<PrimExpr> cond = simplify(s->condition);
    if (auto c = as_const_bool(cond)) return simplify(*c ? s->true_value : s->false_value);
    Ref<PrimExpr> a = simplify(s->true_value);
    Ref<PrimExpr> b = simplify(s->false_value);
    if (expr_equal(a, b)) return a;
    // select(c, True, False) is c; select(c, False, True) is not c.
    auto ca = as_const_bool(a), cb = as_const_bool(b);
    if (ca && cb && cond->dtype.is_bool())
      return *ca ? cond : simplify_not(ir::make<tir::Not>(cond));
    if (cond.same_as(s->condition) && a.same_as(s->true_value) && b.same_as(s->false_value))
      return e;
    return ir::make<tir::Select>(cond, a, b);
  }
  if (k == ObjectKind::kCast) {
    auto* c = e.as_ptr<tir::Cast>();
    Ref<PrimExpr> v = simplify(c->value);
    if (auto i = v.as_ptr<tir::IntImm>()) return tir::bool_imm(i->value != 0);
    if (auto f = v.as_ptr<tir::FloatImm>()) return tir::bool_imm(f->value != 0.0);
    if (v->dtype.is_bool()) return v;
    if (v.same_as(c->value)) return e;
    return ir::make<tir::Cast>(e->dtype, v);
  }
  return simplify_children(e);
}

Ref<PrimExpr> Simplifier::simplify_compare(const Ref<PrimExpr>& e) {
  auto* node = e.as_ptr<tir::BinaryOp>();
  ObjectKind kind = e->kind();
  DataType at = node->a->dtype;
  if (is_index_dtype(at) && node->b->dtype == at) {
    Poly d;
    if (difference(node->a, node->b, &d)) {
      // a > b is b < a, a >= b is b <= a: negate the difference.
      if (kind == ObjectKind::kGT || kind == ObjectKind::kGE) {
        poly_scale(d, -1, &d);  // cannot overflow: coefficients are never INT64_MIN
        kind = kind == ObjectKind::kGT ? ObjectKind::kLT : ObjectKind::kLE;
      }
      Proof p;
      switch (kind) {
        case ObjectKind::kLT:
          p = decide_lt0(d);
          break;
        case ObjectKind::kLE:
          p = decide_le0(d);
          break;
        case ObjectKind::kEQ:
          p = decide_eq0(d);
          break;
        default:
          p = proof_not(decide_eq0(d));
          break;
      }
      if (p != Proof::kUnknown) return tir::bool_imm(p == Proof::kYes);
      return render_compare(kind, d, at);
    }
  }
  Ref<PrimExpr> a = simplify(node->a);
  Ref<PrimExpr> b = simplify(node->b);
  if (auto folded = fold_compare(kind, a, b)) return tir::bool_imm(*folded);
  if (a.same_as(node->a) && b.same_as(node->b)) return e;
  return ir::make<tir::BinaryOp>(kind, e->dtype, a, b);
}

Ref<PrimExpr> Simplifier::render_compare(ObjectKind kind, const Poly& d, DataType t) {
  // d op 0 with d == g * s + k: divide by g, rounding k the way that keeps the integer solutions.
  int64_t g = poly_content(d);
  Poly s = d;
  if (g > 1) {
    int64_t k = d.constant;
    bool ok = true;
    switch (kind) {
      case ObjectKind::kLT:
        s.constant = floordiv_i64(k, g);
        break;  // g*s + k < 0 <=> s + floor(k/g) < 0
      case ObjectKind::kLE:
        s.constant = ceildiv_i64(k, g);
        break;  // g*s + k <= 0 <=> s + ceil(k/g) <= 0
      default:
        ok = k % g == 0;
        s.constant = k / g;
        break;
    }
    if (ok) {
      for (Term& term : s.terms) term.coeff /= g;
    } else {
      s = d;
    }
  }
  // Prefer the form without a constant: s - 1 < 0 is s <= 0, s + 1 <= 0 is s < 0.
  if (kind == ObjectKind::kLT && s.constant == -1) {
    kind = ObjectKind::kLE;
    s.constant = 0;
  } else if (kind == ObjectKind::kLE && s.constant == 1) {
    kind = ObjectKind::kLT;
    s.constant = 0;
  }
  // Positive terms on the left, negative ones on the right, the constant where it is positive.
  Poly lhs, rhs;
  for (const Term& term : s.terms) {
    if (term.coeff > 0) {
      lhs.terms.push_back(term);
    } else {
      rhs.terms.push_back({term.mono, -term.coeff});
    }
  }
  if (s.constant > 0) {
    lhs.constant = s.constant;
  } else {
    rhs.constant = -s.constant;
  }
  if (poly_fits(lhs, t) && poly_fits(rhs, t))
    return tir::binary(kind, render(lhs, t), render(rhs, t));
  // A constant that only fits negated (INT32_MIN): terms on the left, the constant on the right.
  if ((kind == ObjectKind::kEQ || kind == ObjectKind::kNE) && s.terms[0].coeff < 0)
    poly_scale(s, -1, &s);
  Poly terms = s;
  terms.constant = 0;
  if (fits_dtype(t, -s.constant))
    return tir::binary(kind, render(terms, t), tir::int_imm(t, -s.constant));
  return tir::binary(kind, render(d, t), tir::int_imm(t, 0));
}

Ref<PrimExpr> Simplifier::simplify_logic(const Ref<PrimExpr>& e) {
  auto* node = e.as_ptr<tir::BinaryOp>();
  bool is_and = e->kind() == ObjectKind::kAnd;
  Ref<PrimExpr> a = simplify(node->a);
  // Short-circuit on a deciding left operand: false and x, true or x.
  auto ca = as_const_bool(a);
  if (ca && *ca != is_and) return tir::bool_imm(*ca);
  Ref<PrimExpr> b = simplify(node->b);
  auto cb = as_const_bool(b);
  if (cb && *cb != is_and) return tir::bool_imm(*cb);
  if (ca) return b;  // true and b, false or b
  if (cb) return a;
  if (expr_equal(a, b)) return a;
  if (is_negation_of(a, b) || is_negation_of(b, a)) return tir::bool_imm(!is_and);
  if (Ref<PrimExpr> r = combine_comparisons(is_and, a, b)) return r;
  if (a.same_as(node->a) && b.same_as(node->b)) return e;
  return ir::make<tir::BinaryOp>(e->kind(), e->dtype, a, b);
}

bool Simplifier::comparison_form(const Ref<PrimExpr>& e, ComparisonForm* out) {
  ObjectKind kind = e->kind();
  if (!is_comparison(kind) || !has_operands(e.get())) return false;
  auto* node = e.as_ptr<tir::BinaryOp>();
  if (!is_index_dtype(node->a->dtype) || node->b->dtype != node->a->dtype) return false;
  Poly d;
  if (!difference(node->a, node->b, &d)) return false;
  if (kind == ObjectKind::kGT || kind == ObjectKind::kGE) {
    poly_scale(d, -1, &d);
    kind = kind == ObjectKind::kGT ? ObjectKind::kLT : ObjectKind::kLE;
  }
  if (kind == ObjectKind::kLT) {
    if (!poly_add_const(&d, 1)) return false;  // d < 0 <=> d + 1 <= 0 on integers
    kind = ObjectKind::kLE;
  }
  if ((kind == ObjectKind::kEQ || kind == ObjectKind::kNE) && !d.terms.empty() &&
      d.terms[0].coeff < 0) {
    poly_scale(d, -1, &d);
  }
  out->kind = kind;
  out->d = std::move(d);
  out->dtype = node->a->dtype;
  return true;
}

// Two integer comparisons whose differences differ by a constant (or sum to one) decide each
// other: x < 5 and x < 3 is x < 3, n <= 0 and 0 <= n is n == 0, d == 0 or d != 0 is True.
Ref<PrimExpr> Simplifier::combine_comparisons(bool is_and, const Ref<PrimExpr>& a,
                                              const Ref<PrimExpr>& b) {
  ComparisonForm fa, fb;
  if (!is_comparison(a->kind()) || !is_comparison(b->kind())) return nullptr;
  if (!comparison_form(a, &fa) || !comparison_form(b, &fb) || fa.dtype != fb.dtype) return nullptr;
  auto yes = [] { return tir::bool_imm(true); };
  auto no = [] { return tir::bool_imm(false); };
  Poly diff, sum;
  bool const_diff = poly_add(fa.d, fb.d, -1, &diff) && diff.is_const();  // fa.d == fb.d + k
  bool const_sum = poly_add(fa.d, fb.d, 1, &sum) && sum.is_const();      // fb.d == k - fa.d
  bool a_le = fa.kind == ObjectKind::kLE, b_le = fb.kind == ObjectKind::kLE;
  if (a_le && b_le) {
    if (const_diff) {
      // fa.d <= 0 implies fb.d <= 0 when k >= 0.
      bool a_implies_b = diff.constant >= 0;
      if (is_and) return a_implies_b ? a : b;
      return a_implies_b ? b : a;
    }
    if (const_sum) {
      int64_t k = sum.constant;  // k <= fa.d <= 0 for and, fa.d <= 0 or fa.d >= k for or
      if (is_and) {
        if (k > 0) return no();
        if (k == 0) return render_compare(ObjectKind::kEQ, fa.d, fa.dtype);
      } else if (k <= 1) {
        return yes();
      }
    }
    return nullptr;
  }
  if (!a_le && !b_le) {
    // == and != on the same difference, or on differences a non-zero constant apart.
    if (!const_diff) return nullptr;
    bool a_eq = fa.kind == ObjectKind::kEQ, b_eq = fb.kind == ObjectKind::kEQ;
    if (diff.constant == 0) {
      if (a_eq == b_eq) return a;
      return is_and ? no() : yes();
    }
    if (a_eq && b_eq) return is_and ? no() : nullptr;
    if (!a_eq && !b_eq) return is_and ? nullptr : yes();
    // One is d == 0, the other d + k != 0 with k != 0: the equality implies the inequality.
    const Ref<PrimExpr>& eq = a_eq ? a : b;
    const Ref<PrimExpr>& ne = a_eq ? b : a;
    return is_and ? eq : ne;
  }
  // One equality (or inequality) and one <=: only == is decided, from the value it fixes.
  const ComparisonForm& f_eq = a_le ? fb : fa;
  const ComparisonForm& f_le = a_le ? fa : fb;
  if (f_eq.kind != ObjectKind::kEQ) return nullptr;
  const Ref<PrimExpr>& eq = a_le ? b : a;
  const Ref<PrimExpr>& le = a_le ? a : b;
  // With f_eq.d == 0, f_le.d is the constant k (or -k when the signs are opposite).
  Poly rest;
  int64_t k;
  if (poly_add(f_le.d, f_eq.d, -1, &rest) && rest.is_const()) {
    k = rest.constant;
  } else if (poly_add(f_le.d, f_eq.d, 1, &rest) && rest.is_const()) {
    k = rest.constant;
  } else {
    return nullptr;
  }
  bool implied = k <= 0;  // the equality makes the <= hold
  if (is_and) return implied ? eq : no();
  return implied ? le : nullptr;
}

Ref<PrimExpr> Simplifier::simplify_not(const Ref<PrimExpr>& e) {
  auto* node = e.as_ptr<tir::Not>();
  Ref<PrimExpr> a = simplify(node->a);
  if (auto c = as_const_bool(a)) return tir::bool_imm(!*c);
  if (auto inner = a.as_ptr<tir::Not>()) return inner->a;
  if (is_comparison(a->kind()) && has_operands(a.get())) {
    auto* cmp = a.as_ptr<tir::BinaryOp>();
    if (is_index_dtype(cmp->a->dtype)) {
      return simplify_compare(
          ir::make<tir::BinaryOp>(negate_comparison(a->kind()), a->dtype, cmp->a, cmp->b));
    }
  }
  if (a.same_as(node->a)) return e;
  return ir::make<tir::Not>(a);
}

Ref<PrimExpr> Simplifier::simplify_children(const Ref<PrimExpr>& e) {
  auto changed = [](const Ref<PrimExpr>& x, const Ref<PrimExpr>& y) { return !x.same_as(y); };
  switch (e->kind()) {
    case ObjectKind::kTirVar:
    case ObjectKind::kIntImm:
    case ObjectKind::kFloatImm:
    case ObjectKind::kTirStringImm:
    case ObjectKind::kReduce:
      return e;
    case ObjectKind::kCast: {
      auto* c = e.as_ptr<tir::Cast>();
      Ref<PrimExpr> v = simplify(c->value);
      DataType t = e->dtype;
      if (t.is_float() && t.is_scalar() && (t.bits() == 32 || t.bits() == 64)) {
        // Exact conversions only: the value must survive the round trip.
        double d;
        bool known = false;
        if (auto i = v.as_ptr<tir::IntImm>(); i && !v->dtype.is_uint()) {
          d = static_cast<double>(i->value);
          known = d > -9.2e18 && d < 9.2e18 && static_cast<int64_t>(d) == i->value;
        } else if (auto f = v.as_ptr<tir::FloatImm>()) {
          d = f->value;
          known = std::isfinite(d);
        }
        if (known && (t.bits() == 64 || static_cast<double>(static_cast<float>(d)) == d))
          return tir::float_imm(t, d);
      }
      if (!changed(v, c->value)) return e;
      return ir::make<tir::Cast>(t, v);
    }
    case ObjectKind::kNot: {
      auto* n = e.as_ptr<tir::Not>();
      Ref<PrimExpr> a = simplify(n->a);
      if (!changed(a, n->a)) return e;
      return ir::make<tir::Not>(a);
    }
    case ObjectKind::kSelect: {
      auto* s = e.as_ptr<tir::Select>();
      Ref<PrimExpr> cond = simplify(s->condition);
      if (auto c = as_const_bool(cond); c && cond->dtype.is_scalar()) {
        return simplify(*c ? s->true_value : s->false_value);
      }
      Ref<PrimExpr> a = simplify(s->true_value);
      Ref<PrimExpr> b = simplify(s->false_value);
      if (!changed(cond, s->condition) && !changed(a, s->true_value) && !changed(b, s->false_value))
        return e;
      return ir::make<tir::Select>(cond, a, b);
    }
    case ObjectKind::kBufferLoad: {
      auto* l = e.as_ptr<tir::BufferLoad>();
      std::vector<Ref<PrimExpr>> idx;
      bool any = false;
      for (const auto& i : l->indices) {
        idx.push_back(simplify(i));
        any |= changed(idx.back(), i);
      }
      if (!any) return e;
      auto n = ir::copy(e.as<tir::BufferLoad>());
      n->indices = std::move(idx);
      return n;
    }
    case ObjectKind::kRamp: {
      auto* r = e.as_ptr<tir::Ramp>();
      Ref<PrimExpr> base = simplify(r->base), stride = simplify(r->stride);
      if (!changed(base, r->base) && !changed(stride, r->stride)) return e;
      return ir::make<tir::Ramp>(e->dtype, base, stride, r->lanes);
    }
    case ObjectKind::kBroadcast: {
      auto* b = e.as_ptr<tir::Broadcast>();
      Ref<PrimExpr> v = simplify(b->value);
      if (!changed(v, b->value)) return e;
      return ir::make<tir::Broadcast>(e->dtype, v, b->lanes);
    }
    case ObjectKind::kLet: {
      auto* l = e.as_ptr<tir::Let>();
      Ref<PrimExpr> v = simplify(l->value), body = simplify(l->body);
      if (!changed(v, l->value) && !changed(body, l->body)) return e;
      return ir::make<tir::Let>(l->var, v, body);
    }
    case ObjectKind::kTirCall: {
      auto* c = e.as_ptr<tir::Call>();
      // if_then_else evaluates only the chosen branch: a known condition picks it.
      if (c->op == "tir.if_then_else" && c->args.size() == 3) {
        Ref<PrimExpr> cond = simplify(c->args[0]);
        if (auto v = as_const_bool(cond); v && c->args[*v ? 1 : 2]->dtype == e->dtype) {
          return simplify(c->args[*v ? 1 : 2]);
        }
      }
      std::vector<Ref<PrimExpr>> args;
      bool any = false;
      for (const auto& a : c->args) {
        args.push_back(simplify(a));
        any |= changed(args.back(), a);
      }
      if (!any) return e;
      auto n = ir::copy(e.as<tir::Call>());
      n->args = std::move(args);
      return n;
    }
    case ObjectKind::kShuffle:
      return e;
    default:
      break;
  }
  // Binary operators outside the canonical form (floats, unsigned, vectors, mixed dtypes).
  auto* b = e.as_ptr<tir::BinaryOp>();
  Ref<PrimExpr> x = simplify(b->a);
  Ref<PrimExpr> y = simplify(b->b);
  if (auto folded = fold_float(e->kind(), e->dtype, x, y)) return folded;
  if (!changed(x, b->a) && !changed(y, b->b)) return e;
  return ir::make<tir::BinaryOp>(e->kind(), e->dtype, x, y);
}

}  // namespace relax::analysis::arith

// The Analyzer: keeps the facts about variables and runs each query on a fresh Simplifier state.
#include "analysis/arith/analyzer.h"

#include "analysis/arith/canonical.h"
#include "analysis/arith/expr_equal.h"
#include "analysis/arith/int_math.h"
#include "analysis/arith/substitute.h"

namespace relax::analysis::arith {

namespace {

using ir::ObjectKind;

constexpr int kBoundDepth = 3;

VarInfo& entry(VarTable& table, const Ref<tir::Var>& var) {
  VarInfo& info = table.vars[var.get()];
  if (!info.var) info.var = var;
  return info;
}

}  // namespace

Analyzer::Analyzer(AnalyzerOptions options)
    : vars_(std::make_unique<VarTable>()), simplifier_(std::make_unique<Simplifier>(*vars_)) {
  vars_->non_negative_int64 = options.non_negative_int64_vars;
}

Analyzer::~Analyzer() = default;
// The simplifier refers to the var table by address; both live on the heap, so moving the
// pointers keeps that reference valid.
Analyzer::Analyzer(Analyzer&&) noexcept = default;
Analyzer& Analyzer::operator=(Analyzer&&) noexcept = default;

void Analyzer::mark_non_negative(const Ref<Var>& var) {
  VarInfo& info = entry(*vars_, var);
  info.bound.min_value = std::max<int64_t>(info.bound.min_value, 0);
}

void Analyzer::update_bound(const Ref<Var>& var, const ConstIntBound& bound) {
  VarInfo& info = entry(*vars_, var);
  info.bound = bound_intersect(info.bound, bound);
}

void Analyzer::bind(const Ref<Var>& var, const Ref<ir::tir::Range>& range) {
  if (!range || !range->min || !range->extent) return;
  ConstIntBound lo = const_int_bound(range->min);
  auto last =
      tir::binary(ObjectKind::kSub, tir::binary(ObjectKind::kAdd, range->min, range->extent),
                  tir::int_imm(range->min->dtype, 1));
  ConstIntBound hi = const_int_bound(last);
  update_bound(var, {lo.min_value, hi.max_value});
}

void Analyzer::bind(const Ref<Var>& var, const Ref<PrimExpr>& value) {
  if (!value) return;
  Ref<PrimExpr> v = simplify(value);
  VarInfo& info = entry(*vars_, var);
  if (auto c = tir::as_const_int(v); c && v->dtype == var->dtype) {
    info.bound = bound_intersect(info.bound, ConstIntBound::point(*c));
    info.value = nullptr;
    return;
  }
  info.value = v;
}

Ref<ir::tir::PrimExpr> Analyzer::simplify(const Ref<PrimExpr>& e) {
  if (!e || e->kind() == ObjectKind::kIntImm || e->kind() == ObjectKind::kFloatImm) return e;
  if (e->kind() == ObjectKind::kTirVar && !vars_->find(e.as_ptr<tir::Var>())) return e;
  simplifier_->reset();
  Ref<PrimExpr> r = simplifier_->simplify(e);
  // Terms are written in the order their atoms were first met, and writing them may change that
  // order (positive terms go first, comparisons split into sides). With two or more atoms, run
  // again on the result until it is stable, so that simplify(simplify(e)) == simplify(e).
  for (int round = 0; round < 2 && simplifier_->atom_count() > 1; ++round) {
    simplifier_->reset();
    Ref<PrimExpr> again = simplifier_->simplify(r);
    if (again.same_as(r) || expr_equal(again, r)) break;
    r = again;
  }
  // Malformed input (operands of the wrong dtype) can make a rule pick an operand of another
  // dtype; the result must keep the input's dtype, so such input comes back as it was.
  if (!r || r->dtype != e->dtype) return e;
  // Hand back the input when the canonical form is what was written (keeps spans and sharing).
  if (!r.same_as(e) && expr_equal(r, e)) return e;
  return r;
}

Ref<ir::tir::PrimExpr> Analyzer::substitute(const Ref<PrimExpr>& e, const VarMap& map) {
  return simplify(arith::substitute(e, map));
}

Proof Analyzer::prove(const Ref<PrimExpr>& cond) {
  if (!cond) return Proof::kUnknown;
  simplifier_->reset();
  Ref<PrimExpr> r = simplifier_->simplify(cond);
  if (auto v = tir::as_const_int(r)) return *v != 0 ? Proof::kYes : Proof::kNo;
  return Proof::kUnknown;
}

Proof Analyzer::prove_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  if (!a || !b) return Proof::kUnknown;
  if (a.same_as(b) && !a->dtype.is_floating()) return Proof::kYes;
  auto ca = tir::as_const_int(a), cb = tir::as_const_int(b);
  if (ca && cb) return *ca == *cb ? Proof::kYes : Proof::kNo;
  // Two different variables nothing is known about (the common case when comparing shapes).
  if (a->kind() == ObjectKind::kTirVar && b->kind() == ObjectKind::kTirVar &&
      is_index_dtype(a->dtype) && is_index_dtype(b->dtype) && !vars_->find(a.as_ptr<tir::Var>()) &&
      !vars_->find(b.as_ptr<tir::Var>())) {
    return Proof::kUnknown;
  }
  if (is_index_dtype(a->dtype) && is_index_dtype(b->dtype)) {
    simplifier_->reset();
    Poly d;
    if (!simplifier_->difference(a, b, &d)) return Proof::kUnknown;
    return simplifier_->decide_eq0(d);
  }
  if (a->dtype != b->dtype) return Proof::kUnknown;
  Proof p = prove(tir::binary(ObjectKind::kEQ, a, b));
  // Conditions and other non-float values are equal when their simplified forms are the same.
  if (p == Proof::kUnknown && !a->dtype.is_floating() && expr_equal(simplify(a), simplify(b)))
    return Proof::kYes;
  return p;
}

Proof Analyzer::prove_less(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  if (!a || !b) return Proof::kUnknown;
  if (is_index_dtype(a->dtype) && is_index_dtype(b->dtype)) {
    simplifier_->reset();
    Poly d;
    if (!simplifier_->difference(a, b, &d)) return Proof::kUnknown;
    return simplifier_->decide_lt0(d);
  }
  if (a->dtype != b->dtype) return Proof::kUnknown;
  return prove(tir::binary(ObjectKind::kLT, a, b));
}

Proof Analyzer::prove_less_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  if (!a || !b) return Proof::kUnknown;
  if (is_index_dtype(a->dtype) && is_index_dtype(b->dtype)) {
    simplifier_->reset();
    Poly d;
    if (!simplifier_->difference(a, b, &d)) return Proof::kUnknown;
    return simplifier_->decide_le0(d);
  }
  if (a->dtype != b->dtype) return Proof::kUnknown;
  return prove(tir::binary(ObjectKind::kLE, a, b));
}

bool Analyzer::can_prove_greater_equal(const Ref<PrimExpr>& a, int64_t value) {
  if (!a || !is_index_dtype(a->dtype)) return false;
  simplifier_->reset();
  Poly d = simplifier_->canon(a);
  if (!poly_add_const(&d, -value)) return false;
  Poly neg;
  if (!poly_scale(d, -1, &neg)) return false;
  return simplifier_->decide_le0(neg) == Proof::kYes;
}

ConstIntBound Analyzer::const_int_bound(const Ref<PrimExpr>& e) {
  if (!e) return ConstIntBound::everything();
  if (auto c = tir::as_const_int(e)) return ConstIntBound::point(*c);
  if (is_index_dtype(e->dtype)) {
    simplifier_->reset();
    Poly p = simplifier_->canon(e);
    return simplifier_->strong_bound(p, kBoundDepth);
  }
  if (e->dtype.is_bool()) {
    if (auto c = tir::as_const_int(simplify(e))) return ConstIntBound::point(*c);
    return ConstIntBound::range(0, 1);
  }
  if (e->dtype.is_uint()) return ConstIntBound::range(0, dtype_max(e->dtype));
  return ConstIntBound::everything();
}

ModularSet Analyzer::modular_set(const Ref<PrimExpr>& e) {
  if (!e) return ModularSet::everything();
  if (auto c = tir::as_const_int(e)) return ModularSet::constant(*c);
  if (!is_index_dtype(e->dtype)) return ModularSet::everything();
  simplifier_->reset();
  Poly p = simplifier_->canon(e);
  return simplifier_->modular(p);
}

// ---------------------------------------------------------------------------------------------
// Constraint scopes

namespace {

// Adds what `d op 0` says about the single variable of d = k * v + c, if it has one.
void learn(Analyzer& analyzer, Simplifier& simp, ObjectKind op, Poly d) {
  if (op == ObjectKind::kGT || op == ObjectKind::kGE) {
    poly_scale(d, -1, &d);
    op = op == ObjectKind::kGT ? ObjectKind::kLT : ObjectKind::kLE;
  }
  if (op == ObjectKind::kLT) {
    if (!poly_add_const(&d, 1)) return;  // d < 0 <=> d + 1 <= 0 on integers
    op = ObjectKind::kLE;
  }
  if (d.terms.size() != 1 || d.terms[0].mono.degree != 1) return;
  const Atom& atom = simp.atom(d.terms[0].mono.atoms[0]);
  if (atom.kind != AtomKind::kVar) return;
  Ref<tir::Var> var = atom.expr.as<tir::Var>();
  int64_t k = d.terms[0].coeff, c = d.constant;
  if (op == ObjectKind::kEQ) {
    if (c % k == 0) analyzer.update_bound(var, ConstIntBound::point(-c / k));
  } else if (op == ObjectKind::kLE) {
    // k * v <= -c.
    if (k > 0) {
      analyzer.update_bound(var, {ConstIntBound::kNegInf, floordiv_i64(-c, k)});
    } else {
      analyzer.update_bound(var, {ceildiv_i64(c, -k), ConstIntBound::kPosInf});
    }
  }
}

void collect_facts(Analyzer& analyzer, Simplifier& simp, const Ref<tir::PrimExpr>& cond,
                   int depth) {
  if (!cond || depth > 64) return;
  ObjectKind k = cond->kind();
  if (k == ObjectKind::kAnd) {
    auto* b = cond.as_ptr<tir::BinaryOp>();
    collect_facts(analyzer, simp, b->a, depth + 1);
    collect_facts(analyzer, simp, b->b, depth + 1);
    return;
  }
  if (k < ObjectKind::kEQ || k > ObjectKind::kGE || k == ObjectKind::kNE) return;
  auto* b = cond.as_ptr<tir::BinaryOp>();
  if (!b->a || !b->b || !is_index_dtype(b->a->dtype) || b->b->dtype != b->a->dtype) return;
  simp.reset();
  Poly d;
  if (!simp.difference(b->a, b->b, &d)) return;
  learn(analyzer, simp, k, std::move(d));
}

}  // namespace

ConstraintScope::ConstraintScope(Analyzer& analyzer, const ir::Ref<ir::tir::PrimExpr>& condition)
    : analyzer_(analyzer), saved_(std::make_unique<VarTable>(*analyzer.vars_)) {
  collect_facts(analyzer, *analyzer.simplifier_, condition, 0);
}

ConstraintScope::~ConstraintScope() {
  *analyzer_.vars_ = std::move(*saved_);
}

}  // namespace relax::analysis::arith

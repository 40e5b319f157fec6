// The symbolic arithmetic analyzer (SEMANTICS.md §2): simplification of index expressions to a
// canonical form, tri-state decisions (prove_equal, prove_less, ...), constant bounds and modular
// sets, all under facts about variables (ranges, non-negativity, bindings).
#pragma once

#include <memory>

#include "analysis/arith/bound.h"
#include "analysis/arith/proof.h"
#include "analysis/arith/substitute.h"
#include "ir/tir.h"

namespace relax::analysis::arith {

struct AnalyzerOptions {
  // Take every int64 variable to be >= 0, as Relax does for symbolic shape variables (§1.7).
  bool non_negative_int64_vars = false;
};

class Simplifier;
struct VarTable;

// One analyzer per thread: queries reuse internal buffers. Facts are kept until the analyzer is
// destroyed (or a ConstraintScope ends). Integer semantics are TVM's: `//` and `%` (FloorDiv,
// FloorMod) round toward minus infinity, Div and Mod on integers truncate; arithmetic is assumed
// not to overflow its dtype, as TVM assumes.
class Analyzer {
 public:
  using PrimExpr = ir::tir::PrimExpr;
  using Var = ir::tir::Var;
  template <class T>
  using Ref = ir::Ref<T>;

  explicit Analyzer(AnalyzerOptions options = {});
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;
  Analyzer(Analyzer&&) noexcept;
  Analyzer& operator=(Analyzer&&) noexcept;

  // ---- Facts ----

  // var >= 0.
  void mark_non_negative(const Ref<Var>& var);
  // min <= var < min + extent.
  void bind(const Ref<Var>& var, const Ref<ir::tir::Range>& range);
  // var == value: the value is substituted for the var from now on (a constant value makes the
  // var that constant). A binding that refers back to its var is ignored where it recurs.
  void bind(const Ref<Var>& var, const Ref<PrimExpr>& value);
  // lo <= var <= hi (ConstIntBound::kNegInf / kPosInf for an open end); narrows what is known.
  void update_bound(const Ref<Var>& var, const ConstIntBound& bound);

  // ---- Simplification ----

  // The canonical form of `e`: integer sums of products with constant coefficients, constants
  // folded, floordiv/floormod/min/max/select normalized, comparisons decided when the facts
  // allow, logic folded. The dtype is preserved. Returns `e` itself when nothing changes.
  Ref<PrimExpr> simplify(const Ref<PrimExpr>& e);
  // simplify(substitute(e, map)).
  Ref<PrimExpr> substitute(const Ref<PrimExpr>& e, const VarMap& map);

  // ---- Decisions ----

  // Whether a condition holds for every value of its variables: kYes, kNo when it never holds,
  // kUnknown otherwise.
  Proof prove(const Ref<PrimExpr>& cond);
  Proof prove_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);
  Proof prove_not_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
    return proof_not(prove_equal(a, b));
  }
  Proof prove_less(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);
  Proof prove_less_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);
  Proof prove_greater(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) { return prove_less(b, a); }
  Proof prove_greater_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
    return prove_less_equal(b, a);
  }

  bool can_prove(const Ref<PrimExpr>& cond) { return prove(cond) == Proof::kYes; }
  bool can_prove_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
    return prove_equal(a, b) == Proof::kYes;
  }
  bool can_prove_not_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
    return prove_equal(a, b) == Proof::kNo;
  }
  bool can_prove_less(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
    return prove_less(a, b) == Proof::kYes;
  }
  bool can_prove_less_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
    return prove_less_equal(a, b) == Proof::kYes;
  }
  bool can_prove_greater_equal(const Ref<PrimExpr>& a, int64_t value);

  // ---- Analyses ----

  // An interval containing every value of an integer expression (the whole dtype range, or
  // everything, when nothing better is known).
  ConstIntBound const_int_bound(const Ref<PrimExpr>& e);
  // A set {coeff * k + base} containing every value of an integer expression.
  ModularSet modular_set(const Ref<PrimExpr>& e);

 private:
  friend class ConstraintScope;

  std::unique_ptr<VarTable> vars_;
  std::unique_ptr<Simplifier> simplifier_;
};

// Facts that hold inside a branch: the constructor adds what `condition` (a conjunction of
// comparisons) says about single variables (`n < 8`, `4 <= 2 * n`, `n == m + 1` is ignored), and
// the destructor restores the facts as they were.
class ConstraintScope {
 public:
  ConstraintScope(Analyzer& analyzer, const ir::Ref<ir::tir::PrimExpr>& condition);
  ~ConstraintScope();
  ConstraintScope(const ConstraintScope&) = delete;
  ConstraintScope& operator=(const ConstraintScope&) = delete;

 private:
  Analyzer& analyzer_;
  std::unique_ptr<VarTable> saved_;
};

}  // namespace relax::analysis::arith

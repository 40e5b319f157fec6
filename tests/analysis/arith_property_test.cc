// Property tests of the analyzer on random expression trees (fixed seeds): simplification keeps
// the value on random assignments, keeps dtypes well formed and is idempotent, and the decisions
// (prove_equal, prove_less, ...) never contradict evaluation.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "analysis/arith/evaluate.h"
#include "analysis/arith/expr_equal.h"
#include "analysis/arith/int_math.h"
#include "tests/analysis/arith_test_util.h"

using namespace arith_test;
using relax::analysis::arith::Analyzer;
using relax::analysis::arith::AnalyzerOptions;
using relax::analysis::arith::Assignment;
using relax::analysis::arith::evaluate;
using relax::analysis::arith::expr_equal;
using relax::analysis::arith::Proof;

namespace {

// Sanitizer builds run unoptimized and instrumented: they check a quarter of the trees.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kScale = 4;
#else
constexpr int kScale = 1;
#endif

// A small deterministic generator (splitmix64), the same on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return range(0, 99) < percent; }

 private:
  uint64_t state_;
};

class TreeGen {
 public:
  TreeGen(Rng& rng, std::vector<X> vars, DataType t) : rng_(rng), vars_(std::move(vars)), t_(t) {}

  X int_expr(int depth) {
    if (depth <= 0 || rng_.chance(20)) return leaf();
    X a = int_expr(depth - 1);
    switch (rng_.range(0, 18)) {
      case 0:
      case 1:
        return a + int_expr(depth - 1);
      case 2:
      case 3:
        return a - int_expr(depth - 1);
      case 4:
        return a * int_expr(depth - 1);
      case 5:
        return a * lit(a, rng_.range(-4, 4));
      case 6:
        return fdiv(a, divisor());
      case 7:
        return fmod(a, divisor());
      case 8:
        return fdiv(a, int_expr(depth - 1));
      case 9:
        return fmod(a, int_expr(depth - 1));
      case 10:
        return min(a, int_expr(depth - 1));
      case 11:
        return max(a, int_expr(depth - 1));
      case 12:
        return select(bool_expr(depth - 1), a, int_expr(depth - 1));
      case 13:
        return tdiv(a, divisor());
      case 14:
        return tmod(a, divisor());
      case 15:
        return tdiv(a, int_expr(depth - 1));
      case 16:
        return tmod(a, int_expr(depth - 1));
      case 17: {
        // Through the other index type and back (values are small, so nothing wraps).
        DataType other = t_ == DataType::Int64() ? DataType::Int32() : DataType::Int64();
        return cast(t_, cast(other, a) + X(tir::int_imm(other, rng_.range(-3, 3))));
      }
      default:
        return a + lit(a, rng_.range(-5, 5));
    }
  }

  X bool_expr(int depth) {
    if (depth <= 0 || rng_.chance(60)) {
      X a = int_expr(depth - 1), b = int_expr(depth - 1);
      switch (rng_.range(0, 5)) {
        case 0:
          return a < b;
        case 1:
          return a <= b;
        case 2:
          return a > b;
        case 3:
          return a >= b;
        case 4:
          return a == b;
        default:
          return a != b;
      }
    }
    switch (rng_.range(0, 2)) {
      case 0:
        return logical_and(bool_expr(depth - 1), bool_expr(depth - 1));
      case 1:
        return logical_or(bool_expr(depth - 1), bool_expr(depth - 1));
      default:
        return logical_not(bool_expr(depth - 1));
    }
  }

  X leaf() {
    if (rng_.chance(70)) return vars_[rng_.range(0, static_cast<int64_t>(vars_.size()) - 1)];
    return X(tir::int_imm(t_, rng_.range(-8, 8)));
  }

  X divisor() {
    int64_t c = rng_.range(-6, 6);
    if (c == 0) c = 3;
    return X(tir::int_imm(t_, c));
  }

 private:
  Rng& rng_;
  std::vector<X> vars_;
  DataType t_;
};

// Every arithmetic node's operands have its dtype; comparisons compare equal dtypes.
bool well_typed(const Ref<tir::PrimExpr>& e) {
  if (auto b = e.as_ptr<tir::BinaryOp>()) {
    if (b->a->dtype != b->b->dtype) return false;
    if (!b->is_comparison() && e->kind() != ObjectKind::kAnd && e->kind() != ObjectKind::kOr &&
        b->a->dtype != e->dtype) {
      return false;
    }
    return well_typed(b->a) && well_typed(b->b);
  }
  if (auto s = e.as_ptr<tir::Select>()) {
    return s->true_value->dtype == e->dtype && s->false_value->dtype == e->dtype &&
           s->condition->dtype.is_bool() && well_typed(s->condition) && well_typed(s->true_value) &&
           well_typed(s->false_value);
  }
  if (auto n = e.as_ptr<tir::Not>()) return n->a->dtype.is_bool() && well_typed(n->a);
  if (auto c = e.as_ptr<tir::Cast>()) return well_typed(c->value);
  if (auto i = e.as_ptr<tir::IntImm>())
    return relax::analysis::arith::fits_dtype(e->dtype, i->value);
  return true;
}

struct Assignments {
  std::vector<Assignment> list;
};

Assignments make_assignments(Rng& rng, const std::vector<X>& vars, int count, int64_t lo,
                             int64_t hi) {
  Assignments out;
  for (int i = 0; i < count; ++i) {
    Assignment a;
    for (const X& v : vars) a.set(v.e.as<tir::Var>(), rng.range(lo, hi));
    out.list.push_back(std::move(a));
  }
  // Small corner values matter most for division and modulo rules.
  for (int64_t c : {lo, int64_t{0}, int64_t{1}, hi}) {
    if (c < lo || c > hi) continue;
    Assignment a;
    for (const X& v : vars) a.set(v.e.as<tir::Var>(), c);
    out.list.push_back(std::move(a));
  }
  return out;
}

struct Stats {
  int trees = 0;
  int evaluations = 0;
  int changed = 0;
  int not_idempotent = 0;
};

// Simplifies `count` random trees and compares values on the assignments.
Stats check_simplify(Analyzer& az, uint64_t seed, DataType t, int count, int depth, int64_t lo,
                     int64_t hi) {
  Rng rng(seed);
  std::vector<X> vars = {var("x", t), var("y", t), var("z", t)};
  TreeGen gen(rng, vars, t);
  Assignments as = make_assignments(rng, vars, 24, lo, hi);
  Stats st;
  for (int i = 0; i < count; ++i) {
    X e = rng.chance(80) ? gen.int_expr(depth) : gen.bool_expr(depth);
    Ref<tir::PrimExpr> s = az.simplify(e);
    ++st.trees;
    if (!s.same_as(e.e)) ++st.changed;
    INFO("original:   " << e.str());
    INFO("simplified: " << relax::analysis::arith::expr_text(s));
    REQUIRE(s->dtype == e.e->dtype);
    REQUIRE(well_typed(s));
    for (const Assignment& a : as.list) {
      auto ve = evaluate(e, a);
      if (!ve) continue;  // undefined (division by zero, overflow): anything goes
      auto vs = evaluate(s, a);
      ++st.evaluations;
      // Assert only on a mismatch: a million passing assertions would dominate the run time.
      if (!vs || *vs != *ve) REQUIRE(vs == ve);
    }
    // Idempotent: the canonical form is its own canonical form.
    Ref<tir::PrimExpr> again = az.simplify(s);
    if (!expr_equal(again, s)) {
      ++st.not_idempotent;
      CHECK(relax::analysis::arith::expr_text(again) == relax::analysis::arith::expr_text(s));
    }
  }
  return st;
}

// Decisions about random pairs must agree with every evaluation.
int check_decisions(Analyzer& az, uint64_t seed, int count, int64_t lo, int64_t hi) {
  Rng rng(seed);
  std::vector<X> vars = {var("x"), var("y"), var("z")};
  TreeGen gen(rng, vars, DataType::Int64());
  Assignments as = make_assignments(rng, vars, 24, lo, hi);
  int decided = 0;
  for (int i = 0; i < count; ++i) {
    X a = gen.int_expr(3);
    // Related pairs are where decisions happen: a simplified or shifted copy, or a fresh tree.
    X b = a;
    switch (rng.range(0, 3)) {
      case 0:
        b = X(az.simplify(a));
        break;
      case 1:
        b = X(az.simplify(a)) + lit(a, rng.range(-3, 3));
        break;
      case 2:
        b = a * 2 + lit(a, rng.range(0, 1));
        break;
      default:
        b = gen.int_expr(3);
        break;
    }
    Proof eq = az.prove_equal(a, b);
    Proof lt = az.prove_less(a, b);
    Proof le = az.prove_less_equal(a, b);
    decided += (eq != Proof::kUnknown) + (lt != Proof::kUnknown) + (le != Proof::kUnknown);
    INFO("a: " << a.str());
    INFO("b: " << b.str());
    INFO("equal " << proof_name(eq) << ", less " << proof_name(lt) << ", less_equal "
                  << proof_name(le));
    for (const Assignment& asg : as.list) {
      auto va = evaluate(a, asg), vb = evaluate(b, asg);
      if (!va || !vb) continue;
      bool ok = (eq != Proof::kYes || *va == *vb) && (eq != Proof::kNo || *va != *vb) &&
                (lt != Proof::kYes || *va < *vb) && (lt != Proof::kNo || *va >= *vb) &&
                (le != Proof::kYes || *va <= *vb) && (le != Proof::kNo || *va > *vb);
      if (!ok) FAIL("a = " << *va << ", b = " << *vb);
    }
  }
  return decided;
}

}  // namespace

TEST_CASE("simplify keeps values: non-negative int64 vars") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Stats st = check_simplify(az, 1, DataType::Int64(), 8000 / kScale, 4, 0, 17);
  CHECK(st.evaluations > 100000 / kScale);
  CHECK(st.changed > st.trees / 2);
  CHECK(st.not_idempotent == 0);
}

TEST_CASE("simplify keeps values: signed int64 vars") {
  Analyzer az;
  Stats st = check_simplify(az, 2, DataType::Int64(), 8000 / kScale, 4, -17, 17);
  CHECK(st.evaluations > 100000 / kScale);
  CHECK(st.not_idempotent == 0);
}

TEST_CASE("simplify keeps values and dtype: int32") {
  Analyzer az;
  Stats st = check_simplify(az, 3, DataType::Int32(), 4000 / kScale, 4, -9, 9);
  CHECK(st.evaluations > 40000 / kScale);
  CHECK(st.not_idempotent == 0);
}

TEST_CASE("simplify keeps values: deep trees") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Stats st = check_simplify(az, 4, DataType::Int64(), 1000 / kScale, 7, 0, 9);
  CHECK(st.evaluations > 10000 / kScale);
}

TEST_CASE("simplify keeps values: bounded vars") {
  Analyzer az;
  auto x = var("x"), y = var("y"), z = var("z");
  Rng rng(5);
  // The generator makes its own vars; bind those through a tree of the same names instead.
  std::vector<X> vars = {x, y, z};
  TreeGen gen(rng, vars, DataType::Int64());
  az.bind(x.e.as<tir::Var>(), relax::ir::make<tir::Range>(tir::int64(0), tir::int64(8)));
  az.bind(y.e.as<tir::Var>(), relax::ir::make<tir::Range>(tir::int64(-3), tir::int64(5)));
  az.update_bound(z.e.as<tir::Var>(), {4, 12});
  std::vector<Assignment> as;
  for (int i = 0; i < 40; ++i) {
    Assignment a;
    a.set(x.e.as<tir::Var>(), rng.range(0, 7));
    a.set(y.e.as<tir::Var>(), rng.range(-3, 1));
    a.set(z.e.as<tir::Var>(), rng.range(4, 12));
    as.push_back(std::move(a));
  }
  int evaluations = 0;
  for (int i = 0; i < 4000 / kScale; ++i) {
    X e = rng.chance(80) ? gen.int_expr(4) : gen.bool_expr(3);
    Ref<tir::PrimExpr> s = az.simplify(e);
    INFO("original:   " << e.str());
    INFO("simplified: " << relax::analysis::arith::expr_text(s));
    for (const Assignment& a : as) {
      auto ve = evaluate(e, a);
      if (!ve) continue;
      auto vs = evaluate(s, a);
      ++evaluations;
      if (!vs || *vs != *ve) REQUIRE(vs == ve);
    }
  }
  CHECK(evaluations > 80000 / kScale);
}

TEST_CASE("decisions agree with evaluation: non-negative vars") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  int decided = check_decisions(az, 6, 5000 / kScale, 0, 17);
  CHECK(decided > 5000 / kScale);
}

TEST_CASE("decisions agree with evaluation: signed vars") {
  Analyzer az;
  int decided = check_decisions(az, 7, 5000 / kScale, -17, 17);
  CHECK(decided > 3000 / kScale);
}

namespace {

// Breaks a tree in place: some operands become null, of another dtype, or a float.
void vandalize(Rng& rng, const Ref<tir::PrimExpr>& e, int depth) {
  if (!e || depth > 12) return;
  auto damage = [&](Ref<tir::PrimExpr>& slot) {
    int roll = static_cast<int>(rng.range(0, 99));
    if (roll < 4) {
      slot = nullptr;
    } else if (roll < 8) {
      slot = tir::int32(static_cast<int32_t>(rng.range(-3, 3)));
    } else if (roll < 10) {
      slot = tir::float_imm(DataType::Float32(), 0.5);
    } else {
      vandalize(rng, slot, depth + 1);
    }
  };
  if (auto b = e.as<tir::BinaryOp>()) {
    damage(b->a);
    damage(b->b);
  } else if (auto sel = e.as<tir::Select>()) {
    damage(sel->condition);
    damage(sel->true_value);
    damage(sel->false_value);
  } else if (auto n = e.as<tir::Not>()) {
    damage(n->a);
  } else if (auto c = e.as<tir::Cast>()) {
    damage(c->value);
  }
}

}  // namespace

TEST_CASE("malformed trees never crash the analyzer") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Rng rng(8);
  std::vector<X> vars = {var("x"), var("y"), var("z")};
  TreeGen gen(rng, vars, DataType::Int64());
  int done = 0;
  for (int i = 0; i < 2000 / kScale; ++i) {
    X e = rng.chance(70) ? gen.int_expr(4) : gen.bool_expr(3);
    X f = gen.int_expr(3);
    vandalize(rng, e.e, 0);
    Ref<tir::PrimExpr> s = az.simplify(e);
    REQUIRE(s);
    INFO(e.str() << "  ->  " << relax::analysis::arith::expr_text(s) << "  " << s->dtype.str());
    CHECK(s->dtype == e.e->dtype);
    (void)az.prove_equal(e, f);
    (void)az.prove_less(e, f);
    (void)az.prove(e);
    (void)az.const_int_bound(e);
    (void)az.modular_set(e);
    (void)evaluate(e, Assignment());
    (void)relax::analysis::arith::expr_text(s);
    ++done;
  }
  CHECK(done == 2000 / kScale);
}

// Decision procedures (SEMANTICS.md §2.1): each prove_* answers yes, no or unknown, and the
// analyses behind them (constant bounds, modular sets) and the facts they use.
#include <catch2/catch.hpp>

#include "tests/analysis/arith_test_util.h"

using namespace arith_test;
using relax::analysis::arith::Analyzer;
using relax::analysis::arith::AnalyzerOptions;
using relax::analysis::arith::ConstIntBound;
using relax::analysis::arith::ConstraintScope;
using relax::analysis::arith::ModularSet;
using relax::analysis::arith::Proof;

namespace {

constexpr Proof kYes = Proof::kYes;
constexpr Proof kNo = Proof::kNo;
constexpr Proof kUnknown = Proof::kUnknown;

Ref<tir::Var> as_var(const X& x) {
  return x.e.as<tir::Var>();
}

}  // namespace

TEST_CASE("prove_equal: constants and identical expressions") {
  Analyzer az;
  auto n = var("n");
  CHECK(az.prove_equal(i64(4), i64(4)) == kYes);
  CHECK(az.prove_equal(i64(4), i64(5)) == kNo);
  CHECK(az.prove_equal(n, n) == kYes);
  CHECK(az.prove_equal(n * 2, 2 * n) == kYes);
  CHECK(az.can_prove_equal(n + n, n * 2));
}

TEST_CASE("prove_equal: unknown for unrelated symbols") {
  Analyzer az;
  auto n = var("n"), m = var("m");
  CHECK(az.prove_equal(n, m) == kUnknown);
  CHECK(az.prove_equal(n * 2, m) == kUnknown);
  CHECK(az.prove_equal(fdiv(n, 2), fdiv(m, 2)) == kUnknown);
  CHECK_FALSE(az.can_prove_equal(n, m));
  CHECK_FALSE(az.can_prove_not_equal(n, m));
}

TEST_CASE("prove_equal: no from a constant difference, bounds or residues") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto n = var("n"), m = var("m");
  CHECK(az.prove_equal(n + 1, n) == kNo);
  CHECK(az.prove_equal(n + 1, i64(0)) == kNo);          // n >= 0
  CHECK(az.prove_equal(n * 2, m * 2 + 1) == kNo);       // parity
  CHECK(az.prove_equal(n * 4 + 2, m * 6) == kUnknown);  // the difference is even: n = m = 1
  CHECK(az.prove_equal(n * 3, m * 6 + 1) == kNo);       // 3n - 6m - 1 is 2 mod 3
  CHECK(az.prove_not_equal(n * 2, m * 2 + 1) == kYes);
  CHECK(az.can_prove_not_equal(n + 3, n));
}

TEST_CASE("prove_equal: divisions and min/max") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto n = var("n"), m = var("m");
  CHECK(az.prove_equal(fdiv(n + 3, 4) * 4, n + 3 - fmod(n + 3, 4)) == kYes);
  CHECK(az.prove_equal(fdiv(n * 6, 3), n * 2) == kYes);
  CHECK(az.prove_equal(fdiv(n, 2) * 2, n) == kUnknown);
  CHECK(az.prove_equal(min(n, m) + max(n, m), n + m) == kUnknown);  // true, but beyond the rules
  CHECK(az.prove_equal(max(n, m), max(m, n)) == kYes);
  CHECK(az.prove_equal(fmod(n, 4), i64(4)) == kNo);
  CHECK(az.prove_equal(fmod(n, 4), i64(-1)) == kNo);
}

TEST_CASE("prove_less and prove_less_equal") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto n = var("n"), m = var("m");
  CHECK(az.prove_less(n, n + 1) == kYes);
  CHECK(az.prove_less(n + 1, n) == kNo);
  CHECK(az.prove_less(n, n) == kNo);
  CHECK(az.prove_less_equal(n, n) == kYes);
  CHECK(az.prove_less(n, m) == kUnknown);
  CHECK(az.prove_less(i64(-1), n) == kYes);
  CHECK(az.prove_less_equal(i64(0), n * m) == kYes);
  CHECK(az.prove_less_equal(fdiv(n, 2), n) == kYes);
  CHECK(az.prove_less_equal(fdiv(n, 4) * 4, n) == kYes);
  CHECK(az.prove_less(n, fdiv(n, 4) * 4 + 4) == kYes);
  CHECK(az.prove_less(fmod(n, 8), i64(8)) == kYes);
  // ceildiv(n, 4) == (n + 3) // 4 rounds up: 4 * ceildiv(n, 4) is in [n, n + 3].
  CHECK(az.prove_greater_equal(fdiv(n + 3, 4) * 4, n) == kYes);
  CHECK(az.prove_less_equal(fdiv(n + 3, 4) * 4, n + 3) == kYes);
  CHECK(az.prove_less(fdiv(n + 3, 4) * 4, n) == kNo);
  CHECK(az.prove_less_equal(min(n, m), n) == kYes);
  CHECK(az.prove_less_equal(m, max(n, m)) == kYes);
  CHECK(az.prove_less(max(n, m) + 1, m) == kNo);
  CHECK(az.prove_less(n, n * 2) == kUnknown);  // n may be 0
  CHECK(az.prove_less_equal(n, n * 2) == kYes);
}

TEST_CASE("prove_greater and prove_greater_equal") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto n = var("n"), m = var("m");
  CHECK(az.prove_greater(n + 1, n) == kYes);
  CHECK(az.prove_greater(n, n + 1) == kNo);
  CHECK(az.prove_greater_equal(n, i64(0)) == kYes);
  CHECK(az.prove_greater_equal(n, m) == kUnknown);
  CHECK(az.can_prove_greater_equal(n * 4 + 3, 3));
  CHECK_FALSE(az.can_prove_greater_equal(n - 1, 0));
}

TEST_CASE("without the non-negative default, signs are unknown") {
  Analyzer az;
  auto n = var("n");
  CHECK(az.prove_greater_equal(n, i64(0)) == kUnknown);
  CHECK(az.prove_equal(n + 1, i64(0)) == kUnknown);
  CHECK(az.prove_less_equal(fdiv(n, 2), n) == kUnknown);  // false for n = -3: -3 // 2 == -2
  CHECK(az.prove_less_equal(fdiv(n, 2) * 2, n) == kYes);  // floor rounds down for any sign
  // The default applies to int64 only.
  Analyzer shapes(AnalyzerOptions{.non_negative_int64_vars = true});
  auto k = var("k", DataType::Int32());
  CHECK(shapes.prove_greater_equal(k, i32(0)) == kUnknown);
}

TEST_CASE("prove on conditions") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto n = var("n"), m = var("m");
  CHECK(az.prove(n + 1 > n) == kYes);
  CHECK(az.prove(n < 0) == kNo);
  CHECK(az.prove(n < m) == kUnknown);
  CHECK(az.prove(logical_and(n >= 0, m >= 0)) == kYes);
  CHECK(az.prove(logical_or(n < m, m <= n)) == kYes);
  CHECK(az.can_prove(logical_not(n < 0)));
}

TEST_CASE("facts: mark_non_negative, update_bound, bind") {
  Analyzer az;
  auto n = var("n"), m = var("m"), i = var("i");
  CHECK(az.prove_greater_equal(n, i64(0)) == kUnknown);
  az.mark_non_negative(as_var(n));
  CHECK(az.prove_greater_equal(n, i64(0)) == kYes);
  az.update_bound(as_var(m), {1, 16});
  CHECK(az.prove_less(n, n + m) == kYes);
  CHECK(az.prove_less(m, i64(17)) == kYes);
  CHECK(az.const_int_bound(m * 2 + 1) == ConstIntBound{3, 33});
  // A loop variable over range(0, 8).
  az.bind(as_var(i), relax::ir::make<tir::Range>(tir::int64(0), tir::int64(8)));
  CHECK(az.const_int_bound(i) == ConstIntBound{0, 7});
  CHECK(simp(az, fdiv(i, 8)) == "0");
  CHECK(simp(az, fmod(i, 8)) == "i");
  CHECK(simp(az, fdiv(n * 8 + i, 8)) == "n");
  CHECK(simp(az, fmod(n * 8 + i, 8)) == "i");
}

TEST_CASE("facts: bind to a value substitutes it") {
  Analyzer az;
  auto n = var("n"), k = var("k"), c = var("c");
  az.bind(as_var(k), (n + 1).e);
  CHECK(simp(az, k * 2 - n) == "n + 2");
  CHECK(az.prove_equal(k, n + 1) == kYes);
  az.bind(as_var(c), i64(4).e);
  CHECK(simp(az, c * n) == "n * 4");
  // A binding that refers back to its var does not loop.
  auto s = var("s");
  az.bind(as_var(s), (s + 1).e);
  CHECK(simp(az, s - s) == "0");
}

TEST_CASE("an analyzer can be moved with its facts") {
  Analyzer az;
  auto n = var("n");
  az.update_bound(as_var(n), {0, 3});
  std::vector<Analyzer> list;
  list.push_back(std::move(az));
  CHECK(list[0].prove_less(n, i64(4)) == kYes);
}

TEST_CASE("constraint scopes add facts for a branch") {
  Analyzer az;
  auto n = var("n"), m = var("m");
  CHECK(az.prove_less(n, i64(8)) == kUnknown);
  {
    ConstraintScope scope(az, logical_and(n < 8, 0 <= n).e);
    CHECK(az.prove_less(n, i64(8)) == kYes);
    CHECK(az.const_int_bound(n) == ConstIntBound{0, 7});
    CHECK(simp(az, fmod(n, 8)) == "n");
    {
      ConstraintScope inner(az, (n * 2 == 6).e);
      CHECK(simp(az, n + m) == "m + 3");
    }
    CHECK(simp(az, n + m) == "n + m");
  }
  CHECK(az.prove_less(n, i64(8)) == kUnknown);
  {
    ConstraintScope scope(az, (3 * n >= 10).e);  // n >= 4
    CHECK(az.const_int_bound(n).min_value == 4);
  }
}

TEST_CASE("const_int_bound") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto n = var("n"), m = var("m");
  CHECK(az.const_int_bound(i64(5)) == ConstIntBound{5, 5});
  CHECK(az.const_int_bound(n) == ConstIntBound{0, ConstIntBound::kPosInf});
  CHECK(az.const_int_bound(n - 1) == ConstIntBound{-1, ConstIntBound::kPosInf});
  CHECK(az.const_int_bound(fmod(n, 8)) == ConstIntBound{0, 7});
  CHECK(az.const_int_bound(fmod(n, 8) * 2 - 3) == ConstIntBound{-3, 11});
  CHECK(az.const_int_bound(fdiv(fmod(n, 8), 3)) == ConstIntBound{0, 2});
  CHECK(az.const_int_bound(min(fmod(n, 8), 4)) == ConstIntBound{0, 4});
  CHECK(az.const_int_bound(max(fmod(n, 8), 4)) == ConstIntBound{4, 7});
  CHECK(az.const_int_bound(select(n < m, i64(1), i64(5))) == ConstIntBound{1, 5});
  CHECK(az.const_int_bound(0 - n) == ConstIntBound{ConstIntBound::kNegInf, 0});
  CHECK(az.const_int_bound(n - fdiv(n, 2) * 2) == ConstIntBound{0, 1});
  CHECK(az.const_int_bound(n < m) == ConstIntBound{0, 1});
  Analyzer signed_az;
  CHECK(signed_az.const_int_bound(n) == ConstIntBound::everything());
  CHECK(signed_az.const_int_bound(var("k", DataType::Int32())) ==
        ConstIntBound{INT32_MIN, INT32_MAX});
  CHECK(signed_az.const_int_bound(tmod(n, 5)) == ConstIntBound{-4, 4});
  CHECK(signed_az.const_int_bound(fmod(n, -5)) == ConstIntBound{-4, 0});
  CHECK(signed_az.const_int_bound(n * n) == ConstIntBound{0, ConstIntBound::kPosInf});
}

TEST_CASE("modular_set") {
  Analyzer az;
  auto n = var("n"), m = var("m");
  CHECK(az.modular_set(i64(7)) == ModularSet{0, 7});
  CHECK(az.modular_set(n) == ModularSet{1, 0});
  CHECK(az.modular_set(n * 4 + 6) == ModularSet{4, 2});
  CHECK(az.modular_set(n * 4 + 7) == ModularSet{4, 3});
  CHECK(az.modular_set(n * 4 + m * 2) == ModularSet{2, 0});
  CHECK(az.modular_set(n * 6 + m * 9 + 4) == ModularSet{3, 1});
  CHECK(az.modular_set(n * 8 + 3) == ModularSet{8, 3});
  CHECK(az.modular_set(select(n < m, n * 4 + 1, m * 8 + 5)) == ModularSet{4, 1});
  CHECK(az.modular_set(fdiv(n * 8 + 4, 2)) == ModularSet{4, 2});
}

TEST_CASE("floats: constant folding only when exact, equality unknown otherwise") {
  Analyzer az;
  auto f = [](double v) { return X(tir::float_imm(DataType::Float32(), v)); };
  auto d = [](double v) { return X(tir::float_imm(DataType::Float(64), v)); };
  auto x = var("x", DataType::Float32());
  CHECK(simp(az, f(1.5) + f(2.25)) == "3.75");
  CHECK(simp(az, d(3) * d(0.5)) == "1.5");
  CHECK(simp(az, tdiv(d(1), d(4))) == "0.25");
  // 0.1 + 0.2 rounds, so it stays as written.
  CHECK(simp(az, d(0.1) + d(0.2)) == "0.10000000000000001 + 0.20000000000000001");
  CHECK(simp(az, tdiv(d(1), d(3))) == "1 / 3");
  CHECK(simp(az, x + f(0)) == "x + 0");  // -0.0 + 0.0 is 0.0: not an identity for floats
  CHECK(simp(az, f(2) < f(3)) == "True");
  CHECK(az.prove_equal(x, x) == kUnknown);  // NaN != NaN
  CHECK(az.prove_equal(f(2), f(2)) == kYes);
  CHECK(simp(az, cast(DataType::Int64(), f(3.75))) == "3");
  CHECK(simp(az, cast(DataType::Float32(), i64(3))) == "3");
}

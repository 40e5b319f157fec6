// Robustness: huge constants never overflow silently, deep and shared (DAG) expressions finish
// quickly without exhausting the stack, malformed input is left alone; plus evaluate() and
// substitute().
#include <catch2/catch.hpp>

#include <chrono>
#include <limits>

#include "analysis/arith/evaluate.h"
#include "analysis/arith/substitute.h"
#include "tests/analysis/arith_test_util.h"

using namespace arith_test;
using relax::analysis::arith::Analyzer;
using relax::analysis::arith::AnalyzerOptions;
using relax::analysis::arith::Assignment;
using relax::analysis::arith::evaluate;
using relax::analysis::arith::Proof;
using relax::analysis::arith::VarMap;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("overflowing constants are left as written") {
  Analyzer az;
  auto x = var("x");
  CHECK(simp(az, i64(kMax) + i64(1)) == "9223372036854775807 + 1");
  CHECK(simp(az, i64(kMax) * i64(2)) == "9223372036854775807 * 2");
  CHECK(simp(az, x * kMax * 2) == "x * 9223372036854775807 * 2");
  CHECK(simp(az, x * kMax + x * kMax - x * kMax) ==
        "x * 9223372036854775807 + x * 9223372036854775807 - x * 9223372036854775807");
  // INT64_MIN has no negation: it stays an opaque constant.
  CHECK(simp(az, i64(kMin) + x - x) == "-9223372036854775808");
  // a // -1 == -a: the result overflows exactly when the original does.
  CHECK(simp(az, fdiv(i64(kMin), i64(-1))) == "-9223372036854775808 * -1");
  CHECK(simp(az, fmod(i64(kMin), i64(-1))) == "0");
  CHECK(simp(az, fdiv(x * kMax, kMax)) == "x");
  CHECK(simp(az, fdiv(x * (kMax - 1) + kMax, kMax - 1)) == "x + 1");
  CHECK(az.prove_equal(x * kMax + 1, x * kMax) == Proof::kNo);
  CHECK(az.prove_less(x + kMax, x) == Proof::kNo);  // arithmetic is taken not to overflow
  CHECK(az.const_int_bound(fmod(x, kMax - 1)).max_value == kMax - 2);
  // INT64_MAX doubles as +inf in bounds, so it cannot be a finite end.
  CHECK(az.const_int_bound(fmod(x, kMax)).max_value ==
        relax::analysis::arith::ConstIntBound::kPosInf);
  CHECK(az.const_int_bound(x * x * x).min_value == relax::analysis::arith::ConstIntBound::kNegInf);
}

TEST_CASE("division by zero is left as written") {
  Analyzer az;
  auto x = var("x");
  CHECK(simp(az, fdiv(x, 0)) == "x // 0");
  CHECK(simp(az, fmod(x + 1 - 1, 0)) == "x % 0");
  CHECK(simp(az, tdiv(i64(4), i64(0))) == "T.truncdiv(4, 0)");
  CHECK(simp(az, fdiv(x, x - x)) == "x // 0");
}

TEST_CASE("long sums are linear, not quadratic") {
  Analyzer az;
  std::vector<X> vars;
  for (int i = 0; i < 3000; ++i) vars.push_back(var("v" + std::to_string(i)));
  X e = vars[0];
  for (int i = 1; i < 3000; ++i) e = e + vars[i] * 2;
  for (int i = 0; i < 3000; ++i) e = e - vars[i];
  auto start = std::chrono::steady_clock::now();
  Ref<tir::PrimExpr> s = az.simplify(e);
  CHECK(seconds_since(start) < 2.0);
  // v0 cancels; the other 2999 remain with coefficient 1.
  Assignment a;
  for (int i = 0; i < 3000; ++i) a.set(vars[i].e.as<tir::Var>(), i);
  CHECK(evaluate(s, a) == evaluate(e, a));
  CHECK(az.prove_equal(e, e - vars[0] + vars[0]) == Proof::kYes);
}

TEST_CASE("deep left-nested sums and products") {
  Analyzer az;
  auto x = var("x"), y = var("y");
  X e = x;
  for (int i = 0; i < 20000; ++i) e = (i % 2) ? e + y : e - x;
  CHECK(simp(az, e) == "y * 10000 - x * 9999");
  X p = x;
  for (int i = 0; i < 2000; ++i) p = p * 1;
  CHECK(simp(az, p) == "x");
}

TEST_CASE("deep right-nested and mixed expressions stay correct") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto x = var("x"), y = var("y");
  X e = x;
  for (int i = 0; i < 3000; ++i) e = y + (e - y);  // right operands nest
  CHECK(az.prove_equal(e, x) != Proof::kNo);
  Ref<tir::PrimExpr> s = az.simplify(e);
  Assignment a;
  a.set(x.e.as<tir::Var>(), 5);
  a.set(y.e.as<tir::Var>(), 7);
  CHECK(evaluate(s, a) == std::optional<int64_t>(5));
  X m = x;
  for (int i = 0; i < 3000; ++i) m = (i % 2) ? min(m + 1, y) : max(fdiv(m, 2), x);
  s = az.simplify(m);
  CHECK(s->dtype == DataType::Int64());
  X b = x < y;
  for (int i = 0; i < 3000; ++i) b = logical_and(b, x < y + i);
  CHECK(az.simplify(b)->dtype.is_bool());
  X d = x;
  for (int i = 0; i < 100; ++i) d = fdiv(d, 2);
  CHECK(simp(az, d).find("//") !=
        std::string::npos);  // 2^100 overflows: nested divisions stop merging
}

TEST_CASE("shared subexpressions (DAGs) cost their distinct nodes") {
  Analyzer az;
  auto x = var("x");
  X e = x;
  for (int i = 0; i < 200; ++i) e = e + e;  // 2^200 leaves, 201 distinct nodes
  auto start = std::chrono::steady_clock::now();
  Ref<tir::PrimExpr> s = az.simplify(e);
  CHECK(seconds_since(start) < 1.0);
  CHECK(s->dtype == DataType::Int64());
  X f = x;
  for (int i = 0; i < 30; ++i) f = f + f;
  CHECK(simp(az, f) == "x * 1073741824");
  X g = x;
  for (int i = 0; i < 200; ++i) g = max(g, g + 1);
  CHECK(simp(az, g) == "x + 200");
  auto sub = relax::analysis::arith::substitute(e, VarMap{{x.e.as<tir::Var>(), i64(0).e}});
  CHECK(sub->dtype == DataType::Int64());
}

TEST_CASE("malformed and non-index input is handled") {
  Analyzer az;
  auto x = var("x");
  auto k = var("k", DataType::Int32());
  // Operands of different dtypes: kept as an opaque term.
  X mixed = X(relax::ir::make<tir::BinaryOp>(ObjectKind::kAdd, DataType::Int64(), x.e, k.e));
  CHECK(simp(az, mixed + 1 - 1) == "x + k");
  CHECK(az.simplify(nullptr) == nullptr);
  CHECK(az.prove_equal(nullptr, x) == Proof::kUnknown);
  auto h = X(relax::ir::make<tir::Var>("h", DataType::Handle()));
  CHECK(simp(az, h) == "h");
  auto u = var("u", DataType::UInt(32));
  CHECK(simp(az, u + u) == "u + u");
  auto call = X(relax::ir::make<tir::Call>(DataType::Int64(), "tir.my_func",
                                           std::vector<Ref<tir::PrimExpr>>{(x + 1 - 1).e}));
  CHECK(simp(az, call + call - call) == "T.my_func(x)");
  auto ite = X(relax::ir::make<tir::Call>(
      DataType::Int64(), "tir.if_then_else",
      std::vector<Ref<tir::PrimExpr>>{(x < x + 1).e, x.e, fdiv(x, 0).e}));
  CHECK(simp(az, ite) == "x");
  CHECK(simp(az, ite + 1 - x) == "1");
}

TEST_CASE("nodes with missing operands are left alone") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  auto x = var("x");
  X bad_add = X(relax::ir::make<tir::BinaryOp>(ObjectKind::kAdd, DataType::Int64(), x.e, nullptr));
  X bad_cmp = X(relax::ir::make<tir::BinaryOp>(ObjectKind::kLT, DataType::Bool(), nullptr, x.e));
  X bad_sel = X(relax::ir::make<tir::Select>(x < 1, x, x));
  bad_sel.e.as<tir::Select>()->condition = nullptr;
  for (const X& bad : {bad_add, bad_cmp, bad_sel}) {
    CHECK(az.simplify(bad).same_as(bad.e));
    CHECK(az.prove_equal(bad, bad) == Proof::kYes);  // the same node
    CHECK(az.prove_less(bad_add, bad) != Proof::kYes);
    CHECK(az.simplify(logical_not(bad_cmp))->dtype.is_bool());
    CHECK(evaluate(bad, Assignment()) == std::nullopt);
  }
  CHECK(simp(az, bad_add + 1 - 1) == "x + <null>");
}

TEST_CASE("simplify returns the input when it is already canonical") {
  Analyzer az;
  auto n = var("n"), m = var("m");
  X e = n * 2 + m;
  CHECK(az.simplify(e).same_as(e.e));
  CHECK(az.simplify(n).same_as(n.e));
  X c = n < m;
  CHECK(az.simplify(c).same_as(c.e));
}

TEST_CASE("evaluate: TVM integer semantics") {
  auto x = var("x"), y = var("y");
  Assignment a;
  a.set(x.e.as<tir::Var>(), -7);
  a.set(y.e.as<tir::Var>(), 2);
  auto ev = [&](const X& e) { return evaluate(e, a); };
  CHECK(ev(fdiv(x, y)) == -4);
  CHECK(ev(fmod(x, y)) == 1);
  CHECK(ev(tdiv(x, y)) == -3);
  CHECK(ev(tmod(x, y)) == -1);
  CHECK(ev(fdiv(x, 0 - y)) == 3);
  CHECK(ev(fmod(x, 0 - y)) == -1);
  CHECK(ev(min(x, y)) == -7);
  CHECK(ev(max(x, y)) == 2);
  CHECK(ev(select(x < y, x, y)) == -7);
  CHECK(ev(logical_and(x < y, logical_not(y < x))) == 1);
  CHECK(ev(x == y) == 0);
  CHECK(ev(fdiv(x, y - 2)) == std::nullopt);
  CHECK(ev(var("unbound")) == std::nullopt);
  CHECK(ev(i64(kMax) + 1) == std::nullopt);  // signed overflow is undefined
  CHECK(ev(i32(2147483647) + 1) == std::nullopt);
  CHECK(ev(cast(DataType::Int32(), i64(4294967297))) == 1);  // narrowing wraps
  CHECK(ev(cast(DataType::Bool(), i64(5))) == 1);
  CHECK(ev(X(relax::ir::make<tir::BinaryOp>(ObjectKind::kAdd, DataType::UInt(8),
                                            tir::int_imm(DataType::UInt(8), 255),
                                            tir::int_imm(DataType::UInt(8), 3)))) == 2);
  // Select evaluates both sides, so a division by zero in either makes it undefined.
  CHECK(ev(select(x < y, x, fdiv(x, 0))) == std::nullopt);
  auto let_var = relax::ir::make<tir::Var>("t", DataType::Int64());
  CHECK(ev(X(relax::ir::make<tir::Let>(let_var, (x * 2).e, (X(let_var) + 1).e))) == -13);
  CHECK(ev(X(tir::float_imm(DataType::Float32(), 1.0))) == std::nullopt);
}

TEST_CASE("substitute: replaces vars and shares untouched subtrees") {
  auto n = var("n"), m = var("m"), k = var("k");
  X e = n * 2 + fdiv(m, 4);
  Ref<tir::PrimExpr> r =
      relax::analysis::arith::substitute(e, VarMap{{n.e.as<tir::Var>(), (k + 1).e}});
  CHECK(X(r).str() == "(k + 1) * 2 + m // 4");
  // The untouched right operand is the same node.
  CHECK(r.as_ptr<tir::BinaryOp>()->b.same_as(e.e.as_ptr<tir::BinaryOp>()->b));
  CHECK(relax::analysis::arith::substitute(e, VarMap{}).same_as(e.e));
  Analyzer az;
  CHECK(X(az.substitute(e, {{n.e.as<tir::Var>(), (k + 1).e}})).str() == "k * 2 + m // 4 + 2");
  auto by_fn = relax::analysis::arith::substitute(
      e,
      [&](const Ref<tir::Var>& v) -> Ref<tir::PrimExpr> { return v == m.e ? i64(8).e : nullptr; });
  CHECK(X(az.simplify(by_fn)).str() == "n * 2 + 2");
}

// The identities SEMANTICS.md §2.2 requires of the canonical form, each checked twice: the two
// sides are provably equal, and the simplified text is the expected canonical rendering.
#include <catch2/catch.hpp>

#include "tests/analysis/arith_test_util.h"

using namespace arith_test;
using relax::analysis::arith::Analyzer;
using relax::analysis::arith::AnalyzerOptions;
using relax::analysis::arith::Proof;

namespace {

struct Vars {
  X n = var("n"), m = var("m"), x = var("x"), y = var("y"), z = var("z");
};

// Checks lhs == rhs is proved and that lhs simplifies to `text`.
void identity(Analyzer& az, const X& lhs, const X& rhs, const std::string& text) {
  INFO(lhs.str() << "  ==  " << rhs.str());
  CHECK(az.prove_equal(lhs, rhs) == Proof::kYes);
  CHECK(simp(az, lhs) == text);
}

}  // namespace

TEST_CASE("commutativity, associativity and constant folding") {
  Analyzer az;
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, n * 2, 2 * n, "n * 2");
  identity(az, 2 * n, n * 2, "n * 2");
  identity(az, (n + 1) - 1, n, "n");
  identity(az, 2 + (3 * x + z + y + 1) * 4 + x, 13 * x + 4 * z + 4 * y + 6,
           "x * 13 + z * 4 + y * 4 + 6");
  identity(az, x * 3 - 4 * x + 1, 1 - x, "1 - x");
  identity(az, i64(3) + i64(4) * i64(5), i64(23), "23");
  identity(az, n - n, i64(0), "0");
  identity(az, n * 0 + m, m, "m");
  identity(az, (n + m) - (m + n), i64(0), "0");
  identity(az, n + m - 2 * m, n - m, "n - m");
  identity(az, 0 - n - 3, n * -1 - 3, "n * -1 - 3");
}

TEST_CASE("products of sums are expanded and commute") {
  Analyzer az;
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, (n + 1) * 2, 2 * n + 2, "n * 2 + 2");
  identity(az, n * m, m * n, "n * m");
  identity(az, (n + 1) * (m - 1), n * m - n + m - 1, "n * m + m - n - 1");
  identity(az, (x + y) * (x - y), x * x - y * y, "x * x - y * y");
  identity(az, n * m * 3 - m * n * 3, i64(0), "0");
  identity(az, 2 * (n * (3 * m)), m * n * 6, "n * m * 6");
}

TEST_CASE("floordiv and floormod by constants with divisible coefficients") {
  Analyzer az;
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, fdiv(n * 4, 2), 2 * n, "n * 2");
  identity(az, fdiv(16 + 48 * x, 16), 3 * x + 1, "x * 3 + 1");
  // Floor semantics: the +1 remainder is absorbed, for any sign of x.
  identity(az, fdiv(17 + 48 * x, 16), 3 * x + 1, "x * 3 + 1");
  identity(az, fmod(x * 8, 2), i64(0), "0");
  identity(az, fdiv(x + y + x + 3 * y, 2), 2 * y + x, "x + y * 2");
  identity(az, fmod(x * 6 + 9, 3), i64(0), "0");
  identity(az, fmod(x * 6 + 10, 3), i64(1), "1");
  identity(az, fdiv(x, 1), x, "x");
  identity(az, fmod(x, 1), i64(0), "0");
  identity(az, fdiv(x * 4, -2), x * -2, "x * -2");
}

TEST_CASE("floordiv splitting and recombination") {
  Analyzer az;
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, fdiv(2 * x + 3 * y, 2), fdiv(3 * y, 2) + x, "x + y * 3 // 2");
  identity(az, fdiv(x, 3) * 3 + fmod(x, 3), x, "x");
  identity(az, fmod(x, 3) + fdiv(x, 3) * 3, x, "x");
  identity(az, fdiv(x + y, 4) * 4 + fmod(x + y, 4) - y, x, "x");
  identity(az, x - fdiv(x, 8) * 8, fmod(x, 8), "x % 8");
  identity(az, tdiv(x, 5) * 5 + tmod(x, 5), x, "x");
  // The constant remainder is normalized into [0, divisor).
  identity(az, fdiv(n + 5, 4), fdiv(n + 1, 4) + 1, "(n + 1) // 4 + 1");
  identity(az, fmod(n + 5, 4), fmod(n + 1, 4), "(n + 1) % 4");
  // gcd reduction: (2x + 1) // 4 == x // 2 and (2x + 1) % 4 == 2 * (x % 2) + 1.
  identity(az, fdiv(2 * x + 1, 4), fdiv(x, 2), "x // 2");
  identity(az, fmod(2 * x + 1, 4), fmod(x, 2) * 2 + 1, "x % 2 * 2 + 1");
}

TEST_CASE("nested division and modulo") {
  Analyzer az;
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, fdiv(fdiv(x, 4), 2), fdiv(x, 8), "x // 8");
  identity(az, fdiv(fdiv(x, 4) + 1, 2), fdiv(x + 4, 8), "(x + 4) // 8");
  identity(az, fmod(fmod(x, 8), 4), fmod(x, 4), "x % 4");
  identity(az, fmod(fmod(x, 8) + y, 4), fmod(x + y, 4), "(x + y) % 4");
  identity(az, fmod(fmod(x, 3), 3), fmod(x, 3), "x % 3");
  identity(az, fdiv(fmod(x, 4), 4), i64(0), "0");
  identity(az, fmod(fmod(x, 4), 8), fmod(x, 4), "x % 4");
}

TEST_CASE("division by non-constants") {
  Analyzer az;
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, fdiv(n * m * 3, m), n * 3, "n * 3");
  identity(az, fmod(n * m, m), i64(0), "0");
  identity(az, fdiv(2 * n + 2 * m, n + m), i64(2), "2");
  identity(az, fdiv(n, m) + fdiv(n, m), fdiv(n, m) * 2, "n // m * 2");
  CHECK(simp(az, fdiv(n, m)) == "n // m");
}

TEST_CASE("truncating division follows floor division for non-negative operands") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, tdiv(n + 3, 4), fdiv(n + 3, 4), "(n + 3) // 4");
  identity(az, tmod(n * 4 + 1, 4), i64(1), "1");
  Analyzer signed_az;
  // For a value of unknown sign only exact division simplifies.
  CHECK(simp(signed_az, tdiv(x, 4)) == "T.truncdiv(x, 4)");
  CHECK(simp(signed_az, tdiv(x * 8 + 4, 4)) == "x * 2 + 1");
  CHECK(simp(signed_az, tmod(x * 8 + 4, 4)) == "0");
  CHECK(simp(signed_az, tdiv(x, -1)) == "x * -1");
  CHECK(simp(signed_az, tmod(x, -3)) == "T.truncmod(x, 3)");
}

TEST_CASE("non-negativity folds bounded remainders") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Vars v;
  auto [n, m, x, y, z] = v;
  // ceildiv(n, 4) == (n + 3) // 4 stays as written.
  CHECK(simp(az, fdiv(n + 3, 4)) == "(n + 3) // 4");
  identity(az, fdiv(4 * x + fmod(y, 4), 4), x, "x");
  identity(az, fmod(4 * x + fmod(y, 4), 4), fmod(y, 4), "y % 4");
  identity(az, fdiv(fmod(n, 16), 16), i64(0), "0");
  Analyzer signed_az;
  // Without the fact, y % 4 is still in [0, 4): floormod is non-negative for a positive divisor.
  identity(signed_az, fdiv(4 * x + fmod(y, 4), 4), x, "x");
}

TEST_CASE("min and max") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, min(n, n + 1), n, "n");
  identity(az, max(n, n + 1), n + 1, "n + 1");
  identity(az, min(fdiv(n, 4), n), fdiv(n, 4), "n // 4");
  identity(az, max(n, 0), n, "n");
  identity(az, min(x, y), min(y, x), "T.min(x, y)");
  identity(az, max(n + 1, m + 1), max(n, m) + 1, "T.max(n, m) + 1");
  identity(az, min(x + y, x + z), x + min(y, z), "x + T.min(y, z)");
  identity(az, min(min(x, y), x), min(x, y), "T.min(x, y)");
  identity(az, min(x, max(x, y)), x, "x");
  identity(az, max(x, min(x, y)), x, "x");
  identity(az, min(min(x, 3), 5), min(x, 3), "T.min(x, 3)");
  identity(az, max(i64(3), i64(7)), i64(7), "7");
  identity(az, min(x, y) + max(x, y) - x - y, min(x, y) + max(x, y) - x - y,
           "T.min(x, y) + T.max(x, y) - x - y");
  CHECK(simp(az, min(max(n - 1, 0), m)) == "T.min(T.max(n - 1, 0), m)");
}

TEST_CASE("select") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Vars v;
  auto [n, m, x, y, z] = v;
  identity(az, select(n < n + 1, x, y), x, "x");
  identity(az, select(n < 0, x, y), y, "y");
  identity(az, select(n < m, x, x), x, "x");
  identity(az, select(n < m, x + 1, x + 3), x + select(n < m, i64(1), i64(3)),
           "x + T.Select(n < m, 1, 3)");
}

TEST_CASE("comparisons") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Vars v;
  auto [n, m, x, y, z] = v;
  CHECK(simp(az, n + 1 > n) == "True");
  CHECK(simp(az, n >= 0) == "True");
  CHECK(simp(az, n < 0) == "False");
  CHECK(simp(az, x < x) == "False");
  CHECK(simp(az, x <= x) == "True");
  CHECK(simp(az, x == x) == "True");
  CHECK(simp(az, x != x) == "False");
  CHECK(simp(az, 2 * n == 2 * m + 1) == "False");
  CHECK(simp(az, 2 * n != 2 * m + 1) == "True");
  CHECK(simp(az, n + 1 < m + 3) == "n < m + 2");
  // Integer comparisons are normalized: gcd divided out, `<` and `<=` with the constant folded.
  CHECK(simp(az, 2 * n < 2 * m + 1) == "n <= m");
  CHECK(simp(az, n + 1 > m) == "m <= n");
  CHECK(simp(az, n == m + 1) == "n == m + 1");
  CHECK(simp(az, 4 * n == 8) == "n == 2");
  CHECK(simp(az, 4 * n == 7) == "False");
  CHECK(simp(az, fdiv(n, 2) * 2 <= n) == "True");
  CHECK(simp(az, fdiv(n, 2) <= n) == "True");
  CHECK(simp(az, fmod(n, 4) < 4) == "True");
  CHECK(simp(az, min(n, m) <= n) == "True");
  CHECK(simp(az, max(n, m) < n) == "False");
}

TEST_CASE("logic") {
  Analyzer az(AnalyzerOptions{.non_negative_int64_vars = true});
  Vars v;
  auto [n, m, x, y, z] = v;
  X t = n >= 0, f = n < 0, c = n < m;
  CHECK(simp(az, logical_and(t, c)) == "n < m");
  CHECK(simp(az, logical_and(f, c)) == "False");
  CHECK(simp(az, logical_or(t, c)) == "True");
  CHECK(simp(az, logical_or(f, c)) == "n < m");
  CHECK(simp(az, logical_and(c, c)) == "n < m");
  CHECK(simp(az, logical_not(t)) == "False");
  CHECK(simp(az, logical_not(logical_not(c))) == "n < m");
  CHECK(simp(az, logical_not(c)) == "m <= n");
  CHECK(simp(az, logical_and(c, logical_not(c))) == "False");
  CHECK(simp(az, logical_or(logical_not(c), c)) == "True");
  CHECK(simp(az, logical_and(x < y, y < z)) == "x < y and y < z");
  CHECK(simp(az, logical_and(x < 5, x < 3)) == "x < 3");
  CHECK(simp(az, logical_or(x < 5, x < 3)) == "x < 5");
  CHECK(simp(az, logical_and(x <= y, y <= x)) == "x == y");
  CHECK(simp(az, logical_and(x < y, y < x)) == "False");
  CHECK(simp(az, logical_or(x < y, y <= x)) == "True");
  CHECK(simp(az, logical_and(x == 3, x < 5)) == "x == 3");
  CHECK(simp(az, logical_and(x == 3, x > 5)) == "False");
  CHECK(simp(az, logical_or(x == 3, x != 4)) == "x != 4");
  CHECK(simp(az, logical_and(x == y, y != x)) == "False");
}

TEST_CASE("rendering order is appearance order, constants last") {
  Analyzer az;
  Vars v;
  auto [n, m, x, y, z] = v;
  CHECK(simp(az, n * 2 + m) == "n * 2 + m");
  CHECK(simp(az, m + n * 2) == "m + n * 2");
  CHECK(simp(az, 1 + n * 2 + m) == "n * 2 + m + 1");
  CHECK(simp(az, m - n - 1) == "m - n - 1");
  CHECK(simp(az, 0 - n - m) == "n * -1 - m");
  CHECK(simp(az, 5 - n * 2) == "5 - n * 2");
  // Atoms are numbered as met, inner ones first: n comes before n // 2.
  CHECK(simp(az, fdiv(n, 2) + n) == "n + n // 2");
}

TEST_CASE("int32 stays int32") {
  Analyzer az;
  X a = var("a", DataType::Int32()), b = var("b", DataType::Int32());
  Ref<tir::PrimExpr> s = az.simplify((a + 1) * 2 - b);
  CHECK(s->dtype == DataType::Int32());
  CHECK(arith_test::X(s).str() == "a * 2 - b + 2");
  CHECK(az.simplify(fdiv(a * 4, 2))->dtype == DataType::Int32());
  CHECK(az.simplify(a < a + 1)->dtype.is_bool());
  // A product whose coefficient leaves int32 stays as written.
  CHECK(simp(az, a * 65536 * 65536) == "a * 65536 * 65536");
  // Casts keep their operand's dtype inside.
  X w = cast(DataType::Int64(), a) + 1 - cast(DataType::Int64(), a);
  CHECK(simp(az, w) == "1");
  CHECK(simp(az, cast(DataType::Int64(), i32(7))) == "7");
  CHECK(az.simplify(cast(DataType::Int64(), i32(7)))->dtype == DataType::Int64());
}

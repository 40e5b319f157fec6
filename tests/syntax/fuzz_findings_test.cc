// Focused tests for what the fuzz harnesses found in the front end and the printer
// (docs/fuzzing.md); each finding's input also lies in tests/fuzz_regressions/<harness>/, which
// CTest replays through the harness itself.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "analysis/normalize.h"
#include "ir/source.h"
#include "syntax/frontend.h"
#include "syntax/frontend/literals.h"
#include "syntax/frontend/prim_ops.h"
#include "tests/syntax/roundtrip_util.h"

using namespace relax;
using namespace relax::syntax;

namespace {

std::string function_with(const std::string& binding) {
  return "@R.function\ndef f(x: R.Tensor((4,), \"float32\")):\n    " + binding + "\n    return x\n";
}

}  // namespace

TEST_CASE("INT64_MIN, which prints as -9223372036854775808, reads back") {
  CHECK(decode_integer("9223372036854775808", /*negated=*/true) == INT64_MIN);
  CHECK(decode_integer("0x8000000000000000", /*negated=*/true) == INT64_MIN);
  CHECK(decode_integer("5", /*negated=*/true) == -5);
  CHECK_FALSE(decode_integer("9223372036854775809", /*negated=*/true).has_value());
  CHECK_FALSE(decode_integer("9223372036854775808").has_value());

  // Folding reaches INT64_MIN; its printed form parses to the same module.
  for (auto profile : {Profile::kLegacy, Profile::kCurrent}) {
    auto r = test::round_trip(
        function_with("c = R.prim_value(T.int64(-9223372036854775807) - T.int64(1))"),
        "int64_min.relax", profile);
    INFO(r.failure);
    REQUIRE(r.ok());
    CHECK(r.printed.find("R.prim_value(-9223372036854775808)") != std::string::npos);
  }

  // One past it is still out of range, with the literal's position.
  ir::DiagnosticBag diags;
  parse_text(function_with("c = R.prim_value(-9223372036854775809)"), "int64_min_1.relax", diags);
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].code == "E0110");
  auto file = ir::SourceManager::global().get(diags.items()[0].span.file);
  REQUIRE(file);
  CHECK(file->position(diags.items()[0].span.begin).line == 2);  // 0-based
  CHECK(file->position(diags.items()[0].span.begin).column == 22);
}

TEST_CASE("a float constant cast to an integer type folds only when the type holds it") {
  using namespace ir;
  using namespace ir::tir;
  auto f64 = [](double v) { return float_imm(DataType::Float(64), v); };
  CHECK(as_const_int(prim_cast(DataType::Int32(), f64(2.9))) == 2);
  CHECK(as_const_int(prim_cast(DataType::Int32(), f64(-2.9))) == -2);
  CHECK(as_const_int(prim_cast(DataType::Int(8), f64(-128.5))) == -128);
  CHECK(as_const_int(prim_cast(DataType::UInt(8), f64(255.0))) == 255);
  CHECK(as_const_int(prim_cast(DataType::Bool(), f64(0.5))) == 1);
  CHECK(as_const_int(prim_cast(DataType::Int64(), f64(-9223372036854775808.0))) == INT64_MIN);
  // Out of range (converting would be undefined behaviour): the Cast stays.
  for (auto [t, v] :
       {std::pair{DataType::Int32(), 1e300}, std::pair{DataType::Int32(), 2147483648.0},
        std::pair{DataType::Int(8), 128.0}, std::pair{DataType::UInt(8), -1.0},
        std::pair{DataType::Int64(), 9223372036854775808.0}}) {
    auto cast = prim_cast(t, f64(v));
    CHECK(cast->kind() == ObjectKind::kCast);
    CHECK(cast->dtype == t);
  }

  // The text reads back: the Cast prints and parses as written.
  auto r = test::round_trip(function_with("c = R.prim_value(T.int32(T.float64(3e9)))"),
                            "float_to_int.relax", Profile::kLegacy);
  INFO(r.failure);
  REQUIRE(r.ok());
  CHECK(r.printed.find("R.prim_value(T.Cast(\"int32\", T.float64(3000000000.0)))") !=
        std::string::npos);
}

TEST_CASE(
    "int64 literals among a constructor's or an intrinsic's operands print with their dtype "
    "in Relax") {
  // Printed bare (`T.FloorDiv(5, 2)`), they read back as int32.
  const std::string text =
      "@R.function\n"
      "def f(x: R.Tensor((\"n\",), \"float32\")):\n"
      "    n = T.int64()\n"
      "    a = R.prim_value(T.FloorDiv(T.int64(5), T.int64(2)))\n"
      "    b = R.prim_value(T.int64(5) // T.int64(0))\n"
      "    c = R.prim_value(T.if_then_else(n > 0, T.int64(1), T.int64(2)))\n"
      "    d = R.prim_value(T.Select(n > 0, T.int64(1), T.int64(2)))\n"
      "    e = R.prim_value(T.bitwise_and(T.int64(4), T.int64(2)))\n"
      "    g = R.shape([T.FloorDiv(n, 1), n + 1])\n"
      "    return x\n";
  for (auto profile : {Profile::kLegacy, Profile::kCurrent}) {
    auto r = test::round_trip(text, "int64_operands.relax", profile);
    INFO(r.failure);
    REQUIRE(r.ok());
    for (const char* expected : {
             "R.prim_value(T.FloorDiv(T.int64(5), T.int64(2)))",
             "R.prim_value(T.int64(5) // T.int64(0))",
             "R.prim_value(T.if_then_else(n > 0, T.int64(1), T.int64(2)))",
             "R.prim_value(T.Select(n > 0, T.int64(1), T.int64(2)))",
             "R.prim_value(T.bitwise_and(T.int64(4), T.int64(2)))",
             // Beside an int64 operand a literal takes its type: bare, as TVM prints it.
             "R.shape([T.FloorDiv(n, 1), n + 1])",
         }) {
      INFO(expected);
      CHECK(r.printed.find(expected) != std::string::npos);
    }
  }
}

TEST_CASE("R.Prim(value=...) keeps the dtype of a PrimExpr value") {
  // What `relax print` writes for an int32 prim value; it was read as int64 (E0350).
  ir::DiagnosticBag diags;
  auto result = parse_text(
      function_with("h: R.Prim(value=T.int32(3)) = R.prim_value(T.int32(3))\n"
                    "    n = T.int32()\n"
                    "    k: R.Prim(value=n + T.int32(1)) = R.prim_value(n + T.int32(1))"),
      "prim_int32.relax", diags);
  INFO(test::diagnostics_text(diags));
  REQUIRE_FALSE(diags.has_errors());
  analysis::normalize_module(*result.module, diags);
  INFO(test::diagnostics_text(diags));
  REQUIRE_FALSE(diags.has_errors());
  std::string printed = test::print_result(result, Profile::kLegacy);
  CHECK(printed.find("h: R.Prim(value=T.int32(3)) = R.prim_value(T.int32(3))") !=
        std::string::npos);
  CHECK(printed.find("k: R.Prim(value=n + T.int32(1)) = R.prim_value(n + T.int32(1))") !=
        std::string::npos);

  // A Python int is still an int64 value; an explicit int64 dtype still casts.
  ir::DiagnosticBag more;
  auto ints = parse_text(function_with("a: R.Prim(value=3) = R.prim_value(3)\n"
                                       "    b: R.Prim(\"int64\", value=T.int64(4)) = "
                                       "R.prim_value(T.int64(4))"),
                         "prim_int64.relax", more);
  INFO(test::diagnostics_text(more));
  REQUIRE_FALSE(more.has_errors());
  analysis::normalize_module(*ints.module, more);
  INFO(test::diagnostics_text(more));
  CHECK_FALSE(more.has_errors());
  CHECK(test::print_result(ints, Profile::kLegacy).find("a: R.Prim(value=3) = R.prim_value(3)") !=
        std::string::npos);
}

TEST_CASE("R.const truncates a float for an integer dtype and refuses one the dtype cannot hold") {
  auto r = test::round_trip(function_with("a = R.const(1.9, \"int8\")\n"
                                          "    b = R.const(-2.9, \"int32\")"),
                            "const_trunc.relax", Profile::kLegacy);
  INFO(r.failure);
  REQUIRE(r.ok());
  CHECK(r.printed.find("a = R.const(1, \"int8\")") != std::string::npos);
  CHECK(r.printed.find("b = R.const(-2, \"int32\")") != std::string::npos);

  // Converting these was undefined behaviour (1e300 to int64) or silently wrong.
  ir::DiagnosticBag diags;
  parse_text(function_with("a = R.const(300.0, \"int8\")\n"
                           "    b = R.const([1e300], \"int64\")\n"
                           "    c = R.const(\"nan\", \"int32\")\n"
                           "    d = R.const(-1.0, \"uint8\")"),
             "const_range.relax", diags);
  const std::vector<std::pair<std::string, uint32_t>> expected = {
      {"R.const: 300 does not fit in int8", 16},
      {"R.const: 1.0000000000000001e+300 does not fit in int64", 17},
      {"R.const: nan does not fit in int32", 16},
      {"R.const: -1 does not fit in uint8", 16},
  };
  REQUIRE(diags.items().size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& d = diags.items()[i];
    CHECK(d.code == "E0516");
    CHECK(d.message == expected[i].first);
    auto file = ir::SourceManager::global().get(d.span.file);
    REQUIRE(file);
    CHECK(file->position(d.span.begin).line == 2 + i);
    CHECK(file->position(d.span.begin).column == expected[i].second);
  }
}

TEST_CASE("R.const refuses more dimensions than a constant's blob may have") {
  std::string nested = std::string(65, '[') + "1" + std::string(65, ']');
  ir::DiagnosticBag diags;
  parse_text(function_with("c = R.const(" + nested + ", \"float32\")"), "const_rank.relax", diags);
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].code == "E0516");
  CHECK(diags.items()[0].message ==
        "R.const: more than 64 nested lists (numpy's and TVM's limit on dimensions)");

  // 64 dimensions print into the metadata section and read back.
  std::string ok = std::string(64, '[') + "1" + std::string(64, ']');
  ir::DiagnosticBag fine;
  auto result =
      parse_text(function_with("c = R.const(" + ok + ", \"float32\")"), "const_rank64.relax", fine);
  REQUIRE_FALSE(fine.has_errors());
  PrintOptions options;
  options.show_meta = true;
  std::string printed = print_functions(*result.module, options);
  ir::DiagnosticBag again;
  auto reread = parse_text(printed, "const_rank64.printed.relax", again);
  INFO(test::diagnostics_text(again));
  CHECK_FALSE(again.has_errors());
  CHECK_FALSE(test::result_diff(result, reread).has_value());
}

TEST_CASE("ndim beyond int is refused, not wrapped") {
  for (const char* annotation :
       {"R.Tensor(ndim=2147483648)", "R.Shape(ndim=2147483648)", "R.Shape(ndim=-2)"}) {
    ir::DiagnosticBag diags;
    parse_text("@R.function\ndef f(x: " + std::string(annotation) + "):\n    return x\n",
               "ndim.relax", diags);
    INFO(annotation);
    REQUIRE(diags.items().size() == 1);
    CHECK(diags.items()[0].code == "E0503");
    CHECK(diags.items()[0].message == "ndim must be -1 (unknown) or a non-negative int");
  }
}

TEST_CASE("T.abs of a constant folds in two's complement") {
  // Negating INT64_MIN was undefined behaviour; the smallest value is its own absolute value, as
  // select(x >= 0, x, -x) computes it at run time.
  auto r = test::round_trip(function_with("a = R.prim_value(T.abs(T.int64(-9223372036854775808)))\n"
                                          "    b = R.prim_value(T.abs(T.int8(-128)))\n"
                                          "    c = R.prim_value(T.abs(T.int8(-5)))"),
                            "abs.relax", Profile::kLegacy);
  INFO(r.failure);
  REQUIRE(r.ok());
  CHECK(r.printed.find("a = R.prim_value(-9223372036854775808)") != std::string::npos);
  CHECK(r.printed.find("b = R.prim_value(T.int8(-128))") != std::string::npos);
  CHECK(r.printed.find("c = R.prim_value(T.int8(5))") != std::string::npos);
}

TEST_CASE("a TIR loop whose extent leaves int64 is an error at the range") {
  // range(INT64_MIN, INT64_MAX): the extent's linear form overflowed (undefined behaviour), then
  // the printed `a + (b - a)` did not read back. More iterations than an int64 extent counts are
  // E0249, as every constant arithmetic that leaves its dtype; one less fits.
  ir::DiagnosticBag diags;
  parse_text(
      "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n"
      "    for i in range(-9223372036854775808, 9223372036854775807):\n"
      "        A[0] = T.float32(1)\n"
      "    for j in range(-9223372036854775807, 9223372036854775807):\n"
      "        A[0] = T.float32(1)\n"
      "    for k in range(-4611686018427387904, 4611686018427387903):\n"
      "        A[0] = T.float32(1)\n",
      "loop.relax", diags);
  std::string text = test::diagnostics_text(diags);
  INFO(text);
  CHECK(diags.error_count() == 2);
  CHECK(text.find("E0249") != std::string::npos);
  CHECK(text.find("the extent of range(-9223372036854775808, 9223372036854775807) does not fit "
                  "in int64") != std::string::npos);
}

// Focused tests for what the fuzz harnesses found in the front end and the printer
// (docs/fuzzing.md); each finding's input also lies in tests/fuzz_regressions/<harness>/, which
// CTest replays through the harness itself.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

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

// The dialect-independent parts of the front end: literals, Python arithmetic on literals,
// PrimExpr operator semantics (dtype matching, folding), string decoding, syntax errors.
#include <catch2/catch.hpp>

#include <limits>
#include <tuple>

#include "ir/source.h"
#include "syntax/frontend.h"
#include "syntax/frontend/literals.h"
#include "syntax/frontend/prim_ops.h"
#include "syntax/printer/text_util.h"

using namespace relax;
using namespace relax::syntax;

TEST_CASE("integer literals decode with Python's prefixes") {
  CHECK(decode_integer("42") == 42);
  CHECK(decode_integer("1_000") == 1000);
  CHECK(decode_integer("0x1F") == 31);
  CHECK(decode_integer("0o17") == 15);
  CHECK(decode_integer("0b101") == 5);
  CHECK_FALSE(decode_integer("99999999999999999999").has_value());
}

TEST_CASE("string literals decode escapes, prefixes and triple quotes") {
  CHECK(decode_string("\"a\\nb\"").value == "a\nb");
  CHECK(decode_string("'it\\'s'").value == "it's");
  CHECK(decode_string("r\"a\\nb\"").value == "a\\nb");
  CHECK(decode_string("\"\"\"x\"y\"\"\"").value == "x\"y");
  CHECK(decode_string("\"\\xE2\\x82\\xAC\"").value == "\xE2\x82\xAC");
  CHECK(decode_string("\"\\u20ac\"").value == "\xE2\x82\xAC");
  CHECK_FALSE(decode_string("\"abc").ok);
  CHECK(decode_string("f\"x\"").is_fstring);
}

TEST_CASE("quote_string escapes as TVM's printer does") {
  CHECK(quote_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(quote_string("t\tn\n") == "\"t\\tn\\n\"");
  CHECK(quote_string("\xE2\x82\xAC") == "\"\\xE2\\x82\\xAC\"");
}

TEST_CASE("format_float matches TVM's float literals") {
  CHECK(format_float(1.0) == "1.0");
  CHECK(format_float(-0.0) == "-0.0");
  CHECK(format_float(256.0) == "256.0");
  CHECK(format_float(0.1) == "0.10000000000000001");
  CHECK(format_float(1e-5) == "1.0000000000000001e-05");
  CHECK(format_float(static_cast<double>(1e-5f)) == "9.9999997473787516e-06");
  CHECK(format_float(3.4028234663852886e+38) == "340282346638528859811704183484516925440.0");
}

TEST_CASE("PrimExpr arithmetic matches dtypes and folds constants") {
  using namespace ir;
  using namespace ir::tir;
  auto n = make<tir::Var>("n", DataType::Int64());
  // n + 1 (int32 literal) widens the literal to int64.
  auto sum = prim_arith(ObjectKind::kAdd, n, int32(1));
  REQUIRE(sum->kind() == ObjectKind::kAdd);
  CHECK(sum->dtype == DataType::Int64());
  CHECK(static_cast<const BinaryOp&>(*sum).b->dtype == DataType::Int64());
  // Constants fold; identities simplify.
  auto folded = prim_arith(ObjectKind::kMul, int64(8), int64(2));
  CHECK(as_const_int(folded) == 16);
  CHECK(prim_arith(ObjectKind::kMul, n, int64(1)).same_as(n));
  CHECK(as_const_int(prim_arith(ObjectKind::kFloorDiv, int64(-7), int64(2))) == -4);
  CHECK(as_const_int(prim_arith(ObjectKind::kFloorMod, int64(-7), int64(2))) == 1);
  CHECK(as_const_int(prim_arith(ObjectKind::kDiv, int64(-7), int64(2))) == -3);
  // A signed result outside its dtype is not folded (TVM's fold wraps it) and is reported.
  bool overflow = false;
  auto wrapped = prim_arith(ObjectKind::kAdd, int32(2147483647), int32(1), {}, &overflow);
  CHECK(overflow);
  CHECK(wrapped->kind() == ObjectKind::kAdd);
  CHECK_FALSE(as_const_int(wrapped));
  overflow = false;
  CHECK_FALSE(as_const_int(
      prim_arith(ObjectKind::kMul, int64(4611686018427387904LL), int64(4), {}, &overflow)));
  CHECK(overflow);
  overflow = false;
  CHECK_FALSE(
      as_const_int(prim_arith(ObjectKind::kFloorDiv, int64(INT64_MIN), int64(-1), {}, &overflow)));
  CHECK(overflow);
  overflow = false;
  CHECK_FALSE(as_const_int(prim_negate(int64(INT64_MIN), {}, &overflow)));
  CHECK(overflow);
  // In range, and unsigned arithmetic (which wraps, as the hardware does): folded, no report.
  overflow = false;
  CHECK(as_const_int(prim_arith(ObjectKind::kSub, int32(-2147483647), int32(1), {}, &overflow)) ==
        -2147483648LL);
  CHECK(as_const_int(prim_arith(ObjectKind::kAdd, make<IntImm>(DataType::UInt(8), 255),
                                make<IntImm>(DataType::UInt(8), 1), {}, &overflow)) == 0);
  CHECK_FALSE(overflow);
  // int64 results past int64 and divisions that trap (or divide by zero) stay nodes.
  const int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = -kMax - 1;
  for (auto [kind, a, b] : {std::tuple{ObjectKind::kAdd, kMax, int64_t{1}},
                            std::tuple{ObjectKind::kSub, kMin, int64_t{1}},
                            std::tuple{ObjectKind::kMul, int64_t{1} << 62, int64_t{4}},
                            std::tuple{ObjectKind::kDiv, kMin, int64_t{-1}},
                            std::tuple{ObjectKind::kFloorDiv, kMin, int64_t{-1}},
                            std::tuple{ObjectKind::kFloorDiv, int64_t{5}, int64_t{0}}}) {
    CAPTURE(kind_name(kind), a, b);
    auto e = prim_arith(kind, int64(a), int64(b));
    CHECK(e->kind() == kind);
    CHECK_FALSE(as_const_int(e));
  }
  CHECK(as_const_int(prim_arith(ObjectKind::kAdd, int64(kMax - 1), int64(1))) == kMax);
  CHECK(as_const_int(prim_arith(ObjectKind::kFloorDiv, int64(kMin + 1), int64(-1))) == kMax);
  // The remainder of INT64_MIN by -1 is exactly 0: folded, where the division would trap.
  CHECK(as_const_int(prim_arith(ObjectKind::kFloorMod, int64(kMin), int64(-1))) == 0);
  // Negation of a variable is x * -1.
  auto neg = prim_negate(n);
  REQUIRE(neg->kind() == ObjectKind::kMul);
}

TEST_CASE("syntax errors are reported with codes and positions") {
  ir::DiagnosticBag diags;
  auto result = parse_text(
      "@R.function\ndef f(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\")\n    "
      "return x\n",
      "missing_colon.relax", diags);
  REQUIRE(diags.has_errors());
  const auto& d = diags.items().front();
  CHECK((d.code == "E0101" || d.code == "E0102"));
  auto file = ir::SourceManager::global().get(d.span.file);
  REQUIRE(file);
  CHECK(file->position(d.span.begin).line == 1);
}

// The reference TIR interpreter on hand-written PrimFuncs: loops, lets, conditionals, reductions
// with init, symbolic dims bound from the arrays, integer semantics, and its errors.
#include <catch2/catch.hpp>

#include <limits>

#include "compiler/tir_eval/tir_eval.h"
#include "ir/diagnostic.h"
#include "syntax/frontend.h"

using namespace relax;
using namespace relax::compiler::tir_eval;
using ir::DataType;

namespace {

ir::Ref<ir::tir::PrimFunc> parse_func(const std::string& text, const std::string& name) {
  ir::DiagnosticBag diags;
  auto r = syntax::parse_text(text, "tir_eval_test.relax", diags);
  for (const auto& d : diags.items()) INFO(d.code + ": " + d.message);
  REQUIRE(!diags.has_errors());
  auto f = ir::as_prim_func(r.module->lookup(name));
  REQUIRE(f);
  return f;
}

}  // namespace

TEST_CASE("tir_eval: lowered loops with a let, a condition and a symbolic extent") {
  auto f = parse_func(R"(
@I.ir_module
class Module:
    @T.prim_func
    def clamp_scale(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            with T.LetStmt(A[i] * T.float32(2.0)) as v:
                if v > T.float32(1.0):
                    B[i] = T.float32(1.0)
                else:
                    B[i] = v
)",
                      "clamp_scale");
  HostArray a(DataType::Float32(), {4});
  a.f = {0.25, 0.5, 0.75, -3};
  HostArray b(DataType::Float32(), {4});
  run(*f, {&a, &b});
  CHECK(b.f == std::vector<double>{0.5, 1.0, 1.0, -6.0});
}

TEST_CASE("tir_eval: block reductions run their init once per output element") {
  auto f = parse_func(R"(
@I.ir_module
class Module:
    @T.prim_func
    def rowsum(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2,), "float32")):
        for i, k in T.grid(2, 3):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(10.0)
                B[vi] = B[vi] + A[vi, vk]
)",
                      "rowsum");
  HostArray a(DataType::Float32(), {2, 3});
  a.f = {1, 2, 3, 4, 5, 6};
  HostArray b(DataType::Float32(), {2});
  b.f = {100, 100};
  run(*f, {&a, &b});
  CHECK(b.f == std::vector<double>{16, 25});
}

TEST_CASE("tir_eval: integer semantics of floordiv, floormod, truncation and wrap-around") {
  auto f = parse_func(R"(
@I.ir_module
class Module:
    @T.prim_func
    def ints(A: T.Buffer((2,), "int32"), B: T.Buffer((5,), "int32")):
        B[0] = A[0] // A[1]
        B[1] = A[0] % A[1]
        B[2] = T.truncdiv(A[0], A[1])
        B[3] = T.truncmod(A[0], A[1])
        B[4] = A[0] * T.int32(1073741824)
)",
                      "ints");
  HostArray a(DataType::Int32(), {2});
  a.i = {-7, 2};
  HostArray b(DataType::Int32(), {5});
  run(*f, {&a, &b});
  CHECK(b.i[0] == -4);
  CHECK(b.i[1] == 1);
  CHECK(b.i[2] == -3);
  CHECK(b.i[3] == -1);
  CHECK(b.i[4] == static_cast<int32_t>(static_cast<uint32_t>(-7) * 1073741824u));
}

TEST_CASE("tir_eval: INT64_MIN / -1 is an error, not a trap of the compiler") {
  auto f = parse_func(R"(
@I.ir_module
class Module:
    @T.prim_func
    def div(A: T.Buffer((2,), "int64"), B: T.Buffer((1,), "int64")):
        B[0] = A[0] // A[1]
)",
                      "div");
  HostArray a(DataType::Int64(), {2});
  HostArray b(DataType::Int64(), {1});
  a.i = {std::numeric_limits<int64_t>::min(), -1};
  CHECK_THROWS_WITH(run(*f, {&a, &b}), "tir_eval: integer division overflows int64");
  a.i = {std::numeric_limits<int64_t>::min() + 1, -1};
  run(*f, {&a, &b});
  CHECK(b.i[0] == std::numeric_limits<int64_t>::max());
}

TEST_CASE("tir_eval: float32 values are rounded after each operation") {
  Scalar s = Scalar::of_float(DataType::Float32(), 0.1);
  CHECK(s.f == static_cast<double>(0.1f));
  Scalar d = Scalar::of_float(DataType::Float(64), 0.1);
  CHECK(d.f == 0.1);
  CHECK(normalize(DataType::Int(8), Scalar::of_int(DataType::Int64(), 300)).i == 44);
  CHECK(normalize(DataType::Bool(), Scalar::of_float(DataType::Float32(), 0.5)).i == 1);
}

TEST_CASE("tir_eval: errors name the buffer and the problem") {
  auto f = parse_func(R"(
@I.ir_module
class Module:
    @T.prim_func
    def shift(A: T.Buffer((3,), "float32"), B: T.Buffer((3,), "float32")):
        for i in range(3):
            B[i] = A[i + 1]
)",
                      "shift");
  HostArray a(DataType::Float32(), {3});
  HostArray b(DataType::Float32(), {3});
  CHECK_THROWS_WITH(run(*f, {&a, &b}), Catch::Contains("out of bounds") && Catch::Contains("`A`"));
  HostArray wrong(DataType::Float32(), {4});
  CHECK_THROWS_WITH(run(*f, {&wrong, &b}), Catch::Contains("dim 0"));
  HostArray ints(DataType::Int32(), {3});
  CHECK_THROWS_WITH(run(*f, {&ints, &b}), Catch::Contains("dtype"));
  CHECK_THROWS_WITH(run(*f, {&a}), Catch::Contains("2 parameters, 1 arguments"));
}

TEST_CASE("tir_eval: host arrays convert to and from constant bytes") {
  for (DataType t : {DataType::Float32(), DataType::Float(64), DataType::Int32(), DataType::Int(8),
                     DataType::UInt(8), DataType::Int64(), DataType::Bool()}) {
    HostArray a(t, {2, 2});
    for (int64_t k = 0; k < 4; ++k)
      a.set(k, t.is_floating() ? Scalar::of_float(t, 0.5 * double(k) - 1)
                               : Scalar::of_int(t, k * 3 - 2));
    ir::TensorData d = to_tensor_data(a);
    CHECK(d.bytes.size() == static_cast<size_t>(4 * t.bytes()));
    HostArray b = from_tensor_data(d);
    CHECK(b.dtype == t);
    CHECK(b.shape == a.shape);
    CHECK(b.f == a.f);
    CHECK(b.i == a.i);
  }
  ir::TensorData f32{DataType::Float32(), {1}, {0, 0, 0x80, 0x3f}};  // 1.0f
  CHECK(from_tensor_data(f32).f[0] == 1.0);
  ir::TensorData bad{DataType::Float(16), {1}, {0, 0x3c}};
  CHECK_THROWS_WITH(from_tensor_data(bad), Catch::Contains("float16"));
}

// prim_funcs that return values (T.ret), state assumptions (T.assume) or call other prim_funcs
// of the module, built with the default pipeline and LLVM code generation and run on the VM.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/normalize.h"
#include "compiler/build.h"
#include "syntax/frontend.h"
#include "tests/compiler/vm_test_util.h"
#include "vm/runtime.h"

using namespace relax;

namespace {

vm::Module build_text(const std::string& text) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(text, "tir_calls.relax", diags);
  std::string parse_errors;
  for (const auto& d : diags.items()) parse_errors += d.code + ": " + d.message + "\n";
  INFO(parse_errors);
  REQUIRE(parsed.module);
  REQUIRE_FALSE(diags.has_errors());
  analysis::normalize_module(*parsed.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  return test::build_module(parsed.module);
}

}  // namespace

TEST_CASE("a prim_func returning a value with T.ret is called from Relax") {
  auto m = build_text(R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def compute(N: T.int64, M: T.int64) -> T.int64:
        T.func_attr({"tir.is_host_func": True})
        T.ret(N * M)

    @R.function
    def main(_N: R.Prim(value="N"), _M: R.Prim(value="M")) -> R.Prim(value="N * M"):
        N = T.int64()
        M = T.int64()
        out = Module.compute(R.prim_value(N), R.prim_value(M))
        return out
)");
  vm::Value out = test::call_main(m, {vm::Value(int64_t{6}), vm::Value(int64_t{7})});
  CHECK(out.as_int() == 42);
}

TEST_CASE("T.ret of a bool condition and a float, returned early from a branch") {
  auto m = build_text(R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def divisible(N: T.int64) -> T.bool:
        T.ret(N % 16 == 0)

    @T.prim_func(private=True)
    def half_or_neg(x: T.float64) -> T.float64:
        if x < T.float64(0):
            T.ret(T.float64(-1))
        T.ret(x / T.float64(2))

    @R.function
    def main(A: R.Tensor(("N",), dtype="float32"), x: R.Prim("float64")) -> R.Tuple(R.Prim("bool"), R.Prim("float64")):
        N = T.int64()
        c = Module.divisible(R.prim_value(N))
        h = Module.half_or_neg(x)
        return (c, h)
)");
  auto run = [&](int64_t n, double x) {
    std::vector<float> data(static_cast<size_t>(n), 0.0f);
    return test::call_main(
        m, {test::tensor<float>({n}, data, DLDataType{kDLFloat, 32, 1}), vm::Value(x)});
  };
  vm::Value r = run(32, 5.0);
  CHECK(test::field(r, 0).as_int() == 1);
  CHECK(test::field(r, 1).as_float() == 2.5);
  r = run(20, -3.0);
  CHECK(test::field(r, 0).as_int() == 0);
  CHECK(test::field(r, 1).as_float() == -1.0);
}

TEST_CASE("T.assume states a fact and generates no code") {
  auto m = build_text(R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            T.assume(i < 4 or A[i] == T.float32(0))
            B[i] = A[i] * T.float32(2)

    @R.function
    def main(A: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Module
        B = R.call_tir(cls.scale, (A,), out_sinfo=R.Tensor((8,), dtype="float32"))
        return B
)");
  std::vector<float> a = {1, 2, 3, 4, 0, 0, 0, 0};
  vm::Value out = test::call_main(m, {test::tensor<float>({8}, a, DLDataType{kDLFloat, 32, 1})});
  CHECK(test::data_of<float>(out) == std::vector<float>{2, 4, 6, 8, 0, 0, 0, 0});
}

TEST_CASE("a prim_func calls other prim_funcs of the module") {
  // TVM's test_subroutine_call (a handle argument), and a callee with a scalar result (its int32
  // argument converted to the int64 parameter) whose assertion can fail.
  auto m = build_text(R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        Module.subroutine(B.data)
        for i in range(4):
            B[i] = B[i] + Module.square(A[i], i)

    @T.prim_func(private=True)
    def subroutine(A_data: T.handle("float32")):
        A = T.decl_buffer(4, dtype="float32", data=A_data)
        for i in range(4):
            A[i] = T.float32(42)

    @T.prim_func(private=True)
    def square(x: T.float32, i: T.int64) -> T.float32:
        assert x < T.float32(10), "x is too large"
        T.ret(x * x + T.Cast("float32", i))

    @R.function
    def main(A: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        B = R.call_tir(cls.fill, (A,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return B
)");
  DLDataType f32{kDLFloat, 32, 1};
  vm::Value out = test::call_main(m, {test::tensor<float>({4}, {1, 2, 3, 4}, f32)});
  CHECK(test::data_of<float>(out) == std::vector<float>{43, 47, 53, 61});
  // square(50, 3) fails its assertion: the error comes back through fill.
  auto r = m.invoke("main", {test::tensor<float>({4}, {1, 2, 3, 50}, f32)});
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("x is too large") != std::string::npos);
}

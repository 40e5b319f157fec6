// TVMScript that TVM's own tests write, built with the default pipeline (well-formedness checked
// after every pass) and run on the VM with the results checked: ops over tuple variables, if
// branches ending in dataflow blocks, closures over symbolic shapes, `x.struct_info`.
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

vm::Module build_verified(const std::string& text) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(text, "tvm_constructs.relax", diags);
  analysis::normalize_module(*parsed.module, diags);
  std::string errors;
  for (const auto& d : diags.items()) errors += d.code + ": " + d.message + "\n";
  INFO(errors);
  REQUIRE_FALSE(diags.has_errors());
  compiler::PassContext ctx;
  ctx.verify = true;
  auto result = compiler::build(parsed.module, compiler::Target::host(), ctx);
  for (const auto& d : ctx.diagnostics().items()) errors += d.code + ": " + d.message + "\n";
  INFO(errors);
  REQUIRE(result.ok());
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  auto m = vm::Module::from_parts(result.executable, result.kernels);
  INFO((m ? "" : m.error().message));
  REQUIRE(m);
  return std::move(*m);
}

using test::data_of;
using test::field;
using test::shape_of;
using test::tensor;

const DLDataType kF32{kDLFloat, 32, 1};

}  // namespace

TEST_CASE("TVM constructs: concat and stack of tuple variables (a parameter and a binding)") {
  auto m = build_verified(R"(
@R.function
def main(t: R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((1, 3), "float32")), a: R.Tensor((2, 3), "float32")):
    u = (a, a)
    with R.dataflow():
        y = R.concat(t, axis=0)
        s = R.stack(u, axis=1)
        R.output(y, s)
    return (y, s)
)");
  std::vector<float> t0{1, 2, 3, 4, 5, 6}, t1{7, 8, 9}, a{-1, -2, -3, -4, -5, -6};
  vm::Value t =
      vm::Value::tuple({tensor<float>({2, 3}, t0, kF32), tensor<float>({1, 3}, t1, kF32)});
  auto out = test::call_main(m, {t, tensor<float>({2, 3}, a, kF32)});
  CHECK(shape_of(field(out, 0)) == std::vector<int64_t>{3, 3});
  CHECK(data_of<float>(field(out, 0)) == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(shape_of(field(out, 1)) == std::vector<int64_t>{2, 2, 3});
  CHECK(data_of<float>(field(out, 1)) ==
        std::vector<float>{-1, -2, -3, -1, -2, -3, -4, -5, -6, -4, -5, -6});
}

TEST_CASE("TVM constructs: if branches that end in dataflow blocks") {
  auto m = build_verified(R"(
@R.function
def main(x: R.Tensor((2, 2), "float32"), w: R.Tensor((2, 2), "float32"), transpose: R.Prim("bool")):
    if transpose:
        with R.dataflow():
            w_t = R.permute_dims(w)
            out = R.matmul(x, w_t)
            R.output(out)
    else:
        with R.dataflow():
            out = R.matmul(x, w)
            R.output(out)
    return out
)");
  auto x = tensor<float>({2, 2}, {1, 2, 3, 4}, kF32), w = tensor<float>({2, 2}, {5, 6, 7, 8}, kF32);
  // x @ w^T and x @ w.
  CHECK(data_of<float>(test::call_main(m, {x, w, vm::Value(true)})) ==
        std::vector<float>{17, 23, 39, 53});
  CHECK(data_of<float>(test::call_main(m, {x, w, vm::Value(false)})) ==
        std::vector<float>{19, 22, 43, 50});
}

TEST_CASE("TVM constructs: a closure over a symbolic shape, and x.struct_info as out_sinfo") {
  auto m = build_verified(R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            B[i] = A[i] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("n",), "float32"), w: R.Tensor(("n",), "float32")):
        n = T.int64()
        cls = Module

        @R.function
        def inner(y: R.Tensor((n,), "float32")) -> R.Tensor((n,), "float32"):
            s = R.add(y, w)
            t = R.call_tir(cls.double, (s,), out_sinfo=s.struct_info)
            return t

        z = inner(x)
        return z
)");
  auto x = tensor<float>({3}, {1, 2, 3}, kF32), w = tensor<float>({3}, {10, 20, 30}, kF32);
  auto out = test::call_main(m, {x, w});
  CHECK(shape_of(out) == std::vector<int64_t>{3});
  CHECK(data_of<float>(out) == std::vector<float>{22, 44, 66});
}

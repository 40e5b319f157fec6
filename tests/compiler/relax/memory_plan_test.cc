// StaticPlanBlockMemory beyond the golden files: storage that grows to serve a larger tensor,
// reshapes as views, symbolic sizes reused when provably equal, tir_var_upper_bound; and TVM's
// own expectations on its test inputs (../shared/conformance, when present).
#include <catch2/catch.hpp>

#include "analysis/normalize.h"
#include "compiler/relax/passes.h"
#include "ir/structural_equal.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;
using namespace relax::compiler;

namespace {

ir::Ref<ir::IRModule> parse(const std::string& text) {
  ir::DiagnosticBag diags;
  auto result = syntax::parse_text(text, "test.relax", diags);
  REQUIRE(result.module);
  analysis::normalize_module(*result.module, diags);
  INFO((diags.items().empty() ? "" : diags.items()[0].message));
  REQUIRE_FALSE(diags.has_errors());
  return result.module;
}

ir::Ref<ir::IRModule> plan(const ir::Ref<ir::IRModule>& module) {
  PassContext ctx;
  ctx.verify = true;
  auto out = run_pass(relax_passes::static_plan_block_memory_pass(), module, ctx);
  INFO((ctx.diagnostics().items().empty() ? "" : ctx.diagnostics().items()[0].message));
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Three kernels on (n, 4) tensors, after CallTIRRewrite: a, b, c computed in a chain.
const char* kSymbolicChain = R"(@I.ir_module
class Module:
    @T.prim_func
    def relu(x: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, T.int64(4)))
        Y = T.match_buffer(y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = T.max(X[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        a = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.relu(x, a)
        b = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.relu(a, b)
        c = R.builtin.alloc_tensor(R.shape([n * 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        c2 = R.reshape(c, R.shape([n, 4]))
        cls.relu(b, c2)
        d = R.builtin.alloc_tensor(R.shape([n, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.relu(c2, d)
        return d
)";

}  // namespace

TEST_CASE("StaticPlanBlockMemory reuses symbolic storage of provably equal size") {
  std::string out = syntax::print_module(*plan(parse(kSymbolicChain)));
  INFO(out);
  // a and b are live together; c (n * 4 elements, seen through its reshape) takes a's storage
  // once a is dead; d is returned and left to LowerAllocTensor.
  CHECK(count(out, "R.memory.alloc_storage(R.shape([n * 16])") == 2);
  CHECK(count(out, "R.memory.alloc_tensor(storage, ") == 2);
  CHECK(count(out, "R.memory.alloc_tensor(storage1, ") == 1);
  CHECK(count(out, "R.builtin.alloc_tensor(") == 1);
}

TEST_CASE("StaticPlanBlockMemory plans bounded symbolic sizes statically") {
  std::string text = kSymbolicChain;
  text.replace(text.find("{\"relax.force_pure\": True}"), 26,
               "{\"relax.force_pure\": True, \"tir_var_upper_bound\": {\"n\": 32}}");
  std::string out = syntax::print_module(*plan(parse(text)));
  INFO(out);
  CHECK(count(out, "R.memory.alloc_storage(R.shape([512])") == 2);  // 32 * 4 * 4 bytes
  CHECK(count(out, "n * 16") == 0);
}

TEST_CASE("StaticPlanBlockMemory grows a free storage for a larger tensor") {
  std::string out = syntax::print_module(*plan(parse(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.handle, y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        a = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, a)
        b = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(a, b)
        c = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(b, c)
        d = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(c, d)
        return d
)")));
  INFO(out);
  // c (40 bytes) takes a's 32-byte storage, which is allocated at 40 bytes from the start.
  CHECK(count(out, "R.memory.alloc_storage(R.shape([40])") == 1);
  CHECK(count(out, "R.memory.alloc_storage(R.shape([32])") == 1);
  CHECK(count(out, "alloc_storage") == 2);
}

TEST_CASE("StaticPlanBlockMemory matches TVM's expected output on its test inputs") {
  auto shared = test::shared_dir();
  if (!shared) {
    WARN("../shared not found: TVM's expectations not checked");
    return;
  }
  auto dir = *shared / "conformance" / "tvm-v0.20";
  // test_basic (growth, reshape views) and test_tir_var_upper_bound.
  for (auto [input, expected] : std::vector<std::pair<const char*, const char*>>{
           {"Module__L30", "Expected__L79"}, {"Module__L1078", "Expected__L1104"}}) {
    std::string in = "relax__test_transform_static_plan_block_memory__";
    in += input;
    in += ".relax";
    std::string want = "relax__test_transform_static_plan_block_memory__";
    want += expected;
    want += ".relax";
    INFO(in);
    auto got = plan(parse(test::read_file(dir / in)));
    auto expect = parse(test::read_file(dir / want));
    auto diff = ir::structural_diff(got, expect);
    INFO((diff ? *diff : std::string()));
    CHECK_FALSE(diff.has_value());
  }
}

TEST_CASE("StaticPlanBlockMemory takes the smallest free storage that fits, the first freed") {
  std::string out = syntax::print_module(*plan(parse(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.handle, y: T.handle):
        T.evaluate(0)

    @T.prim_func
    def g(a: T.handle, b: T.handle, c: T.handle, d: T.handle, y: T.handle):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((64,), "float32")) -> R.Tensor((64,), "float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s = R.builtin.alloc_tensor(R.shape([16]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, s)
        m = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, m)
        l = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, l)
        m2 = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(x, m2)
        o = R.builtin.alloc_tensor(R.shape([64]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.g(s, m, l, m2, o)
        p = R.builtin.alloc_tensor(R.shape([6]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(o, p)
        q = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(o, q)
        r = R.builtin.alloc_tensor(R.shape([32]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(o, r)
        t = R.builtin.alloc_tensor(R.shape([2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.f(o, t)
        cls.g(p, q, r, t, o)
        return o
)")));
  INFO(out);
  // s, m, l, m2 get storage .. storage3 and are freed together, in that order. p (24 bytes)
  // takes the first freed 32-byte one (m's), q the other; r (128 bytes) fits none and grows the
  // largest (s's 64 bytes); t (8 bytes) takes l's 16 bytes.
  auto tensor_in = [](const std::string& storage, int dim) {
    return "= R.memory.alloc_tensor(" + storage + ", R.prim_value(0), R.shape([" +
           std::to_string(dim) + "])";
  };
  CHECK(count(out, tensor_in("storage1", 6)) == 1);
  CHECK(count(out, tensor_in("storage3", 8)) == 2);  // m2 and q
  CHECK(count(out, tensor_in("storage", 32)) == 1);
  CHECK(count(out, tensor_in("storage2", 2)) == 1);
  CHECK(count(out, "storage: R.Object = R.memory.alloc_storage(R.shape([128])") == 1);
  CHECK(count(out, "alloc_storage") == 4);
}

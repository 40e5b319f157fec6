// VM codegen and the build driver: modules from golden/*.relax are built with C++ test kernels
// standing in for their prim_funcs, run on the VM, and their results checked.
#include <catch2/catch.hpp>
#include <cstring>
#include <sstream>

#include "analysis/normalize.h"
#include "compiler/build.h"
#include "compiler/relax/bind_params.h"
#include "syntax/frontend.h"
#include "tests/compiler/relax/test_kernels.h"
#include "tests/support/test_util.h"
#include "vm/runtime.h"

using namespace relax;
using namespace relax::compiler;

namespace {

ir::Ref<ir::IRModule> load(const std::string& name) {
  ir::DiagnosticBag diags;
  auto text = relax::test::read_file(relax::test::tests_dir() / "compiler" / "relax" / "golden" /
                                     (name + ".relax"));
  auto result = syntax::parse_text(text, name + ".relax", diags);
  analysis::normalize_module(*result.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  return result.module;
}

std::string first_error(const ir::DiagnosticBag& diags) {
  for (const auto& d : diags.items()) {
    if (d.severity == ir::Severity::kError) return d.code + ": " + d.message;
  }
  return "";
}

vm::Module build_module(const std::string& name) {
  PassContext ctx;
  BuildOptions options;
  options.kernel_compiler = compiler::test::test_kernel_compiler();
  auto result = build(load(name), Target::host(), ctx, options);
  INFO(first_error(ctx.diagnostics()));
  REQUIRE(result.ok());
  auto m = vm::Module::from_parts(result.executable, result.kernels);
  INFO((m ? "" : m.error().message));
  REQUIRE(m);
  return std::move(*m);
}

vm::Value vec(std::vector<float> v) {
  std::vector<int64_t> shape{static_cast<int64_t>(v.size())};
  return vm::Value(vm::tensor_from_bytes(shape, vm::kFloat32, v.data()));
}

std::vector<float> values(const vm::Value& v) {
  const vm::TensorObj* t = v.as_tensor();
  REQUIRE(t != nullptr);
  REQUIRE(t->dtype() == vm::kFloat32);
  const float* p = t->data_as<float>();
  return std::vector<float>(p, p + t->numel());
}

}  // namespace

TEST_CASE("Static vector add chain runs with planned and reused storage") {
  vm::Module m = build_module("chain");
  // a = x + y; b = a + a; c = b + x; d = c + y
  auto r = m.invoke("main", {vec({1, 2, 3, 4}), vec({10, 20, 30, 40})});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  CHECK(values(*r) == std::vector<float>{33, 66, 99, 132});
  // Runs twice on the same VM (pooled storage comes back clean of stale state).
  auto r2 = m.invoke("main", {vec({0, 0, 0, 1}), vec({1, 1, 1, 1})});
  REQUIRE(r2);
  CHECK(values(*r2) == std::vector<float>{3, 3, 3, 6});
}

TEST_CASE("Dynamic vector add runs for several lengths") {
  vm::Module m = build_module("dynamic");
  for (int n : {1, 5, 7}) {
    std::vector<float> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)),
        want(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      a[static_cast<size_t>(i)] = static_cast<float>(i);
      b[static_cast<size_t>(i)] = 0.5f;
      want[static_cast<size_t>(i)] = static_cast<float>(i) + 0.5f;
    }
    auto r = m.invoke("main", {vec(a), vec(b)});
    INFO((r ? "" : r.error().message));
    REQUIRE(r);
    CHECK(values(*r) == want);
  }
}

TEST_CASE("A mismatched dynamic shape names the argument and the dimension") {
  vm::Module m = build_module("dynamic");
  auto r = m.invoke("main", {vec({1, 2, 3, 4, 5}), vec({1, 2, 3, 4, 5, 6})});
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("argument `y` (parameter 1)") != std::string::npos);
  CHECK(r.error().message.find("dimension 0 is 6") != std::string::npos);
  CHECK(r.error().message.find("n = 5") != std::string::npos);
}

TEST_CASE("A wrong static shape or dtype is a clear error") {
  vm::Module m = build_module("chain");
  auto r = m.invoke("main", {vec({1, 2, 3, 4, 5}), vec({1, 2, 3, 4})});
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("argument `x` (parameter 0)") != std::string::npos);
  CHECK(r.error().message.find("dimension 0 is 5 but the function expects 4") != std::string::npos);
  std::vector<int32_t> ints{1, 2, 3, 4};
  std::vector<int64_t> shape{4};
  auto bad = vm::Value(vm::tensor_from_bytes(shape, vm::kInt32, ints.data()));
  auto r2 = m.invoke("main", {vec({1, 2, 3, 4}), bad});
  REQUIRE_FALSE(r2);
  CHECK(r2.error().message.find("argument `y` (parameter 1)") != std::string::npos);
  CHECK(r2.error().message.find("dtype float32") != std::string::npos);
}

TEST_CASE("If and else branches both run") {
  vm::Module m = build_module("branch");
  auto flag = [](bool f) {
    uint8_t b = f ? 1 : 0;
    std::vector<int64_t> shape;
    return vm::Value(vm::tensor_from_bytes(shape, vm::kBool, &b));
  };
  // t = 2x; true: u = 2t, v = 2u, r = v + x; false: r = 2x; s = r + t
  auto yes = m.invoke("main", {flag(true), vec({1, 2, 3, 4})});
  INFO((yes ? "" : yes.error().message));
  REQUIRE(yes);
  CHECK(values(*yes) == std::vector<float>{11, 22, 33, 44});
  auto no = m.invoke("main", {flag(false), vec({1, 2, 3, 4})});
  REQUIRE(no);
  CHECK(values(*no) == std::vector<float>{4, 8, 12, 16});
}

TEST_CASE("A function calls another module function twice") {
  vm::Module m = build_module("calls");
  auto r = m.invoke("main", {vec({1, 2, 3, 4})});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  const vm::TupleObj* t = r->as_tuple();
  REQUIRE(t != nullptr);
  REQUIRE(t->size() == 2);
  CHECK(values((*t)[0]) == std::vector<float>{2, 4, 6, 8});
  CHECK(values((*t)[1]) == std::vector<float>{4, 8, 12, 16});
}

TEST_CASE("match_cast defines variables and checks compound dims at run time") {
  vm::Module m = build_module("match_cast");
  auto r = m.invoke("main", {vec({1, 2}), vec({1, 1, 1, 1})});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  CHECK(values(*r) == std::vector<float>{2, 4});
  auto bad = m.invoke("main", {vec({1, 2}), vec({1, 1, 1})});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("match_cast of `ys`") != std::string::npos);
  CHECK(bad.error().message.find("dimension 0 is 3") != std::string::npos);
}

TEST_CASE("Building without a kernel compiler says code generation is not available") {
  KernelCompiler saved = kernel_compiler();
  set_kernel_compiler(nullptr);
  PassContext ctx;
  auto result = build(load("chain"), Target::host(), ctx);
  set_kernel_compiler(saved);
  CHECK_FALSE(result.ok());
  CHECK(first_error(ctx.diagnostics()).find("E0790") == 0);
  CHECK(first_error(ctx.diagnostics()).find("add") != std::string::npos);
}

TEST_CASE("An op that LegalizeOps did not lower is reported by VM codegen") {
  PassContext ctx;
  auto result = build(load("unlegalized"), Target::host(), ctx);
  CHECK_FALSE(result.ok());
  CHECK(first_error(ctx.diagnostics()).find("E0780") == 0);
  CHECK(first_error(ctx.diagnostics()).find("R.exp") != std::string::npos);
}

TEST_CASE("Instruments print the IR after every pass and time them") {
  std::ostringstream log;
  PassContext ctx;
  ctx.log = &log;
  ctx.print_after = {"all"};
  ctx.time_passes = true;
  BuildOptions options;
  options.kernel_compiler = compiler::test::test_kernel_compiler();
  auto result = build(load("dynamic"), Target::host(), ctx, options);
  REQUIRE(result.ok());
  for (const char* pass : {"ToNonDataflow", "CallTIRRewrite", "StaticPlanBlockMemory",
                           "LowerAllocTensor", "KillAfterLastUse", "LowerRuntimeBuiltin"}) {
    CHECK(log.str().find(std::string("# IR after ") + pass) != std::string::npos);
  }
  CHECK(ctx.timings().size() >= 6);
}

TEST_CASE("A function calls itself with a symbolic prim value until it reaches zero") {
  vm::Module m = build_module("recursion");
  // main(x, n) = main(x + x, n - 1) while n > 0, else x: x * 2^n.
  auto r = m.invoke("main", {vec({1, 2, 3, 4}), vm::Value(int64_t{3})});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  CHECK(values(*r) == std::vector<float>{8, 16, 24, 32});
  auto zero = m.invoke("main", {vec({1, 2, 3, 4}), vm::Value(int64_t{0})});
  REQUIRE(zero);
  CHECK(values(*zero) == std::vector<float>{1, 2, 3, 4});
  auto bad = m.invoke("main", {vec({1, 2, 3, 4}), vm::Value(2.5)});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("argument `k` (parameter 1)") != std::string::npos);
}

TEST_CASE("Weights bound by BindParams are constants of the executable") {
  auto data = std::make_shared<ir::TensorData>();
  data->dtype = ir::DataType::Float(32);
  data->shape = {4};
  std::vector<float> w{10, 20, 30, 40};
  data->bytes.resize(16);
  std::memcpy(data->bytes.data(), w.data(), 16);
  PassContext ctx;
  auto module =
      run_pass(relax_passes::bind_params_pass("main", {{"w", data}}), load("weights"), ctx);
  BuildOptions options;
  options.kernel_compiler = compiler::test::test_kernel_compiler();
  auto result = build(module, Target::host(), ctx, options);
  INFO(first_error(ctx.diagnostics()));
  REQUIRE(result.ok());
  auto m = vm::Module::from_parts(result.executable, result.kernels);
  REQUIRE(m);
  auto r = m->invoke("main", {vec({1, 2, 3, 4})});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  CHECK(values(*r) == std::vector<float>{11, 22, 33, 44});
  // The weight fixed n = 4: another length is refused with the argument named.
  auto bad = m->invoke("main", {vec({1, 2, 3})});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find(
            "argument `x` (parameter 0): dimension 0 is 3 but the function expects 4") !=
        std::string::npos);
}

TEST_CASE("Local functions run as lifted functions and closures") {
  vm::Module m = build_module("closures");
  // y = x + x; z = y + x
  auto r = m.invoke("main", {vec({1, 2, 3, 4})});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  CHECK(values(*r) == std::vector<float>{3, 6, 9, 12});
}

TEST_CASE("The module stays well-formed after every pass of the pipeline") {
  for (const char* name :
       {"chain", "branch", "dynamic", "calls", "closures", "recursion", "match_cast"}) {
    PassContext ctx;
    ctx.verify = true;
    BuildOptions options;
    options.kernel_compiler = compiler::test::test_kernel_compiler();
    auto result = build(load(name), Target::host(), ctx, options);
    INFO(name << ": " << first_error(ctx.diagnostics()));
    CHECK(result.ok());
    CHECK_FALSE(ctx.diagnostics().has_errors());
  }
}

TEST_CASE("call_tir with tir_vars passes the symbolic values after the outputs") {
  vm::Module m = build_module("tir_vars");
  // z = x + (k + 1) * y
  auto r = m.invoke("main", {vec({1, 2, 3}), vec({1, 1, 2}), vm::Value(int64_t{2})});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  CHECK(values(*r) == std::vector<float>{4, 5, 9});
}

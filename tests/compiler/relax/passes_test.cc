// Golden tests of the Relax passes: a module from golden/NAME.relax goes through a list of
// passes and is printed; the text must equal golden/NAME.PASSES.expected (RELAX_UPDATE_GOLDEN=1
// rewrites the expectations, which are then reviewed by hand).
#include <catch2/catch.hpp>
#include <cstring>

#include "analysis/normalize.h"
#include "compiler/codegen/vm/vm_codegen.h"
#include "compiler/pipeline.h"
#include "compiler/relax/bind_params.h"
#include "compiler/relax/passes.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;
using namespace relax::compiler;
using namespace relax::compiler::relax_passes;

namespace {

std::filesystem::path golden_dir() {
  return test::tests_dir() / "compiler" / "relax" / "golden";
}

ir::Ref<ir::IRModule> load(const std::string& name) {
  ir::DiagnosticBag diags;
  auto text = test::read_file(golden_dir() / (name + ".relax"));
  auto result = syntax::parse_text(text, name + ".relax", diags);
  analysis::normalize_module(*result.module, diags);
  INFO(name << ": " << (diags.items().empty() ? "" : diags.items()[0].message));
  REQUIRE_FALSE(diags.has_errors());
  return result.module;
}

std::string run(const std::string& name, const std::vector<Pass>& passes,
                ir::DiagnosticBag* out_diags = nullptr) {
  auto module = load(name);
  PassContext ctx;
  // Passes run here one at a time, out of the pipeline's order (CallTIRRewrite before
  // RemovePurityChecking has marked the function force_pure), so the verifier that debug builds
  // run between passes would flag what the pipeline makes valid; the pipeline test checks
  // well-formedness after every pass of the real order.
  ctx.verify = false;
  ir::DiagnosticBag diags;
  ctx.diags = &diags;
  for (const Pass& p : passes) module = run_pass(p, module, ctx);
  if (out_diags)
    *out_diags = diags;
  else {
    INFO((diags.items().empty() ? "" : diags.items()[0].message));
    REQUIRE_FALSE(diags.has_errors());
  }
  return syntax::print_module(*module);
}

void check_golden(const std::string& name, const std::string& suffix, const std::string& actual) {
  auto path = golden_dir() / (name + "." + suffix + ".expected");
  if (test::update_golden()) test::write_file(path, actual);
  REQUIRE(std::filesystem::exists(path));
  CHECK(actual == test::read_file(path));
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("ToNonDataflow turns dataflow blocks into binding blocks") {
  std::string out = run("chain", {to_non_dataflow_pass()});
  CHECK(out.find("R.dataflow") == std::string::npos);
  CHECK(out.find("R.output") == std::string::npos);
  check_golden("chain", "ToNonDataflow", out);
}

TEST_CASE("CallTIRRewrite allocates outputs and calls the prim_func") {
  std::string out = run("chain", {to_non_dataflow_pass(), call_tir_rewrite_pass()});
  CHECK(out.find("R.call_tir") == std::string::npos);
  CHECK(count(out, "R.builtin.alloc_tensor(") == 4);
  check_golden("chain", "CallTIRRewrite", out);
}

TEST_CASE("CallTIRRewrite rewrites call_dps_packed into an extern call") {
  std::string out = run("extern", {call_tir_rewrite_pass()});
  CHECK(out.find("R.call_dps_packed") == std::string::npos);
  check_golden("extern", "CallTIRRewrite", out);
}

TEST_CASE("CanonicalizeBindings and DeadCodeElimination remove trivial and dead bindings") {
  std::string canon = run("trivial", {canonicalize_bindings_pass()});
  check_golden("trivial", "CanonicalizeBindings", canon);
  std::string out = run("trivial", {canonicalize_bindings_pass(), dead_code_elimination_pass()});
  CHECK(out.find("dead") == std::string::npos);        // a pure op nobody reads
  CHECK(out.find("def unused") == std::string::npos);  // a private function nobody calls
  CHECK(out.find("def helper") != std::string::npos);  // called
  CHECK(out.find("R.print") != std::string::npos);     // impure: kept although unused
  check_golden("trivial", "DeadCodeElimination", out);
}

TEST_CASE("DeadCodeElimination removes dead chains and dead local functions in one run") {
  std::string out = run("dead_chain", {dead_code_elimination_pass()});
  // a..d: each is read only by the next, and d by nobody; inner is read only by g, which is
  // unused, and u inside it by nobody; e only inside a branch.
  for (const char* gone : {" a: ", " b: ", " c: ", " d: ", "def inner", " g: ", " u: ", " e: "})
    CHECK(out.find(gone) == std::string::npos);
  // k was read by u and v (both gone with inner) and by m: it stays, with m, j (read by the else
  // branch) and the if.
  for (const char* kept : {" k: ", " j: ", "= R.multiply(x, j)", "= R.add(k, r)", "if flag"})
    CHECK(out.find(kept) != std::string::npos);
  check_golden("dead_chain", "DeadCodeElimination", out);
}

TEST_CASE("StaticPlanBlockMemory reuses storage whose tensors are dead") {
  std::string out = run(
      "chain", {to_non_dataflow_pass(), call_tir_rewrite_pass(), static_plan_block_memory_pass()});
  // a, b and c are local: a and b need two storages (a is read while b is written), c reuses
  // a's; d is returned and stays for LowerAllocTensor.
  CHECK(count(out, "R.memory.alloc_storage(") == 2);
  CHECK(count(out, "R.memory.alloc_tensor(") == 3);
  CHECK(count(out, "R.builtin.alloc_tensor(") == 1);
  check_golden("chain", "StaticPlanBlockMemory", out);
}

TEST_CASE("StaticPlanBlockMemory plans each if branch on its own") {
  std::string out = run(
      "branch", {to_non_dataflow_pass(), call_tir_rewrite_pass(), static_plan_block_memory_pass()});
  // Only u and v (local to the true branch) are planned, in two storages allocated in that
  // branch; t is used inside the if, r is the branch result, s is returned.
  CHECK(count(out, "R.memory.alloc_storage(") == 2);
  auto if_at = out.find("if flag:");
  auto else_at = out.find("else:");
  REQUIRE(if_at != std::string::npos);
  REQUIRE(else_at != std::string::npos);
  for (size_t at = out.find("R.memory.alloc_storage("); at != std::string::npos;
       at = out.find("R.memory.alloc_storage(", at + 1)) {
    CHECK(at > if_at);
    CHECK(at < else_at);
  }
  check_golden("branch", "StaticPlanBlockMemory", out);
}

TEST_CASE("LowerAllocTensor sizes storage statically and symbolically") {
  std::string stat = run("chain", {to_non_dataflow_pass(), call_tir_rewrite_pass(),
                                   static_plan_block_memory_pass(), lower_alloc_tensor_pass()});
  CHECK(count(stat, "R.builtin.alloc_tensor(") == 0);
  CHECK(count(stat, "R.memory.alloc_storage(R.shape([16])") == 3);
  std::string dyn = run("dynamic", {to_non_dataflow_pass(), call_tir_rewrite_pass(),
                                    static_plan_block_memory_pass(), lower_alloc_tensor_pass()});
  CHECK(dyn.find("R.memory.alloc_storage(R.shape([n * 4])") != std::string::npos);
  check_golden("dynamic", "LowerAllocTensor", dyn);
}

TEST_CASE("KillAfterLastUse kills tensors and storage after their last use") {
  std::string out = run(
      "chain", {to_non_dataflow_pass(), call_tir_rewrite_pass(), static_plan_block_memory_pass(),
                lower_alloc_tensor_pass(), kill_after_last_use_pass()});
  CHECK(count(out, "R.memory.kill_storage(") == 3);
  // The returned tensor d is never killed; parameters are never killed.
  CHECK(out.find("R.memory.kill_tensor(d)") == std::string::npos);
  CHECK(out.find("R.memory.kill_tensor(x)") == std::string::npos);
  check_golden("chain", "KillAfterLastUse", out);
  std::string br = run(
      "branch", {to_non_dataflow_pass(), call_tir_rewrite_pass(), static_plan_block_memory_pass(),
                 lower_alloc_tensor_pass(), kill_after_last_use_pass()});
  check_golden("branch", "KillAfterLastUse", br);
}

TEST_CASE("LowerRuntimeBuiltin lowers memory ops and reshape to VM builtins") {
  register_default_passes();
  std::string out = run("extern", {default_pipeline(Target::host())});
  CHECK(out.find("R.memory.") == std::string::npos);
  CHECK(out.find("vm.builtin.reshape") != std::string::npos);
  CHECK(out.find("R.vm.alloc_storage(") != std::string::npos);
  check_golden("extern", "pipeline", out);
}

TEST_CASE("The pass registry lists every Relax pass with a doc") {
  register_default_passes();
  for (const char* name :
       {"ToNonDataflow", "CallTIRRewrite", "DeadCodeElimination", "CanonicalizeBindings",
        "StaticPlanBlockMemory", "LowerAllocTensor", "KillAfterLastUse", "LowerRuntimeBuiltin"}) {
    const Pass* p = PassRegistry::global().find(name);
    REQUIRE(p != nullptr);
    CHECK_FALSE(p->doc.empty());
  }
}

TEST_CASE("BindParams turns a weight parameter into a constant and fixes its symbolic dims") {
  auto data = std::make_shared<ir::TensorData>();
  data->dtype = ir::DataType::Float(32);
  data->shape = {3};
  std::vector<float> w{1, 2, 3};
  data->bytes.resize(12);
  std::memcpy(data->bytes.data(), w.data(), 12);
  std::string out = run("weights", {bind_params_pass("main", {{"w", data}})});
  CHECK(out.find("w: R.Tensor") == std::string::npos);
  CHECK(out.find("x: R.Tensor((3,), dtype=\"float32\")") != std::string::npos);
  check_golden("weights", "BindParams", out);
  auto wrong = std::make_shared<ir::TensorData>(*data);
  wrong->dtype = ir::DataType::Int(32);
  ir::DiagnosticBag diags;
  run("weights", {bind_params_pass("main", {{"w", wrong}})}, &diags);
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].code == "E0773");
  CHECK(diags.items()[0].message.find("dtype int32") != std::string::npos);
}

TEST_CASE("LambdaLift lifts local functions and captures free variables in closures") {
  std::string out = run("closures", {lambda_lift_pass()});
  CHECK(out.find("def main_twice(") != std::string::npos);
  CHECK(out.find("def main_add_x(v: R.Tensor((4,), dtype=\"float32\"), x: R.Tensor((4,), "
                 "dtype=\"float32\"))") != std::string::npos);
  CHECK(out.find("R.make_closure(cls.main_add_x, (x,))") != std::string::npos);
  CHECK(out.find("R.invoke_pure_closure(add_x, (y,)") != std::string::npos);
  CHECK(out.find("cls.main_twice(x)") != std::string::npos);
  check_golden("closures", "LambdaLift", out);
}

TEST_CASE("LambdaLift gives a lifted function symbolic variables of its own") {
  // Checked after the pass: two functions sharing `n` would be E0409.
  auto module = load("closures_symbolic");
  PassContext ctx;
  ctx.verify = true;
  ir::DiagnosticBag diags;
  ctx.diags = &diags;
  module = run_pass(lambda_lift_pass(), module, ctx);
  INFO((diags.items().empty() ? "" : diags.items()[0].message));
  REQUIRE_FALSE(diags.has_errors());
  auto lifted = module->find("main_inner")->func.as<ir::Function>();
  auto main = module->find("main")->func.as<ir::Function>();
  REQUIRE(lifted);
  REQUIRE(main);
  const auto* inner_n = lifted->params[0]->struct_info.as_ptr<ir::TensorStructInfo>();
  const auto* main_n = main->params[0]->struct_info.as_ptr<ir::TensorStructInfo>();
  REQUIRE(inner_n->shape_values());
  REQUIRE(main_n->shape_values());
  CHECK((*inner_n->shape_values())[0].get() != (*main_n->shape_values())[0].get());
  check_golden("closures_symbolic", "LambdaLift", syntax::print_module(*module));
}

TEST_CASE("CallTIRRewrite passes tir_vars through vm.call_tir_dyn") {
  std::string out = run("tir_vars", {call_tir_rewrite_pass()});
  CHECK(out.find("R.vm.call_tir_dyn(cls.add_scaled, (x, y, alloc, R.shape([k + 1])))") !=
        std::string::npos);
  check_golden("tir_vars", "CallTIRRewrite", out);
}

TEST_CASE("VMShapeLower makes checks and symbolic shapes explicit builtin calls") {
  register_default_passes();
  std::string out = run("dynamic", {default_pipeline(Target::host())});
  // One heap slot for n and one for n * 4 (the storage size); the parameters are checked and
  // matched (x stores n, y compares with it); n * 4 is computed before the storage needs it.
  CHECK(out.find("\"relax.vm_shape_heap\": [\"n\", \"n * 4\"]") != std::string::npos);
  CHECK(out.find("R.call_builtin_with_ctx(\"vm.builtin.alloc_shape_heap\", (R.prim_value(2),)") !=
        std::string::npos);
  CHECK(count(out, "vm.builtin.check_tensor_info") == 2);
  CHECK(out.find("\"vm.builtin.match_shape\", x, shape_heap, R.prim_value(1), R.prim_value(1), "
                 "R.prim_value(0)") != std::string::npos);
  CHECK(out.find("\"vm.builtin.match_shape\", y, shape_heap, R.prim_value(1), R.prim_value(3), "
                 "R.prim_value(0)") != std::string::npos);
  CHECK(out.find("vm.builtin.shape_compute") < out.find("R.vm.alloc_storage(shape"));
  CHECK(out.find("R.shape([n") == std::string::npos);  // no symbolic shape literal is left
  check_golden("dynamic", "VMShapeLower", out);
}

TEST_CASE("VMShapeLower checks a match_cast inside a branch and forgets what it learnt there") {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(R"(@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor(ndim=1)) -> R.Shape(ndim=1):
        m = T.int64()
        if c:
            y = R.match_cast(x, R.Tensor((m,), "float32"))
            s = R.shape_of(y)
        else:
            s = R.shape([3])
        return s
)",
                                   "branch.relax", diags);
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  PassContext ctx;
  ctx.verify = true;
  auto out = run_pass(remove_purity_checking_pass(), parsed.module, ctx);
  out = run_pass(vm_shape_lower_pass(), out, ctx);
  INFO((ctx.diagnostics().items().empty() ? "" : ctx.diagnostics().items()[0].message));
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  std::string text = syntax::print_module(*out);
  INFO(text);
  CHECK(text.find("R.str(\"match_cast of `y`\")") != std::string::npos);
  CHECK(text.find("y: R.Tensor((m,), dtype=\"float32\") = R.match_cast(x") != std::string::npos);
  // The unknown dtype of x's parameter check is a null value, not a dtype.
  CHECK(text.find("vm.builtin.check_tensor_info\", x, R.prim_value(1), null") != std::string::npos);
}

TEST_CASE("VMShapeLower gives a compound dimension one slot and one program over the variables") {
  // Its parts (n * 2, n * 2 + m) get no slots: a chain of N terms was N slots, each named by
  // its text and computed by a program of its own terms (quadratic in N; 22,000 terms ran out
  // of memory).
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(R"(@R.function
def main(x: R.Tensor(("n", "m"), "float32"), y: R.Tensor((n * 2 + m - 1,), "float32")):
    return y
)",
                                   "compound.relax", diags);
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  PassContext ctx;
  auto out = run_pass(remove_purity_checking_pass(), parsed.module, ctx);
  out = run_pass(vm_shape_lower_pass(), out, ctx);
  INFO((ctx.diagnostics().items().empty() ? "" : ctx.diagnostics().items()[0].message));
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  std::string text = syntax::print_module(*out);
  INFO(text);
  CHECK(text.find("\"relax.vm_shape_heap\": [\"n\", \"m\", \"n * 2 + m - 1\"]") !=
        std::string::npos);
  CHECK(text.find("(\"vm.builtin.alloc_shape_heap\", (R.prim_value(3),)") != std::string::npos);
  // heap[2] = ((heap[0] * 2) + heap[1]) - 1, in one program.
  CHECK(count(text, "vm.builtin.shape_compute") == 1);
  CHECK(text.find("R.call_packed(\"vm.builtin.shape_compute\", shape_heap, R.prim_value(2), "
                  "R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(2), "
                  "R.prim_value(4), R.prim_value(0), R.prim_value(1), R.prim_value(1), "
                  "R.prim_value(2), R.prim_value(0), R.prim_value(0), R.prim_value(1), "
                  "R.prim_value(3), R.prim_value(0), sinfo_args=(R.Tuple,))") != std::string::npos);
  // y's dimension is compared with it in the second round.
  CHECK(text.find("\"vm.builtin.match_shape\", y, shape_heap, R.prim_value(1), R.prim_value(3), "
                  "R.prim_value(2)") != std::string::npos);
}

TEST_CASE("VM codegen refuses a function that VMShapeLower has not lowered") {
  auto module = load("dynamic");
  PassContext ctx;
  std::vector<Pass> steps = default_pipeline(Target::host()).children;
  steps.pop_back();  // VMShapeLower
  REQUIRE(steps.back().name == "LowerRuntimeBuiltin");
  for (const Pass& p : steps) module = run_pass(p, module, ctx);
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  ir::DiagnosticBag diags;
  auto exe = codegen_vm::build_executable(*module, diags);
  CHECK(exe == nullptr);
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].code == "E0787");
}

TEST_CASE("DeadCodeElimination keeps public prim_funcs no Relax function calls") {
  // Every function with a global_symbol is an entry, as in TVM: a public kernel stays callable
  // from outside the module, a private one nothing reaches is dropped.
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def kernel(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(0)

    @T.prim_func(private=True)
    def unused_kernel(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(1)

    @R.function(private=True)
    def unused(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x
)",
                                   "dce.relax", diags);
  analysis::normalize_module(*parsed.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  PassContext ctx;
  auto out = syntax::print_module(*run_pass(dead_code_elimination_pass(), parsed.module, ctx));
  CHECK(out.find("def kernel(") != std::string::npos);
  CHECK(out.find("def main(") != std::string::npos);
  CHECK(out.find("def unused_kernel(") == std::string::npos);
  CHECK(out.find("def unused(") == std::string::npos);
}

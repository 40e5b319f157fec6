// The C++ API end to end (docs/cpp-api.md): the seed tutorial's §6.1 example, a matmul followed
// by a relu, built twice: with the default pipeline, and with a custom pass placed right after
// LegalizeOps that schedules the matmul kernel by hand (split, reorder, parallel, vectorize).
// Both run on the VM with the same inputs; the program prints the scheduled kernel and the
// largest difference, and fails when the results differ.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "analysis/diagnostics/terminal.h"
#include "analysis/normalize.h"
#include "compiler/build.h"
#include "compiler/pipeline.h"
#include "compiler/tir/schedule/schedule.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "vm/runtime.h"

using namespace relax;

namespace {

const char* kModel = R"(@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((64, 32), "float32"), b: R.Tensor((32, 48), "float32")) -> R.Tensor((64, 48), "float32"):
        with R.dataflow():
            c = R.matmul(a, b)
            d = R.nn.relu(c)
            R.output(d)
        return d
)";

// The custom pass: the seed's schedule of the `matmul` kernel LegalizeOps makes.
compiler::Pass schedule_matmul_pass() {
  compiler::Pass p;
  p.name = "ScheduleMatmul";
  p.doc = "Tiles, reorders, parallelizes and vectorizes the matmul kernel";
  p.fn = [](ir::Ref<ir::IRModule> m, compiler::PassContext& ctx) -> ir::Ref<ir::IRModule> {
    auto func = ir::as_prim_func(m->lookup("matmul"));
    if (!func) return m;
    compiler::tir::Schedule sch(func, ctx.diagnostics());
    auto loops = sch.get_loops("matmul");  // i, j, k
    if (loops.size() != 3) return nullptr;
    auto j = sch.split(loops[1], {-1, 4});  // j -> j_0, j_1 (None in the Python API is -1)
    if (j.size() != 2 || !sch.reorder({loops[0], j[0], loops[2], j[1]}) ||
        !sch.parallel(loops[0]) || !sch.vectorize(j[1]))
      return nullptr;
    auto scheduled = ir::copy(sch.func());
    scheduled->attrs.set("tir.is_scheduled",
                         ir::tir::bool_imm(true));  // DefaultCPUSchedule skips it
    auto out = ir::copy(m);
    out->add(out->global_var("matmul"), scheduled);
    return out;
  };
  return p;
}

// Builds `module` with `pipeline` and runs main(a, b); null on errors (printed).
std::optional<vm::Value> build_and_run(const ir::Ref<ir::IRModule>& module,
                                       std::optional<compiler::Pass> pipeline,
                                       const std::vector<vm::Value>& args,
                                       ir::Ref<ir::IRModule>* lowered = nullptr) {
  compiler::PassContext ctx;
  compiler::BuildOptions options;
  options.pipeline = std::move(pipeline);
  auto result = compiler::build(module, compiler::Target::host(), ctx, options);
  if (!result.ok()) {
    std::cerr << analysis::render_terminal(ctx.diagnostics().items());
    return std::nullopt;
  }
  if (lowered) *lowered = result.lowered;
  auto model = vm::Module::from_parts(result.executable, result.kernels);
  if (!model) {
    std::cerr << model.error().message << "\n";
    return std::nullopt;
  }
  auto y = model->invoke("main", args);
  if (!y) {
    std::cerr << y.error().message << "\n";
    return std::nullopt;
  }
  return *y;
}

vm::Value filled(std::vector<int64_t> shape, float scale) {
  vm::Tensor t = vm::empty_tensor(shape, vm::kFloat32);
  auto* p = static_cast<float*>(t->data());
  for (int64_t i = 0; i < t->numel(); ++i) p[i] = std::sin(scale * static_cast<float>(i));
  return vm::Value(t);
}

}  // namespace

int main() {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(kModel, "matmul_relu.relax", diags);
  if (!diags.has_errors()) analysis::normalize_module(*parsed.module, diags);
  if (diags.has_errors()) {
    std::cerr << analysis::render_terminal(diags.items());
    return 1;
  }
  std::vector<vm::Value> args = {filled({64, 32}, 0.37f), filled({32, 48}, 0.11f)};

  auto plain = build_and_run(parsed.module, std::nullopt, args);
  std::string missing;
  auto pipeline = compiler::place_passes(
      compiler::default_pipeline(compiler::Target::host()),
      {{schedule_matmul_pass(), compiler::PassPosition::after("LegalizeOps")}}, missing);
  ir::Ref<ir::IRModule> lowered;
  auto scheduled = pipeline ? build_and_run(parsed.module, pipeline, args, &lowered) : std::nullopt;
  if (!plain || !scheduled) return 1;

  auto kernel = ir::make<ir::IRModule>();
  kernel->add(lowered->global_var("matmul"), lowered->lookup("matmul"));
  std::cout << "The scheduled matmul kernel (printed as `main`, like TVM's func.script()):\n"
            << syntax::print_functions(*kernel) << "\n";
  const float* x = plain->as_tensor()->data_as<float>();
  const float* y = scheduled->as_tensor()->data_as<float>();
  double worst = 0;
  for (int64_t i = 0; i < plain->as_tensor()->numel(); ++i)
    worst = std::max(worst, static_cast<double>(std::fabs(x[i] - y[i])));
  std::printf("largest difference: %g\n", worst);
  return worst <= 1e-4 ? 0 : 1;
}

// The default build pipeline, in one place. CPU (llvm) follows TVM's default_build_pipeline
// (SEMANTICS.md §4.2) without the steps that are no-ops on CPU (DispatchSampling/SortScan,
// RewriteCUDAGraph) and ComputePrimValue (VMShapeLower computes symbolic values itself):
//   LegalizeOps -> FoldConstant -> DeadCodeElimination -> DefaultCPUSchedule -> LambdaLift ->
//   ToNonDataflow -> RemovePurityChecking -> CallTIRRewrite -> StaticPlanBlockMemory
//   -> LowerAllocTensor -> KillAfterLastUse -> LowerRuntimeBuiltin -> VMShapeLower
// CanonicalizeBindings and DeadCodeElimination run first at opt level 1 and above.
// The pipeline may run again on its own output, whole or after any prefix (`relax opt -p
// default` then `relax build`): each pass's header says what it does on lowered input, and no
// pass moves a use past a kill (compiler/relax/kills.h).
#include "compiler/pipeline.h"

#include <unordered_set>

#include "compiler/legalize/legalize.h"
#include "compiler/relax/passes.h"
#include "compiler/tir/lower.h"
#include "compiler/tir/schedule/schedule.h"
#include "compiler/tir/schedule/schedule_file.h"

namespace relax::compiler {

void register_default_passes() {
  relax_passes::register_relax_passes();
  static bool done = false;
  if (done) return;
  done = true;
  PassRegistry::global().add(legalize::legalize_ops_pass());
  PassRegistry::global().add(tir::default_cpu_schedule_pass(Target::host()));
  // A placeholder, so that the name is known; `--schedule FILE` replaces it with the file's.
  PassRegistry::global().add(tir::apply_schedule_pass(nullptr));
  PassRegistry::global().add(tir::instrument_bound_checkers_pass(Target::host()));
}

Pass default_pipeline(const Target& target) {
  register_default_passes();
  using namespace relax_passes;
  std::vector<Pass> passes;
  Pass canonicalize = canonicalize_bindings_pass();
  canonicalize.opt_level = 1;
  Pass dce = dead_code_elimination_pass();
  dce.opt_level = 1;
  passes.push_back(canonicalize);
  passes.push_back(dce);
  // Ops without a legalization stay calls of ops; VM codegen reports each one (E0780).
  // R.reshape stays a call: LowerRuntimeBuiltin makes it a zero-copy view (vm.builtin.reshape),
  // where TVM legalizes it to a copy kernel and RewriteDataflowReshape undoes that.
  passes.push_back(legalize::legalize_ops_pass({"relax.reshape"}));
  // Computations on constants only (a transpose of a bound weight) run once, at compile time;
  // DeadCodeElimination then drops the bindings and kernels they leave unused.
  Pass fold = fold_constant_pass();
  fold.opt_level = 1;
  passes.push_back(fold);
  passes.push_back(dce);
  // Untuned kernels get the default CPU schedule (parallel + vectorized); user-scheduled ones
  // are kept. TIR lowering itself runs in LLVM code generation.
  if (target.kind == Target::Kind::kLLVM) passes.push_back(tir::default_cpu_schedule_pass(target));
  passes.push_back(lambda_lift_pass());
  passes.push_back(to_non_dataflow_pass());
  passes.push_back(remove_purity_checking_pass());
  passes.push_back(call_tir_rewrite_pass());
  passes.push_back(static_plan_block_memory_pass());
  passes.push_back(lower_alloc_tensor_pass());
  passes.push_back(kill_after_last_use_pass());
  passes.push_back(lower_runtime_builtin_pass());
  passes.push_back(vm_shape_lower_pass());
  (void)target;  // CUDA adds its own steps here when it lands.
  return sequential("DefaultBuildPipeline", std::move(passes),
                    "The default Relax pipeline for " + target.str());
}

namespace {
void place(const Pass& pipeline, const std::vector<PlacedPass>& extra, std::vector<bool>& placed,
           std::unordered_set<std::string>& seen, Pass& out) {
  out = pipeline;
  out.children.clear();
  auto add = [&](const std::string& step, PassPosition::Where where) {
    for (size_t i = 0; i < extra.size(); ++i) {
      if (extra[i].position.step == step && extra[i].position.where == where) {
        out.children.push_back(extra[i].pass);
        placed[i] = true;
      }
    }
  };
  for (const Pass& step : pipeline.children) {
    // Only the first step of a name is a place (DeadCodeElimination runs twice).
    bool first = seen.insert(step.name).second;
    if (first) add(step.name, PassPosition::Where::kBefore);
    if (step.children.empty()) {
      out.children.push_back(step);
    } else {
      Pass nested;
      place(step, extra, placed, seen, nested);
      out.children.push_back(std::move(nested));
    }
    if (first) add(step.name, PassPosition::Where::kAfter);
  }
}
}  // namespace

std::optional<Pass> place_passes(const Pass& pipeline, const std::vector<PlacedPass>& extra,
                                 std::string& missing) {
  std::vector<bool> placed(extra.size(), false);
  std::unordered_set<std::string> seen;
  Pass out;
  place(pipeline, extra, placed, seen, out);
  for (size_t i = 0; i < extra.size(); ++i) {
    if (!placed[i]) {
      missing = extra[i].position.step;
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace relax::compiler

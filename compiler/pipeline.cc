// The default build pipeline, in one place. CPU (llvm) follows TVM's default_build_pipeline
// (SEMANTICS.md §4.2) without the steps that are no-ops on CPU (DispatchSampling/SortScan,
// RewriteCUDAGraph) and with the VM shape lowering done by VM codegen:
//   LegalizeOps -> LambdaLift -> ToNonDataflow -> RemovePurityChecking ->
//   CallTIRRewrite -> StaticPlanBlockMemory
//   -> LowerAllocTensor -> KillAfterLastUse -> LowerRuntimeBuiltin
// CanonicalizeBindings and DeadCodeElimination run first at opt level 1 and above.
#include "compiler/pipeline.h"

#include "compiler/legalize/legalize.h"
#include "compiler/relax/passes.h"

namespace relax::compiler {

void register_default_passes() {
  relax_passes::register_relax_passes();
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
  passes.push_back(legalize::legalize_ops_pass());
  passes.push_back(lambda_lift_pass());
  passes.push_back(to_non_dataflow_pass());
  passes.push_back(remove_purity_checking_pass());
  passes.push_back(call_tir_rewrite_pass());
  passes.push_back(static_plan_block_memory_pass());
  passes.push_back(lower_alloc_tensor_pass());
  passes.push_back(kill_after_last_use_pass());
  passes.push_back(lower_runtime_builtin_pass());
  (void)target;  // CUDA adds its own steps here when it lands.
  return sequential("DefaultBuildPipeline", std::move(passes),
                    "The default Relax pipeline for " + target.str());
}

}  // namespace relax::compiler

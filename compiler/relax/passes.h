// The Relax-level passes of the build pipeline (SEMANTICS.md §4.2), one per file in this folder.
// Each function returns the pass with TVM's name; register_relax_passes() adds them all to the
// PassRegistry (idempotent). The order they are meant to run in is written out once, in
// compiler/pipeline.cc.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "compiler/pass.h"
#include "ir/tir.h"

namespace relax::compiler::relax_passes {

Pass to_non_dataflow_pass();           // ToNonDataflow
Pass call_tir_rewrite_pass();          // CallTIRRewrite
Pass dead_code_elimination_pass();     // DeadCodeElimination
Pass canonicalize_bindings_pass();     // CanonicalizeBindings
Pass static_plan_block_memory_pass();  // StaticPlanBlockMemory
Pass lower_alloc_tensor_pass();        // LowerAllocTensor
Pass kill_after_last_use_pass();       // KillAfterLastUse
Pass lower_runtime_builtin_pass();     // LowerRuntimeBuiltin
Pass lambda_lift_pass();               // LambdaLift
Pass remove_purity_checking_pass();    // RemovePurityChecking
Pass annotate_tir_op_pattern_pass();   // AnnotateTIROpPattern
Pass fold_constant_pass();             // FoldConstant
Pass vm_shape_lower_pass();            // VMShapeLower

// The shape program (vm/shape_program.h) VMShapeLower computes `e` with: constants pushed,
// operators the VM computes applied to their operands' programs, anything else read from the
// heap slot `slot(x)` names. VM codegen writes the parameters' dims with it.
std::vector<int64_t> shape_program(
    const ir::Ref<ir::tir::PrimExpr>& e,
    const std::function<int64_t(const ir::Ref<ir::tir::PrimExpr>&)>& slot);

void register_relax_passes();

}  // namespace relax::compiler::relax_passes

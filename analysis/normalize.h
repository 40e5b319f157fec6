// Normalize: struct-info inference for every binding of every Relax function (SEMANTICS.md
// §1). Parameters take their annotations; op calls are bound to their schema (canonical
// arguments and attributes) and inferred through the op registry; calls of module functions and
// closures derive their result from the callee's function struct info; call_tir-style calls take
// their declared outputs; tuples, tuple items, if/else joins, match_cast (defining symbolic
// variables), nested functions and returns are typed; binding annotations are checked against
// the inferred struct info (an error only when provably incompatible). A binding whose inference
// fails gets R.Object and analysis continues, so one error never hides the next.
#pragma once

#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::analysis {

struct NormalizeOptions {
  // Infer from the parameters alone: binding annotations are neither checked nor kept (the
  // variables get the inferred struct info). For measuring inference against TVM's.
  bool ignore_binding_annotations = false;
};

// Normalizes `module` in place: every Relax expression and variable gets its struct info, op
// calls are replaced by their canonical form, global vars get their function's struct info.
// The module must not be shared yet (fresh from the front end, or built by a pass).
// Diagnostics (E03xx) are appended to `diags`.
void normalize_module(ir::IRModule& module, ir::DiagnosticBag& diags,
                      const NormalizeOptions& options = {});

}  // namespace relax::analysis

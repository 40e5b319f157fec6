// The Relax half of the front end: `@R.function` definitions, their signatures, struct-info
// annotations, bindings, dataflow blocks, if/else and the R.* builtins.
#pragma once

#include "ir/expr.h"
#include "syntax/frontend/context.h"

namespace relax::syntax {

// Registers the R.* builtins (struct info constructors, R.const, R.shape, op calls, ...) and
// the Relax operator and method builtins ("R.operator.+", "R.Expr.astype", ...).
void register_relax_builtins(Frontend& fe);

// Gives a module-level Relax function's global var its struct info from the signature alone,
// before any body is parsed, so functions can call each other in any order.
void declare_relax_function(Frontend& fe, Node decorated, const ir::Ref<ir::GlobalVar>& gvar);

// Parses a decorated `@R.function` definition at module level (in a class or alone). Sets the
// "global_symbol" attribute unless the function is private. Returns null when the function had
// errors (all of them reported).
ir::Ref<ir::Function> parse_relax_function(Frontend& fe, Node decorated,
                                           const ir::Ref<ir::GlobalVar>& gvar);

}  // namespace relax::syntax

// The TIR half of the front end: `@T.prim_func` definitions, buffers, loops, blocks,
// statements, TIR expressions and the T.* builtins.
#pragma once

#include "ir/tir.h"
#include "syntax/frontend/context.h"

namespace relax::syntax {

// Registers the T.* builtins (dtype constructors and casts, T.Buffer, intrinsics, loop
// builders, ...) and the TIR method builtins ("T.Buffer.__getitem__", "T.Buffer.vload", ...).
void register_tir_builtins(Frontend& fe);

// Parses a decorated `@T.prim_func` definition. Sets the "global_symbol" attribute unless the
// function is private. Returns null when the function had errors (all of them reported).
ir::Ref<ir::tir::PrimFunc> parse_prim_func(Frontend& fe, Node decorated,
                                           const ir::Ref<ir::GlobalVar>& gvar);

}  // namespace relax::syntax

// Check-time bounds of TIR buffer accesses (rules E0423, E0424 of well_formed.cc): an index that
// provably leaves its buffer's shape for some iteration that runs, and a block iteration
// variable with a negative domain or a binding that provably leaves its domain. Unknown cases
// are not reported: an error here always comes with a witness (the loop values it happens at).
#pragma once

#include <string>

#include "ir/diagnostic.h"
#include "ir/tir.h"

namespace relax::analysis {

// Reports E0423 / E0424 for `func` (named `name` in messages) into `diags`; true when there
// was none.
bool check_tir_bounds(const ir::tir::PrimFunc& func, const std::string& name,
                      ir::DiagnosticBag& diags);

}  // namespace relax::analysis

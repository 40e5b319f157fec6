// Well-formedness of a normalized module (SEMANTICS.md §1.9): the rules are numbered at the top
// of well_formed.cc, each reported with its own E04xx code. Unlike TVM, every violation is
// reported, not only the first.
#pragma once

#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::analysis {

void check_well_formed(const ir::IRModule& module, ir::DiagnosticBag& diags);

}  // namespace relax::analysis

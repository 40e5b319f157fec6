// Well-formedness of a normalized module (SEMANTICS.md §1.9): the rules are numbered at the top
// of well_formed.cc, each reported with its own E04xx code. Unlike TVM, every violation is
// reported, not only the first.
#pragma once

#include <string>
#include <unordered_set>

#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::analysis {

struct WellFormedOptions {
  // Functions the front end left out because of errors already reported: calls of them are not
  // reported again as undefined global variables (E0410).
  std::unordered_set<std::string> ignore_missing_globals;
  // The functions were written outside a module (`@R.function` at the top of a file, which the
  // front end collects into a module under their names): TVM checks that a public function's
  // global_symbol is its name only inside an IRModule, so E0411 is not reported.
  bool standalone_functions = false;
};

void check_well_formed(const ir::IRModule& module, ir::DiagnosticBag& diags);
void check_well_formed(const ir::IRModule& module, ir::DiagnosticBag& diags,
                       const WellFormedOptions& options);

}  // namespace relax::analysis

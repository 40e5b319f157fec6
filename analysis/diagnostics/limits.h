// The error limit as the renderers show it (`--max-errors`, docs/diagnostics.md#limits): the
// diagnostic E0001 that ends a capped list of errors, and capping a list that was collected
// without a limit.
#pragma once

#include <cstddef>
#include <vector>

#include "ir/diagnostic.h"

namespace relax::analysis {

// E0001 at `at`: `limit` errors are shown and `more` are not. `stopped`: the work stopped at the
// limit, so `more` is a lower bound and the rest of the file was not checked.
ir::Diagnostic too_many_errors(ir::Span at, size_t limit, size_t more, bool stopped);

// The E0001 of a bag whose error limit was reached, at its limit_span(); false when it was not.
bool limit_notice(const ir::DiagnosticBag& bag, ir::Diagnostic& out);

bool is_limit_notice(const ir::Diagnostic& d);

// Keeps the first `limit` errors of each file (0: all) and ends each file that had more with
// E0001 (an exact count: nothing stopped). A file that already ends with E0001 is left alone.
// Warnings and notes are kept; the renderers bound them (TerminalStyle::max_warnings).
void cap_errors(std::vector<ir::Diagnostic>& diags, size_t limit);

}  // namespace relax::analysis

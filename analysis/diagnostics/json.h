// Renders diagnostics as JSON for tools (`relax check --format json`): one array of objects,
// each with file, 1-based line/column and end_line/end_column (columns in characters, the end
// exclusive), severity, code, message, labels (secondary spans), notes and the fix when present.
// The schema is documented in docs/cli.md.
#pragma once

#include <string>
#include <vector>

#include "ir/diagnostic.h"

namespace relax::analysis {

// The array, pretty-printed with two-space indentation, ending in a newline.
std::string render_json(const std::vector<ir::Diagnostic>& diags);

}  // namespace relax::analysis

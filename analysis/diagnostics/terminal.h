// Renders diagnostics for a terminal, clang/rustc style: `file:line:col: error[E0101]: message`,
// the source line, carets under the span, labelled secondary spans and notes. Colour only when
// asked (the CLI asks when stderr is a terminal and NO_COLOR is unset).
#pragma once

#include <string>
#include <vector>

#include "ir/diagnostic.h"

namespace relax::analysis {

struct TerminalStyle {
  bool color = false;
  // End with "2 errors and 1 warning generated." (relax check prints its own summary).
  bool summary = true;
  // Paths are shown as given to SourceManager (the name the file was opened with).
};

// One diagnostic, with its source excerpt(s), ending in a newline.
std::string render_terminal(const ir::Diagnostic& diag, const TerminalStyle& style = {});

// All diagnostics in order, followed by a summary line ("2 errors and 1 warning generated.")
// when there is at least one.
std::string render_terminal(const std::vector<ir::Diagnostic>& diags,
                            const TerminalStyle& style = {});

}  // namespace relax::analysis

// Renders diagnostics for a terminal, clang/rustc style: `file:line:col: error[E0101]: message`,
// the source line, carets under the span, labelled secondary spans and notes. Colour only when
// asked (the CLI asks when stderr is a terminal and NO_COLOR is unset).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "ir/diagnostic.h"

namespace relax::analysis {

// Source lines wider than this (in display columns) are shown as a window of this many columns
// around the span, with "..." where the line is cut (docs/diagnostics.md#limits).
inline constexpr size_t kMaxExcerptColumns = 160;

struct TerminalStyle {
  bool color = false;
  // Show at most this many warnings and notes per file (0: all); the rest are counted in one
  // line, "x.relax: 12 more warnings not shown [--max-errors=N]". Errors are capped before
  // rendering (ir::DiagnosticBag, cap_errors).
  size_t max_warnings = 0;
  // End with "2 errors and 1 warning generated." (relax check prints its own summary).
  bool summary = true;
  // Paths are shown as given to SourceManager (the name the file was opened with).
};

// One diagnostic, with its source excerpt(s), ending in a newline.
std::string render_terminal(const ir::Diagnostic& diag, const TerminalStyle& style = {});

// All diagnostics in order (grouped by file), followed by a summary line ("2 errors and 1 warning
// generated.", E0001 not counted) when there is at least one.
std::string render_terminal(const std::vector<ir::Diagnostic>& diags,
                            const TerminalStyle& style = {});
// The same, written to `out` one diagnostic at a time (the output is never held whole).
void render_terminal(const std::vector<ir::Diagnostic>& diags, const TerminalStyle& style,
                     std::ostream& out);

}  // namespace relax::analysis

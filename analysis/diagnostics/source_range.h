// Where a span sits, as the machine-readable renderers (JSON, SARIF, GitHub) report it: the
// file's name and 1-based lines and columns, columns counted in Unicode characters, the end
// exclusive (the position just after the last character, as LSP ranges are, plus one).
#pragma once

#include <cstdint>
#include <string>

#include "ir/span.h"

namespace relax::analysis {

struct SourceRange {
  std::string file;  // as registered in the SourceManager; "<unknown>" for unknown spans
  bool known = false;
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t end_line = 1;
  uint32_t end_column = 1;  // exclusive: one past the last character
};

SourceRange source_range(const ir::Span& span);

// Converts the spans of one rendering (ir::LineIndex makes each conversion cheap however long
// the line, so thousands of diagnostics on one generated line stay linear).
class SourceRanges {
 public:
  SourceRange operator()(const ir::Span& span);
};

}  // namespace relax::analysis

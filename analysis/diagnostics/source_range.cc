// Span to 1-based line/column ranges in Unicode characters.
#include "analysis/diagnostics/source_range.h"

#include <algorithm>

#include "ir/source.h"

namespace relax::analysis {

SourceRange SourceRanges::operator()(const ir::Span& span) {
  SourceRange range;
  auto file = ir::SourceManager::global().get(span.file);
  if (!file) {
    range.file = "<unknown>";
    return range;
  }
  range.file = file->name();
  range.known = true;
  ir::Position begin = file->position(span.begin, ir::Encoding::kUtf32);
  ir::Position end = file->position(std::max(span.begin, span.end), ir::Encoding::kUtf32);
  range.line = begin.line + 1;
  range.column = begin.column + 1;
  range.end_line = end.line + 1;
  range.end_column = end.column + 1;
  return range;
}

SourceRange source_range(const ir::Span& span) {
  return SourceRanges()(span);
}

}  // namespace relax::analysis

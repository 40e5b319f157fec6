// Span to 1-based line/column ranges in Unicode characters.
#include "analysis/diagnostics/source_range.h"

#include <algorithm>

#include "ir/source.h"

namespace relax::analysis {

namespace {

// The number of characters (UTF-8 sequences) in the first `bytes` bytes of `line`.
uint32_t characters(std::string_view line, uint32_t bytes) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < bytes && i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++count;
  }
  // A column past the end of the line (the position of the line ending) counts its bytes.
  if (bytes > line.size()) count += bytes - static_cast<uint32_t>(line.size());
  return count;
}

}  // namespace

SourceRange source_range(const ir::Span& span) {
  SourceRange range;
  auto file = ir::SourceManager::global().get(span.file);
  if (!file) {
    range.file = "<unknown>";
    return range;
  }
  range.file = file->name();
  range.known = true;
  ir::Position begin = file->position(span.begin);
  ir::Position end = file->position(std::max(span.begin, span.end));
  range.line = begin.line + 1;
  range.column = characters(file->line_text(begin.line), begin.column) + 1;
  range.end_line = end.line + 1;
  range.end_column = characters(file->line_text(end.line), end.column) + 1;
  return range;
}

}  // namespace relax::analysis

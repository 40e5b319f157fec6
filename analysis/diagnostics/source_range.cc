// Span to 1-based line/column ranges in Unicode characters.
#include "analysis/diagnostics/source_range.h"

#include <algorithm>

#include "ir/source.h"

namespace relax::analysis {

namespace {

// The number of characters (UTF-8 sequences) in the bytes [from, to) of `line`.
uint32_t count_characters(std::string_view line, uint32_t from, uint32_t to) {
  uint32_t count = 0;
  for (uint32_t i = from; i < to && i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++count;
  }
  return count;
}

}  // namespace

uint32_t SourceRanges::characters(uint32_t file, uint32_t index, std::string_view line,
                                  uint32_t bytes) {
  uint32_t within = std::min<uint32_t>(bytes, static_cast<uint32_t>(line.size()));
  uint32_t count = 0;
  if (line.size() <= kCheckpointBytes) {
    count = count_characters(line, 0, within);
  } else {
    std::vector<uint32_t>& table = checkpoints_[(uint64_t{file} << 32) | index];
    if (table.empty()) {
      table.push_back(0);
      for (uint32_t at = kCheckpointBytes; at <= line.size(); at += kCheckpointBytes)
        table.push_back(table.back() + count_characters(line, at - kCheckpointBytes, at));
    }
    uint32_t slot = within / kCheckpointBytes;
    count = table[slot] + count_characters(line, slot * kCheckpointBytes, within);
  }
  // A column past the end of the line (the position of the line ending) counts its bytes.
  if (bytes > line.size()) count += bytes - static_cast<uint32_t>(line.size());
  return count;
}

SourceRange SourceRanges::operator()(const ir::Span& span) {
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
  range.column = characters(span.file, begin.line, file->line_text(begin.line), begin.column) + 1;
  range.end_line = end.line + 1;
  range.end_column = characters(span.file, end.line, file->line_text(end.line), end.column) + 1;
  return range;
}

SourceRange source_range(const ir::Span& span) {
  return SourceRanges()(span);
}

}  // namespace relax::analysis

// Where a span sits, as the machine-readable renderers (JSON, SARIF, GitHub) report it: the
// file's name and 1-based lines and columns, columns counted in Unicode characters, the end
// exclusive (the position just after the last character, as LSP ranges are, plus one).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

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

// Converts the spans of one rendering. Counting characters from the start of the line for each
// span would cost a whole line per diagnostic (quadratic for thousands of diagnostics on one
// generated line); a long line instead gets a table of character counts every
// kCheckpointBytes, once, and each conversion scans at most that much.
class SourceRanges {
 public:
  SourceRange operator()(const ir::Span& span);
  static constexpr uint32_t kCheckpointBytes = 1024;

 private:
  // The characters in the first `bytes` bytes of `line` (line `index` of file `file`).
  uint32_t characters(uint32_t file, uint32_t index, std::string_view line, uint32_t bytes);
  // For each long line seen (file << 32 | line): the characters before each checkpoint.
  std::unordered_map<uint64_t, std::vector<uint32_t>> checkpoints_;
};

}  // namespace relax::analysis

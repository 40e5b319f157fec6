// Line diffs for `relax fmt --diff` and the minimal edits the language server applies: unique
// lines anchor the comparison (patience diff), small gaps between anchors get an exact LCS.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace relax::syntax::format {

// Replace lines [a_begin, a_end) of the old text with lines [b_begin, b_end) of the new one.
struct Hunk {
  uint32_t a_begin, a_end, b_begin, b_end;
};

// Lines with their line breaks (the last one may have none).
std::vector<std::string_view> split_lines(std::string_view text);

std::vector<Hunk> diff_lines(const std::vector<std::string_view>& a,
                             const std::vector<std::string_view>& b);

}  // namespace relax::syntax::format

// Checked parsing of a whole decimal integer from user text (command-line values, device
// indices, pass options): the one place that turns text into an int64. Unlike std::stoll or
// atoi it never throws, never stops at a trailing character ("5x", "0x10", "1e3" are refused)
// and refuses values outside int64 instead of wrapping.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace relax::ir {

// `text` as an int64: an optional '-' and decimal digits, nothing else (no spaces, no '+', no
// base prefix); nullopt when it is anything else or out of range.
inline std::optional<int64_t> parse_int64(std::string_view text) {
  if (text.empty() || text == "-") return std::nullopt;
  if (text[0] != '-' && (text[0] < '0' || text[0] > '9')) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace relax::ir

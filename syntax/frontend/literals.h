// Decoding literal tokens of the text format: Python integers (with 0x/0o/0b prefixes and
// underscores), floats, and string literals (prefixes, triple quotes, escape sequences).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relax::syntax {

// Integer literal text to its value; nullopt when malformed or out of int64 range. With
// `negated`, the value of `-literal`: the literal may then be 2^63, so that INT64_MIN, which the
// printer writes as `-9223372036854775808`, reads back.
std::optional<int64_t> decode_integer(std::string_view text, bool negated = false);
// Float literal text to a double; nullopt when malformed.
std::optional<double> decode_float(std::string_view text);

struct DecodedString {
  std::string value;
  bool ok = true;               // false when the literal is malformed (unterminated, bad escape)
  bool is_bytes = false;        // b"..."
  bool is_fstring = false;      // f"..." (unsupported in TVMScript)
  uint32_t content_offset = 0;  // bytes from the literal's start to its content
  std::string error;
};
// The value of one string literal token (prefix and quotes included in `text`).
DecodedString decode_string(std::string_view text);

}  // namespace relax::syntax

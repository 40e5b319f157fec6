// Literal spelling normalization, as black/ruff do it: string prefixes and quotes (double quotes
// unless that needs more escapes), unnecessary escapes removed, hex escapes in lower case;
// numbers with lower-case prefixes and exponents, upper-case hex digits, `1.` as `1.0`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace relax::syntax::format {

// One string literal (prefix, quotes and body) in normalized spelling.
std::string normalize_string(std::string_view literal);

// A comment as black writes it: trailing whitespace removed, a space after `#` unless the text
// starts with `!`, `:`, `#`, `'` or a space (a leading non-breaking space becomes a space).
std::string normalize_comment(std::string_view text);

// One number literal in normalized spelling.
std::string normalize_number(std::string_view literal);

// Parts of a string literal: prefix (as written), quote ("'", "\"", "'''" or "\"\"\""), body.
struct StringParts {
  std::string_view prefix;
  std::string_view quote;
  std::string_view body;
  bool raw = false;
  bool bytes = false;
  bool triple() const { return quote.size() == 3; }
};
StringParts split_string(std::string_view literal);

// The body of a literal re-escaped for the delimiter `quote` (unneeded escapes of the other
// quote removed, hex escapes in lower case).
std::string normalize_body(const StringParts& p, char quote);

// The quote for joining implicitly concatenated (non-raw, single-quoted) literals: double
// unless their bodies hold more double quotes than single ones.
char merged_quote(const std::vector<StringParts>& parts);

}  // namespace relax::syntax::format

namespace relax::syntax::format {

// The length of the Unicode white-space character (Python's str.isspace) at s[i], or 0.
size_t space_at(std::string_view s, size_t i);

// A docstring laid out as ruff lays it out, from its normalized literal: the first line trimmed,
// the other lines re-indented relative to their least indented line (tabs at 8 columns), trailing
// white space removed, white-space-only lines emptied, a space between the text and quotes that
// would otherwise touch. `lines[0]` starts with the prefix and opening quotes, the last line ends
// with the closing quotes, empty strings are empty lines; the lines after the first are written
// at the statement's indentation. Returns false when the docstring is to be kept as written (a
// backslash before a line break).
bool docstring_lines(std::string_view normalized_literal, std::vector<std::string>& lines);

}  // namespace relax::syntax::format

// Source scanning helpers for the formatter: a small tokenizer for the text between nodes (only
// punctuation, keywords and trivia live there) and counts of line breaks around an offset, the
// facts comment placement and blank-line preservation are decided from.
#pragma once

#include <cstdint>
#include <string_view>

namespace relax::syntax::format {

enum class Tok : uint8_t {
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kComma,
  kColon,
  kDot,
  kEqual,
  kStar,
  kDoubleStar,
  kColonEqual,
  kWord,  // identifiers and keywords
  kOther,
  kNewline,
  kWhitespace,
  kComment,
  kContinuation,  // backslash + newline
  kEnd,
};

struct Token {
  Tok kind = Tok::kEnd;
  uint32_t start = 0, end = 0;
  bool is_trivia() const {
    return kind == Tok::kNewline || kind == Tok::kWhitespace || kind == Tok::kComment ||
           kind == Tok::kContinuation;
  }
};

// Tokenizes source[start, end). Strings and numbers never occur between nodes; a quote or digit
// is returned as kOther.
class Tokenizer {
 public:
  Tokenizer(std::string_view source, uint32_t start, uint32_t end)
      : s_(source), pos_(start), end_(end) {}
  Token next();
  // The next token that is not trivia (kEnd when none).
  Token next_non_trivia();

 private:
  std::string_view s_;
  uint32_t pos_, end_;
};

// True if the first non-trivia token in [start, end) has `kind`, skipping closing parentheses
// first when `skip_rparen`.
bool first_token_is(std::string_view source, uint32_t start, uint32_t end, Tok kind,
                    bool skip_rparen = false);
// True if any non-trivia token in [start, end) has `kind`.
bool any_token(std::string_view source, uint32_t start, uint32_t end, Tok kind);
// The start of the first token with `kind` in [start, end), or `end`.
uint32_t find_token(std::string_view source, uint32_t start, uint32_t end, Tok kind);
// The start of the first word `word` in [start, end), or `end`.
uint32_t find_word(std::string_view source, uint32_t start, uint32_t end, std::string_view word);

// Line breaks between `offset` and the next non-whitespace character.
uint32_t lines_after(std::string_view source, uint32_t offset);
// Line breaks between the previous non-whitespace character and `offset`.
uint32_t lines_before(std::string_view source, uint32_t offset);
// Line breaks after `offset`, skipping comments (a comment resets the count).
uint32_t lines_after_ignoring_trivia(std::string_view source, uint32_t offset);
// Line breaks after `offset` once the rest of its line (an end-of-line comment) is skipped.
uint32_t lines_after_ignoring_end_of_line_trivia(std::string_view source, uint32_t offset);
// The largest number of empty lines between comments in `text` (ruff's max_empty_lines).
uint32_t max_empty_lines(std::string_view text);
// The width of the whitespace before `offset` when only whitespace precedes it on its line,
// else -1.
int32_t indentation_at(std::string_view source, uint32_t offset);
// True if [start, end) contains a line break.
bool contains_line_break(std::string_view source, uint32_t start, uint32_t end);

}  // namespace relax::syntax::format

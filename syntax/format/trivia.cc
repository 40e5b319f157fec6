// Tokenizer and line counting between nodes.
#include "syntax/format/trivia.h"

namespace relax::syntax::format {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\f';
}
bool is_word_char(unsigned char c) {
  return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

}  // namespace

Token Tokenizer::next() {
  Token t;
  t.start = pos_;
  if (pos_ >= end_) {
    t.end = pos_;
    return t;
  }
  char c = s_[pos_];
  auto single = [&](Tok k, uint32_t len) {
    t.kind = k;
    pos_ += len;
    t.end = pos_;
    return t;
  };
  if (is_space(c)) {
    while (pos_ < end_ && is_space(s_[pos_])) ++pos_;
    t.kind = Tok::kWhitespace;
    t.end = pos_;
    return t;
  }
  if (c == '\n') return single(Tok::kNewline, 1);
  if (c == '\r') return single(Tok::kNewline, (pos_ + 1 < end_ && s_[pos_ + 1] == '\n') ? 2 : 1);
  if (c == '#') {
    while (pos_ < end_ && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
    t.kind = Tok::kComment;
    t.end = pos_;
    return t;
  }
  if (c == '\\') {
    uint32_t p = pos_ + 1;
    if (p < end_ && s_[p] == '\r') ++p;
    if (p < end_ && s_[p] == '\n') ++p;
    return single(Tok::kContinuation, p - pos_);
  }
  switch (c) {
    case '(':
      return single(Tok::kLParen, 1);
    case ')':
      return single(Tok::kRParen, 1);
    case '[':
      return single(Tok::kLBracket, 1);
    case ']':
      return single(Tok::kRBracket, 1);
    case '{':
      return single(Tok::kLBrace, 1);
    case '}':
      return single(Tok::kRBrace, 1);
    case ',':
      return single(Tok::kComma, 1);
    case '.':
      return single(Tok::kDot, 1);
    case ':':
      if (pos_ + 1 < end_ && s_[pos_ + 1] == '=') return single(Tok::kColonEqual, 2);
      return single(Tok::kColon, 1);
    case '=':
      if (pos_ + 1 < end_ && s_[pos_ + 1] == '=') return single(Tok::kOther, 2);
      return single(Tok::kEqual, 1);
    case '*':
      if (pos_ + 1 < end_ && s_[pos_ + 1] == '*') return single(Tok::kDoubleStar, 2);
      return single(Tok::kStar, 1);
    default:
      break;
  }
  if (is_word_char(static_cast<unsigned char>(c))) {
    while (pos_ < end_ && is_word_char(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    t.kind = Tok::kWord;
    t.end = pos_;
    return t;
  }
  return single(Tok::kOther, 1);
}

Token Tokenizer::next_non_trivia() {
  while (true) {
    Token t = next();
    if (t.kind == Tok::kEnd || !t.is_trivia()) return t;
  }
}

bool first_token_is(std::string_view source, uint32_t start, uint32_t end, Tok kind,
                    bool skip_rparen) {
  if (start >= end) return false;
  Tokenizer tz(source, start, end);
  Token t = tz.next_non_trivia();
  while (skip_rparen && t.kind == Tok::kRParen) t = tz.next_non_trivia();
  return t.kind == kind;
}

bool any_token(std::string_view source, uint32_t start, uint32_t end, Tok kind) {
  if (start >= end) return false;
  Tokenizer tz(source, start, end);
  for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
    if (t.kind == kind) return true;
  }
  return false;
}

uint32_t find_token(std::string_view source, uint32_t start, uint32_t end, Tok kind) {
  if (start >= end) return end;
  Tokenizer tz(source, start, end);
  for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
    if (t.kind == kind) return t.start;
  }
  return end;
}

uint32_t find_word(std::string_view source, uint32_t start, uint32_t end, std::string_view word) {
  if (start >= end) return end;
  Tokenizer tz(source, start, end);
  for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
    if (t.kind == Tok::kWord && source.substr(t.start, t.end - t.start) == word) return t.start;
  }
  return end;
}

uint32_t lines_after(std::string_view source, uint32_t offset) {
  uint32_t newlines = 0;
  for (size_t i = offset; i < source.size(); ++i) {
    char c = source[i];
    if (c == '\n') {
      ++newlines;
    } else if (c == '\r') {
      if (i + 1 < source.size() && source[i + 1] == '\n') continue;
      ++newlines;
    } else if (!is_space(c)) {
      break;
    }
  }
  return newlines;
}

uint32_t lines_before(std::string_view source, uint32_t offset) {
  uint32_t newlines = 0;
  for (size_t i = offset; i-- > 0;) {
    char c = source[i];
    if (c == '\n') {
      if (i > 0 && source[i - 1] == '\r') --i;
      ++newlines;
    } else if (c == '\r') {
      ++newlines;
    } else if (!is_space(c)) {
      break;
    }
  }
  return newlines;
}

uint32_t lines_after_ignoring_trivia(std::string_view source, uint32_t offset) {
  uint32_t newlines = 0;
  Tokenizer tz(source, offset, static_cast<uint32_t>(source.size()));
  for (Token t = tz.next(); t.kind != Tok::kEnd; t = tz.next()) {
    if (t.kind == Tok::kNewline) {
      ++newlines;
    } else if (t.kind == Tok::kWhitespace) {
      continue;
    } else if (t.kind == Tok::kComment) {
      newlines = 0;
    } else {
      break;
    }
  }
  return newlines;
}

uint32_t lines_after_ignoring_end_of_line_trivia(std::string_view source, uint32_t offset) {
  Tokenizer tz(source, offset, static_cast<uint32_t>(source.size()));
  Token t = tz.next();
  while (t.kind != Tok::kEnd && t.kind != Tok::kNewline && t.is_trivia()) t = tz.next();
  uint32_t newlines = 0;
  while (t.kind == Tok::kNewline || t.kind == Tok::kWhitespace) {
    if (t.kind == Tok::kNewline) ++newlines;
    t = tz.next();
  }
  return newlines;
}

uint32_t max_empty_lines(std::string_view text) {
  uint32_t newlines = 0, max_newlines = 0;
  Tokenizer tz(text, 0, static_cast<uint32_t>(text.size()));
  for (Token t = tz.next(); t.kind != Tok::kEnd; t = tz.next()) {
    if (t.kind == Tok::kNewline) {
      ++newlines;
    } else if (t.kind == Tok::kWhitespace) {
      continue;
    } else if (t.kind == Tok::kComment) {
      if (newlines > max_newlines) max_newlines = newlines;
      newlines = 0;
    } else {
      break;
    }
  }
  if (newlines > max_newlines) max_newlines = newlines;
  return max_newlines > 0 ? max_newlines - 1 : 0;
}

int32_t indentation_at(std::string_view source, uint32_t offset) {
  uint32_t p = offset;
  while (p > 0) {
    char c = source[p - 1];
    if (c == '\n' || c == '\r') break;
    if (!is_space(c)) return -1;
    --p;
  }
  return static_cast<int32_t>(offset - p);
}

bool contains_line_break(std::string_view source, uint32_t start, uint32_t end) {
  for (uint32_t i = start; i < end && i < source.size(); ++i) {
    if (source[i] == '\n' || source[i] == '\r') return true;
  }
  return false;
}

}  // namespace relax::syntax::format

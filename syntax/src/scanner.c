/*
 * External scanner of the relax grammar: logical lines, indentation and strings.
 *
 * Tokens (the order of `externals` in grammar.js):
 *   _newline, _indent, _dedent   Python's NEWLINE/INDENT/DEDENT. All three are zero-width tokens
 *                                placed at the end of the line they close; each call measures
 *                                the next line's indentation again, so k DEDENTs cost k calls.
 *   string_start                 an optional prefix (r, b, u, f, t, rb, ...) and the opening quote
 *   string_content               everything up to the closing quote, escapes included, in one
 *                                token (a 50 KB metadata string is scanned once, linearly)
 *   string_end                   the closing quote(s)
 *   comment                      never produced (the internal lexer lexes comments); being an
 *                                extra, it is valid everywhere, so the scanner is called in
 *                                every state, e.g. after a header missing its `:`
 *   ')' ']' '}'                  never produced; valid only inside brackets, where newlines and
 *                                indentation are insignificant
 *   _statement_start             never produced; valid only where a statement may start
 *   _header_end                  never produced; valid only where a header's `:` may come
 *   _error_sentinel              never produced; valid only during error recovery
 *   _unexpected_indent           a whole line indented where no block opens; no rule takes it,
 *                                so it always ends up in an ERROR node
 *
 * Policy:
 *  - Blank lines and comment-only lines produce nothing. A comment line only counts for a
 *    DEDENT when the comment itself is dedented, so a comment at a lower indent in the middle of
 *    a block does not close it, and a comment at the block's indent after its last statement
 *    stays in the block.
 *  - Tabs advance to the next multiple of 8; a form feed resets the column; `\r` is ignored, so
 *    CRLF files scan like LF files; a BOM is skipped.
 *  - At the end of input: the pending NEWLINE, then one DEDENT per open block.
 *  - A dedent is reported even where the parser does not expect one (outside brackets). A
 *    stray indent (or a dedent to a column no open block has) turns its line into an
 *    _unexpected_indent token, so the parser reports an ERROR on that line alone.
 *  - Unclosed brackets: inside brackets, a newline followed by a line at a column <= the
 *    current block's indent that starts with `def`, `class`, `return`, `with`, `for`, `if` or
 *    `@` ends the logical line anyway (TEXT_FORMAT 5.5), and so does one that starts with
 *    `name =` or `name:` (a binding; our addition). The parser then inserts a MISSING closer
 *    instead of joining the rest of the file into one line. Valid code that continues a
 *    bracket at or left of the statement's own indent with such a line, e.g. a keyword
 *    argument `x=1` at column 0 inside a module-level call, is misread; no formatter writes
 *    that.
 *
 * State (serialized): the indent stack, at most MAX_INDENTS levels, and the delimiter of the
 * string being scanned. No allocation happens after create().
 */

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum TokenType {
  NEWLINE,
  INDENT,
  DEDENT,
  STRING_START,
  STRING_CONTENT,
  STRING_END,
  COMMENT,
  CLOSE_PAREN,
  CLOSE_BRACKET,
  CLOSE_BRACE,
  STATEMENT_START,
  HEADER_END,
  ERROR_SENTINEL,
  UNEXPECTED_INDENT,
};

/* Serialized as 5 header bytes and 2 bytes a level, well within the 1024-byte buffer. */
#define MAX_INDENTS 256


/* Delimiter bits. */
#define DELIM_DOUBLE 0x01 /* '"' rather than '\'' */
#define DELIM_TRIPLE 0x02
#define DELIM_ACTIVE 0x04

/* An indent level the parser saw no INDENT for (a stray indent, or the body of a header that
 * lost its `:`): lines at that column read as statements of the enclosing block, and it is
 * closed without a DEDENT. Columns are kept below this bit. */
#define STRAY_LEVEL 0x8000
#define MAX_COLUMN 0x7fff

typedef struct {
  uint16_t indents[MAX_INDENTS]; /* columns, maybe | STRAY_LEVEL; indents[0] == 0 always */
  uint16_t count;                /* >= 1 */
  uint8_t delimiter;
  /* Set by a NEWLINE or DEDENT, with the indentation of the line that follows it; cleared by any
   * other external token. A later call that sees the same indentation after a line end is at
   * that same line start (a stale mark cannot match: see the stray-indent check). */
  bool at_line_start;
  uint16_t line_start_column;
} Scanner;

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

static inline bool is_identifier_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

static inline int32_t ascii_lower(int32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

/* A string prefix, in any case: one of r b u f t, or two of them with an r (rb, br, rf, ...). */
static bool is_string_prefix(const char *word, unsigned length) {
  if (length == 1) {
    return strchr("rbuft", (char)ascii_lower(word[0])) != NULL;
  }
  if (length == 2) {
    char a = (char)ascii_lower(word[0]), b = (char)ascii_lower(word[1]);
    if (a == 'r') return b == 'b' || b == 'f' || b == 't';
    if (b == 'r') return a == 'b' || a == 'f' || a == 't';
  }
  return false;
}

static bool word_in(const char *word, unsigned length, const char *const *list, unsigned count) {
  for (unsigned i = 0; i < count; i++) {
    if (strlen(list[i]) == length && memcmp(list[i], word, length) == 0) return true;
  }
  return false;
}

/* Keywords that start a statement. */
static bool is_statement_keyword(const char *word, unsigned length) {
  static const char *const keywords[] = {"def",  "class",  "return", "with", "for",
                                         "if",   "while",  "pass",   "assert"};
  return word_in(word, length, keywords, sizeof(keywords) / sizeof(keywords[0]));
}

/* Words that continue an expression on a new line rather than start a statement. */
static bool is_continuation_word(const char *word, unsigned length) {
  static const char *const words[] = {"else", "in",   "and",  "or",    "not",   "is",
                                      "as",   "from", "True", "False", "None",  "lambda",
                                      "await", "yield", "elif", "except", "finally"};
  return word_in(word, length, words, sizeof(words) / sizeof(words[0]));
}

/*
 * Reads an identifier-like word (ASCII, at most 7 characters kept) by advancing the lexer;
 * returns its length, or 8 when it is longer than 7 or not plain ASCII.
 */
static unsigned read_word(TSLexer *lexer, char word[8]) {
  unsigned length = 0;
  bool plain = true;
  while (is_identifier_char(lexer->lookahead)) {
    int32_t c = lexer->lookahead;
    if (c >= 0x80) plain = false;
    if (length < 7) word[length] = (char)c;
    length++;
    advance(lexer);
  }
  if (!plain || length > 7) return 8;
  word[length] = '\0';
  return length;
}

/* Scans the opening quote(s) at the lookahead, the prefix having been consumed. */
static bool scan_opening_quote(Scanner *scanner, TSLexer *lexer) {
  int32_t quote = lexer->lookahead;
  if (quote != '"' && quote != '\'') return false;
  uint8_t delimiter = DELIM_ACTIVE | (quote == '"' ? DELIM_DOUBLE : 0);
  advance(lexer);
  lexer->mark_end(lexer);
  if (lexer->lookahead == quote) {
    advance(lexer);
    if (lexer->lookahead == quote) {
      /* Three quotes: a triple-quoted string. */
      advance(lexer);
      lexer->mark_end(lexer);
      delimiter |= DELIM_TRIPLE;
    }
    /* Two quotes: an empty string; the token ends after the first, the second is string_end. */
  }
  scanner->delimiter = delimiter;
  lexer->result_symbol = STRING_START;
  return true;
}

enum LineStart { LINE_OTHER, LINE_STATEMENT, LINE_STRING };

/*
 * Looks at the first token of a line (advancing the lexer): LINE_STATEMENT for `@`, a statement
 * keyword or any other name, which is how statements start; LINE_STRING for a string (the
 * lexer then stands on its opening quote, after any prefix); LINE_OTHER for what continues an
 * expression: a closer, an operator, a number, a word such as `else`, `in`, `and`, `None`.
 */
static enum LineStart read_line_start(TSLexer *lexer) {
  int32_t c = lexer->lookahead;
  if (c == '@') return LINE_STATEMENT;
  if (c == '"' || c == '\'') return LINE_STRING;
  if (!is_identifier_char(c) || (c >= '0' && c <= '9')) return LINE_OTHER;
  char word[8];
  unsigned length = read_word(lexer, word);
  if (length > 7) return LINE_STATEMENT;
  if (length <= 2 && is_string_prefix(word, length) &&
      (lexer->lookahead == '"' || lexer->lookahead == '\'')) {
    return LINE_STRING;
  }
  if (is_statement_keyword(word, length)) return LINE_STATEMENT;
  return is_continuation_word(word, length) ? LINE_OTHER : LINE_STATEMENT;
}

/* Scans string_content or string_end; the opening delimiter is in scanner->delimiter. */
static bool scan_string_body(Scanner *scanner, TSLexer *lexer) {
  int32_t quote = (scanner->delimiter & DELIM_DOUBLE) ? '"' : '\'';
  bool triple = (scanner->delimiter & DELIM_TRIPLE) != 0;
  bool has_content = false;

  /* At the closing delimiter: string_end. One or two quotes of a triple string are content. */
  if (lexer->lookahead == quote) {
    advance(lexer);
    if (!triple) {
      lexer->mark_end(lexer);
      scanner->delimiter = 0;
      lexer->result_symbol = STRING_END;
      return true;
    }
    if (lexer->lookahead == quote) {
      advance(lexer);
      if (lexer->lookahead == quote) {
        advance(lexer);
        lexer->mark_end(lexer);
        scanner->delimiter = 0;
        lexer->result_symbol = STRING_END;
        return true;
      }
    }
    has_content = true;
  }

  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) {
      lexer->mark_end(lexer);
      break;
    }
    if (c == '\\') {
      /* An escape, in raw strings too: the backslash keeps the next character (a quote or a
       * line end included) inside the string. */
      advance(lexer);
      if (lexer->lookahead == '\r') {
        advance(lexer);
        if (lexer->lookahead == '\n') advance(lexer);
      } else if (!lexer->eof(lexer)) {
        advance(lexer);
      }
      has_content = true;
      continue;
    }
    if (c == quote) {
      lexer->mark_end(lexer);
      if (!triple) break;
      advance(lexer);
      if (lexer->lookahead == quote) {
        advance(lexer);
        if (lexer->lookahead == quote) break; /* the closing """ follows the mark */
      }
      has_content = true;
      continue;
    }
    if (!triple && (c == '\n' || c == '\r')) {
      /* Unterminated single-line string: the content ends at the line end and no string_end
       * follows, which the parser reports. */
      lexer->mark_end(lexer);
      break;
    }
    advance(lexer);
    has_content = true;
  }

  if (has_content) {
    lexer->result_symbol = STRING_CONTENT;
    return true;
  }
  if (lexer->eof(lexer) || (!triple && (lexer->lookahead == '\n' || lexer->lookahead == '\r'))) {
    /* The string is unterminated: end the logical line here. The parser cannot take a NEWLINE
     * inside a string, so it inserts a MISSING string_end and goes on with the next line. */
    scanner->delimiter = 0;
    lexer->result_symbol = NEWLINE;
    return true;
  }
  return false;
}

void *tree_sitter_relax_external_scanner_create(void) {
  Scanner *scanner = calloc(1, sizeof(Scanner));
  if (scanner) scanner->count = 1;
  return scanner;
}

void tree_sitter_relax_external_scanner_destroy(void *payload) { free(payload); }

unsigned tree_sitter_relax_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *scanner = (Scanner *)payload;
  unsigned size = 0;
  buffer[size++] = (char)scanner->delimiter;
  buffer[size++] = (char)(scanner->at_line_start ? 1 : 0);
  buffer[size++] = (char)(scanner->line_start_column & 0xff);
  buffer[size++] = (char)(scanner->line_start_column >> 8);
  /* indents[0] is always 0 and is not stored; count <= MAX_INDENTS, so levels fit a byte. */
  unsigned levels = scanner->count - 1u;
  buffer[size++] = (char)(uint8_t)levels;
  for (unsigned i = 1; i <= levels; i++) {
    buffer[size++] = (char)(scanner->indents[i] & 0xff);
    buffer[size++] = (char)(scanner->indents[i] >> 8);
  }
  return size;
}

void tree_sitter_relax_external_scanner_deserialize(void *payload, const char *buffer,
                                                    unsigned length) {
  Scanner *scanner = (Scanner *)payload;
  scanner->delimiter = 0;
  scanner->at_line_start = false;
  scanner->line_start_column = 0;
  scanner->count = 1;
  scanner->indents[0] = 0;
  if (length < 5) return;
  scanner->delimiter = (uint8_t)buffer[0];
  scanner->at_line_start = buffer[1] != 0;
  scanner->line_start_column =
      (uint16_t)((uint8_t)buffer[2] | ((uint16_t)(uint8_t)buffer[3] << 8));
  unsigned levels = (uint8_t)buffer[4];
  unsigned pos = 5;
  for (unsigned i = 0; i < levels && pos + 1 < length && scanner->count < MAX_INDENTS; i++) {
    scanner->indents[scanner->count++] =
        (uint16_t)((uint8_t)buffer[pos] | ((uint16_t)(uint8_t)buffer[pos + 1] << 8));
    pos += 2;
  }
}

static void push_indent(Scanner *scanner, uint32_t column, uint16_t flags) {
  if (scanner->count < MAX_INDENTS) {
    scanner->indents[scanner->count++] = (uint16_t)((column > MAX_COLUMN ? MAX_COLUMN : column) | flags);
  }
}

static inline uint32_t current_indent(const Scanner *scanner) {
  return scanner->indents[scanner->count - 1] & MAX_COLUMN;
}

/* Emits a line-structure token. `marks_line_start`: a NEWLINE or DEDENT the parser expects
 * marks the start of the next line (see at_line_start); recovery tokens do not. */
static bool emit_line_token(Scanner *scanner, TSLexer *lexer, enum TokenType token,
                            uint32_t column, bool marks_line_start) {
  scanner->at_line_start = marks_line_start;
  scanner->line_start_column = column > MAX_COLUMN ? MAX_COLUMN : (uint16_t)column;
  lexer->result_symbol = token;
  return true;
}

/* Scans a string start (prefix and quotes) at the lookahead, if there is one. */
static bool scan_string_start(Scanner *scanner, TSLexer *lexer) {
  int32_t c = lexer->lookahead;
  if (c == '"' || c == '\'') return scan_opening_quote(scanner, lexer);
  if (!is_identifier_char(c) || (c >= '0' && c <= '9')) return false;
  char word[8];
  unsigned length = read_word(lexer, word);
  return length <= 2 && is_string_prefix(word, length) && scan_opening_quote(scanner, lexer);
}

/*
 * Where a header's `:` may come and the line ends instead (`def f(x) -> R.Tensor`, `if c`):
 * the line break and the next line's indentation become one _unexpected_indent token, which
 * no rule takes. The parser then wraps the header, and only it, in an ERROR and reads the body
 * as statements of the current block: the body's indent is pushed as a stray level, left
 * without a DEDENT. (A zero-width token or a NEWLINE there makes the parser's recovery glue
 * the body to the header, or reach back to an earlier header.)
 */
static bool scan_missing_colon(Scanner *scanner, TSLexer *lexer) {
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t' || lexer->lookahead == '\f') {
    advance(lexer);
  }
  if (lexer->lookahead != '\n' && lexer->lookahead != '\r' && !lexer->eof(lexer)) return false;
  uint32_t column = 0;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) {
      column = 0;
      break;
    }
    if (c == '\n') {
      column = 0;
    } else if (c == ' ') {
      column++;
    } else if (c == '\t') {
      column = (column / 8 + 1) * 8;
    } else if (c == '\f') {
      column = 0;
    } else if (c != '\r') {
      break;
    }
    advance(lexer);
  }
  lexer->mark_end(lexer);
  if (column > current_indent(scanner) && !lexer->eof(lexer)) {
    push_indent(scanner, column, STRAY_LEVEL);
  }
  scanner->at_line_start = false;
  lexer->result_symbol = STATEMENT_START;
  return true;
}

bool tree_sitter_relax_external_scanner_scan(void *payload, TSLexer *lexer,
                                             const bool *valid_symbols) {
  Scanner *scanner = (Scanner *)payload;
  bool error_recovery = valid_symbols[ERROR_SENTINEL];
  bool within_brackets = !error_recovery && (valid_symbols[CLOSE_PAREN] ||
                                             valid_symbols[CLOSE_BRACKET] ||
                                             valid_symbols[CLOSE_BRACE]);

  if (!error_recovery && (scanner->delimiter & DELIM_ACTIVE) &&
      (valid_symbols[STRING_CONTENT] || valid_symbols[STRING_END])) {
    scanner->at_line_start = false;
    return scan_string_body(scanner, lexer);
  }

  if (!error_recovery && valid_symbols[HEADER_END] && !within_brackets &&
      !valid_symbols[STRING_START]) {
    return scan_missing_colon(scanner, lexer);
  }

  /* Skip whitespace, line ends and comment-only lines, measuring the last line's indentation.
   * Everything is skipped, so a token returned below is zero-width at the current position. */
  lexer->mark_end(lexer);
  bool found_end_of_line = false;
  bool at_eof = false;
  uint32_t column = 0;
  int32_t first_comment_column = -1;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      found_end_of_line = true;
      column = 0;
      skip(lexer);
    } else if (c == ' ') {
      column++;
      skip(lexer);
    } else if (c == '\t') {
      column = (column / 8 + 1) * 8;
      skip(lexer);
    } else if (c == '\f') {
      column = 0;
      skip(lexer);
    } else if (c == '\r' || c == 0xFEFF) {
      skip(lexer);
    } else if (c == '#') {
      /* A comment after code on the same line is left to the internal lexer. */
      if (!found_end_of_line) return false;
      if (first_comment_column < 0) first_comment_column = (int32_t)column;
      while (!lexer->eof(lexer) && lexer->lookahead != '\n') skip(lexer);
    } else if (lexer->eof(lexer)) {
      found_end_of_line = true;
      at_eof = true;
      column = 0;
      break;
    } else {
      break;
    }
  }

  if (found_end_of_line) {
    /* Close stray levels the line is left of, silently (see the stray-indent case). */
    while (column < current_indent(scanner) &&
           (scanner->indents[scanner->count - 1] & STRAY_LEVEL)) {
      scanner->count--;
    }
    uint32_t current = current_indent(scanner);
    /* A DEDENT counts only when a leading comment line is dedented too. */
    bool dedent = column < current && (int32_t)current > first_comment_column;
    /* Right after a NEWLINE or DEDENT at this same line start. */
    bool at_line_start = scanner->at_line_start && scanner->line_start_column == column;

    if (error_recovery) {
      /* Only close blocks. No INDENT: the lines of a block whose header failed to parse are
       * read at the outer level, and the indent stack stays consistent. No NEWLINE: the parser
       * ignores an empty token that changes no state anyway. */
      if (dedent) {
        scanner->count--;
        return emit_line_token(scanner, lexer, DEDENT, column, false);
      }
    } else if (valid_symbols[INDENT] && column > current) {
      push_indent(scanner, column, 0);
      return emit_line_token(scanner, lexer, INDENT, column, false);
    } else if (valid_symbols[INDENT] && !valid_symbols[NEWLINE]) {
      /* A header's NEWLINE came, but its block is not indented (or the file ends). A
       * statement start is what the parser cannot take here; its recovery then wraps the
       * header, and only it, in an ERROR and reads the next line as the next statement. */
      return emit_line_token(scanner, lexer, STATEMENT_START, column, false);
    } else if (valid_symbols[NEWLINE] && !within_brackets) {
      return emit_line_token(scanner, lexer, NEWLINE, column, true);
    } else if (valid_symbols[DEDENT] && dedent) {
      scanner->count--;
      return emit_line_token(scanner, lexer, DEDENT, column, true);
    } else if (valid_symbols[STATEMENT_START]) {
      if (column > current && !at_eof) {
        if (at_line_start) {
          /* A stray indent (or a dedent to a column no block has) where a statement should
           * start: the whole physical line becomes one token that no rule takes, so the
           * parser wraps that line, and only it, in an ERROR. (A zero-width token would make
           * the parser's recovery wrap the statement before it instead, and an INDENT would
           * be taken as the start of a block.) */
          while (!lexer->eof(lexer) && lexer->lookahead != '\n' && lexer->lookahead != '\r') {
            advance(lexer);
          }
          lexer->mark_end(lexer);
          push_indent(scanner, column, STRAY_LEVEL);
          scanner->at_line_start = false;
          lexer->result_symbol = UNEXPECTED_INDENT;
          return true;
        }
        /* A deeper line where a statement starts, but not right after a NEWLINE: the parser
         * has recovered from an error, typically a header that lost its `:` and was wrapped
         * in an ERROR, and this is its body. Read the body as statements of the current block
         * without further errors: push it as a stray level, with a valid empty token. */
        push_indent(scanner, column, STRAY_LEVEL);
        return emit_line_token(scanner, lexer, STATEMENT_START, column, false);
      }
    } else if (!at_line_start) {
      /* The line cannot end here: it is inside brackets, or a statement is incomplete. */
      if (at_eof) {
        /* End the last line anyway; the parser inserts what is missing (`)`, a name). */
        return emit_line_token(scanner, lexer, NEWLINE, column, false);
      }
      bool expects_operand = valid_symbols[STRING_START];
      if (column <= current) {
        /* A line at or left of the current block's indent that starts like a statement ends
         * the logical line: an unclosed `(` then gets a MISSING `)` (TEXT_FORMAT 5.5), a
         * half-typed `x = R.` a MISSING name, instead of swallowing the lines below. */
        switch (read_line_start(lexer)) {
          case LINE_STATEMENT:
            return emit_line_token(scanner, lexer, NEWLINE, column, false);
          case LINE_STRING:
            if (!expects_operand || first_comment_column >= 0) return false;
            scanner->at_line_start = false;
            return scan_opening_quote(scanner, lexer);
          case LINE_OTHER:
            break;
        }
        /* Dedented in the middle of a statement outside brackets: close the block. */
        if (dedent && !within_brackets && !expects_operand) {
          scanner->count--;
          return emit_line_token(scanner, lexer, DEDENT, column, false);
        }
        return false;
      }
    }
  }

  /* A string start. After skipped comment lines, return first so the comment gets lexed. */
  if (valid_symbols[STRING_START] && first_comment_column < 0 && scan_string_start(scanner, lexer)) {
    scanner->at_line_start = false;
    return true;
  }
  return false;
}

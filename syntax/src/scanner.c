/*
 * External scanner of the relax grammar: logical lines, indentation, strings, and the
 * line-level error recovery of TEXT_FORMAT 5.5.
 *
 * Tokens (the order of `externals` in grammar.js):
 *   _newline, _indent, _dedent   Python's NEWLINE, INDENT and DEDENT, all empty. A NEWLINE or
 *                                INDENT has the line break in its padding, so it sits at column 0
 *                                of the next line; the DEDENTs follow it there, one per call.
 *   string_start                 an optional prefix (r, b, u, f, t, rb, ...) and the opening quote
 *   string_content               everything up to the closing quote, escapes included, in one
 *                                token: a 50 KB metadata string is one linear scan, no inner nodes
 *   string_end                   the closing quote(s)
 *   comment                      never produced (the internal lexer lexes comments); being an
 *                                extra it is valid in every state, so the scanner runs everywhere
 *   ')' ']' '}'                  never produced; valid only inside brackets, where line ends and
 *                                indentation do not count
 *   _statement_start             valid where a statement may start; produced only as a recovery
 *                                token (see below)
 *   _header_end                  never produced; valid only where a header's `:` may come
 *   _error_sentinel              never produced; valid only during error recovery
 *   _unexpected_indent           a whole line indented where no block opens; no rule takes it,
 *                                so it always ends up alone in an ERROR node
 *
 * Policy:
 *  - Blank lines and comment-only lines produce nothing. A comment line only counts for a
 *    DEDENT when the comment itself is dedented, so a comment at a lower indent inside a block
 *    does not close it, and a comment at the block's indent after its last statement stays in
 *    the block.
 *  - Tabs advance to the next multiple of 8; a form feed resets the column; `\r` is ignored, so
 *    CRLF files scan like LF files; a BOM is skipped. A `\` before a line end (explicit line
 *    joining) is whitespace, as for the internal lexer: the logical line goes on.
 *  - At the end of input: the pending NEWLINE, then one DEDENT per open block.
 *  - Incremental parsing: the parser reuses an old subtree only when the scanner state in front
 *    of it is unchanged, and it tries the subtree that starts at its position before lexing
 *    anything there. So the state holds no per-line data (the indent stack, the open string's
 *    delimiter, and one bit set only before DEDENTs or a stray indent), and no empty line token
 *    shares its byte with the start of the statement after it: the line break that separates
 *    them is in the token's padding.
 *
 * Error recovery (each case has a test in test/corpus/errors.txt):
 *  - A header without its `:` (`def f(x) -> R.Tensor`): with an indented body below, an INDENT,
 *    on which the parser inserts a MISSING ":" and reads the body as the header's block (see
 *    _header_colon in grammar.js). Without one, the line break and the next line's indentation
 *    become a _statement_start token, which the parser can only take where a statement starts:
 *    it wraps the header in an ERROR.
 *  - A header's `:` without an indented block: a _statement_start token, same recovery.
 *  - Stray indent, or a dedent to a column no open block has: where a statement should start,
 *    the whole physical line becomes an _unexpected_indent token. The parser wraps that line,
 *    and only it, in an ERROR. The column is pushed as a stray level: the lines after it at
 *    that column read as statements of the current block, and leaving it emits no DEDENT. A
 *    deeper line where a statement starts after the parser recovered from an error (typically
 *    the body of a header that went into an ERROR) becomes a stray level silently.
 *  - Inside brackets or in an unfinished statement, a line at or left of the current block's
 *    indent that starts like a statement (a statement keyword, `@`, or a name) ends the logical
 *    line anyway: an unclosed `(` gets a MISSING `)`, a half-typed `y =` a MISSING name, instead
 *    of swallowing the lines below (TEXT_FORMAT 5.5 names the keywords `def`, `@`, `class`,
 *    `return`, `with`, `for`, `if`; names are our addition, since bindings are the most common
 *    Relax statement). Valid code that continues a bracket at or left of its statement's own
 *    indent with such a line (PEP 8 forbids it; no formatter writes it) is misread.
 *  - An unterminated string ends at its line end with a NEWLINE; the parser inserts a MISSING
 *    string_end. At the end of input, an unfinished line gets its NEWLINE.
 *  - A dedent in an unfinished statement outside brackets still closes the block.
 *  - During error recovery only DEDENTs are produced (no INDENT, so the indent stack stays
 *    consistent with the blocks the parser has).
 *
 * Limits: at most MAX_INDENTS - 1 (255) nested blocks (CPython allows 100), columns up to
 * MAX_COLUMN (8,388,607), so that the serialized state (3 bytes a level) fits tree-sitter's
 * 1024-byte buffer. A block that would need one more level, or a line indented past MAX_COLUMN
 * where it would open a level, is not pushed: the whole region (that line and every deeper line
 * after it) becomes one indent_overflow token, so the stack always matches the blocks the parser
 * has and memory stays bounded. (Emitting an INDENT without its level made the parser loop on
 * empty tokens until memory ran out.) The five functions at the end are the whole interface; no
 * allocation happens after create().
 */

#include "scanner_limits.h"
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
  INDENT_OVERFLOW,
};

/* Serialized as 2 header bytes and 3 bytes a level: at most 2 + 3 * 255 = 767 bytes, within
 * tree-sitter's 1024-byte buffer (TREE_SITTER_SERIALIZATION_BUFFER_SIZE). */
#define MAX_INDENTS RELAX_SCANNER_MAX_INDENTS
#define LEVEL_BYTES 3
/* Compile-time checks (C99 has no static_assert): the level count fits its byte, the state the
 * buffer. */
typedef char level_count_fits_a_byte[(MAX_INDENTS - 1 <= 255) ? 1 : -1];
typedef char state_fits_the_buffer
    [(2 + LEVEL_BYTES * (MAX_INDENTS - 1) <= TREE_SITTER_SERIALIZATION_BUFFER_SIZE) ? 1 : -1];

/* Delimiter bits. */
#define DELIM_DOUBLE 0x01 /* '"' rather than '\'' */
#define DELIM_TRIPLE 0x02
#define DELIM_ACTIVE 0x04

/* An indent level the parser saw no INDENT for (a stray indent, or the body of a header that
 * lost its `:`): lines at that column read as statements of the enclosing block, and it is
 * closed without a DEDENT. Columns are kept below this bit. */
#define STRAY_LEVEL 0x800000u
#define MAX_COLUMN RELAX_SCANNER_MAX_COLUMN

typedef struct {
  uint32_t indents[MAX_INDENTS]; /* columns, maybe | STRAY_LEVEL; indents[0] == 0 always */
  uint16_t count;                /* >= 1, <= MAX_INDENTS */
  uint8_t delimiter;             /* DELIM_* bits of the open string, 0 outside strings */
  /* Set by a NEWLINE or DEDENT when the next line's indentation still calls for work: more
   * DEDENTs, or a stray indent to report. The next call then starts at column 0 of that line.
   * Clear everywhere else, so the states after two NEWLINEs in one block compare equal. */
  bool line_start_pending;
} Scanner;

static inline void advance(TSLexer* lexer) {
  lexer->advance(lexer, false);
}
static inline void skip(TSLexer* lexer) {
  lexer->advance(lexer, true);
}

static inline bool is_identifier_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

static inline int32_t ascii_lower(int32_t c) {
  return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* A string prefix, in any case: one of r b u f t, or two of them with an r (rb, br, rf, ...). */
static bool is_string_prefix(const char* word, unsigned length) {
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

static bool word_in(const char* word, unsigned length, const char* const* list, unsigned count) {
  for (unsigned i = 0; i < count; i++) {
    if (strlen(list[i]) == length && memcmp(list[i], word, length) == 0) return true;
  }
  return false;
}

/* Keywords that start a statement. */
static bool is_statement_keyword(const char* word, unsigned length) {
  static const char* const keywords[] = {"def", "class", "return", "with",  "for",
                                         "if",  "while", "pass",   "assert"};
  return word_in(word, length, keywords, sizeof(keywords) / sizeof(keywords[0]));
}

/* Words that continue an expression on a new line rather than start a statement. */
static bool is_continuation_word(const char* word, unsigned length) {
  static const char* const words[] = {"else",  "in",    "and",  "or",     "not",    "is",
                                      "as",    "from",  "True", "False",  "None",   "lambda",
                                      "await", "yield", "elif", "except", "finally"};
  return word_in(word, length, words, sizeof(words) / sizeof(words[0]));
}

/*
 * Reads an identifier-like word (ASCII, at most 7 characters kept) by advancing the lexer;
 * returns its length, or 8 when it is longer than 7 or not plain ASCII.
 */
static unsigned read_word(TSLexer* lexer, char word[8]) {
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
static bool scan_opening_quote(Scanner* scanner, TSLexer* lexer) {
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
static enum LineStart read_line_start(TSLexer* lexer) {
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
static bool scan_string_body(Scanner* scanner, TSLexer* lexer) {
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

void* tree_sitter_relax_external_scanner_create(void) {
  Scanner* scanner = calloc(1, sizeof(Scanner));
  if (scanner) scanner->count = 1;
  return scanner;
}

void tree_sitter_relax_external_scanner_destroy(void* payload) {
  free(payload);
}

unsigned tree_sitter_relax_external_scanner_serialize(void* payload, char* buffer) {
  Scanner* scanner = (Scanner*)payload;
  unsigned size = 0;
  buffer[size++] = (char)(scanner->delimiter | (scanner->line_start_pending ? 0x80 : 0));
  /* indents[0] is always 0 and is not stored; count <= MAX_INDENTS, so levels fit a byte. */
  unsigned levels = scanner->count - 1u;
  buffer[size++] = (char)(uint8_t)levels;
  for (unsigned i = 1; i <= levels; i++) {
    for (unsigned b = 0; b < LEVEL_BYTES; b++) {
      buffer[size++] = (char)((scanner->indents[i] >> (8 * b)) & 0xff);
    }
  }
  return size;
}

void tree_sitter_relax_external_scanner_deserialize(void* payload, const char* buffer,
                                                    unsigned length) {
  Scanner* scanner = (Scanner*)payload;
  scanner->delimiter = 0;
  scanner->line_start_pending = false;
  scanner->count = 1;
  scanner->indents[0] = 0;
  if (length < 2) return;
  scanner->delimiter = (uint8_t)buffer[0] & 0x7f;
  scanner->line_start_pending = ((uint8_t)buffer[0] & 0x80) != 0;
  unsigned levels = (uint8_t)buffer[1];
  unsigned pos = 2;
  for (unsigned i = 0; i < levels && pos + LEVEL_BYTES <= length && scanner->count < MAX_INDENTS;
       i++) {
    uint32_t level = 0;
    for (unsigned b = 0; b < LEVEL_BYTES; b++) {
      level |= (uint32_t)(uint8_t)buffer[pos++] << (8 * b);
    }
    scanner->indents[scanner->count++] = level;
  }
}

/* Whether a level at `column` fits the stack (see Limits). Every push checks it first. */
static inline bool can_push(const Scanner* scanner, uint32_t column) {
  return scanner->count < MAX_INDENTS && column <= MAX_COLUMN;
}

static void push_indent(Scanner* scanner, uint32_t column, uint32_t flags) {
  scanner->indents[scanner->count++] = column | flags;
}

/* Counts a space or a tab at `column`, saturating just past MAX_COLUMN. */
static inline uint32_t advance_column(uint32_t column, int32_t c) {
  if (column > MAX_COLUMN) return column;
  return c == '\t' ? (column / 8 + 1) * 8 : column + 1;
}

static inline uint32_t current_indent(const Scanner* scanner) {
  return scanner->indents[scanner->count - 1] & MAX_COLUMN;
}

static inline bool emit(TSLexer* lexer, enum TokenType token) {
  lexer->result_symbol = token;
  return true;
}

/* Scans a string start (prefix and quotes) at the lookahead, if there is one. */
static bool scan_string_start(Scanner* scanner, TSLexer* lexer) {
  int32_t c = lexer->lookahead;
  if (c == '"' || c == '\'') return scan_opening_quote(scanner, lexer);
  if (!is_identifier_char(c) || (c >= '0' && c <= '9')) return false;
  char word[8];
  unsigned length = read_word(lexer, word);
  return length <= 2 && is_string_prefix(word, length) && scan_opening_quote(scanner, lexer);
}

/*
 * A level the stack cannot hold (see Limits), the lexer standing in a line deeper than the
 * current indent: that line and every line after it that is deeper still become one
 * indent_overflow token, which ends after the last of them. Blank lines and deeper comment
 * lines inside the region are part of it; the line that ends it is left to the next call.
 */
static bool scan_indent_overflow(Scanner* scanner, TSLexer* lexer) {
  uint32_t floor = current_indent(scanner);
  for (;;) {
    while (!lexer->eof(lexer) && lexer->lookahead != '\n') advance(lexer);
    lexer->mark_end(lexer);
    uint32_t column = 0;
    for (;;) {
      if (lexer->eof(lexer)) return emit(lexer, INDENT_OVERFLOW);
      int32_t c = lexer->lookahead;
      if (c == '\n' || c == '\f') {
        column = 0;
      } else if (c == ' ' || c == '\t') {
        column = advance_column(column, c);
      } else if (c != '\r' && c != 0xFEFF) {
        break;
      }
      advance(lexer);
    }
    if (column <= floor) return emit(lexer, INDENT_OVERFLOW);
  }
}

/*
 * Where a header's `:` may come and the line ends instead (`def f(x) -> R.Tensor`, `if c`).
 * With an indented body below, an INDENT: the parser inserts a MISSING ":" (see _header_colon
 * in grammar.js) and parses the body as the header's block. Without one, the line break and the
 * next line's indentation become one _statement_start token, which the parser can take only
 * where a statement starts; its recovery wraps the header in an ERROR.
 */
static bool scan_missing_colon(Scanner* scanner, TSLexer* lexer) {
  lexer->mark_end(lexer);
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t' || lexer->lookahead == '\f' ||
         lexer->lookahead == '\r') {
    advance(lexer);
  }
  if (lexer->lookahead != '\n' && !lexer->eof(lexer)) return false;
  uint32_t column = 0;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) {
      column = 0;
      break;
    }
    if (c == '\n' || c == '\f') {
      column = 0;
    } else if (c == ' ' || c == '\t') {
      column = advance_column(column, c);
    } else if (c == '#') {
      while (!lexer->eof(lexer) && lexer->lookahead != '\n') advance(lexer);
      continue;
    } else if (c != '\r') {
      break;
    }
    advance(lexer);
  }
  if (column > current_indent(scanner) && !lexer->eof(lexer)) {
    if (!can_push(scanner, column)) return scan_indent_overflow(scanner, lexer);
    push_indent(scanner, column, 0);
    return emit(lexer, INDENT); /* empty, at the end of the header line */
  }
  lexer->mark_end(lexer);
  return emit(lexer, STATEMENT_START);
}

/* Consumes the rest of the physical line as an _unexpected_indent token (see the header). */
static bool scan_stray_line(Scanner* scanner, TSLexer* lexer, uint32_t column) {
  if (!can_push(scanner, column)) return scan_indent_overflow(scanner, lexer);
  while (!lexer->eof(lexer) && lexer->lookahead != '\n' && lexer->lookahead != '\r') {
    advance(lexer);
  }
  lexer->mark_end(lexer);
  push_indent(scanner, column, STRAY_LEVEL);
  return emit(lexer, UNEXPECTED_INDENT);
}

bool tree_sitter_relax_external_scanner_scan(void* payload, TSLexer* lexer,
                                             const bool* valid_symbols) {
  Scanner* scanner = (Scanner*)payload;
  bool error_recovery = valid_symbols[ERROR_SENTINEL];
  bool within_brackets =
      !error_recovery &&
      (valid_symbols[CLOSE_PAREN] || valid_symbols[CLOSE_BRACKET] || valid_symbols[CLOSE_BRACE]);

  if (!error_recovery && (scanner->delimiter & DELIM_ACTIVE) &&
      (valid_symbols[STRING_CONTENT] || valid_symbols[STRING_END])) {
    return scan_string_body(scanner, lexer);
  }

  /* (The parse table merges some states, so a header's `:` can be valid where a statement may
   * also end; a NEWLINE there is no error.) */
  if (!error_recovery && valid_symbols[HEADER_END] && !within_brackets &&
      !valid_symbols[STRING_START] && !valid_symbols[NEWLINE]) {
    return scan_missing_colon(scanner, lexer);
  }

  /* A NEWLINE or INDENT takes the line break into its padding, so it sits at column 0 of the
   * next line; DEDENTs and the next statement follow there. (Tokens at the end of the line, at
   * the byte where the next statement's padding starts, defeat subtree reuse: after an edit at
   * a line's end the parser tries the next statement before re-lexing the tokens before it,
   * finds a different scanner state and skips the rest of the block.) */
  bool takes_line_break =
      !error_recovery && !within_brackets && (valid_symbols[NEWLINE] || valid_symbols[INDENT]);
  bool line_start_pending = scanner->line_start_pending;
  scanner->line_start_pending = false;

  /* Skip whitespace, line ends and comment-only lines, measuring the indentation of the next
   * line with code. Skipped text is padding: a token returned below is empty, at the mark. */
  lexer->mark_end(lexer);
  bool found_end_of_line = false;
  bool at_eof = false;
  uint32_t column = 0;
  int32_t first_comment_column = -1;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      skip(lexer);
      if (!found_end_of_line && takes_line_break) lexer->mark_end(lexer);
      found_end_of_line = true;
      column = 0;
    } else if (c == ' ' || c == '\t') {
      column = advance_column(column, c);
      skip(lexer);
    } else if (c == '\f') {
      column = 0;
      skip(lexer);
    } else if (c == '\r' || c == 0xFEFF) {
      skip(lexer);
    } else if (c == '\\' && !found_end_of_line) {
      /* A `\` continuation joins the next line to this one: whitespace, not a line end (the
       * internal lexer skips it the same way; skipping it here lets a string start or a line
       * token be found after it). A backslash not before a line end is left to the lexer. */
      skip(lexer);
      if (lexer->lookahead == '\r') skip(lexer);
      if (lexer->lookahead != '\n') return false;
      skip(lexer);
    } else if (c == '#') {
      /* A comment after code on the same line is left to the internal lexer. */
      if (!found_end_of_line && !line_start_pending) return false;
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

  if (found_end_of_line || line_start_pending) {
    /* Leave the stray levels the line is left of, silently. */
    while (column < current_indent(scanner) &&
           (scanner->indents[scanner->count - 1] & STRAY_LEVEL)) {
      scanner->count--;
    }
    uint32_t current = current_indent(scanner);
    bool dedent = column < current && (int32_t)current > first_comment_column;

    if (error_recovery) {
      if (dedent) {
        scanner->count--;
        return emit(lexer, DEDENT);
      }
    } else if (valid_symbols[INDENT] && found_end_of_line) {
      /* After a header's `:`: its block, or (not indented, or the end of input) the
       * missing-block recovery. */
      if (column > current) {
        if (!can_push(scanner, column)) return scan_indent_overflow(scanner, lexer);
        push_indent(scanner, column, 0);
        return emit(lexer, INDENT);
      }
      return emit(lexer, STATEMENT_START);
    } else if (valid_symbols[NEWLINE] && !within_brackets && found_end_of_line) {
      /* The end of a statement. A shallower next line calls for DEDENTs, a deeper one is a
       * stray indent. */
      scanner->line_start_pending = column != current;
      return emit(lexer, NEWLINE);
    } else if (valid_symbols[DEDENT] && dedent) {
      scanner->count--;
      scanner->line_start_pending = column != current_indent(scanner);
      return emit(lexer, DEDENT);
    } else if (valid_symbols[STATEMENT_START]) {
      if (dedent && !at_eof) {
        /* Dedented where no block may end (a `def` left of its decorator): a DEDENT the
         * parser cannot take here. */
        scanner->count--;
        scanner->line_start_pending = column != current_indent(scanner);
        return emit(lexer, DEDENT);
      }
      if (column > current && !at_eof) {
        if (line_start_pending) return scan_stray_line(scanner, lexer, column);
        if (found_end_of_line) {
          /* A deeper line where a statement starts, not right after a NEWLINE: the parser
           * has recovered from an error, typically a header that lost its `:` and went into
           * an ERROR, and this is its body. Read it as statements of the current block: push
           * a stray level, with an empty token the parser takes. */
          if (!can_push(scanner, column)) return scan_indent_overflow(scanner, lexer);
          push_indent(scanner, column, STRAY_LEVEL);
          return emit(lexer, STATEMENT_START);
        }
      }
    } else if (!found_end_of_line) {
      /* A pending line start in a state that takes no line token: nothing to do. */
    } else if (at_eof) {
      /* An unfinished line at the end of input: end it; the parser inserts what is missing. */
      return emit(lexer, NEWLINE);
    } else if (column <= current) {
      /* Inside brackets, or in an unfinished statement: a line that starts like a statement
       * ends the logical line (see the header). */
      bool expects_operand = valid_symbols[STRING_START];
      switch (read_line_start(lexer)) {
        case LINE_STATEMENT:
          return emit(lexer, NEWLINE);
        case LINE_STRING:
          return expects_operand && first_comment_column < 0 && scan_opening_quote(scanner, lexer);
        case LINE_OTHER:
          break;
      }
      if (dedent && !within_brackets && !expects_operand) {
        scanner->count--;
        return emit(lexer, DEDENT);
      }
      return false;
    }
  }

  /* A string start. After skipped comment lines, return first so that the comment is lexed. */
  return valid_symbols[STRING_START] && first_comment_column < 0 &&
         scan_string_start(scanner, lexer);
}

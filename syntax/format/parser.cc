// The formatter's own parser: builds the formatter's tree (ast.h) straight from the text, with
// the node ranges tree-sitter's CST would give, so that formatting does not pay for a full
// concrete syntax tree. It covers the Python subset TVMScript files are written in and gives up
// (returns nullptr) on anything else -- comprehensions, async, yield/await, try, del, raise,
// global, type parameters, f-strings, walrus, tabs in indentation, non-ASCII names, syntax errors
// -- and the caller then builds the tree from tree-sitter's CST as before. tests/format checks
// that both builders give the same tree on every known file.
#include <cstring>

#include "ir/depth_limit.h"
#include "syntax/format/ast.h"
#include "syntax/format/literals.h"

namespace relax::syntax::format {

namespace {

enum class Tk : uint8_t { kName, kNumber, kString, kOp, kNewline, kIndent, kDedent, kEnd };

struct Token {
  Tk kind;
  uint32_t start, end;
};

struct GiveUp {};
// Nesting deeper than ir::kFormatNesting: the parser stops before it recurses further.
struct TooDeep {};

bool name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool name_char(char c) {
  return name_start(c) || (c >= '0' && c <= '9');
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}

using namespace std::string_view_literals;

// Python's keywords (soft keywords such as `match` and `type` are names).
bool is_keyword(std::string_view s) {
  switch (s.size()) {
    case 2:
      return s == "as"sv || s == "if"sv || s == "in"sv || s == "is"sv || s == "or"sv;
    case 3:
      return s == "and"sv || s == "def"sv || s == "del"sv || s == "for"sv || s == "not"sv ||
             s == "try"sv;
    case 4:
      return s == "elif"sv || s == "else"sv || s == "from"sv || s == "None"sv || s == "pass"sv ||
             s == "True"sv || s == "with"sv;
    case 5:
      return s == "async"sv || s == "await"sv || s == "break"sv || s == "class"sv ||
             s == "False"sv || s == "raise"sv || s == "while"sv || s == "yield"sv;
    case 6:
      return s == "assert"sv || s == "except"sv || s == "global"sv || s == "import"sv ||
             s == "lambda"sv || s == "return"sv;
    case 7:
      return s == "finally"sv;
    case 8:
      return s == "continue"sv || s == "nonlocal"sv;
    default:
      return false;
  }
}

// Python's tokenizer, reduced to what the parser needs: names, numbers, strings, operators,
// logical line ends and indentation changes. Comments are collected on the side.
class Tokenizer {
 public:
  Tokenizer(std::string_view src, std::vector<SourceComment>& comments)
      : src_(src), comments_(comments) {}

  void run(std::vector<Token>& out) {
    out.reserve(src_.size() / 4);
    std::vector<uint32_t> indents{0};
    size_t i = 0, n = src_.size();
    int depth = 0;
    bool line_start = true;
    bool line_has_tokens = false;
    // A line that continues a logical line (inside brackets, or after a `\`), and where it
    // starts, until its first token is seen.
    bool continuation = false, joined = false;
    size_t continuation_start = 0;
    while (true) {
      if (line_start && depth == 0) {
        // Measure the indentation of the next line with a token.
        uint32_t col = 0;
        size_t j = i;
        while (j < n && src_[j] == ' ') {
          ++col;
          ++j;
        }
        if (j < n && (src_[j] == '\t' || src_[j] == '\f')) throw GiveUp{};
        if (j >= n) {
          i = j;
          break;
        }
        char c = src_[j];
        if (c == '\n' || c == '\r' || c == '#') {
          // A blank or comment-only line.
          i = j;
          if (c == '#') comment(i);
          skip_newline(i);
          continue;
        }
        if (c == '\\') throw GiveUp{};
        i = j;
        if (col > indents.back()) {
          indents.push_back(col);
          out.push_back({Tk::kIndent, static_cast<uint32_t>(i), static_cast<uint32_t>(i)});
        } else {
          while (col < indents.back()) {
            indents.pop_back();
            out.push_back({Tk::kDedent, static_cast<uint32_t>(i), static_cast<uint32_t>(i)});
          }
          if (col != indents.back()) throw GiveUp{};
        }
        line_start = false;
      }
      if (i >= n) break;
      char c = src_[i];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++i;
        continue;
      }
      if (c == '\n' || c == '\r') {
        if (depth == 0) {
          if (line_has_tokens)
            out.push_back({Tk::kNewline, static_cast<uint32_t>(i), static_cast<uint32_t>(i)});
          line_has_tokens = false;
          line_start = true;
        }
        skip_newline(i);
        if (depth > 0) {
          continuation = true;
          continuation_start = i;
        }
        continue;
      }
      if (c == '#') {
        comment(i);
        continue;
      }
      if (c == '\\') {
        // (A continuation line that starts with one: tree-sitter's.)
        if (continuation) throw GiveUp{};
        size_t j = i + 1;
        if (j < n && src_[j] == '\r') ++j;
        if (j < n && src_[j] == '\n') {
          i = j + 1;
          continuation = true;
          joined = depth == 0;
          continuation_start = i;
          continue;
        }
        throw GiveUp{};
      }
      if (continuation) {
        continuation = false;
        check_continuation(continuation_start, i, indents.back(), joined);
        joined = false;
      }
      line_has_tokens = true;
      uint32_t start = static_cast<uint32_t>(i);
      if (name_start(c)) {
        size_t j = i + 1;
        while (j < n && name_char(src_[j])) ++j;
        if (j < n && (src_[j] == '"' || src_[j] == '\'') && j - i <= 2 && string_prefix(i, j)) {
          i = string_end(j);
          out.push_back({Tk::kString, start, static_cast<uint32_t>(i)});
          continue;
        }
        if (j < n && static_cast<unsigned char>(src_[j]) >= 0x80) throw GiveUp{};
        i = j;
        out.push_back({Tk::kName, start, static_cast<uint32_t>(i)});
        continue;
      }
      if (digit(c) || (c == '.' && i + 1 < n && digit(src_[i + 1]))) {
        i = number_end(i);
        out.push_back({Tk::kNumber, start, static_cast<uint32_t>(i)});
        continue;
      }
      if (c == '"' || c == '\'') {
        i = string_end(i);
        out.push_back({Tk::kString, start, static_cast<uint32_t>(i)});
        continue;
      }
      if (static_cast<unsigned char>(c) >= 0x80) throw GiveUp{};
      size_t len = op_length(i);
      if (len == 0) throw GiveUp{};
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) throw GiveUp{};
        --depth;
      }
      i += len;
      out.push_back({Tk::kOp, start, static_cast<uint32_t>(i)});
    }
    if (depth != 0) throw GiveUp{};
    uint32_t end = static_cast<uint32_t>(n);
    if (line_has_tokens) out.push_back({Tk::kNewline, end, end});
    while (indents.size() > 1) {
      indents.pop_back();
      out.push_back({Tk::kDedent, end, end});
    }
    out.push_back({Tk::kEnd, end, end});
  }

 private:
  // tree-sitter's scanner ends the logical line at a continuation line at or left of the
  // block's indentation that starts like a statement (`@`, a name or keyword), and closes the
  // block at one left of it after a `\` outside brackets (syntax/src/scanner.c); Python would
  // read on. Such files, tabs and form feeds there included, are left to tree-sitter, which
  // decides whether they have errors.
  void check_continuation(size_t line, size_t first, uint32_t block_indent, bool joined) const {
    for (size_t k = line; k < first; ++k) {
      if (src_[k] != ' ') throw GiveUp{};
    }
    size_t column = first - line;
    char c = src_[first];
    if (column <= block_indent && (c == '@' || name_start(c))) throw GiveUp{};
    if (joined && column < block_indent) throw GiveUp{};
  }

  void skip_newline(size_t& i) {
    if (i < src_.size() && src_[i] == '\r') ++i;
    if (i < src_.size() && src_[i] == '\n') ++i;
  }

  void comment(size_t& i) {
    SourceComment c;
    c.start = static_cast<uint32_t>(i);
    size_t j = i;
    while (j < src_.size() && src_[j] != '\n' && src_[j] != '\r') ++j;
    size_t e = j;
    while (e > i && (src_[e - 1] == ' ' || src_[e - 1] == '\t' || src_[e - 1] == '\f')) --e;
    c.end = static_cast<uint32_t>(e);
    uint32_t p = c.start;
    bool own = true;
    while (p > 0) {
      char ch = src_[p - 1];
      if (ch == '\n') break;
      if (ch != ' ' && ch != '\t' && ch != '\f' && ch != '\r') {
        own = false;
        break;
      }
      --p;
    }
    c.own_line = own;
    comments_.push_back(c);
    i = j;
  }

  // A string prefix: r, u, b, br, rb (any case). f- and t-strings are left to tree-sitter.
  bool string_prefix(size_t i, size_t j) const {
    bool r = false, b = false, u = false;
    for (size_t k = i; k < j; ++k) {
      char c = static_cast<char>(src_[k] | 0x20);
      if (c == 'r' && !r) {
        r = true;
      } else if (c == 'b' && !b && !u) {
        b = true;
      } else if (c == 'u' && !u && !b && !r && j - i == 1) {
        u = true;
      } else {
        if (c == 'f' || c == 't') throw GiveUp{};
        return false;
      }
    }
    return true;
  }

  size_t string_end(size_t q) const {
    size_t n = src_.size();
    char quote = src_[q];
    bool triple = q + 2 < n && src_[q + 1] == quote && src_[q + 2] == quote;
    size_t i = q + (triple ? 3 : 1);
    while (i < n) {
      char c = src_[i];
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (!triple && (c == '\n' || c == '\r')) throw GiveUp{};
      if (c == quote) {
        if (!triple) return i + 1;
        if (i + 2 < n && src_[i + 1] == quote && src_[i + 2] == quote) return i + 3;
      }
      ++i;
    }
    throw GiveUp{};
  }

  size_t number_end(size_t i) const {
    size_t n = src_.size();
    bool hex = src_[i] == '0' && i + 1 < n && (src_[i + 1] == 'x' || src_[i + 1] == 'X');
    size_t j = i;
    while (j < n) {
      char c = src_[j];
      if (name_char(c) || c == '.') {
        if (c == '.' && j + 1 < n && src_[j + 1] == '.') break;  // (not `1..`)
        ++j;
        continue;
      }
      if ((c == '+' || c == '-') && !hex && j > i && (src_[j - 1] == 'e' || src_[j - 1] == 'E')) {
        ++j;
        continue;
      }
      break;
    }
    // Only what the grammar's `integer` and `float` tokens match (`0x`, `1e`, `1_`, `1l` are
    // syntax errors there); plain words glued to a number (`1if`) are left to tree-sitter.
    if (!valid_number(src_.substr(i, j - i))) throw GiveUp{};
    return j;
  }

  // One whole literal, as syntax/grammar.js has them: `0x`/`0o`/`0b` and digits, or a decimal
  // with a fraction and an exponent as floats have them, and an optional `j`. Underscores only
  // between digits (and after the prefix).
  static bool valid_number(std::string_view s) {
    size_t i = 0, n = s.size();
    auto digits = [&](bool (*is_digit)(char), bool after_prefix) {
      bool any = false;
      while (i < n) {
        if (s[i] == '_' && (any || after_prefix) && i + 1 < n && is_digit(s[i + 1])) {
          i += 2;
        } else if (is_digit(s[i])) {
          ++i;
        } else {
          break;
        }
        any = true;
      }
      return any;
    };
    auto dec = [](char c) { return c >= '0' && c <= '9'; };
    if (n >= 2 && s[0] == '0' && std::strchr("xXoObB", s[1]) != nullptr) {
      char p = static_cast<char>(s[1] | 0x20);
      auto hex = [](char c) {
        return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
      };
      auto oct = [](char c) { return c >= '0' && c <= '7'; };
      auto bin = [](char c) { return c == '0' || c == '1'; };
      i = 2;
      bool any = digits(p == 'x' ? +hex : p == 'o' ? +oct : +bin, true);
      return any && i == n;
    }
    bool whole = digits(+dec, false);
    if (i < n && s[i] == '.') {
      ++i;
      bool fraction = digits(+dec, false);
      if (!whole && !fraction) return false;
    } else if (!whole) {
      return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
      if (!digits(+dec, false)) return false;
    }
    if (i < n && (s[i] == 'j' || s[i] == 'J')) ++i;
    return i == n;
  }

  size_t op_length(size_t i) const {
    char c = src_[i];
    char d = i + 1 < src_.size() ? src_[i + 1] : '\0';
    char e = i + 2 < src_.size() ? src_[i + 2] : '\0';
    switch (c) {
      case '(':
      case ')':
      case '[':
      case ']':
      case '{':
      case '}':
      case ',':
      case ';':
      case '~':
        return 1;
      case '.':
        return d == '.' && e == '.' ? 3 : 1;
      case ':':
        return d == '=' ? 2 : 1;
      case '*':
      case '/':
      case '<':
      case '>':
        // `**`, `//`, `<<`, `>>`, each with an optional `=`; `<=`, `>=`, `*=`, `/=`.
        if (d == c) return e == '=' ? 3 : 2;
        return d == '=' ? 2 : 1;
      case '-':
        return d == '>' || d == '=' ? 2 : 1;
      case '=':
      case '!':
        if (d == '=') return 2;
        return c == '=' ? 1 : 0;
      case '+':
      case '%':
      case '&':
      case '|':
      case '^':
      case '@':
        return d == '=' ? 2 : 1;
      default:
        return 0;
    }
  }

  std::string_view src_;
  std::vector<SourceComment>& comments_;
};

}  // namespace

class Parser {
 public:
  Parser(Ast& ast) : ast_(ast), src_(ast.source_) {}

  void run() {
    Tokenizer(src_, ast_.comments_).run(toks_);
    ast_.nodes_.reserve(toks_.size() * 3 / 4 + 16);
    int32_t module = ast_.add(NodeType::kModule, 0, static_cast<uint32_t>(src_.size()));
    std::vector<int32_t> body;
    while (kind() != Tk::kEnd) statement(body);
    ast_.node(module).list = ast_.store(body);
    ast_.set_parents(module);
  }

 private:
  // ---- tokens ----
  const Token& tok() const { return toks_[pos_]; }
  Tk kind() const { return toks_[pos_].kind; }
  std::string_view text() const { return text(toks_[pos_]); }
  std::string_view text(const Token& t) const { return src_.substr(t.start, t.end - t.start); }
  const Token& peek(size_t k = 1) const {
    size_t p = std::min(pos_ + k, toks_.size() - 1);
    return toks_[p];
  }
  bool is_op(std::string_view op) const { return kind() == Tk::kOp && text() == op; }
  bool is_kw(std::string_view kw) const { return kind() == Tk::kName && text() == kw; }
  const Token& next() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  const Token& expect_op(std::string_view op) {
    if (!is_op(op)) throw GiveUp{};
    return next();
  }
  const Token& expect_kw(std::string_view kw) {
    if (!is_kw(kw)) throw GiveUp{};
    return next();
  }
  uint32_t prev_end() const { return toks_[pos_ - 1].end; }

  static bool keyword(std::string_view s) { return is_keyword(s); }

  // ---- nodes ----
  AstNode& n(int32_t i) { return ast_.node(i); }
  int32_t add(NodeType type, uint32_t start, uint32_t end) { return ast_.add(type, start, end); }
  uint32_t ostart(int32_t i) { return n(i).outer_start; }
  uint32_t oend(int32_t i) { return n(i).outer_end; }

  // One level of the recursion: blocks, expressions and unary operators nest through it.
  struct Level {
    explicit Level(uint32_t& depth) : guard(depth, ir::kFormatNesting) {
      if (!guard.entered()) throw TooDeep{};
    }
    ir::DepthGuard guard;
  };

  // ---- statements ----
  void statement(std::vector<int32_t>& out) {
    Level level(depth_);
    if (kind() == Tk::kIndent || kind() == Tk::kDedent || kind() == Tk::kNewline) throw GiveUp{};
    if (is_op("@")) {
      out.push_back(decorated());
      return;
    }
    if (kind() == Tk::kName) {
      std::string_view t = text();
      if (t == "if") return out.push_back(if_stmt());
      if (t == "for" || t == "while") return out.push_back(loop());
      if (t == "with") return out.push_back(with_stmt());
      if (t == "def") return out.push_back(function_def(tok().start));
      if (t == "class") return out.push_back(class_def(tok().start));
    }
    simple_statements(out);
  }

  void simple_statements(std::vector<int32_t>& out) {
    out.push_back(simple_statement());
    while (is_op(";")) {
      next();
      if (kind() == Tk::kNewline || kind() == Tk::kEnd) break;
      out.push_back(simple_statement());
    }
    if (kind() == Tk::kNewline) {
      next();
    } else if (kind() != Tk::kEnd) {
      throw GiveUp{};
    }
  }

  int32_t simple_statement() {
    const Token& first = tok();
    if (kind() == Tk::kName) {
      std::string_view t = text();
      if (t == "pass" || t == "break" || t == "continue") {
        next();
        return add(t == "pass"    ? NodeType::kPass
                   : t == "break" ? NodeType::kBreak
                                  : NodeType::kContinue,
                   first.start, first.end);
      }
      if (t == "return") {
        next();
        int32_t value = kNone;
        if (can_start_expression()) value = value_expressions();
        int32_t s = add(NodeType::kReturn, first.start, value == kNone ? first.end : oend(value));
        n(s).a = value;
        return s;
      }
      if (t == "assert") {
        next();
        int32_t test = expression();
        int32_t msg = kNone;
        if (is_op(",")) {
          next();
          msg = expression();
        }
        int32_t s = add(NodeType::kAssert, first.start, oend(msg == kNone ? test : msg));
        n(s).a = test;
        n(s).b = msg;
        return s;
      }
      if (t == "import") return import_stmt();
      if (t == "from") return from_import();
      if (keyword(t) && t != "not" && t != "lambda" && t != "None" && t != "True" && t != "False")
        throw GiveUp{};
    }
    int32_t first_expr = star_expressions();
    if (is_op("=")) {
      std::vector<int32_t> targets{first_expr};
      int32_t value = kNone;
      while (is_op("=")) {
        next();
        value = star_expressions();
        if (is_op("=")) targets.push_back(value);
      }
      for (int32_t t : targets) check_target(t);
      check_value(value);
      int32_t s = add(NodeType::kAssign, ostart(first_expr), oend(value));
      n(s).list = ast_.store(targets);
      n(s).a = value;
      return s;
    }
    if (is_op(":")) {
      check_target(first_expr);
      next();
      int32_t ann = expression();
      int32_t value = kNone;
      if (is_op("=")) {
        next();
        value = value_expressions();
      }
      int32_t s = add(NodeType::kAnnAssign, ostart(first_expr), oend(value == kNone ? ann : value));
      n(s).a = first_expr;
      n(s).b = ann;
      n(s).c = value;
      return s;
    }
    if (kind() == Tk::kOp && text().size() >= 2 && text().back() == '=' && text() != "==" &&
        text() != "<=" && text() != ">=" && text() != "!=" && text() != ":=") {
      check_target(first_expr);
      std::string_view op = text();
      next();
      int32_t value = value_expressions();
      int32_t s = add(NodeType::kAugAssign, ostart(first_expr), oend(value));
      n(s).a = first_expr;
      n(s).b = value;
      n(s).text = op;
      return s;
    }
    check_value(first_expr);
    int32_t s = add(NodeType::kExprStmt, ostart(first_expr), oend(first_expr));
    n(s).a = first_expr;
    return s;
  }

  // What tree-sitter's grammar accepts as a target (`pattern`, `pattern_list`): names,
  // attributes, subscripts, `*name`, and tuples and lists of those. Anything else is a syntax
  // error there (and in Python), so the formatter must not take it for a file it can format.
  void check_target(int32_t e) {
    std::vector<int32_t> pending{e};
    while (!pending.empty()) {
      const AstNode& t = n(pending.back());
      pending.pop_back();
      switch (t.type) {
        case NodeType::kName:
        case NodeType::kAttribute:
        case NodeType::kSubscript:
          break;
        case NodeType::kStarred:
          if (t.op != 1 || n(t.a).type != NodeType::kName || n(t.a).parens > 0) throw GiveUp{};
          break;
        case NodeType::kTuple:
        case NodeType::kList:
          pending.insert(pending.end(), t.list.begin(), t.list.end());
          break;
        default:
          throw GiveUp{};
      }
    }
  }

  // A value (`_right_hand_side`, `_expressions`): a starred element needs a comma, `*a,`.
  void check_value(int32_t e) {
    if (e != kNone && n(e).type == NodeType::kStarred) throw GiveUp{};
  }

  int32_t value_expressions() {
    int32_t e = star_expressions();
    check_value(e);
    return e;
  }

  // `a.b.c` as written (tree-sitter's dotted_name text).
  std::string_view dotted_name(uint32_t& start, uint32_t& end) {
    if (kind() != Tk::kName || keyword(text())) throw GiveUp{};
    start = next().start;
    end = prev_end();
    while (is_op(".")) {
      next();
      if (kind() != Tk::kName) throw GiveUp{};
      end = next().end;
    }
    return src_.substr(start, end - start);
  }

  int32_t alias_item() {
    uint32_t s = 0, e = 0;
    std::string_view name = dotted_name(s, e);
    int32_t al = add(NodeType::kAlias, s, e);
    n(al).text = name;
    if (is_kw("as")) {
      next();
      if (kind() != Tk::kName || keyword(text())) throw GiveUp{};
      const Token& a = next();
      n(al).text2 = text(a);
      n(al).end = n(al).outer_end = a.end;
    }
    return al;
  }

  int32_t import_stmt() {
    uint32_t start = next().start;
    std::vector<int32_t> aliases{alias_item()};
    while (is_op(",")) {
      next();
      aliases.push_back(alias_item());
    }
    int32_t s = add(NodeType::kImport, start, oend(aliases.back()));
    n(s).list = ast_.store(aliases);
    return s;
  }

  int32_t from_import() {
    uint32_t start = next().start;
    uint32_t ms = 0, me = 0;
    if (is_op(".") || is_op("...")) {
      ms = tok().start;
      while (is_op(".") || is_op("...")) me = next().end;
      if (kind() == Tk::kName && !is_kw("import")) {
        uint32_t s0 = 0;
        dotted_name(s0, me);
      }
    } else {
      uint32_t s0 = 0;
      dotted_name(s0, me);
      ms = s0;
    }
    std::string_view module = src_.substr(ms, me - ms);
    expect_kw("import");
    std::vector<int32_t> aliases;
    bool wildcard = false;
    uint32_t end = 0;
    if (is_op("*")) {
      wildcard = true;
      end = next().end;
    } else if (is_op("(")) {
      next();
      aliases.push_back(alias_item());
      while (is_op(",")) {
        next();
        if (is_op(")")) break;
        aliases.push_back(alias_item());
      }
      end = expect_op(")").end;
    } else {
      aliases.push_back(alias_item());
      while (is_op(",")) {
        next();
        aliases.push_back(alias_item());
      }
      end = oend(aliases.back());
    }
    int32_t s = add(NodeType::kImportFrom, start, end);
    n(s).text = module == "__future__" ? std::string_view("__future__") : module;
    n(s).list = ast_.store(aliases);
    n(s).flag = wildcard;
    return s;
  }

  void block(std::vector<int32_t>& out) {
    expect_op(":");
    if (kind() == Tk::kNewline) {
      next();
      if (kind() != Tk::kIndent) throw GiveUp{};
      next();
      while (kind() != Tk::kDedent && kind() != Tk::kEnd) statement(out);
      if (kind() == Tk::kDedent) next();
    } else {
      simple_statements(out);
    }
    if (out.empty()) throw GiveUp{};
  }

  int32_t if_stmt() {
    uint32_t start = next().start;
    int32_t test = named_expression();
    std::vector<int32_t> body;
    block(body);
    std::vector<int32_t> clauses;
    while (is_kw("elif") || is_kw("else")) {
      bool elif = is_kw("elif");
      uint32_t cs = next().start;
      int32_t clause = add(NodeType::kElifElse, cs, cs);
      int32_t t = elif ? named_expression() : kNone;
      std::vector<int32_t> b;
      block(b);
      n(clause).a = t;
      n(clause).list = ast_.store(b);
      n(clause).end = n(clause).outer_end = ast_.compound_body_end(clause);
      clauses.push_back(clause);
      if (!elif) break;
    }
    int32_t s = add(NodeType::kIf, start, start);
    n(s).a = test;
    n(s).list = ast_.store(body);
    n(s).list2 = ast_.store(clauses);
    n(s).end = n(s).outer_end = ast_.compound_body_end(s);
    return s;
  }

  int32_t loop() {
    bool is_for = is_kw("for");
    uint32_t start = next().start;
    int32_t a = kNone, b = kNone;
    if (is_for) {
      a = targets();
      check_target(a);
      expect_kw("in");
      b = value_expressions();
    } else {
      a = named_expression();
    }
    std::vector<int32_t> body, orelse;
    block(body);
    if (is_kw("else")) {
      next();
      block(orelse);
    }
    int32_t s = add(is_for ? NodeType::kFor : NodeType::kWhile, start, start);
    n(s).a = a;
    n(s).b = b;
    n(s).list = ast_.store(body);
    n(s).list2 = ast_.store(orelse);
    n(s).end = n(s).outer_end = ast_.compound_body_end(s);
    return s;
  }

  int32_t with_stmt() {
    uint32_t start = next().start;
    std::vector<int32_t> items;
    while (true) {
      int32_t value = expression();
      int32_t target = kNone;
      if (is_kw("as")) {
        next();
        target = target_element();
        check_target(target);
      }
      int32_t item =
          add(NodeType::kWithItem, ostart(value), oend(target == kNone ? value : target));
      n(item).a = value;
      n(item).b = target;
      items.push_back(item);
      if (!is_op(",")) break;
      next();
    }
    std::vector<int32_t> body;
    block(body);
    int32_t s = add(NodeType::kWith, start, start);
    n(s).list2 = ast_.store(items);
    n(s).list = ast_.store(body);
    n(s).end = n(s).outer_end = ast_.compound_body_end(s);
    return s;
  }

  int32_t decorated() {
    uint32_t start = tok().start;
    std::vector<int32_t> decorators;
    while (is_op("@")) {
      uint32_t ds = next().start;
      int32_t e = named_expression();
      int32_t d = add(NodeType::kDecorator, ds, oend(e));
      n(d).a = e;
      decorators.push_back(d);
      if (kind() != Tk::kNewline) throw GiveUp{};
      next();
    }
    int32_t def = kNone;
    if (is_kw("def")) {
      def = function_def(tok().start);
    } else if (is_kw("class")) {
      def = class_def(tok().start);
    } else {
      throw GiveUp{};
    }
    n(def).start = n(def).outer_start = start;
    n(def).list2 = ast_.store(decorators);
    return def;
  }

  std::string_view name_token() {
    if (kind() != Tk::kName || keyword(text())) throw GiveUp{};
    return text(next());
  }

  int32_t function_def(uint32_t start) {
    next();  // def
    std::string_view name = name_token();
    if (!is_op("(")) throw GiveUp{};  // (type parameters are left to tree-sitter)
    int32_t params = parameters();
    int32_t returns = kNone;
    if (is_op("->")) {
      next();
      returns = expression();
    }
    std::vector<int32_t> body;
    block(body);
    int32_t s = add(NodeType::kFunctionDef, start, start);
    n(s).text = name;
    n(s).a = params;
    n(s).b = returns;
    n(s).list = ast_.store(body);
    n(s).end = n(s).outer_end = ast_.compound_body_end(s);
    return s;
  }

  int32_t class_def(uint32_t start) {
    next();  // class
    std::string_view name = name_token();
    int32_t args = kNone;
    if (is_op("[")) throw GiveUp{};
    if (is_op("(")) args = arguments();
    std::vector<int32_t> body;
    block(body);
    int32_t s = add(NodeType::kClassDef, start, start);
    n(s).text = name;
    n(s).a = args;
    n(s).list = ast_.store(body);
    n(s).end = n(s).outer_end = ast_.compound_body_end(s);
    return s;
  }

  // One parameter of a def (annotations allowed) or a lambda.
  int32_t parameter(bool lambda) {
    const Token& first = tok();
    if (is_op("/") ||
        (is_op("*") && (peek().kind == Tk::kOp &&
                        (text(peek()) == "," || text(peek()) == ")" || text(peek()) == ":")))) {
      next();
      int32_t p = add(NodeType::kParameter, first.start, first.end);
      n(p).op = static_cast<uint8_t>(text(first) == "/" ? ParamKind::kSlash : ParamKind::kBareStar);
      return p;
    }
    ParamKind kind_ = ParamKind::kPlain;
    if (is_op("*") || is_op("**")) {
      kind_ = is_op("*") ? ParamKind::kStar : ParamKind::kDoubleStar;
      next();
    }
    std::string_view name = name_token();
    int32_t p = add(NodeType::kParameter, first.start, prev_end());
    n(p).op = static_cast<uint8_t>(kind_);
    n(p).text = name;
    if (!lambda && is_op(":")) {
      // `*args: int`: the grammar has no annotations on `*` and `**` parameters.
      if (kind_ != ParamKind::kPlain) throw GiveUp{};
      next();
      int32_t a = expression();
      n(p).a = a;
      n(p).end = n(p).outer_end = oend(a);
    }
    if (is_op("=")) {
      if (kind_ != ParamKind::kPlain) throw GiveUp{};
      next();
      int32_t b = expression();
      n(p).b = b;
      n(p).end = n(p).outer_end = oend(b);
    }
    return p;
  }

  int32_t parameters() {
    uint32_t start = expect_op("(").start;
    std::vector<int32_t> ps;
    while (!is_op(")")) {
      ps.push_back(parameter(false));
      if (!is_op(",")) break;
      next();
    }
    uint32_t end = expect_op(")").end;
    int32_t p = add(NodeType::kParameters, start, end);
    n(p).list = ast_.store(ps);
    return p;
  }

  int32_t lambda() {
    uint32_t start = next().start;
    int32_t params = kNone;
    if (!is_op(":")) {
      std::vector<int32_t> ps;
      while (true) {
        ps.push_back(parameter(true));
        if (!is_op(",")) break;
        next();
        if (is_op(":")) throw GiveUp{};  // (a trailing comma: left to tree-sitter)
      }
      params = add(NodeType::kParameters, ostart(ps.front()), oend(ps.back()));
      n(params).list = ast_.store(ps);
      n(params).flag = true;
    }
    expect_op(":");
    int32_t body = expression();
    int32_t l = add(NodeType::kLambda, start, oend(body));
    n(l).a = params;
    n(l).b = body;
    return l;
  }

  int32_t arguments() {
    uint32_t start = expect_op("(").start;
    std::vector<int32_t> items;
    while (!is_op(")")) {
      if (kind() == Tk::kName && peek().kind == Tk::kOp && text(peek()) == "=" &&
          !keyword(text())) {
        const Token& name = next();
        next();
        int32_t value = expression();
        int32_t k = add(NodeType::kKeyword, name.start, oend(value));
        n(k).text = text(name);
        n(k).a = value;
        items.push_back(k);
      } else if (is_op("**")) {
        uint32_t s = next().start;
        int32_t value = expression();
        int32_t k = add(NodeType::kKeyword, s, oend(value));
        n(k).a = value;
        items.push_back(k);
      } else {
        items.push_back(star_expression());
        if (is_kw("for") || is_kw("async")) throw GiveUp{};
      }
      if (!is_op(",")) break;
      next();
    }
    uint32_t end = expect_op(")").end;
    int32_t a = add(NodeType::kArguments, start, end);
    n(a).list = ast_.store(items);
    return a;
  }

  // ---- expressions ----
  bool can_start_expression() const {
    switch (kind()) {
      case Tk::kName: {
        std::string_view t = text();
        return !keyword(t) || t == "not" || t == "lambda" || t == "None" || t == "True" ||
               t == "False";
      }
      case Tk::kNumber:
      case Tk::kString:
        return true;
      case Tk::kOp: {
        std::string_view t = text();
        return t == "(" || t == "[" || t == "{" || t == "-" || t == "+" || t == "~" || t == "*" ||
               t == "...";
      }
      default:
        return false;
    }
  }

  // `a, *b, c` (a bare tuple when there is a comma).
  int32_t star_expressions() {
    int32_t first = star_expression();
    if (!is_op(",")) return first;
    std::vector<int32_t> elts{first};
    uint32_t end = oend(first);
    while (is_op(",")) {
      end = next().end;
      if (!can_start_expression()) break;
      int32_t e = star_expression();
      elts.push_back(e);
      end = oend(e);
    }
    int32_t t = add(NodeType::kTuple, ostart(first), end);
    n(t).list = ast_.store(elts);
    n(t).flag = false;
    return t;
  }

  int32_t star_expression() {
    if (is_op("*")) {
      uint32_t s = next().start;
      int32_t value = bit_or();
      int32_t st = add(NodeType::kStarred, s, oend(value));
      n(st).a = value;
      n(st).op = 1;
      return st;
    }
    return expression();
  }

  // Targets of `for`: `a`, `a, b`, `(a, b)`, `a.b[i]` (no `in` operator).
  int32_t target_element() {
    if (is_op("*")) {
      uint32_t s = next().start;
      int32_t value = bit_or();
      int32_t st = add(NodeType::kStarred, s, oend(value));
      n(st).a = value;
      n(st).op = 1;
      return st;
    }
    return bit_or();
  }

  int32_t targets() {
    int32_t first = target_element();
    if (!is_op(",")) return first;
    std::vector<int32_t> elts{first};
    uint32_t end = oend(first);
    while (is_op(",")) {
      end = next().end;
      if (is_kw("in")) break;
      int32_t e = target_element();
      elts.push_back(e);
      end = oend(e);
    }
    int32_t t = add(NodeType::kTuple, ostart(first), end);
    n(t).list = ast_.store(elts);
    n(t).flag = false;
    return t;
  }

  int32_t named_expression() {
    int32_t e = expression();
    if (is_op(":=")) throw GiveUp{};
    return e;
  }

  int32_t expression() {
    Level level(depth_);
    if (is_kw("lambda")) return lambda();
    if (is_kw("yield") || is_kw("await")) throw GiveUp{};
    int32_t body = disjunction();
    if (!is_kw("if")) return body;
    next();
    int32_t test = disjunction();
    expect_kw("else");
    int32_t orelse = expression();
    int32_t e = add(NodeType::kIfExp, ostart(body), oend(orelse));
    n(e).a = body;
    n(e).b = test;
    n(e).c = orelse;
    return e;
  }

  int32_t bool_op(bool is_or) {
    int32_t first = is_or ? bool_op(false) : inversion();
    std::string_view word = is_or ? "or" : "and";
    if (!is_kw(word)) return first;
    std::vector<int32_t> values{first};
    while (is_kw(word)) {
      next();
      values.push_back(is_or ? bool_op(false) : inversion());
    }
    int32_t e = add(NodeType::kBoolOp, ostart(first), oend(values.back()));
    n(e).list = ast_.store(values);
    n(e).op = is_or ? 1 : 0;
    return e;
  }
  int32_t disjunction() { return bool_op(true); }

  int32_t inversion() {
    if (is_kw("not")) {
      Level level(depth_);
      uint32_t s = next().start;
      int32_t operand = inversion();
      int32_t e = add(NodeType::kUnaryOp, s, oend(operand));
      n(e).a = operand;
      n(e).op = static_cast<uint8_t>(UnaryOp::kNot);
      return e;
    }
    return comparison();
  }

  int32_t comparison() {
    int32_t first = bit_or();
    std::vector<int32_t> operands{first};
    std::vector<uint8_t> ops;
    while (true) {
      CmpOp op;
      if (kind() == Tk::kOp) {
        std::string_view t = text();
        if (t == "==") {
          op = CmpOp::kEq;
        } else if (t == "!=") {
          op = CmpOp::kNotEq;
        } else if (t == "<") {
          op = CmpOp::kLt;
        } else if (t == "<=") {
          op = CmpOp::kLtE;
        } else if (t == ">") {
          op = CmpOp::kGt;
        } else if (t == ">=") {
          op = CmpOp::kGtE;
        } else {
          break;
        }
        next();
      } else if (is_kw("in")) {
        op = CmpOp::kIn;
        next();
      } else if (is_kw("not") && peek().kind == Tk::kName && text(peek()) == "in") {
        op = CmpOp::kNotIn;
        next();
        next();
      } else if (is_kw("is")) {
        next();
        op = CmpOp::kIs;
        if (is_kw("not")) {
          next();
          op = CmpOp::kIsNot;
        }
      } else {
        break;
      }
      ops.push_back(static_cast<uint8_t>(op));
      operands.push_back(bit_or());
    }
    if (ops.empty()) return first;
    int32_t e = add(NodeType::kCompare, ostart(first), oend(operands.back()));
    n(e).list = ast_.store(operands);
    n(e).ops = ast_.store(ops);
    return e;
  }

  // The level of a binary operator token (0 `|`, 1 `^`, 2 `&`, 3 shifts, 4 `+ -`, 5 `* / // % @`),
  // or -1.
  static int binary_level(std::string_view t) {
    if (t.size() == 1) {
      switch (t[0]) {
        case '|':
          return 0;
        case '^':
          return 1;
        case '&':
          return 2;
        case '+':
        case '-':
          return 4;
        case '*':
        case '/':
        case '%':
        case '@':
          return 5;
        default:
          return -1;
      }
    }
    if (t.size() == 2) {
      if (t == "<<"sv || t == ">>"sv) return 3;
      if (t == "//"sv) return 5;
    }
    return -1;
  }

  // Binary operators by level, left-associative.
  int32_t binary(int level) {
    if (level == 6) return factor();
    int32_t left = binary(level + 1);
    while (kind() == Tk::kOp && binary_level(text()) == level) {
      std::string_view t = text();
      next();
      int32_t right = binary(level + 1);
      int32_t e = add(NodeType::kBinOp, ostart(left), oend(right));
      n(e).a = left;
      n(e).b = right;
      n(e).op = static_cast<uint8_t>(binary_op_of(t));
      left = e;
    }
    return left;
  }
  int32_t bit_or() { return binary(0); }

  static BinaryOp binary_op_of(std::string_view s) {
    if (s == "+") return BinaryOp::kAdd;
    if (s == "-") return BinaryOp::kSub;
    if (s == "*") return BinaryOp::kMul;
    if (s == "@") return BinaryOp::kMatMul;
    if (s == "/") return BinaryOp::kDiv;
    if (s == "//") return BinaryOp::kFloorDiv;
    if (s == "%") return BinaryOp::kMod;
    if (s == "**") return BinaryOp::kPow;
    if (s == "<<") return BinaryOp::kLShift;
    if (s == ">>") return BinaryOp::kRShift;
    if (s == "|") return BinaryOp::kBitOr;
    if (s == "^") return BinaryOp::kBitXor;
    return BinaryOp::kBitAnd;
  }

  int32_t factor() {
    if (is_op("-") || is_op("+") || is_op("~")) {
      Level level(depth_);
      std::string_view t = text();
      uint32_t s = next().start;
      int32_t operand = factor();
      int32_t e = add(NodeType::kUnaryOp, s, oend(operand));
      n(e).a = operand;
      n(e).op = static_cast<uint8_t>(t == "-"   ? UnaryOp::kMinus
                                     : t == "+" ? UnaryOp::kPlus
                                                : UnaryOp::kInvert);
      return e;
    }
    return power();
  }

  int32_t power() {
    int32_t base = primary();
    if (!is_op("**")) return base;
    Level level(depth_);  // `a ** b ** ...` nests to the right
    next();
    int32_t exp = factor();
    int32_t e = add(NodeType::kBinOp, ostart(base), oend(exp));
    n(e).a = base;
    n(e).b = exp;
    n(e).op = static_cast<uint8_t>(BinaryOp::kPow);
    return e;
  }

  int32_t primary() {
    int32_t e = atom();
    while (kind() == Tk::kOp) {
      std::string_view t = text();
      if (t == ".") {
        next();
        if (kind() != Tk::kName) throw GiveUp{};
        const Token& name = next();
        int32_t a = add(NodeType::kAttribute, ostart(e), name.end);
        n(a).a = e;
        n(a).text = text(name);
        e = a;
      } else if (t == "(") {
        int32_t args = arguments();
        int32_t c = add(NodeType::kCall, ostart(e), oend(args));
        n(c).a = e;
        n(c).b = args;
        e = c;
      } else if (t == "[") {
        e = subscript(e);
      } else {
        break;
      }
    }
    return e;
  }

  int32_t slice_or_expression() {
    uint32_t start = tok().start;
    int32_t lower = kNone;
    if (!is_op(":")) {
      int32_t e = named_expression();
      if (!is_op(":")) return e;
      lower = e;
    }
    next();  // ':'
    uint32_t end = prev_end();
    int32_t upper = kNone, step = kNone;
    if (!is_op(":") && !is_op(",") && !is_op("]")) {
      upper = expression();
      end = oend(upper);
    }
    if (is_op(":")) {
      end = next().end;
      if (!is_op(",") && !is_op("]")) {
        step = expression();
        end = oend(step);
      }
    }
    int32_t s = add(NodeType::kSlice, lower == kNone ? start : ostart(lower), end);
    n(s).a = lower;
    n(s).b = upper;
    n(s).c = step;
    return s;
  }

  int32_t subscript(int32_t value) {
    next();  // '['
    std::vector<int32_t> subs;
    bool trailing_comma = false;
    uint32_t tuple_end = 0;
    while (true) {
      if (is_op("*")) throw GiveUp{};
      int32_t s = slice_or_expression();
      subs.push_back(s);
      tuple_end = oend(s);
      if (!is_op(",")) break;
      tuple_end = next().end;
      if (is_op("]")) {
        trailing_comma = true;
        break;
      }
    }
    uint32_t end = expect_op("]").end;
    int32_t slice = subs.front();
    if (subs.size() > 1 || trailing_comma) {
      slice = add(NodeType::kTuple, ostart(subs.front()), tuple_end);
      n(slice).list = ast_.store(subs);
      n(slice).flag = false;
    }
    int32_t e = add(NodeType::kSubscript, ostart(value), end);
    n(e).a = value;
    n(e).b = slice;
    return e;
  }

  int32_t atom() {
    const Token& t = tok();
    switch (t.kind) {
      case Tk::kName: {
        std::string_view s = text();
        if (s == "True" || s == "False" || s == "None") {
          next();
          int32_t c = add(NodeType::kConstant, t.start, t.end);
          n(c).text = s;
          return c;
        }
        if (keyword(s)) throw GiveUp{};
        next();
        int32_t e = add(NodeType::kName, t.start, t.end);
        n(e).text = s;
        return e;
      }
      case Tk::kNumber: {
        next();
        int32_t e = add(NodeType::kNumber, t.start, t.end);
        n(e).text = text(t);
        return e;
      }
      case Tk::kString:
        return strings();
      case Tk::kOp:
        break;
      default:
        throw GiveUp{};
    }
    std::string_view s = text();
    if (s == "...") {
      next();
      int32_t c = add(NodeType::kConstant, t.start, t.end);
      n(c).text = s;
      return c;
    }
    if (s == "(") return parenthesized();
    if (s == "[") return list();
    if (s == "{") return dict_or_set();
    throw GiveUp{};
  }

  int32_t strings() {
    uint32_t start = tok().start;
    std::vector<int32_t> parts;
    while (kind() == Tk::kString) {
      const Token& t = next();
      int32_t part = add(NodeType::kStringPart, t.start, t.end);
      n(part).text = text(t);
      n(part).flag = text(t).find('\n') != std::string_view::npos;
      parts.push_back(part);
    }
    int32_t s = add(NodeType::kString, start, prev_end());
    n(s).list = ast_.store(parts);
    return s;
  }

  // Elements up to the closing bracket; a trailing comma is allowed.
  void elements(std::string_view close, std::vector<int32_t>& out, bool& comma) {
    comma = false;
    while (!is_op(close)) {
      out.push_back(star_expression());
      if (is_kw("for") || is_kw("async") || is_op(":=")) throw GiveUp{};
      if (!is_op(",")) break;
      next();
      comma = true;
    }
  }

  int32_t parenthesized() {
    uint32_t start = next().start;
    if (is_op(")")) {
      uint32_t end = next().end;
      int32_t t = add(NodeType::kTuple, start, end);
      n(t).flag = true;
      return t;
    }
    if (is_kw("yield")) throw GiveUp{};
    int32_t first = star_expression();
    if (is_kw("for") || is_kw("async") || is_op(":=")) throw GiveUp{};
    if (is_op(")")) {
      uint32_t end = next().end;
      if (n(first).type == NodeType::kStarred) throw GiveUp{};
      AstNode& in = n(first);
      if (in.parens < 255) ++in.parens;
      in.outer_start = start;
      in.outer_end = end;
      return first;
    }
    expect_op(",");
    std::vector<int32_t> elts{first};
    bool comma = false;
    elements(")", elts, comma);
    uint32_t end = expect_op(")").end;
    int32_t t = add(NodeType::kTuple, start, end);
    n(t).list = ast_.store(elts);
    n(t).flag = true;
    return t;
  }

  int32_t list() {
    uint32_t start = next().start;
    std::vector<int32_t> elts;
    bool comma = false;
    elements("]", elts, comma);
    uint32_t end = expect_op("]").end;
    int32_t l = add(NodeType::kList, start, end);
    n(l).list = ast_.store(elts);
    return l;
  }

  int32_t dict_or_set() {
    uint32_t start = next().start;
    if (is_op("}")) {
      uint32_t end = next().end;
      return add(NodeType::kDict, start, end);
    }
    bool dict = is_op("**");
    int32_t first = kNone;
    if (!dict) {
      first = star_expression();
      if (is_kw("for") || is_kw("async")) throw GiveUp{};
      dict = is_op(":");
    }
    if (!dict) {
      std::vector<int32_t> elts{first};
      if (is_op(",")) {
        next();
        bool comma = false;
        elements("}", elts, comma);
      }
      uint32_t end = expect_op("}").end;
      int32_t s = add(NodeType::kSet, start, end);
      n(s).list = ast_.store(elts);
      return s;
    }
    std::vector<int32_t> items;
    bool have_key = first != kNone;
    while (!is_op("}")) {
      if (!have_key) {
        if (is_op("**")) {
          next();
          items.push_back(kNone);
          items.push_back(bit_or());
        } else {
          int32_t key = expression();
          items.push_back(key);
          expect_op(":");
          items.push_back(expression());
        }
      } else {
        if (n(first).type == NodeType::kStarred) throw GiveUp{};
        items.push_back(first);
        expect_op(":");
        items.push_back(expression());
        have_key = false;
      }
      if (is_kw("for") || is_kw("async")) throw GiveUp{};
      if (!is_op(",")) break;
      next();
    }
    uint32_t end = expect_op("}").end;
    int32_t d = add(NodeType::kDict, start, end);
    n(d).list = ast_.store(items);
    return d;
  }

  Ast& ast_;
  std::string_view src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  uint32_t depth_ = 0;  // the levels of recursion under way (Level)
};

std::unique_ptr<Ast> Ast::parse(std::string_view source, bool* too_deep) {
  if (too_deep) *too_deep = false;
  // A `\r` alone ends a line for Python but is white space for tree-sitter's scanner: such
  // files are left to tree-sitter.
  for (size_t r = source.find('\r'); r != std::string_view::npos; r = source.find('\r', r + 1)) {
    if (r + 1 >= source.size() || source[r + 1] != '\n') return nullptr;
  }
  std::unique_ptr<Ast> ast(new Ast(source));
  try {
    Parser(*ast).run();
  } catch (const GiveUp&) {
    return nullptr;
  } catch (const TooDeep&) {
    if (too_deep) *too_deep = true;
    return nullptr;
  }
  return ast;
}

}  // namespace relax::syntax::format

// Canonical forms for the safety check. Grouping parentheses, commas, semicolons and line
// continuations are dropped (the tree's nesting already says what they said); tuples with and
// without parentheses are one kind; strings compare by value (escapes decoded, implicit
// concatenations joined) and numbers by value, so quote, prefix and case changes are allowed
// while any change of meaning or structure is caught.
#include "syntax/format/verify.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "syntax/format/literals.h"

namespace relax::syntax::format {

namespace {

void append_utf8(std::string& out, uint32_t cp) {
  if (cp >= 0xd800 && cp <= 0xdfff) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u{%x}", cp);
    out += buf;
  } else if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of one literal: bytes as hex pairs, text as UTF-8 (escapes decoded).
std::string string_value(std::string_view literal) {
  StringParts p = split_string(literal);
  std::string out = p.bytes ? "b:" : "s:";
  std::string_view body = p.body;
  auto put = [&](uint32_t v) {
    if (p.bytes) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%02x", v & 0xff);
      out += buf;
    } else {
      append_utf8(out, v);
    }
  };
  for (size_t i = 0; i < body.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(body[i]);
    if (c == '\r') {
      put('\n');
      if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
      continue;
    }
    if (c != '\\' || p.raw) {
      if (c >= 0x80 && !p.bytes) {
        // Copy the UTF-8 sequence as is.
        out.push_back(static_cast<char>(c));
      } else {
        put(c);
      }
      continue;
    }
    if (i + 1 >= body.size()) {
      put('\\');
      continue;
    }
    char e = body[++i];
    switch (e) {
      case '\n':
        break;
      case '\r':
        if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
        break;
      case '\\':
        put('\\');
        break;
      case '\'':
        put('\'');
        break;
      case '"':
        put('"');
        break;
      case 'a':
        put(7);
        break;
      case 'b':
        put(8);
        break;
      case 'f':
        put(12);
        break;
      case 'n':
        put(10);
        break;
      case 'r':
        put(13);
        break;
      case 't':
        put(9);
        break;
      case 'v':
        put(11);
        break;
      case 'x':
      case 'u':
      case 'U': {
        size_t len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        bool ok = !(e != 'x' && p.bytes) && i + len < body.size();
        uint32_t v = 0;
        for (size_t k = 1; ok && k <= len; ++k) {
          if (i + k >= body.size()) {
            ok = false;
            break;
          }
          int h = hex_value(body[i + k]);
          if (h < 0) ok = false;
          v = v * 16 + static_cast<uint32_t>(h < 0 ? 0 : h);
        }
        if (ok) {
          put(v);
          i += len;
        } else {
          put('\\');
          put(static_cast<unsigned char>(e));
        }
        break;
      }
      case 'N': {
        size_t close = body.find('}', i);
        if (!p.bytes && i + 1 < body.size() && body[i + 1] == '{' &&
            close != std::string_view::npos) {
          out += "\\N{";
          for (size_t k = i + 2; k < close; ++k)
            out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(body[k]))));
          out += "}";
          i = close;
        } else {
          put('\\');
          put('N');
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = static_cast<uint32_t>(e - '0');
          for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7';
               ++k) {
            v = v * 8 + static_cast<uint32_t>(body[++i] - '0');
          }
          put(v);
        } else {
          put('\\');
          put(static_cast<unsigned char>(e));
        }
        break;
    }
  }
  return out;
}

std::string number_value(std::string_view text) {
  std::string s;
  for (char c : text) {
    if (c != '_') s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b')) {
    size_t k = 2;
    while (k + 1 < s.size() && s[k] == '0') ++k;
    return std::string("i") + s[1] + ":" + s.substr(k);
  }
  bool complex = !s.empty() && s.back() == 'j';
  if (complex) s.pop_back();
  bool is_float = s.find_first_of(".e") != std::string::npos;
  std::string out;
  if (is_float || complex) {
    double v = std::strtod(s.c_str(), nullptr);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", v);
    out = std::string("f:") + buf;
  } else {
    size_t k = 0;
    while (k + 1 < s.size() && s[k] == '0') ++k;
    out = "i:" + s.substr(k);
  }
  if (complex) out += "j";
  return out;
}

bool is(const syntax::Node& n, const char* type) {
  return std::strcmp(n.type(), type) == 0;
}

bool is_docstring_literal(const syntax::Node& str) {
  for (char c : split_string(str.text()).prefix) {
    if (c == 'b' || c == 'B' || c == 'f' || c == 'F' || c == 't' || c == 'T') return false;
  }
  return true;
}

// A string that is the first statement of a module, class or function body (in parentheses or
// not), and neither a byte string nor an f-string.
bool is_docstring(const syntax::Node& str) {
  if (str.kind() == NodeKind::kConcatenatedString) {
    for (const syntax::Node& c : str.named_children()) {
      if (c.kind() == NodeKind::kString && !is_docstring_literal(c)) return false;
    }
  } else if (!is_docstring_literal(str)) {
    return false;
  }
  syntax::Node stmt = str.parent();
  while (stmt && stmt.kind() == NodeKind::kParenthesizedExpression) stmt = stmt.parent();
  if (!stmt || stmt.kind() != NodeKind::kExpressionStatement) return false;
  syntax::Node body = stmt.parent();
  if (!body) return false;
  if (body.kind() != NodeKind::kModule) {
    syntax::Node owner = body.parent();
    if (!owner || (owner.kind() != NodeKind::kFunctionDefinition &&
                   owner.kind() != NodeKind::kClassDefinition))
      return false;
    if (body != owner.field(Field::kBody)) return false;
  }
  for (const syntax::Node& c : body.named_children()) {
    if (c.kind() == NodeKind::kComment) continue;
    return c == stmt;
  }
  return false;
}

class Canonicalizer {
 public:
  std::vector<CanonicalToken> out;

  void node(const syntax::Node& n) {
    NodeKind kind = n.kind();
    if (kind == NodeKind::kComment || is(n, "line_continuation")) return;
    if (kind == NodeKind::kParenthesizedExpression) {
      for (const syntax::Node& c : n.children()) {
        if (c.is_named()) node(c);
      }
      return;
    }
    if (is(n, "tuple_pattern")) {
      // `(x)` as a target is a parenthesized name.
      size_t named = 0;
      bool comma = false;
      for (const syntax::Node& c : n.children()) {
        if (c.is_named() && c.kind() != NodeKind::kComment) ++named;
        if (!c.is_named() && c.text() == ",") comma = true;
      }
      if (named == 1 && !comma) {
        for (const syntax::Node& c : n.children()) {
          if (c.is_named()) node(c);
        }
        return;
      }
    }
    if (kind == NodeKind::kTuple || kind == NodeKind::kExpressionList ||
        kind == NodeKind::kPatternList || is(n, "tuple_pattern")) {
      emit("(tuple", n.start());
      for (const syntax::Node& c : n.children()) {
        if (c.is_named()) node(c);
      }
      emit(")", n.end());
      return;
    }
    if (kind == NodeKind::kSubscript) {
      emit("(subscript", n.start());
      node(n.field(Field::kValue));
      std::vector<syntax::Node> subs = n.fields(Field::kSubscript);
      bool comma = false;
      uint32_t last = subs.empty() ? n.start() : subs.back().end();
      for (const syntax::Node& c : n.children()) {
        if (!c.is_named() && c.start() >= last && c.text() == ",") comma = true;
      }
      if (subs.size() > 1 || comma) emit("(tuple", n.start());
      for (const syntax::Node& s : subs) node(s);
      if (subs.size() > 1 || comma) emit(")", n.end());
      emit(")", n.end());
      return;
    }
    if (kind == NodeKind::kString || kind == NodeKind::kConcatenatedString) {
      std::string value;
      if (kind == NodeKind::kString) {
        value = string_value(n.text());
      } else {
        bool first = true;
        for (const syntax::Node& c : n.children()) {
          if (!c.is_named() || c.kind() == NodeKind::kComment) continue;
          std::string v = string_value(c.text());
          value += first ? v : v.substr(2);
          first = false;
        }
      }
      if (is_docstring(n)) {
        // Docstrings are re-indented and trimmed (as ruff does): their words must stay.
        std::string words;
        for (size_t i = 2; i < value.size();) {
          size_t sp = space_at(value, i);
          if (sp > 0) {
            if (!words.empty() && words.back() != ' ') words.push_back(' ');
            i += sp;
          } else {
            words.push_back(value[i++]);
          }
        }
        if (!words.empty() && words.back() == ' ') words.pop_back();
        emit("doc " + words, n.start());
        return;
      }
      emit("str " + value, n.start());
      return;
    }
    if (kind == NodeKind::kInteger || kind == NodeKind::kFloat) {
      emit("num " + number_value(n.text()), n.start());
      return;
    }
    if (kind == NodeKind::kArgumentList && n.parent().kind() == NodeKind::kClassDefinition) {
      bool empty = true;
      for (const syntax::Node& c : n.children()) {
        if (c.is_named() && c.kind() != NodeKind::kComment) empty = false;
      }
      if (empty) return;
    }
    uint32_t count = n.child_count();
    if (count == 0) {
      std::string text;
      for (char c : n.text()) {
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\\') text.push_back(c);
      }
      if (!n.is_named()) {
        if (text == "," || text == ";" || text.empty()) return;
        // Parentheses around the names of a from-import are layout.
        if ((text == "(" || text == ")") && n.parent().kind() == NodeKind::kImportFromStatement)
          return;
        emit(text, n.start());
      } else {
        emit(std::string(n.type()) + " " + text, n.start());
      }
      return;
    }
    emit(std::string("(") + n.type(), n.start());
    for (const syntax::Node& c : n.children()) node(c);
    emit(")", n.end());
  }

 private:
  void emit(std::string text, uint32_t offset) { out.push_back({std::move(text), offset}); }
};

}  // namespace

std::vector<CanonicalToken> canonical_tree(const SyntaxTree& tree) {
  Canonicalizer c;
  c.node(tree.root());
  return std::move(c.out);
}

std::vector<CanonicalToken> canonical_comments(const SyntaxTree& tree) {
  std::vector<CanonicalToken> out;
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root().raw());
  bool more = true;
  while (more) {
    syntax::Node n(ts_tree_cursor_current_node(&cursor), &tree);
    if (n.kind() == NodeKind::kComment) {
      // A line can carry several comments once an expression is joined onto one line (ruff
      // keeps `a  # x` and `.b  # y` as `a.b  # x  # y`); compare the pieces.
      std::string_view t = n.text();
      size_t begin = 0;
      for (size_t i = 1; i <= t.size(); ++i) {
        bool split = i < t.size() && t[i] == '#' && (t[i - 1] == ' ' || t[i - 1] == '\t');
        if (i == t.size() || split) {
          out.push_back({normalize_comment(t.substr(begin, i - begin)),
                         n.start() + static_cast<uint32_t>(begin)});
          begin = i;
        }
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (true) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

long first_difference(const std::vector<CanonicalToken>& a, const std::vector<CanonicalToken>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i].text != b[i].text) return static_cast<long>(i);
  }
  if (a.size() != b.size()) return static_cast<long>(n);
  return -1;
}

}  // namespace relax::syntax::format

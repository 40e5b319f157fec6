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

}  // namespace

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

bool is_docstring_literal(std::string_view literal) {
  for (char c : split_string(literal).prefix) {
    if (c == 'b' || c == 'B' || c == 'f' || c == 'F' || c == 't' || c == 'T') return false;
  }
  return true;
}

// The decoded value of a docstring with its white space runs collapsed: docstrings are
// re-indented and trimmed (as ruff does), their words must stay.
std::string docstring_words(const std::string& value) {
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
  return words;
}

// A comment's normalized pieces: a line can carry several comments once an expression is joined
// onto one line (ruff keeps `a  # x` and `.b  # y` as `a.b  # x  # y`); compare the pieces.
void comment_pieces(std::string_view t, uint32_t start, std::vector<CanonicalToken>& out) {
  size_t begin = 0;
  for (size_t i = 1; i <= t.size(); ++i) {
    bool split = i < t.size() && t[i] == '#' && (t[i - 1] == ' ' || t[i - 1] == '\t');
    if (i == t.size() || split) {
      out.push_back(
          {normalize_comment(t.substr(begin, i - begin)), start + static_cast<uint32_t>(begin)});
      begin = i;
    }
  }
}

namespace {

bool is(const syntax::Node& n, const char* type) {
  return std::strcmp(n.type(), type) == 0;
}

void node_comment_pieces(const syntax::Node& n, std::vector<CanonicalToken>& out) {
  format::comment_pieces(n.text(), n.start(), out);
}

// Walks the tree with a cursor (no child vectors, no parent look-ups: what a node's handling
// needs of its parent is passed down).
class Canonicalizer {
 public:
  std::vector<CanonicalToken> out;
  std::vector<CanonicalToken> comments;

  explicit Canonicalizer(const SyntaxTree& tree)
      : tree_(tree), cursor_(ts_tree_cursor_new(tree.root().raw())) {
    out.reserve(tree.text().size() / 3);
    subscript_field_ = tree.field_id(Field::kSubscript);
    body_field_ = tree.field_id(Field::kBody);
  }
  ~Canonicalizer() { ts_tree_cursor_delete(&cursor_); }

  void run() { visit(NodeKind::kOther, false, false); }

 private:
  syntax::Node current() const {
    return syntax::Node(ts_tree_cursor_current_node(&cursor_), &tree_);
  }
  TSFieldId field() const { return ts_tree_cursor_current_field_id(&cursor_); }

  // Calls f() for each child of the current node, with the cursor on the child.
  template <typename F>
  void each_child(F&& f) {
    if (!ts_tree_cursor_goto_first_child(&cursor_)) return;
    do {
      f();
    } while (ts_tree_cursor_goto_next_sibling(&cursor_));
    ts_tree_cursor_goto_parent(&cursor_);
  }

  // `doc`: the current node is the statement, parenthesized expression or string at a
  // docstring's place. `body_block`: the current node is a function's or class's body.
  void visit(NodeKind parent, bool doc, bool body_block) {
    syntax::Node n = current();
    NodeKind kind = n.kind();
    if (kind == NodeKind::kComment) {
      node_comment_pieces(n, comments);
      return;
    }
    if (kind == NodeKind::kParenthesizedExpression) {
      each_child([&] {
        if (ts_node_is_named(ts_tree_cursor_current_node(&cursor_))) visit(kind, doc, false);
      });
      return;
    }
    bool tuple_pattern = is(n, "tuple_pattern");
    if (tuple_pattern) {
      // `(x)` as a target is a parenthesized name.
      size_t named = 0;
      bool comma = false;
      each_child([&] {
        syntax::Node c = current();
        if (c.is_named() && c.kind() != NodeKind::kComment) ++named;
        if (!c.is_named() && c.text() == ",") comma = true;
      });
      if (named == 1 && !comma) {
        each_child([&] {
          if (current().is_named()) visit(kind, false, false);
        });
        return;
      }
    }
    if (kind == NodeKind::kTuple || kind == NodeKind::kExpressionList ||
        kind == NodeKind::kPatternList || tuple_pattern) {
      emit("(tuple", n.start());
      each_child([&] {
        if (current().is_named()) visit(kind, false, false);
      });
      emit(")", n.end());
      return;
    }
    if (kind == NodeKind::kSubscript) {
      emit("(subscript", n.start());
      // The value, then the subscripts: a tuple when there are several or a trailing comma.
      size_t subs = 0;
      uint32_t last = n.start();
      each_child([&] {
        if (field() == subscript_field_) {
          ++subs;
          last = current().end();
        }
      });
      bool comma = false;
      each_child([&] {
        syntax::Node c = current();
        if (!c.is_named() && c.start() >= last && c.text() == ",") comma = true;
      });
      bool tuple = subs > 1 || comma;
      bool opened = false;
      each_child([&] {
        if (field() == subscript_field_) {
          if (tuple && !opened) {
            emit("(tuple", n.start());
            opened = true;
          }
          visit(kind, false, false);
        } else if (current().is_named()) {
          visit(kind, false, false);
        }
      });
      if (opened) emit(")", n.end());
      emit(")", n.end());
      return;
    }
    if (kind == NodeKind::kString || kind == NodeKind::kConcatenatedString) {
      std::string value;
      bool doc_literals = true;
      if (kind == NodeKind::kString) {
        value = string_value(n.text());
        doc_literals = is_docstring_literal(n.text());
      } else {
        bool first = true;
        each_child([&] {
          syntax::Node c = current();
          if (c.kind() == NodeKind::kComment) node_comment_pieces(c, comments);
          if (!c.is_named() || c.kind() == NodeKind::kComment) return;
          std::string v = string_value(c.text());
          value += first ? v : v.substr(2);
          first = false;
          if (c.kind() == NodeKind::kString && !is_docstring_literal(c.text()))
            doc_literals = false;
        });
      }
      if (doc && doc_literals) {
        emit("doc " + docstring_words(value), n.start());
      } else {
        emit("str " + value, n.start());
      }
      return;
    }
    if (kind == NodeKind::kInteger || kind == NodeKind::kFloat) {
      emit("num " + number_value(n.text()), n.start());
      return;
    }
    if (kind == NodeKind::kArgumentList && parent == NodeKind::kClassDefinition) {
      bool empty = true;
      each_child([&] {
        syntax::Node c = current();
        if (c.is_named() && c.kind() != NodeKind::kComment) empty = false;
      });
      if (empty) {
        each_child([&] {
          if (current().kind() == NodeKind::kComment) node_comment_pieces(current(), comments);
        });
        return;
      }
    }
    uint32_t count = ts_node_child_count(n.raw());
    if (count == 0) {
      std::string text;
      for (char c : n.text()) {
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\\') text.push_back(c);
      }
      if (!n.is_named()) {
        if (text == "," || text == ";" || text.empty()) return;
        // Parentheses around the names of a from-import are layout.
        if ((text == "(" || text == ")") && parent == NodeKind::kImportFromStatement) return;
        emit(text, n.start());
      } else {
        emit(std::string(n.type()) + " " + text, n.start());
      }
      return;
    }
    emit(std::string("(") + n.type(), n.start());
    // A docstring is the first statement of a module or of a function's or class's body.
    bool statements = kind == NodeKind::kModule || body_block;
    bool first_statement = true;
    bool is_def = kind == NodeKind::kFunctionDefinition || kind == NodeKind::kClassDefinition;
    each_child([&] {
      syntax::Node c = current();
      bool child_doc = false;
      if (statements && c.is_named() && c.kind() != NodeKind::kComment) {
        child_doc = first_statement && c.kind() == NodeKind::kExpressionStatement;
        first_statement = false;
      } else if (kind == NodeKind::kExpressionStatement && doc) {
        child_doc = true;
      }
      visit(kind, child_doc, is_def && field() == body_field_);
    });
    emit(")", n.end());
  }

  void emit(std::string text, uint32_t offset) { out.push_back({std::move(text), offset}); }

  const SyntaxTree& tree_;
  mutable TSTreeCursor cursor_;
  TSFieldId subscript_field_ = 0;
  TSFieldId body_field_ = 0;
};

}  // namespace

void canonicalize(const SyntaxTree& tree, std::vector<CanonicalToken>& tokens,
                  std::vector<CanonicalToken>& comments) {
  Canonicalizer c(tree);
  c.run();
  tokens = std::move(c.out);
  comments = std::move(c.comments);
}

std::vector<CanonicalToken> canonical_tree(const SyntaxTree& tree) {
  std::vector<CanonicalToken> tokens, comments;
  canonicalize(tree, tokens, comments);
  return tokens;
}

std::vector<CanonicalToken> canonical_comments(const SyntaxTree& tree) {
  std::vector<CanonicalToken> tokens, comments;
  canonicalize(tree, tokens, comments);
  return comments;
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

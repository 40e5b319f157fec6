// Human messages for tree-sitter's ERROR and MISSING nodes: one diagnostic per error region,
// worded from what was expected or found and where ("expected ':' after the function
// signature", "unexpected indentation", "unterminated string literal").
#include <algorithm>
#include <string>
#include <vector>

#include "syntax/cst.h"
#include "syntax/frontend.h"
#include "syntax/src/scanner_limits.h"

namespace relax::syntax {

namespace {

// "the function signature", "the `if` condition": what a missing token would have ended.
std::string context_of(Node parent) {
  switch (parent.kind()) {
    case NodeKind::kFunctionDefinition:
      return " after the function signature";
    case NodeKind::kClassDefinition:
      return " after the class name";
    case NodeKind::kIfStatement:
    case NodeKind::kElifClause:
      return " after the `if` condition";
    case NodeKind::kElseClause:
      return " after `else`";
    case NodeKind::kForStatement:
      return " after the `for` header";
    case NodeKind::kWhileStatement:
      return " after the `while` condition";
    case NodeKind::kWithStatement:
      return " after the `with` items";
    case NodeKind::kArgumentList:
      return " to close the argument list";
    case NodeKind::kParameters:
      return " to close the parameter list";
    case NodeKind::kSubscript:
      return " to close the subscript";
    case NodeKind::kList:
      return " to close the list";
    case NodeKind::kDictionary:
      return " to close the dictionary";
    case NodeKind::kTuple:
    case NodeKind::kParenthesizedExpression:
      return " to close the parenthesis";
    default:
      return "";
  }
}

std::string shorten(std::string_view text) {
  std::string s(text.substr(0, text.find('\n')));
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// The leaf tokens of a subtree, in order (a loop: an error region can be nested deeply).
void collect_leaves(Node node, std::vector<Node>& out) {
  std::vector<Node> stack{node};
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    if (n.child_count() == 0) {
      out.push_back(n);
      continue;
    }
    std::vector<Node> children = n.children();
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
}

// A block the scanner's indent stack cannot hold (syntax/src/scanner_limits.h): the scanner made
// the region one indent_overflow token. Reported at its first line with code, whatever error
// recovery did around it (the region can take the whole function into the ERROR).
bool report_indent_overflow(const std::vector<Node>& leaves, ir::DiagnosticBag& diags) {
  for (Node leaf : leaves) {
    if (leaf.type() != std::string_view("indent_overflow")) continue;
    // The token can start at the end of the header line: point at the first line with code,
    // measuring its indentation as the scanner does (tabs to the next multiple of 8).
    const std::string& text = leaf.tree()->text();
    size_t pos = leaf.start(), end = std::min<size_t>(leaf.end(), text.size());
    while (pos < end && std::string_view(" \t\f\r\n").find(text[pos]) != std::string_view::npos)
      ++pos;
    size_t line_begin = pos == 0 ? 0 : text.rfind('\n', pos - 1);
    line_begin = line_begin == std::string::npos ? 0 : line_begin + 1;
    uint64_t column = 0;
    for (size_t i = line_begin; i < pos; ++i) {
      if (text[i] == ' ')
        ++column;
      else if (text[i] == '\t')
        column = (column / 8 + 1) * 8;
      else if (text[i] == '\f')
        column = 0;
    }
    size_t line_end = std::min(text.find('\n', pos), end);
    ir::Span at = leaf.span();
    auto offset = [&](size_t p) { return at.begin + static_cast<uint32_t>(p - leaf.start()); };
    ir::Span span{at.file, offset(pos), offset(std::max(line_end, pos))};
    if (column > RELAX_SCANNER_MAX_COLUMN) {
      diags.error("E0106", span,
                  "line indented past column " + std::to_string(RELAX_SCANNER_MAX_COLUMN) +
                      ": its block cannot be read");
    } else {
      diags.error("E0106", span,
                  "blocks nested more than " + std::to_string(RELAX_SCANNER_MAX_INDENTS - 1) +
                      " levels deep: this block cannot be read");
    }
    return true;
  }
  return false;
}

const char* header_context(std::string_view keyword) {
  if (keyword == "def") return "after the function signature";
  if (keyword == "class") return "after the class name";
  if (keyword == "if" || keyword == "elif") return "after the `if` condition";
  if (keyword == "while") return "after the `while` condition";
  if (keyword == "for") return "after the `for` header";
  if (keyword == "with") return "after the `with` items";
  if (keyword == "else") return "after `else`";
  return nullptr;
}

// A compound statement header inside the error region that never reaches its ':'. Reports
// "expected ':' after ..." just after the header's last token.
bool report_missing_colon(const std::vector<Node>& leaves, ir::DiagnosticBag& diags) {
  for (size_t i = 0; i < leaves.size(); ++i) {
    const char* context = header_context(leaves[i].type());
    if (!context || leaves[i].is_named()) continue;
    int depth = 0;
    Node last = leaves[i];
    size_t j = i + 1;
    for (; j < leaves.size(); ++j) {
      std::string_view t = leaves[j].type();
      if (depth == 0 && t == ":") break;
      // The header ends at the end of its line, outside brackets.
      if (depth == 0 && leaves[j].start_point().row > last.end_point().row) break;
      if (t == "(" || t == "[" || t == "{") ++depth;
      if ((t == ")" || t == "]" || t == "}") && depth > 0) --depth;
      last = leaves[j];
    }
    if (j < leaves.size() && leaves[j].type() == std::string_view(":")) continue;
    ir::Span at = last.span();
    diags.error("E0102", ir::Span{at.file, at.end, at.end + 1},
                std::string("expected ':' ") + context);
    return true;
  }
  return false;
}

// An opening bracket in the error region that is never closed.
bool report_unclosed_bracket(const std::vector<Node>& leaves, ir::DiagnosticBag& diags) {
  std::vector<Node> open;
  for (Node leaf : leaves) {
    std::string_view t = leaf.type();
    if (leaf.is_missing()) continue;
    if (t == "(" || t == "[" || t == "{")
      open.push_back(leaf);
    else if ((t == ")" || t == "]" || t == "}") && !open.empty())
      open.pop_back();
  }
  if (open.empty()) return false;
  Node culprit = open.front();
  diags.error("E0105", culprit.span(), "`" + std::string(culprit.type()) + "` was never closed");
  return true;
}

void report_error_node(Node error, ir::DiagnosticBag& diags) {
  std::vector<Node> leaves;
  collect_leaves(error, leaves);
  if (report_indent_overflow(leaves, diags)) return;
  // An unterminated string: a string start whose string has no (real) end.
  for (Node leaf : leaves) {
    if (leaf.type() != std::string_view("string_start")) continue;
    bool closed = false;
    for (Node sibling : leaf.parent().children()) {
      if (sibling.type() == std::string_view("string_end") && !sibling.is_missing()) closed = true;
    }
    if (!closed) {
      diags.error("E0103", leaf.span(), "unterminated string literal");
      return;
    }
  }
  if (report_unclosed_bracket(leaves, diags)) return;
  if (report_missing_colon(leaves, diags)) return;
  Node parent = error.parent();
  ir::Span span = error.span();
  Node first = leaves.empty() ? error : leaves.front();
  std::string token = shorten(first.text());
  if (token.empty()) token = shorten(error.text());
  if (token.empty()) {
    diags.error("E0101", span, "syntax error");
    return;
  }
  // Indentation problems show up as errors that start a line with whitespace before them.
  TSPoint start = error.start_point();
  if (start.column > 0 && parent.kind() == NodeKind::kModule && error.prev_sibling().is_null()) {
    diags.error("E0104", span, "unexpected indentation");
    return;
  }
  std::string where;
  if (!parent.is_null() && parent.kind() != NodeKind::kModule &&
      parent.kind() != NodeKind::kBlock) {
    where = std::string(" in this ") + parent.type();
    for (char& c : where) {
      if (c == '_') c = ' ';
    }
  }
  diags.error("E0101", first.span(), "unexpected `" + token + "`" + where);
}

// Typographic quotes, as text pasted from a document or a web page has them where TVMScript
// needs straight ones.
struct CurlyQuote {
  std::string_view utf8;
  char straight;
};
const CurlyQuote kCurlyQuotes[] = {
    {"\xE2\x80\x9C", '"'}, {"\xE2\x80\x9D", '"'}, {"\xE2\x80\x98", '\''}, {"\xE2\x80\x99", '\''}};

// When the lines of an error region hold curly quotes: a note saying so, and a fix (unsafe: a
// quote inside a string would change too) straightening them.
// `noted_up_to`: the end of the last line range noted, so that the errors of one line (each
// curly quote may be one) get one note and one fix.
void note_curly_quotes(const SyntaxTree& tree, Node error, ir::Diagnostic& d, size_t& noted_up_to) {
  const std::string& text = tree.text();
  size_t begin = std::min<size_t>(error.start(), text.size());
  size_t end = std::min<size_t>(error.end(), text.size());
  size_t line_begin = text.rfind('\n', begin == 0 ? 0 : begin - 1);
  line_begin = line_begin == std::string::npos || begin == 0 ? 0 : line_begin + 1;
  size_t line_end = text.find('\n', end);
  if (line_end == std::string::npos) line_end = text.size();
  size_t first = std::string::npos, last = 0;
  for (size_t i = line_begin; i < line_end; ++i) {
    for (const CurlyQuote& q : kCurlyQuotes) {
      if (std::string_view(text).substr(i, q.utf8.size()) == q.utf8) {
        if (first == std::string::npos) first = i;
        last = i + q.utf8.size();
      }
    }
  }
  if (first == std::string::npos || first < noted_up_to) return;
  noted_up_to = line_end;
  std::string straightened;
  for (size_t i = first; i < last;) {
    bool replaced = false;
    for (const CurlyQuote& q : kCurlyQuotes) {
      if (std::string_view(text).substr(i, q.utf8.size()) == q.utf8) {
        straightened.push_back(q.straight);
        i += q.utf8.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) straightened.push_back(text[i++]);
  }
  d.note(
      "\xE2\x80\x9C \xE2\x80\x9D \xE2\x80\x98 \xE2\x80\x99 are typographic quotes (text pasted "
      "from a "
      "document or a web page?): TVMScript strings are written with straight quotes, \" or '");
  uint32_t base = tree.base();
  d.with_fix("use straight quotes",
             ir::Span{tree.file(), static_cast<uint32_t>(first + base),
                      static_cast<uint32_t>(last + base)},
             straightened, ir::FixSafety::kUnsafe);
}

}  // namespace

void report_syntax_errors(const SyntaxTree& tree, ir::DiagnosticBag& diags) {
  Node root = tree.root();
  if (!root.has_error()) return;
  // Depth-first, in source order, remembering each node's parent (tree-sitter's own parent
  // lookup is unreliable for zero-width MISSING nodes).
  std::vector<std::pair<Node, Node>> stack{{root, Node()}};
  size_t curly_noted_up_to = 0;
  // Past the error limit (ir::DiagnosticBag) the rest of the tree is not looked at.
  while (!stack.empty() && !diags.limit_reached()) {
    auto [node, parent] = stack.back();
    stack.pop_back();
    if (node.is_error()) {
      size_t before = diags.size();
      report_error_node(node, diags);
      if (diags.size() > before)
        note_curly_quotes(tree, node, diags.items().back(), curly_noted_up_to);
      continue;
    }
    if (node.is_missing()) {
      std::string expected =
          node.is_named() ? std::string(node.type()) : "'" + std::string(node.type()) + "'";
      if (expected == "'_newline'" || expected == "_newline") expected = "a new line";
      if (expected == "'_indent'" || expected == "_indent") expected = "an indented block";
      ir::Diagnostic& d =
          diags.error("E0102", node.span(), "expected " + expected + context_of(parent));
      // A missing closing bracket points back at the bracket it would close.
      std::string_view closer = node.type();
      const char* opener = closer == ")"   ? "("
                           : closer == "]" ? "["
                           : closer == "}" ? "{"
                                           : nullptr;
      if (opener && !parent.is_null()) {
        for (Node sibling : parent.children()) {
          if (sibling.type() == std::string_view(opener)) {
            d.label(sibling.span(), std::string("to match this '") + opener + "'");
            break;
          }
        }
      }
      continue;
    }
    if (!node.has_error()) continue;
    std::vector<Node> children = node.children();
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.emplace_back(*it, node);
  }
}

}  // namespace relax::syntax

// Statement layouts: blank lines between statements (two around top-level definitions, one
// inside, at most one kept in blocks), clause headers with their colon comments, assignments
// that prefer splitting the right-hand side (ruff's best-fitting variants), function signatures,
// decorators, `# fmt: skip` and `# fmt: off` regions kept as written.
#include <algorithm>

#include "syntax/format/formatter.h"
#include "syntax/format/literals.h"
#include "syntax/format/trivia.h"

namespace relax::syntax::format {

namespace {

bool is_def(NodeType t) {
  return t == NodeType::kFunctionDef || t == NodeType::kClassDef;
}
bool is_import(NodeType t) {
  return t == NodeType::kImport || t == NodeType::kImportFrom;
}
bool is_compound(NodeType t) {
  return t == NodeType::kIf || t == NodeType::kFor || t == NodeType::kWhile ||
         t == NodeType::kWith || t == NodeType::kFunctionDef || t == NodeType::kClassDef;
}

// `# fmt: skip`, `# fmt: off`, `# fmt: on` (and yapf's disable/enable), alone or as the last of
// several `#`-separated pragmas.
enum class Suppression { kNone, kSkip, kOff, kOn };

Suppression suppression_kind(std::string_view text) {
  // Look at each `#`-separated part.
  Suppression result = Suppression::kNone;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t next = text.find('#', pos + 1);
    std::string_view part =
        text.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos);
    if (!part.empty() && part[0] == '#') part.remove_prefix(1);
    while (!part.empty() && (part.front() == ' ' || part.front() == '\t')) part.remove_prefix(1);
    while (!part.empty() && (part.back() == ' ' || part.back() == '\t')) part.remove_suffix(1);
    if (part == "fmt: skip" || part == "fmt:skip") result = Suppression::kSkip;
    if (part == "fmt: off" || part == "fmt:off" || part == "yapf: disable")
      result = Suppression::kOff;
    if (part == "fmt: on" || part == "fmt:on" || part == "yapf: enable") result = Suppression::kOn;
    if (next == std::string_view::npos) break;
    pos = next;
  }
  return result;
}

Suppression whole_comment_kind(std::string_view text) {
  // fmt: off / on must be the whole comment.
  std::string_view t = text;
  if (!t.empty() && t[0] == '#') t.remove_prefix(1);
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  if (t == "fmt: off" || t == "fmt:off" || t == "yapf: disable") return Suppression::kOff;
  if (t == "fmt: on" || t == "fmt:on" || t == "yapf: enable") return Suppression::kOn;
  return Suppression::kNone;
}

}  // namespace

// ---- module and suites ----

void Formatter::format_module() {
  const AstNode& module = n(ast_.root());
  with_level(Level::kTopLevel, 0, [&] {
    if (module.list.empty()) {
      if (!comments_.any_comments()) {
        // An empty file stays empty; one with only line breaks keeps one.
        if (lines_after(source_, 0) > 0) doc_.empty_line();
        return;
      }
      leading_comments(comments_.leading(ast_.root()));
      dangling_comments(comments_.dangling(ast_.root()));
    } else {
      suite(module.list, SuiteKind::kTopLevel);
    }
    doc_.hard_line();
  });
}

uint32_t Formatter::statement_source_end(int32_t s) const {
  return n(s).end;
}

bool Formatter::is_docstring_stmt(int32_t s) const {
  const AstNode& node = n(s);
  if (node.type != NodeType::kExprStmt) return false;
  const AstNode& value = n(node.a);
  if (value.type != NodeType::kString) return false;
  // Byte strings and f-strings are not docstrings.
  for (int32_t part : value.list) {
    for (char c : split_string(n(part).text).prefix) {
      if (c == 'b' || c == 'B' || c == 'f' || c == 'F' || c == 't' || c == 'T') return false;
    }
  }
  return true;
}

bool Formatter::is_suppressed(int32_t s) const {
  for (uint32_t c : comments_.trailing(s)) {
    const SourceComment& sc = comments_.comment(c);
    if (sc.own_line) continue;
    Suppression k = suppression_kind(source_.substr(sc.start, sc.end - sc.start));
    if (k == Suppression::kSkip || k == Suppression::kOff) return true;
  }
  return false;
}

namespace {

// The last statement of a body, looked up recursively, that is a def or class and is not
// followed by a trailing own-line comment on the way down.
int32_t trailing_def(const Ast& ast, const Comments& comments, int32_t stmt) {
  int32_t cur = stmt;
  while (cur != kNone) {
    if (comments.has_trailing_own_line(cur)) return kNone;
    if (is_def(ast.node(cur).type)) return cur;
    cur = ast.last_child_in_body(cur);
  }
  return kNone;
}

bool only_ellipsis(const Ast& ast, const Comments& comments, IdList body) {
  if (body.size() != 1) return false;
  const AstNode& s = ast.node(body[0]);
  if (s.type != NodeType::kExprStmt) return false;
  const AstNode& v = ast.node(s.a);
  return v.type == NodeType::kConstant && v.text == "..." && v.parens == 0 &&
         !comments.has_leading(body[0]) && !comments.has_trailing_own_line(body[0]);
}

}  // namespace

void Formatter::suite(IdList stmts, SuiteKind kind) {
  if (stmts.empty()) return;
  Level level = kind == SuiteKind::kTopLevel ? Level::kTopLevel : Level::kCompound;
  Level saved_level = level_;
  GroupId saved_group = level_group_;
  level_ = level;
  level_group_ = 0;
  int32_t first = stmts.front();
  if ((kind == SuiteKind::kOther || kind == SuiteKind::kOtherLast) && is_def(n(first).type) &&
      !comments_.has_leading(first)) {
    doc_.empty_line();
  }
  bool first_is_docstring =
      (kind == SuiteKind::kFunction || kind == SuiteKind::kClass || kind == SuiteKind::kTopLevel) &&
      is_docstring_stmt(first);
  if (kind == SuiteKind::kFunction && !first_is_docstring) {
    // Black keeps (at most) one empty line at the start of a function body.
    std::span<const uint32_t> lead = comments_.leading(first);
    uint32_t start = lead.empty() ? n(first).start : comments_.comment(lead.front()).start;
    if (lines_before(source_, start) > 1) doc_.empty_line();
  }
  size_t i = 0;
  int32_t preceding = suppressed_region(stmts, i, kind);
  if (preceding == kNone) {
    if (first_is_docstring) {
      docstring(first);
    } else {
      statement(first);
    }
    preceding = first;
    i = 1;
  }
  bool empty_line_after_docstring = first_is_docstring && preceding == first &&
                                    (kind == SuiteKind::kClass || kind == SuiteKind::kTopLevel);
  while (i < stmts.size()) {
    int32_t following = stmts[i];
    if (kind == SuiteKind::kTopLevel && i + 1 == stmts.size()) top_level_last_ = true;
    NodeType ft = n(following).type;
    NodeType pt = n(preceding).type;
    bool needs_empty_lines = is_def(ft) || trailing_def(ast_, comments_, preceding) != kNone;
    if (needs_empty_lines) {
      // A stub function followed by another function without an empty line stays grouped.
      bool stub_group = ft == NodeType::kFunctionDef && pt == NodeType::kFunctionDef &&
                        only_ellipsis(ast_, comments_, n(preceding).list) &&
                        lines_after_ignoring_end_of_line_trivia(source_, n(preceding).end) < 2 &&
                        !comments_.has_trailing_own_line(preceding);
      if (!stub_group) {
        if (kind == SuiteKind::kTopLevel) {
          doc_.empty_line();
          doc_.empty_line();
        } else {
          doc_.empty_line();
        }
      }
    } else if (is_import(pt) && (!is_import(ft) || comments_.has_leading(following))) {
      if (kind == SuiteKind::kTopLevel) {
        std::span<const uint32_t> trailing = comments_.trailing(preceding);
        uint32_t end = trailing.empty() ? n(preceding).end : comments_.comment(trailing.back()).end;
        if (lines_after(source_, end) <= 2) {
          doc_.empty_line();
        } else {
          doc_.empty_line();
          doc_.empty_line();
        }
      } else {
        doc_.empty_line();
      }
    } else if (is_compound(pt)) {
      std::span<const uint32_t> lead = comments_.leading(following);
      uint32_t start = lead.empty() ? n(following).start : comments_.comment(lead.front()).start;
      uint32_t lines = lines_before(source_, start);
      if (lines <= 1) {
        doc_.hard_line();
      } else if (lines == 2 || kind != SuiteKind::kTopLevel) {
        doc_.empty_line();
      } else {
        doc_.empty_line();
        doc_.empty_line();
      }
    } else if (empty_line_after_docstring) {
      doc_.empty_line();
    } else {
      std::span<const uint32_t> trailing = comments_.trailing(preceding);
      uint32_t end = trailing.empty() ? n(preceding).end : comments_.comment(trailing.back()).end;
      uint32_t lines = lines_after(source_, end);
      if (level_ == Level::kTopLevel) {
        if (lines <= 1) {
          doc_.hard_line();
        } else if (lines == 2) {
          doc_.empty_line();
        } else {
          doc_.empty_line();
          doc_.empty_line();
        }
      } else if (lines <= 1) {
        doc_.hard_line();
      } else {
        doc_.empty_line();
      }
    }
    size_t before = i;
    int32_t region_last = suppressed_region(stmts, i, kind);
    if (region_last != kNone) {
      preceding = region_last;
    } else {
      statement(following);
      preceding = following;
      i = before + 1;
    }
    empty_line_after_docstring = false;
  }
  level_ = saved_level;
  level_group_ = saved_group;
}

// A `# fmt: off` comment leading statement stmts[i] starts a region kept as written, up to a
// `# fmt: on` comment leading a later statement of the same suite (or the suite's end). Returns
// the region's last statement and advances `i` past it, or kNone when stmts[i] starts no region.
int32_t Formatter::suppressed_region(IdList stmts, size_t& i, SuiteKind kind) {
  int32_t first = stmts[i];
  std::span<const uint32_t> lead = comments_.leading(first);
  size_t off = lead.size();
  for (size_t k = 0; k < lead.size(); ++k) {
    const SourceComment& c = comments_.comment(lead[k]);
    if (c.own_line &&
        whole_comment_kind(source_.substr(c.start, c.end - c.start)) == Suppression::kOff) {
      off = k;
      break;
    }
  }
  if (off == lead.size()) return kNone;
  // Comments before `# fmt: off` and the comment itself are formatted as usual.
  leading_comments(lead.subspan(0, off + 1));
  // Find the end: the statement before the first `# fmt: on` leading a later statement.
  size_t last = i;
  uint32_t region_end = n(first).end;
  size_t j = i;
  for (; j < stmts.size(); ++j) {
    int32_t s = stmts[j];
    if (j > i) {
      bool on = false;
      for (uint32_t c : comments_.leading(s)) {
        const SourceComment& sc = comments_.comment(c);
        if (sc.own_line &&
            whole_comment_kind(source_.substr(sc.start, sc.end - sc.start)) == Suppression::kOn) {
          on = true;
          break;
        }
      }
      if (on) break;
    }
    last = j;
    region_end = n(s).end;
    // Trailing comments on the same line (and own-line ones) belong to the region.
    for (uint32_t c : comments_.trailing(s))
      region_end = std::max(region_end, comments_.comment(c).end);
  }
  (void)kind;
  // The region starts after the `# fmt: off` comment's line.
  uint32_t start = comments_.comment(lead[off]).end;
  while (start < source_.size() && source_[start] != '\n') ++start;
  if (start < source_.size()) ++start;
  // Leading comments after `# fmt: off` are part of the region; mark all comments inside.
  for (uint32_t c = 0; c < comments_.size(); ++c) {
    const SourceComment& sc = comments_.comment(c);
    if (sc.start >= start && sc.end <= region_end) comments_.mark_formatted(c);
  }
  // Keep the text from the start of the first line (its indentation included).
  std::string_view text = source_.substr(start, region_end - start);
  std::string out;
  out.reserve(text.size());
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '\r') {
      out.push_back('\n');
      if (k + 1 < text.size() && text[k + 1] == '\n') ++k;
    } else {
      out.push_back(text[k]);
    }
  }
  // The printer indents the first line itself: drop its own indentation.
  size_t ws = 0;
  while (ws < out.size() && (out[ws] == ' ' || out[ws] == '\t')) ++ws;
  doc_.text(std::string_view(out).substr(ws));
  i = last + 1;
  // Trailing own-line comments after the region that were not inside it stay unformatted; the
  // statement's trailing comments were all inside.
  return stmts[last];
}

void Formatter::statement(int32_t s) {
  if (is_suppressed(s)) {
    suppressed_statement(s);
    return;
  }
  const AstNode& node = n(s);
  leading_comments(comments_.leading(s));
  statement_fields(s);
  trailing_comments(comments_.trailing(s));
  (void)node;
}

void Formatter::suppressed_statement(int32_t s) {
  const AstNode& node = n(s);
  std::span<const uint32_t> leading = comments_.leading(s);
  for (uint32_t c : leading) {
    if (comments_.comment(c).start > node.start) comments_.mark_formatted(c);
  }
  for (uint32_t c : comments_.trailing(s)) {
    if (comments_.comment(c).start < node.end) comments_.mark_formatted(c);
  }
  leading_comments(leading);
  verbatim_text(node.start, node.end);
  trailing_comments(comments_.trailing(s));
}

void Formatter::statement_fields(int32_t s) {
  const AstNode& node = n(s);
  switch (node.type) {
    case NodeType::kExprStmt: {
      const AstNode& v = n(node.a);
      bool arithmetic = false;
      if (v.type == NodeType::kBinOp) {
        BinaryOp op = static_cast<BinaryOp>(v.op);
        arithmetic = op == BinaryOp::kBitOr || op == BinaryOp::kBitXor || op == BinaryOp::kLShift ||
                     op == BinaryOp::kRShift || op == BinaryOp::kAdd || op == BinaryOp::kSub;
      }
      if (arithmetic) {
        maybe_parenthesize(node.a, s, Parenthesize::kOptional);
      } else {
        expr(node.a);
      }
      break;
    }
    case NodeType::kAssign:
      assign(s);
      break;
    case NodeType::kAnnAssign:
      ann_assign(s);
      break;
    case NodeType::kAugAssign:
      aug_assign(s);
      break;
    case NodeType::kReturn:
      return_stmt(s);
      break;
    case NodeType::kPass:
      token("pass");
      break;
    case NodeType::kBreak:
      token("break");
      break;
    case NodeType::kContinue:
      token("continue");
      break;
    case NodeType::kAssert:
      assert_stmt(s);
      break;
    case NodeType::kIf:
      if_stmt(s);
      break;
    case NodeType::kFor:
      for_stmt(s);
      break;
    case NodeType::kWhile:
      while_stmt(s);
      break;
    case NodeType::kWith:
      with_stmt(s);
      break;
    case NodeType::kFunctionDef:
      function_def(s);
      break;
    case NodeType::kClassDef:
      class_def(s);
      break;
    case NodeType::kImport:
      import_stmt(s);
      break;
    case NodeType::kImportFrom:
      import_from(s);
      break;
    default:
      verbatim_statement(s, node.start, node.end);
      break;
  }
}

void Formatter::verbatim_statement(int32_t s, uint32_t start, uint32_t end) {
  (void)s;
  // Keep the statement as written; lines after the first are shifted with the block, except
  // those inside multi-line strings.
  std::string_view text = source_.substr(start, end - start);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  int32_t source_indent = indentation_at(source_, start);
  for (uint32_t i = 0; i < comments_.size(); ++i) {
    const SourceComment& c = comments_.comment(i);
    if (c.start >= start && c.end <= start + text.size()) comments_.mark_formatted(i);
  }
  if (text.find('\n') == std::string_view::npos || source_indent < 0) {
    verbatim_text(start, start + static_cast<uint32_t>(text.size()));
    return;
  }
  // Re-indent the continuation lines: by the difference between the block's indentation in the
  // output and in the source. Lines inside strings are left alone.
  int32_t delta = static_cast<int32_t>(indent_level_ * 4) - source_indent;
  std::string out;
  size_t line_start = 0;
  bool first_line = true;
  while (line_start <= text.size()) {
    size_t nl = text.find('\n', line_start);
    std::string_view line = text.substr(
        line_start, nl == std::string_view::npos ? std::string_view::npos : nl - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (first_line) {
      out.append(line);
      first_line = false;
    } else {
      out.push_back('\n');
      uint32_t offset = start + static_cast<uint32_t>(line_start);
      bool in_string = false;
      (void)offset;
      size_t ws = 0;
      while (ws < line.size() && (line[ws] == ' ' || line[ws] == '\t')) ++ws;
      if (!in_string && ws < line.size() && delta != 0) {
        int32_t new_ws = static_cast<int32_t>(ws) + delta;
        if (new_ws < 0) new_ws = 0;
        out.append(static_cast<size_t>(new_ws), ' ');
        out.append(line.substr(ws));
      } else {
        out.append(line);
      }
    }
    if (nl == std::string_view::npos) break;
    line_start = nl + 1;
  }
  doc_.text(out);
}

// ---- clause headers and bodies ----

void Formatter::clause_header(int32_t header_node, std::span<const uint32_t> colon_comments,
                              const Content& c, std::span<const uint32_t> leading,
                              int32_t last_node) {
  (void)header_node;
  if (!leading.empty() || last_node != kNone) leading_alternate_branch_comments(leading, last_node);
  bool skip = false;
  for (uint32_t cm : colon_comments) {
    const SourceComment& sc = comments_.comment(cm);
    if (!sc.own_line) {
      Suppression k = suppression_kind(source_.substr(sc.start, sc.end - sc.start));
      if (k == Suppression::kSkip || k == Suppression::kOff) skip = true;
    }
  }
  if (skip) {
    // The header as written, up to and including its colon.
    uint32_t colon_end = comments_.comment(colon_comments.front()).start;
    while (colon_end > 0 && source_[colon_end - 1] != ':') --colon_end;
    uint32_t start = n(header_node).start;
    if (n(header_node).type == NodeType::kFunctionDef ||
        n(header_node).type == NodeType::kClassDef) {
      const AstNode& def = n(header_node);
      uint32_t from = def.list2.empty() ? def.start : n(def.list2.back()).end;
      Tokenizer tz(source_, from, def.end);
      for (Token t = tz.next_non_trivia(); t.kind != Tok::kEnd; t = tz.next_non_trivia()) {
        if (t.kind == Tok::kWord) {
          start = t.start;
          break;
        }
      }
    } else if (n(header_node).type == NodeType::kFor || n(header_node).type == NodeType::kWhile) {
      // An `else:` header of a loop: the keyword starts the header.
      uint32_t kw = colon_end;
      while (kw > 0 && !(source_.substr(kw, 4) == "else")) --kw;
      if (comments_.comment(colon_comments.front()).start > n(header_node).start &&
          !n(header_node).list2.empty() && kw > n(n(header_node).list.back()).end) {
        start = kw;
      }
    }
    verbatim_text(start, colon_end);
  } else {
    c();
    token(":");
  }
  trailing_comments(colon_comments);
}

void Formatter::clause_body(IdList body, SuiteKind kind, std::span<const uint32_t> colon_comments) {
  bool collapse = (kind == SuiteKind::kFunction || kind == SuiteKind::kClass) &&
                  only_ellipsis(ast_, comments_, body) && colon_comments.empty();
  if (collapse) {
    space();
    suite(body, kind);
    doc_.hard_line();
    return;
  }
  trailing_comments(colon_comments);
  ++indent_level_;
  block_indent([&] { suite(body, kind); });
  --indent_level_;
}

// ---- simple statements ----

namespace {

bool should_inline_comments(const Ast& ast, int32_t value) {
  const AstNode& v = ast.node(value);
  switch (v.type) {
    case NodeType::kName:
    case NodeType::kConstant:
    case NodeType::kNumber:
      return true;
    case NodeType::kString:
      return v.list.size() == 1 && !ast.node(v.list[0]).flag;
    default:
      return false;
  }
}

}  // namespace

void Formatter::last_expression_left_to_right(int32_t value, int32_t stmt) {
  bool implicit = implicit_flat_possible(value);
  if (!should_inline_comments(ast_, value) && !implicit) {
    maybe_parenthesize(value, stmt, Parenthesize::kIfBreaks);
    return;
  }
  if (comments_.has_leading(value) || comments_.has_trailing_own_line(value)) {
    expr(value, Parens::kAlways);
    return;
  }
  // End-of-line comments of the value and of the statement go inside the parentheses when the
  // value gets parenthesized.
  std::vector<uint32_t> expr_comments, stmt_comments;
  for (uint32_t c : comments_.trailing(value)) {
    if (!comments_.comment(c).own_line) expr_comments.push_back(c);
  }
  for (uint32_t c : comments_.trailing(stmt)) {
    if (comments_.comment(c).own_line) break;
    stmt_comments.push_back(c);
  }
  auto inline_comments = [&] {
    for (uint32_t c : expr_comments) comments_.mark_unformatted(c);
    for (uint32_t c : stmt_comments) comments_.mark_unformatted(c);
    trailing_comments(expr_comments);
    trailing_comments(stmt_comments);
  };
  bool any = !expr_comments.empty() || !stmt_comments.empty();
  GroupId id = doc_.new_group_id();
  if (implicit) {
    // Join the parts when that fits (inlining the comments), else parenthesize the joined string,
    // else one part per line.
    for (uint32_t c : expr_comments) comments_.mark_formatted(c);
    with_level(Level::kExpression, id, [&] {
      doc_.begin_slice();
      implicit_flat(value);
      uint32_t flat = doc_.end_slice();
      std::vector<uint32_t> variants;
      doc_.begin_variant();
      doc_.interned(flat);
      inline_comments();
      variants.push_back(doc_.end_variant());
      doc_.begin_variant();
      group(
          [&] {
            token("(");
            soft_block_indent([&] {
              doc_.interned(flat);
              inline_comments();
            });
            token(")");
          },
          id, true);
      variants.push_back(doc_.end_variant());
      doc_.begin_variant();
      group(
          [&] {
            token("(");
            block_indent([&] { implicit_expanded(value, false); });
            token(")");
            inline_comments();
          },
          id, true);
      variants.push_back(doc_.end_variant());
      doc_.best_fitting(variants, BestFitMode::kAllLines);
    });
    return;
  }
  with_level(Level::kExpression, id, [&] {
    best_fit_parenthesize(
        [&] {
          for (uint32_t c : expr_comments) comments_.mark_formatted(c);
          expr(value, Parens::kNever);
          if (any) if_breaks(inline_comments);
        },
        id);
    if (any) if_fits(inline_comments, id);
  });
}

void Formatter::before_operator(int32_t e) {
  if (comments_.has_leading(e) || comments_.has_trailing(e)) {
    expr(e);
    return;
  }
  const AstNode& node = n(e);
  bool own = node.type == NodeType::kTuple || has_own_parentheses(e) != 0;
  auto attr_paren_value = [&](auto&& self, int32_t x) -> bool {
    const AstNode& t = n(x);
    if (t.type == NodeType::kAttribute) return has_parentheses(t.a) != 0 || self(self, t.a);
    if (t.type == NodeType::kSubscript) return true;
    if (t.type == NodeType::kCall) return !n(t.b).list.empty();
    return false;
  };
  bool should_parenthesize = !(own || attr_paren_value(attr_paren_value, e));
  if (should_parenthesize) {
    if (can_omit_optional_parentheses(e)) {
      optional_parentheses([&] { expr(e, Parens::kNever); });
    } else {
      parenthesize_if_expands([&] { expr(e, Parens::kNever); });
    }
  } else {
    expr(e, Parens::kNever);
  }
}

void Formatter::last_expression_right_to_left(const Content& before, int32_t before_expr,
                                              std::string_view op, int32_t value, int32_t stmt) {
  (void)before_expr;
  const AstNode& v = n(value);
  bool inline_ok = should_inline_comments(ast_, value);
  bool chain =
      v.type == NodeType::kCall || v.type == NodeType::kSubscript || v.type == NodeType::kAttribute;
  bool best_fit = chain && needs_parentheses(value, stmt) == NeedsParens::kBestFit;
  bool implicit = implicit_flat_possible(value);
  if (!inline_ok && !best_fit && !implicit) {
    before();
    space();
    token(op);
    space();
    maybe_parenthesize(value, stmt, Parenthesize::kIfBreaks);
    return;
  }
  if (comments_.has_leading(value) || comments_.has_trailing_own_line(value)) {
    before();
    space();
    token(op);
    space();
    expr(value, Parens::kAlways);
    return;
  }
  std::vector<uint32_t> expr_comments, stmt_comments;
  if (inline_ok || implicit) {
    for (uint32_t c : comments_.trailing(value)) {
      if (!comments_.comment(c).own_line) expr_comments.push_back(c);
    }
    for (uint32_t c : comments_.trailing(stmt)) {
      if (comments_.comment(c).own_line) break;
      stmt_comments.push_back(c);
    }
  }
  for (uint32_t c : expr_comments) comments_.mark_formatted(c);
  auto inline_comments = [&] {
    for (uint32_t c : expr_comments) comments_.mark_unformatted(c);
    for (uint32_t c : stmt_comments) comments_.mark_unformatted(c);
    trailing_comments(expr_comments);
    trailing_comments(stmt_comments);
  };
  // The target and the value are formatted once and referenced from every variant.
  doc_.begin_slice();
  before();
  uint32_t target = doc_.end_slice();
  if (implicit) {
    right_to_left_implicit(target, op, value, inline_comments);
    return;
  }
  if (doc_.will_break(target)) {
    doc_.interned(target);
    space();
    token(op);
    space();
    expr(value, Parens::kNever);
    inline_comments();
    return;
  }
  doc_.begin_slice();
  expr(value, Parens::kNever);
  uint32_t formatted_value = doc_.end_slice();

  std::vector<uint32_t> variants;
  // Everything on one line.
  doc_.begin_variant();
  doc_.interned(target);
  space();
  token(op);
  space();
  doc_.interned(formatted_value);
  inline_comments();
  variants.push_back(doc_.end_variant());
  if (chain) {
    // Split the call's (subscript's) own brackets, without parentheses.
    doc_.begin_variant();
    doc_.interned(target);
    space();
    token(op);
    space();
    group([&] { doc_.interned(formatted_value); }, 0, true);
    variants.push_back(doc_.end_variant());
  }
  // Parenthesize the value.
  doc_.begin_variant();
  doc_.interned(target);
  space();
  token(op);
  space();
  token("(");
  group(
      [&] {
        soft_block_indent([&] {
          doc_.interned(formatted_value);
          inline_comments();
        });
      },
      0, true);
  token(")");
  variants.push_back(doc_.end_variant());
  // Split the target, keep the value flat.
  doc_.begin_variant();
  group([&] { doc_.interned(target); }, 0, true);
  space();
  token(op);
  space();
  doc_.interned(formatted_value);
  inline_comments();
  variants.push_back(doc_.end_variant());
  doc_.best_fitting(variants);
}

void Formatter::right_to_left_implicit(uint32_t target, std::string_view op, int32_t value,
                                       const Content& inline_comments) {
  bool target_breaks = doc_.will_break(target);
  doc_.begin_slice();
  implicit_flat(value);
  uint32_t flat = doc_.end_slice();
  GroupId id = doc_.new_group_id();
  doc_.begin_slice();
  with_level(Level::kExpression, id, [&] { implicit_expanded(value, false); });
  uint32_t expanded = doc_.end_slice();
  auto head = [&](bool split_target) {
    if (split_target) {
      group([&] { doc_.interned(target); }, 0, true);
    } else {
      doc_.interned(target);
    }
    space();
    token(op);
    space();
  };
  auto flat_value = [&] {
    doc_.interned(flat);
    inline_comments();
  };
  auto parenthesized_flat = [&] {
    token("(");
    group([&] { soft_block_indent(flat_value); }, 0, true);
    token(")");
  };
  auto parenthesized_multiline = [&] {
    token("(");
    group([&] { soft_block_indent([&] { doc_.interned(expanded); }); }, id, true);
    token(")");
    inline_comments();
  };
  std::vector<uint32_t> variants;
  auto variant = [&](const Content& c) {
    doc_.begin_variant();
    c();
    variants.push_back(doc_.end_variant());
  };
  if (!target_breaks) {
    variant([&] {
      head(false);
      flat_value();
    });
    variant([&] {
      head(false);
      parenthesized_flat();
    });
    variant([&] {
      head(false);
      parenthesized_multiline();
    });
  }
  variant([&] {
    head(true);
    flat_value();
  });
  variant([&] {
    head(true);
    parenthesized_flat();
  });
  variant([&] {
    head(true);
    parenthesized_multiline();
  });
  doc_.best_fitting(variants, BestFitMode::kAllLines);
}

void Formatter::assign(int32_t s) {
  const AstNode& node = n(s);
  int32_t first = node.list.front();
  auto target_with_equal = [&](int32_t t, bool preserve) {
    if (preserve || comments_.has_leading(t) || comments_.has_trailing(t)) {
      expr(t);
    } else {
      const AstNode& tn = n(t);
      bool own = tn.type == NodeType::kTuple || has_own_parentheses(t) != 0;
      auto attr_paren_value = [&](auto&& self, int32_t x) -> bool {
        const AstNode& a = n(x);
        if (a.type == NodeType::kAttribute) return has_parentheses(a.a) != 0 || self(self, a.a);
        if (a.type == NodeType::kSubscript) return true;
        if (a.type == NodeType::kCall) return !n(a.b).list.empty();
        return false;
      };
      if (!(own || attr_paren_value(attr_paren_value, t))) {
        parenthesize_if_expands([&] { expr(t, Parens::kNever); });
      } else {
        expr(t, Parens::kNever);
      }
    }
    space();
    token("=");
    space();
  };
  if (node.list.size() > 1) {
    target_with_equal(first, true);
    for (size_t i = 1; i + 1 < node.list.size(); ++i) target_with_equal(node.list[i], false);
    int32_t last = node.list.back();
    last_expression_right_to_left([&] { before_operator(last); }, last, "=", node.a, s);
    return;
  }
  const AstNode& fn = n(first);
  bool own = fn.type == NodeType::kTuple || has_own_parentheses(first) != 0;
  if (own && fn.parens == 0) {
    last_expression_right_to_left([&] { before_operator(first); }, first, "=", node.a, s);
    return;
  }
  target_with_equal(first, true);
  last_expression_left_to_right(node.a, s);
}

void Formatter::ann_assign(int32_t s) {
  const AstNode& node = n(s);
  expr(node.a);
  token(":");
  space();
  if (node.c != kNone) {
    if (is_splittable(node.b)) {
      last_expression_right_to_left([&] { before_operator(node.b); }, node.b, "=", node.c, s);
    } else {
      if (comments_.has_leading(node.b) || comments_.has_trailing(node.b)) {
        expr(node.b, Parens::kAlways);
      } else {
        expr(node.b, Parens::kNever);
      }
      space();
      token("=");
      space();
      last_expression_left_to_right(node.c, s);
    }
  } else {
    last_expression_left_to_right(node.b, s);
  }
}

void Formatter::aug_assign(int32_t s) {
  const AstNode& node = n(s);
  const AstNode& target = n(node.a);
  bool own = target.type == NodeType::kTuple || has_own_parentheses(node.a) != 0;
  if (own && target.parens == 0) {
    last_expression_right_to_left([&] { before_operator(node.a); }, node.a, node.text, node.b, s);
    return;
  }
  expr(node.a);
  space();
  token(node.text);
  space();
  last_expression_left_to_right(node.b, s);
}

void Formatter::return_stmt(int32_t s) {
  const AstNode& node = n(s);
  token("return");
  if (node.a == kNone) return;
  const AstNode& v = n(node.a);
  if (v.type == NodeType::kTuple && !comments_.has_leading(node.a)) {
    space();
    leading_comments(comments_.leading(node.a));
    tuple(node.a, 2);
    trailing_comments(comments_.trailing(node.a));
    return;
  }
  space();
  last_expression_left_to_right(node.a, s);
}

void Formatter::assert_stmt(int32_t s) {
  const AstNode& node = n(s);
  token("assert");
  space();
  maybe_parenthesize(node.a, s, Parenthesize::kIfBreaks);
  if (node.b != kNone) {
    token(",");
    space();
    maybe_parenthesize(node.b, s, Parenthesize::kIfBreaksParenthesized);
  }
}

void Formatter::import_stmt(int32_t s) {
  const AstNode& node = n(s);
  token("import");
  space();
  for (size_t i = 0; i < node.list.size(); ++i) {
    if (i > 0) {
      token(",");
      space();
    }
    const AstNode& al = n(node.list[i]);
    leading_comments(comments_.leading(node.list[i]));
    std::string name;
    for (char c : al.text) {
      if (c != ' ' && c != '\t' && c != '\\' && c != '\n' && c != '\r') name.push_back(c);
    }
    doc_.text(name);
    if (!al.text2.empty()) {
      token(" as ");
      token(al.text2);
    }
    trailing_comments(comments_.trailing(node.list[i]));
  }
}

void Formatter::import_from(int32_t s) {
  const AstNode& node = n(s);
  token("from");
  space();
  std::string module;
  for (char c : node.text) {
    if (c != ' ' && c != '\t' && c != '\\' && c != '\n' && c != '\r') module.push_back(c);
  }
  doc_.text(module);
  space();
  token("import");
  space();
  if (node.flag) {
    token("*");
    return;
  }
  std::span<const uint32_t> dangling = comments_.dangling(s);
  auto names = [&] {
    comma_separated(node.list, node.end, true, [&](int32_t a) {
      const AstNode& al = n(a);
      leading_comments(comments_.leading(a));
      token(al.text);
      if (!al.text2.empty()) {
        token(" as ");
        token(al.text2);
      }
      trailing_comments(comments_.trailing(a));
    });
  };
  if (!dangling.empty()) {
    parenthesized("(", names, ")", dangling);
  } else {
    parenthesize_if_expands(names);
  }
}

// ---- compound statements ----

void Formatter::if_stmt(int32_t s) {
  const AstNode& node = n(s);
  std::span<const uint32_t> colon = comments_.dangling(s);
  clause_header(s, colon, [&] {
    token("if");
    space();
    maybe_parenthesize(node.a, s, Parenthesize::kIfBreaks);
  });
  clause_body(node.list, node.list2.empty() ? SuiteKind::kOtherLast : SuiteKind::kOther, colon);
  int32_t last = node.list.back();
  for (size_t i = 0; i < node.list2.size(); ++i) {
    int32_t clause = node.list2[i];
    const AstNode& cl = n(clause);
    std::span<const uint32_t> clause_colon = comments_.dangling(clause);
    clause_header(
        clause, clause_colon,
        [&] {
          if (cl.a != kNone) {
            token("elif");
            space();
            maybe_parenthesize(cl.a, clause, Parenthesize::kIfBreaks);
          } else {
            token("else");
          }
        },
        comments_.leading(clause), last);
    clause_body(cl.list, i + 1 == node.list2.size() ? SuiteKind::kOtherLast : SuiteKind::kOther,
                clause_colon);
    last = cl.list.back();
  }
}

void Formatter::for_stmt(int32_t s) {
  const AstNode& node = n(s);
  std::span<const uint32_t> dangling = comments_.dangling(s);
  uint32_t body_start = node.list.empty() ? n(node.b).end : n(node.list.front()).start;
  size_t split = 0;
  while (split < dangling.size() && comments_.comment(dangling[split]).end < body_start) ++split;
  std::span<const uint32_t> colon = dangling.subspan(0, split);
  std::span<const uint32_t> orelse = dangling.subspan(split);
  clause_header(s, colon, [&] {
    if (node.text2 == "async") {
      token("async");
      space();
    }
    token("for");
    space();
    if (n(node.a).type == NodeType::kTuple) {
      leading_comments(comments_.leading(node.a));
      tuple(node.a, 3);
      trailing_comments(comments_.trailing(node.a));
    } else {
      maybe_parenthesize(node.a, node.a, Parenthesize::kIfBreaks);
    }
    space();
    token("in");
    space();
    maybe_parenthesize(node.b, s, Parenthesize::kIfBreaks);
  });
  clause_body(node.list, node.list2.empty() ? SuiteKind::kOtherLast : SuiteKind::kOther, colon);
  if (!node.list2.empty()) {
    size_t own = 0;
    while (own < orelse.size() && comments_.comment(orelse[own]).own_line) ++own;
    std::span<const uint32_t> leading = orelse.subspan(0, own);
    std::span<const uint32_t> trailing = orelse.subspan(own);
    clause_header(
        s, trailing, [&] { token("else"); }, leading, node.list.back());
    clause_body(node.list2, SuiteKind::kOtherLast, trailing);
  }
}

void Formatter::while_stmt(int32_t s) {
  const AstNode& node = n(s);
  std::span<const uint32_t> dangling = comments_.dangling(s);
  uint32_t body_start = n(node.list.front()).start;
  size_t split = 0;
  while (split < dangling.size() && comments_.comment(dangling[split]).end < body_start) ++split;
  std::span<const uint32_t> colon = dangling.subspan(0, split);
  std::span<const uint32_t> orelse = dangling.subspan(split);
  clause_header(s, colon, [&] {
    token("while");
    space();
    maybe_parenthesize(node.a, s, Parenthesize::kIfBreaks);
  });
  clause_body(node.list, node.list2.empty() ? SuiteKind::kOtherLast : SuiteKind::kOther, colon);
  if (!node.list2.empty()) {
    size_t own = 0;
    while (own < orelse.size() && comments_.comment(orelse[own]).own_line) ++own;
    std::span<const uint32_t> leading = orelse.subspan(0, own);
    std::span<const uint32_t> trailing = orelse.subspan(own);
    clause_header(
        s, trailing, [&] { token("else"); }, leading, node.list.back());
    clause_body(node.list2, SuiteKind::kOtherLast, trailing);
  }
}

void Formatter::with_stmt(int32_t s) {
  const AstNode& node = n(s);
  std::span<const uint32_t> dangling = comments_.dangling(s);
  uint32_t first_item = node.list2.empty() ? node.start : n(node.list2.front()).start;
  size_t split = 0;
  while (split < dangling.size() && comments_.comment(dangling[split]).start < first_item) ++split;
  std::span<const uint32_t> paren_comments = dangling.subspan(0, split);
  std::span<const uint32_t> colon = dangling.subspan(split);
  auto item = [&](int32_t it, int layout) {
    // layout: 0 parenthesized context managers, 1 single (maybe parenthesize the expression)
    const AstNode& w = n(it);
    leading_comments(comments_.leading(it));
    if (layout == 1) {
      maybe_parenthesize(w.a, it, Parenthesize::kIfBreaks);
    } else if (n(w.a).parens > 0) {
      maybe_parenthesize(w.a, it, Parenthesize::kIfBreaksParenthesizedNested);
    } else {
      expr(w.a, Parens::kNever);
    }
    if (w.b != kNone) {
      space();
      token("as");
      space();
      std::span<const uint32_t> as_comments = comments_.dangling(it);
      if (as_comments.empty()) {
        expr(w.b);
      } else {
        parenthesized(
            "(", [&] { expr(w.b, Parens::kNever); }, ")", as_comments);
      }
    }
    trailing_comments(comments_.trailing(it));
  };
  // Our grammar does not accept parenthesized context managers (`with (a as b, c):`), so the
  // layouts where ruff adds parentheses around the items are replaced by its Python 3.8 layout:
  // the items stay on the `with` line and split inside their own brackets.
  (void)paren_comments;
  clause_header(s, colon, [&] {
    if (node.text2 == "async") {
      token("async");
      space();
    }
    token("with");
    space();
    if (node.list2.size() == 1) {
      int32_t single = node.list2.front();
      const AstNode& w = n(single);
      bool comments = comments_.has_leading(single) || comments_.has_trailing(single);
      bool magic = magic_trailing_comma(w.end, node.end);
      if (!comments && !magic && (n(w.a).parens > 0 || w.b == kNone)) {
        item(single, 1);
        return;
      }
    }
    for (size_t i = 0; i < node.list2.size(); ++i) {
      if (i > 0) {
        token(",");
        space();
      }
      int32_t it = node.list2[i];
      const AstNode& w = n(it);
      leading_comments(comments_.leading(it));
      maybe_parenthesize(w.a, it,
                         n(w.a).parens > 0 ? Parenthesize::kIfBreaks : Parenthesize::kIfRequired);
      if (w.b != kNone) {
        space();
        token("as");
        space();
        expr(w.b);
      }
      trailing_comments(comments_.trailing(it));
    }
  });
  clause_body(node.list, SuiteKind::kOtherLast, colon);
}

void Formatter::decorators(int32_t s, std::span<const uint32_t> leading_definition_comments) {
  const AstNode& node = n(s);
  if (node.list2.empty()) return;
  for (size_t i = 0; i < node.list2.size(); ++i) {
    int32_t d = node.list2[i];
    if (i > 0) doc_.hard_line();
    leading_comments(comments_.leading(d));
    token("@");
    maybe_parenthesize(n(d).a, d, Parenthesize::kOptional);
    trailing_comments(comments_.trailing(d));
  }
  if (leading_definition_comments.empty()) {
    doc_.hard_line();
  } else {
    if (lines_after_ignoring_end_of_line_trivia(source_, n(node.list2.back()).end) <= 1) {
      doc_.hard_line();
    } else {
      doc_.empty_line();
    }
    leading_comments(leading_definition_comments);
  }
}

void Formatter::parameter(int32_t p) {
  const AstNode& param = n(p);
  leading_comments(comments_.leading(p));
  ParamKind kind = static_cast<ParamKind>(param.op);
  switch (kind) {
    case ParamKind::kBareStar:
      token("*");
      break;
    case ParamKind::kSlash:
      token("/");
      break;
    default:
      if (kind == ParamKind::kStar) token("*");
      if (kind == ParamKind::kDoubleStar) token("**");
      token(param.text);
      if (param.a != kNone) {
        token(":");
        if (comments_.has_leading(param.a) && n(param.a).parens == 0) {
          doc_.hard_line();
        } else {
          space();
        }
        expr(param.a);
      }
      if (param.b != kNone) {
        if (param.a != kNone) space();
        token("=");
        std::span<const uint32_t> lead = comments_.leading(param.b);
        bool line_break = false;
        if (!lead.empty()) {
          uint32_t after = param.a != kNone
                               ? n(param.a).end
                               : param.start + static_cast<uint32_t>(param.text.size());
          Tokenizer tz(source_, after, comments_.comment(lead.front()).start);
          Token t = tz.next_non_trivia();
          while (t.kind == Tok::kRParen) t = tz.next_non_trivia();
          Token lp = tz.next_non_trivia();
          line_break = lp.kind == Tok::kEnd;
        }
        if (line_break) {
          doc_.hard_line();
        } else if (param.a != kNone) {
          space();
        }
        expr(param.b);
      }
      break;
  }
  trailing_comments(comments_.trailing(p));
}

void Formatter::parameters(int32_t p) {
  const AstNode& params = n(p);
  std::span<const uint32_t> dangling = comments_.dangling(p);
  bool lambda = params.flag;
  size_t paren_end = 0;
  if (!dangling.empty() && !comments_.comment(dangling[0]).own_line) {
    Tokenizer tz(source_, params.start, comments_.comment(dangling[0]).start);
    Token t = tz.next_non_trivia();
    while (t.kind == Tok::kLParen || t.kind == Tok::kLBracket || t.kind == Tok::kLBrace)
      t = tz.next_non_trivia();
    if (t.kind == Tok::kEnd) paren_end = 1;
  }
  std::span<const uint32_t> paren_dangling = dangling.subspan(0, paren_end);
  auto inner = [&] {
    for (size_t i = 0; i < params.list.size(); ++i) {
      if (i > 0) {
        token(",");
        if (is_parenthesized_level()) {
          doc_.soft_line_or_space();
        } else {
          space();
        }
      }
      parameter(params.list[i]);
    }
    uint32_t last_end = params.list.empty() ? params.start : n(params.list.back()).end;
    bool trailing =
        !params.list.empty() && first_token_is(source_, last_end, params.end, Tok::kComma, false);
    if (lambda) {
      if (trailing) token(",");
    } else {
      if_breaks([&] { token(","); });
      if (trailing) doc_.hard_line();
    }
  };
  if (lambda) {
    group(inner);
    dangling_comments(dangling.subspan(paren_end));
    return;
  }
  if (params.list.empty()) {
    with_level(Level::kParenthesized, 0, [&] { empty_parenthesized("(", dangling, ")"); });
    return;
  }
  bool single = params.list.size() == 1 &&
                static_cast<ParamKind>(n(params.list[0]).op) != ParamKind::kBareStar &&
                static_cast<ParamKind>(n(params.list[0]).op) != ParamKind::kSlash;
  with_level(Level::kParenthesized, 0, [&] {
    token("(");
    dangling_open_parenthesis_comments(paren_dangling);
    if (single) {
      soft_block_indent(inner);
    } else {
      soft_block_indent([&] { group(inner); });
    }
    token(")");
  });
}

void Formatter::type_params(int32_t t) {
  const AstNode& tp = n(t);
  parenthesized(
      "[",
      [&] {
        comma_separated(tp.list, tp.end, false, [&](int32_t x) {
          const AstNode& p = n(x);
          leading_comments(comments_.leading(x));
          token(p.text);
          if (p.a != kNone) {
            token(":");
            space();
            expr(p.a);
          }
          trailing_comments(comments_.trailing(x));
        });
      },
      "]", comments_.dangling(t));
}

void Formatter::function_def(int32_t s) {
  const AstNode& node = n(s);
  std::span<const uint32_t> dangling = comments_.dangling(s);
  size_t split = 0;
  while (split < dangling.size() && comments_.comment(dangling[split]).own_line) ++split;
  std::span<const uint32_t> leading_definition = dangling.subspan(0, split);
  std::span<const uint32_t> colon = dangling.subspan(split);
  empty_lines_after_leading_comments(comments_.leading(s));
  decorators(s, leading_definition);
  clause_header(s, colon, [&] {
    if (node.text2 == "async") {
      token("async");
      space();
    }
    token("def");
    space();
    token(node.text);
    if (node.c != kNone) type_params(node.c);
    group([&] {
      parameters(node.a);
      if (node.b != kNone) {
        space();
        token("->");
        space();
        const AstNode& ret = n(node.b);
        if (ret.type == NodeType::kTuple) {
          expr(node.b, comments_.has_leading(node.b) ? Parens::kAlways : Parens::kNever);
        } else if (comments_.has_trailing(node.b)) {
          expr(node.b, Parens::kAlways);
        } else {
          bool empty_params = n(node.a).list.empty() && !comments_.has(node.a);
          maybe_parenthesize(
              node.b, s,
              empty_params ? Parenthesize::kIfBreaksParenthesized : Parenthesize::kIfBreaks);
        }
      }
    });
  });
  clause_body(node.list, SuiteKind::kFunction, colon);
  empty_lines_before_trailing_comments(comments_.trailing(s));
}

void Formatter::class_def(int32_t s) {
  const AstNode& node = n(s);
  std::span<const uint32_t> dangling = comments_.dangling(s);
  size_t split = 0;
  while (split < dangling.size() && comments_.comment(dangling[split]).own_line) ++split;
  std::span<const uint32_t> leading_definition = dangling.subspan(0, split);
  std::span<const uint32_t> colon = dangling.subspan(split);
  empty_lines_after_leading_comments(comments_.leading(s));
  decorators(s, leading_definition);
  clause_header(s, colon, [&] {
    token("class");
    space();
    token(node.text);
    if (node.c != kNone) type_params(node.c);
    if (node.a != kNone) {
      const AstNode& args = n(node.a);
      std::span<const uint32_t> arg_dangling = comments_.dangling(node.a);
      bool all_eol = true;
      for (uint32_t c : arg_dangling) all_eol = all_eol && !comments_.comment(c).own_line;
      if (args.list.empty() && all_eol) {
        trailing_comments(arg_dangling);
      } else {
        arguments(node.a);
      }
    }
  });
  clause_body(node.list, SuiteKind::kClass, colon);
  empty_lines_before_trailing_comments(comments_.trailing(s));
}

void Formatter::docstring(int32_t s) {
  const AstNode& node = n(s);
  const AstNode& value = n(node.a);
  std::vector<std::string> lines;
  if (is_suppressed(s) || value.list.size() != 1 ||
      !docstring_lines(normalize_string(n(value.list[0]).text), lines)) {
    statement(s);
    return;
  }
  // Parentheses around a docstring go; comments inside them move before or after it.
  leading_comments(comments_.leading(s));
  leading_comments(comments_.leading(node.a));
  leading_comments(comments_.leading(value.list[0]));
  doc_.text(lines[0]);
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) {
      doc_.empty_line();
    } else {
      doc_.hard_line();
      doc_.text(lines[i]);
    }
  }
  trailing_comments(comments_.trailing(value.list[0]));
  trailing_comments(comments_.trailing(node.a));
  trailing_comments(comments_.trailing(s));
}

}  // namespace relax::syntax::format

// Building blocks of the layout rules: groups and indentation, the node level that decides how
// soft breaks behave inside expressions, comment printing (with black's normalization and the
// blank lines kept around comments), and the parenthesization helpers ruff builds its
// expression layouts from (parenthesized, optional, if-expands, best-fit).
#include <string>

#include "syntax/format/formatter.h"
#include "syntax/format/literals.h"
#include "syntax/format/trivia.h"

namespace relax::syntax::format {

Formatter::Formatter(const Ast& ast, Comments& comments, Document& doc)
    : ast_(ast), comments_(comments), doc_(doc), source_(ast.source()) {}

// ---- document helpers ----

void Formatter::group(const Content& c, GroupId id, bool expand) {
  doc_.start_group(id, expand);
  c();
  doc_.end_group();
}

// An indented block whose content is empty leaves nothing behind (not even its line breaks).
void Formatter::soft_block_indent(const Content& c) {
  size_t mark = doc_.mark();
  doc_.start_indent();
  doc_.soft_line();
  size_t content = doc_.mark();
  c();
  if (doc_.mark() == content) {
    doc_.truncate(mark);
    return;
  }
  doc_.end_indent();
  doc_.soft_line();
}

void Formatter::block_indent(const Content& c) {
  size_t mark = doc_.mark();
  doc_.start_indent();
  doc_.hard_line();
  size_t content = doc_.mark();
  c();
  if (doc_.mark() == content) {
    doc_.truncate(mark);
    return;
  }
  doc_.end_indent();
  doc_.hard_line();
}

void Formatter::indent(const Content& c) {
  doc_.start_indent();
  c();
  doc_.end_indent();
}

void Formatter::if_breaks(const Content& c, GroupId id) {
  doc_.start_if(PrintMode::kExpanded, id);
  c();
  doc_.end_if();
}

void Formatter::if_fits(const Content& c, GroupId id) {
  doc_.start_if(PrintMode::kFlat, id);
  c();
  doc_.end_if();
}

void Formatter::with_level(Level level, GroupId group, const Content& c) {
  Level saved = level_;
  GroupId saved_group = level_group_;
  level_ = level;
  level_group_ = group;
  c();
  level_ = saved;
  level_group_ = saved_group;
}

// ---- comments ----

namespace {

bool is_pragma(std::string_view text) {
  // `# type:`, `# noqa`, `# pyright:`, `# pylint:`, `# nosec`, `# isort:`... (ruff's list).
  std::string_view t = text;
  if (!t.empty() && t[0] == '#') t.remove_prefix(1);
  while (!t.empty() && (t[0] == ' ' || t[0] == '\t')) t.remove_prefix(1);
  for (std::string_view p :
       {"type:", "noqa", "pyright:", "pylint:", "nosec", "isort:", "ruff:", "mypy:", "flake8:"}) {
    if (t.substr(0, p.size()) == p) return true;
  }
  return false;
}

}  // namespace

void Formatter::format_comment(uint32_t c) {
  const SourceComment& sc = comments_.comment(c);
  doc_.text(normalize_comment(source_.substr(sc.start, sc.end - sc.start)));
}

void Formatter::empty_lines(uint32_t lines) {
  switch (level_) {
    case Level::kTopLevel:
      if (lines <= 1) {
        doc_.hard_line();
      } else if (lines == 2) {
        doc_.empty_line();
      } else {
        doc_.empty_line();
        doc_.empty_line();
      }
      break;
    case Level::kCompound:
      if (lines <= 1) {
        doc_.hard_line();
      } else {
        doc_.empty_line();
      }
      break;
    default:
      doc_.hard_line();
      break;
  }
}

void Formatter::leading_comments(std::span<const uint32_t> cs) {
  for (uint32_t c : cs) {
    if (comments_.formatted(c)) continue;
    format_comment(c);
    empty_lines(lines_after(source_, comments_.comment(c).end));
    comments_.mark_formatted(c);
  }
}

void Formatter::trailing_end_of_line_comment(uint32_t c) {
  const SourceComment& sc = comments_.comment(c);
  std::string_view text = source_.substr(sc.start, sc.end - sc.start);
  // Reserve the comment's width (two spaces and its normalized text) unless it is a pragma.
  uint32_t reserved = 0;
  if (!is_pragma(text)) reserved = 2 + text_width(normalize_comment(text));
  doc_.start_line_suffix(reserved);
  space();
  space();
  format_comment(c);
  doc_.end_line_suffix();
  doc_.expand_parent();
}

void Formatter::trailing_comments(std::span<const uint32_t> cs) {
  bool own_line_seen = false;
  for (uint32_t c : cs) {
    if (comments_.formatted(c)) continue;
    own_line_seen |= comments_.comment(c).own_line;
    if (own_line_seen) {
      uint32_t before = lines_before(source_, comments_.comment(c).start);
      doc_.start_line_suffix(0);
      empty_lines(before);
      format_comment(c);
      doc_.end_line_suffix();
      doc_.expand_parent();
    } else {
      trailing_end_of_line_comment(c);
    }
    comments_.mark_formatted(c);
  }
}

void Formatter::dangling_comments(std::span<const uint32_t> cs) {
  bool first = true;
  for (uint32_t c : cs) {
    if (comments_.formatted(c)) continue;
    if (first) {
      if (comments_.comment(c).own_line) {
        doc_.hard_line();
      } else {
        space();
        space();
      }
    }
    format_comment(c);
    empty_lines(lines_after(source_, comments_.comment(c).end));
    comments_.mark_formatted(c);
    first = false;
  }
}

void Formatter::dangling_open_parenthesis_comments(std::span<const uint32_t> cs) {
  for (uint32_t c : cs) {
    if (comments_.formatted(c)) continue;
    trailing_end_of_line_comment(c);
    comments_.mark_formatted(c);
  }
}

void Formatter::empty_lines_after_leading_comments(std::span<const uint32_t> cs) {
  for (size_t i = cs.size(); i-- > 0;) {
    const SourceComment& c = comments_.comment(cs[i]);
    if (!c.own_line) continue;
    uint32_t wanted = level_ == Level::kTopLevel ? 2 : 1;
    uint32_t after = lines_after(source_, c.end);
    uint32_t actual = after > 0 ? after - 1 : 0;
    if (actual == 0 || actual >= wanted) return;
    for (uint32_t k = actual; k < wanted; ++k) doc_.empty_line();
    return;
  }
}

void Formatter::empty_lines_before_trailing_comments(std::span<const uint32_t> cs) {
  for (uint32_t i : cs) {
    const SourceComment& c = comments_.comment(i);
    if (!c.own_line) continue;
    uint32_t wanted = level_ == Level::kTopLevel ? 2 : 1;
    uint32_t before = lines_before(source_, c.start);
    uint32_t actual = before > 0 ? before - 1 : 0;
    for (uint32_t k = actual; k < wanted; ++k) doc_.empty_line();
    return;
  }
}

void Formatter::leading_alternate_branch_comments(std::span<const uint32_t> cs, int32_t last_node) {
  if (!cs.empty()) {
    empty_lines(lines_before(source_, comments_.comment(cs.front()).start));
    leading_comments(cs);
  } else if (last_node != kNone) {
    empty_lines(lines_after_ignoring_trivia(source_, n(last_node).end));
  }
}

// ---- parentheses ----

void Formatter::parenthesized(std::string_view left, const Content& c, std::string_view right,
                              std::span<const uint32_t> dangling, bool hug) {
  Level current = level_;
  GroupId current_group = level_group_;
  with_level(Level::kParenthesized, 0, [&] {
    token(left);
    auto indented = [&] {
      if (dangling.empty()) {
        if (hug) {
          c();
        } else {
          group([&] { soft_block_indent(c); });
        }
      } else {
        group([&] {
          dangling_open_parenthesis_comments(dangling);
          soft_block_indent(c);
        });
      }
    };
    if (current == Level::kExpression && current_group != 0) {
      // Expanding these parentheses must not force the enclosing optional parentheses open.
      doc_.start_fits_expanded(true, current_group, PrintMode::kFlat);
      indented();
      doc_.end_fits_expanded();
    } else {
      indented();
    }
    token(right);
  });
}

void Formatter::optional_parentheses(const Content& c) {
  GroupId id = doc_.new_group_id();
  with_level(Level::kExpression, id, [&] {
    group(
        [&] {
          if_breaks([&] { token("("); });
          doc_.start_indent_if_group_breaks(id);
          doc_.soft_line();
          c();
          doc_.end_indent_if_group_breaks();
          doc_.soft_line();
          if_breaks([&] { token(")"); });
        },
        id);
  });
}

void Formatter::parenthesize_if_expands(const Content& c, bool indent_content) {
  with_level(Level::kParenthesized, 0, [&] {
    group([&] {
      if_breaks([&] { token("("); });
      if (indent_content) {
        soft_block_indent(c);
      } else {
        c();
      }
      if_breaks([&] { token(")"); });
    });
  });
}

void Formatter::best_fit_parenthesize(const Content& c, GroupId id) {
  doc_.start_best_fit_parenthesize(id);
  c();
  doc_.end_best_fit_parenthesize();
}

void Formatter::empty_parenthesized(std::string_view left, std::span<const uint32_t> dangling,
                                    std::string_view right) {
  // Comments in empty brackets: end-of-line ones stay after the opening bracket, own-line ones
  // go on their own lines inside.
  size_t split = 0;
  while (split < dangling.size() && !comments_.comment(dangling[split]).own_line) ++split;
  std::span<const uint32_t> eol = dangling.subspan(0, split);
  std::span<const uint32_t> own = dangling.subspan(split);
  group([&] {
    token(left);
    trailing_comments(eol);
    if (!eol.empty()) doc_.hard_line();
    soft_block_indent([&] { dangling_comments(own); });
    token(right);
  });
}

void Formatter::in_parens_only_group_start() {
  if (level_ == Level::kExpression && level_group_ != 0) {
    doc_.start_conditional_group(level_group_, PrintMode::kExpanded);
  } else if (level_ == Level::kParenthesized) {
    doc_.start_group();
  }
}

void Formatter::in_parens_only_group_end() {
  if (level_ == Level::kExpression && level_group_ != 0) {
    doc_.end_conditional_group();
  } else if (level_ == Level::kParenthesized) {
    doc_.end_group();
  }
}

void Formatter::in_parens_only_group(const Content& c) {
  in_parens_only_group_start();
  c();
  in_parens_only_group_end();
}

void Formatter::in_parens_only_soft_line() {
  if (level_ == Level::kExpression && level_group_ != 0) {
    if_breaks([&] { doc_.soft_line(); }, level_group_);
  } else if (level_ == Level::kParenthesized) {
    doc_.soft_line();
  }
}

void Formatter::in_parens_only_soft_line_or_space() {
  if (level_ == Level::kExpression && level_group_ != 0) {
    if_breaks([&] { doc_.soft_line_or_space(); }, level_group_);
    if_fits([&] { space(); }, level_group_);
  } else if (level_ == Level::kParenthesized) {
    doc_.soft_line_or_space();
  } else {
    space();
  }
}

void Formatter::in_parens_only_if_breaks(const Content& c) {
  if (level_ == Level::kExpression && level_group_ != 0) {
    if_breaks(c, level_group_);
  } else if (level_ == Level::kParenthesized) {
    if_breaks(c);
  }
}

}  // namespace relax::syntax::format

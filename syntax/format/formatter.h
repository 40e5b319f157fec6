// The layout rules: statements and expressions of the formatter's tree to a Document. The rules
// are black's as ruff implements them (optional parentheses, magic trailing commas, right-hand
// splits before left-hand ones, blank-line normalization, comment positions); the comments in
// format_*.cc name the behaviour each piece reproduces.
#pragma once

#include <functional>
#include <string>

#include "syntax/format/ast.h"
#include "syntax/format/comments.h"
#include "syntax/format/doc.h"

namespace relax::syntax::format {

// Where the code being formatted sits; decides how soft line breaks inside expressions behave.
enum class Level : uint8_t {
  kTopLevel,       // module statements
  kCompound,       // statements in a block
  kExpression,     // an expression not enclosed in parentheses (group_ may name optional ones)
  kParenthesized,  // inside (), [] or {}
};

// How the parent wants an expression's parentheses.
enum class Parens : uint8_t { kPreserve, kAlways, kNever };

// When a parent may add parentheses around a child expression (ruff's `Parenthesize`).
enum class Parenthesize : uint8_t {
  kOptional,
  kIfBreaks,
  kIfRequired,
  kIfBreaksParenthesized,
  kIfBreaksParenthesizedNested
};

// What an expression needs to be split over lines (ruff's `OptionalParentheses`).
enum class NeedsParens : uint8_t { kMultiline, kAlways, kBestFit, kNever };

enum class SuiteKind : uint8_t { kTopLevel, kFunction, kClass, kOther, kOtherLast };

using Content = std::function<void()>;

class Formatter {
 public:
  Formatter(const Ast& ast, Comments& comments, Document& doc);

  void format_module();

 private:
  friend class LevelScope;
  const AstNode& n(int32_t i) const { return ast_.node(i); }
  std::string_view src(uint32_t start, uint32_t end) const {
    return ast_.source().substr(start, end - start);
  }

  // ---- document helpers ----
  void token(std::string_view s) { doc_.text(s); }
  void space() { doc_.space(); }
  void group(const Content& c, GroupId id = 0, bool expand = false);
  void soft_block_indent(const Content& c);
  void block_indent(const Content& c);
  void indent(const Content& c);
  void if_breaks(const Content& c, GroupId id = 0);
  void if_fits(const Content& c, GroupId id = 0);
  void with_level(Level level, GroupId group, const Content& c);

  // ---- comments ----
  void format_comment(uint32_t c);
  void leading_comments(std::span<const uint32_t> cs);
  void trailing_comments(std::span<const uint32_t> cs);
  void dangling_comments(std::span<const uint32_t> cs);
  void dangling_open_parenthesis_comments(std::span<const uint32_t> cs);
  void trailing_end_of_line_comment(uint32_t c);
  void empty_lines(uint32_t lines);
  void empty_lines_after_leading_comments(std::span<const uint32_t> cs);
  void empty_lines_before_trailing_comments(std::span<const uint32_t> cs);
  void leading_alternate_branch_comments(std::span<const uint32_t> cs, int32_t last_node);

  // ---- parentheses ----
  void parenthesized(std::string_view left, const Content& c, std::string_view right,
                     std::span<const uint32_t> dangling = {}, bool hug = false);
  void optional_parentheses(const Content& c);
  void parenthesize_if_expands(const Content& c, bool indent = true);
  void best_fit_parenthesize(const Content& c, GroupId id);
  void empty_parenthesized(std::string_view left, std::span<const uint32_t> dangling,
                           std::string_view right);
  void in_parens_only_group(const Content& c);
  void in_parens_only_group_start();
  void in_parens_only_group_end();
  void in_parens_only_soft_line();
  void in_parens_only_soft_line_or_space();
  void in_parens_only_if_breaks(const Content& c);
  bool is_parenthesized_level() const {
    return level_ == Level::kParenthesized || (level_ == Level::kExpression && level_group_ != 0);
  }

  // ---- expressions (format_expr.cc) ----
  void expr(int32_t e, Parens p = Parens::kPreserve);
  void expr_node(int32_t e);  // leading comments, fields, trailing comments
  void expr_fields(int32_t e);
  void expr_with_parentheses_comments(int32_t e);
  void maybe_parenthesize(int32_t e, int32_t parent, Parenthesize p);
  NeedsParens needs_parentheses(int32_t e, int32_t parent) const;
  bool can_omit_optional_parentheses(int32_t e) const;
  int has_own_parentheses(int32_t e) const;  // 0 none, 1 empty, 2 non-empty
  int has_parentheses(int32_t e) const;
  bool is_splittable(int32_t e) const;
  bool is_fluent(int32_t e) const;
  bool magic_trailing_comma(uint32_t last_end, uint32_t sequence_end) const;
  bool trailing_comma(uint32_t last_end, uint32_t sequence_end) const;
  void comma_separated(IdList items, uint32_t sequence_end, bool one_or_more,
                       const std::function<void(int32_t)>& each);
  void name(int32_t e);
  void number(int32_t e);
  void string(int32_t e);
  bool implicit_flat_possible(int32_t e) const;
  void implicit_flat(int32_t e);
  void implicit_expanded(int32_t e, bool multipart);
  void string_part(std::string_view literal, bool docstring = false);
  // `chain`: 0 decide (a chain's root), 1 fluent, 2 not fluent (ruff's CallChainLayout).
  int resolve_chain(int32_t e, int chain) const;
  void attribute(int32_t e, int chain);
  void call(int32_t e, int chain);
  void arguments(int32_t a);
  void subscript(int32_t e, int chain);
  void slice(int32_t e);
  void binary_like(int32_t e);
  void unary(int32_t e);
  void if_exp(int32_t e);
  void lambda(int32_t e);
  void tuple(int32_t e, int mode);
  void sequence(int32_t e, std::string_view open, std::string_view close);
  void comprehension(int32_t e);
  void comp_for(int32_t c);
  void dict(int32_t e);
  void starred(int32_t e);
  void keyword(int32_t k);
  void named_expr(int32_t e);
  void verbatim_text(uint32_t start, uint32_t end);
  void chain_element(int32_t e, int chain);

  // ---- statements (format_stmt.cc) ----
  void suite(IdList stmts, SuiteKind kind);
  void statement(int32_t s);
  void statement_fields(int32_t s);
  bool is_suppressed(int32_t s) const;
  void suppressed_statement(int32_t s);
  int32_t suppressed_region(IdList stmts, size_t& i, SuiteKind kind);
  void clause_header(int32_t header_node, std::span<const uint32_t> colon_comments,
                     const Content& c, std::span<const uint32_t> leading = {},
                     int32_t last_node = kNone);
  void clause_body(IdList body, SuiteKind kind, std::span<const uint32_t> colon_comments);
  void assign(int32_t s);
  void ann_assign(int32_t s);
  void aug_assign(int32_t s);
  void last_expression_left_to_right(int32_t value, int32_t stmt);
  void last_expression_right_to_left(const Content& before, int32_t before_expr,
                                     std::string_view op, int32_t value, int32_t stmt);
  void before_operator(int32_t e);
  void right_to_left_implicit(uint32_t target, std::string_view op, int32_t value,
                              const Content& inline_comments);
  void return_stmt(int32_t s);
  void assert_stmt(int32_t s);
  void if_stmt(int32_t s);
  void for_stmt(int32_t s);
  void while_stmt(int32_t s);
  void with_stmt(int32_t s);
  void function_def(int32_t s);
  void class_def(int32_t s);
  void decorators(int32_t s, std::span<const uint32_t> leading_definition_comments);
  void parameters(int32_t p);
  void parameter(int32_t p);
  void type_params(int32_t t);
  void import_stmt(int32_t s);
  void import_from(int32_t s);
  void docstring(int32_t s);
  bool is_docstring_stmt(int32_t s) const;
  void verbatim_statement(int32_t s, uint32_t start, uint32_t end);
  uint32_t statement_source_end(int32_t s) const;

  const Ast& ast_;
  Comments& comments_;
  Document& doc_;
  std::string_view source_;
  Level level_ = Level::kTopLevel;
  GroupId level_group_ = 0;
  bool top_level_last_ = false;  // formatting the last top-level statement
  uint32_t indent_level_ = 0;    // block depth, for verbatim re-indentation
};

}  // namespace relax::syntax::format

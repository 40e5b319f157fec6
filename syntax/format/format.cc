// The formatter's entry points: parse, lay out, print, and check the result before handing it
// out (syntax, comments, normalized syntax tree, and IR when the input has no errors); text
// edits and unified diffs for the language server and `relax fmt --diff`.
#include "syntax/format.h"

#include <future>
#include <memory>

#include "ir/depth_limit.h"
#include "ir/source.h"
#include "ir/structural_equal.h"
#include "syntax/format/ast.h"
#include "syntax/format/comments.h"
#include "syntax/format/diff.h"
#include "syntax/format/doc.h"
#include "syntax/format/formatter.h"
#include "syntax/format/profile.h"
#include "syntax/format/verify.h"
#include "syntax/frontend.h"

namespace relax::syntax {

// Files registered for one format_text call; their text is dropped with the last result.
struct SourceLeases {
  std::vector<uint32_t> ids;
  uint32_t add(std::string name, std::string text) {
    uint32_t id = ir::SourceManager::global().add(std::move(name), std::move(text));
    ids.push_back(id);
    return id;
  }
  ~SourceLeases() {
    for (uint32_t id : ids) ir::SourceManager::global().replace(id, "");
  }
};

namespace {

ir::Span span_at(uint32_t file, uint32_t offset) {
  return ir::Span{file, offset, offset};
}

// The line ending of a text, as ruff's `line-ending = "auto"` finds it: the first one.
std::string_view line_ending(std::string_view text) {
  size_t i = text.find_first_of("\r\n");
  if (i == std::string_view::npos || text[i] == '\n') return "\n";
  return i + 1 < text.size() && text[i + 1] == '\n' ? "\r\n" : "\r";
}

// The formatted text (written with `\n`) with the input's line ending.
void use_line_ending(std::string& out, std::string_view ending) {
  if (ending == "\n") return;
  std::string converted;
  converted.reserve(out.size() + out.size() / 16);
  for (char c : out) {
    if (c == '\n') {
      converted.append(ending);
    } else {
      converted.push_back(c);
    }
  }
  out = std::move(converted);
}

// Lays out a formatter tree once. Returns false (with a diagnostic) when a comment could not be
// placed; `floating` is how many of its comments were floating (comments.h).
bool layout_once(const format::Ast& ast, uint32_t file, const FormatOptions& options,
                 std::string& out, ir::DiagnosticBag& diags, size_t& floating) {
  format::Comments comments(ast);
  floating = comments.floating();
  format::Document doc;
  doc.reserve(ast.size() * 2, ast.source().size());
  format::Formatter formatter(ast, comments, doc);
  formatter.format_module();
  for (uint32_t i = 0; i < comments.size(); ++i) {
    if (!comments.formatted(i)) {
      diags.error("F0006", span_at(file, comments.comment(i).start),
                  "not formatted: the formatter could not place this comment (an internal error; "
                  "the file is left unchanged)");
      return false;
    }
  }
  doc.propagate_expand();
  format::PrintOptions po;
  po.line_width = options.line_width;
  out = format::print_document(doc, po);
  use_line_ending(out, line_ending(ast.source()));
  return true;
}

// Lays out a formatter tree. A floating comment (after a prefix operator: `(not  # c` with the
// operand on the next line) is printed at the end of the line its operand lands on, but the
// layout was chosen with the comment's width and line break at the operator; formatting that
// output again can choose differently (ruff's own output is not stable there: `d = not flag  # c`
// over the width, parenthesized by a second run). So a layout with floating comments is laid out
// once more from its own output, where every comment sits where it landed: the result is what
// formatting twice gives, and formatting it again changes nothing. Files without floating
// comments (nearly all) are laid out once.
bool layout(const format::Ast& ast, uint32_t file, const FormatOptions& options, std::string& out,
            ir::DiagnosticBag& diags) {
  size_t floating = 0;
  if (!layout_once(ast, file, options, out, diags, floating)) return false;
  if (floating == 0) return true;
  std::unique_ptr<format::Ast> again = format::Ast::parse(out);
  std::shared_ptr<const SyntaxTree> tree;
  if (!again) {
    tree = SyntaxTree::parse(out, file);
    // Not expected; the checks of the caller report an output that does not parse.
    if (tree->root().has_error()) return true;
    again = std::make_unique<format::Ast>(*tree);
  }
  std::string second;
  ir::DiagnosticBag ignored;
  size_t still_floating = 0;
  if (layout_once(*again, file, options, second, ignored, still_floating)) out = std::move(second);
  return true;
}

// What the safety checks need of one text: its tree, and when it has no syntax errors its
// canonical tokens, comments and (when it builds without front-end errors) IR.
struct Checked {
  std::shared_ptr<const SyntaxTree> tree;
  std::vector<format::CanonicalToken> tokens, comments;
  bool has_ir = false;
  bool front_end_errors = false;
  bool too_deep = false;
  ir::Ref<ir::IRModule> module;
};

// Deeper trees are refused (ir::kFormatNesting, F0007): the layout and the checks recurse along
// the tree, and a 20,000-term `a + a + ...` would exhaust the stack (it does in ruff too). Real
// code stays far below.
constexpr size_t kMaxDepth = ir::kFormatNesting.max;

size_t cst_depth(const SyntaxTree& tree) {
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root().raw());
  size_t depth = 0, deepest = 0;
  while (true) {
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      deepest = std::max(deepest, ++depth);
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return deepest;
      }
      --depth;
    }
  }
}

Checked check_side(std::string text, uint32_t file, bool verify) {
  Checked c;
  c.tree = SyntaxTree::parse(std::move(text), file);
  if (c.tree->root().has_error() || !verify) return c;
  c.too_deep = cst_depth(*c.tree) > 2 * kMaxDepth;
  if (c.too_deep) return c;
  format::canonicalize(*c.tree, c.tokens, c.comments);
  ir::DiagnosticBag d;
  FrontendResult r = parse_tree(c.tree, d);
  c.front_end_errors = d.has_errors();
  if (!c.front_end_errors) {
    c.has_ir = true;
    c.module = r.module;
  }
  return c;
}

// Reports where the formatted text would change the comments (F0003) or the syntax (F0004).
void report_difference(const char* code, const char* what, uint32_t file, uint32_t offset,
                       const std::string& expected, const std::string& found,
                       ir::DiagnosticBag& diags) {
  diags
      .error(code, span_at(file, offset),
             std::string("not formatted: the formatted text would change the ") + what + " here")
      .note("expected `" + expected + "`, the formatted text has `" + found + "`");
}

// Compares the canonical token sequences; reports the first difference.
bool same_tokens(const std::vector<format::CanonicalToken>& a,
                 const std::vector<format::CanonicalToken>& b, uint32_t file_a, const char* code,
                 const char* what, ir::DiagnosticBag& diags) {
  long i = format::first_difference(a, b);
  if (i < 0) return true;
  size_t k = static_cast<size_t>(i);
  uint32_t offset = k < a.size() ? a[k].offset : (a.empty() ? 0 : a.back().offset);
  report_difference(code, what, file_a, offset, k < a.size() ? a[k].text : "(end)",
                    k < b.size() ? b[k].text : "(end)", diags);
  return false;
}

void refuse_depth(uint32_t file, ir::DiagnosticBag& diags) {
  diags.error(ir::kFormatNesting.code, span_at(file, 0),
              "not formatted: expressions or blocks are nested more than " +
                  std::to_string(kMaxDepth) + " deep");
}

bool too_deep(const SyntaxTree& tree) {
  return cst_depth(tree) > 2 * kMaxDepth;
}

// F0002: the formatted text, parsed by tree-sitter, has syntax errors.
bool output_parses(const SyntaxTree& out, uint32_t out_file, ir::DiagnosticBag& diags) {
  if (!out.root().has_error()) return true;
  ir::DiagnosticBag inner;
  report_syntax_errors(out, inner);
  uint32_t at = inner.empty() ? 0 : inner.items().front().span.begin;
  diags.error("F0002", span_at(out_file, at),
              "not formatted: the formatted text would not parse (an internal error)");
  return false;
}

// The checks of a formatted text against the input it was made from: it parses, its comments
// and canonical syntax are the input's, and when the input builds IR, the same IR.
bool verify_formatted(const Checked& in, const Checked& out, uint32_t file, uint32_t out_file,
                      ir::DiagnosticBag& diags) {
  if (!output_parses(*out.tree, out_file, diags)) return false;
  if (!same_tokens(in.comments, out.comments, file, "F0003", "comments", diags)) return false;
  if (!same_tokens(in.tokens, out.tokens, file, "F0004", "syntax", diags)) return false;
  if (in.has_ir) {
    std::optional<std::string> diff;
    if (!out.has_ir) {
      diff = "the formatted text has front-end errors";
    } else {
      diff = ir::structural_diff(in.module, out.module);
    }
    if (diff) {
      diags
          .error("F0005", span_at(file, 0),
                 "not formatted: the formatted text would build different IR")
          .note(*diff);
      return false;
    }
  }
  return true;
}

// The check of a layout made from the formatter's own parse of the input (shared with the
// layout, not parsed again): the output, read by the same parser (by tree-sitter where that
// parser declines it), must have the same tree up to layout and the same comments. What
// formatting can change is layout, so that is all it compares: no IR is built.
bool check_own_parse(const format::Ast& in, uint32_t file, const std::string& out,
                     const std::string& name, ir::DiagnosticBag& diags, SourceLeases& leases) {
  std::unique_ptr<format::Ast> again = format::Ast::parse(out);
  std::unique_ptr<SyntaxTree> out_tree;  // outlives `again` when that is built from it
  if (!again) {
    uint32_t out_file = leases.add(name + " (formatted)", out);
    out_tree = SyntaxTree::parse(out, out_file);
    if (!output_parses(*out_tree, out_file, diags)) return false;
    if (too_deep(*out_tree)) {
      refuse_depth(file, diags);
      return false;
    }
    again = std::make_unique<format::Ast>(*out_tree);
  }
  if (auto d = format::comment_difference(in, *again)) {
    report_difference("F0003", "comments", file, d->offset, d->expected, d->found, diags);
    return false;
  }
  if (auto d = format::tree_difference(in, *again)) {
    report_difference("F0004", "syntax", file, d->offset, d->expected, d->found, diags);
    return false;
  }
  return true;
}

// The same check for an input the own parser declined (comprehensions, f-strings, ...): the
// layout was made from tree-sitter's tree, and the output is compared with it by tree-sitter's
// tree, as canonical tokens.
bool check_cst(const SyntaxTree& in, uint32_t file, const std::string& out, const std::string& name,
               ir::DiagnosticBag& diags, SourceLeases& leases) {
  uint32_t out_file = leases.add(name + " (formatted)", out);
  std::unique_ptr<SyntaxTree> out_tree = SyntaxTree::parse(out, out_file);
  if (!output_parses(*out_tree, out_file, diags)) return false;
  if (too_deep(*out_tree)) {
    refuse_depth(file, diags);
    return false;
  }
  std::vector<format::CanonicalToken> in_tokens, in_comments, out_tokens, out_comments;
  format::canonicalize(in, in_tokens, in_comments);
  format::canonicalize(*out_tree, out_tokens, out_comments);
  return same_tokens(in_comments, out_comments, file, "F0003", "comments", diags) &&
         same_tokens(in_tokens, out_tokens, file, "F0004", "syntax", diags);
}

// The laid-out text, through the test hook when one is set.
void after_layout(const FormatOptions& options, std::string& out) {
  if (options.after_layout_for_testing) options.after_layout_for_testing(out);
}

// `--profile`: the spellings are rewritten through the input's syntax tree first, then the
// rewritten text is formatted; the rewrite is checked by IR, or without IR by the canonical
// tokens with the rewritten spellings mapped to one.
FormatResult format_with_profile(std::string_view text, uint32_t file, const FormatOptions& options,
                                 ir::DiagnosticBag& diags, const std::string& name,
                                 std::shared_ptr<SourceLeases> leases_owner) {
  SourceLeases& leases = *leases_owner;
  FormatResult result;
  result.sources = std::move(leases_owner);
  result.text = std::string(text);
  Checked in = check_side(std::string(text), file, options.verify);
  if (in.tree->root().has_error()) {
    report_syntax_errors(*in.tree, diags);
    diags.error("F0001", span_at(file, 0), "not formatted: the file has syntax errors");
    return result;
  }
  if (in.too_deep || too_deep(*in.tree)) {
    refuse_depth(file, diags);
    return result;
  }
  std::string rewritten = format::rewrite_profile(*in.tree, *options.profile);
  uint32_t rewritten_file = file;
  Checked source = in;
  if (rewritten != text) {
    rewritten_file = leases.add(name + " (profile)", rewritten);
    source = check_side(rewritten, rewritten_file, options.verify);
    if (source.tree->root().has_error()) {
      diags.error("F0005", span_at(file, 0),
                  "not formatted: the profile rewrite produced invalid syntax (an internal error)");
      return result;
    }
  }
  bool parse_too_deep = false;
  std::unique_ptr<format::Ast> ast = format::Ast::parse(rewritten, &parse_too_deep);
  if (parse_too_deep || (ast && ast->max_depth() > kMaxDepth) ||
      (!ast && cst_depth(*source.tree) > 2 * kMaxDepth)) {
    refuse_depth(file, diags);
    return result;
  }
  if (!ast) ast = std::make_unique<format::Ast>(*source.tree);
  std::string out;
  if (!layout(*ast, rewritten_file, options, out, diags)) return result;
  after_layout(options, out);
  if (options.verify) {
    if (rewritten != text) {
      // The rewrite: only the spellings it knows may differ.
      std::vector<format::CanonicalToken> a = in.comments, b = source.comments;
      std::vector<format::CanonicalToken> c = in.tokens, d = source.tokens;
      for (auto* v : {&a, &b, &c, &d}) format::normalize_spellings(*v);
      if (!same_tokens(a, b, file, "F0003", "comments", diags) ||
          !same_tokens(c, d, file, "F0004", "syntax", diags)) {
        return result;
      }
    }
    uint32_t out_file = leases.add(name + " (formatted)", out);
    Checked formatted = check_side(out, out_file, true);
    // The formatting against the rewritten text, and the IR against the input's.
    Checked reference = source;
    reference.has_ir = in.has_ir;
    reference.module = in.module;
    if (!verify_formatted(reference, formatted, rewritten_file, out_file, diags)) return result;
    result.verified_by = in.has_ir ? "ir" : "syntax";
  }
  result.ok = true;
  result.changed = out != text;
  result.text = std::move(out);
  return result;
}

}  // namespace

FormatResult format_text(std::string_view text, const FormatOptions& options,
                         ir::DiagnosticBag& diags, const std::string& name) {
  auto leases_owner = std::make_shared<SourceLeases>();
  SourceLeases& leases = *leases_owner;
  FormatResult result;
  result.text = std::string(text);
  uint32_t file = leases.add(name, std::string(text));
  if (options.profile)
    return format_with_profile(text, file, options, diags, name, std::move(leases_owner));
  result.sources = std::move(leases_owner);

  // One parse of the input, which the layout and the check share: the formatter's own parser,
  // or tree-sitter's CST where it declines the text. Its parser checks the depth before it
  // recurses (F0007).
  bool parse_too_deep = false;
  std::unique_ptr<format::Ast> ast = format::Ast::parse(text, &parse_too_deep);
  if (parse_too_deep || (ast && ast->max_depth() > kMaxDepth)) {
    refuse_depth(file, diags);
    return result;
  }
  std::unique_ptr<SyntaxTree> tree;
  if (!ast) {
    tree = SyntaxTree::parse(std::string(text), file);
    if (tree->root().has_error()) {
      report_syntax_errors(*tree, diags);
      diags.error("F0001", span_at(file, 0), "not formatted: the file has syntax errors");
      return result;
    }
    if (too_deep(*tree)) {
      refuse_depth(file, diags);
      return result;
    }
    ast = std::make_unique<format::Ast>(*tree);
  }
  // The independent checks read the input with tree-sitter and the front end: on another
  // thread, while this one formats.
  bool thorough = options.verify && options.thorough_checks;
  std::future<Checked> independent;
  if (thorough)
    independent = std::async(std::launch::async, check_side, std::string(text), file, true);

  std::string out;
  if (!layout(*ast, file, options, out, diags)) return result;
  after_layout(options, out);
  if (options.verify) {
    if (out == text && !thorough) {
      // Nothing changed, so nothing can have changed meaning.
      result.verified_by = "unchanged";
    } else {
      bool same = tree ? check_cst(*tree, file, out, name, diags, leases)
                       : check_own_parse(*ast, file, out, name, diags, leases);
      if (!same) return result;
      result.verified_by = "syntax";
    }
    if (thorough) {
      Checked in = independent.get();
      if (in.tree->root().has_error()) {
        report_syntax_errors(*in.tree, diags);
        diags.error("F0001", span_at(file, 0), "not formatted: the file has syntax errors");
        return result;
      }
      uint32_t out_file = leases.add(name + " (formatted)", out);
      Checked formatted = check_side(out, out_file, true);
      if (in.too_deep || formatted.too_deep) {
        refuse_depth(file, diags);
        return result;
      }
      if (!verify_formatted(in, formatted, file, out_file, diags)) return result;
      if (in.has_ir) result.verified_by = "ir";
    }
  }
  result.ok = true;
  result.changed = out != text;
  result.text = std::move(out);
  return result;
}

namespace {

std::vector<TextEdit> edits_between(std::string_view before, std::string_view after,
                                    const std::vector<format::Hunk>& hunks) {
  std::vector<std::string_view> a = format::split_lines(before);
  std::vector<std::string_view> b = format::split_lines(after);
  std::vector<uint32_t> a_off(a.size() + 1, 0), b_off(b.size() + 1, 0);
  for (size_t i = 0; i < a.size(); ++i)
    a_off[i + 1] = a_off[i] + static_cast<uint32_t>(a[i].size());
  for (size_t i = 0; i < b.size(); ++i)
    b_off[i + 1] = b_off[i] + static_cast<uint32_t>(b[i].size());
  std::vector<TextEdit> edits;
  for (const format::Hunk& h : hunks) {
    uint32_t s0 = a_off[h.a_begin], s1 = a_off[h.a_end];
    uint32_t t0 = b_off[h.b_begin], t1 = b_off[h.b_end];
    // Trim what the old and new text of the hunk share at both ends.
    while (s0 < s1 && t0 < t1 && before[s0] == after[t0]) {
      ++s0;
      ++t0;
    }
    while (s0 < s1 && t0 < t1 && before[s1 - 1] == after[t1 - 1]) {
      --s1;
      --t1;
    }
    TextEdit e;
    e.start = s0;
    e.end = s1;
    e.text = std::string(after.substr(t0, t1 - t0));
    edits.push_back(std::move(e));
  }
  return edits;
}

std::string apply_edits(std::string_view text, const std::vector<TextEdit>& edits) {
  std::string out;
  uint32_t pos = 0;
  for (const TextEdit& e : edits) {
    out.append(text.substr(pos, e.start - pos));
    out.append(e.text);
    pos = e.end;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace

std::vector<TextEdit> format_edits(std::string_view text, const FormatOptions& options,
                                   ir::DiagnosticBag& diags) {
  FormatResult r = format_text(text, options, diags, "<document>");
  if (!r.ok || !r.changed) return {};
  std::vector<std::string_view> a = format::split_lines(text);
  std::vector<std::string_view> b = format::split_lines(r.text);
  return edits_between(text, r.text, format::diff_lines(a, b));
}

std::vector<TextEdit> format_range_edits(std::string_view text, uint32_t begin, uint32_t end,
                                         const FormatOptions& options, ir::DiagnosticBag& diags) {
  FormatResult r = format_text(text, options, diags, "<document>");
  if (!r.ok || !r.changed) return {};
  std::vector<std::string_view> a = format::split_lines(text);
  std::vector<std::string_view> b = format::split_lines(r.text);
  std::vector<format::Hunk> hunks = format::diff_lines(a, b);
  // Lines of the range.
  std::vector<uint32_t> a_off(a.size() + 1, 0);
  for (size_t i = 0; i < a.size(); ++i)
    a_off[i + 1] = a_off[i] + static_cast<uint32_t>(a[i].size());
  std::vector<format::Hunk> selected;
  for (const format::Hunk& h : hunks) {
    uint32_t s = a_off[h.a_begin], e = a_off[h.a_end];
    bool touches = h.a_begin == h.a_end ? (s >= begin && s <= end)
                                        : (s < std::max(end, begin + 1) && e > begin);
    if (touches) selected.push_back(h);
  }
  if (selected.size() == hunks.size()) return edits_between(text, r.text, hunks);
  if (selected.empty()) return {};
  std::vector<TextEdit> edits = edits_between(text, r.text, selected);
  // Only a subset: make sure the partly formatted document is still valid and equivalent.
  std::string partial = apply_edits(text, edits);
  std::unique_ptr<SyntaxTree> before_tree = SyntaxTree::parse(std::string(text));
  std::unique_ptr<SyntaxTree> partial_tree = SyntaxTree::parse(partial);
  bool ok = !partial_tree->root().has_error() &&
            format::first_difference(format::canonical_tree(*before_tree),
                                     format::canonical_tree(*partial_tree)) < 0 &&
            format::first_difference(format::canonical_comments(*before_tree),
                                     format::canonical_comments(*partial_tree)) < 0;
  if (!ok) return edits_between(text, r.text, hunks);
  return edits;
}

std::string unified_diff(std::string_view before, std::string_view after, const std::string& name) {
  if (before == after) return {};
  std::vector<std::string_view> a = format::split_lines(before);
  std::vector<std::string_view> b = format::split_lines(after);
  std::vector<format::Hunk> hunks = format::diff_lines(a, b);
  std::string out = "--- a/" + name + "\n+++ b/" + name + "\n";
  constexpr uint32_t kContext = 3;
  auto line = [&](char mark, std::string_view l) {
    out.push_back(mark);
    out.append(l);
    if (l.empty() || l.back() != '\n') out.append("\n\\ No newline at end of file\n");
  };
  size_t i = 0;
  while (i < hunks.size()) {
    // Group hunks whose context overlaps.
    size_t j = i;
    while (j + 1 < hunks.size() && hunks[j + 1].a_begin <= hunks[j].a_end + 2 * kContext) ++j;
    uint32_t a_start = hunks[i].a_begin > kContext ? hunks[i].a_begin - kContext : 0;
    uint32_t a_stop =
        std::min<uint32_t>(static_cast<uint32_t>(a.size()), hunks[j].a_end + kContext);
    uint32_t b_start = hunks[i].b_begin - (hunks[i].a_begin - a_start);
    uint32_t b_stop = hunks[j].b_end + (a_stop - hunks[j].a_end);
    uint32_t a_len = a_stop - a_start, b_len = b_stop - b_start;
    out += "@@ -" + std::to_string(a_len ? a_start + 1 : a_start) +
           (a_len == 1 ? "" : "," + std::to_string(a_len)) + " +" +
           std::to_string(b_len ? b_start + 1 : b_start) +
           (b_len == 1 ? "" : "," + std::to_string(b_len)) + " @@\n";
    uint32_t pos = a_start;
    for (size_t k = i; k <= j; ++k) {
      const format::Hunk& h = hunks[k];
      for (; pos < h.a_begin; ++pos) line(' ', a[pos]);
      for (uint32_t x = h.a_begin; x < h.a_end; ++x) line('-', a[x]);
      for (uint32_t y = h.b_begin; y < h.b_end; ++y) line('+', b[y]);
      pos = h.a_end;
    }
    for (; pos < a_stop; ++pos) line(' ', a[pos]);
    i = j + 1;
  }
  return out;
}

}  // namespace relax::syntax

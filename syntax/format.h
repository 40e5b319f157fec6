// The formatter: a .relax file (Python syntax) laid out the way `ruff format --line-length 100`
// lays out Python, from the syntax tree (never from the IR), comments and blank lines kept.
// Every result is checked before it is returned: the output must parse, keep the comment texts
// in order and keep the syntax tree up to layout (parentheses, trailing commas, literal
// spellings); `thorough_checks` adds tree-sitter's view of both texts and the IR. A failed
// check refuses the result with a diagnostic (nothing is lost). docs/formatting.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostic.h"
#include "syntax/printer.h"

namespace relax::syntax {

struct FormatOptions {
  uint32_t line_width = 100;
  // Also rewrite spellings to this profile (TEXT_FORMAT.md §6.7), through the syntax tree.
  std::optional<Profile> profile;
  // Run the safety checks (on by default; tests and the benchmark may measure without).
  bool verify = true;
  // Also check independently of the formatter's own parser (the one the layout read): both
  // texts parsed by tree-sitter and compared as canonical tokens, and when the input builds IR,
  // the IR of both compared. About 5-10 times the cost of formatting; the tests and the fuzzer
  // use it, `relax fmt` does not.
  bool thorough_checks = false;
  // Tests only: edits the laid-out text before the checks run (to show that they catch a
  // formatter that changes meaning).
  std::function<void(std::string& formatted)> after_layout_for_testing;
};

struct SourceLeases;

struct FormatResult {
  // False when the text was not formatted (syntax errors, or a safety check failed); the
  // diagnostics say why and `text` is the input unchanged.
  bool ok = false;
  std::string text;
  bool changed = false;
  // How the output was checked: "syntax" (the syntax trees up to layout, and the comments),
  // "ir" (that, and with `thorough_checks` the modules built from both), "unchanged" (the
  // output is the input, byte for byte), or empty when not checked.
  std::string verified_by;
  // The files the diagnostics point into (the input, the formatted text), registered with the
  // SourceManager while any copy of the result lives: their text is released after, so that a
  // long-running caller (the language server) does not keep every version it formatted.
  std::shared_ptr<const SourceLeases> sources;
};

// Formats a whole document. `name` is used in diagnostics.
FormatResult format_text(std::string_view text, const FormatOptions& options,
                         ir::DiagnosticBag& diags, const std::string& name = "<input>");

// A replacement of the bytes [start, end) of the original text. Editors get line/column
// positions from ir::LineIndex, in the encoding they use.
struct TextEdit {
  uint32_t start = 0, end = 0;
  std::string text;
};

// The fewest line-level edits that turn `text` into its formatted form (none when the text is
// already formatted or cannot be formatted; see diags).
std::vector<TextEdit> format_edits(std::string_view text, const FormatOptions& options,
                                   ir::DiagnosticBag& diags);

// Edits for the part of the document that overlaps the bytes [begin, end): the changed lines
// that touch the range, when applying only those leaves a valid, equivalent document; otherwise
// the edits of the whole document.
std::vector<TextEdit> format_range_edits(std::string_view text, uint32_t begin, uint32_t end,
                                         const FormatOptions& options, ir::DiagnosticBag& diags);

// A unified diff ("--- a/NAME", "+++ b/NAME", hunks with 3 lines of context) from `before` to
// `after`, empty when they are equal.
std::string unified_diff(std::string_view before, std::string_view after, const std::string& name);

}  // namespace relax::syntax

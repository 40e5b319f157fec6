// Fuzz harness (b): the formatter. Properties: it never crashes; its own safety checks never
// fire (F0002-F0006 mean the layout changed the syntax, the comments or the IR, or lost a
// comment: formatter bugs; F0001 syntax errors and F0007 too deep are refusals); and formatting
// is idempotent, fmt(fmt(x)) == fmt(x), at the default width and at a narrow width with the
// profile rewrite (with one exception that ruff shares, see joined_comments).
#include <string>

#include "fuzz/fuzz_support.h"
#include "syntax/cst.h"
#include "syntax/format.h"
#include "syntax/format/verify.h"

using namespace relax;

namespace {

// The codes of format_text's refusals that are not the input's fault (docs/diagnostics/format.md).
bool internal_error(const std::string& code) {
  return code == "F0002" || code == "F0003" || code == "F0004" || code == "F0005" ||
         code == "F0006";
}

std::string describe(const ir::DiagnosticBag& diags) {
  std::string out;
  for (const auto& d : diags.items()) out += " " + d.code + " " + d.message + ";";
  return out;
}

// When the formatter puts an expression that had comments inside it on one line, it joins
// them after it (`f = a.b()  # one  # two`), and the next pass may lay the joined line out
// differently (parentheses around `a.b()`): ruff 0.17 does exactly the same on the same input
// (tests/golden/format/comments_expressions.relax at width 40), so relax fmt, byte-compatible
// with ruff, does too. Accepted only when the output has such a line, and only if the third
// pass then changes nothing.
bool joined_comments(const std::string& text) {
  auto tree = syntax::SyntaxTree::parse(text);
  auto comments = syntax::format::canonical_comments(*tree);
  for (size_t i = 1; i < comments.size(); ++i)
    if (text.find('\n', comments[i - 1].offset) > comments[i].offset) return true;
  return false;
}

void check_formatting(std::string_view text, const syntax::FormatOptions& options,
                      const char* config) {
  ir::DiagnosticBag diags;
  syntax::FormatResult first = syntax::format_text(text, options, diags, "fuzz.relax");
  for (const auto& d : diags.items())
    if (internal_error(d.code))
      fuzz::fail("fmt_fuzzer", std::string(config) + ": a safety check fired:" + describe(diags));
  if (!first.ok) return;

  ir::DiagnosticBag again;
  syntax::FormatResult second = syntax::format_text(first.text, options, again, "fuzz.relax");
  if (!second.ok)
    fuzz::fail("fmt_fuzzer",
               std::string(config) + ": the formatted text is refused:" + describe(again));
  if (second.text == first.text) return;
  auto not_idempotent = [&](const std::string& a, const std::string& b) {
    fuzz::fail("fmt_fuzzer", std::string(config) + ": not idempotent:\n" +
                                 syntax::unified_diff(a, b, "fuzz.relax"));
  };
  if (!joined_comments(first.text)) not_idempotent(first.text, second.text);
  ir::DiagnosticBag third_diags;
  syntax::FormatResult third = syntax::format_text(second.text, options, third_diags, "fuzz.relax");
  if (!third.ok || third.text != second.text) not_idempotent(second.text, third.text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  fuzz::SourceScope scope;
  std::string_view text = fuzz::as_text(data, size);

  // The thorough checks compare tree-sitter's view and the IR as well, independently of the
  // formatter's own parser: the oracle must not share the code it checks.
  syntax::FormatOptions defaults;
  defaults.thorough_checks = true;
  check_formatting(text, defaults, "default width");

  syntax::FormatOptions narrow;
  narrow.line_width = 40;
  narrow.thorough_checks = true;
  narrow.profile = syntax::Profile::kCurrent;
  check_formatting(text, narrow, "width 40, profile current");
  return 0;
}

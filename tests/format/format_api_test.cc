// The formatter's library API: results and their safety checks, minimal text edits for the
// language server (whole document and range), unified diffs, and the checks' building blocks.
#include <catch2/catch.hpp>

#include "ir/source.h"
#include "syntax/cst.h"
#include "syntax/format.h"
#include "syntax/format/verify.h"

using namespace relax;

namespace {

std::string apply_edits(std::string_view text, const std::vector<syntax::TextEdit>& edits) {
  std::string out;
  uint32_t pos = 0;
  for (const auto& e : edits) {
    out.append(text.substr(pos, e.start - pos));
    out.append(e.text);
    pos = e.end;
  }
  out.append(text.substr(pos));
  return out;
}

syntax::FormatResult format(const std::string& text, uint32_t width = 100) {
  ir::DiagnosticBag diags;
  syntax::FormatOptions o;
  o.line_width = width;
  return syntax::format_text(text, o, diags, "test.relax");
}

const char* kModule =
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4,), dtype=\"float32\")) -> R.Tensor((4,), dtype=\"float32\"):\n"
    "        gv = R.add(x,x)  # double\n"
    "        return gv\n";

}  // namespace

TEST_CASE("format_text formats, reports changes and how the result was checked") {
  syntax::FormatResult r = format(kModule);
  REQUIRE(r.ok);
  CHECK(r.changed);
  CHECK(r.text.find("gv = R.add(x, x)  # double\n") != std::string::npos);
  CHECK(r.text.find("\n\n\n@I.ir_module") == std::string::npos);
  CHECK((r.verified_by == "ir" || r.verified_by == "syntax"));
  syntax::FormatResult again = format(r.text);
  REQUIRE(again.ok);
  CHECK_FALSE(again.changed);
}

TEST_CASE("a well-formed module is checked through its IR (thorough checks)") {
  std::string text =
      "from tvm.script import ir as I\n"
      "from tvm.script import relax as R\n\n\n"
      "@I.ir_module\n"
      "class Module:\n"
      "    @R.function\n"
      "    def main(x: R.Tensor((4,), dtype=\"float32\")) -> R.Tensor((4,), dtype=\"float32\"):\n"
      "        gv: R.Tensor((4,), dtype=\"float32\") = R.add(x,x)\n"
      "        return gv\n";
  ir::DiagnosticBag diags;
  syntax::FormatOptions thorough;
  thorough.thorough_checks = true;
  syntax::FormatResult r = syntax::format_text(text, thorough, diags, "test.relax");
  REQUIRE(r.ok);
  CHECK(r.verified_by == "ir");
  // By default the trees are compared (no IR is built), and an unchanged text needs nothing.
  syntax::FormatResult fast = format(text);
  REQUIRE(fast.ok);
  CHECK(fast.verified_by == "syntax");
  CHECK(fast.text == r.text);
  syntax::FormatResult again = format(fast.text);
  REQUIRE(again.ok);
  CHECK_FALSE(again.changed);
  CHECK(again.verified_by == "unchanged");
}

TEST_CASE("format_edits returns the minimal edits") {
  std::string text = "a = 1\nb = foo( 1,2 )\nc = 3\n";
  ir::DiagnosticBag diags;
  auto edits = syntax::format_edits(text, {}, diags);
  REQUIRE(edits.size() == 1);
  ir::LineIndex lines(text);
  CHECK(lines.position(edits[0].start).line == 1);
  CHECK(lines.position(edits[0].end).line == 1);
  CHECK(apply_edits(text, edits) == "a = 1\nb = foo(1, 2)\nc = 3\n");
  // Nothing to do on formatted text, or on text that cannot be formatted.
  CHECK(syntax::format_edits("a = 1\n", {}, diags).empty());
  ir::DiagnosticBag bad;
  CHECK(syntax::format_edits("a = (\n", {}, bad).empty());
  CHECK(bad.has_errors());
}

TEST_CASE("format_range_edits only touches the requested lines") {
  std::string text = "a = foo( 1 )\nb = 2\nc = foo( 3 )\n";
  uint32_t third = static_cast<uint32_t>(text.find("c ="));
  ir::DiagnosticBag diags;
  auto edits = syntax::format_range_edits(text, third, third + 3, {}, diags);
  REQUIRE(edits.size() == 1);
  CHECK(apply_edits(text, edits) == "a = foo( 1 )\nb = 2\nc = foo(3)\n");
  // A range with nothing to change gives no edits.
  CHECK(syntax::format_range_edits(text, 13, 16, {}, diags).empty());
}

TEST_CASE("format_range_edits falls back to the whole document when a part alone is not valid") {
  // Re-indenting a block: the changed lines only make sense together.
  std::string text = "if x:\n  a = 1\n  b = 2\n";
  uint32_t second = static_cast<uint32_t>(text.find("b ="));
  ir::DiagnosticBag diags;
  auto edits = syntax::format_range_edits(text, second, second + 1, {}, diags);
  CHECK(apply_edits(text, edits) == "if x:\n    a = 1\n    b = 2\n");
}

TEST_CASE("unified_diff writes hunks with context") {
  CHECK(syntax::unified_diff("a\n", "a\n", "f").empty());
  CHECK(syntax::unified_diff("a\nb\nc\n", "a\nB\nc\n", "f.relax") ==
        "--- a/f.relax\n+++ b/f.relax\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
  CHECK(syntax::unified_diff("a", "b", "f") ==
        "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end "
        "of file\n");
}

TEST_CASE("the safety checks see meaning changes and lost comments") {
  using syntax::format::canonical_comments;
  using syntax::format::canonical_tree;
  using syntax::format::first_difference;
  auto tree = [](const std::string& t) { return syntax::SyntaxTree::parse(t); };
  // Layout changes are equal.
  CHECK(first_difference(canonical_tree(*tree("x = (a + b)\n")),
                         canonical_tree(*tree("x = a + b\n"))) < 0);
  CHECK(first_difference(canonical_tree(*tree("f(a, b,)\n")),
                         canonical_tree(*tree("f(\n    a,\n    b,\n)\n"))) < 0);
  CHECK(first_difference(canonical_tree(*tree("x = 'a' \"b\"\n")),
                         canonical_tree(*tree("x = \"ab\"\n"))) < 0);
  CHECK(first_difference(canonical_tree(*tree("x = 0XFF + 1E5\n")),
                         canonical_tree(*tree("x = 0xff + 1e5\n"))) < 0);
  CHECK(first_difference(canonical_tree(*tree("return 1, 2\n")),
                         canonical_tree(*tree("return (1, 2)\n"))) < 0);
  // Meaning changes are not.
  CHECK(first_difference(canonical_tree(*tree("x = (a + b) * c\n")),
                         canonical_tree(*tree("x = a + b * c\n"))) >= 0);
  CHECK(first_difference(canonical_tree(*tree("x[a,]\n")), canonical_tree(*tree("x[a]\n"))) >= 0);
  CHECK(first_difference(canonical_tree(*tree("x = (a,)\n")), canonical_tree(*tree("x = (a)\n"))) >=
        0);
  CHECK(first_difference(canonical_tree(*tree("x = 'a'\n")), canonical_tree(*tree("x = 'b'\n"))) >=
        0);
  CHECK(first_difference(canonical_tree(*tree("x = 1.5\n")),
                         canonical_tree(*tree("x = 1.50001\n"))) >= 0);
  // Comments: normalized texts, in order.
  CHECK(first_difference(canonical_comments(*tree("x = 1  #note   \n")),
                         canonical_comments(*tree("x = 1  # note\n"))) < 0);
  CHECK(first_difference(canonical_comments(*tree("x = 1  # a\n# b\n")),
                         canonical_comments(*tree("x = 1  # a\n"))) >= 0);
  CHECK(first_difference(canonical_comments(*tree("# a\n# b\n")),
                         canonical_comments(*tree("# b\n# a\n"))) >= 0);
}

TEST_CASE("line width is an option") {
  CHECK(format("x = foo(aaaa, bbbb)\n", 10).text == "x = foo(\n    aaaa,\n    bbbb,\n)\n");
  CHECK(format("x = foo(aaaa, bbbb)\n", 20).text == "x = foo(aaaa, bbbb)\n");
}

TEST_CASE("a file's line ending is kept (the first one decides, as ruff's `auto`)") {
  syntax::FormatResult r = format("x = [\r\n  1,\r\n]  # c\r\ny = \"\"\"a\r\nb\"\"\"\r\n");
  REQUIRE(r.ok);
  CHECK(r.text == "x = [\r\n    1,\r\n]  # c\r\ny = \"\"\"a\r\nb\"\"\"\r\n");
  syntax::FormatResult again = format(r.text);
  REQUIRE(again.ok);
  CHECK_FALSE(again.changed);
  syntax::FormatResult lf = format("x = 1\ny = 2\r\n");
  REQUIRE(lf.ok);
  CHECK(lf.text == "x = 1\ny = 2\n");
}

TEST_CASE("a file nested too deeply is refused, not crashed on") {
  std::string sum = "x = a0";
  for (int i = 1; i < 20000; ++i) sum += " + a" + std::to_string(i);
  ir::DiagnosticBag diags;
  syntax::FormatResult r =
      syntax::format_text(sum + "\n", syntax::FormatOptions{}, diags, "deep.relax");
  CHECK_FALSE(r.ok);
  REQUIRE_FALSE(diags.items().empty());
  CHECK(diags.items().front().code == "F0007");
  // A long but reasonable chain is fine.
  std::string shorter = "x = a0";
  for (int i = 1; i < 500; ++i) shorter += " + a" + std::to_string(i);
  CHECK(format(shorter + "\n").ok);
}

TEST_CASE("format_text keeps the files its diagnostics name only while its result lives") {
  // A language server formats on every save: each call must not keep the text it registered.
  std::string broken = "@R.function\ndef f(x:\n    return x\n";
  uint32_t file = 0;
  {
    relax::ir::DiagnosticBag diags;
    relax::syntax::FormatResult r = relax::syntax::format_text(broken, {}, diags, "leak.relax");
    REQUIRE_FALSE(r.ok);
    REQUIRE(diags.size() > 0);
    file = diags.items()[0].span.file;
    auto source = relax::ir::SourceManager::global().get(file);
    REQUIRE(source);
    CHECK(source->text() == broken);  // there for rendering the diagnostics
  }
  auto after = relax::ir::SourceManager::global().get(file);
  REQUIRE(after);
  CHECK(after->text().empty());
  CHECK(after->name() == "leak.relax");
}

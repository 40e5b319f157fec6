// Idempotence and safety over every example, grammar corpus case, golden file and conformance
// file: each formats without being refused, passes the safety checks, and formatting the result
// again changes nothing.
#include <catch2/catch.hpp>

#include <iostream>

#include "syntax/cst.h"
#include "syntax/format.h"
#include "tests/format/format_test_util.h"

using namespace relax;

TEST_CASE("formatting is safe and idempotent on every known file") {
  std::vector<test::FormatInput> inputs = test::all_format_inputs();
  REQUIRE(inputs.size() >= 150);
  size_t by_ir = 0, by_syntax = 0, changed = 0, refused = 0;
  for (const test::FormatInput& in : inputs) {
    INFO(in.name);
    ir::DiagnosticBag diags;
    // The first pass with the thorough checks too (tree-sitter's trees of both texts and the
    // IR), so every file is also checked independently of the formatter's own parser.
    syntax::FormatOptions thorough;
    thorough.thorough_checks = true;
    syntax::FormatResult once = syntax::format_text(in.text, thorough, diags, in.name);
    if (syntax::SyntaxTree::parse(in.text)->root().has_error()) {
      // Files with syntax errors (the diagnostics golden files) are refused, unchanged.
      CHECK_FALSE(once.ok);
      CHECK(once.text == in.text);
      ++refused;
      continue;
    }
    if (!once.ok) {
      for (const auto& d : diags.items()) UNSCOPED_INFO(d.code + ": " + d.message);
    }
    REQUIRE(once.ok);
    (once.verified_by == "ir" ? by_ir : by_syntax)++;
    if (once.changed) ++changed;
    ir::DiagnosticBag diags2;
    syntax::FormatResult twice =
        syntax::format_text(once.text, {}, diags2, in.name + " (formatted)");
    REQUIRE(twice.ok);
    CHECK_FALSE(twice.changed);
    CHECK(twice.text == once.text);
  }
  std::cout << "formatted " << inputs.size() - refused << " files (" << changed << " changed, "
            << refused << " with syntax errors refused); checked by IR: " << by_ir
            << ", by syntax tree: " << by_syntax << "\n";
}

TEST_CASE("comments after a prefix operator: formatting is idempotent") {
  // The comment is printed at the end of the line its operand lands on, which depends on the
  // layout its width helped choose (format.cc: floating comments).
  std::vector<test::FormatInput> inputs = test::prefix_comment_inputs();
  REQUIRE(inputs.size() >= 1500);
  size_t changed = 0;
  for (const test::FormatInput& in : inputs) {
    INFO(in.name << "\n" << in.text);
    ir::DiagnosticBag diags;
    syntax::FormatResult once = syntax::format_text(in.text, {}, diags, in.name);
    for (const auto& d : diags.items()) UNSCOPED_INFO(d.code + ": " + d.message);
    REQUIRE(once.ok);
    changed += once.changed;
    ir::DiagnosticBag diags2;
    syntax::FormatResult twice = syntax::format_text(once.text, {}, diags2, in.name);
    REQUIRE(twice.ok);
    INFO("formatted once:\n" << once.text);
    CHECK(twice.text == once.text);
  }
  CHECK(changed == inputs.size());
}

namespace {

std::string in_function(const std::string& body) {
  return "from tvm.script import ir as I\nfrom tvm.script import relax as R\n\n\n"
         "@I.ir_module\nclass Module:\n    @R.function\n"
         "    def main(flag: R.Tensor((), \"bool\")):\n" +
         body + "        return d\n";
}

std::string format_ok(const std::string& text) {
  ir::DiagnosticBag diags;
  syntax::FormatResult r = syntax::format_text(text, {}, diags, "prefix.relax");
  for (const auto& d : diags.items()) UNSCOPED_INFO(d.code + ": " + d.message);
  REQUIRE(r.ok);
  return r.text;
}

}  // namespace

TEST_CASE("a comment after a prefix operator lands where a second run keeps it") {
  // The reported case: the comment fits after the joined line.
  CHECK(format_ok(in_function("        d = (not  # after not\n            flag)\n")) ==
        in_function("        d = not flag  # after not\n"));
  // The joined line with the comment is over the width: parenthesized, the comment after the
  // closing parenthesis (ruff prints `d = not flag  # ...` over the width, and a second run of
  // ruff parenthesizes it like this).
  std::string c(80, 'c');
  c[0] = '#';
  c[1] = ' ';
  CHECK(format_ok(in_function("        d = (not  " + c + "\n            flag)\n")) ==
        in_function("        d = (\n            not flag\n        )  " + c + "\n"));
  CHECK(
      format_ok(
          in_function("        if (not  " + c + "\n            flag):\n            pass\n")) ==
      in_function("        if (\n            not flag\n        ):  " + c + "\n            pass\n"));
  // The last operand of a chain: the comment does not split the chain.
  CHECK(format_ok(in_function("        d = (a + -  # c\n            b)\n")) ==
        in_function("        d = (\n            a + -b  # c\n        )\n"));
  CHECK(format_ok(in_function("        d = (x and not  # c\n            y)\n")) ==
        in_function("        d = (\n            x and not y  # c\n        )\n"));
  // Inside brackets the comment stays with its operand.
  CHECK(format_ok(in_function("        d = f(not  # c\n            flag)\n")) ==
        in_function("        d = f(\n            not flag  # c\n        )\n"));
  CHECK(format_ok(in_function("        d = a[-  # c\n            1]\n")) ==
        in_function("        d = a[\n            -1  # c\n        ]\n"));
}

TEST_CASE("await or yield over several lines keeps its parentheses") {
  // `d = await  # c` with the operand on the next line is not Python (tree-sitter's grammar
  // accepts it, so the checks alone would not catch it).
  CHECK(format_ok(in_function("        d = (await  # c\n            flag)\n")) ==
        in_function("        d = (\n            await  # c\n            flag\n        )\n"));
  CHECK(format_ok(in_function("        d = (yield  # c\n            flag)\n")) ==
        in_function("        d = (\n            yield  # c\n            flag\n        )\n"));
  CHECK(format_ok(in_function("        d = (not await  # c\n            flag)\n")) ==
        in_function("        d = (\n            not await  # c\n            flag\n        )\n"));
  // On one line they still lose redundant parentheses.
  CHECK(format_ok(in_function("        d = (await flag)\n")) ==
        in_function("        d = await flag\n"));
}

TEST_CASE("files with syntax errors are refused") {
  for (const std::string text :
       {"def f(:\n    pass\n", "x = (1,\n", "class A\n    pass\n", "if x\n  y = 1\n"}) {
    INFO(text);
    ir::DiagnosticBag diags;
    syntax::FormatResult r = syntax::format_text(text, {}, diags, "bad.relax");
    CHECK_FALSE(r.ok);
    CHECK(r.text == text);
    bool refused = false;
    for (const auto& d : diags.items()) refused |= d.code == "F0001";
    CHECK(refused);
  }
}

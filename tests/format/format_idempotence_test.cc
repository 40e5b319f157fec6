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
    syntax::FormatResult once = syntax::format_text(in.text, {}, diags, in.name);
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

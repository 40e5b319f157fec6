// Golden pairs: each tests/golden/format/NAME.relax formats to NAME.expected (and NAME.expected
// formats to itself). A first line `# line-width: N` sets the width. RELAX_UPDATE_GOLDEN=1
// rewrites the expectations (review them against ruff: format_ruff_test.cc).
#include <catch2/catch.hpp>

#include "syntax/format.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

syntax::FormatOptions options_for(const std::string& text) {
  syntax::FormatOptions options;
  constexpr std::string_view kWidth = "# line-width: ";
  if (text.rfind(kWidth, 0) == 0)
    options.line_width = static_cast<uint32_t>(std::stoul(text.substr(kWidth.size())));
  return options;
}

}  // namespace

TEST_CASE("format golden pairs") {
  auto files = test::list_files(test::tests_dir() / "golden" / "format", ".relax");
  REQUIRE(files.size() >= 20);
  for (const auto& path : files) {
    INFO(path.filename().string());
    std::string input = test::read_file(path);
    syntax::FormatOptions options = options_for(input);
    ir::DiagnosticBag diags;
    syntax::FormatResult r = syntax::format_text(input, options, diags, path.filename().string());
    REQUIRE(r.ok);
    CHECK(!r.verified_by.empty());
    auto expected_path = path.parent_path() / (path.stem().string() + ".expected");
    if (test::update_golden()) {
      test::write_file(expected_path, r.text);
      continue;
    }
    REQUIRE(std::filesystem::exists(expected_path));
    std::string expected = test::read_file(expected_path);
    CHECK(r.text == expected);
    // The expected text is a fixpoint.
    ir::DiagnosticBag again_diags;
    syntax::FormatResult again = syntax::format_text(expected, options, again_diags, "expected");
    REQUIRE(again.ok);
    CHECK(again.text == expected);
  }
}

// Golden tests of check-level diagnostics: each `tests/golden/check/NAME.relax` is parsed,
// normalized and checked for well-formedness; `NAME.expected` holds the rendered diagnostics
// (front end, inference, well-formedness), then `---`, then what `relax print` shows.
// RELAX_UPDATE_GOLDEN=1 rewrites the expectations.
#include <catch2/catch.hpp>

#include "analysis/diagnostics/terminal.h"
#include "analysis/normalize.h"
#include "analysis/well_formed.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;

TEST_CASE("golden check diagnostics") {
  auto files = test::list_files(test::tests_dir() / "golden" / "check", ".relax");
  REQUIRE_FALSE(files.empty());
  for (const auto& path : files) {
    INFO(path.filename().string());
    ir::DiagnosticBag diags;
    // Diagnostics name the file relative to the golden folder, so outputs are stable.
    auto result = syntax::parse_text(test::read_file(path), path.filename().string(), diags);
    analysis::normalize_module(*result.module, diags);
    analysis::WellFormedOptions options;
    options.ignore_missing_globals.insert(result.failed_functions.begin(),
                                          result.failed_functions.end());
    options.standalone_functions = !result.is_module_class;
    analysis::check_well_formed(*result.module, diags, options);
    diags.sort_by_position();
    std::string printed = result.is_module_class ? syntax::print_module(*result.module)
                                                 : syntax::print_functions(*result.module);
    std::string actual = analysis::render_terminal(diags.items()) + "---\n" + printed + "\n";
    auto expected_path = path.parent_path() / (path.stem().string() + ".expected");
    if (test::update_golden()) {
      test::write_file(expected_path, actual);
      continue;
    }
    REQUIRE(std::filesystem::exists(expected_path));
    CHECK(actual == test::read_file(expected_path));
  }
}

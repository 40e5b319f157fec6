// Golden text tests: each `tests/golden/print/NAME.relax` has `NAME.expected` (the legacy print)
// and optionally `NAME.current.expected` (the current profile); each
// `tests/golden/diagnostics/NAME.relax` has `NAME.expected` (the rendered diagnostics followed by
// the printed text of what parsed). RELAX_UPDATE_GOLDEN=1 rewrites the expectations.
#include <catch2/catch.hpp>

#include "analysis/diagnostics/terminal.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

std::string print(const syntax::FrontendResult& r, syntax::Profile profile) {
  syntax::PrintOptions options;
  options.profile = profile;
  return r.is_module_class ? syntax::print_module(*r.module, options)
                           : syntax::print_functions(*r.module, options);
}

void check_golden(const std::filesystem::path& expected_path, const std::string& actual) {
  if (test::update_golden()) {
    test::write_file(expected_path, actual);
    return;
  }
  INFO(expected_path.filename().string());
  REQUIRE(std::filesystem::exists(expected_path));
  CHECK(actual == test::read_file(expected_path));
}

}  // namespace

TEST_CASE("golden print tests") {
  auto files = test::list_files(test::tests_dir() / "golden" / "print", ".relax");
  REQUIRE_FALSE(files.empty());
  for (const auto& path : files) {
    INFO(path.filename().string());
    ir::DiagnosticBag diags;
    // Diagnostics name the file relative to the golden folder, so outputs are stable.
    auto result = syntax::parse_text(test::read_file(path), path.filename().string(), diags);
    CHECK(diags.empty());
    std::string legacy = print(result, syntax::Profile::kLegacy) + "\n";
    check_golden(path.parent_path() / (path.stem().string() + ".expected"), legacy);
    auto current_path = path.parent_path() / (path.stem().string() + ".current.expected");
    if (std::filesystem::exists(current_path) || test::update_golden()) {
      check_golden(current_path, print(result, syntax::Profile::kCurrent) + "\n");
    }
  }
}

TEST_CASE("golden diagnostics tests") {
  auto files = test::list_files(test::tests_dir() / "golden" / "diagnostics", ".relax");
  REQUIRE_FALSE(files.empty());
  for (const auto& path : files) {
    INFO(path.filename().string());
    ir::DiagnosticBag diags;
    auto result = syntax::parse_text(test::read_file(path), path.filename().string(), diags);
    CHECK(diags.has_errors());
    std::string actual = analysis::render_terminal(diags.items()) + "---\n" +
                         print(result, syntax::Profile::kLegacy) + "\n";
    check_golden(path.parent_path() / (path.stem().string() + ".expected"), actual);
  }
}

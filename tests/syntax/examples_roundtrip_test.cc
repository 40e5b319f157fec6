// The round-trip property (roundtrip_util.h) in both profiles over the examples
// (../shared/examples and the repository's examples/) and the golden files: every .relax file
// under tests/golden that parses without errors, and every printed expectation of
// tests/golden/print. Files with errors (diagnostics tests) must still print text that
// reparses to the same module.
#include <catch2/catch.hpp>

#include "roundtrip_util.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

void check_round_trips(const std::vector<std::filesystem::path>& files, bool must_parse_clean) {
  for (const auto& path : files) {
    std::string text = test::read_file(path);
    ir::DiagnosticBag diags;
    auto first = syntax::parse_text(text, path.string(), diags);
    INFO(path.string() << "\n" << test::diagnostics_text(diags));
    if (must_parse_clean) CHECK_FALSE(diags.has_errors());
    for (auto profile : {syntax::Profile::kLegacy, syntax::Profile::kCurrent}) {
      auto r = test::round_trip_parsed(first, path.string(), profile);
      INFO(test::profile_name(profile) << ": " << r.failure << "\n" << r.printed);
      CHECK(r.ok());
    }
  }
}

}  // namespace

TEST_CASE("shared examples round-trip through the printer") {
  auto shared = test::shared_dir();
  if (!shared || !std::filesystem::exists(*shared / "examples")) {
    WARN("../shared/examples is absent: skipping");
    return;
  }
  auto files = test::list_files(*shared / "examples", ".relax");
  REQUIRE_FALSE(files.empty());
  check_round_trips(files, true);
}

TEST_CASE("the repository's examples round-trip through the printer") {
  auto files = test::list_files(test::source_dir() / "examples", ".relax");
  REQUIRE(files.size() >= 5);
  check_round_trips(files, true);
}

TEST_CASE("golden files round-trip through the printer") {
  // The formatter's inputs are Python-like layouts, not always modules: only those that parse.
  std::vector<std::filesystem::path> clean, with_errors;
  for (const auto& path : test::list_files(test::tests_dir() / "golden", ".relax")) {
    ir::DiagnosticBag diags;
    syntax::parse_text(test::read_file(path), path.string(), diags);
    (diags.has_errors() ? with_errors : clean).push_back(path);
  }
  for (const auto& path : test::list_files(test::tests_dir() / "golden" / "print", ".expected"))
    clean.push_back(path);
  CHECK(clean.size() >= 20);
  CHECK(with_errors.size() >= 3);
  check_round_trips(clean, true);
  check_round_trips(with_errors, false);
}

// Every example in ../shared/examples parses without errors, prints, and the printed text
// parses back to a structurally equal module and prints identically (a fixpoint).
#include <catch2/catch.hpp>

#include "ir/structural_equal.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {
std::string print(const syntax::FrontendResult& r,
                  syntax::Profile profile = syntax::Profile::kLegacy) {
  syntax::PrintOptions options;
  options.profile = profile;
  return r.is_module_class ? syntax::print_module(*r.module, options)
                           : syntax::print_functions(*r.module, options);
}
}  // namespace

TEST_CASE("shared examples round-trip through the printer") {
  auto shared = test::shared_dir();
  if (!shared) {
    WARN("../shared is absent: skipping");
    return;
  }
  auto files = test::list_files(*shared / "examples", ".relax");
  REQUIRE_FALSE(files.empty());
  for (const auto& path : files) {
    INFO(path.filename().string());
    ir::DiagnosticBag diags;
    auto first = syntax::parse_text(test::read_file(path), path.string(), diags);
    for (const auto& d : diags.items()) UNSCOPED_INFO(d.code << " " << d.message);
    CHECK(diags.empty());
    for (auto profile : {syntax::Profile::kLegacy, syntax::Profile::kCurrent}) {
      std::string text = print(first, profile);
      ir::DiagnosticBag diags2;
      auto second = syntax::parse_text(text, path.string() + ".printed", diags2);
      CHECK(diags2.empty());
      auto diff = ir::structural_diff(first.module, second.module);
      CHECK_FALSE(diff.has_value());
      if (diff) UNSCOPED_INFO(*diff << "\n" << text);
      CHECK(print(second, profile) == text);
    }
  }
}

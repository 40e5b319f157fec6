// Fidelity to TVM's printer: every file of ../shared/conformance/tvm-v0.20 is TVM v0.20's own
// printed output, so parsing and printing it in the legacy profile must give its text back
// exactly. Reports the share that does and fails when it falls below the recorded floor.
#include <catch2/catch.hpp>

#include <chrono>
#include <iostream>

#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {
// Raise this floor as fidelity improves; it guards against regressions.
constexpr size_t kMinimumExact = 1387;
}  // namespace

TEST_CASE("conformance files print back exactly") {
  auto shared = test::shared_dir();
  if (!shared || !std::filesystem::exists(*shared / "conformance" / "tvm-v0.20")) {
    WARN("../shared/conformance/tvm-v0.20 is absent: skipping");
    return;
  }
  auto files = test::list_files(*shared / "conformance" / "tvm-v0.20", ".relax");
  REQUIRE_FALSE(files.empty());
  size_t exact = 0, with_errors = 0;
  std::vector<std::string> failures;
  auto start = std::chrono::steady_clock::now();
  for (const auto& path : files) {
    std::string text = test::read_file(path);
    ir::DiagnosticBag diags;
    auto result = syntax::parse_text(text, path.string(), diags);
    if (diags.has_errors()) ++with_errors;
    std::string printed = result.is_module_class ? syntax::print_module(*result.module)
                                                 : syntax::print_functions(*result.module);
    if (printed == text)
      ++exact;
    else
      failures.push_back(path.filename().string());
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "conformance: " << exact << " / " << files.size() << " files print back exactly ("
            << (100.0 * static_cast<double>(exact) / static_cast<double>(files.size())) << "%), "
            << with_errors << " with diagnostics, " << seconds << " s\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i)
    std::cout << "  differs: " << failures[i] << "\n";
  CHECK(exact >= kMinimumExact);
}

// Fidelity to TVM's printer and the round-trip property over ../shared/conformance/tvm-v0.20:
// every file is TVM v0.20's own printed output, so parsing and printing it in the legacy profile
// must give its text back exactly, and in both profiles the printed text must reparse to a
// structurally equal module and print identically again. Skips when the folder is absent.
#include <catch2/catch.hpp>

#include <chrono>
#include <iostream>
#include <set>

#include "roundtrip_util.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {
// Raise this floor as fidelity improves; it guards against regressions.
constexpr size_t kMinimumExact = 1387;

// Files (with the profile) whose round trip is known to fail, with the reason. The test checks
// that each still fails, so a fix makes it say to remove the entry.
const std::set<std::pair<std::string, std::string>> kKnownRoundTripFailures = {};
}  // namespace

TEST_CASE("conformance files print back exactly and round-trip in both profiles") {
  auto files = test::conformance_modules();
  if (files.empty()) return;
  size_t exact = 0, with_errors = 0, round_trips = 0;
  std::vector<std::string> failures;
  auto start = std::chrono::steady_clock::now();
  for (const auto& path : files) {
    std::string name = path.filename().string();
    std::string text = test::read_file(path);
    ir::DiagnosticBag diags;
    auto result = syntax::parse_text(text, path.string(), diags);
    if (diags.has_errors()) ++with_errors;
    if (test::print_result(result, syntax::Profile::kLegacy) == text)
      ++exact;
    else
      failures.push_back(name);
    for (auto profile : {syntax::Profile::kLegacy, syntax::Profile::kCurrent}) {
      auto r = test::round_trip_parsed(result, path.string(), profile);
      bool known = kKnownRoundTripFailures.count({name, test::profile_name(profile)}) > 0;
      INFO(name << " (" << test::profile_name(profile) << ")\n" << r.failure << "\n" << r.printed);
      if (known) {
        CHECK_FALSE(r.ok());  // fixed: remove it from kKnownRoundTripFailures
      } else {
        CHECK(r.ok());
      }
      round_trips += r.ok();
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "conformance: " << exact << " / " << files.size() << " files print back exactly ("
            << (100.0 * static_cast<double>(exact) / static_cast<double>(files.size())) << "%), "
            << with_errors << " with diagnostics, " << round_trips << " / " << 2 * files.size()
            << " round trips (two profiles), " << seconds << " s\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i)
    std::cout << "  differs: " << failures[i] << "\n";
  CHECK(exact >= kMinimumExact);
}

// Checking documents on several threads at once gives each the diagnostics, symbols and module
// it gets alone: the check path (front end, normalize, well-formedness, lints, the symbol index)
// shares no mutable state between documents. Run under the sanitizer build (the `fuzz` preset:
// ASan + UBSan) as well as the normal one.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "ide/document.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

// What a check says, file ids left out (each Document has its own).
struct Summary {
  std::vector<std::tuple<std::string, uint32_t, uint32_t, std::string>> diagnostics;
  size_t symbols = 0;
  std::string printed;
  bool operator==(const Summary&) const = default;
};

Summary summarize(const analysis::CheckResult& r) {
  Summary s;
  for (const ir::Diagnostic& d : r.diagnostics)
    s.diagnostics.emplace_back(d.code, d.span.begin, d.span.end, d.message);
  s.symbols = r.symbols ? r.symbols->symbols().size() : 0;
  s.printed = syntax::print_module(*r.module);
  return s;
}

}  // namespace

TEST_CASE("documents checked on four threads at once check as they do alone") {
  std::vector<std::filesystem::path> files =
      relax::test::list_files(relax::test::source_dir() / "examples", ".relax");
  std::vector<std::filesystem::path> conformance = relax::test::conformance_modules();
  for (size_t i = 0; i < conformance.size(); i += 16) files.push_back(conformance[i]);
  std::vector<std::string> texts;
  for (const auto& f : files) texts.push_back(relax::test::read_file(f));
  // A document with errors too: the error paths run concurrently as well.
  texts.push_back("@R.function\ndef f(x: R.Tensor((4,), \"float32\")):\n    return R.add(x, y)\n");

  std::vector<Summary> alone;
  for (size_t i = 0; i < texts.size(); ++i) {
    ide::Document doc("alone_" + std::to_string(i) + ".relax", texts[i]);
    alone.push_back(summarize(*doc.check()));
  }

  constexpr int kThreads = 4;
  std::vector<std::vector<std::pair<size_t, Summary>>> seen(kThreads);  // (document, summary)
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread walks the documents from a different start, so that different files are
      // checked at the same moment.
      for (size_t k = 0; k < texts.size(); ++k) {
        size_t i = (k + t * texts.size() / kThreads) % texts.size();
        ide::Document doc("thread_" + std::to_string(t) + "_" + std::to_string(i) + ".relax",
                          texts[i]);
        seen[t].emplace_back(i, summarize(*doc.check()));
      }
    });
  }
  for (auto& th : threads) th.join();
  size_t compared = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (const auto& [i, s] : seen[t]) {
      INFO("thread " << t << ", document " << i);
      CHECK(s == alone[i]);
      ++compared;
    }
  }
  CHECK(compared == kThreads * texts.size());
}

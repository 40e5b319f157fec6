// ide::Document: edits re-parse incrementally and re-check to the same diagnostics as a fresh
// check of the new text; the file id stays; old snapshots keep their own text; memory stays
// flat over 10,000 edits.
#include <catch2/catch.hpp>

#include <malloc.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/check.h"
#include "ide/document.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

const char* kText = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y
)";

// What a diagnostic says and where, without the file id (a Document keeps its own).
using Said = std::tuple<std::string, uint32_t, uint32_t, std::string>;
std::vector<Said> said(const analysis::CheckResult& r) {
  std::vector<Said> out;
  for (const ir::Diagnostic& d : r.diagnostics)
    out.emplace_back(d.code, d.span.begin, d.span.end, d.message);
  return out;
}

// glibc's count of bytes in use. Under AddressSanitizer (whose allocator glibc does not see)
// it stays constant and the memory test checks nothing; the dev build is where it counts.
size_t heap_in_use() {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

}  // namespace

TEST_CASE("document: edits keep the file id and re-check the new text") {
  ide::Document doc("doc.relax", kText);
  uint32_t file = doc.file();
  auto first = doc.check();
  CHECK(first->diagnostics.empty());
  CHECK(doc.check() == first);  // cached until the text changes

  // `y = R.add(x, x)` -> `y = R.add(x, z)`: an unknown name, reported where it is written.
  std::string text = kText;
  auto at = static_cast<uint32_t>(text.find("x, x)") + 3);
  REQUIRE(doc.edit(at, at + 1, "z"));
  CHECK(doc.version() == 1);
  CHECK(doc.file() == file);
  auto second = doc.check();
  REQUIRE(second->diagnostics.size() == 1);
  const ir::Diagnostic& d = second->diagnostics[0];
  CHECK(d.code == "E0201");
  CHECK(d.span.file == file);
  CHECK(d.span.begin == at);
  CHECK(d.span.end == at + 1);
  CHECK(second->source->slice(d.span) == "z");

  // The first snapshot still reads its own text; the file's current text is the new one.
  CHECK(first->source->text() == kText);
  CHECK(ir::SourceManager::global().get(file)->text() == doc.text());

  REQUIRE(doc.edit(at, at + 1, "x"));
  CHECK(doc.check()->diagnostics.empty());
  CHECK(doc.text() == kText);
  // A range outside the text changes nothing.
  CHECK_FALSE(doc.edit(5, 100000, ""));
  CHECK(doc.version() == 2);
  doc.set_text("x = \n");
  CHECK(doc.version() == 3);
  CHECK_FALSE(doc.check()->diagnostics.empty());
}

TEST_CASE("document: random edits check the same as a fresh check of the text") {
  std::vector<std::filesystem::path> files =
      relax::test::list_files(relax::test::source_dir() / "examples", ".relax");
  std::vector<std::filesystem::path> conformance = relax::test::conformance_modules();
  for (size_t i = 0; i < conformance.size(); i += 64) files.push_back(conformance[i]);
  static const char* kSnippets[] = {" ", "x", "(", ")", ":", "\n", "R.add(x, x)", "1", ",", "é"};
  std::mt19937 rng(11);
  int compared = 0;
  for (const auto& path : files) {
    INFO(path.string());
    ide::Document doc(path.filename().string(), relax::test::read_file(path));
    for (int k = 0; k < 12; ++k) {
      const std::string& now = doc.text();
      auto begin = static_cast<uint32_t>(rng() % (now.size() + 1));
      auto end = std::min<uint32_t>(begin + rng() % 6, static_cast<uint32_t>(now.size()));
      REQUIRE(doc.edit(begin, end, rng() % 3 == 0 ? "" : kSnippets[rng() % std::size(kSnippets)]));
      auto incremental = doc.check();
      auto fresh = analysis::check_text(doc.text(), doc.name());
      INFO("edit " << k);
      CHECK(said(*incremental) == said(fresh));
      ++compared;
    }
  }
  CHECK(compared > 0);
}

TEST_CASE("document: memory stays flat over 10,000 edits") {
  ide::Document doc("flat.relax", kText);
  std::string text = kText;
  auto at = static_cast<uint32_t>(text.find("x, x)") + 3);
  auto edit_twice = [&] {
    // A typo and its fix, each checked, as a user typing would.
    REQUIRE(doc.edit(at, at + 1, "z"));
    REQUIRE(doc.check()->diagnostics.size() == 1);
    REQUIRE(doc.edit(at, at + 1, "x"));
    REQUIRE(doc.check()->diagnostics.empty());
  };
  for (int i = 0; i < 50; ++i) edit_twice();
  size_t after_first = heap_in_use();
  for (int i = 0; i < 4950; ++i) edit_twice();
  size_t after_all = heap_in_use();
  INFO("heap in use after 100 edits " << after_first << " bytes, after 10,000 " << after_all);
  CHECK(doc.version() == 10000);
  CHECK(after_all <= after_first + after_first / 10);
}

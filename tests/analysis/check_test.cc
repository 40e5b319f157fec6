// The check driver: the pipeline's output order, the inputs it expands (directories walked in
// sorted order), files it cannot read, and what it reports on files from the shared
// conformance set (no crash; only lint warnings on TVM's own printed output).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "analysis/lint/lint.h"
#include "tests/analysis/check_test_util.h"
#include "tests/support/test_util.h"

using namespace check_test;
namespace fs = std::filesystem;

namespace {

const std::string kT4 = "R.Tensor((4,), \"float32\")";

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("relax_check_test_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

}  // namespace

TEST_CASE("diagnostics are sorted by position, errors first at one position") {
  auto run = check(
      "@R.function\n"
      "def f(x: " +
      kT4 + ") -> " + kT4 +
      ":\n"
      "    y = R.add(x, x)\n"
      "    y = R.add(x, x)\n"
      "    return x\n"
      "\n"
      "@R.function\n"
      "def g(x: " +
      kT4 + ") -> " + kT4 +
      ":\n"
      "    z = R.add(x, missing)\n"
      "    return x\n");
  REQUIRE(run.rows.size() == 4);
  CHECK(run.rows[0].code == "W1001");
  CHECK(run.rows[0].line == 3);
  CHECK(run.rows[1].code == "W1001");
  CHECK(run.rows[1].line == 4);
  CHECK(run.rows[2].code == "W1003");
  CHECK(run.rows[2].line == 4);
  CHECK(run.rows[3].code == "E0201");
  CHECK(run.rows[3].line == 9);
  CHECK(run.result.count(relax::ir::Severity::kError) == 1);
  CHECK(run.result.count(relax::ir::Severity::kWarning) == 3);
  REQUIRE(run.result.module);
  CHECK(run.result.module->functions.size() == 1);  // g had an error and is left out
  CHECK(run.result.tree);
}

TEST_CASE("an empty file and a file of comments check clean") {
  CHECK(check("").rows.empty());
  CHECK(check("# only a comment\n").rows.empty());
}

TEST_CASE("default_enabled: errors and front-end warnings are on, lint rules per registry") {
  CHECK(relax::analysis::default_enabled("E0201"));
  CHECK(relax::analysis::default_enabled("W0501"));
  CHECK(relax::analysis::default_enabled("W1001"));
  CHECK_FALSE(relax::analysis::default_enabled("W1012"));
}

TEST_CASE("expand_inputs walks directories in sorted order") {
  TempDir dir;
  dir.write("b.relax", "");
  dir.write("a/z.relax", "");
  dir.write("a/y/x.relax", "");
  dir.write("a/notes.txt", "");
  dir.write("c.relax.bak", "");
  std::string root = dir.path.string();
  auto inputs =
      relax::analysis::expand_inputs({root, root + "/b.relax", "-", root + "/missing.relax"});
  REQUIRE(inputs.errors.size() == 1);
  CHECK(inputs.errors[0] == "cannot open '" + root + "/missing.relax': No such file or directory");
  std::vector<std::string> expected = {root + "/a/y/x.relax", root + "/a/z.relax",
                                       root + "/b.relax", "-"};
  CHECK(inputs.files == expected);  // b.relax given twice is checked once
}

TEST_CASE("check_files reads each file and reports those it cannot read") {
  TempDir dir;
  dir.write("ok.relax",
            "@R.function\ndef f(x: " + kT4 + ", w: " + kT4 + ") -> " + kT4 + ":\n    return x\n");
  std::string ok = (dir.path / "ok.relax").string();
  std::string gone = (dir.path / "gone.relax").string();
  auto checks = relax::analysis::check_files({ok, gone});
  REQUIRE(checks.size() == 2);
  CHECK(checks[0].name == ok);
  CHECK_FALSE(checks[0].read_error);
  REQUIRE(checks[0].result.diagnostics.size() == 1);
  CHECK(checks[0].result.diagnostics[0].code == "W1002");
  CHECK(checks[1].read_error);
  CHECK(checks[1].error == "cannot open '" + gone + "': No such file or directory");
}

TEST_CASE("TVM's printed conformance files check without errors from the front end or lints") {
  auto shared = relax::test::shared_dir();
  if (!shared || !fs::exists(*shared / "conformance" / "tvm-v0.20")) {
    WARN("../shared/conformance/tvm-v0.20 is absent; skipped");
    return;
  }
  auto files = relax::test::list_files(*shared / "conformance" / "tvm-v0.20", ".relax");
  REQUIRE_FALSE(files.empty());
  relax::analysis::CheckOptions options;
  options.rules.ignore = {"E03", "E04", "W03"};  // inference has its own conformance tests
  size_t warnings = 0;
  for (const auto& path : files) {
    auto result = relax::analysis::check_text(relax::test::read_file(path),
                                              path.filename().string(), options);
    for (const auto& d : result.diagnostics) {
      INFO(path.filename().string() << ": " << d.code << " " << d.message);
      CHECK(d.severity != relax::ir::Severity::kError);
      ++warnings;
    }
  }
  // TVM's test modules are small programs written to exercise passes: unused values and private
  // functions are expected, but only a few per file.
  CHECK(warnings < files.size());
}

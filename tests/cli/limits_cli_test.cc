// End-to-end tests of the diagnostic limits through the `relax` binary: --max-errors (E0001, the
// summaries, exit codes, per file, only reported errors counting), the warnings cap of the text
// output, bounded excerpts of huge lines, and the JSON output under the cap. Sizes are asserted,
// never times.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "tests/support/test_util.h"

using relax::test::run_command;

namespace {

const std::string kRelax = RELAX_BINARY;

const char* kHeader =
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\")):\n";

// A function whose third line is a tuple of `n` unknown names, `qaa,qab,...`: four bytes a name,
// so 10,000 of them make a 40 KB line.
std::string unknown_names(size_t n) {
  std::string line = "    y = (";
  for (size_t i = 0; i < n; ++i) {
    if (i) line += ",";
    line += 'q';
    line += static_cast<char>('a' + (i / 26) % 26);
    line += static_cast<char>('a' + i % 26);
  }
  return std::string(kHeader) + line + ")\n    return x\n";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

size_t longest_line(const std::string& text) {
  size_t longest = 0, start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    longest = std::max(longest, nl - start);
    start = nl + 1;
  }
  return longest;
}

// The 1-based byte column of the `index`-th name of unknown_names (0-based).
size_t name_column(size_t index) {
  return 10 + 4 * index;
}

}  // namespace

TEST_CASE("10,000 unknown names on one 40 KB line: 100 errors, then E0001, bounded output") {
  std::string text = unknown_names(10000);
  REQUIRE(text.size() > 40000);
  auto r = run_command({kRelax, "--color", "never", "check", "-"}, text);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(r.err.size() < 100000);  // it was 600 MB: every excerpt held the whole line
  CHECK(count(r.err, "error[E0201]: unknown name") == 100);
  CHECK(count(r.err, "error[E0001]") == 1);
  // E0001 points at the first error not shown, the 101st name.
  std::string notice = "<stdin>:3:" + std::to_string(name_column(100)) +
                       ": error[E0001]: too many errors emitted, stopping now: 100 shown, at "
                       "least 1 more not shown [--max-errors=100]\n";
  CHECK(r.err.find(notice) != std::string::npos);
  CHECK(r.err.find("  = note: checking stopped here: the rest of this file was not checked\n") !=
        std::string::npos);
  CHECK(r.err.find("  = note: `--max-errors 0` reports every error\n") != std::string::npos);
  // The notice comes after the errors, then the summary.
  CHECK(r.err.find("error[E0001]") > r.err.rfind("error[E0201]"));
  CHECK(r.err.size() - r.err.rfind("Found ") ==
        std::string("Found 100 errors; 1 file was not checked to the end (--max-errors 100).\n")
            .size());
  CHECK(r.err.find("Found 100 errors; 1 file was not checked to the end (--max-errors 100).\n") !=
        std::string::npos);
  CHECK(longest_line(r.err) < 200);
}

TEST_CASE("check --max-errors 0 shows every error, each excerpt still bounded") {
  auto r = run_command({kRelax, "--color", "never", "check", "--max-errors", "0", "-"},
                       unknown_names(10000));
  CHECK(r.exit_code == 1);
  CHECK(count(r.err, "error[E0201]: unknown name") == 10000);
  CHECK(r.err.find("E0001") == std::string::npos);
  CHECK(r.err.find("Found 10000 errors.\n") != std::string::npos);
  CHECK(longest_line(r.err) < 200);
  CHECK(r.err.size() < 10000 * 400);
  // The last name's caret: its column in the header, the carets under it in the window.
  std::string last = "<stdin>:3:" + std::to_string(name_column(9999)) + ": error[E0201]";
  CHECK(r.err.find(last) != std::string::npos);
}

TEST_CASE("a limit of 3 errors on check, print and build") {
  std::string text = unknown_names(50);
  auto c = run_command({kRelax, "--color", "never", "check", "--max-errors", "3", "-"}, text);
  CHECK(c.exit_code == 1);
  CHECK(count(c.err, "error[E0201]") == 3);
  CHECK(c.err.find("<stdin>:3:" + std::to_string(name_column(3)) +
                   ": error[E0001]: too many errors emitted, stopping now: 3 shown, at least 1 "
                   "more not shown [--max-errors=3]\n") != std::string::npos);
  CHECK(c.err.find("Found 3 errors; 1 file was not checked to the end (--max-errors 3).\n") !=
        std::string::npos);

  auto p = run_command({kRelax, "--color", "never", "print", "--max-errors", "3", "-"}, text);
  CHECK(p.exit_code == 1);
  CHECK(count(p.err, "error[E0201]") == 3);
  CHECK(count(p.err, "error[E0001]") == 1);
  CHECK(p.err.find("\n3 errors generated.\n") != std::string::npos);  // E0001 is not counted

  auto b = run_command({kRelax, "--color", "never", "build", "--max-errors", "3", "-"}, text);
  CHECK(b.exit_code == 1);
  CHECK(count(b.err, "error[E0201]") == 3);
  CHECK(count(b.err, "error[E0001]") == 1);
  CHECK(b.err.find("\n3 errors generated.\n") != std::string::npos);

  // Within the limit nothing changes.
  auto under = run_command({kRelax, "--color", "never", "check", "--max-errors", "50", "-"}, text);
  CHECK(count(under.err, "error[E0201]") == 50);
  CHECK(under.err.find("E0001") == std::string::npos);
  CHECK(under.err.find("Found 50 errors.\n") != std::string::npos);

  auto bad = run_command({kRelax, "check", "--max-errors", "many", "-"}, text);
  CHECK(bad.exit_code == 2);
  auto negative = run_command({kRelax, "check", "--max-errors", "-1", "-"}, text);
  CHECK(negative.exit_code == 2);
  CHECK(negative.err.find("E0201") == std::string::npos);
  auto help = run_command({kRelax, "print", "--help"});
  CHECK(help.out.find("--max-errors N") != std::string::npos);
}

TEST_CASE("past the limit the rest of the file is not checked: later functions are left out") {
  std::string text = unknown_names(5) +
                     "\n@R.function\n"
                     "def second(x: R.Tensor((4,), \"float32\")):\n"
                     "    return undefined_later\n";
  auto p = run_command({kRelax, "--color", "never", "print", "--max-errors", "3", "-"}, text);
  CHECK(p.exit_code == 1);
  CHECK(p.err.find("undefined_later") == std::string::npos);  // never looked at
  CHECK(p.out.find("def second") == std::string::npos);       // not checked, so not printed
  auto all = run_command({kRelax, "--color", "never", "print", "--max-errors", "0", "-"}, text);
  CHECK(all.err.find("unknown name `undefined_later`") != std::string::npos);
}

TEST_CASE("only reported errors count toward the limit") {
  // 500 unknown names, then a different error on the next line.
  std::string text = unknown_names(500);
  text.insert(text.find("    return x"), "    z = 1 // 0\n");
  auto ignored = run_command({kRelax, "--color", "never", "check", "--ignore", "E0201", "-"}, text);
  CHECK(ignored.exit_code == 1);
  CHECK(ignored.err.find("E0201") == std::string::npos);
  CHECK(ignored.err.find("E0001") == std::string::npos);
  CHECK(ignored.err.find("error[E0210]") != std::string::npos);
  CHECK(ignored.err.find("Found 1 error.\n") != std::string::npos);
  auto capped = run_command({kRelax, "--color", "never", "check", "-"}, text);
  CHECK(capped.err.find("E0210") == std::string::npos);  // after the stop
  CHECK(count(capped.err, "error[E0001]") == 1);
}

TEST_CASE("the limit is per file: every file is checked") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "relax_limits_cli_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  relax::test::write_file(dir / "a.relax", unknown_names(200));
  relax::test::write_file(dir / "b.relax", unknown_names(200));
  relax::test::write_file(dir / "c.relax", unknown_names(2));
  auto r = run_command({kRelax, "--color", "never", "check", dir.string()});
  CHECK(r.exit_code == 1);
  CHECK(count(r.err, "error[E0201]") == 100 + 100 + 2);
  CHECK(count(r.err, "error[E0001]") == 2);
  CHECK(r.err.find("Found 202 errors; 2 files were not checked to the end (--max-errors 100).\n") !=
        std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("JSON under the cap: N errors and E0001, no source text") {
  std::string text = unknown_names(10000);
  auto r = run_command({kRelax, "check", "--format", "json", "-"}, text);
  CHECK(r.exit_code == 1);
  CHECK(r.out.size() < 100000);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 101);
  for (size_t i = 0; i < 100; ++i) {
    CHECK(j[i]["code"] == "E0201");
    CHECK(j[i]["column"] == name_column(i));
  }
  const auto& notice = j[100];
  CHECK(notice["code"] == "E0001");
  CHECK(notice["severity"] == "error");
  CHECK(notice["line"] == 3);
  CHECK(notice["column"] == name_column(100));
  CHECK(notice["message"] ==
        "too many errors emitted, stopping now: 100 shown, at least 1 more not shown "
        "[--max-errors=100]");
  CHECK(notice["notes"][0] == "checking stopped here: the rest of this file was not checked");
  CHECK(r.out.find("qaa,qab") == std::string::npos);  // no line of the source

  auto all = run_command({kRelax, "check", "--format", "json", "--max-errors", "0", "-"}, text);
  CHECK(nlohmann::json::parse(all.out).size() == 10000);

  // SARIF and GitHub annotations carry E0001 too.
  auto sarif = run_command({kRelax, "check", "--format", "sarif", "-"}, text);
  auto log = nlohmann::json::parse(sarif.out);
  auto results = log["runs"][0]["results"];
  REQUIRE(results.size() == 101);
  CHECK(results[100]["ruleId"] == "E0001");
  auto github = run_command({kRelax, "check", "--format", "github", "-"}, text);
  CHECK(count(github.out, "::error ") == 101);
  CHECK(github.out.find("title=E0001::too many errors emitted") != std::string::npos);
  // --statistics counts without a limit.
  auto stats = run_command({kRelax, "check", "--statistics", "-"}, text);
  CHECK(stats.out == "10000\tE0201\tunknown name\n");
}

TEST_CASE("warnings: at most N per file in the text output, all in JSON, all counted") {
  std::string text = kHeader;
  for (int i = 0; i < 150; ++i) text += "    v" + std::to_string(i) + " = R.add(x, x)\n";
  text += "    return x\n";
  auto r = run_command({kRelax, "--color", "never", "check", "-"}, text);
  CHECK(r.exit_code == 0);  // warnings never stop anything
  CHECK(count(r.err, "warning[W1001]") == 100);
  CHECK(r.err.find("<stdin>: 50 more warnings not shown [--max-errors=100]\n") !=
        std::string::npos);
  CHECK(r.err.find("Found 150 warnings.\n") != std::string::npos);
  CHECK(r.err.find("E0001") == std::string::npos);
  auto three = run_command({kRelax, "--color", "never", "check", "--max-errors", "3", "-"}, text);
  CHECK(count(three.err, "warning[W1001]") == 3);
  CHECK(three.err.find("<stdin>: 147 more warnings not shown [--max-errors=3]\n") !=
        std::string::npos);
  auto j = run_command({kRelax, "check", "--format", "json", "-"}, text);
  CHECK(nlohmann::json::parse(j.out).size() == 150);
}

TEST_CASE("check --fix: checked without a limit, the report capped with an exact count") {
  std::string text = unknown_names(300);
  auto r = run_command({kRelax, "--color", "never", "check", "--fix", "-"}, text);
  CHECK(r.exit_code == 1);
  CHECK(count(r.err, "error[E0201]") == 100);
  CHECK(r.err.find("error[E0001]: too many errors emitted: 100 shown, 200 more not shown "
                   "[--max-errors=100]\n") != std::string::npos);
}

TEST_CASE("an excerpt of a 100,000-character line is a window that points at the span") {
  std::string line =
      "    y = (\"" + std::string(50000, 'a') + "\", oops, \"" + std::string(50000, 'b') + "\")";
  std::string text = std::string(kHeader) + line + "\n    return x\n";
  auto r = run_command({kRelax, "--color", "never", "check", "-"}, text);
  CHECK(r.exit_code == 1);
  size_t b = line.find("oops");
  size_t lead = 78;  // (160 columns - 4 for the name) / 2
  std::string expected = "<stdin>:3:" + std::to_string(b + 1) +
                         ": error[E0201]: unknown name `oops`\n"
                         " 3 | ..." +
                         line.substr(b - lead, 160) +
                         "...\n"
                         "   | " +
                         std::string(3 + lead, ' ') + "^~~~\n";
  CHECK(r.err.rfind(expected, 0) == 0);
  CHECK(r.err.size() < 1000);
}

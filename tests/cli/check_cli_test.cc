// End-to-end tests of `relax check`: exit codes (0 clean or warnings, 1 errors or warnings with
// --warnings-as-errors, 2 usage and I/O errors), directory walking, standard input, the output
// formats, and the golden outputs of tests/golden/check_cli (each NAME.relax has
// NAME.FORMAT.expected for the formats text, json, sarif and github; a first line `# args: ...`
// adds arguments). RELAX_UPDATE_GOLDEN=1 rewrites the expectations.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/test_util.h"

using relax::test::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kRelax = RELAX_BINARY;

const std::string kClean =
    "# from tvm.script import relax as R\n"
    "\n"
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    y = R.add(x, x)\n"
    "    return y\n";

const std::string kWarning =
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    y = R.add(x, x)\n"
    "    return x\n";

const std::string kError =
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    y = R.add(x, nowhere)\n"
    "    return y\n";

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("relax_check_cli_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
    return (path / rel).string();
  }
};

std::vector<std::string> check_args(std::vector<std::string> args) {
  std::vector<std::string> argv = {kRelax, "--color", "never", "check"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace

TEST_CASE("relax check --help documents every option and the exit codes") {
  auto h = run_command({kRelax, "check", "--help"});
  CHECK(h.exit_code == 0);
  for (const char* option :
       {"--format", "--select", "--extend-select", "--ignore", "--warnings-as-errors",
        "--statistics", "--ignore-noqa", "text", "json", "sarif", "github", "noqa", "Exit codes: 0",
        "1 errors", "2 usage or I/O errors"}) {
    INFO(option);
    CHECK(h.out.find(option) != std::string::npos);
  }
  CHECK(run_command({kRelax, "--help"}).out.find("check") != std::string::npos);
}

TEST_CASE("relax check exit codes") {
  SECTION("0 when clean, only the summary printed") {
    auto r = run_command(check_args({"-"}), kClean);
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(r.err == "All checks passed!\n");
  }
  SECTION("0 with warnings; 1 with --warnings-as-errors") {
    auto r = run_command(check_args({"-"}), kWarning);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("<stdin>:3:5: warning[W1001]: `y` is bound but never used") !=
          std::string::npos);
    CHECK(r.err.find("\nFound 1 warning.\n[1 fixable with the `--fix` option]\n") !=
          std::string::npos);
    CHECK(run_command(check_args({"--warnings-as-errors", "-"}), kWarning).exit_code == 1);
    CHECK(run_command(check_args({"--warnings-as-errors", "--ignore", "W1001", "-"}), kWarning)
              .exit_code == 0);
  }
  SECTION("1 with errors") {
    auto r = run_command(check_args({"-"}), kError);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("<stdin>:3:18: error[E0201]: unknown name `nowhere`") != std::string::npos);
    // An ignored error no longer fails the run.
    CHECK(run_command(check_args({"--ignore", "E02", "-"}), kError).exit_code == 0);
  }
  SECTION("2 for usage errors") {
    // No input: relax exits before reading it (writing to it would raise SIGPIPE here).
    CHECK(run_command(check_args({})).exit_code == 2);
    CHECK(run_command(check_args({"--format", "xml", "-"})).exit_code == 2);
    auto bad = run_command(check_args({"--select", "W1001,bogus", "-"}));
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("invalid rule selector 'BOGUS' for --select") != std::string::npos);
    CHECK(run_command(check_args({"--statistics", "--format", "sarif", "-"})).exit_code == 2);
  }
  SECTION("2 for a missing file, after checking the others") {
    TempDir dir;
    std::string ok = dir.write("ok.relax", kError);
    std::string missing = (dir.path / "missing.relax").string();
    auto r = run_command(check_args({missing, ok}));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("relax: error: cannot open '" + missing + "': No such file or directory") !=
          std::string::npos);
    CHECK(r.err.find(ok + ":3:18: error[E0201]") != std::string::npos);
  }
}

TEST_CASE("rule options take one value each and leave the inputs alone") {
  TempDir dir;
  std::string file = dir.write("w.relax", kWarning);
  auto r = run_command(check_args({"--ignore", "W1002", "--select", "W1001", file}));
  CHECK(r.exit_code == 0);
  CHECK(r.err.find(file + ":3:5: warning[W1001]") != std::string::npos);
  auto repeated = run_command(
      check_args({"--select", "W1002", "--select", "W1001,W1003", "--statistics", file}));
  CHECK(repeated.out == "1\tW1001\tunused-binding\n");
  auto equals = run_command(check_args({"--ignore=W1001", file, "--warnings-as-errors"}));
  CHECK(equals.exit_code == 0);
  CHECK(equals.err == "All checks passed!\n");
}

TEST_CASE("relax check walks directories in sorted order") {
  TempDir dir;
  dir.write("b/two.relax", kWarning);
  dir.write("a/one.relax", kWarning);
  dir.write("a/deeper/zero.relax", kClean);
  dir.write("a/readme.txt", "not relax");
  auto r = run_command(check_args({"--format", "json", dir.path.string()}));
  CHECK(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 2);
  CHECK(j[0]["file"] == (dir.path / "a/one.relax").string());
  CHECK(j[1]["file"] == (dir.path / "b/two.relax").string());
  CHECK(j[0]["code"] == "W1001");
  SECTION("an empty directory is not an error") {
    TempDir empty;
    fs::remove_all(empty.path);
    fs::create_directories(empty.path / "nothing");
    auto e = run_command(check_args({(empty.path / "nothing").string()}));
    CHECK(e.exit_code == 0);
    CHECK(e.err.find("no .relax files found") != std::string::npos);
  }
}

TEST_CASE("relax check formats and statistics") {
  SECTION("json on stdout") {
    auto r = run_command(check_args({"--format", "json", "-"}), kWarning);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j.size() == 1);
    CHECK(j[0]["file"] == "<stdin>");
    CHECK(j[0]["line"] == 3);
    CHECK(j[0]["column"] == 5);
    CHECK(j[0]["end_line"] == 3);
    CHECK(j[0]["end_column"] == 6);
    CHECK(j[0]["severity"] == "warning");
    CHECK(j[0]["code"] == "W1001");
    CHECK(run_command(check_args({"--format", "json", "-"}), kClean).out == "[]\n");
  }
  SECTION("sarif on stdout, with rule names and the tool version") {
    auto r = run_command(check_args({"--format", "sarif", "-"}), kWarning);
    auto log = nlohmann::json::parse(r.out);
    CHECK(log["version"] == "2.1.0");
    const auto& driver = log["runs"][0]["tool"]["driver"];
    CHECK(driver["name"] == "relax");
    CHECK_FALSE(driver["version"].get<std::string>().empty());
    CHECK(driver["rules"][0]["id"] == "W1001");
    CHECK(driver["rules"][0]["name"] == "unused-binding");
    CHECK(log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].get<std::string>().rfind(
              "file:///", 0) == 0);
    CHECK(log["runs"][0]["results"][0]["ruleId"] == "W1001");
  }
  SECTION("sarif records unreadable files as execution errors") {
    auto r = run_command(check_args({"--format", "sarif", "/nonexistent/x.relax"}));
    CHECK(r.exit_code == 2);
    auto log = nlohmann::json::parse(r.out);
    const auto& inv = log["runs"][0]["invocations"][0];
    CHECK(inv["executionSuccessful"] == false);
    CHECK(inv["toolExecutionNotifications"][0]["message"]["text"] ==
          "cannot open '/nonexistent/x.relax': No such file or directory");
  }
  SECTION("github annotations on stdout") {
    auto r = run_command(check_args({"--format", "github", "-"}), kWarning);
    CHECK(r.out.rfind("::warning file=<stdin>,line=3,col=5,endLine=3,endColumn=6,title=W1001::`y` "
                      "is bound but never used",
                      0) == 0);
  }
  SECTION("statistics count each code") {
    std::string two =
        kWarning +
        "\n@R.function\ndef g(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
        "    z = R.add(x, x)\n    return x\n";
    auto r = run_command(check_args({"--statistics", "-"}), two);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "2\tW1001\tunused-binding\n");
    CHECK(r.err.empty());
    auto j = run_command(check_args({"--statistics", "--format", "json", "-"}), two);
    auto parsed = nlohmann::json::parse(j.out);
    CHECK(parsed ==
          nlohmann::json::parse(R"([{"code": "W1001", "name": "unused-binding", "count": 2}])"));
  }
  SECTION("--ignore-noqa reports what noqa comments silence") {
    std::string text = kWarning;
    text.replace(text.find("R.add(x, x)\n"), 12, "R.add(x, x)  # noqa\n");
    CHECK(run_command(check_args({"-"}), text).err == "All checks passed!\n");
    CHECK(run_command(check_args({"--ignore-noqa", "-"}), text).err.find("W1001") !=
          std::string::npos);
  }
  SECTION("--select and --extend-select turn on optional rules") {
    std::string text =
        "@R.function(pure=False)\n"
        "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
        "    R.print(x, format=\"{}\")\n"
        "    return x\n";
    CHECK(run_command(check_args({"-"}), text).err == "All checks passed!\n");
    CHECK(run_command(check_args({"--extend-select", "W1012", "-"}), text).err.find("W1012") !=
          std::string::npos);
    CHECK(run_command(check_args({"--select", "W101", "-"}), text).err.find("W1012") !=
          std::string::npos);
  }
}

TEST_CASE("golden outputs of relax check") {
  fs::path dir = relax::test::tests_dir() / "golden" / "check_cli";
  auto files = relax::test::list_files(dir, ".relax");
  REQUIRE(files.size() >= 3);
  for (const auto& path : files) {
    std::string text = relax::test::read_file(path);
    std::vector<std::string> extra;
    if (text.rfind("# args:", 0) == 0) {
      std::string line = text.substr(7, text.find('\n') - 7);
      size_t pos = 0;
      while ((pos = line.find_first_not_of(' ', pos)) != std::string::npos) {
        size_t end = line.find(' ', pos);
        extra.push_back(line.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
        pos = end;
      }
    }
    for (const char* format : {"text", "json", "sarif", "github"}) {
      std::vector<std::string> args = extra;
      args.insert(args.end(), {"--format", format, "-"});
      auto r = run_command(check_args(args), text);
      std::string output = std::string(format) == "text" ? r.err : r.out;
      if (std::string(format) == "sarif") {
        // The working directory and the version vary between machines and releases.
        auto log = nlohmann::ordered_json::parse(output);
        log["runs"][0].erase("originalUriBaseIds");
        log["runs"][0]["tool"]["driver"]["version"] = "VERSION";
        log["runs"][0]["tool"]["driver"]["semanticVersion"] = "VERSION";
        output = log.dump(2) + "\n";
      }
      std::string actual = "exit " + std::to_string(r.exit_code) + "\n" + output;
      fs::path expected = dir / (path.stem().string() + "." + format + ".expected");
      INFO(expected.filename().string());
      if (relax::test::update_golden()) {
        relax::test::write_file(expected, actual);
        continue;
      }
      REQUIRE(fs::exists(expected));
      CHECK(actual == relax::test::read_file(expected));
    }
  }
}

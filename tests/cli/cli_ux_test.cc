// End-to-end tests of the command line's help to the user: did-you-mean for commands, options,
// pass names and dtypes; hints for what Relax does not have; global options after the command;
// clean --help texts; `relax explain`; the summary of `relax check`; `relax check --fix`.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/support/test_util.h"

using relax::test::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kRelax = RELAX_BINARY;

std::vector<std::string> relax_args(std::vector<std::string> args) {
  std::vector<std::string> argv = {kRelax, "--color", "never"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("relax_cli_ux_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

const std::string kClean =
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    y = R.add(x, x)\n"
    "    return y\n";

// Two safe fixes (an unused binding, a redundant match_cast) and an unsafe one (R.print).
const std::string kFixable =
    "@R.function(pure=False)\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    unused = R.multiply(x, x)\n"
    "    y = R.add(x, x)\n"
    "    z = R.match_cast(y, R.Tensor((4,), \"float32\"))\n"
    "    R.print(z, format=\"{}\")\n"
    "    return z\n";

const std::string kFixed =
    "@R.function(pure=False)\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    y = R.add(x, x)\n"
    "    z = y\n"
    "    R.print(z, format=\"{}\")\n"
    "    return z\n";

const std::string kLegalizeInput =
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "        y = R.add(x, x)\n"
    "        return y\n";

}  // namespace

TEST_CASE("a misspelt command gets the closest one") {
  auto r = run_command({kRelax, "bulid", "x.relax"});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "relax: error: no such command `bulid`; did you mean `build`?\n"
        "Run `relax --help` for the list of commands.\n");
  auto far = run_command({kRelax, "--color", "never", "frobnicate"});
  CHECK(far.exit_code == 2);
  CHECK(far.err ==
        "relax: error: no such command `frobnicate`\n"
        "Run `relax --help` for the list of commands.\n");
  CHECK(run_command({kRelax, "chekc", "-"})
            .err.rfind("relax: error: no such command `chekc`; did you mean `check`?\n", 0) == 0);
}

TEST_CASE("global options are accepted after the command") {
  std::string bad = "@R.function\ndef main(x: R.Tensor((4,), \"float32\")):\n    return nowhere\n";
  auto after = run_command({kRelax, "check", "--color", "always", "-"}, bad);
  CHECK(after.exit_code == 1);
  CHECK(contains(after.err, "\033["));
  auto never = run_command({kRelax, "check", "-", "--color=never"}, bad);
  CHECK(never.exit_code == 1);
  CHECK_FALSE(contains(never.err, "\033["));
  CHECK(contains(never.err, "error[E0201]: unknown name `nowhere`"));
  CHECK(run_command({kRelax, "check", "--color", "sometimes", "-"}, bad).exit_code == 2);
}

TEST_CASE("a misspelt option gets the closest option of its command") {
  auto r = run_command(relax_args({"check", "--formt", "json", "-"}), kClean);
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "relax: error: unknown option `--formt`; did you mean `--format`?\n"
        "Run `relax check --help` for the options.\n");
  auto eq = run_command(relax_args({"build", "--print-aftr=all", "-"}), kClean);
  CHECK(eq.exit_code == 2);
  CHECK(contains(eq.err, "unknown option `--print-aftr`; did you mean `--print-after`?"));
  // The global options are candidates too.
  auto global = run_command(relax_args({"print", "--colour", "never", "-"}), kClean);
  CHECK(global.exit_code == 2);
  CHECK(contains(global.err, "unknown option `--colour`; did you mean `--color`?"));
  // Before the command too; the word after it is not taken for a command.
  auto before = run_command({kRelax, "--colr", "never", "check", "-"}, kClean);
  CHECK(before.exit_code == 2);
  CHECK(before.err ==
        "relax: error: unknown option `--colr`; did you mean `--color`?\n"
        "Run `relax check --help` for the options.\n");
  auto none = run_command(relax_args({"fmt", "--frobnicate", "-"}), kClean);
  CHECK(none.exit_code == 2);
  CHECK(contains(none.err, "relax: error: unknown option `--frobnicate`\n"));
}

TEST_CASE("--help of relax and of every command is free of CLI11 notation") {
  auto top = run_command({kRelax, "--help"});
  REQUIRE(top.exit_code == 0);
  std::vector<std::string> commands = {"print", "parse", "check", "fmt",    "passes",
                                       "build", "run",   "opt",   "explain"};
  for (const auto& c : commands) CHECK(contains(top.out, "  " + c + " "));
  std::vector<std::vector<std::string>> helps = {{"--help"}};
  for (const auto& c : commands) helps.push_back({c, "--help"});
  for (const auto& args : helps) {
    std::vector<std::string> argv = {kRelax};
    argv.insert(argv.end(), args.begin(), args.end());
    auto h = run_command(argv);
    INFO(args[0]);
    CHECK(h.exit_code == 0);
    CHECK(contains(h.out, "Usage: relax"));
    for (const char* artefact :
         {"{false}", "{true}", "TEXT", " INT", "UINT", "REQUIRED", ":{", "--help HELP"})
      CHECK_FALSE(contains(h.out, artefact));
  }
  auto parse = run_command({kRelax, "parse", "--help"});
  CHECK(contains(parse.out, "--no-positions "));
  auto check = run_command({kRelax, "check", "--help"});
  CHECK(contains(check.out, "--format {text,json,sarif,github}"));
  CHECK(contains(check.out, "inputs ... (required)"));
  CHECK(contains(check.out, "--select SELECT ..."));
  CHECK(contains(check.out, "  --fix  "));  // a flag takes no value
  CHECK(contains(run_command({kRelax, "opt", "--help"}).out, "--verify,--no-verify "));
  CHECK(contains(run_command({kRelax, "run", "--help"}).out, "--repeat N "));
}

TEST_CASE("TVM's pass names are accepted, with a note") {
  auto r =
      run_command(relax_args({"opt", "-", "-p", "LegalizeOps,VMBuiltinLower"}), kLegalizeInput);
  CHECK(r.exit_code == 0);
  CHECK(r.err == "relax: note: `VMBuiltinLower` is TVM's name for `LowerRuntimeBuiltin`\n");
  CHECK(contains(r.out, "def add("));
  auto qualified =
      run_command(relax_args({"opt", "-", "-p", "relax.transform.LegalizeOps"}), kLegalizeInput);
  CHECK(qualified.exit_code == 0);
  CHECK(qualified.err ==
        "relax: note: `relax.transform.LegalizeOps` is written `LegalizeOps` here\n");
  // --print-after takes them too and prints under our name.
  auto printed = run_command(relax_args({"opt", "-", "-p", "LegalizeOps", "--print-after",
                                         "tvm.relax.transform.LegalizeOps"}),
                             kLegalizeInput);
  CHECK(printed.exit_code == 0);
  CHECK(contains(printed.err, "# IR after LegalizeOps\n"));
}

TEST_CASE("a misspelt pass name gets the closest one") {
  auto r = run_command(relax_args({"opt", "-", "-p", "LegalizeOp"}), kLegalizeInput);
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "relax: error: unknown pass `LegalizeOp`; did you mean `LegalizeOps`? (see `relax "
        "passes`)\n");
  auto alias =
      run_command(relax_args({"build", "--print-before", "VMBuiltinLowr", "-"}), kLegalizeInput);
  CHECK(alias.exit_code == 2);
  CHECK(contains(alias.err, "unknown pass `VMBuiltinLowr`; did you mean `VMBuiltinLower`?"));
  auto keyword = run_command(relax_args({"build", "--print-after", "al", "-"}), kLegalizeInput);
  CHECK(keyword.exit_code == 2);
  CHECK(contains(keyword.err, "unknown pass `al`; did you mean `all`?"));
  auto far = run_command(relax_args({"opt", "-", "-p", "Frobnicate"}), kLegalizeInput);
  CHECK(far.err == "relax: error: unknown pass `Frobnicate` (see `relax passes`)\n");
  CHECK(contains(run_command({kRelax, "passes"}).out, "VMBuiltinLower"));
}

TEST_CASE("a misspelt dtype gets the closest one") {
  std::string text =
      "@R.function\n"
      "def f(x: R.Tensor((4,), \"flaot32\")):\n"
      "    return x\n"
      "\n"
      "@R.function\n"
      "def g(x: R.Tensor((4,), \"flaot16x4\")):\n"
      "    return x\n"
      "\n"
      "@R.function\n"
      "def h(x: R.Tensor((4,), \"quaternion\")):\n"
      "    return x\n";
  auto r = run_command(relax_args({"check", "-"}), text);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err,
                 "<stdin>:2:25: error[E0217]: unknown dtype \"flaot32\"\n"
                 " 2 | def f(x: R.Tensor((4,), \"flaot32\")):\n"
                 "   |                         ^~~~~~~~~\n"
                 "  = note: did you mean \"float32\"?\n"));
  // A vector dtype keeps its lanes.
  CHECK(contains(r.err, "unknown dtype \"flaot16x4\"\n"));
  CHECK(contains(r.err, "  = note: did you mean \"float16x4\"?\n"));
  // Nothing close: no suggestion.
  CHECK(contains(r.err,
                 "unknown dtype \"quaternion\"\n"
                 " 10 | def h("));
  CHECK(occurrences(r.err, "did you mean") == 2);
}

TEST_CASE("hints for what Relax writes differently") {
  SECTION("R.if_else: an if statement") {
    std::string text =
        "@R.function\n"
        "def main(x: R.Tensor((4,), \"float32\"), c: R.Tensor((), \"bool\")):\n"
        "    y = R.if_else(c, x, x)\n"
        "    return y\n";
    auto r = run_command(relax_args({"check", "-"}), text);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "<stdin>:3:9: error[E0301]: unknown op `R.if_else`\n"));
    CHECK(contains(r.err,
                   "  = note: Relax has no conditional op: write a Python `if` statement whose "
                   "branches bind the same name (`if c:` `y = a` `else:` `y = b`); for an "
                   "element-wise choice, R.where(cond, a, b); see "
                   "docs/text-format.md#conditionals\n"));
    CHECK_FALSE(contains(r.err, "did you mean"));
  }
  SECTION("R.while_loop and a for statement: a recursive function") {
    std::string op =
        "@R.function\n"
        "def main(x: R.Tensor((4,), \"float32\")):\n"
        "    y = R.while_loop(x)\n"
        "    return y\n";
    auto r = run_command(relax_args({"check", "-"}), op);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err,
                   "  = note: Relax has no loop op: write the loop as a recursive function, a "
                   "local @R.function that calls itself in one branch of an `if` (as "
                   "examples/while_loop.relax does); see "
                   "docs/text-format.md#loops-as-recursive-functions\n"));
    std::string loop =
        "@R.function\n"
        "def main(x: R.Tensor((4,), \"float32\")):\n"
        "    for i in range(3):\n"
        "        x = R.add(x, x)\n"
        "    return x\n";
    auto l = run_command(relax_args({"check", "-"}), loop);
    CHECK(l.exit_code == 1);
    CHECK(
        contains(l.err, "<stdin>:3:5: error[E0505]: loops are not supported in Relax functions\n"));
    CHECK(contains(l.err,
                   "  = note: Relax has no loops: write the loop as a recursive function, a local "
                   "@R.function that calls itself in one branch of an `if` (as "
                   "examples/while_loop.relax does); see "
                   "docs/text-format.md#loops-as-recursive-functions\n"));
  }
  SECTION("curly quotes pasted from an article") {
    std::string text =
        "@R.function\n"
        "def main(x: R.Tensor((4,), \xE2\x80\x9C"
        "float32\xE2\x80\x9D)):\n"
        "    return x\n";
    auto r = run_command(relax_args({"check", "-"}), text);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err,
                   "  = note: \xE2\x80\x9C \xE2\x80\x9D \xE2\x80\x98 \xE2\x80\x99 are typographic "
                   "quotes (text pasted from a document or a web page?): TVMScript strings are "
                   "written with straight quotes, \" or '\n"
                   "  = help: use straight quotes\n"));
    // The fix is offered, but only --unsafe-fixes applies it.
    auto fixed = run_command(relax_args({"check", "--fix", "--unsafe-fixes", "-"}), text);
    CHECK(fixed.exit_code == 0);
    CHECK(fixed.out == "@R.function\ndef main(x: R.Tensor((4,), \"float32\")):\n    return x\n");
  }
}

TEST_CASE("a verifier error after a pass names the pass that should have run first") {
  // VMShapeLower's checks are impure calls: a pure function needs RemovePurityChecking first.
  auto r = run_command(relax_args({"opt", "-", "-p", "VMShapeLower"}), kLegalizeInput);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err,
                 "error[E0406]: after pass VMShapeLower: the impure call "
                 "R.call_packed(\"vm.builtin.check_tensor_info\") is not allowed in a pure "
                 "function\n"));
  std::string note =
      "  = note: RemovePurityChecking has not run: run it before VMShapeLower (the default "
      "pipeline does); it marks pure functions `relax.force_pure`, so that the impure calls "
      "lowering makes (allocations, builtins) are allowed in them\n";
  CHECK(contains(r.err, note));
  // Once per pass, not on every error of the kind.
  CHECK(occurrences(r.err, note) == 1);
  auto ok = run_command(relax_args({"opt", "-", "-p", "RemovePurityChecking,VMShapeLower"}),
                        kLegalizeInput);
  CHECK(ok.exit_code == 0);
  CHECK(ok.err.empty());
  // KillAfterLastUse's kills inside a dataflow block need ToNonDataflow first.
  std::string dataflow = kLegalizeInput;
  // y dies at the multiply, inside the block: its kill lands there. (A value that is returned
  // is never killed, whatever its alias.)
  dataflow.replace(dataflow.find("        y = R.add(x, x)\n        return y\n"), 41,
                   "        with R.dataflow():\n"
                   "            y = R.add(x, x)\n"
                   "            z = R.multiply(y, y)\n"
                   "            R.output(z)\n"
                   "        return z\n");
  auto df =
      run_command(relax_args({"opt", "-", "-p",
                              "LegalizeOps,RemovePurityChecking,CallTIRRewrite,KillAfterLastUse"}),
                  dataflow);
  CHECK(df.exit_code == 1);
  CHECK(contains(df.err, "error[E0405]: after pass KillAfterLastUse: "));
  CHECK(contains(df.err,
                 "  = note: ToNonDataflow has not run: run it before KillAfterLastUse (the "
                 "default pipeline does); it turns dataflow blocks into ordinary binding blocks, "
                 "where the impure calls lowering makes are allowed\n"));
  CHECK_FALSE(contains(df.err, "RemovePurityChecking has not run"));
}

TEST_CASE("relax check ends with a summary") {
  auto clean = run_command(relax_args({"check", "-"}), kClean);
  CHECK(clean.exit_code == 0);
  CHECK(clean.err == "All checks passed!\n");
  auto found = run_command(relax_args({"check", "-"}), kFixable);
  CHECK(found.exit_code == 0);
  CHECK(contains(found.err,
                 "Found 2 warnings.\n"
                 "[2 fixable with the `--fix` option]\n"));
  CHECK(found.err.rfind("Found", found.err.size() - 1) != std::string::npos);
  auto all = run_command(relax_args({"check", "--extend-select", "W1012", "-"}), kFixable);
  CHECK(contains(all.err,
                 "Found 3 warnings.\n"
                 "[2 fixable with the `--fix` option (1 hidden fix can be enabled with the "
                 "`--unsafe-fixes` option)]\n"));
  std::string bad = "@R.function\ndef main(x: R.Tensor((4,), \"float32\")):\n    return nowhere\n";
  auto errors = run_command(relax_args({"check", "-"}), bad);
  CHECK(errors.exit_code == 1);
  CHECK(contains(errors.err, "\nFound 1 error.\n"));
  CHECK_FALSE(contains(errors.err, "generated."));
  // Machine-readable formats have no summary.
  for (const char* format : {"json", "sarif", "github"}) {
    auto r = run_command(relax_args({"check", "--format", format, "-"}), kClean);
    INFO(format);
    CHECK(r.err.empty());
  }
  CHECK(run_command(relax_args({"check", "--statistics", "-"}), kFixable).err.empty());
}

TEST_CASE("relax explain prints the documentation of a code") {
  fs::path docs = relax::test::source_dir() / "docs";
  std::string inference = relax::test::read_file(docs / "diagnostics" / "inference.md");
  size_t begin = inference.find("### E0301 ");
  size_t end = inference.find("\n### ", begin);
  REQUIRE(begin != std::string::npos);
  std::string section = inference.substr(begin, end - begin);
  while (!section.empty() && section.back() == '\n') section.pop_back();
  auto r = run_command({kRelax, "explain", "E0301"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == section + "\n");
  CHECK(run_command({kRelax, "explain", "e0301"}).out == r.out);
  // Lint rules by code or by name.
  auto w = run_command({kRelax, "explain", "unused-binding"});
  CHECK(w.exit_code == 0);
  CHECK(w.out.rfind("### W1001: unused binding\n", 0) == 0);
  CHECK(run_command({kRelax, "explain", "w1001"}).out == w.out);
  // A code documented by a table row: the table's header and the row.
  auto row = run_command({kRelax, "explain", "E0405"});
  CHECK(row.exit_code == 0);
  CHECK(row.out.rfind("| Code | Meaning | Fix |\n| --- | --- | --- |\n| E0405 | an impure call",
                      0) == 0);
  // Unknown codes and names are usage errors, with a suggestion.
  auto unknown = run_command({kRelax, "explain", "E9999"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.empty());
  CHECK(unknown.err ==
        "relax: error: no diagnostic `E9999` is documented\n"
        "Run `relax explain` for the list of codes.\n");
  auto near = run_command({kRelax, "explain", "unused-bindng"});
  CHECK(near.exit_code == 2);
  CHECK(contains(near.err, "; did you mean `unused-binding`?"));
  auto typo = run_command({kRelax, "explain", "E030"});
  CHECK(typo.exit_code == 2);
  CHECK(contains(typo.err, "did you mean `E0301`?"));
  // Without a code: every code with its title.
  auto list = run_command({kRelax, "explain"});
  CHECK(list.exit_code == 0);
  CHECK(contains(list.out, "E0101  syntax error\n"));
  CHECK(contains(list.out, "W1001  unused binding (unused-binding)\n"));
}

TEST_CASE("relax check --fix applies the safe fixes and reports what is left") {
  TempDir dir;
  SECTION("a file is rewritten, and what is left is reported") {
    std::string file = dir.write("model.relax", kFixable);
    auto r = run_command(relax_args({"check", "--extend-select", "W1012", "--fix", file}));
    CHECK(r.exit_code == 0);
    CHECK(relax::test::read_file(file) == kFixed);
    CHECK(contains(r.err, file + ":5:5: warning[W1012]: R.print(...) left in the code\n"));
    CHECK(contains(r.err,
                   "Fixed 2 diagnostics:\n"
                   "- " +
                       file +
                       ":\n"
                       "    1 \xC3\x97 W1001 (unused-binding)\n"
                       "    1 \xC3\x97 W1005 (redundant-match-cast)\n"
                       "Found 3 diagnostics (2 fixed, 1 remaining: 1 warning).\n"
                       "[1 hidden fix can be enabled with the `--unsafe-fixes` option]\n"));
    // Nothing left to fix: the file stays as it is.
    auto again = run_command(relax_args({"check", "--fix", file}));
    CHECK(again.exit_code == 0);
    CHECK(again.err == "All checks passed!\n");
    CHECK(relax::test::read_file(file) == kFixed);
  }
  SECTION("--unsafe-fixes also applies the unsafe ones") {
    std::string file = dir.write("model.relax", kFixable);
    auto r = run_command(
        relax_args({"check", "--extend-select", "W1012", "--fix", "--unsafe-fixes", file}));
    CHECK(r.exit_code == 0);
    std::string expected = kFixed;
    std::string print_line = "    R.print(z, format=\"{}\")\n";
    expected.replace(expected.find(print_line), print_line.size(), "");
    CHECK(relax::test::read_file(file) == expected);
    CHECK(contains(r.err, "Found 3 diagnostics (3 fixed, 0 remaining).\n"));
  }
  SECTION("--diff prints what --fix would change and writes nothing") {
    std::string file = dir.write("model.relax", kFixable);
    auto r = run_command(relax_args({"check", "--diff", file}));
    CHECK(r.exit_code == 1);
    CHECK(relax::test::read_file(file) == kFixable);
    CHECK(contains(r.out, "-    unused = R.multiply(x, x)\n"));
    CHECK(contains(r.out, "-    z = R.match_cast(y, R.Tensor((4,), \"float32\"))\n+    z = y\n"));
    CHECK(r.err == "Would fix 2 diagnostics (0 remaining).\n");
    std::string clean = dir.write("clean.relax", kClean);
    auto none = run_command(relax_args({"check", "--diff", clean}));
    CHECK(none.exit_code == 0);
    CHECK(none.out.empty());
    CHECK(none.err == "No diagnostics would be fixed.\n");
  }
  SECTION("standard input: the fixed text on standard output") {
    auto r = run_command(relax_args({"check", "--fix", "-"}), kFixable);
    CHECK(r.exit_code == 0);
    CHECK(r.out == kFixed);
    CHECK(contains(r.err, "Found 2 diagnostics (2 fixed, 0 remaining).\n"));
    auto unchanged = run_command(relax_args({"check", "--fix", "-"}), kClean);
    CHECK(unchanged.out == kClean);
    CHECK(
        run_command(relax_args({"check", "--fix", "--format", "json", "-"}), kFixable).exit_code ==
        2);
    CHECK(run_command(relax_args({"check", "--unsafe-fixes", "-"}), kFixable).exit_code == 2);
  }
  SECTION("a fix that would delete a comment is left to --unsafe-fixes") {
    std::string text = kClean;
    text.replace(text.find("    y = R.add(x, x)\n"), 0, "    unused = R.add(x, x)  # scratch\n");
    auto r = run_command(relax_args({"check", "--fix", "-"}), text);
    CHECK(r.exit_code == 0);
    CHECK(r.out == text);
    CHECK(contains(r.err,
                   "Found 1 warning.\n"
                   "[1 hidden fix can be enabled with the `--unsafe-fixes` option]\n"));
    auto plain = run_command(relax_args({"check", "-"}), text);
    CHECK(contains(plain.err,
                   "Found 1 warning.\n"
                   "[No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` "
                   "option)]\n"));
    auto unsafe = run_command(relax_args({"check", "--fix", "--unsafe-fixes", "-"}), text);
    CHECK(unsafe.out == kClean);
  }
  SECTION("the exit code is that of what is left") {
    std::string text = kFixable +
                       "\n@R.function\n"
                       "def g(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
                       "    return nowhere\n";
    std::string file = dir.write("bad.relax", text);
    auto r = run_command(relax_args({"check", "--fix", file}));
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "error[E0201]: unknown name `nowhere`"));
    CHECK(contains(r.err, "Found 3 diagnostics (2 fixed, 1 remaining: 1 error).\n"));
    CHECK(relax::test::read_file(file) == kFixed + text.substr(kFixable.size()));
  }
}

TEST_CASE("relax check --fix rewrites files as relax fmt does") {
  TempDir dir;
  SECTION("through a symbolic link: the target is fixed, the link stays") {
    fs::create_directories(dir.path / "src");
    dir.write("src/model.relax", kFixable);
    fs::create_symlink("src/model.relax", dir.path / "model.relax");
    auto r = run_command(relax_args({"check", "--fix", (dir.path / "model.relax").string()}));
    CHECK(r.exit_code == 0);
    CHECK(fs::is_symlink(dir.path / "model.relax"));
    CHECK(relax::test::read_file(dir.path / "src" / "model.relax") == kFixed);
    CHECK(relax::test::dir_entries(dir.path / "src") == std::vector<std::string>{"model.relax"});
  }
  SECTION("a byte order mark is kept, and columns count from the first character") {
    const std::string bom = "\xEF\xBB\xBF";
    std::string file = dir.write("bom.relax", bom + kFixable);
    auto plain = run_command(relax_args({"check", file}));
    CHECK(contains(plain.err, file + ":3:5: warning[W1001]"));
    auto r = run_command(relax_args({"check", "--fix", file}));
    CHECK(r.exit_code == 0);
    CHECK(relax::test::read_file(file) == bom + kFixed);
    CHECK(run_command(relax_args({"check", "--fix", "-"}), bom + kFixable).out == bom + kFixed);
  }
  SECTION("a failed write is an I/O error and leaves the file as it was") {
    // A file-size limit (`ulimit -f`) fails for root too.
    std::string text = kFixable;
    for (int i = 0; i < 100; ++i) text += "# padding line " + std::to_string(i) + "\n";
    std::string file = dir.write("big.relax", text);
    auto r =
        run_command(relax::test::with_file_size_limit(1, relax_args({"check", "--fix", file})));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "relax: error: cannot write " + file + ": File too large\n"));
    CHECK(contains(r.err, "Found 2 warnings.\n"));
    CHECK_FALSE(contains(r.err, "fixed"));
    CHECK(relax::test::read_file(file) == text);
    CHECK(relax::test::dir_entries(dir.path) == std::vector<std::string>{"big.relax"});
  }
}

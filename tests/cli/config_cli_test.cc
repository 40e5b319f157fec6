// `relax check` and `relax fmt` read the nearest relax.toml (or pyproject.toml with
// [tool.relax]); the flags go on top; --config names the file, --isolated ignores them; an
// invalid configuration is an error with its position (exit 2).
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/test_util.h"

using relax::test::read_file;
using relax::test::run_command;
using relax::test::TempDir;
using relax::test::write_file;
namespace fs = std::filesystem;

namespace {

const std::string kRelax = RELAX_BINARY;

// W1001 (unused binding `y`) and W1002 (unused parameter `z`).
const std::string kTwoWarnings =
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\"), z: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), "
    "\"float32\"):\n"
    "    y = R.add(x, x)\n"
    "    return x\n";

// `relax check --format github`: one annotation line per diagnostic, naming file and code.
std::vector<std::string> check(std::vector<std::string> args) {
  std::vector<std::string> argv = {kRelax, "--color", "never", "check", "--format", "github"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

bool has(const std::string& out, const std::string& code) {
  return out.find(code) != std::string::npos;
}

}  // namespace

TEST_CASE("relax check reads [lint] from the nearest relax.toml") {
  TempDir dir("relax_config_cli");
  fs::create_directories(dir / "src" / "deep");
  fs::create_directories(dir / "tests");
  write_file(dir / "src" / "deep" / "model.relax", kTwoWarnings);
  write_file(dir / "tests" / "t.relax", kTwoWarnings);
  std::string model = (dir / "src" / "deep" / "model.relax").string();
  std::string test = (dir / "tests" / "t.relax").string();

  auto without = run_command(check({model}));
  CHECK(without.exit_code == 0);
  CHECK(has(without.out, "W1001"));
  CHECK(has(without.out, "W1002"));

  write_file(dir / "relax.toml",
             "[lint]\nignore = [\"W1001\"]\n[lint.per-file-ignores]\n\"tests/*.relax\" = "
             "[\"W1002\"]\n");
  auto with = run_command(check({model, test}));
  CHECK(with.exit_code == 0);
  CHECK(with.out.find("W1001") == std::string::npos);
  // W1002 in src, not in tests.
  CHECK(with.out.find("model.relax") != std::string::npos);
  CHECK(with.out.find("t.relax") == std::string::npos);

  // The flags go on top: --select replaces the file's select, --extend-select adds.
  auto selected = run_command(check({"--select", "W1001", model}));
  CHECK(selected.out.find("W1001") == std::string::npos);  // the file's ignore still holds
  auto isolated = run_command(check({"--isolated", model}));
  CHECK(isolated.out.find("W1001") != std::string::npos);

  // --config names another file for every input.
  write_file(dir / "other.toml", "[lint]\nselect = [\"W1001\"]\n");
  auto other = run_command(check({"--config", (dir / "other.toml").string(), test}));
  CHECK(other.out.find("W1001") != std::string::npos);
  CHECK(other.out.find("W1002") == std::string::npos);

  // A pyproject.toml nearer the file, with [tool.relax], wins over the relax.toml above.
  write_file(dir / "src" / "pyproject.toml", "[tool.relax.lint]\nignore = [\"W1002\"]\n");
  auto py = run_command(check({model}));
  CHECK(py.out.find("W1002") == std::string::npos);
  CHECK(py.out.find("W1001") != std::string::npos);
}

TEST_CASE("relax check and relax fmt refuse an invalid configuration with its position") {
  TempDir dir("relax_config_cli_bad");
  write_file(dir / "m.relax", kTwoWarnings);
  write_file(dir / "relax.toml", "[lint]\nignore = [\"W1001\"]\nselct = [\"E\"]\n");
  std::string m = (dir / "m.relax").string();
  auto r = run_command({kRelax, "--color", "never", "check", m});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("invalid configuration: " + (dir / "relax.toml").string() +
                   ":3:1: unknown key 'selct' in [lint]") != std::string::npos);
  auto f = run_command({kRelax, "--color", "never", "fmt", "--check", m});
  CHECK(f.exit_code == 2);
  CHECK(f.err.find("unknown key 'selct' in [lint]") != std::string::npos);
  // --isolated checks the file anyway.
  CHECK(run_command({kRelax, "check", "--isolated", m}).exit_code == 0);
}

TEST_CASE("relax fmt takes [format] line-width from the configuration, and the flag wins") {
  TempDir dir("relax_config_fmt");
  const std::string text =
      "@R.function\n"
      "def main(x: R.Tensor((4,), \"float32\"), y: R.Tensor((4,), \"float32\")) -> "
      "R.Tensor((4,), \"float32\"):\n"
      "    return R.add(x, y)\n";
  write_file(dir / "m.relax", text);
  std::string m = (dir / "m.relax").string();
  auto wide = run_command({kRelax, "fmt", "-"}, text, dir.path());
  REQUIRE(wide.exit_code == 0);
  write_file(dir / "relax.toml", "[format]\nline-width = 40\n");
  // Standard input is configured from the working directory.
  auto narrow = run_command({kRelax, "fmt", "-"}, text, dir.path());
  REQUIRE(narrow.exit_code == 0);
  CHECK(narrow.out != wide.out);
  for (size_t at = 0, next; at < narrow.out.size(); at = next + 1) {
    next = narrow.out.find('\n', at);
    if (next == std::string::npos) break;
    INFO(narrow.out.substr(at, next - at));
    CHECK(next - at <= 40);
  }
  auto flag = run_command({kRelax, "fmt", "--line-width", "100", "-"}, text, dir.path());
  CHECK(flag.out == wide.out);
  // In place, with the file's own configuration.
  CHECK(run_command({kRelax, "fmt", m}).exit_code == 0);
  CHECK(read_file(dir / "m.relax") == narrow.out);
}

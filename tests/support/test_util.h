// Helpers shared by the test executables: reading files, listing test data, locating the shared
// data folder (../shared) and the `relax` binary, running a command and capturing its output.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace relax::test {

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& text);

// Files under `dir` (recursively) whose name ends with `suffix`, sorted.
std::vector<std::filesystem::path> list_files(const std::filesystem::path& dir,
                                              const std::string& suffix);

// The shared data folder, or nullopt when it is absent (tests then skip themselves).
std::optional<std::filesystem::path> shared_dir();
std::filesystem::path source_dir();
// The modules of ../shared/conformance/tvm-v0.20 (TVM v0.20's printed output), sorted; empty
// when that folder is absent, after a WARN that the calling test skips them.
std::vector<std::filesystem::path> conformance_modules();
std::filesystem::path tests_dir();

// True when the environment asks to rewrite golden expectations (RELAX_UPDATE_GOLDEN=1).
bool update_golden();

// A fresh directory under the system's temporary folder, removed with everything in it.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "relax_test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs `argv` (no shell) in `cwd` (the current directory when empty), feeding `input` on stdin;
// captures stdout and stderr.
CommandResult run_command(const std::vector<std::string>& argv, const std::string& input = "",
                          const std::filesystem::path& cwd = {});

// The same with the address space limited to `kib` KiB (`ulimit -v`, through /bin/sh), so that
// a run that would allocate without bound fails (exit code 2 or a signal) instead of taking the
// machine's memory. Under AddressSanitizer, whose shadow needs terabytes of address space, the
// limit is on resident memory instead (ASAN_OPTIONS=hard_rss_limit_mb).
CommandResult run_command_limited(const std::vector<std::string>& argv, size_t kib,
                                  const std::string& input = "");

// The names in `dir` (not recursive, dot files included), sorted: what a test that no temporary
// file is left behind compares.
std::vector<std::string> dir_entries(const std::filesystem::path& dir);

// `argv` run with writes limited to `kib` KiB per file (`ulimit -f`, SIGXFSZ ignored, so a write
// past it fails with EFBIG). A write failure that also happens as root, where permission tricks
// (a read-only folder) do not fail.
std::vector<std::string> with_file_size_limit(int kib, const std::vector<std::string>& argv);

}  // namespace relax::test

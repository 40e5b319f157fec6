// Test helpers: files, data folders and subprocesses.
#include "tests/support/test_util.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace relax::test {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::vector<std::filesystem::path> list_files(const std::filesystem::path& dir,
                                              const std::string& suffix) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::filesystem::path> shared_dir() {
  if (const char* env = std::getenv("RELAX_SHARED_DIR")) {
    if (std::filesystem::exists(env)) return std::filesystem::path(env);
  }
  std::filesystem::path p = RELAX_SHARED_DIR;
  if (std::filesystem::exists(p)) return std::filesystem::weakly_canonical(p);
  return std::nullopt;
}

std::vector<std::filesystem::path> conformance_modules() {
  auto shared = shared_dir();
  if (!shared || !std::filesystem::exists(*shared / "conformance" / "tvm-v0.20")) {
    WARN("../shared/conformance/tvm-v0.20 is absent: skipping");
    return {};
  }
  auto files = list_files(*shared / "conformance" / "tvm-v0.20", ".relax");
  REQUIRE_FALSE(files.empty());  // present but empty: the checkout of shared/ is broken
  return files;
}

std::filesystem::path source_dir() {
  return RELAX_SOURCE_DIR;
}
std::filesystem::path tests_dir() {
  return RELAX_TESTS_DIR;
}

bool update_golden() {
  const char* env = std::getenv("RELAX_UPDATE_GOLDEN");
  return env && std::string(env) == "1";
}

TempDir::TempDir(const std::string& prefix) {
  static int counter = 0;
  path_ = std::filesystem::temp_directory_path() /
          (prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

CommandResult run_command(const std::vector<std::string>& argv, const std::string& input,
                          const std::filesystem::path& cwd) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
      close(fd);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  CommandResult result;
  size_t written = 0;
  int in_fd = in_pipe[1];
  if (input.empty()) {
    close(in_fd);
    in_fd = -1;
  } else {
    fcntl(in_fd, F_SETFL, O_NONBLOCK);
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open || in_fd >= 0) {
    std::vector<pollfd> fds;
    if (out_open) fds.push_back({out_pipe[0], POLLIN, 0});
    if (err_open) fds.push_back({err_pipe[0], POLLIN, 0});
    if (in_fd >= 0) fds.push_back({in_fd, POLLOUT, 0});
    if (poll(fds.data(), fds.size(), -1) < 0) break;
    for (const pollfd& p : fds) {
      if (p.fd == in_fd && (p.revents & (POLLOUT | POLLERR | POLLHUP))) {
        ssize_t n = write(in_fd, input.data() + written, input.size() - written);
        if (n > 0) written += static_cast<size_t>(n);
        if (n < 0 || written == input.size()) {
          close(in_fd);
          in_fd = -1;
        }
      } else if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = read(p.fd, buf, sizeof(buf));
        if (n <= 0) {
          if (p.fd == out_pipe[0])
            out_open = false;
          else
            err_open = false;
        } else {
          (p.fd == out_pipe[0] ? result.out : result.err).append(buf, static_cast<size_t>(n));
        }
      }
    }
  }
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::vector<std::string> dir_entries(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> with_file_size_limit(int kib, const std::vector<std::string>& argv) {
  // POSIX sh counts `ulimit -f` in 512-byte blocks.
  std::vector<std::string> out = {
      "/bin/sh", "-c",
      "trap '' XFSZ; ulimit -f " + std::to_string(kib * 2) + " && exec \"$0\" \"$@\""};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

#if defined(__SANITIZE_ADDRESS__)
#define RELAX_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELAX_TEST_ASAN 1
#endif
#endif

CommandResult run_command_limited(const std::vector<std::string>& argv, size_t kib,
                                  const std::string& input) {
#ifdef RELAX_TEST_ASAN
  // AddressSanitizer reserves terabytes of address space for its shadow, so `ulimit -v` would
  // stop every run: the sanitizer's own limit on resident memory stands in for it, twice as
  // high for its redzones, with a small quarantine (freed memory it keeps poisoned: at the
  // default 256 MB, a 100,000-long attribute chain's parse held 2.4 GB resident).
  std::string limit = "export ASAN_OPTIONS=\"hard_rss_limit_mb=" + std::to_string(kib / 512) +
                      ":quarantine_size_mb=16${ASAN_OPTIONS:+:$ASAN_OPTIONS}\" && exec \"$0\" "
                      "\"$@\"";
#else
  std::string limit = "ulimit -v " + std::to_string(kib) + " && exec \"$0\" \"$@\"";
#endif
  std::vector<std::string> shell{"/bin/sh", "-c", limit};
  shell.insert(shell.end(), argv.begin(), argv.end());
  return run_command(shell, input);
}

}  // namespace relax::test

// vm::write_file_atomically and vm::TempFile, the one home of output writing: temporaries beside
// the destination and never left behind (also when killed by a signal), symbolic links followed,
// mode/owner/group kept, devices written in place, failures that keep the previous file.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <csignal>
#include <filesystem>

#include "tests/support/test_util.h"
#include "vm/dtype.h"
#include "vm/io/atomic_file.h"
#include "vm/io/npy.h"
#include "vm/tensor.h"

using namespace relax;
namespace fs = std::filesystem;

namespace {

struct stat stat_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st;
}

// Runs `write` with writes past `bytes` failing (EFBIG), then restores the limit.
template <typename F>
void with_write_limit(rlim_t bytes, F&& write) {
  struct rlimit old {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limited = old;
  limited.rlim_cur = bytes;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
  write();
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &old) == 0);
  std::signal(SIGXFSZ, old_handler);
}

}  // namespace

TEST_CASE("write_file_atomically writes, replaces and leaves no temporary") {
  test::TempDir dir("relax_atomic");
  fs::path out = dir / "out.bin";
  REQUIRE(vm::write_file_atomically(out.string(), "first"));
  CHECK(test::read_file(out) == "first");
  ::chmod(out.c_str(), 0640);
  REQUIRE(vm::write_file_atomically(out.string(), "second"));
  CHECK(test::read_file(out) == "second");
  CHECK((stat_of(out).st_mode & 07777) == 0640);
  CHECK(test::dir_entries(dir.path()) == std::vector<std::string>{"out.bin"});
}

TEST_CASE("write_file_atomically keeps the previous file when a write fails") {
  test::TempDir dir("relax_atomic");
  fs::path out = dir / "out.bin";
  REQUIRE(vm::write_file_atomically(out.string(), "previous"));
  std::string big(64 * 1024, 'x');
  vm::Status s;
  with_write_limit(4096, [&] { s = vm::write_file_atomically(out.string(), big); });
  REQUIRE_FALSE(s);
  CHECK(s.error().message == "cannot write " + out.string() + ": File too large");
  CHECK(test::read_file(out) == "previous");
  CHECK(test::dir_entries(dir.path()) == std::vector<std::string>{"out.bin"});
  // A folder that does not exist: nothing is created.
  vm::Status missing = vm::write_file_atomically((dir / "no" / "x.bin").string(), "x");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("No such file or directory") != std::string::npos);
  // A folder is not replaced.
  fs::create_directory(dir / "sub");
  vm::Status folder = vm::write_file_atomically((dir / "sub").string(), "x");
  REQUIRE_FALSE(folder);
  CHECK(folder.error().message == "cannot write " + (dir / "sub").string() + ": it is a directory");
  CHECK(fs::is_directory(dir / "sub"));
}

TEST_CASE("write_file_atomically writes through a symbolic link") {
  test::TempDir dir("relax_atomic");
  fs::create_directory(dir / "real");
  test::write_file(dir / "real" / "target.bin", "old");
  fs::create_symlink("real/target.bin", dir / "link.bin");
  REQUIRE(vm::write_file_atomically((dir / "link.bin").string(), "new"));
  CHECK(fs::is_symlink(dir / "link.bin"));
  CHECK(fs::read_symlink(dir / "link.bin") == "real/target.bin");
  CHECK(test::read_file(dir / "real" / "target.bin") == "new");
  // The temporary lived beside the target, and is gone.
  CHECK(test::dir_entries(dir / "real") == std::vector<std::string>{"target.bin"});
  CHECK(test::dir_entries(dir.path()) == std::vector<std::string>{"link.bin", "real"});
  // A dangling link creates its target.
  fs::create_symlink("real/new.bin", dir / "dangling.bin");
  REQUIRE(vm::write_file_atomically((dir / "dangling.bin").string(), "made"));
  CHECK(fs::is_symlink(dir / "dangling.bin"));
  CHECK(test::read_file(dir / "real" / "new.bin") == "made");
  CHECK(vm::resolve_output_path((dir / "link.bin").string()) == (dir / "real/target.bin").string());
}

TEST_CASE("write_file_atomically writes devices in place") {
  REQUIRE(vm::write_file_atomically("/dev/null", "discarded"));
  CHECK(fs::is_character_file("/dev/null"));
  if (fs::exists("/dev/full")) {
    vm::Status full = vm::write_file_atomically("/dev/full", "x");
    REQUIRE_FALSE(full);
    CHECK(full.error().message == "cannot write /dev/full: No space left on device");
    CHECK(fs::is_character_file("/dev/full"));
  } else {
    WARN("no /dev/full: the failing device write is not tested");
  }
}

TEST_CASE("write_file_atomically keeps owner and group as root") {
  if (::geteuid() != 0) {
    WARN("not root: keeping another user's ownership is only possible (and tested) as root");
    return;
  }
  test::TempDir dir("relax_atomic");
  fs::path out = dir / "owned.bin";
  test::write_file(out, "old");
  REQUIRE(::chown(out.c_str(), 1234, 5678) == 0);
  REQUIRE(::chmod(out.c_str(), 0604) == 0);
  REQUIRE(vm::write_file_atomically(out.string(), "new"));
  struct stat st = stat_of(out);
  CHECK(st.st_uid == 1234u);
  CHECK(st.st_gid == 5678u);
  CHECK((st.st_mode & 07777) == 0604);
  CHECK(test::read_file(out) == "new");
}

TEST_CASE("TempFile: beside the destination, removed unless committed") {
  test::TempDir dir("relax_atomic");
  std::string dest = (dir / "lib.so").string();
  std::string path;
  {
    auto tmp = vm::TempFile::create(dest, ".o");
    REQUIRE(tmp);
    path = tmp->path();
    CHECK(fs::path(path).parent_path() == dir.path());
    CHECK(path.ends_with(".o"));
    CHECK(fs::path(path).filename().string().rfind(".lib.so.", 0) == 0);
    REQUIRE(tmp->write("object"));
    CHECK(fs::exists(path));
  }
  CHECK_FALSE(fs::exists(path));
  {
    auto tmp = vm::TempFile::create(dest);
    REQUIRE(tmp);
    REQUIRE(tmp->write("library"));
    REQUIRE(tmp->commit());
  }
  CHECK(test::read_file(dest) == "library");
  CHECK(test::dir_entries(dir.path()) == std::vector<std::string>{"lib.so"});
  // A name as long as a file name may be still gets a temporary beside it.
  std::string long_name(NAME_MAX - 4, 'n');
  std::string long_dest = (dir / (long_name + ".npy")).string();
  REQUIRE(vm::write_file_atomically(long_dest, "long"));
  CHECK(test::read_file(long_dest) == "long");
  CHECK(test::dir_entries(dir.path()).size() == 2);
}

TEST_CASE("TempFile: removed when the process is killed by SIGTERM") {
  test::TempDir dir("relax_atomic");
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    std::signal(SIGTERM, SIG_DFL);  // the test framework's handler is not the default action
    auto tmp = vm::TempFile::create((dir / "out.so").string(), ".o");
    if (!tmp) ::_exit(3);
    std::string path = tmp->path() + "\n";
    if (::write(fds[1], path.data(), path.size()) < 0) ::_exit(4);
    ::close(fds[1]);
    ::raise(SIGTERM);
    ::_exit(5);  // not reached
  }
  ::close(fds[1]);
  std::string path;
  char c;
  while (::read(fds[0], &c, 1) == 1 && c != '\n') path.push_back(c);
  ::close(fds[0]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  REQUIRE_FALSE(path.empty());
  CHECK_FALSE(fs::exists(path));
  CHECK(test::dir_entries(dir.path()).empty());
}

TEST_CASE("write_npy writes atomically and reports a failed write") {
  test::TempDir dir("relax_atomic");
  fs::path out = dir / "t.npy";
  vm::Tensor t = vm::empty_tensor({1024}, vm::kFloat32);
  REQUIRE(vm::write_npy(out.string(), *t));
  std::string previous = test::read_file(out);
  vm::Status s;
  with_write_limit(1024, [&] { s = vm::write_npy(out.string(), *t); });
  REQUIRE_FALSE(s);
  CHECK(s.error().message == "cannot write " + out.string() + ": File too large");
  CHECK(test::read_file(out) == previous);
  CHECK(test::dir_entries(dir.path()) == std::vector<std::string>{"t.npy"});
}

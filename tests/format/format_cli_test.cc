// `relax fmt` end to end: in-place writes (atomic, mode kept, through symbolic links, owner and
// byte order mark kept, failed writes reported), standard input, --check and --diff (exit codes
// and output), directories, and files with syntax errors left untouched.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include "tests/format/format_test_util.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

const char* kUnformatted = "x = foo( a,b )\n";
const char* kFormatted = "x = foo(a, b)\n";

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("relax-fmt-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  static int& counter() {
    static int c = 0;
    return c;
  }
};

test::CommandResult fmt(const std::vector<std::string>& args, const std::string& input = "") {
  std::vector<std::string> argv = {test::relax_binary(), "--color", "never", "fmt"};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_command(argv, input);
}

}  // namespace

TEST_CASE("relax fmt rewrites files in place and keeps their mode") {
  TempDir dir;
  auto file = dir.path / "a.relax";
  test::write_file(file, kUnformatted);
  ::chmod(file.c_str(), 0640);
  test::CommandResult r = fmt({file.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.find("1 file reformatted") != std::string::npos);
  CHECK(test::read_file(file) == kFormatted);
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  // No temporary file is left behind.
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 1);
  // A second run changes nothing.
  r = fmt({file.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("0 files reformatted, 1 file left unchanged") != std::string::npos);
}

TEST_CASE("relax fmt - formats standard input to standard output") {
  test::CommandResult r = fmt({"-"}, kUnformatted);
  CHECK(r.exit_code == 0);
  CHECK(r.out == kFormatted);
  r = fmt({"--line-width", "10", "-"}, "x = foo(aaaa, bbbb)\n");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "x = foo(\n    aaaa,\n    bbbb,\n)\n");
}

TEST_CASE("relax fmt --check lists files that would change and exits 1") {
  TempDir dir;
  auto bad = dir.path / "bad.relax";
  auto good = dir.path / "good.relax";
  test::write_file(bad, kUnformatted);
  test::write_file(good, kFormatted);
  test::CommandResult r = fmt({"--check", bad.string(), good.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.out == "would reformat " + bad.string() + "\n");
  CHECK(r.err.find("1 file would be reformatted, 1 file left unchanged") != std::string::npos);
  CHECK(test::read_file(bad) == kUnformatted);
  r = fmt({"--check", good.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
}

TEST_CASE("relax fmt --diff prints a unified diff and exits 1") {
  TempDir dir;
  auto bad = dir.path / "bad.relax";
  test::write_file(bad, "a = 1\nx = foo( a,b )\nb = 2\n");
  test::CommandResult r = fmt({"--diff", bad.string()});
  CHECK(r.exit_code == 1);
  std::string name = bad.string();
  CHECK(r.out == "--- a/" + name + "\n+++ b/" + name +
                     "\n@@ -1,3 +1,3 @@\n a = 1\n-x = foo( a,b )\n+x = foo(a, b)\n b = 2\n");
  CHECK(test::read_file(bad) == "a = 1\nx = foo( a,b )\nb = 2\n");
  r = fmt({"--diff", "-"}, kFormatted);
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
}

TEST_CASE("relax fmt leaves a file with syntax errors untouched") {
  TempDir dir;
  auto file = dir.path / "broken.relax";
  std::string text = "def f(x:\n    return  x\ny = [1,2\n";
  test::write_file(file, text);
  test::CommandResult r = fmt({file.string()});
  CHECK(r.exit_code == 1);
  CHECK(test::read_file(file) == text);
  CHECK(r.err.find("error[F0001]") != std::string::npos);
  CHECK(r.err.find("error[E01") != std::string::npos);
  CHECK(r.err.find("1 file could not be formatted") != std::string::npos);
  // On standard input nothing is written.
  r = fmt({"-"}, text);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  // --check and --diff report the error the same way.
  r = fmt({"--check", file.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
}

TEST_CASE("relax fmt refuses syntax errors its own parser could have read") {
  // The formatter's parser alone decides that these are not files to format (no tree-sitter
  // parse of the input runs on its path): each is refused as `relax check` refuses it.
  const char* broken[] = {
      "1 = x\n",                         // a literal as a target
      "x = 0x\ny = 1\n",                 // a malformed number
      "f(a) = b\n",                      // a call as a target
      "def f(*args: int):\n    pass\n",  // annotated *args: not in the grammar
      "x = 1\ry = 2\n",                  // a lone \r (white space for tree-sitter)
      "return *x\n",                     // a starred value without a comma
  };
  for (const char* text : broken) {
    INFO(text);
    test::CommandResult r = fmt({"-"}, text);
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("error[F0001]") != std::string::npos);
  }
}

TEST_CASE("relax fmt walks directories for .relax files") {
  TempDir dir;
  std::filesystem::create_directories(dir.path / "sub");
  test::write_file(dir.path / "a.relax", kUnformatted);
  test::write_file(dir.path / "sub" / "b.relax", kUnformatted);
  test::write_file(dir.path / "notes.txt", kUnformatted);
  test::CommandResult r = fmt({"--check", dir.path.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.out == "would reformat " + (dir.path / "a.relax").string() + "\nwould reformat " +
                     (dir.path / "sub" / "b.relax").string() + "\n");
  r = fmt({dir.path.string()});
  CHECK(r.exit_code == 0);
  CHECK(test::read_file(dir.path / "sub" / "b.relax") == kFormatted);
  CHECK(test::read_file(dir.path / "notes.txt") == kUnformatted);
}

TEST_CASE("relax fmt reports usage and I/O errors with exit code 2") {
  CHECK(fmt({"/nonexistent/file.relax"}).exit_code == 2);
  CHECK(fmt({"--line-width", "0", "-"}, kFormatted).exit_code == 2);
  CHECK(fmt({"--profile", "newest", "-"}, kFormatted).exit_code == 2);
}

TEST_CASE("relax fmt --profile rewrites spellings") {
  const char* legacy = "x: R.Object = R.call_packed(\"f\", sinfo_args=(R.Object,))  # packed\n";
  test::CommandResult r = fmt({"--profile", "current", "-"}, legacy);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "x: R.Any = R.call_packed(\"f\", ty_args=(R.Any,))  # packed\n");
  test::CommandResult back = fmt({"--profile", "legacy", "-"}, r.out);
  CHECK(back.exit_code == 0);
  CHECK(back.out == legacy);
}

TEST_CASE("relax fmt formats the target of a symbolic link and keeps the link") {
  TempDir dir;
  std::filesystem::create_directories(dir.path / "src");
  auto target = dir.path / "src" / "model.relax";
  auto link = dir.path / "model.relax";
  test::write_file(target, kUnformatted);
  std::filesystem::create_symlink("src/model.relax", link);
  test::CommandResult r = fmt({link.string()});
  CHECK(r.exit_code == 0);
  CHECK(r.err == "1 file reformatted, 0 files left unchanged\n");
  CHECK(std::filesystem::is_symlink(link));
  CHECK(std::filesystem::read_symlink(link) == "src/model.relax");
  CHECK(test::read_file(target) == kFormatted);
  CHECK(test::dir_entries(dir.path / "src") == std::vector<std::string>{"model.relax"});
  CHECK(test::dir_entries(dir.path) == std::vector<std::string>{"model.relax", "src"});
}

TEST_CASE("relax fmt keeps a UTF-8 byte order mark") {
  const std::string bom = "\xEF\xBB\xBF";
  TempDir dir;
  auto file = dir.path / "bom.relax";
  test::write_file(file, bom + kUnformatted);
  test::CommandResult r = fmt({file.string()});
  CHECK(r.exit_code == 0);
  CHECK(test::read_file(file) == bom + kFormatted);
  // Formatted already (the mark is not a change), and standard input keeps it too.
  r = fmt({file.string()});
  CHECK(r.err == "0 files reformatted, 1 file left unchanged\n");
  CHECK(fmt({"-"}, bom + kUnformatted).out == bom + kFormatted);
  CHECK(fmt({"-"}, bom + kFormatted).out == bom + kFormatted);
  CHECK(fmt({"--check", file.string()}).exit_code == 0);
}

TEST_CASE("relax fmt keeps the owner and group of a file it rewrites as root") {
  if (::geteuid() != 0) {
    WARN("not root: rewriting another user's file is only possible (and tested) as root");
    return;
  }
  TempDir dir;
  auto file = dir.path / "owned.relax";
  test::write_file(file, kUnformatted);
  REQUIRE(::chown(file.c_str(), 1234, 5678) == 0);
  REQUIRE(::chmod(file.c_str(), 0604) == 0);
  test::CommandResult r = fmt({file.string()});
  CHECK(r.exit_code == 0);
  CHECK(test::read_file(file) == kFormatted);
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK(st.st_uid == 1234u);
  CHECK(st.st_gid == 5678u);
  CHECK((st.st_mode & 07777) == 0604);
}

TEST_CASE("relax fmt reports a file it could not write, and leaves it as it was") {
  // The write fails by a file-size limit (`ulimit -f`): that fails for root too, where a
  // read-only folder would not stop the write.
  TempDir dir;
  auto big = dir.path / "big.relax";
  auto small = dir.path / "small.relax";
  std::string text;
  for (int i = 0; i < 300; ++i) text += "x" + std::to_string(i) + " = foo( a,b )\n";
  test::write_file(big, text);
  test::write_file(small, kUnformatted);
  std::vector<std::string> argv = {test::relax_binary(), "--color",     "never", "fmt",
                                   big.string(),         small.string()};
  test::CommandResult r = test::run_command(test::with_file_size_limit(1, argv));
  CHECK(r.exit_code == 2);
  CHECK(r.err == "relax: error: cannot write " + big.string() +
                     ": File too large\n"
                     "1 file reformatted, 0 files left unchanged, 1 file could not be written\n");
  CHECK(test::read_file(big) == text);
  CHECK(test::read_file(small) == kFormatted);
  CHECK(test::dir_entries(dir.path) == std::vector<std::string>{"big.relax", "small.relax"});
}

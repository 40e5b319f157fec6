// End-to-end tests of the files `relax build`, `relax opt` and `relax run` write: an output that
// names an input is refused (exit 2, nothing written), a failed write exits 2 and keeps the
// previous file, and no temporary (`*.o`, `.NAME.XXXXXX...`) is left in the output's folder.
// Write failures come from a file-size limit (`ulimit -f`), which also fails for root (tests may
// run as root, where a read-only folder does not stop a write), and from /dev/full.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "tests/support/test_util.h"

using relax::test::CommandResult;
using relax::test::dir_entries;
using relax::test::read_file;
using relax::test::run_command;
using relax::test::with_file_size_limit;
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

using Names = std::vector<std::string>;

// A folder with a model source (vector_add: a kernel, so `build` links a library) and two input
// tensors of 4,000 floats (16 KiB each: over the write limits below).
struct Workspace {
  relax::test::TempDir dir{"relax_cli_output"};
  std::string src, a, b;
  Workspace() {
    src = (dir / "src.relax").string();
    fs::copy_file(relax::test::source_dir() / "examples" / "vector_add.relax", src);
    a = (dir / "a.npy").string();
    b = (dir / "b.npy").string();
    CommandResult r = run_command(
        relax_args({"run", src, "--random", "--shape", "n=4000", "-o", a}), "", dir.path());
    REQUIRE(r.exit_code == 0);
    fs::copy_file(a, b);
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

}  // namespace

TEST_CASE("an output that names an input is refused") {
  Workspace w;
  std::string source = read_file(w.src);
  fs::create_symlink("src.relax", w / "link.relax");
  // The same file under other names: as given, `./`, a symbolic link.
  for (const std::string& out : {w.src, std::string("./src.relax"), std::string("link.relax")}) {
    INFO(out);
    CommandResult r = run_command(relax_args({"build", "src.relax", "-o", out}), "", w.dir.path());
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "relax: error: refusing to write -o " + out + ": it is the input "));
    CHECK(contains(r.err, "; give another output path\n"));
    CHECK(read_file(w.src) == source);
    CHECK(fs::is_symlink(w / "link.relax"));
  }
  CommandResult tir = run_command(relax_args({"build", w.src, "--emit", "tir", "-o", w.src}));
  CHECK(tir.exit_code == 2);
  CommandResult opt = run_command(relax_args({"opt", w.src, "-p", "default", "-o", w.src}));
  CHECK(opt.exit_code == 2);
  CHECK(contains(opt.err, "refusing to write -o " + w.src + ": it is the input " + w.src));
  CHECK(read_file(w.src) == source);
  // run: the result or the trace over an input tensor, or over the source.
  std::string a = read_file(w.a);
  CommandResult over_input = run_command(relax_args({"run", w.src, w.a, w.b, "-o", w.a}));
  CHECK(over_input.exit_code == 2);
  CHECK(contains(over_input.err, "refusing to write -o " + w.a + ": it is the input " + w.a));
  CommandResult named = run_command(relax_args({"run", w.src, "a=" + w.a, "b=" + w.b, "-o", w.b}));
  CHECK(named.exit_code == 2);
  CommandResult trace = run_command(relax_args({"run", w.src, w.a, w.b, "--trace", w.src}));
  CHECK(trace.exit_code == 2);
  CHECK(contains(trace.err, "refusing to write --trace " + w.src));
  CHECK(read_file(w.a) == a);
  CHECK(read_file(w.src) == source);
  CHECK(dir_entries(w.dir.path()) == Names{"a.npy", "b.npy", "link.relax", "src.relax"});
}

TEST_CASE("relax run -o: a failed write exits 2 and leaves no file") {
  Workspace w;
  if (fs::exists("/dev/full")) {
    CommandResult full = run_command(relax_args({"run", w.src, w.a, w.b, "-o", "/dev/full"}));
    CHECK(full.exit_code == 2);
    CHECK(contains(full.err, "relax: error: cannot write /dev/full: No space left on device\n"));
    CHECK(fs::is_character_file("/dev/full"));
  } else {
    WARN("no /dev/full: that write failure is not tested");
  }
  // A folder that cannot be written (only a failure when not root: root writes anyway).
  fs::create_directory(w / "ro");
  fs::permissions(w / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  CommandResult ro = run_command(relax_args({"run", w.src, w.a, w.b, "-o", w / "ro/out.npy"}));
  if (::geteuid() != 0) {
    CHECK(ro.exit_code == 2);
    CHECK(contains(ro.err, "Permission denied"));
    CHECK(dir_entries(w / "ro").empty());
  } else {
    WARN("running as root: a read-only folder does not stop the write (tested by the limit below)");
    CHECK(ro.exit_code == 0);
  }
  fs::permissions(w / "ro", fs::perms::owner_all);
  fs::remove_all(w / "ro");
  // A folder that does not exist.
  CommandResult missing = run_command(relax_args({"run", w.src, w.a, w.b, "-o", w / "no/out.npy"}));
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.err, "No such file or directory"));
  // A write past the limit: no partial file.
  CommandResult limited = run_command(
      with_file_size_limit(8, relax_args({"run", w.src, w.a, w.b, "-o", w / "out.npy"})));
  CHECK(limited.exit_code == 2);
  CHECK(
      contains(limited.err, "relax: error: cannot write " + w / "out.npy" + ": File too large\n"));
  CHECK(dir_entries(w.dir.path()) == Names{"a.npy", "b.npy", "src.relax"});
}

TEST_CASE("a failed write keeps the previous file, and no temporary is left") {
  Workspace w;
  std::string so = w / "m.so", npy = w / "out.npy", trace = w / "t.json", text = w / "opt.relax";
  // First, successful writes.
  CommandResult built = run_command(relax_args({"build", w.src, "-o", so}));
  REQUIRE(built.exit_code == 0);
  REQUIRE(run_command(relax_args({"run", so, w.a, w.b, "-o", npy, "--trace", trace})).exit_code ==
          0);
  REQUIRE(run_command(relax_args({"opt", w.src, "-p", "default", "-o", text})).exit_code == 0);
  Names after_success = {"a.npy", "b.npy", "m.so", "opt.relax", "out.npy", "src.relax", "t.json"};
  CHECK(dir_entries(w.dir.path()) == after_success);
  std::string so_bytes = read_file(so), npy_bytes = read_file(npy);
  std::string trace_bytes = read_file(trace), text_bytes = read_file(text);
  REQUIRE(so_bytes.size() > 4096);
  REQUIRE(npy_bytes.size() > 4096);
  REQUIRE(text_bytes.size() > 1024);
  // Then the same writes with a 1 KiB limit: each fails with exit 2 and keeps the file.
  CommandResult b = run_command(with_file_size_limit(1, relax_args({"build", w.src, "-o", so})));
  CHECK(b.exit_code == 2);
  CHECK(contains(b.err, "error[E0713]"));
  CHECK(contains(b.err, "File too large"));
  CHECK_FALSE(contains(b.err, "Built "));
  CHECK(read_file(so) == so_bytes);
  // (a + a: a result other than the file's, so a partial write would show)
  CommandResult r =
      run_command(with_file_size_limit(1, relax_args({"run", so, w.a, w.a, "-o", npy})));
  CHECK(r.exit_code == 2);
  CHECK(read_file(npy) == npy_bytes);
  // The trace of a bigger run (more calls) does not fit in 1 KiB either.
  CommandResult t = run_command(with_file_size_limit(
      1, relax_args({"run", so, w.a, w.b, "--repeat", "20", "--trace", trace})));
  CHECK(t.exit_code == 2);
  CHECK(contains(t.err, "relax: error: --trace: cannot write " + trace + ": File too large\n"));
  CHECK(read_file(trace) == trace_bytes);
  CommandResult o =
      run_command(with_file_size_limit(1, relax_args({"opt", w.src, "-p", "default", "-o", text})));
  CHECK(o.exit_code == 2);
  CHECK(read_file(text) == text_bytes);
  CommandResult e = run_command(
      with_file_size_limit(1, relax_args({"build", w.src, "--emit", "bytecode", "-o", so})));
  CHECK(e.exit_code == 2);
  CHECK(read_file(so) == so_bytes);
  // Nothing else in the folder: no object file, log or temporary from the failed writes.
  CHECK(dir_entries(w.dir.path()) == after_success);
  // A failed link (the C compiler fails) leaves nothing either.
  CommandResult link = run_command({"/usr/bin/env", "CC=false", kRelax, "--color", "never", "build",
                                    w.src, "-o", w / "other.so"});
  CHECK(link.exit_code == 2);
  CHECK(contains(link.err, "error[E0713]"));
  CHECK(dir_entries(w.dir.path()) == after_success);
}

TEST_CASE("build -o through a symbolic link replaces its target and keeps the link") {
  Workspace w;
  fs::create_directory(w / "lib");
  fs::create_symlink("lib/model.so", w / "model.so");
  CommandResult r = run_command(relax_args({"build", w.src, "-o", w / "model.so"}));
  REQUIRE(r.exit_code == 0);
  CHECK(fs::is_symlink(w / "model.so"));
  CHECK(fs::is_regular_file(w / "lib/model.so"));
  CHECK(dir_entries(w / "lib") == Names{"model.so"});
  CommandResult run = run_command(relax_args({"run", w / "model.so", w.a, w.b}));
  CHECK(run.exit_code == 0);
}

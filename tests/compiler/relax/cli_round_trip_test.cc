// `relax opt -p default` output given to `relax run` again (docs/cli.md promises that opt's
// output can be built again): the same results, byte for byte, as running the original file, and
// text whose kills were wrong is rejected with E0788 rather than run.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "tests/support/test_util.h"

namespace fs = std::filesystem;
using relax::test::run_command;

namespace {

const std::string kRelax = RELAX_BINARY;

using relax::test::TempDir;

// `relax run FILE --random ARGS... -o DIR/STEM.npy`: stdout, and each result file's bytes by its
// name after the stem (`.npy`, `_0.npy`, ...).
struct RunOutput {
  std::string out;
  std::map<std::string, std::string> files;
};

RunOutput run_random(const fs::path& file, const std::vector<std::string>& args,
                     const fs::path& dir, const std::string& stem) {
  std::vector<std::string> argv = {kRelax,     "run", file.string(),
                                   "--random", "-o",  (dir / (stem + ".npy")).string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = run_command(argv);
  INFO(file.string() << ": " << r.err);
  REQUIRE(r.exit_code == 0);
  RunOutput o{r.out, {}};
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(stem, 0) == 0 && entry.path().extension() == ".npy")
      o.files[name.substr(stem.size())] = relax::test::read_file(entry.path());
  }
  REQUIRE_FALSE(o.files.empty());
  return o;
}

void check_opt_then_run(const fs::path& file, const std::vector<std::string>& args) {
  TempDir dir;
  fs::path lowered = dir / "lowered.relax";
  auto opt = run_command({kRelax, "opt", file.string(), "-p", "default", "-o", lowered.string()});
  INFO(file.string() << ": " << opt.err);
  REQUIRE(opt.exit_code == 0);
  RunOutput want = run_random(file, args, dir.path(), "want");
  RunOutput got = run_random(lowered, args, dir.path(), "got");
  CHECK(got.out == want.out);
  CHECK(got.files == want.files);
}

}  // namespace

TEST_CASE("relax opt -p default, then relax run: a static add gives its sum, not null") {
  TempDir dir;
  fs::path add = dir / "add.relax", lowered = dir / "L.relax";
  relax::test::write_file(add, R"(from tvm.script import relax as R

@R.function
def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    z = R.add(x, y)
    return z
)");
  auto opt = run_command({kRelax, "opt", add.string(), "-p", "default", "-o", lowered.string()});
  REQUIRE(opt.exit_code == 0);
  auto want = run_command({kRelax, "run", add.string(), "--random"});
  auto got = run_command({kRelax, "run", lowered.string(), "--random"});
  INFO(got.err);
  REQUIRE(got.exit_code == 0);
  CHECK(got.out.find("null") == std::string::npos);
  CHECK(got.out.find("shape (4,), dtype float32") != std::string::npos);
  CHECK(got.out == want.out);
  // And opt again on its own output, then build.
  fs::path twice = dir / "L2.relax";
  auto again =
      run_command({kRelax, "opt", lowered.string(), "-p", "default", "-o", twice.string()});
  REQUIRE(again.exit_code == 0);
  auto built = run_command({kRelax, "build", twice.string(), "-o", (dir / "m.so").string()});
  INFO(built.err);
  CHECK(built.exit_code == 0);
  CHECK(run_command({kRelax, "run", twice.string(), "--random"}).out == want.out);
}

TEST_CASE("relax opt -p default, then relax run: the examples give the same bytes") {
  auto examples = relax::test::source_dir() / "examples";
  check_opt_then_run(examples / "mlp.relax", {"--shape", "batch=3"});
  check_opt_then_run(examples / "vector_add.relax", {"--shape", "n=7"});
  if (auto shared = relax::test::shared_dir()) {
    check_opt_then_run(*shared / "examples" / "02_dynamic_shape.relax", {"--shape", "n=5"});
    check_opt_then_run(*shared / "examples" / "04_if_else.relax", {"--seed", "1"});
    check_opt_then_run(*shared / "examples" / "10_function_calls.relax", {});
  }
}

TEST_CASE("relax run rejects lowered text that uses a value after its kill (E0788)") {
  TempDir dir;
  fs::path file = dir / "old.relax";
  // What `relax opt -p default` printed before kills followed aliases.
  relax::test::write_file(file, R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        storage: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("float32"), R.str("global"))
        alloc: R.Tensor((4,), "float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        R.vm.kill_object(storage)
        z: R.Tensor((4,), "float32") = alloc
        R.vm.kill_object(alloc)
        return z
)");
  auto r = run_command({kRelax, "run", file.string(), "--random"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("old.relax:8:9: error[E0788]: function `main`: `z` is returned after "
                   "`R.vm.kill_object(alloc)` killed it") != std::string::npos);
}

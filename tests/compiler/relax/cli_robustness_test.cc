// `relax run` / `relax build` on the inputs of issue 10: indices out of range are a run-time
// error naming the op (R.take's modes keep TVM's other behaviours), shapes computed at run time
// never wrap, impossible tensors stop the build, and every integer option is parsed whole.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "tests/support/test_util.h"
#include "vm/io/npy.h"
#include "vm/tensor.h"

namespace fs = std::filesystem;
using relax::test::run_command;

namespace {

const std::string kRelax = RELAX_BINARY;

using relax::test::TempDir;

// A file holding `main(x: R.Tensor((2, 3), "float32"))` that returns `y = <call>`.
fs::path module_with(const TempDir& dir, const std::string& name, const std::string& call,
                     const std::string& x = "R.Tensor((2, 3), \"float32\")") {
  fs::path p = dir / (name + ".relax");
  relax::test::write_file(p, "# from tvm.script import relax as R\n\n@R.function\ndef main(x: " +
                                 x + "):\n    y = " + call + "\n    return y\n");
  return p;
}

// x = [0, 1, 2, 3, 4, 5, 6, 7] (float32), as an .npy file.
fs::path iota8(const TempDir& dir) {
  fs::path p = dir / "iota8.npy";
  std::vector<float> v{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<int64_t> shape{8};
  REQUIRE(relax::vm::write_npy(p.string(),
                               *relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, v.data()))
              .ok());
  return p;
}

std::vector<float> floats_of(const fs::path& npy) {
  auto t = relax::vm::read_npy(npy.string());
  REQUIRE(t.ok());
  const float* p = (*t)->data_as<float>();
  return std::vector<float>(p, p + (*t)->numel());
}

}  // namespace

TEST_CASE("relax run: R.take with an index out of range fails naming the op, unless a mode says") {
  TempDir dir;
  fs::path x = iota8(dir), out = dir / "y.npy";
  const std::string x8 = "R.Tensor((8,), \"float32\")";
  // The default: a run-time error (it returned NaN with exit 0).
  auto bad = run_command(
      {kRelax, "run",
       module_with(dir, "take", "R.take(x, R.const([100], \"int64\"), axis=0)", x8).string(),
       x.string()});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("R.take: index out of range [0, 8)") != std::string::npos);
  CHECK(bad.err.find("main: kernel `take`") != std::string::npos);
  auto negative = run_command(
      {kRelax, "run",
       module_with(dir, "neg", "R.take(x, R.const([-1], \"int64\"), axis=0)", x8).string(),
       x.string()});
  CHECK(negative.exit_code == 1);
  CHECK(negative.err.find("R.take: index out of range [0, 8)") != std::string::npos);
  // In range: the values.
  auto good = run_command(
      {kRelax, "run",
       module_with(dir, "good", "R.take(x, R.const([7, 0, 3], \"int64\"), axis=0)", x8).string(),
       x.string(), "-o", out.string()});
  INFO(good.err);
  REQUIRE(good.exit_code == 0);
  CHECK(floats_of(out) == std::vector<float>{7, 0, 3});
  // TVM's modes: wrap (modulo the extent), clip (clamped), nan (NaN out of range), fast (in
  // range only: out of range it reads past the tensor, as TVM does).
  struct Mode {
    const char* mode;
    const char* indices;
    std::vector<float> want;
  };
  for (const Mode& m :
       {Mode{"wrap", "[100, -1, 9]", {4, 7, 1}}, Mode{"clip", "[100, -1, 5]", {7, 0, 5}},
        Mode{"fast", "[1, 6, 2]", {1, 6, 2}}}) {
    INFO(m.mode);
    auto r = run_command({kRelax, "run",
                          module_with(dir, m.mode,
                                      "R.take(x, R.const(" + std::string(m.indices) +
                                          ", \"int64\"), axis=0, mode=\"" + m.mode + "\")",
                                      x8)
                              .string(),
                          x.string(), "-o", out.string()});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(floats_of(out) == m.want);
  }
  auto nan = run_command({kRelax, "run",
                          module_with(dir, "nan",
                                      "R.take(x, R.const([100, 2, -1], \"int64\"), axis=0, "
                                      "mode=\"nan\")",
                                      x8)
                              .string(),
                          x.string(), "-o", out.string()});
  INFO(nan.err);
  REQUIRE(nan.exit_code == 0);
  auto v = floats_of(out);
  REQUIRE(v.size() == 3);
  CHECK(std::isnan(v[0]));
  CHECK(v[1] == 2);
  CHECK(std::isnan(v[2]));
}

TEST_CASE("relax run: gathers, scatters and index_tensor check their indices") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string bad, good;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"gather_elements",
       "R.gather_elements(x, R.const([[0, 5, 1], [1, 1, 1]], \"int64\"), axis=1)",
       "R.gather_elements(x, R.const([[0, -3, 1], [1, 1, 1]], \"int64\"), axis=1)",
       "R.gather_elements: index out of range [-3, 3)"},
      {"gather_nd", "R.gather_nd(x, R.const([[1, 2], [2, 0]], \"int64\"))",
       "R.gather_nd(x, R.const([[1, 2], [0, 0]], \"int64\"))",
       "R.gather_nd: index out of range for its axis"},
      {"scatter_elements",
       "R.scatter_elements(x, R.const([[0, 3]], \"int64\"), R.const([[1.0, 2.0]], \"float32\"), "
       "axis=1)",
       "R.scatter_elements(x, R.const([[0, -1]], \"int64\"), R.const([[1.0, 2.0]], \"float32\"), "
       "axis=1)",
       "R.scatter_elements: index out of range [-3, 3)"},
      {"scatter_nd", "R.scatter_nd(x, R.const([[1, 3]], \"int64\"), R.const([5.0], \"float32\"))",
       "R.scatter_nd(x, R.const([[1, -1]], \"int64\"), R.const([5.0], \"float32\"))",
       "R.scatter_nd: index out of range for its axis"},
      {"index_tensor", "R.index_tensor(x, (R.const([0, 2], \"int64\"),))",
       "R.index_tensor(x, (R.const([0, -2], \"int64\"),))",
       "R.index_tensor: index out of range [-2, 2)"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto bad =
        run_command({kRelax, "run", module_with(dir, std::string(c.name) + "_bad", c.bad).string(),
                     "--random"});
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find(c.message) != std::string::npos);
    auto good =
        run_command({kRelax, "run",
                     module_with(dir, std::string(c.name) + "_good", c.good).string(), "--random"});
    INFO(good.err);
    CHECK(good.exit_code == 0);
  }
  // multinomial_from_uniform reads the row that sample_indices names.
  fs::path m = dir / "multinomial.relax";
  relax::test::write_file(
      m,
      "# from tvm.script import relax as R\n\n@R.function\ndef main(p: R.Tensor((2, 3), "
      "\"float32\")):\n    y = R.multinomial_from_uniform(p, R.const([[0.5]], \"float32\"), "
      "R.const([[2]], \"int64\"), \"int64\")\n    return y\n");
  auto bad = run_command({kRelax, "run", m.string(), "--random"});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("R.multinomial_from_uniform: sample index out of range [0, 2)") !=
        std::string::npos);
}

TEST_CASE("relax run: shapes computed at run time never wrap") {
  TempDir dir;
  fs::path f = module_with(dir, "shape", "R.zeros(R.shape([n * 4611686018427387904]), \"float32\")",
                           "R.Tensor((\"n\",), \"float32\")");
  // n * 2^62 with n = 4 overflows int64; with n = 1 its 4-byte elements do.
  auto r = run_command({kRelax, "run", f.string(), "--random", "--shape", "n=4"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("main: integer overflow in a symbolic shape expression: 4 * "
                   "4611686018427387904 does not fit in int64") != std::string::npos);
  auto bytes = run_command({kRelax, "run", f.string(), "--random", "--shape", "n=1"});
  CHECK(bytes.exit_code == 1);
  CHECK(bytes.err.find("main: integer overflow in a symbolic shape expression") !=
        std::string::npos);
  CHECK(bytes.err.find("internal error") == std::string::npos);
  // A possible size that no memory holds: an error, not a crash.
  fs::path oom = module_with(dir, "oom", "R.zeros(R.shape([n, 1099511627776]), \"uint8\")",
                             "R.Tensor((\"n\",), \"float32\")");
  auto o = run_command({kRelax, "run", oom.string(), "--random", "--shape", "n=1024"});
  CHECK(o.exit_code == 1);
  CHECK(o.err.find("out of memory allocating 1125899906842624 bytes") != std::string::npos);
}

TEST_CASE("relax build/run: an impossible tensor is an error before anything runs") {
  TempDir dir;
  fs::path f = module_with(dir, "neg", "R.add(x, x)", "R.Tensor((-4,), \"float32\")");
  for (const char* cmd : {"build", "run"}) {
    INFO(cmd);
    auto r = run_command({kRelax, "--color", "never", cmd, f.string()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("neg.relax:4:23: error[E0419]: a tensor dimension cannot be negative") !=
          std::string::npos);
  }
  // R.zeros((2^30, 2^30)) threw std::length_error while folding constants.
  fs::path z = module_with(dir, "zeros", "R.zeros((1073741824, 1073741824), \"float32\")");
  auto r = run_command({kRelax, "--color", "never", "run", z.string(), "--random"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("zeros.relax:5:5: error[E0419]") != std::string::npos);
  CHECK(r.err.find("internal error") == std::string::npos);
}

TEST_CASE("relax run: --shape and integer options take the whole value or refuse it") {
  TempDir dir;
  fs::path f = module_with(dir, "sym", "R.add(x, x)", "R.Tensor((\"n\",), \"float32\")");
  fs::path out = dir / "y.npy";
  auto ok =
      run_command({kRelax, "run", f.string(), "--random", "--shape", "n=5", "-o", out.string()});
  INFO(ok.err);
  REQUIRE(ok.exit_code == 0);
  CHECK(floats_of(out).size() == 5);
  // These ran with 5, 0 and 1.
  for (const char* bad :
       {"n=5x", "n=0x10", "n=1e3", "n=-3", "n=", "=5", "n=99999999999999999999"}) {
    INFO(bad);
    auto r = run_command({kRelax, "run", f.string(), "--random", "--shape", bad});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--shape expects NAME=N with N a non-negative decimal integer, not `" +
                     std::string(bad) + "`") != std::string::npos);
  }
  // CLI11 alone reads 0x10 as 16 and 010 as 8: integer options are decimal.
  for (const char* opt : {"--repeat", "--seed"}) {
    for (const char* bad : {"0x2", "1e1", "5x"}) {
      INFO(opt << " " << bad);
      auto r = run_command({kRelax, "run", f.string(), "--random", "--shape", "n=2", opt, bad});
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("`" + std::string(bad) + "` is not a whole decimal integer") !=
            std::string::npos);
    }
  }
  auto repeat =
      run_command({kRelax, "run", f.string(), "--random", "--shape", "n=2", "--repeat", "010"});
  CHECK(repeat.exit_code == 0);
  CHECK(repeat.out.find("over 10 runs") != std::string::npos);
  auto width = run_command({kRelax, "fmt", "--line-width", "0x50", f.string()});
  CHECK(width.exit_code == 2);
  auto level = run_command({kRelax, "build", "--opt-level", "1x", f.string()});
  CHECK(level.exit_code == 2);
}

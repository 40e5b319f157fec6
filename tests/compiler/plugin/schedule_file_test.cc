// Schedule files through the real `relax` command: the seed's §6.1 schedule of
// examples/matmul_relu.relax printed (golden), built and run against the unscheduled build and a
// C++ reference, kept by DefaultCPUSchedule, and every error at its line and column.
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

fs::path example(const std::string& name) {
  return relax::test::source_dir() / "examples" / name;
}

class TempDir {
 public:
  explicit TempDir(const std::string& tag)
      : path_(fs::temp_directory_path() /
              ("relax_schedule_test_" + tag + "_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

void check_golden(const std::string& actual, const fs::path& file) {
  if (relax::test::update_golden()) relax::test::write_file(file, actual);
  CHECK(actual == relax::test::read_file(file));
}

std::vector<float> values(int64_t n, float scale) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = std::sin(scale * static_cast<float>(i));
  return v;
}

const char* kTwoRelus = R"(@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((64, 32), "float32"), b: R.Tensor((32, 48), "float32"), e: R.Tensor((8,), "float32")):
        with R.dataflow():
            c = R.matmul(a, b)
            d = R.nn.relu(c)
            f = R.nn.relu(e)
            R.output(d, f)
        return (d, f)
)";

}  // namespace

TEST_CASE("relax opt --schedule prints the seed's scheduled matmul (golden)") {
  auto r = run_command({kRelax, "opt", example("matmul_relu.relax").string(), "-p", "LegalizeOps",
                        "--schedule", example("matmul_relu_schedule.py").string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  check_golden(r.out, relax::test::tests_dir() / "compiler" / "plugin" / "golden" /
                          "matmul_relu_scheduled.relax");
  // The schedule of the seed, loop by loop; the relu kernel is not in the file and stays as
  // LegalizeOps made it.
  CHECK(r.out.find("for i0 in T.parallel(T.int64(64)):\n"
                   "            for i1_0, k in T.grid(T.int64(12), T.int64(32)):\n"
                   "                for i1_1 in T.vectorized(T.int64(4)):") != std::string::npos);
  CHECK(r.out.find("for i0, i1 in T.grid(T.int64(64), T.int64(48)):") != std::string::npos);

  // Without -p the schedule runs on the module as it is: no prim_func to schedule yet.
  auto bare = run_command({kRelax, "opt", example("matmul_relu.relax").string(), "--schedule",
                           example("matmul_relu_schedule.py").string()});
  CHECK(bare.exit_code == 1);
  CHECK(bare.err.find("matmul_relu_schedule.py:5:40: error[E0735]: the module has no prim_func "
                      "named `matmul`") != std::string::npos);
  CHECK(bare.err.find("note: its prim_funcs: none") != std::string::npos);
}

TEST_CASE(
    "relax build --schedule keeps the schedule, and the numbers match the unscheduled build") {
  TempDir dir("build");
  // DefaultCPUSchedule leaves the scheduled matmul as the file made it and schedules the relu.
  // --print-after writes to stderr, as LLVM's tools do.
  auto printed = run_command({kRelax, "build", example("matmul_relu.relax").string(), "--schedule",
                              example("matmul_relu_schedule.py").string(), "--print-after",
                              "DefaultCPUSchedule", "-o", (dir / "m.so").string()});
  REQUIRE(printed.exit_code == 0);
  CHECK(printed.out.empty());
  printed.out = printed.err;
  CHECK(printed.out.find("for i1_1 in T.vectorized(T.int64(4)):") != std::string::npos);
  CHECK(printed.out.find("T.func_attr({\"tir.is_scheduled\": T.bool(True), \"tir.noalias\": "
                         "T.bool(True)})") != std::string::npos);
  // The matmul kernel is the one `relax opt --schedule` prints (the golden file), unchanged.
  auto matmul_of = [](const std::string& text) {
    size_t begin = text.find("    def matmul(");
    return begin == std::string::npos ? std::string()
                                      : text.substr(begin, text.find("\n\n", begin) - begin);
  };
  std::string golden = relax::test::read_file(relax::test::tests_dir() / "compiler" / "plugin" /
                                              "golden" / "matmul_relu_scheduled.relax");
  REQUIRE(!matmul_of(golden).empty());
  CHECK(matmul_of(printed.out) == matmul_of(golden));
  CHECK(printed.out.find("        for i0_i1_0_fused in T.parallel(T.int64(192)):\n"
                         "            for i1_1 in T.vectorized(T.int64(16)):\n"
                         "                with T.block(\"compute\"):") !=
        std::string::npos);  // the relu, default-scheduled

  std::vector<float> a = values(64 * 32, 0.37f), b = values(32 * 48, 0.11f);
  fs::path in_a = dir / "a.npy", in_b = dir / "b.npy";
  int64_t sa[] = {64, 32}, sb[] = {32, 48};
  REQUIRE(relax::vm::write_npy(in_a.string(),
                               *relax::vm::tensor_from_bytes(sa, relax::vm::kFloat32, a.data())));
  REQUIRE(relax::vm::write_npy(in_b.string(),
                               *relax::vm::tensor_from_bytes(sb, relax::vm::kFloat32, b.data())));
  std::vector<std::vector<float>> results;
  for (bool scheduled : {true, false}) {
    fs::path so = dir / (scheduled ? "scheduled.so" : "plain.so");
    fs::path out = dir / (scheduled ? "scheduled.npy" : "plain.npy");
    std::vector<std::string> build = {kRelax, "build", example("matmul_relu.relax").string(), "-o",
                                      so.string()};
    if (scheduled) {
      build.push_back("--schedule");
      build.push_back(example("matmul_relu_schedule.py").string());
    }
    auto bo = run_command(build);
    INFO(bo.err);
    REQUIRE(bo.exit_code == 0);
    auto ro =
        run_command({kRelax, "run", so.string(), in_a.string(), in_b.string(), "-o", out.string()});
    INFO(ro.err);
    REQUIRE(ro.exit_code == 0);
    auto t = relax::vm::read_npy(out.string());
    REQUIRE(t);
    REQUIRE((*t)->numel() == 64 * 48);
    const float* p = (*t)->data_as<float>();
    results.emplace_back(p, p + 64 * 48);
  }
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 48; ++j) {
      float ref = 0;
      for (int k = 0; k < 32; ++k)
        ref += a[static_cast<size_t>(i * 32 + k)] * b[static_cast<size_t>(k * 48 + j)];
      ref = std::max(ref, 0.0f);
      size_t at = static_cast<size_t>(i * 48 + j);
      REQUIRE(results[0][at] == Approx(results[1][at]).epsilon(1e-6).margin(1e-6));
      REQUIRE(results[0][at] == Approx(ref).epsilon(1e-5).margin(1e-5));
    }
  }
}

TEST_CASE("relax opt --schedule schedules a prim_func written by hand (get_block with func_name)") {
  TempDir dir("mm");
  relax::test::write_file(dir / "mm.relax", R"(@I.ir_module
class Module:
    @T.prim_func
    def mm(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        for i, j, k in T.grid(16, 16, 16):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)");
  relax::test::write_file(dir / "s.py", R"(import tvm
sch = tvm.tir.Schedule(mod)
block = sch.get_block("C", func_name="mm")
i, j, k = sch.get_loops(block)
ij = sch.fuse(i, j)
o, p = sch.split(ij, factors=[None, 8])  # a comment
sch.unroll(k)
sch.parallel(o)
sch.vectorize(p)
)");
  auto r = run_command(
      {kRelax, "opt", (dir / "mm.relax").string(), "--schedule", (dir / "s.py").string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(
      r.out.find(
          "        T.func_attr({\"tir.is_scheduled\": T.bool(True)})\n"
          "        # with T.block(\"root\"):\n"
          "        for i_j_fused_0 in T.parallel(32):\n"
          "            for i_j_fused_1 in T.vectorized(8):\n"
          "                for k in T.unroll(16):\n"
          "                    with T.block(\"C\"):\n"
          "                        vi = T.axis.spatial(16, (i_j_fused_0 * 8 + i_j_fused_1) // 16)\n"
          "                        vj = T.axis.spatial(16, (i_j_fused_0 * 8 + i_j_fused_1) % 16)\n"
          "                        vk = T.axis.reduce(16, k)\n") != std::string::npos);
}

TEST_CASE("schedule file errors are diagnostics at the file's line and column") {
  TempDir dir("errors");
  fs::path model = dir / "m.relax", file = dir / "s.py";
  relax::test::write_file(model, kTwoRelus);
  struct Case {
    std::string text;
    std::string expected;  // "line:col: error[CODE]: message start"
  };
  const std::string get = "b = sch.get_block(\"matmul\")\ni, j, k = sch.get_loops(b)\n";
  std::vector<Case> cases = {
      {"b = sch.get_block(\"T_matmul\")\n",
       "1:19: error[E0721]: no prim_func of the module has a block named `T_matmul`"},
      {"b = sch.get_block(\"compute\", func_name=\"matmul\")\n",
       "1:19: error[E0721]: prim_func `matmul` has no block named `compute`"},
      {"b = sch.get_block(\"matmul\", func_name=\"mm\")\n",
       "1:29: error[E0735]: the module has no prim_func named `mm`"},
      {"b = sch.get_block(\"matmul\", func_name=\"main\")\n",
       "1:29: error[E0735]: `main` is a Relax function; schedules apply to prim_funcs"},
      {"b = sch.get_block(\"compute\")\n",
       "1:5: error[E0736]: block `compute` is in several prim_funcs (relu, relu1); choose one with "
       "func_name="},
      {"\n# two lines down\nb = sch.get_block(\"matmul\")\ni, j = sch.get_loops(b)\n",
       "4:1: error[E0734]: the left side names 2 values, the right side has 3 (i0, i1, k)"},
      {get + "sch.parallel(k)\n",
       "3:1: error[E0725]: schedule: cannot parallelize loop `k`: it feeds the reduction iterator "
       "`v_k` of block `matmul`"},
      {get + "sch.vectorize(k)\n", "3:1: error[E0725]: schedule: cannot vectorize loop `k`"},
      {get + "sch.split(j, factors=[None, None])\n",
       "3:14: error[E0722]: at most one split factor can be None"},
      {get + "sch.split(j, factors=[4, -1])\n",
       "3:26: error[E0722]: split factors are positive integers, or None"},
      {get + "sch.split(j, factors=[5, 4])\n",
       "3:1: error[E0722]: schedule: split of `i1`: the factors cover fewer iterations than the "
       "loop has"},
      {get + "sch.split(j, factors=4)\n",
       "3:14: error[E0733]: sch.split expects a list here, not an integer"},
      {get + "sch.split(j)\n",
       "3:1: error[E0733]: missing argument `factors` of sch.split(loop, "
       "factors)"},
      {get + "sch.split(b, [2, 24])\n",
       "3:11: error[E0733]: sch.split expects a loop (from get_loops, split or fuse) here, not a "
       "block"},
      {get + "sch.fuse(i, j, preserve_unit_iters=True)\n",
       "3:16: error[E0733]: sch.fuse takes only loops, as positional arguments"},
      {get + "jo, ji = sch.split(j, factors=[None, 4])\nsch.reorder(j, k)\n",
       "4:1: error[E0720]: schedule: reorder: a loop is not in the function"},
      {get + "sch.fuse(i, k)\n",
       "3:1: error[E0723]: schedule: fuse: `k` is not the only statement inside `i0`"},
      {get + "c = sch.get_block(\"compute\", func_name=\"relu\")\nx, y = sch.get_loops(c)\n"
             "sch.fuse(i, x)\n",
       "5:13: error[E0737]: the loops of sch.fuse are in different prim_funcs (`matmul` and "
       "`relu`)"},
      {get + "sch.cache_read(b, 0, \"global\")\n",
       "3:5: error[E0731]: `cache_read` is not a schedule primitive relax supports"},
      {"x = sch.get_loops(block)\n", "1:19: error[E0732]: `block` is not defined"},
      {"for i in range(3):\n    pass\n",
       "1:1: error[E0730]: a `for` statement is not supported in a schedule file"},
      {"print(sch)\n",
       "1:1: error[E0730]: only schedule primitives (`sch.split(...)`) can be called"},
      {"b = sch.get_block(\"matmul\"\n", "1:27: error[E0102]: expected ')'"},
  };
  for (const Case& c : cases) {
    relax::test::write_file(file, c.text);
    auto r = run_command(
        {kRelax, "opt", model.string(), "-p", "LegalizeOps", "--schedule", file.string()});
    INFO(c.text);
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find(file.string() + ":" + c.expected) != std::string::npos);
  }
}

TEST_CASE("relax opt|build --schedule: usage errors, and where ApplySchedule runs") {
  TempDir dir("usage");
  auto missing = run_command({kRelax, "build", example("matmul_relu.relax").string(), "--schedule",
                              (dir / "none.py").string()});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("cannot open") != std::string::npos);
  auto nothing = run_command({kRelax, "opt", example("matmul_relu.relax").string()});
  CHECK(nothing.exit_code == 2);
  CHECK(nothing.err.find("give the passes to run with -p (or a schedule file with --schedule)") !=
        std::string::npos);
  auto placeholder = run_command(
      {kRelax, "opt", example("matmul_relu.relax").string(), "-p", "LegalizeOps,ApplySchedule"});
  CHECK(placeholder.exit_code == 2);
  CHECK(placeholder.err.find("ApplySchedule needs a schedule file (--schedule FILE)") !=
        std::string::npos);
  // Named in -p, the schedule runs there (and not also after LegalizeOps).
  auto placed = run_command({kRelax, "opt", example("matmul_relu.relax").string(), "-p",
                             "LegalizeOps,ApplySchedule", "--schedule",
                             example("matmul_relu_schedule.py").string(), "--time-passes"});
  INFO(placed.err);
  CHECK(placed.exit_code == 0);
  CHECK(placed.out.find("T.vectorized(T.int64(4))") != std::string::npos);
  size_t runs = 0;
  for (size_t at = placed.err.find("ApplySchedule"); at != std::string::npos;
       at = placed.err.find("ApplySchedule", at + 1))
    ++runs;
  CHECK(runs == 1);  // --time-passes lists it once
  // `default` is the build pipeline, with the schedule in it.
  auto pipeline = run_command({kRelax, "opt", example("matmul_relu.relax").string(), "-p",
                               "default", "--schedule", example("matmul_relu_schedule.py").string(),
                               "--print-after", "ApplySchedule"});
  INFO(pipeline.err);
  CHECK(pipeline.exit_code == 0);
  CHECK(pipeline.err.find("# IR after ApplySchedule") != std::string::npos);
  CHECK(pipeline.out.find("for i1_1 in T.vectorized(T.int64(4)):") != std::string::npos);
}

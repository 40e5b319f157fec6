// Pass plugins through the real `relax` command: the example plugin (examples/cpp) in `relax opt`
// (printed IR), `relax passes` and `relax build` (placed before LegalizeOps, numbers checked),
// passes placed with --pass-before/--pass-after, and the refusals of broken plugins.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "compiler/pipeline.h"
#include "tests/support/test_util.h"
#include "vm/io/npy.h"
#include "vm/tensor.h"

namespace fs = std::filesystem;
using relax::test::run_command;

namespace {

const std::string kRelax = RELAX_BINARY;
const std::string kPlugin = RELAX_EXAMPLE_PLUGIN;

std::string test_plugin(const std::string& kind) {
  return std::string(RELAX_TEST_PLUGIN_DIR) + "/librelax_test_plugin_" + kind + ".so";
}

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("relax_plugin_test_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// u = x * y + z, v = u * y + z; s = x * z is used twice, so it is not folded into an ewise_fma.
const char* kModel = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 8), "float32"), y: R.Tensor((4, 8), "float32"), z: R.Tensor((4, 8), "float32")):
        with R.dataflow():
            t = R.multiply(x, y)
            u = R.add(t, z)
            w = R.multiply(u, y)
            v = R.add(z, w)
            s = R.multiply(x, z)
            q = R.add(s, s)
            b = R.multiply(x, R.const(2, "float32"))
            c = R.add(b, z)
            R.output(v, q, c)
        return (v, q, c)
)";

const char* kFused = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), y: R.Tensor((4, 8), dtype="float32"), z: R.Tensor((4, 8), dtype="float32")) -> R.Tuple(R.Tensor((4, 8), dtype="float32"), R.Tensor((4, 8), dtype="float32"), R.Tensor((4, 8), dtype="float32")):
        with R.dataflow():
            u: R.Tensor((4, 8), dtype="float32") = R.ewise_fma(x, y, z)
            v: R.Tensor((4, 8), dtype="float32") = R.ewise_fma(u, y, z)
            s: R.Tensor((4, 8), dtype="float32") = R.multiply(x, z)
            q: R.Tensor((4, 8), dtype="float32") = R.add(s, s)
            b: R.Tensor((4, 8), dtype="float32") = R.multiply(x, R.const(2.0, "float32"))
            c: R.Tensor((4, 8), dtype="float32") = R.add(b, z)
            R.output(v, q, c)
        return (v, q, c))";

}  // namespace

TEST_CASE("relax opt --load-pass-plugin runs the example plugin's pass by name") {
  TempDir dir;
  relax::test::write_file(dir / "m.relax", kModel);
  auto r = run_command({kRelax, "opt", (dir / "m.relax").string(), "--load-pass-plugin", kPlugin,
                        "-p", "FuseMultiplyAdd"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == kFused);
  // Loading the same library twice registers its passes once.
  auto twice = run_command({kRelax, "opt", (dir / "m.relax").string(), "--load-pass-plugin",
                            kPlugin, "--load-pass-plugin", kPlugin, "-p", "FuseMultiplyAdd"});
  CHECK(twice.exit_code == 0);
  CHECK(twice.out == kFused);
  // Without the plugin the pass is unknown.
  auto without = run_command({kRelax, "opt", (dir / "m.relax").string(), "-p", "FuseMultiplyAdd"});
  CHECK(without.exit_code == 2);
}

TEST_CASE("relax passes and relax build place the plugin's pass before LegalizeOps") {
  auto passes = run_command({kRelax, "passes", "--load-pass-plugin", kPlugin});
  REQUIRE(passes.exit_code == 0);
  CHECK(passes.out.find("  FuseMultiplyAdd          O1  Rewrites R.add(R.multiply(a, b), c) of "
                        "equal shapes into R.ewise_fma(a, b, c) (plugin)") != std::string::npos);
  CHECK(passes.out.find("  3. FuseMultiplyAdd (opt level >= 1)\n  4. LegalizeOps\n") !=
        std::string::npos);

  TempDir dir;
  relax::test::write_file(dir / "m.relax", kModel);
  fs::path so = dir / "m.so";
  auto b = run_command({kRelax, "build", (dir / "m.relax").string(), "--load-pass-plugin", kPlugin,
                        "-o", so.string(), "--print-after", "LegalizeOps"});
  REQUIRE(b.exit_code == 0);
  CHECK(b.out.empty());  // --print-after writes to stderr
  CHECK(b.err.find("def ewise_fma(") != std::string::npos);
  CHECK(b.err.find("R.call_tir(cls.ewise_fma, (x, y, z)") != std::string::npos);
  CHECK(b.err.find("R.call_tir(cls.ewise_fma, (u, y, z)") != std::string::npos);

  std::vector<float> x(32), y(32), z(32);
  for (int i = 0; i < 32; ++i) {
    x[static_cast<size_t>(i)] = 0.25f * static_cast<float>(i - 7);
    y[static_cast<size_t>(i)] = 1.5f - 0.125f * static_cast<float>(i);
    z[static_cast<size_t>(i)] = 0.5f * static_cast<float>(i % 5);
  }
  int64_t shape[] = {4, 8};
  std::vector<std::string> run = {kRelax, "run", so.string(), "-o", (dir / "out.npy").string()};
  for (auto [name, data] : {std::pair{"x", &x}, {"y", &y}, {"z", &z}}) {
    fs::path p = dir / (std::string(name) + ".npy");
    REQUIRE(relax::vm::write_npy(
        p.string(), *relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, data->data())));
    run.push_back(p.string());
  }
  auto r = run_command(run);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto v = relax::vm::read_npy((dir / "out_0.npy").string());
  auto q = relax::vm::read_npy((dir / "out_1.npy").string());
  auto c = relax::vm::read_npy((dir / "out_2.npy").string());
  REQUIRE(v);
  REQUIRE(q);
  REQUIRE(c);
  for (size_t i = 0; i < 32; ++i) {
    float u = x[i] * y[i] + z[i];
    CHECK((*v)->data_as<float>()[i] == Approx(u * y[i] + z[i]).epsilon(1e-6));
    CHECK((*q)->data_as<float>()[i] == Approx(2 * x[i] * z[i]).epsilon(1e-6));
    CHECK((*c)->data_as<float>()[i] == Approx(2 * x[i] + z[i]).epsilon(1e-6));
  }
}

TEST_CASE("relax build --pass-before/--pass-after place registered passes") {
  std::string model = (relax::test::source_dir() / "examples" / "matmul_relu.relax").string();
  TempDir dir;
  std::string so = (dir / "m.so").string();
  // --print-after and --print-before write to stderr, as LLVM's tools do.
  auto r = run_command({kRelax, "build", model, "--pass-after", "LegalizeOps:AnnotateTIROpPattern",
                        "--print-after", "AnnotateTIROpPattern", "-o", so});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.find("T.func_attr({\"op_pattern\": 4, \"tir.noalias\": T.bool(True)})") !=
        std::string::npos);
  auto before = run_command({kRelax, "build", model, "--pass-before",
                             "DefaultCPUSchedule:AnnotateTIROpPattern", "--print-before",
                             "DefaultCPUSchedule", "-o", so});
  CHECK(before.exit_code == 0);
  CHECK(before.err.find("\"op_pattern\": 0") != std::string::npos);

  struct Bad {
    std::string flag, value, message;
  };
  for (const Bad& bad : {
           Bad{"--pass-after", "LegalizeOps", "--pass-after takes STEP:PASS"},
           Bad{"--pass-after", "LegalizeOps:NoSuchPass", "--pass-after: unknown pass `NoSuchPass`"},
           Bad{"--pass-before", "NoSuchStep:FoldConstant",
               "the default pipeline has no step `NoSuchStep`"},
           Bad{"--pass-after", "LegalizeOps:ApplySchedule",
               "--pass-after: ApplySchedule needs a schedule file"},
       }) {
    auto e = run_command({kRelax, "build", model, bad.flag, bad.value, "-o", so});
    INFO(bad.value);
    CHECK(e.exit_code == 2);
    CHECK(e.err.find(bad.message) != std::string::npos);
  }
}

TEST_CASE("plugins that cannot be used are refused with a message and exit code 2") {
  std::string model = (relax::test::source_dir() / "examples" / "matmul_relu.relax").string();
  std::vector<std::pair<std::string, std::string>> cases = {
      {"/no/such/plugin.so", "cannot load pass plugin /no/such/plugin.so"},
      {test_plugin("no_abi"), "is not a relax pass plugin: it does not export relax_plugin_abi"},
      {test_plugin("no_register"),
       "is not a relax pass plugin: it does not export relax_register_passes"},
      {test_plugin("other_abi"), "was built for plugin ABI 99; this is relax "},
      {test_plugin("other_version"), "was built for relax 0.0.1, plugin ABI 1"},
      {test_plugin("duplicate"), "pass `LegalizeOps` is already registered"},
      {test_plugin("throws"), "relax_register_passes threw: out of ideas"},
  };
  for (const auto& [path, message] : cases) {
    for (const char* command : {"opt", "build"}) {
      std::vector<std::string> argv = {kRelax, command, model, "--load-pass-plugin", path};
      if (std::string(command) == "opt") argv.insert(argv.end(), {"-p", "LegalizeOps"});
      auto r = run_command(argv);
      INFO(command << " " << path);
      INFO(r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.out.empty());
      CHECK(r.err.find(message) != std::string::npos);
    }
  }
  // A placement at a step the pipeline does not have is refused where the pipeline is made.
  auto misplaced =
      run_command({kRelax, "build", model, "--load-pass-plugin", test_plugin("misplaced")});
  CHECK(misplaced.exit_code == 2);
  CHECK(misplaced.err.find("the default pipeline has no step `NoSuchStep` to place a pass next to "
                           "(pass plugin " +
                           test_plugin("misplaced") + " places `Misplaced` there)") !=
        std::string::npos);
  // ... while `relax opt -p Misplaced` can still run it by name.
  auto by_name = run_command(
      {kRelax, "opt", model, "--load-pass-plugin", test_plugin("misplaced"), "-p", "Misplaced"});
  CHECK(by_name.exit_code == 0);
}

TEST_CASE("place_passes puts passes before and after the first step of a name, in order") {
  using namespace relax::compiler;
  auto step = [](const char* name) {
    Pass p;
    p.name = name;
    p.fn = [](relax::ir::Ref<relax::ir::IRModule> m, PassContext&) { return m; };
    return p;
  };
  Pass pipeline =
      sequential("P", {step("A"), sequential("Inner", {step("B"), step("C")}), step("B")});
  std::string missing;
  auto placed = place_passes(pipeline,
                             {{step("x1"), PassPosition::after("B")},
                              {step("x2"), PassPosition::after("B")},
                              {step("y"), PassPosition::before("A")},
                              {step("z"), PassPosition::after("Inner")}},
                             missing);
  REQUIRE(placed);
  std::vector<std::string> names;
  for (const Pass& p : placed->children) {
    names.push_back(p.name);
    for (const Pass& c : p.children) names.push_back("  " + c.name);
  }
  CHECK(names ==
        std::vector<std::string>{"y", "A", "Inner", "  B", "  x1", "  x2", "  C", "z", "B"});
  CHECK_FALSE(place_passes(pipeline, {{step("w"), PassPosition::before("D")}}, missing));
  CHECK(missing == "D");
}

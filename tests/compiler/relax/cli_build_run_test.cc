// `relax passes`, `relax build` and `relax run` end to end. The extern-function test compiles
// a small C library with the C compiler at test time and calls it through R.call_dps_packed.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/test_util.h"
#include "vm/io/npy.h"
#include "vm/io/safetensors.h"
#include "vm/tensor.h"

namespace fs = std::filesystem;
using relax::test::run_command;
using relax::test::TempDir;

namespace {

const std::string kRelax = RELAX_BINARY;

fs::path golden(const std::string& name) {
  return relax::test::tests_dir() / "compiler" / "relax" / "golden" / (name + ".relax");
}

const char* kNegateLib = R"C(
#include "vm/kernel_abi.h"
int32_t my_negate(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg* ret) {
  (void)ret;
  if (n != 2 || args[0].kind != kRelaxArgTensor || args[1].kind != kRelaxArgTensor) {
    ctx->set_error(ctx, "my_negate expects (x, out)");
    return 1;
  }
  const float* x = (const float*)args[0].value.tensor->data;
  float* out = (float*)args[1].value.tensor->data;
  for (int64_t i = 0; i < args[1].value.tensor->shape[0]; ++i) out[i] = -x[i];
  return 0;
}
int32_t my_add(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg* ret) {
  (void)ret;
  if (n != 3) {
    ctx->set_error(ctx, "my_add expects (a, b, out)");
    return 1;
  }
  const float* a = (const float*)args[0].value.tensor->data;
  const float* b = (const float*)args[1].value.tensor->data;
  float* out = (float*)args[2].value.tensor->data;
  for (int64_t i = 0; i < args[2].value.tensor->shape[0]; ++i) out[i] = a[i] + b[i];
  return 0;
}
)C";

fs::path build_negate_lib(const TempDir& dir) {
  fs::path c = dir / "negate.c", so = dir / "libnegate.so";
  relax::test::write_file(c, kNegateLib);
  auto cc = run_command({RELAX_C_COMPILER, "-shared", "-fPIC", "-O1", "-std=c99", "-Wall",
                         "-Werror", "-I", RELAX_SOURCE_DIR, "-o", so.string(), c.string()});
  INFO(cc.err);
  REQUIRE(cc.exit_code == 0);
  return so;
}

}  // namespace

TEST_CASE("relax passes lists the passes and the default pipeline") {
  auto r = run_command({kRelax, "passes"});
  CHECK(r.exit_code == 0);
  for (const char* name :
       {"ToNonDataflow", "CallTIRRewrite", "StaticPlanBlockMemory", "LowerAllocTensor",
        "KillAfterLastUse", "LowerRuntimeBuiltin", "DeadCodeElimination", "CanonicalizeBindings"}) {
    CHECK(r.out.find(name) != std::string::npos);
  }
  CHECK(r.out.find("Default pipeline") != std::string::npos);
}

TEST_CASE("relax build prints the IR after each pass and the bytecode") {
  // The IR between passes goes to stderr (as in relax opt and LLVM's tools), the bytecode to
  // stdout.
  auto r = run_command({kRelax, "build", golden("dynamic").string(), "--print-after=all",
                        "--emit=bytecode", "--time-passes", "--verify"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("# IR after CallTIRRewrite") != std::string::npos);
  CHECK(r.err.find("# IR after LowerRuntimeBuiltin") != std::string::npos);
  CHECK(r.out.find("# IR") == std::string::npos);
  CHECK(r.out.find("vm.builtin.match_shape") != std::string::npos);
  CHECK(r.err.find("KillAfterLastUse") != std::string::npos);
  TempDir dir;
  auto only = run_command({kRelax, "build", golden("dynamic").string(), "-o",
                           (dir / "dynamic.so").string(), "--print-before=LowerAllocTensor"});
  CHECK(only.exit_code == 0);
  CHECK(only.out.empty());
  CHECK(only.err.find("# IR before LowerAllocTensor") != std::string::npos);
  CHECK(only.err.find("# IR after") == std::string::npos);
  auto bad = run_command({kRelax, "build", golden("dynamic").string(), "--print-after=NoSuchPass"});
  CHECK(bad.exit_code == 2);
}

TEST_CASE("relax run compiles the prim_funcs with LLVM and runs them") {
  TempDir dir;
  fs::path x = dir / "x.npy", y = dir / "y.npy", out = dir / "d.npy";
  std::vector<float> xs{1, 2, 3, 4}, ys{10, 20, 30, 40};
  std::vector<int64_t> shape{4};
  REQUIRE(relax::vm::write_npy(x.string(),
                               *relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, xs.data()))
              .ok());
  REQUIRE(relax::vm::write_npy(y.string(),
                               *relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, ys.data()))
              .ok());
  // d = ((x + y) + (x + y) + x) + y = 3x + 3y
  auto r = run_command(
      {kRelax, "run", golden("chain").string(), x.string(), y.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto d = relax::vm::read_npy(out.string());
  REQUIRE(d.ok());
  const float* p = (*d)->data_as<float>();
  CHECK(std::vector<float>(p, p + 4) == std::vector<float>{33, 66, 99, 132});
  // --trace writes every call as a Chrome trace event.
  fs::path trace = dir / "trace.json";
  auto t = run_command(
      {kRelax, "run", golden("chain").string(), x.string(), y.string(), "--trace", trace.string()});
  INFO(t.err);
  REQUIRE(t.exit_code == 0);
  std::string events = relax::test::read_file(trace);
  CHECK(events.find("\"traceEvents\"") != std::string::npos);
  CHECK(events.find("\"name\": \"add\"") != std::string::npos);
  // Ahead of time: one shared library with the kernels and the executable, run by the VM.
  fs::path so = dir / "chain.so", out2 = dir / "d2.npy";
  auto b = run_command({kRelax, "build", golden("chain").string(), "-o", so.string()});
  INFO(b.err);
  REQUIRE(b.exit_code == 0);
  auto r2 = run_command({kRelax, "run", so.string(), x.string(), y.string(), "-o", out2.string()});
  INFO(r2.err);
  REQUIRE(r2.exit_code == 0);
  auto d2 = relax::vm::read_npy(out2.string());
  REQUIRE(d2.ok());
  const float* p2 = (*d2)->data_as<float>();
  CHECK(std::vector<float>(p2, p2 + 4) == std::vector<float>{33, 66, 99, 132});
  // A missing file is an I/O error: exit 2 for build and run alike.
  for (const char* cmd : {"build", "run"}) {
    auto missing = run_command({kRelax, cmd, (dir / "missing.relax").string()});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("cannot open") != std::string::npos);
  }
  // An op call LegalizeOps left (its shapes are not known) cannot run: E0780 names it.
  auto op = run_command({kRelax, "run", golden("unlegalized").string(), "--random"});
  CHECK(op.exit_code == 1);
  CHECK(op.err.find("E0780") != std::string::npos);
  CHECK(op.err.find("R.exp") != std::string::npos);
}

TEST_CASE("relax run calls an extern function from a library given with --load") {
  TempDir dir;
  fs::path so = build_negate_lib(dir);
  fs::path in = dir / "x.npy", out = dir / "y.npy";
  std::vector<float> x{1, -2, 3, -4, 5, -6, 7, -8};
  std::vector<int64_t> shape{8};
  REQUIRE(relax::vm::write_npy(in.string(),
                               *relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, x.data()))
              .ok());
  auto r = run_command({kRelax, "run", golden("extern").string(), "--load", so.string(),
                        in.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("shape (8,), dtype float32") != std::string::npos);
  auto y = relax::vm::read_npy(out.string());
  REQUIRE(y.ok());
  const float* p = (*y)->data_as<float>();
  CHECK(std::vector<float>(p, p + 8) == std::vector<float>{-1, 2, -3, 4, -5, 6, -7, 8});
  // By name, repeated, profiled.
  auto named = run_command({kRelax, "run", golden("extern").string(), "--load", so.string(),
                            "x=" + in.string(), "--repeat", "3", "--profile"});
  INFO(named.err);
  CHECK(named.exit_code == 0);
  CHECK(named.out.find("my_negate") != std::string::npos);
  CHECK(named.out.find("over 3 runs") != std::string::npos);
  // Without the library the extern function cannot be found.
  auto missing = run_command({kRelax, "run", golden("extern").string(), in.string()});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("my_negate") != std::string::npos);
}

TEST_CASE("relax run reports a wrong input shape with the argument and dimension") {
  TempDir dir;
  fs::path in = dir / "x.npy";
  std::vector<float> x{1, 2, 3};
  std::vector<int64_t> shape{3};
  REQUIRE(relax::vm::write_npy(in.string(),
                               *relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, x.data()))
              .ok());
  fs::path so = build_negate_lib(dir);
  auto r =
      run_command({kRelax, "run", golden("extern").string(), "--load", so.string(), in.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("argument `x` (parameter 0)") != std::string::npos);
  CHECK(r.err.find("dimension 0 is 3 but the function expects 8") != std::string::npos);
}

TEST_CASE("relax run binds weights from safetensors and writes each tuple field") {
  TempDir dir;
  fs::path so = build_negate_lib(dir);
  fs::path in = dir / "x.npy", weights = dir / "w.safetensors", out = dir / "out.npy";
  std::vector<float> x{1, 2, 3, 4}, w{10, 20, 30, 40};
  std::vector<int64_t> shape{4};
  using namespace relax::vm;
  REQUIRE(write_npy(in.string(), *tensor_from_bytes(shape, kFloat32, x.data())).ok());
  REQUIRE(write_safetensors(weights.string(), {{"w", tensor_from_bytes(shape, kFloat32, w.data())}})
              .ok());
  auto r = run_command({kRelax, "run", golden("extern_weights").string(), "--load", so.string(),
                        "--params", weights.string(), in.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("tuple of 2") != std::string::npos);
  auto s0 = read_npy((dir / "out_0.npy").string());
  auto s1 = read_npy((dir / "out_1.npy").string());
  REQUIRE(s0.ok());
  REQUIRE(s1.ok());
  CHECK(std::vector<float>((*s0)->data_as<float>(), (*s0)->data_as<float>() + 4) ==
        std::vector<float>{11, 22, 33, 44});
  CHECK(std::vector<float>((*s1)->data_as<float>(), (*s1)->data_as<float>() + 4) ==
        std::vector<float>{-11, -22, -33, -44});
  // --random fills what is neither given nor bound; a missing input without it is an error.
  auto rnd = run_command(
      {kRelax, "run", golden("extern_weights").string(), "--load", so.string(), "--random"});
  INFO(rnd.err);
  CHECK(rnd.exit_code == 0);
  auto missing = run_command(
      {kRelax, "run", golden("extern_weights").string(), "--load", so.string(), in.string()});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("w") != std::string::npos);
}

TEST_CASE("relax build --params binds weights as constants of the executable") {
  TempDir dir;
  fs::path weights = dir / "w.safetensors";
  std::vector<float> w{10, 20, 30, 40};
  std::vector<int64_t> shape{4};
  using namespace relax::vm;
  REQUIRE(write_safetensors(weights.string(), {{"w", tensor_from_bytes(shape, kFloat32, w.data())}})
              .ok());
  auto r = run_command({kRelax, "build", golden("extern_weights").string(), "--params",
                        weights.string(), "--emit=bytecode", "--print-after=LambdaLift"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("def main(x: R.Tensor((4,), dtype=\"float32\")) ->") != std::string::npos);
  CHECK(r.out.find("vm       main(x)") != std::string::npos);
  CHECK(r.out.find("tensor") != std::string::npos);
  std::vector<int32_t> ints{1, 2, 3, 4};
  REQUIRE(
      write_safetensors(weights.string(), {{"w", tensor_from_bytes(shape, kInt32, ints.data())}})
          .ok());
  auto bad = run_command(
      {kRelax, "build", golden("extern_weights").string(), "--params", weights.string()});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("E0773") != std::string::npos);
}

TEST_CASE("relax run with --random and --shape sizes symbolic dims of an extern call") {
  TempDir dir;
  fs::path so = build_negate_lib(dir);
  auto r = run_command({kRelax, "run", golden("extern_dynamic").string(), "--load", so.string(),
                        "--random", "--shape", "n=5"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("shape (5,), dtype float32") != std::string::npos);
  auto missing = run_command(
      {kRelax, "run", golden("extern_dynamic").string(), "--load", so.string(), "--random"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("--shape") != std::string::npos);
}

TEST_CASE("relax opt runs the named passes and prints the module") {
  auto file = (relax::test::source_dir() / "examples" / "simple_cnn.relax").string();
  auto r = run_command({kRelax, "opt", file, "-p", "LegalizeOps,AnnotateTIROpPattern"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("def conv2d(") != std::string::npos);
  CHECK(r.out.find("\"op_pattern\": 4") != std::string::npos);  // conv2d: OutEWiseFusable
  CHECK(r.out.find("R.call_tir(cls.conv2d") != std::string::npos);
  // The printed module parses again and can go on through the rest of the pipeline.
  TempDir dir;
  auto lowered = dir / "lowered.relax";
  auto w = run_command({kRelax, "opt", file, "--passes", "LegalizeOps", "-o", lowered.string()});
  REQUIRE(w.exit_code == 0);
  auto again = run_command({kRelax, "opt", lowered.string(), "-p", "default"});
  INFO(again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("R.vm.alloc_storage") != std::string::npos);
  auto after = run_command({kRelax, "opt", file, "-p", "LegalizeOps", "--print-after=all"});
  CHECK(after.err.find("# IR after LegalizeOps") != std::string::npos);
  auto bad = run_command({kRelax, "opt", file, "-p", "NoSuchPass"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("unknown pass `NoSuchPass`") != std::string::npos);
  auto missing = run_command({kRelax, "opt", (dir / "none.relax").string(), "-p", "LegalizeOps"});
  CHECK(missing.exit_code == 2);
}

TEST_CASE("relax run --params binds the SimpleCNN weights as the inputs would") {
  // The same weights given as .npy inputs and bound from a .safetensors file (then folded and
  // compiled as constants) give the same logits.
  TempDir dir;
  using namespace relax::vm;
  auto file = (relax::test::source_dir() / "examples" / "simple_cnn.relax").string();
  auto make = [](std::vector<int64_t> shape, float scale) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      v[static_cast<size_t>(i)] = scale * static_cast<float>((i * 37) % 19 - 9);
    return tensor_from_bytes(shape, kFloat32, v.data());
  };
  auto x = make({1, 3, 32, 32}, 0.1f), w = make({16, 3, 3, 3}, 0.05f), b = make({16}, 0.02f),
       fw = make({10, 16}, 0.03f), fb = make({10}, 0.01f);
  std::vector<std::pair<std::string, Tensor>> named{
      {"conv_weight", w}, {"conv_bias", b}, {"fc_weight", fw}, {"fc_bias", fb}};
  std::vector<NamedTensor> weights;
  std::vector<std::string> as_inputs{kRelax, "run", file};
  REQUIRE(write_npy((dir / "x.npy").string(), *x).ok());
  as_inputs.push_back("x=" + (dir / "x.npy").string());
  for (const auto& [name, t] : named) {
    weights.push_back({name, t});
    auto p = dir / (name + ".npy");
    REQUIRE(write_npy(p.string(), *t).ok());
    as_inputs.push_back(name + "=" + p.string());
  }
  REQUIRE(write_safetensors((dir / "w.safetensors").string(), weights).ok());
  as_inputs.insert(as_inputs.end(), {"-o", (dir / "a.npy").string()});
  auto a = run_command(as_inputs);
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  auto bound = run_command({kRelax, "run", file, "--params", (dir / "w.safetensors").string(),
                            (dir / "x.npy").string(), "-o", (dir / "b.npy").string()});
  INFO(bound.err);
  REQUIRE(bound.exit_code == 0);
  auto ra = read_npy((dir / "a.npy").string());
  auto rb = read_npy((dir / "b.npy").string());
  REQUIRE(ra.ok());
  REQUIRE(rb.ok());
  REQUIRE((*ra)->numel() == 10);
  REQUIRE((*rb)->numel() == 10);
  for (int i = 0; i < 10; ++i) {
    float va = (*ra)->data_as<float>()[i], vb = (*rb)->data_as<float>()[i];
    CHECK(std::abs(va - vb) <= 1e-5f * std::abs(va) + 1e-6f);
  }
}

TEST_CASE("relax run: topk, sort and unique run as VM builtins between TIR ops") {
  TempDir dir;
  fs::path in = dir / "x.npy", out = dir / "out.npy";
  std::vector<float> x{3, 1, 3, 0, 2, -1, 5, 5, -1, 4};
  std::vector<int64_t> shape{2, 5};
  using namespace relax::vm;
  REQUIRE(write_npy(in.string(), *tensor_from_bytes(shape, kFloat32, x.data())).ok());
  auto r =
      run_command({kRelax, "run", golden("runtime_ops").string(), in.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("tuple of 3") != std::string::npos);
  auto t = read_npy((dir / "out_0.npy").string());
  auto s = read_npy((dir / "out_1.npy").string());
  auto u = read_npy((dir / "out_2.npy").string());
  REQUIRE(t.ok());
  REQUIRE(s.ok());
  REQUIRE(u.ok());
  // topk of 2 * x along axis 1: the indices of the two largest, ties in input order.
  CHECK(std::vector<int64_t>((*t)->data_as<int64_t>(), (*t)->data_as<int64_t>() + 4) ==
        std::vector<int64_t>{0, 2, 1, 2});
  CHECK(std::vector<float>((*s)->data_as<float>(), (*s)->data_as<float>() + 10) ==
        std::vector<float>{0, 2, 4, 6, 6, -2, -2, 8, 10, 10});
  CHECK(std::vector<float>((*u)->data_as<float>(), (*u)->data_as<float>() + (*u)->numel()) ==
        std::vector<float>{-2, 0, 2, 4, 6, 8, 10});
  // --random works too (the shapes of unique's result come from the data).
  auto rnd = run_command({kRelax, "run", golden("runtime_ops").string(), "--random"});
  INFO(rnd.err);
  CHECK(rnd.exit_code == 0);
}

TEST_CASE("relax run matches parameters whose dims use variables a later parameter defines") {
  TempDir dir;
  auto file = dir / "late.relax";
  relax::test::write_file(file, R"(@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor((2, "M", "N - 2"), "float32"), B: R.Tensor((3, "N", "M + 2"), "float32")) -> R.Tensor((2, "M", "N - 2"), "float32"):
        return A
)");
  auto r =
      run_command({kRelax, "run", file.string(), "--random", "--shape", "M=3", "--shape", "N=5"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("shape (2, 3, 3)") != std::string::npos);
  // N = 6 from B: A's last dim must then be 4.
  using namespace relax::vm;
  std::vector<float> a(18, 1.0f), b(90, 2.0f);
  std::vector<int64_t> as{2, 3, 3}, bs{3, 6, 5};
  REQUIRE(write_npy((dir / "a.npy").string(), *tensor_from_bytes(as, kFloat32, a.data())).ok());
  REQUIRE(write_npy((dir / "b.npy").string(), *tensor_from_bytes(bs, kFloat32, b.data())).ok());
  auto bad = run_command(
      {kRelax, "run", file.string(), (dir / "a.npy").string(), (dir / "b.npy").string()});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("argument `A`") != std::string::npos);
}

TEST_CASE("relax build on the 20k-line conformance module reports what it cannot compile") {
  auto shared = relax::test::shared_dir();
  if (!shared) {
    WARN("../shared not found: the large module is not built");
    return;
  }
  auto source = *shared / "conformance" / "large_module_20k.relax";
  TempDir dir;
  auto r = run_command({kRelax, "build", source.string(), "-o", (dir / "whole.so").string()});
  // Two of its prim_funcs (TVM printer tests) access or bind out of bounds: rejected before the
  // build (E0423, E0424).
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("large_module_20k.relax:1029:42: error[E0424]: prim_func "
                   "`m0251_block_with_remap_explicitly`") != std::string::npos);
  CHECK(r.err.find("large_module_20k.relax:1643:50: error[E0423]: prim_func `m0372_func`") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "whole.so"));
  // Without them, the rest goes through the pipeline.
  std::string text = relax::test::read_file(source);
  for (const std::string name : {"m0251_block_with_remap_explicitly", "m0372_func"}) {
    size_t def = text.find("    def " + name + "(");
    REQUIRE(def != std::string::npos);
    size_t begin = text.rfind("    @T.prim_func", def);
    size_t end = text.find("\n    @", def);
    REQUIRE(end != std::string::npos);
    text.erase(begin, end + 1 - begin);
  }
  relax::test::write_file(dir / "large.relax", text);
  r = run_command(
      {kRelax, "build", (dir / "large.relax").string(), "-o", (dir / "large.so").string()});
  // What cannot be compiled (NCHW16c layouts) is a diagnostic, never a crash.
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("E0423") == std::string::npos);
  CHECK(r.err.find("E0424") == std::string::npos);
  CHECK(r.err.find("E0791") != std::string::npos);
  CHECK(r.err.find("E0742") != std::string::npos);
  // What it used to stop on compiles now: symbolic T.if_then_else dims (E0783), compound dims of a
  // parameter using a later parameter's variable (E0784), recursive local functions (E0774),
  // symbolic strided_slice bounds and NHWC layouts (E0742 for those, counted by the lines).
  CHECK(r.err.find("E0783") == std::string::npos);
  CHECK(r.err.find("E0784") == std::string::npos);
  CHECK(r.err.find("E0774") == std::string::npos);
  CHECK(r.err.find("strided_slice") == std::string::npos);
  CHECK(r.err.find("NCHW16c") != std::string::npos);
}

TEST_CASE("relax run --random fills int8, bool and float16 inputs") {
  TempDir dir;
  auto file = dir / "dtypes.relax";
  relax::test::write_file(file, R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "int8"), y: R.Tensor((2, 3), "bool"), h: R.Tensor((2, 3), "float16")) -> R.Tensor((2, 3), "int32"):
        with R.dataflow():
            a = R.astype(x, "int32")
            b = R.where(y, a, R.astype(h, "int32"))
            c = R.cumsum(b, axis=1)
            R.output(c)
        return c
)");
  auto r = run_command({kRelax, "run", file.string(), "--random"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("dtype int32") != std::string::npos);
}

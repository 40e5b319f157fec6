// `--params` end to end through the `relax` binary: weights bound by `relax opt`, printed with
// TVM's metadata section, read back, built and run give exactly the outputs of binding the same
// file at run time; `check` and `build` agree on a file whose constants have no values; and
// PyTorch-style names (`fc.weight`) find their parameters, with warnings and errors by code.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>

#include "tests/support/test_util.h"
#include "vm/io/npy.h"
#include "vm/io/safetensors.h"
#include "vm/tensor.h"

namespace fs = std::filesystem;
using relax::test::run_command;
using namespace relax::vm;

namespace {

const std::string kRelax = RELAX_BINARY;

class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() / ("relax_cli_params_test_" + std::to_string(getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// Weights of eight dtypes, a 0-d uint8 (printed as metadata) and a 0-d float32 (printed inline
// as R.const). Each weight meets the input in an op (so nothing but exact dtype conversions is
// folded) or is returned as it is. (bfloat16 round-trips in tests/syntax/metadata_test.cc: .npy
// has no bfloat16 to compare outputs with.)
const char* kModel = R"(@I.ir_module
class Model:
    @R.function
    def main(
        x: R.Tensor((2, 3), "float32"),
        fc_weight: R.Tensor((3, 4), "float32"),
        fc_bias: R.Tensor((4,), "float32"),
        scale: R.Tensor((4,), "float16"),
        shift: R.Tensor((4,), "int16"),
        mask: R.Tensor((2, 4), "bool"),
        index: R.Tensor((3,), "int64"),
        offset: R.Tensor((4,), "int8"),
        gain: R.Tensor((), "uint8"),
        temperature: R.Tensor((), "float32"),
    ):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            y = R.add(R.matmul(x, fc_weight), fc_bias)
            y1 = R.multiply(y, R.astype(scale, "float32"))
            y3 = R.where(mask, y1, R.astype(offset, "float32"))
            y4 = R.multiply(y3, temperature)
            picked = R.take(y4, index, axis=1)
            R.output(y4, picked)
        return (y4, picked, shift, gain)
)";

template <typename T>
Tensor tensor(std::vector<int64_t> shape, DLDataType dtype, std::vector<T> values) {
  return tensor_from_bytes(shape, dtype, values.data());
}

std::vector<NamedTensor> model_weights(bool torch_names) {
  auto name = [&](const std::string& n) {
    if (!torch_names) return n;
    std::string t = n;
    if (auto u = t.find('_'); u != std::string::npos) t[u] = '.';
    return t;
  };
  // float16 bit patterns: 0.5, 2, -1, 1.25.
  return {
      {name("fc_weight"),
       tensor<float>({3, 4}, kFloat32,
                     {0.5f, -1.25f, 2, 0.1f, 3, 0.7f, -0.3f, 1, -2, 0.25f, 4, 9})},
      {name("fc_bias"), tensor<float>({4}, kFloat32, {0.01f, -0.02f, 0.3f, 1e-3f})},
      {"scale", tensor<uint16_t>({4}, kFloat16, {0x3800, 0x4000, 0xBC00, 0x3D00})},
      {"shift", tensor<int16_t>({4}, kInt16, {-300, 7, 32767, -32768})},
      {"mask", tensor<uint8_t>({2, 4}, kBool, {1, 0, 1, 1, 0, 1, 1, 0})},
      {"index", tensor<int64_t>({3}, kInt64, {3, 0, 2})},
      {"offset", tensor<int8_t>({4}, kInt8, {-7, 12, 127, -128})},
      {"gain", tensor<uint8_t>({}, kUInt8, {250})},
      {"temperature", tensor<float>({}, kFloat32, {0.75f})},
  };
}

std::vector<uint8_t> bytes_of(const std::string& npy) {
  auto t = read_npy(npy);
  REQUIRE(t.ok());
  const auto* p = static_cast<const uint8_t*>((*t)->data());
  return {p, p + (*t)->nbytes()};
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("relax opt --params prints the weights so that the text builds and runs the same") {
  TempDir dir;
  relax::test::write_file(dir / "m.relax", kModel);
  REQUIRE(write_safetensors(dir / "w.safetensors", model_weights(false)).ok());
  std::vector<float> x{1, -2, 0.5f, 3, 0.25f, -1};
  REQUIRE(write_npy(dir / "x.npy", *tensor<float>({2, 3}, kFloat32, x)).ok());

  auto direct = run_command({kRelax, "run", dir / "m.relax", "--params", dir / "w.safetensors",
                             dir / "x.npy", "-o", dir / "a.npy"});
  INFO(direct.err);
  REQUIRE(direct.exit_code == 0);

  auto opt = run_command({kRelax, "opt", dir / "m.relax", "--params", dir / "w.safetensors", "-p",
                          "CanonicalizeBindings", "-o", dir / "b.relax"});
  INFO(opt.err);
  REQUIRE(opt.exit_code == 0);
  CHECK(opt.err.empty());
  std::string text = relax::test::read_file(dir / "b.relax");
  CHECK(text.starts_with("metadata = tvm.ir.load_json(\"\"\"{\n"));
  CHECK(text.find("Metadata omitted") == std::string::npos);
  CHECK(text.find("def main(x: R.Tensor((2, 3), dtype=\"float32\"))") != std::string::npos);
  CHECK(text.find("R.const(0.75, \"float32\")") != std::string::npos);  // inline, as TVM does
  CHECK(count(text, "\\\"type_key\\\": \\\"relax.expr.Constant\\\"") == 8);

  // check and build accept the text; printing it again gives it back.
  auto check = run_command({kRelax, "check", dir / "b.relax"});
  INFO(check.err);
  CHECK(check.exit_code == 0);
  CHECK(check.err == "All checks passed!\n");
  auto build = run_command({kRelax, "build", dir / "b.relax", "-o", dir / "b.so"});
  INFO(build.err);
  CHECK(build.exit_code == 0);
  auto print = run_command({kRelax, "print", dir / "b.relax"});
  CHECK(print.exit_code == 0);
  CHECK(print.out == text);

  auto reread = run_command({kRelax, "run", dir / "b.relax", dir / "x.npy", "-o", dir / "b.npy"});
  INFO(reread.err);
  REQUIRE(reread.exit_code == 0);
  for (const char* field : {"_0.npy", "_1.npy", "_2.npy", "_3.npy"})
    CHECK(bytes_of(dir / (std::string("a") + field)) == bytes_of(dir / (std::string("b") + field)));

  // build --params compiles the same constants.
  auto built = run_command(
      {kRelax, "build", dir / "m.relax", "--params", dir / "w.safetensors", "-o", dir / "m.so"});
  INFO(built.err);
  CHECK(built.exit_code == 0);

  // To standard output the section comes too; --no-show-meta gives TVM's default text, which
  // check and build reject alike, with one error.
  auto out = run_command({kRelax, "opt", dir / "m.relax", "--params", dir / "w.safetensors", "-p",
                          "CanonicalizeBindings"});
  CHECK(out.out == text);
  auto omitted =
      run_command({kRelax, "opt", dir / "m.relax", "--params", dir / "w.safetensors", "-p",
                   "CanonicalizeBindings", "--no-show-meta", "-o", dir / "c.relax"});
  REQUIRE(omitted.exit_code == 0);
  CHECK(
      relax::test::read_file(dir / "c.relax")
          .ends_with("\n\n# Metadata omitted. Use show_meta=True in script() method to show it."));
}

TEST_CASE("relax check and relax build agree on constants without values, one error each") {
  TempDir dir;
  relax::test::write_file(dir / "m.relax", kModel);
  REQUIRE(write_safetensors(dir / "w.safetensors", model_weights(false)).ok());
  auto opt = run_command({kRelax, "opt", dir / "m.relax", "--params", dir / "w.safetensors", "-p",
                          "LegalizeOps", "--no-show-meta", "-o", dir / "c.relax"});
  REQUIRE(opt.exit_code == 0);
  auto check = run_command({kRelax, "check", dir / "c.relax"});
  auto build = run_command({kRelax, "build", dir / "c.relax", "-o", dir / "c.so"});
  INFO(check.err);
  INFO(build.err);
  CHECK(check.exit_code == 1);
  CHECK(build.exit_code == 1);
  for (const auto* r : {&check, &build}) {
    CHECK(count(r->err, "error[") == 1);
    CHECK(count(r->err,
                "error[E0248]: this constant has no value: the file has no metadata "
                "section that relax reads") == 1);
    CHECK(count(r->err, "8 references to the metadata section in all") == 1);
  }
  // The same error at the same place.
  auto first_line = [](const std::string& s) { return s.substr(0, s.find('\n')); };
  CHECK(first_line(check.err) == first_line(build.err));
}

TEST_CASE("relax --params: binds PyTorch names with dots to parameters with underscores") {
  TempDir dir;
  relax::test::write_file(dir / "m.relax", kModel);
  REQUIRE(write_safetensors(dir / "w.safetensors", model_weights(false)).ok());
  REQUIRE(write_safetensors(dir / "torch.safetensors", model_weights(true)).ok());
  std::vector<float> x{1, -2, 0.5f, 3, 0.25f, -1};
  REQUIRE(write_npy(dir / "x.npy", *tensor<float>({2, 3}, kFloat32, x)).ok());
  for (const char* weights : {"w.safetensors", "torch.safetensors"}) {
    auto r = run_command({kRelax, "run", dir / "m.relax", "--params", dir / weights, dir / "x.npy",
                          "-o", dir / (std::string(weights) + ".npy")});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
  }
  CHECK(bytes_of(dir / "w.safetensors_0.npy") == bytes_of(dir / "torch.safetensors_0.npy"));
  // build and opt bind them as constants: `main` takes x alone.
  auto build = run_command(
      {kRelax, "build", dir / "m.relax", "--params", dir / "torch.safetensors", "--emit=bytecode"});
  INFO(build.err);
  CHECK(build.exit_code == 0);
  CHECK(build.err.empty());
  CHECK(build.out.find("vm       main(x)") != std::string::npos);
  auto opt = run_command({kRelax, "opt", dir / "m.relax", "--params", dir / "torch.safetensors",
                          "-p", "CanonicalizeBindings"});
  CHECK(opt.exit_code == 0);
  CHECK(opt.out.find("def main(x: R.Tensor((2, 3), dtype=\"float32\"))") != std::string::npos);
}

TEST_CASE("relax --params: warns about each tensor that binds nothing, with a did-you-mean") {
  TempDir dir;
  relax::test::write_file(dir / "m.relax", kModel);
  auto weights = model_weights(false);
  weights[0].name = "fc.wieght";  // a typo: binds nothing, fc_weight stays a parameter
  weights.push_back({"unrelated_buffer", tensor<float>({1}, kFloat32, {1})});
  REQUIRE(write_safetensors(dir / "w.safetensors", weights).ok());
  const std::string file = dir / "w.safetensors";
  auto typo = "warning[W0778]: tensor `fc.wieght` of " + file + " binds no parameter of `main`";
  for (const char* cmd : {"build", "opt"}) {
    std::vector<std::string> argv{kRelax, cmd, dir / "m.relax", "--params", file};
    if (std::string(cmd) == "opt") argv.insert(argv.end(), {"-p", "CanonicalizeBindings"});
    if (std::string(cmd) == "build") argv.insert(argv.end(), {"-o", dir / "m.so"});
    auto r = run_command(argv);
    INFO(cmd << ": " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(count(r.err, typo) == 1);
    CHECK(count(r.err, "did you mean `fc_weight`?") == 1);
    CHECK(count(r.err, "tensor `unrelated_buffer` of " + file + " binds no parameter") == 1);
    CHECK(count(r.err, "warning[W0778]") == 2);
    if (std::string(cmd) == "opt") {
      CHECK(r.out.find("def main(x: R.Tensor((2, 3), dtype=\"float32\"), fc_weight: R.Tensor((3, "
                       "4), dtype=\"float32\"))") != std::string::npos);
    }
  }
  auto run = run_command({kRelax, "run", dir / "m.relax", "--params", file, "--random"});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(count(run.err, typo) == 1);
  CHECK(count(run.err, "did you mean `fc_weight`?") == 1);
}

TEST_CASE("relax --params: reports a name two tensors give, and binds nothing then") {
  TempDir dir;
  relax::test::write_file(dir / "m.relax", kModel);
  auto weights = model_weights(true);  // fc.bias ...
  weights.push_back({"fc_bias", tensor<float>({4}, kFloat32, {1, 2, 3, 4})});
  REQUIRE(write_safetensors(dir / "w.safetensors", weights).ok());
  const std::string file = dir / "w.safetensors";
  auto message = "error[E0779]: tensors `fc.bias` and `fc_bias` of " + file +
                 " all name parameter `fc_bias` of `main`";
  std::vector<std::vector<std::string>> commands{
      {kRelax, "build", dir / "m.relax", "--params", file, "-o", dir / "m.so"},
      {kRelax, "opt", dir / "m.relax", "--params", file, "-p", "CanonicalizeBindings"},
      {kRelax, "run", dir / "m.relax", "--params", file, "--random"}};
  for (const auto& argv : commands) {
    auto r = run_command(argv);
    INFO(argv[1] << ": " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(count(r.err, message) == 1);
    CHECK(count(r.err, "error[") == 1);
  }
  // A module without --func is an error, not a silent no-op.
  auto missing = run_command(
      {kRelax, "build", dir / "m.relax", "--params", file, "--func", "nope", "-o", dir / "m.so"});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("the module has no Relax function `nope` (its Relax functions: main)") !=
        std::string::npos);
}

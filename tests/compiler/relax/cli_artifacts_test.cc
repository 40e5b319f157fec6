// `relax build` outputs and `relax run` on them, through the real binary: the default model
// library and the `Built ...` line, --emit=llvm|asm|tir|bytecode and where each goes, files told
// apart by their contents, --time-passes over code generation, and `relax run` of a model
// library alone (--random and --shape from the parameter struct info it carries, its errors),
// --repeat statistics and --json.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/test_util.h"
#include "vm/io/npy.h"
#include "vm/io/safetensors.h"
#include "vm/tensor.h"

namespace fs = std::filesystem;
using relax::test::run_command;
using relax::test::TempDir;

namespace {

const std::string kRelax = RELAX_BINARY;

std::string golden(const std::string& name) {
  return (relax::test::tests_dir() / "compiler" / "relax" / "golden" / (name + ".relax")).string();
}

// Writes a float32 .npy file.
std::string npy(const TempDir& dir, const std::string& name, std::vector<int64_t> shape,
                std::vector<float> values) {
  auto path = (dir / name).string();
  REQUIRE(relax::vm::write_npy(
              path, *relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, values.data()))
              .ok());
  return path;
}

std::vector<float> floats(const std::string& path) {
  auto t = relax::vm::read_npy(path);
  REQUIRE(t.ok());
  const float* p = (*t)->data_as<float>();
  return std::vector<float>(p, p + (*t)->numel());
}

std::string head(const fs::path& path, size_t n) {
  return relax::test::read_file(path).substr(0, n);
}

// The one `Built ...` line `relax build` prints for what it wrote.
bool built_line(const std::string& err, const std::string& path, const std::string& what) {
  std::regex line("Built " + std::regex_replace(path, std::regex(R"([.()\\])"), R"(\$&)") + " \\(" +
                  std::regex_replace(what, std::regex(R"([.()])"), R"(\$&)") +
                  "\\) in [0-9]+\\.[0-9]{2}s\n");
  return std::regex_search(err, line);
}

const char* kLate = R"(@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor((2, "M", "N - 2"), "float32"), B: R.Tensor((3, "N", "M + 2"), "float32")) -> R.Tensor((2, "M", "N - 2"), "float32"):
        return A
)";

}  // namespace

TEST_CASE("relax build without -o writes FILE's stem .so here and says what it built") {
  TempDir dir;
  auto b = run_command({kRelax, "build", golden("chain")}, "", dir.path());
  INFO(b.err);
  REQUIRE(b.exit_code == 0);
  CHECK(b.out.empty());
  CHECK(built_line(b.err, "chain.so", "1 function, 1 kernel"));
  REQUIRE(fs::exists(dir / "chain.so"));
  CHECK(head(dir / "chain.so", 4) ==
        "\x7f"
        "ELF");
  auto x = npy(dir, "x.npy", {4}, {1, 2, 3, 4}), y = npy(dir, "y.npy", {4}, {10, 20, 30, 40});
  auto r = run_command({kRelax, "run", "chain.so", x, y, "-o", "d.npy"}, "", dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(floats((dir / "d.npy").string()) == std::vector<float>{33, 66, 99, 132});
  // A model library is a model library whatever its name: told apart by its contents.
  auto named = run_command({kRelax, "build", golden("calls"), "-o", (dir / "model").string()});
  INFO(named.err);
  REQUIRE(named.exit_code == 0);
  CHECK(built_line(named.err, (dir / "model").string(), "2 functions, 1 kernel"));
  auto run = run_command({kRelax, "run", (dir / "model").string(), x});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("tuple of 2") != std::string::npos);
  // A library cannot go to stdout.
  auto dash = run_command({kRelax, "build", golden("chain"), "-o", "-"});
  CHECK(dash.exit_code == 2);
  CHECK(dash.err ==
        "relax: error: cannot write a model library to standard output (give -o FILE, or "
        "--emit)\n");
}

TEST_CASE("relax build --emit writes LLVM IR, assembly, the lowered TIR or the bytecode") {
  TempDir dir;
  for (auto [emit, file, what] : {std::tuple{"llvm", "chain.ll", "LLVM IR, 1 kernel"},
                                  {"asm", "chain.s", "assembly, 1 kernel"},
                                  {"tir", "chain.tir.relax", "TIR, 1 kernel"}}) {
    auto r = run_command({kRelax, "build", golden("chain"), std::string("--emit=") + emit}, "",
                         dir.path());
    INFO(emit << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(built_line(r.err, file, what));
    CHECK(fs::exists(dir / file));
  }
  CHECK_FALSE(fs::exists(dir / "chain.so"));
  std::string ll = relax::test::read_file(dir / "chain.ll");
  CHECK(ll.starts_with("; ModuleID = 'relax_kernels'"));
  CHECK(ll.find("define") != std::string::npos);
  CHECK(ll.find("@add(ptr") != std::string::npos);
  std::string s = relax::test::read_file(dir / "chain.s");
  CHECK(s.find(".globl\tadd") != std::string::npos);
  CHECK(s.find("\nadd:") != std::string::npos);
  // The prim_funcs after TIR lowering, as TVMScript that parses and checks again.
  CHECK(relax::test::read_file(dir / "chain.tir.relax") ==
        "# from tvm.script import ir as I\n"
        "# from tvm.script import tir as T\n"
        "\n"
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func(private=True)\n"
        "    def add(A: T.Buffer((T.int64(4),), \"float32\"), B: T.Buffer((T.int64(4),), "
        "\"float32\"), C: T.Buffer((T.int64(4),), \"float32\")):\n"
        "        for i in range(T.int64(4)):\n"
        "            C[i] = A[i] + B[i]\n");
  auto cnn = (relax::test::source_dir() / "examples" / "simple_cnn.relax").string();
  auto tir = run_command({kRelax, "build", cnn, "--emit=tir", "-o", (dir / "cnn.tir").string()});
  REQUIRE(tir.exit_code == 0);
  std::string cnn_tir = relax::test::read_file(dir / "cnn.tir");
  CHECK(cnn_tir.find("T.parallel(") != std::string::npos);  // lowered: loops, no blocks
  CHECK(cnn_tir.find("T.block") == std::string::npos);
  auto check = run_command({kRelax, "check", (dir / "cnn.tir").string()});
  INFO(check.err);
  CHECK(check.exit_code == 0);
  CHECK(check.err.find("error") == std::string::npos);
  // -o - is standard output (and nothing is built).
  auto out = run_command({kRelax, "build", golden("chain"), "--emit=llvm", "-o", "-"});
  REQUIRE(out.exit_code == 0);
  CHECK(out.out == ll);
  CHECK(out.err.find("Built") == std::string::npos);
  // --emit=bytecode: the disassembly on stdout; with -o also the serialized executable.
  auto bc = run_command({kRelax, "build", golden("chain"), "--emit=bytecode"}, "", dir.path());
  REQUIRE(bc.exit_code == 0);
  CHECK(bc.out.starts_with("; relax executable (format 2): "));
  CHECK(bc.err.empty());
  auto exe = (dir / "chain.rvx").string();
  auto bco = run_command({kRelax, "build", golden("chain"), "--emit=bytecode", "-o", exe});
  REQUIRE(bco.exit_code == 0);
  CHECK(bco.out == bc.out);
  CHECK(built_line(bco.err, exe, "executable, 1 function"));
  CHECK(head(exe, 8) == "RLXVMEX\x01");
}

TEST_CASE("relax run tells a serialized executable from a library and a .relax file") {
  TempDir dir;
  auto exe = (dir / "chain.rvx").string(), so = (dir / "chain.so").string();
  REQUIRE(run_command({kRelax, "build", golden("chain"), "--emit=bytecode", "-o", exe}).exit_code ==
          0);
  REQUIRE(run_command({kRelax, "build", golden("chain"), "-o", so}).exit_code == 0);
  auto x = npy(dir, "x.npy", {4}, {1, 2, 3, 4});
  // An executable holds no kernels: they must come from a library.
  auto alone = run_command({kRelax, "run", exe, x, x});
  CHECK(alone.exit_code == 1);
  CHECK(alone.err.find("cannot find kernel `add`") != std::string::npos);
  CHECK(alone.err.find(exe + " is a serialized executable, which holds no kernels") !=
        std::string::npos);
  auto with = run_command({kRelax, "run", exe, x, x, "--load", so, "-o", (dir / "d.npy").string()});
  INFO(with.err);
  REQUIRE(with.exit_code == 0);
  CHECK(floats((dir / "d.npy").string()) == std::vector<float>{6, 12, 18, 24});
  // Version 1 files (before parameter struct info) are refused with what to do.
  std::string bytes = relax::test::read_file(exe);
  bytes[8] = 1;
  relax::test::write_file(dir / "old.rvx", bytes);
  auto old = run_command({kRelax, "run", (dir / "old.rvx").string()});
  CHECK(old.exit_code == 1);
  CHECK(old.err.find("executable format version 1 is not supported (this runtime reads version "
                     "2); rebuild it with this relax") != std::string::npos);
  // Files of the wrong kind say what they are.
  auto build_so = run_command({kRelax, "build", so});
  CHECK(build_so.exit_code == 2);
  CHECK(build_so.err ==
        "relax: error: " + so +
            " is a shared library (ELF), not a .relax file (`relax run` runs it)\n");
  auto run_npy = run_command({kRelax, "run", x});
  CHECK(run_npy.exit_code == 2);
  CHECK(run_npy.err == "relax: error: " + x +
                           " is a .npy array, not a .relax file, a model library or a serialized "
                           "executable\n");
  auto w = (dir / "w.safetensors").string();
  std::vector<float> wv{10, 20, 30, 40};
  std::vector<int64_t> shape{4};
  REQUIRE(relax::vm::write_safetensors(
              w, {{"w", relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, wv.data())}})
              .ok());
  auto input_st = run_command({kRelax, "run", so, w, x});
  CHECK(input_st.exit_code == 2);
  CHECK(input_st.err == "relax: error: input `x`: " + w +
                            " is a .safetensors file, not a .npy array (weights in a .safetensors "
                            "file are bound with --params)\n");
  for (const char* cmd : {"run", "build"}) {
    auto params_npy = run_command({kRelax, cmd, golden("weights"), "--params", x});
    CHECK(params_npy.exit_code == 2);
    CHECK(params_npy.err ==
          "relax: error: --params: " + x + " is a .npy array, not a .safetensors file\n");
  }
}

TEST_CASE("relax build --time-passes times code generation, and failures leave the output alone") {
  TempDir dir;
  auto so = (dir / "chain.so").string();
  auto r = run_command({kRelax, "build", golden("chain"), "-o", so, "--time-passes"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* step : {"LegalizeOps ", "VMShapeLower ", "TIR lowering ", "LLVM IR generation ",
                           "LLVM optimization ", "object emission ", "linking "}) {
    CHECK(std::regex_search(r.err, std::regex(std::string("(^|\n)") + step + " *[0-9.]+ ms\n")));
  }
  auto s = run_command({kRelax, "build", golden("chain"), "--emit=asm", "-o",
                        (dir / "chain.s").string(), "--time-passes"});
  CHECK(s.err.find("assembly emission ") != std::string::npos);
  CHECK(s.err.find("linking ") == std::string::npos);
  // A build that fails does not touch what is there, and no temporary file is left.
  relax::test::write_file(dir / "keep.so", "previous");
  auto bad =
      run_command({kRelax, "build", golden("unlegalized"), "-o", (dir / "keep.so").string()});
  CHECK(bad.exit_code == 1);
  CHECK(relax::test::read_file(dir / "keep.so") == "previous");
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) files += e.is_regular_file();
  CHECK(files == 3);  // chain.so, chain.s, keep.so
}

TEST_CASE("relax run of a model library alone: --random, --shape and its errors") {
  TempDir dir;
  auto so = (dir / "dynamic.so").string();
  REQUIRE(run_command({kRelax, "build", golden("dynamic"), "-o", so}).exit_code == 0);
  auto r = run_command({kRelax, "run", so, "--random", "--shape", "n=5"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("shape (5,), dtype float32") != std::string::npos);
  auto missing = run_command({kRelax, "run", so, "--random"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err ==
        "relax: error: --random: give the size of `n` for parameter `x` with --shape NAME=N\n");
  auto unknown = run_command({kRelax, "run", so, "--random", "--shape", "m=5"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err ==
        "relax: error: --shape m=5: the parameters of `main` have no symbolic "
        "dimension `m` (they use n)\n");
  auto bad = run_command({kRelax, "run", so, "--random", "--shape", "n=five"});
  CHECK(bad.exit_code == 2);
  CHECK(
      bad.err ==
      "relax: error: --shape expects NAME=N with N a non-negative decimal integer, not `n=five`\n");
  // The same checks on the .relax file; and on a function without symbolic dims.
  auto relax_file = run_command({kRelax, "run", golden("dynamic"), "--random", "--shape", "m=5"});
  CHECK(relax_file.err == unknown.err);
  auto none = run_command({kRelax, "run", golden("chain"), "--random", "--shape", "n=5"});
  CHECK(none.exit_code == 2);
  CHECK(none.err ==
        "relax: error: --shape n=5: the parameters of `main` have no symbolic "
        "dimension `n` (they have none)\n");
  // A given input sizes the variables of its dims: y's n comes from x.
  auto x = npy(dir, "x.npy", {3}, {1, 2, 3});
  auto from_x = run_command({kRelax, "run", so, x, "--random"});
  INFO(from_x.err);
  CHECK(from_x.exit_code == 0);
  CHECK(from_x.out.find("shape (3,), dtype float32") != std::string::npos);
  // Compound dims, and a variable that a later parameter defines.
  relax::test::write_file(dir / "late.relax", kLate);
  auto late = (dir / "late.so").string();
  REQUIRE(run_command({kRelax, "build", (dir / "late.relax").string(), "-o", late}).exit_code == 0);
  auto lr = run_command({kRelax, "run", late, "--random", "--shape", "M=3", "--shape", "N=5"});
  INFO(lr.err);
  CHECK(lr.exit_code == 0);
  CHECK(lr.out.find("shape (2, 3, 3), dtype float32") != std::string::npos);
  auto neg = run_command({kRelax, "run", late, "--random", "--shape", "M=3", "--shape", "N=1"});
  CHECK(neg.exit_code == 2);
  CHECK(neg.err ==
        "relax: error: --random: dimension `N - 2` of parameter `A` is -1 with the "
        "sizes given\n");
  auto half = run_command({kRelax, "run", late, "--random", "--shape", "N=5"});
  CHECK(half.err ==
        "relax: error: --random: give the size of `M` for parameter `A` with --shape "
        "NAME=N\n");
}

TEST_CASE("relax run: wrong shapes, --func and inputs given twice, from a model library alone") {
  TempDir dir;
  auto so = (dir / "chain.so").string();
  REQUIRE(run_command({kRelax, "build", golden("chain"), "-o", so}).exit_code == 0);
  auto x3 = npy(dir, "x3.npy", {3}, {1, 2, 3}), x4 = npy(dir, "x4.npy", {4}, {1, 2, 3, 4});
  auto wrong = run_command({kRelax, "run", so, x3, x4});
  CHECK(wrong.exit_code == 1);
  CHECK(wrong.err ==
        "relax: error: main: argument `x` (parameter 0): dimension 0 is 3 but the "
        "function expects 4\n");
  auto calls = (dir / "calls.so").string();
  REQUIRE(run_command({kRelax, "build", golden("calls"), "-o", calls}).exit_code == 0);
  auto func = run_command({kRelax, "run", calls, "--func", "nope", x4});
  CHECK(func.exit_code == 1);
  CHECK(func.err ==
        "relax: error: the model has no function `nope` (its functions: double, main)\n");
  auto func_relax = run_command({kRelax, "run", golden("calls"), "--func", "nope", x4});
  CHECK(func_relax.exit_code == 1);
  CHECK(func_relax.err ==
        "relax: error: the module has no Relax function `nope` (its Relax functions: double, "
        "main)\n");
  auto twice = run_command({kRelax, "run", calls, "--func", "double", x4});
  CHECK(twice.exit_code == 0);
  // A parameter given as an input and bound by --params.
  auto w = (dir / "w.safetensors").string();
  std::vector<float> wv{10, 20, 30, 40};
  std::vector<int64_t> shape{4};
  REQUIRE(relax::vm::write_safetensors(
              w, {{"w", relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, wv.data())}})
              .ok());
  for (const std::string& given : {x4, "w=" + x4}) {
    std::vector<std::string> argv{kRelax, "run", golden("weights"), x4, given, "--params", w};
    auto both = run_command(argv);
    CHECK(both.exit_code == 2);
    CHECK(both.err == "relax: error: parameter `w` of `main` is given as an input (" + x4 +
                          ") and bound by --params (" + w + "); give it once\n");
  }
  // Bound weights are used with --random (not replaced by random values), and size `n`.
  auto bound = run_command({kRelax, "run", golden("weights"), x4, "--params", w, "--random", "-o",
                            (dir / "b.npy").string()});
  INFO(bound.err);
  REQUIRE(bound.exit_code == 0);
  CHECK(floats((dir / "b.npy").string()) == std::vector<float>{11, 22, 33, 44});
  auto sized = run_command({kRelax, "run", golden("weights"), "--params", w, "--random"});
  INFO(sized.err);
  CHECK(sized.exit_code == 0);
  CHECK(sized.out.find("shape (4,), dtype float32") != std::string::npos);
}

TEST_CASE("relax run --repeat warms up and prints min, median, mean and p90, and --json") {
  TempDir dir;
  auto x = npy(dir, "x.npy", {4}, {1, 2, 3, 4}), y = npy(dir, "y.npy", {4}, {10, 20, 30, 40});
  auto r = run_command({kRelax, "run", golden("chain"), x, y, "--repeat", "20"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::regex time_line(
      "time: min [0-9.]+ [nuµm]?s, median [0-9.]+ [nuµm]?s, mean [0-9.]+ [nuµm]?s, p90 [0-9.]+ "
      "[nuµm]?s over 20 runs \\(2 warm-ups\\)\n");
  CHECK(std::regex_search(r.out, time_line));
  auto one = run_command({kRelax, "run", golden("chain"), x, y, "--repeat", "1"});
  CHECK(one.out.find("over 1 run (1 warm-up)") != std::string::npos);
  auto plain = run_command({kRelax, "run", golden("chain"), x, y});
  CHECK(plain.out.find("time:") == std::string::npos);

  auto j =
      run_command({kRelax, "run", golden("chain"), x, y, "--repeat", "5", "--profile", "--json"});
  INFO(j.err);
  REQUIRE(j.exit_code == 0);
  auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["function"] == "main");
  REQUIRE(doc["outputs"].size() == 1);
  const auto& out = doc["outputs"][0];
  CHECK(out["kind"] == "tensor");
  CHECK(out["shape"] == nlohmann::json::array({4}));
  CHECK(out["dtype"] == "float32");
  CHECK(out["values"] == nlohmann::json::array({33, 66, 99, 132}));
  CHECK(out["summary"]["min"] == 33.0);
  CHECK(out["summary"]["max"] == 132.0);
  CHECK(out["summary"]["mean"] == 82.5);
  const auto& t = doc["timing"];
  CHECK(t["runs"] == 5);
  CHECK(t["warmup_runs"] == 1);
  REQUIRE(t["times_ms"].size() == 5);
  double lo = t["min_ms"], med = t["median_ms"], p90 = t["p90_ms"], mean = t["mean_ms"];
  CHECK(lo > 0);
  CHECK(lo <= med);
  CHECK(med <= p90);
  CHECK(lo <= mean);
  double total = 0;
  for (double v : t["times_ms"]) total += v;
  CHECK(mean == Approx(total / 5));
  // The profile covers the timed runs only: the kernel runs 4 times in each of them.
  const auto& prof = doc["profile"];
  CHECK(prof["invocations"] == 5);
  bool found = false;
  for (const auto& e : prof["entries"]) {
    if (e["name"] == "add") {
      found = true;
      CHECK(e["kind"] == "kernel");
      CHECK(e["calls"] == 20);
    }
  }
  CHECK(found);
  // Without --profile there is no profile; a tuple result is one output per field.
  auto tuple = run_command({kRelax, "run", golden("calls"), x, "--json"});
  INFO(tuple.err);
  REQUIRE(tuple.exit_code == 0);
  auto tdoc = nlohmann::json::parse(tuple.out);
  CHECK_FALSE(tdoc.contains("profile"));
  REQUIRE(tdoc["outputs"].size() == 2);
  CHECK(tdoc["timing"]["runs"] == 1);
  CHECK(tdoc["timing"]["warmup_runs"] == 0);
}

TEST_CASE("relax run --random makes shapes, integer prims and tuples from a model library") {
  TempDir dir;
  relax::test::write_file(dir / "kinds.relax", R"(@I.ir_module
class Module:
    @R.function
    def main(s: R.Shape(["n", 4]), p: R.Prim(value="n"), t: R.Tuple(R.Tensor(("n",), "float32"), R.Tensor((2,), "int32"))) -> R.Tuple(R.Shape(["n", 4]), R.Tensor(("n",), "float32")):
        x = t[0]
        return (s, x)

    @R.function
    def other(o: R.Object) -> R.Object:
        return o
)");
  auto so = (dir / "kinds.so").string();
  auto b = run_command({kRelax, "build", (dir / "kinds.relax").string(), "-o", so});
  INFO(b.err);
  REQUIRE(b.exit_code == 0);
  CHECK(built_line(b.err, so, "2 functions, 0 kernels"));
  // p must equal n and t[0] have n elements: the VM checks both.
  auto r = run_command({kRelax, "run", so, "--random", "--shape", "n=3", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["outputs"].size() == 2);
  CHECK(doc["outputs"][0]["kind"] == "shape");
  CHECK(doc["outputs"][0]["value"] == nlohmann::json::array({3, 4}));
  CHECK(doc["outputs"][1]["shape"] == nlohmann::json::array({3}));
  auto object = run_command({kRelax, "run", so, "--random", "--func", "other"});
  CHECK(object.exit_code == 2);
  CHECK(object.err ==
        "relax: error: --random: parameter `o` is R.Object: --random makes "
        "tensors, shapes, integers and tuples of them\n");
  // relax build --params checks --func too.
  auto w = (dir / "w.safetensors").string();
  std::vector<float> wv{1, 2, 3, 4};
  std::vector<int64_t> shape{4};
  REQUIRE(relax::vm::write_safetensors(
              w, {{"w", relax::vm::tensor_from_bytes(shape, relax::vm::kFloat32, wv.data())}})
              .ok());
  auto func = run_command(
      {kRelax, "build", (dir / "kinds.relax").string(), "--params", w, "--func", "nope", "-o", so});
  CHECK(func.exit_code == 1);
  CHECK(func.err ==
        "relax: error: the module has no Relax function `nope` (its Relax functions: "
        "main, other)\n");
}

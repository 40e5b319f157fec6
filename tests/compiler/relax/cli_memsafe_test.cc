// Memory safety through the real `relax` binary (issue 10, items 3 and 4): programs that used to
// corrupt the heap are rejected by `relax check` with a code and a position, `--bounds-check`
// catches at run time what cannot be proven, an unknown -mcpu / -mtriple / -mattr is a usage
// error instead of an LLVM abort, and a truncated model.so is an error instead of SIGBUS.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/support/test_util.h"
#include "vm/io/npy.h"
#include "vm/tensor.h"

namespace fs = std::filesystem;
using relax::test::run_command;

namespace {

const std::string kRelax = RELAX_BINARY;

using relax::test::TempDir;

// A module whose prim_func body is `body` (4-space indented lines under the def), called by
// main on a (16,) float32 tensor `x` and a (4,) int32 tensor `idx`.
std::string module_with(const std::string& body) {
  return R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def kernel(A: T.Buffer((16,), "float32"), Idx: T.Buffer((4,), "int32"), B: T.Buffer((4,), "float32")):
)" + body +
         R"(
    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), idx: R.Tensor((4,), dtype="int32")):
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.kernel, (x, idx), out_sinfo=R.Tensor((4,), dtype="float32"))
            R.output(y)
        return y
)";
}

// Writes x = 0..15 and idx to .npy files; returns their paths.
std::vector<std::string> inputs(const TempDir& dir, std::vector<int32_t> idx) {
  std::vector<float> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto xt = relax::vm::tensor_from_bytes(std::vector<int64_t>{16}, relax::vm::kFloat32, x.data());
  auto it = relax::vm::tensor_from_bytes(std::vector<int64_t>{4}, relax::vm::kInt32, idx.data());
  REQUIRE(relax::vm::write_npy((dir / "x.npy").string(), *xt));
  REQUIRE(relax::vm::write_npy((dir / "idx.npy").string(), *it));
  return {(dir / "x.npy").string(), (dir / "idx.npy").string()};
}

// Writes a 1-d int64 tensor to dir/name.npy; returns its path.
std::string int64_npy(const TempDir& dir, const std::string& name, std::vector<int64_t> values) {
  auto t = relax::vm::tensor_from_bytes(std::vector<int64_t>{static_cast<int64_t>(values.size())},
                                        relax::vm::kInt64, values.data());
  std::string path = (dir / (name + ".npy")).string();
  REQUIRE(relax::vm::write_npy(path, *t));
  return path;
}

const char* kHeader = R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
)";

}  // namespace

TEST_CASE("R.memory.view at byte offset 2^63-1 is refused by check and at run time") {
  TempDir dir;
  // A constant offset: E0378 from `relax check` (the end of the view used to wrap around).
  auto constant = dir / "view_const.relax";
  relax::test::write_file(constant, std::string(kHeader) + R"(    @R.function
    def main(x: R.Tensor((16,), "float32")):
        v = R.memory.view(x, R.shape([4]), R.dtype("float32"), R.prim_value(9223372036854775807))
        return v
)");
  auto r = run_command({kRelax, "check", constant.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("view_const.relax:10:13: error[E0378]: R.memory.view: the view exceeds the "
                   "bounds of the tensor it views: the view of 16 bytes at byte offset "
                   "9223372036854775807 ends past the end of a tensor of 64 bytes") !=
        std::string::npos);
  // An offset known only at run time (from a tensor's value): vm.builtin.tensor_view refuses it.
  auto symbolic = dir / "view_sym.relax";
  relax::test::write_file(symbolic, std::string(kHeader) + R"(    @R.function
    def main(x: R.Tensor((16,), "float32"), t: R.Tensor((1,), "int64")):
        k = T.int64()
        s = R.tensor_to_shape(t)
        s2 = R.match_cast(s, R.Shape([k]))
        v = R.memory.view(x, R.shape([4]), R.dtype("float32"), R.prim_value(k))
        return v
)");
  auto in = inputs(dir, {0, 0, 0, 0});
  r = run_command({kRelax, "check", symbolic.string()});
  CHECK(r.exit_code == 0);
  r = run_command({kRelax, "run", symbolic.string(), in[0], int64_npy(dir, "k", {48})});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("[12, 13, 14, 15]") != std::string::npos);
  for (int64_t offset :
       {int64_t{9223372036854775807}, int64_t{9223372036854775800}, int64_t{52}, int64_t{-4}}) {
    CAPTURE(offset);
    r = run_command({kRelax, "run", symbolic.string(), in[0], int64_npy(dir, "k", {offset})});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("vm.builtin.tensor_view: view: 16 bytes at relative offset " +
                     std::to_string(offset) + " do not fit in the tensor's storage of 64 bytes") !=
          std::string::npos);
  }
}

TEST_CASE("a tensor of constant shape past int64 bytes is an error before any pass") {
  // StaticPlanBlockMemory and LowerAllocTensor multiplied the dims to 2^64 bytes, which wrapped
  // to a storage of 0 bytes. Now such a shape is an error of the module (E0419), and a symbolic
  // one that overflows at run time fails its shape computation (cli_robustness_test).
  TempDir dir;
  auto file = dir / "big.relax";
  relax::test::write_file(file, std::string(kHeader) + R"(    @R.function
    def main(x: R.Tensor((4,), "float32")):
        with R.dataflow():
            z = R.zeros(R.shape([4611686018427387904, 4]), "float32")
            y = R.add(z, x)
            R.output(y)
        return y
)");
  auto r = run_command({kRelax, "build", file.string(), "-o", (dir / "m.so").string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("big.relax:11:13: error[E0419]: a tensor of shape (4611686018427387904, 4) and "
                   "dtype float32 has more bytes than int64 can count") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "m.so"));
  r = run_command({kRelax, "run", file.string(), "--random"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("error[E0419]") != std::string::npos);
}

TEST_CASE(
    "relax check: constant int64 arithmetic that overflows or traps is an error, not a crash") {
  TempDir dir;
  auto file = dir / "ints.relax";
  relax::test::write_file(file, std::string(kHeader) + R"(    @T.prim_func
    def f(A: T.Buffer((4,), "int64")):
        A[0] = T.floordiv(T.int64(-9223372036854775807) - T.int64(1), T.int64(-1))
        A[1] = T.truncmod(T.int64(-9223372036854775807) - T.int64(1), T.int64(-1))
        A[2] = T.int64(9223372036854775807) + T.int64(1)
        A[3] = T.int64(4611686018427387904) * T.int64(4)
)");
  // Nothing folds to a wrapped value, and no kernel is built that would trap: each expression
  // whose exact value leaves int64 is E0249 at its position (INT64_MIN % -1 is exactly 0).
  auto r = run_command({kRelax, "check", "--color", "never", file.string()});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find(":10:16: error[E0249]: integer overflow: T.floordiv(-9223372036854775808, -1) "
                   "does not fit in int64") != std::string::npos);
  CHECK(r.err.find(":11:") == std::string::npos);
  CHECK(r.err.find(":12:16: error[E0249]: integer overflow: 9223372036854775807 + 1 does not fit "
                   "in int64") != std::string::npos);
  CHECK(r.err.find(":13:16: error[E0249]: integer overflow: 4611686018427387904 * 4 does not fit "
                   "in int64") != std::string::npos);
  CHECK(r.err.find("Found 3 errors.") != std::string::npos);
}

TEST_CASE("relax check rejects the heap-corrupting TIR reproducers with E0423 and E0424") {
  TempDir dir;
  struct Case {
    std::string body;
    std::string expect;  // file:line:col: error[CODE]
  };
  std::vector<Case> cases = {
      {"        for i in range(16777216):\n"
       "            with T.block(\"b\"):\n"
       "                vi = T.axis.spatial(16777216, i)\n"
       "                A[vi] = T.float32(1)\n",
       "k.relax:13:19: error[E0423]: prim_func `kernel`: the index `vi` of dimension 0 of buffer "
       "`A` (shape [16]) reaches 16777215 at i = 16777215"},
      {"        for i in range(4):\n"
       "            with T.block(\"b\"):\n"
       "                vi = T.axis.spatial(4, i)\n"
       "                B[vi] = A[vi + 4294967296]\n",
       "k.relax:13:27: error[E0423]: prim_func `kernel`: the index `T.Cast(\"int64\", vi) + "
       "4294967296` of dimension 0 of buffer `A` (shape [16]) reaches 4294967296 at i = 0"},
      {"        for i in range(4):\n"
       "            with T.block(\"b\"):\n"
       "                vi = T.axis.spatial(-1, i)\n"
       "                B[vi] = A[vi]\n",
       "k.relax:12:37: error[E0424]: prim_func `kernel`: block `b`: the iteration variable `vi` "
       "has a negative domain extent (-1)"},
  };
  for (const auto& c : cases) {
    auto file = dir / "k.relax";
    relax::test::write_file(file, module_with(c.body));
    auto r = run_command({kRelax, "check", file.string()});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find(c.expect) != std::string::npos);
    // `relax run` refuses it too (the same checks), before compiling anything.
    auto run = run_command({kRelax, "run", file.string(), "--random"});
    CHECK(run.exit_code == 1);
    CHECK(run.err.find(c.expect.substr(c.expect.find("error["))) != std::string::npos);
  }
}

TEST_CASE("relax run --bounds-check stops an out-of-bounds gather with the kernel's name") {
  TempDir dir;
  auto file = dir / "gather.relax";
  relax::test::write_file(file, module_with("        for i in range(4):\n"
                                            "            B[i] = A[Idx[i]]\n"));
  auto in = inputs(dir, {3, 0, 15, 7});
  auto ok = run_command({kRelax, "run", file.string(), in[0], in[1], "--bounds-check"});
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("[3, 0, 15, 7]") != std::string::npos);
  in = inputs(dir, {3, 0, 16, 7});
  auto bad = run_command({kRelax, "run", file.string(), in[0], in[1], "--bounds-check"});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("kernel `kernel`: buffer `A` (shape [16]) is accessed out of bounds: the "
                     "index `Idx[i]` of dimension 0 is not in [0, 16)") != std::string::npos);
  // The same through a model library built with the checks.
  auto so = dir / "gather.so";
  auto build = run_command({kRelax, "build", file.string(), "-o", so.string(), "--bounds-check"});
  INFO(build.err);
  REQUIRE(build.exit_code == 0);
  auto lib = run_command({kRelax, "run", so.string(), in[0], in[1]});
  CHECK(lib.exit_code == 1);
  CHECK(lib.err.find("is accessed out of bounds") != std::string::npos);
  // --bounds-check cannot add checks to a library already built.
  auto usage = run_command({kRelax, "run", so.string(), in[0], in[1], "--bounds-check"});
  CHECK(usage.exit_code == 2);
  // --print-after shows the checks.
  auto printed = run_command({kRelax, "build", file.string(), "-o", so.string(), "--bounds-check",
                              "--print-after", "tir.InstrumentBoundCheckers"});
  CHECK(printed.exit_code == 0);
  CHECK(printed.err.find("# IR after tir.InstrumentBoundCheckers") != std::string::npos);
  CHECK(printed.err.find("assert 0 <= Idx[i] and Idx[i] < 16") != std::string::npos);
}

TEST_CASE(
    "relax run --bounds-check stops an index past a shape variable's value, and a legalized take") {
  TempDir dir;
  // B has m elements, A has n: check cannot know m <= n.
  auto file = dir / "copy.relax";
  relax::test::write_file(file, std::string(kHeader) + R"(    @T.prim_func(private=True)
    def copy(a: T.handle, b: T.handle):
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (m,))
        for i in range(m):
            with T.block("copy"):
                vi = T.axis.spatial(m, i)
                B[vi] = A[vi]

    @R.function
    def main(x: R.Tensor(("n",), "float32"), y: R.Tensor(("m",), "float32")):
        m = T.int64()
        cls = Module
        with R.dataflow():
            z = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((m,), "float32"))
            R.output(z)
        return z
)");
  auto r = run_command({kRelax, "check", file.string()});
  CHECK(r.exit_code == 0);
  r = run_command({kRelax, "run", file.string(), "--random", "--shape", "n=8", "--shape", "m=4",
                   "--bounds-check"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("shape (4,), dtype float32") != std::string::npos);
  r = run_command({kRelax, "run", file.string(), "--random", "--shape", "n=4", "--shape", "m=9",
                   "--bounds-check"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("relax: error: main: kernel `copy` failed: kernel `copy`: buffer `A` (shape "
                   "[n]) is accessed out of bounds: the index `i` of dimension 0 is not in [0, "
                   "n) (it is 4)") != std::string::npos);
  // A --shape value that is not a whole number is a usage error.
  r = run_command({kRelax, "run", file.string(), "--random", "--shape", "n=4", "--shape", "m=9x"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--shape expects NAME=N with N a non-negative decimal integer, not `m=9x`") !=
        std::string::npos);

  // R.take legalizes to a gather whose indices are tensor values.
  auto take = dir / "take.relax";
  relax::test::write_file(take, std::string(kHeader) + R"(    @R.function
    def main(x: R.Tensor((16,), "float32"), i: R.Tensor((3,), "int64")):
        with R.dataflow():
            y = R.take(x, i, axis=0, mode="fast")
            R.output(y)
        return y
)");
  // mode="fast" has no index check of its own (the default mode's is tested with R.take's
  // legalization): here the bounds checks catch the index.
  auto in = inputs(dir, {0, 0, 0, 0});
  r = run_command(
      {kRelax, "run", take.string(), in[0], int64_npy(dir, "i", {15, 3, 0}), "--bounds-check"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("[15, 3, 0]") != std::string::npos);
  for (int64_t bad : {int64_t{16}, int64_t{-1}, int64_t{1} << 40}) {
    CAPTURE(bad);
    r = run_command(
        {kRelax, "run", take.string(), in[0], int64_npy(dir, "i", {0, bad, 1}), "--bounds-check"});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("kernel `take`: buffer `A` (shape [16]) is accessed out of bounds: the index "
                     "`B[ax0]` of dimension 0 is not in [0, 16) (it is " +
                     std::to_string(bad) + ")") != std::string::npos);
  }
}

TEST_CASE("relax build/run --target with an unknown CPU, feature or triple is a usage error") {
  TempDir dir;
  auto file = dir / "ok.relax";
  relax::test::write_file(file, module_with("        for i in range(4):\n"
                                            "            B[i] = A[i]\n"));
  struct Case {
    std::string target;
    std::string expect;
  };
  std::vector<Case> cases = {
      {"llvm -mcpu=nonsense", "unknown CPU `nonsense`"},
      {"llvm -mcpu=skylak", "unknown CPU `skylak` for the triple"},
      {"llvm -mcpu=skylak", "did you mean `skylake`"},
      {"llvm -mcpu=i386", "the CPU `i386` cannot run the 64-bit code"},
      {"llvm -mattr=+avx2,+nonsense", "unknown CPU feature `nonsense`"},
      {"llvm -mattr=avx2", "the -mattr feature `avx2` must be +NAME or -NAME"},
      {"llvm -mtriple=foo-bar-baz", "LLVM has no target for the triple `foo-bar-baz`"},
      {"llvm -vector-bits=100", "-vector-bits takes 0 or a power of two from 8 to 4096"},
      {"llvm -num-threads=four", "-num-threads takes a whole number from 0 to 65536"},
  };
  for (const auto& c : cases) {
    for (const char* command : {"build", "run"}) {
      CAPTURE(c.target, command);
      auto r = run_command({kRelax, command, file.string(), "--random", "--target", c.target});
      if (std::string(command) == "build")
        r = run_command({kRelax, command, file.string(), "--target", c.target});
      INFO(r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("--target `" + c.target + "`: ") != std::string::npos);
      CHECK(r.err.find(c.expect) != std::string::npos);
      CHECK(r.err.find("not a recognized") == std::string::npos);  // LLVM's own warnings
      CHECK(r.err.find("LLVM ERROR") == std::string::npos);
    }
  }
  // A triple LLVM knows, for another machine: kernels run in process, so `relax run` refuses it
  // (it used to jump into 32-bit code).
  auto i386 = run_command(
      {kRelax, "run", file.string(), "--random", "--target", "llvm -mtriple=i386-pc-linux-gnu"});
  CHECK(i386.exit_code == 1);
  CHECK(i386.err.find("error[E0712]: kernels compiled in process run on this machine") !=
        std::string::npos);
  // A known 64-bit CPU still builds and runs.
  auto r = run_command({kRelax, "run", file.string(), "--random", "--target", "llvm -mcpu=x86-64"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
}

TEST_CASE("relax run on a truncated or corrupted model.so is an error, never a signal") {
  TempDir dir;
  auto file = dir / "m.relax";
  relax::test::write_file(file, module_with("        for i in range(4):\n"
                                            "            B[i] = A[i]\n"));
  auto so = dir / "m.so";
  auto build = run_command({kRelax, "build", file.string(), "-o", so.string()});
  INFO(build.err);
  REQUIRE(build.exit_code == 0);
  std::string bytes = relax::test::read_file(so);
  auto in = inputs(dir, {0, 1, 2, 3});
  auto ok = run_command({kRelax, "run", so.string(), in[0], in[1]});
  REQUIRE(ok.exit_code == 0);
  size_t n = bytes.size();
  for (size_t len :
       {size_t{0}, size_t{16}, size_t{64}, size_t{200}, n / 4, n / 2, n - 4096, n - 1}) {
    CAPTURE(len);
    auto cut = dir / ("cut_" + std::to_string(len) + ".so");
    relax::test::write_file(cut, bytes.substr(0, len));
    auto r = run_command({kRelax, "run", cut.string(), in[0], in[1]});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("cannot load " + cut.string()) != std::string::npos);
  }
  // A header whose program header table points past the end of the file.
  std::string corrupt = bytes;
  corrupt[0x20] = '\x7f';  // e_phoff (64-bit ELF) gets a huge high byte
  corrupt[0x27] = '\x7f';
  auto bad = dir / "corrupt.so";
  relax::test::write_file(bad, corrupt);
  auto r = run_command({kRelax, "run", bad.string(), in[0], in[1]});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("program headers") != std::string::npos);
  // Not an ELF file at all.
  relax::test::write_file(bad, "this is not a library\n");
  r = run_command({kRelax, "run", bad.string(), in[0], in[1]});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("not an ELF shared library") != std::string::npos);
}

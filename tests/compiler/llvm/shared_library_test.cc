// The ahead-of-time path: kernels and an executable blob written as a shared library, loaded
// with the runtime's vm::SharedLibrary (no LLVM involved in loading) and run.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "compiler/codegen/llvm/llvm_codegen.h"
#include "tests/compiler/llvm/kernel_test_util.h"
#include "tests/support/test_util.h"

using namespace relax;
using namespace relax::test;
namespace cg = relax::compiler::codegen;
namespace fs = std::filesystem;

TEST_CASE("llvm shared library: exports the kernels, the blob and the ABI version") {
  auto funcs = parse_kernels(R"(
@T.prim_func
def mul(A: T.Buffer((T.int64(100),), "float32"), B: T.Buffer((T.int64(100),), "float32")):
    for i in T.parallel(T.int64(100)):
        with T.block("B"):
            vi = T.axis.spatial(T.int64(100), i)
            B[vi] = A[vi] * T.float32(3) + T.exp(T.float32(0))
)");
  fs::path dir = fs::temp_directory_path() / ("relax_llvm_so_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string path = (dir / "model.so").string();
  std::vector<uint8_t> blob = {'R', 'L', 'X', 0, 1, 2, 3, 255};
  ir::DiagnosticBag diags;
  REQUIRE(cg::write_shared_library(funcs, blob, compiler::Target::host(), path, diags));
  CHECK(diags.empty());

  auto lib = vm::SharedLibrary::open(path, true);
  REQUIRE(lib);
  auto& so = *lib;
  CHECK(std::vector<uint8_t>(so->executable_blob().begin(), so->executable_blob().end()) == blob);
  auto fn = so->resolve("mul");
  REQUIRE(fn);
  HostTensor a({100}, kF32), b({100}, kF32);
  for (int i = 0; i < 100; ++i) a.data<float>()[i] = static_cast<float>(i) * 0.25f;
  TestKernelContext ctx;
  REQUIRE(ctx.call(fn, {a.arg(), b.arg()}) == 0);
  CHECK(ctx.parallel_calls == 1);
  for (int i = 0; i < 100; ++i) REQUIRE(b.data<float>()[i] == static_cast<float>(i) * 0.75f + 1.0f);
  HostTensor wrong({10}, kF32);
  CHECK(ctx.call(fn, {a.arg(), wrong.arg()}) == 1);
  CHECK(ctx.error == "kernel `mul`: argument 1 (`B`) has shape[0] = 10, expected 100");
  // It needs nothing of LLVM or the runtime: only C symbols from libc and libm are undefined.
  auto nm = test::run_command({"nm", "-D", "--undefined-only", path});
  if (nm.exit_code == 0) {
    CHECK(nm.out.find("snprintf") != std::string::npos);
    CHECK(nm.out.find("_Z") == std::string::npos);
    CHECK(nm.out.find("LLVM") == std::string::npos);
    CHECK(nm.out.find("relax") == std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("llvm shared library: E0713 when the output cannot be written") {
  auto funcs = parse_kernels(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.float32(0)
)");
  ir::DiagnosticBag diags;
  CHECK_FALSE(cg::write_shared_library(funcs, {}, compiler::Target::host(),
                                       "/nonexistent-dir/x/model.so", diags));
  REQUIRE(diags.size() == 1);
  CHECK(diags.items()[0].code == "E0713");
}

TEST_CASE("llvm shared library: no temporary is left, on success or failure") {
  auto funcs = parse_kernels(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.float32(0)
)");
  test::TempDir dir("relax_llvm_so_temps");
  std::string path = (dir / "model.so").string();
  ir::DiagnosticBag ok;
  std::vector<uint8_t> blob = {1, 2, 3}, other = {4, 5, 6};
  REQUIRE(cg::write_shared_library(funcs, blob, compiler::Target::host(), path, ok));
  CHECK(test::dir_entries(dir.path()) == std::vector<std::string>{"model.so"});
  std::string built = test::read_file(path);
  // The C compiler fails: an E0713 with its exit status; the library is as it was.
  const char* old_cc = std::getenv("CC");
  std::string saved = old_cc ? old_cc : "";
  ::setenv("CC", "false", 1);
  ir::DiagnosticBag diags;
  bool written = cg::write_shared_library(funcs, other, compiler::Target::host(), path, diags);
  if (old_cc)
    ::setenv("CC", saved.c_str(), 1);
  else
    ::unsetenv("CC");
  CHECK_FALSE(written);
  REQUIRE(diags.size() == 1);
  CHECK(diags.items()[0].code == "E0713");
  CHECK(diags.items()[0].message.find("`false -shared` failed (exit 1)") != std::string::npos);
  CHECK(test::read_file(path) == built);
  CHECK(test::dir_entries(dir.path()) == std::vector<std::string>{"model.so"});
}

// Targets LLVM cannot compile for (compiler/codegen/llvm/llvm_target.cc): check_target's reasons
// and close matches, E0712 from the code generator instead of an LLVM abort, and the fatal error
// handler that turns a remaining report_fatal_error into a message and exit status 1.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "compiler/codegen/llvm/llvm_codegen.h"
#include "tests/compiler/llvm/kernel_test_util.h"

using namespace relax;
namespace cg = relax::compiler::codegen;

// LLVM's own declaration (llvm/Support/ErrorHandling.h; the tests do not see LLVM's headers).
namespace llvm {
[[noreturn]] void report_fatal_error(const char* reason, bool gen_crash_diag);
}  // namespace llvm

namespace {

compiler::Target target(const std::string& text) {
  std::string error;
  auto t = compiler::Target::parse(text, &error);
  INFO(error);
  REQUIRE(t);
  return *t;
}

}  // namespace

TEST_CASE("llvm target: check_target names what LLVM does not know, with close matches") {
  CHECK(cg::check_target(target("llvm")).empty());
  CHECK(cg::check_target(target("llvm -mcpu=x86-64-v3 -mattr=+avx2,-avx512f")).empty());
  CHECK(cg::check_target(target("llvm -mcpu=znver4")) == "");
  CHECK_THAT(cg::check_target(target("llvm -mcpu=haswel")),
             Catch::StartsWith("unknown CPU `haswel` for the triple `x86_64") &&
                 Catch::EndsWith("`; did you mean `haswell`? (`llc -mcpu=help` lists the CPUs)"));
  CHECK_THAT(cg::check_target(target("llvm -mcpu=pentium")),
             Catch::StartsWith("the CPU `pentium` cannot run the 64-bit code of the triple"));
  CHECK_THAT(cg::check_target(target("llvm -mattr=+avx2,+sse4.3")),
             Catch::StartsWith("unknown CPU feature `sse4.3`") &&
                 Catch::Contains("did you mean `sse4.1`, `sse4.2`"));
  CHECK_THAT(cg::check_target(target("llvm -mtriple=riscv64-unknown-linux-gnu")),
             Catch::StartsWith("LLVM has no target for the triple `riscv64-unknown-linux-gnu`"));
  CHECK(cg::check_target(target("cuda")).empty());  // not LLVM's to check
}

TEST_CASE("target: -num-threads and -vector-bits take whole numbers in range") {
  CHECK(target("llvm -num-threads=8 -vector-bits=256").num_threads == 8);
  CHECK(target("llvm -vector-bits=256").vector_bits == 256);
  CHECK(target("llvm -vector-bits=0").str() == "llvm");
  struct Case {
    const char* text;
    const char* error;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"llvm -num-threads=8x", "-num-threads takes a whole number from 0 to 65536, not '8x'"},
           {"llvm -num-threads=", "-num-threads takes a whole number from 0 to 65536, not ''"},
           {"llvm -num-threads=-1", "-num-threads takes a whole number from 0 to 65536, not '-1'"},
           {"llvm -num-threads=99999999999",
            "-num-threads takes a whole number from 0 to 65536, not '99999999999'"},
           {"llvm -vector-bits=100",
            "-vector-bits takes 0 or a power of two from 8 to 4096, not '100'"},
           {"llvm -vector-bits=1e3",
            "-vector-bits takes 0 or a power of two from 8 to 4096, not '1e3'"},
           {"llvm -vector-bits=8192",
            "-vector-bits takes 0 or a power of two from 8 to 4096, not '8192'"}}) {
    CAPTURE(c.text);
    std::string error;
    CHECK_FALSE(compiler::Target::parse(c.text, &error));
    CHECK(error == c.error);
  }
}

TEST_CASE("llvm target: the code generator reports E0712 for them instead of aborting") {
  auto kernels = test::parse_kernels(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.float32(0)
)");
  for (const char* text :
       {"llvm -mcpu=nonsense", "llvm -mcpu=i386", "llvm -mtriple=i386-pc-linux-gnu"}) {
    CAPTURE(text);
    ir::DiagnosticBag diags;
    CHECK(cg::jit_compile(kernels, target(text), diags) == nullptr);
    REQUIRE(diags.size() == 1);
    CHECK(diags.items()[0].code == "E0712");
  }
}

TEST_CASE("llvm target: a remaining fatal LLVM error exits with status 1 and a message") {
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    (void)cg::check_target(target("llvm"));  // initializes LLVM and installs the handler
    llvm::report_fatal_error("something LLVM cannot go on from", true);
    _exit(99);  // not reached
  }
  close(pipe_fds[1]);
  std::string err;
  char buf[256];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;)
    err.append(buf, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(err == "error: LLVM cannot compile this module: something LLVM cannot go on from\n");
}

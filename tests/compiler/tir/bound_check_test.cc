// InstrumentBoundCheckers (compiler/tir/instrument_bound_checkers.cc): the asserts it adds, the
// ones it proves unnecessary, and kernels compiled with it that fail with a message (instead of
// touching memory) on an out-of-bounds index, also inside a parallel loop; and the checked size
// of a kernel's local buffers.
#include <catch2/catch.hpp>

#include <string>

#include "compiler/codegen/llvm/llvm_codegen.h"
#include "compiler/tir/lower.h"
#include "ir/module.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/compiler/llvm/kernel_test_util.h"

using namespace relax;
using namespace relax::test;
namespace ctir = relax::compiler::tir;
namespace cg = relax::compiler::codegen;

namespace {

// The prim_func `name` of `src`, lowered up to InstrumentBoundCheckers with bounds checking on,
// printed (from `def` on).
std::string instrumented(const std::string& src, const std::string& name) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(src, "bound_check_test.relax", diags);
  REQUIRE(diags.empty());
  auto pf = ir::as_prim_func(parsed.module->lookup(name));
  REQUIRE(pf);
  ctir::LowerOptions options;
  options.verify = true;
  options.bounds_check = true;
  std::string text;
  options.after_step = [&](const std::string& step, const ir::Ref<ir::tir::PrimFunc>& f) {
    if (step != "InstrumentBoundCheckers") return;
    auto m = ir::copy(parsed.module);
    m->add(m->global_var(name), f);
    text = syntax::print_functions(*m);
  };
  auto low = ctir::lower_prim_func(pf, compiler::Target::host(), diags, options);
  for (const auto& d : diags.items()) FAIL_CHECK(d.code << ": " << d.message);
  REQUIRE(low);
  auto at = text.find("def ");
  REQUIRE(at != std::string::npos);
  text = text.substr(at);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The kernels of `src`, each lowered with bounds checking, compiled with the JIT.
std::unique_ptr<vm::KernelLibrary> compile_checked(const std::string& src) {
  ir::DiagnosticBag diags;
  auto kernels = parse_kernels(src);
  ctir::LowerOptions options;
  options.bounds_check = true;
  for (auto& k : kernels) {
    k.func = ctir::lower_prim_func(k.func, compiler::Target::host(), diags, options, k.name);
    REQUIRE(k.func);
  }
  auto lib = cg::jit_compile(kernels, compiler::Target::host(), diags);
  for (const auto& d : diags.items()) FAIL_CHECK(d.code << ": " << d.message);
  REQUIRE(lib);
  return lib;
}

const char* kGather = R"(
@T.prim_func
def gather(A: T.Buffer((16,), "float32"), Idx: T.Buffer((4,), "int32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("gather"):
            vi = T.axis.spatial(4, i)
            B[vi] = A[Idx[vi]]
)";

}  // namespace

TEST_CASE("bound check: a data-dependent index gets an assert, proven ones do not") {
  CHECK(instrumented(kGather, "gather") ==
        "def gather(A: T.Buffer((16,), \"float32\"), Idx: T.Buffer((4,), \"int32\"), B: "
        "T.Buffer((4,), \"float32\")):\n"
        "    for i in range(4):\n"
        "        assert 0 <= Idx[i] and Idx[i] < 16, \"buffer `A` (shape [16]) is accessed out of "
        "bounds: the index `Idx[i]` of dimension 0 is not in [0, 16)\"\n"
        "        B[i] = A[Idx[i]]");
}

TEST_CASE("bound check: the arm of T.if_then_else is checked only where it is taken") {
  auto text = instrumented(R"(
@T.prim_func
def f(A: T.Buffer((16,), "float32"), Idx: T.Buffer((18,), "int32"), B: T.Buffer((18,), "float32")):
    for i in range(18):
        B[i] = T.if_then_else(Idx[i] >= 0, A[Idx[i]], T.float32(0))
)",
                           "f");
  CHECK_THAT(text, Catch::Contains("assert not Idx[i] >= 0 or 0 <= Idx[i] and Idx[i] < 16"));
}

TEST_CASE("bound check: a kernel fails on an out-of-bounds index and runs in bounds") {
  auto lib = compile_checked(kGather);
  auto fn = lib->resolve("gather");
  REQUIRE(fn);
  HostTensor a({16}, kF32), idx({4}, kI32), b({4}, kF32);
  for (int i = 0; i < 16; ++i) a.data<float>()[i] = static_cast<float>(i) * 10;
  int32_t ok_idx[] = {3, 0, 15, 7};
  for (int i = 0; i < 4; ++i) idx.data<int32_t>()[i] = ok_idx[i];
  TestKernelContext ctx;
  REQUIRE(ctx.call(fn, {a.arg(), idx.arg(), b.arg()}) == 0);
  CHECK(b.data<float>()[0] == 30);
  CHECK(b.data<float>()[2] == 150);
  idx.data<int32_t>()[2] = 16;
  CHECK(ctx.call(fn, {a.arg(), idx.arg(), b.arg()}) != 0);
  CHECK(ctx.error ==
        "kernel `gather`: buffer `A` (shape [16]) is accessed out of bounds: the index `Idx[i]` of "
        "dimension 0 is not in [0, 16) (it is 16)");
  idx.data<int32_t>()[2] = -1;
  CHECK(ctx.call(fn, {a.arg(), idx.arg(), b.arg()}) != 0);
  CHECK_THAT(ctx.error, Catch::EndsWith("is not in [0, 16) (it is -1)"));
}

TEST_CASE("bound check: an out-of-bounds store in a parallel loop fails the kernel") {
  auto lib = compile_checked(R"(
@T.prim_func
def scatter(Idx: T.Buffer((64,), "int64"), B: T.Buffer((32,), "float32")):
    for i in T.parallel(64):
        B[Idx[i]] = T.float32(1)
)");
  auto fn = lib->resolve("scatter");
  REQUIRE(fn);
  HostTensor idx({64}, kI64), b({32}, kF32);
  for (int i = 0; i < 64; ++i) idx.data<int64_t>()[i] = i % 32;
  TestKernelContext ctx;
  REQUIRE(ctx.call(fn, {idx.arg(), b.arg()}) == 0);
  CHECK(ctx.parallel_calls == 1);
  idx.data<int64_t>()[40] = 32;
  CHECK(ctx.call(fn, {idx.arg(), b.arg()}) != 0);
  CHECK(
      ctx.error ==
      "kernel `scatter`: buffer `B` (shape [32]) is accessed out of bounds: the index `Idx[i]` of "
      "dimension 0 is not in [0, 32) (it is 32)");
}

TEST_CASE("bound check: symbolic shapes are checked against the bound variables") {
  // m comes from B's shape, n from A's: i < m says nothing about i < n.
  auto lib = compile_checked(R"(
@T.prim_func
def f(a: T.handle, b: T.handle):
    n = T.int64()
    m = T.int64()
    A = T.match_buffer(a, (n,))
    B = T.match_buffer(b, (m,))
    for i in range(m):
        B[i] = A[i]
)");
  auto fn = lib->resolve("f");
  REQUIRE(fn);
  HostTensor a({8}, kF32), b4({4}, kF32), b9({9}, kF32);
  TestKernelContext ctx;
  CHECK(ctx.call(fn, {a.arg(), b4.arg()}) == 0);
  CHECK(ctx.call(fn, {a.arg(), b9.arg()}) != 0);
  CHECK(
      ctx.error ==
      "kernel `f`: buffer `A` (shape [n]) is accessed out of bounds: the index `i` of dimension 0 "
      "is not in [0, n) (it is 8)");
}

TEST_CASE("local buffers of a negative or overflowing size fail the kernel, not the heap") {
  ir::DiagnosticBag diags;
  auto lib = cg::jit_compile(parse_kernels(R"(
@T.prim_func
def f(a: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n,))
    B = T.alloc_buffer((n - 10, n * n * n))
    for i, j in T.grid(n - 10, n * n * n):
        B[i, j] = A[0]
    for i in range(n - 10):
        A[i] = B[i, 0]
)"),
                             compiler::Target::host(), diags);
  for (const auto& d : diags.items()) FAIL_CHECK(d.code << ": " << d.message);
  REQUIRE(lib);
  auto fn = lib->resolve("f");
  REQUIRE(fn);
  TestKernelContext ctx;
  HostTensor ok({12}, kF32), negative({4}, kF32), huge({1 << 16}, kF32);
  CHECK(ctx.call(fn, {ok.arg()}) == 0);
  CHECK(ctx.call(fn, {negative.arg()}) != 0);
  CHECK(ctx.error == "kernel `f`: local buffer `B` has a negative size (-384 elements)");
  // (2^16 - 10) * 2^48 elements of 4 bytes: more than an int64 counts.
  CHECK(ctx.call(fn, {huge.arg()}) != 0);
  CHECK(ctx.error == "kernel `f`: local buffer `B` has more bytes than an int64 counts");
}

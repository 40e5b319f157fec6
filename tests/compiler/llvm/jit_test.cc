// Kernels compiled with the LLVM JIT, run on host tensors and compared with plain C++ loops;
// argument checks report clear messages through the context.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "compiler/codegen/llvm/llvm_codegen.h"
#include "tests/compiler/llvm/kernel_test_util.h"

using namespace relax;
using namespace relax::test;
namespace cg = relax::compiler::codegen;

namespace {

std::unique_ptr<vm::KernelLibrary> compile(const std::string& text) {
  ir::DiagnosticBag diags;
  auto lib = cg::jit_compile(parse_kernels(text), compiler::Target::host(), diags);
  for (const auto& d : diags.items()) FAIL_CHECK(d.code << ": " << d.message);
  REQUIRE(lib);
  return lib;
}

void fill(HostTensor& t, int seed) {
  std::mt19937 gen(static_cast<unsigned>(seed));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = dist(gen);
}

const char* kAdd = R"(
@T.prim_func
def add(A: T.Buffer((1000,), "float32"), B: T.Buffer((1000,), "float32"), C: T.Buffer((1000,), "float32")):
    for i in range(1000):
        with T.block("C"):
            vi = T.axis.spatial(1000, i)
            C[vi] = A[vi] + B[vi]
)";

}  // namespace

TEST_CASE("llvm jit: vector add matches a C++ loop") {
  auto lib = compile(kAdd);
  auto fn = lib->resolve("add");
  REQUIRE(fn);
  CHECK(lib->resolve("sub") == nullptr);
  HostTensor a({1000}, kF32), b({1000}, kF32), c({1000}, kF32);
  fill(a, 1);
  fill(b, 2);
  TestKernelContext ctx;
  REQUIRE(ctx.call(fn, {a.arg(), b.arg(), c.arg()}) == 0);
  for (int i = 0; i < 1000; ++i)
    REQUIRE(c.data<float>()[i] == a.data<float>()[i] + b.data<float>()[i]);
}

TEST_CASE("llvm jit: matmul with an init block matches a C++ loop") {
  auto lib = compile(R"(
@T.prim_func
def matmul(A: T.Buffer((37, 64), "float32"), B: T.Buffer((64, 45), "float32"), C: T.Buffer((37, 45), "float32")):
    for i, j, k in T.grid(37, 45, 64):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)");
  HostTensor a({37, 64}, kF32), b({64, 45}, kF32), c({37, 45}, kF32);
  fill(a, 3);
  fill(b, 4);
  for (int64_t i = 0; i < c.size(); ++i) c.data<float>()[i] = 1e6f;  // the init must overwrite it
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("matmul"), {a.arg(), b.arg(), c.arg()}) == 0);
  for (int i = 0; i < 37; ++i) {
    for (int j = 0; j < 45; ++j) {
      float ref = 0;
      for (int k = 0; k < 64; ++k) ref += a.data<float>()[i * 64 + k] * b.data<float>()[k * 45 + j];
      REQUIRE(c.data<float>()[i * 45 + j] == Approx(ref).epsilon(1e-5).margin(1e-5));
    }
  }
}

TEST_CASE("llvm jit: row max and sum reductions with int64 indices") {
  auto lib = compile(R"(
@T.prim_func
def rowmax(A: T.Buffer((T.int64(8), T.int64(100)), "float32"), M: T.Buffer((T.int64(8),), "float32"), S: T.Buffer((T.int64(8),), "float32")):
    for i, k in T.grid(T.int64(8), T.int64(100)):
        with T.block("M"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                M[vi] = T.float32(-3.4028234663852886e+38)
            M[vi] = T.max(M[vi], A[vi, vk])
    for i, k in T.grid(T.int64(8), T.int64(100)):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + T.exp(A[vi, vk] - M[vi])
)");
  HostTensor a({8, 100}, kF32), m({8}, kF32), s({8}, kF32);
  fill(a, 5);
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("rowmax"), {a.arg(), m.arg(), s.arg()}) == 0);
  for (int i = 0; i < 8; ++i) {
    float mx = -3.4e38f, sum = 0;
    for (int k = 0; k < 100; ++k) mx = std::max(mx, a.data<float>()[i * 100 + k]);
    for (int k = 0; k < 100; ++k) sum += std::exp(a.data<float>()[i * 100 + k] - mx);
    CHECK(m.data<float>()[i] == mx);
    CHECK(s.data<float>()[i] == Approx(sum).epsilon(1e-5));
  }
}

TEST_CASE("llvm jit: a symbolic-shape kernel binds n from its argument") {
  auto lib = compile(R"(
@T.prim_func
def scale(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(3)), "float32")
    B = T.match_buffer(b, (n, T.int64(3)), "float32")
    for i, j in T.grid(n, T.int64(3)):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.tanh(A[vi, vj]) * T.Cast("float32", vi) + T.sqrt(T.float32(4))
)");
  auto fn = lib->resolve("scale");
  for (int64_t n : {1, 7, 129}) {
    HostTensor a({n, 3}, kF32), b({n, 3}, kF32);
    fill(a, static_cast<int>(n));
    TestKernelContext ctx;
    REQUIRE(ctx.call(fn, {a.arg(), b.arg()}) == 0);
    for (int64_t i = 0; i < n; ++i)
      for (int j = 0; j < 3; ++j)
        REQUIRE(b.data<float>()[i * 3 + j] ==
                Approx(std::tanh(a.data<float>()[i * 3 + j]) * static_cast<float>(i) + 2.0f)
                    .epsilon(1e-6));
  }
  // n is bound by A; B must agree.
  HostTensor a({4, 3}, kF32), b({5, 3}, kF32);
  TestKernelContext ctx;
  CHECK(ctx.call(fn, {a.arg(), b.arg()}) != 0);
  CHECK(ctx.error == "kernel `scale`: argument 1 (`B`) has shape[0] = 5, expected 4");
}

TEST_CASE("llvm jit: wrong shape, rank, dtype, kind and count give clear messages") {
  auto lib = compile(kAdd);
  auto fn = lib->resolve("add");
  TestKernelContext ctx;
  HostTensor a({1000}, kF32), b({1000}, kF32), c({1000}, kF32);

  HostTensor short_b({999}, kF32);
  CHECK(ctx.call(fn, {a.arg(), short_b.arg(), c.arg()}) == 1);
  CHECK(ctx.error == "kernel `add`: argument 1 (`B`) has shape[0] = 999, expected 1000");

  HostTensor matrix({10, 100}, kF32);
  CHECK(ctx.call(fn, {matrix.arg(), b.arg(), c.arg()}) == 1);
  CHECK(ctx.error == "kernel `add`: argument 0 (`A`) has 2 dimensions, expected 1");

  HostTensor ints({1000}, kI32);
  CHECK(ctx.call(fn, {a.arg(), b.arg(), ints.arg()}) == 1);
  CHECK(ctx.error ==
        "kernel `add`: argument 2 (`C`) has dtype (code 0, 32 bits, 1 lanes), expected float32 "
        "(code 2, 32 bits, 1 lanes)");

  relax_arg number{};
  number.kind = kRelaxArgInt;
  number.value.i = 3;
  CHECK(ctx.call(fn, {a.arg(), number, c.arg()}) == 1);
  CHECK(ctx.error == "kernel `add`: argument 1 (`B`) must be a tensor");

  CHECK(ctx.call(fn, {a.arg(), b.arg()}) == 1);
  CHECK(ctx.error == "kernel `add`: expected 3 arguments, got 2");

  std::vector<int64_t> strides = {2};
  relax_arg strided = b.arg();
  b.tensor.strides = strides.data();
  CHECK(ctx.call(fn, {a.arg(), strided, c.arg()}) == 1);
  CHECK(ctx.error ==
        "kernel `add`: argument 1 (`B`) is not contiguous: stride[0] is 2, expected 1");
  b.tensor.strides = nullptr;

  CHECK(ctx.call(fn, {a.arg(), b.arg(), c.arg()}) == 0);
  CHECK(ctx.error.empty());
}

TEST_CASE("llvm jit: parallel and vectorized loops run through parallel_for") {
  auto lib = compile(R"(
@T.prim_func
def relu(A: T.Buffer((T.int64(64), T.int64(48)), "float32"), B: T.Buffer((T.int64(64), T.int64(48)), "float32")):
    for i in T.parallel(T.int64(64)):
        for jo in range(T.int64(3)):
            for ji in T.vectorized(T.int64(16)):
                with T.block("B"):
                    vi = T.axis.spatial(T.int64(64), i)
                    vj = T.axis.spatial(T.int64(48), jo * T.int64(16) + ji)
                    B[vi, vj] = T.max(A[vi, vj], T.float32(0)) + T.Cast("float32", vi)
)");
  HostTensor a({64, 48}, kF32), b({64, 48}, kF32);
  fill(a, 9);
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("relu"), {a.arg(), b.arg()}) == 0);
  CHECK(ctx.parallel_calls == 1);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 48; ++j)
      REQUIRE(b.data<float>()[i * 48 + j] ==
              std::max(a.data<float>()[i * 48 + j], 0.0f) + static_cast<float>(i));
}

TEST_CASE("llvm jit: a parallel loop over a symbolic extent with a local buffer") {
  auto lib = compile(R"(
@T.prim_func
def smooth(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(8)), "float32")
    B = T.match_buffer(b, (n, T.int64(8)), "float32")
    for i in T.parallel(n):
        with T.block("row"):
            vi = T.axis.spatial(n, i)
            tmp = T.alloc_buffer((T.int64(8),), "float32")
            for j in range(T.int64(8)):
                with T.block("t"):
                    vj = T.axis.spatial(T.int64(8), j)
                    tmp[vj] = A[vi, vj] * T.float32(2)
            for j in range(T.int64(8)):
                with T.block("b"):
                    vj = T.axis.spatial(T.int64(8), j)
                    B[vi, vj] = tmp[vj] + tmp[(vj + T.int64(1)) % T.int64(8)]
)");
  for (int64_t n : {3, 50}) {
    HostTensor a({n, 8}, kF32), b({n, 8}, kF32);
    fill(a, 11);
    TestKernelContext ctx;
    REQUIRE(ctx.call(lib->resolve("smooth"), {a.arg(), b.arg()}) == 0);
    for (int64_t i = 0; i < n; ++i)
      for (int j = 0; j < 8; ++j)
        REQUIRE(b.data<float>()[i * 8 + j] ==
                Approx(2 * a.data<float>()[i * 8 + j] + 2 * a.data<float>()[i * 8 + (j + 1) % 8]));
  }
}

TEST_CASE("llvm jit: integer floor division, modulo, select, min and casts") {
  auto lib = compile(R"(
@T.prim_func
def ints(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "int32"), C: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = T.floordiv(A[vi], 3) * 100 + T.floormod(A[vi], 3) + T.min(A[vi], 0) * 10000
            C[vi] = T.Select(A[vi] > 0, T.Cast("float32", A[vi]) / T.float32(2), T.float32(-1))
)");
  HostTensor a({16}, kI32), b({16}, kI32), c({16}, kF32);
  for (int i = 0; i < 16; ++i) a.data<int32_t>()[i] = i * 3 - 23;
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("ints"), {a.arg(), b.arg(), c.arg()}) == 0);
  for (int i = 0; i < 16; ++i) {
    int32_t x = a.data<int32_t>()[i];
    int32_t q = x / 3 - ((x % 3 != 0 && x < 0) ? 1 : 0);
    int32_t r = x - q * 3;
    CHECK(b.data<int32_t>()[i] == q * 100 + r + std::min(x, 0) * 10000);
    CHECK(c.data<float>()[i] == (x > 0 ? static_cast<float>(x) / 2 : -1.0f));
  }
}

TEST_CASE("llvm jit: scalar parameters and an assertion") {
  auto lib = compile(R"(
@T.prim_func
def axpy(alpha: T.float32, n: T.int32, A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    assert n <= 8, "n is at most 8"
    for i in range(n):
        B[i] = alpha * A[i] + B[i]
)");
  HostTensor a({8}, kF32), b({8}, kF32);
  for (int i = 0; i < 8; ++i) a.data<float>()[i] = static_cast<float>(i);
  relax_arg alpha{}, n{};
  alpha.kind = kRelaxArgFloat;
  alpha.value.f = 0.5;
  n.kind = kRelaxArgInt;
  n.value.i = 6;
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("axpy"), {alpha, n, a.arg(), b.arg()}) == 0);
  for (int i = 0; i < 8; ++i)
    CHECK(b.data<float>()[i] == (i < 6 ? 0.5f * static_cast<float>(i) : 0.0f));
  n.value.i = 9;
  CHECK(ctx.call(lib->resolve("axpy"), {alpha, n, a.arg(), b.arg()}) == 1);
  CHECK(ctx.error == "kernel `axpy`: n is at most 8");
}

TEST_CASE("llvm emit: the IR has one kernel per prim_func and vector code for vectorized loops") {
  ir::DiagnosticBag diags;
  std::string ir = cg::emit_llvm_ir(parse_kernels(R"(
@T.prim_func
def vadd(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in T.vectorized(64):
        with T.block("B"):
            vi = T.axis.spatial(64, i)
            B[vi] = A[vi] + T.float32(1)
)"),
                                    compiler::Target::host(), diags, false);
  CHECK(diags.empty());
  CHECK(ir.find("define i32 @vadd(ptr") != std::string::npos);
  CHECK(ir.find("<64 x float>") != std::string::npos);
  CHECK(ir.find("\"target-cpu\"") != std::string::npos);
}

TEST_CASE("llvm jit: E0710 an intrinsic the code generator does not know") {
  ir::DiagnosticBag diags;
  auto funcs = parse_kernels(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.call_intrin("float32", "tir.nonsense", A[i])
)");
  auto lib = cg::jit_compile(funcs, compiler::Target::host(), diags);
  CHECK(lib == nullptr);
  REQUIRE(diags.size() == 1);
  CHECK(diags.items()[0].code == "E0710");
  CHECK(diags.items()[0].message ==
        "prim_func `f`: the intrinsic `tir.nonsense` is not supported by LLVM code generation");
}

TEST_CASE("llvm jit: loops that start below zero and an if_then_else") {
  auto lib = compile(R"(
@T.prim_func
def shift(A: T.Buffer((10,), "float32"), B: T.Buffer((10,), "float32")):
    for i in range(-3, 7):
        B[i + 3] = T.if_then_else(i < 0, T.float32(-5), A[i + 3] * T.Cast("float32", i))
)");
  HostTensor a({10}, kF32), b({10}, kF32);
  fill(a, 13);
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("shift"), {a.arg(), b.arg()}) == 0);
  for (int i = -3; i < 7; ++i)
    CHECK(b.data<float>()[i + 3] ==
          (i < 0 ? -5.0f : a.data<float>()[i + 3] * static_cast<float>(i)));
}

TEST_CASE("llvm jit: E0714 two kernels with one name") {
  auto funcs = parse_kernels(kAdd);
  funcs.push_back(funcs[0]);
  ir::DiagnosticBag diags;
  CHECK(cg::jit_compile(funcs, compiler::Target::host(), diags) == nullptr);
  REQUIRE(diags.size() == 1);
  CHECK(diags.items()[0].code == "E0714");
}

TEST_CASE("llvm jit: a vectorized loop with a lane-varying condition uses masked memory accesses") {
  const char* text = R"(
@T.prim_func
def tail(n: T.int32, A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), F: T.Buffer((16,), "bool")):
    for i in T.vectorized(16):
        if i < n:
            B[i] = A[i] * T.float32(2)
            F[i] = A[i] > T.float32(0)
)";
  ir::DiagnosticBag diags;
  std::string ir = cg::emit_llvm_ir(parse_kernels(text), compiler::Target::host(), diags, false);
  CHECK(diags.empty());
  CHECK(ir.find("llvm.masked.store") != std::string::npos);
  CHECK(ir.find("llvm.masked.load") != std::string::npos);
  auto lib = compile(text);
  HostTensor a({16}, kF32), b({16}, kF32), f({16}, DLDataType{kDLUInt, 1, 1});
  f.storage.assign(16, 7);  // bool is one byte per element; untouched lanes keep 7
  fill(a, 17);
  for (int i = 0; i < 16; ++i) b.data<float>()[i] = 100.0f;
  relax_arg n{};
  n.kind = kRelaxArgInt;
  n.value.i = 11;
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("tail"), {n, a.arg(), b.arg(), f.arg()}) == 0);
  for (int i = 0; i < 16; ++i) {
    CHECK(b.data<float>()[i] == (i < 11 ? a.data<float>()[i] * 2 : 100.0f));
    CHECK(f.storage[static_cast<size_t>(i)] == (i < 11 ? (a.data<float>()[i] > 0 ? 1 : 0) : 7));
  }
}

TEST_CASE("llvm jit: gathers and scatters for strided vector accesses") {
  auto lib = compile(R"(
@T.prim_func
def transpose(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8, 8), "float32")):
    for i in range(8):
        for j in T.vectorized(8):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vj, vi] = A[vi, vj] + T.float32(1)
)");
  HostTensor a({8, 8}, kF32), b({8, 8}, kF32);
  fill(a, 19);
  TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("transpose"), {a.arg(), b.arg()}) == 0);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      REQUIRE(b.data<float>()[j * 8 + i] == a.data<float>()[i * 8 + j] + 1.0f);
}

TEST_CASE("llvm jit: T.ret sets the kernel's tagged result, and nothing when it is null") {
  auto lib = compile(R"(
@T.prim_func
def mul(N: T.int32, M: T.int32) -> T.int32:
    T.ret(N * M)

@T.prim_func
def half(x: T.float32) -> T.float32:
    T.ret(x / T.float32(2))
)");
  relax_arg n{}, m{}, x{};
  n.kind = m.kind = kRelaxArgInt;
  n.value.i = -6;
  m.value.i = 7;
  x.kind = kRelaxArgFloat;
  x.value.f = 5.0;
  TestKernelContext ctx;
  relax_arg args[2] = {n, m};
  relax_arg result{};
  result.kind = kRelaxArgNull;
  REQUIRE(lib->resolve("mul")(&ctx.ctx, args, 2, &result) == 0);
  CHECK(result.kind == kRelaxArgInt);
  CHECK(result.value.i == -42);
  REQUIRE(lib->resolve("half")(&ctx.ctx, &x, 1, &result) == 0);
  CHECK(result.kind == kRelaxArgFloat);
  CHECK(result.value.f == 2.5);
  CHECK(ctx.call(lib->resolve("mul"), {n, m}) == 0);  // a null result is left alone
}

TEST_CASE("llvm jit: E0710 for calls of prim_funcs that TIR cannot call") {
  ir::DiagnosticBag diags;
  auto funcs = parse_kernels(R"(
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        Module.callee(A.data)
        Module.scalar(A.data)

    @T.prim_func
    def callee(a: T.handle):
        n = T.int32()
        A = T.match_buffer(a, (n,))
        A[0] = T.float32(1)

    @T.prim_func
    def scalar(n: T.int32):
        T.evaluate(n)
)");
  auto lib = cg::jit_compile(funcs, compiler::Target::host(), diags);
  CHECK(lib == nullptr);
  std::vector<std::string> messages;
  for (const auto& d : diags.items()) messages.push_back(d.code + " " + d.message);
  CHECK(messages == std::vector<std::string>{
                        "E0710 prim_func `main`: argument 0 of `scalar` must be a scalar",
                        "E0710 prim_func `callee`: buffer `A` has a symbolic shape, so the "
                        "prim_func cannot be called from TIR"});
}

TEST_CASE("llvm jit: T.ret from inside a loop, and calls in a vectorized loop run per lane") {
  auto lib = compile(R"(
@I.ir_module
class Module:
    @T.prim_func
    def find(A: T.Buffer((8,), "int32"), v: T.int32) -> T.int32:
        for i in range(8):
            if A[i] == v:
                T.ret(i)
        T.ret(-1)

    @T.prim_func
    def count(C: T.Buffer((1,), "float32"), B: T.Buffer((4,), "float32")):
        for i in T.vectorized(4):
            B[i] = T.Cast("float32", i) * T.float32(10) + Module.bump(C.data)

    @T.prim_func
    def bump(C_data: T.handle("float32")) -> T.float32:
        C = T.decl_buffer(1, dtype="float32", data=C_data)
        C[0] = C[0] + T.float32(1)
        T.ret(C[0])
)");
  HostTensor a({8}, kI32);
  for (int i = 0; i < 8; ++i) a.data<int32_t>()[i] = 10 * i;
  TestKernelContext ctx;
  for (auto [value, index] : {std::pair{30, 3}, std::pair{0, 0}, std::pair{31, -1}}) {
    relax_arg args[2] = {a.arg(), {}};
    args[1].kind = kRelaxArgInt;
    args[1].value.i = value;
    relax_arg result{};
    REQUIRE(lib->resolve("find")(&ctx.ctx, args, 2, &result) == 0);
    CHECK(result.kind == kRelaxArgInt);
    CHECK(result.value.i == index);
  }
  HostTensor c({1}, kF32), b({4}, kF32);
  c.data<float>()[0] = 0;
  REQUIRE(ctx.call(lib->resolve("count"), {c.arg(), b.arg()}) == 0);
  CHECK(c.data<float>()[0] == 4.0f);
  CHECK(std::vector<float>(b.data<float>(), b.data<float>() + 4) ==
        std::vector<float>{1, 12, 23, 34});
}

// Schedule primitives (compiler/tir/schedule/schedule.h): the loop nests they produce, printed,
// and the numbers of scheduled kernels compiled with the LLVM JIT against plain C++ loops.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "compiler/codegen/llvm/llvm_codegen.h"
#include "compiler/tir/schedule/schedule.h"
#include "ir/module.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/compiler/llvm/kernel_test_util.h"

using namespace relax;
using relax::compiler::tir::Schedule;

namespace {

struct Parsed {
  ir::Ref<ir::IRModule> module;
  ir::Ref<ir::tir::PrimFunc> func;
};

Parsed parse(const std::string& src) {
  ir::DiagnosticBag diags;
  auto r = syntax::parse_text(src, "schedule_test.relax", diags);
  REQUIRE(diags.empty());
  auto pf = ir::as_prim_func(r.module->lookup("f"));
  REQUIRE(pf);
  return {r.module, pf};
}

// The function printed from `def` on.
std::string print(const Parsed& p, const ir::Ref<ir::tir::PrimFunc>& f) {
  auto m = ir::copy(p.module);
  m->add(m->global_var("f"), f);
  std::string text = syntax::print_functions(*m);
  auto def = text.find("def f");
  text = text.substr(def);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

const char* kMatmul = R"(
@T.prim_func
def f(A: T.Buffer((30, 20), "float32"), B: T.Buffer((20, 50), "float32"), C: T.Buffer((30, 50), "float32")):
    for i, j, k in T.grid(30, 50, 20):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)";

void check_matmul(const ir::Ref<ir::tir::PrimFunc>& f) {
  ir::DiagnosticBag diags;
  auto lib = compiler::codegen::jit_compile({{"f", f}}, compiler::Target::host(), diags);
  for (const auto& d : diags.items()) FAIL_CHECK(d.code << ": " << d.message);
  REQUIRE(lib);
  test::HostTensor a({30, 20}, test::kF32), b({20, 50}, test::kF32), c({30, 50}, test::kF32);
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int64_t i = 0; i < a.size(); ++i) a.data<float>()[i] = dist(gen);
  for (int64_t i = 0; i < b.size(); ++i) b.data<float>()[i] = dist(gen);
  test::TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("f"), {a.arg(), b.arg(), c.arg()}) == 0);
  for (int i = 0; i < 30; ++i)
    for (int j = 0; j < 50; ++j) {
      float ref = 0;
      for (int k = 0; k < 20; ++k) ref += a.data<float>()[i * 20 + k] * b.data<float>()[k * 50 + j];
      REQUIRE(c.data<float>()[i * 50 + j] == Approx(ref).epsilon(1e-5).margin(1e-5));
    }
}

}  // namespace

TEST_CASE("schedule: get_loops lists the loops around a block, outermost first") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  Schedule sch(p.func, diags);
  auto loops = sch.get_loops("C");
  REQUIRE(loops.size() == 3);
  CHECK(loops[0]->name == "i");
  CHECK(loops[2]->name == "k");
  CHECK(sch.get_loops("D").empty());
  REQUIRE(diags.size() == 1);
  CHECK(diags.items()[0].code == "E0721");
}

TEST_CASE("schedule: split with an inexact factor adds a block predicate") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  Schedule sch(p.func, diags);
  auto loops = sch.get_loops("C");
  auto parts = sch.split(loops[1], {-1, 16});
  REQUIRE(parts.size() == 2);
  CHECK(diags.empty());
  CHECK(
      print(p, sch.func()) ==
      R"(def f(A: T.Buffer((30, 20), "float32"), B: T.Buffer((20, 50), "float32"), C: T.Buffer((30, 50), "float32")):
    # with T.block("root"):
    for i, j_0, j_1, k in T.grid(30, 4, 16, 20):
        with T.block("C"):
            vi = T.axis.spatial(30, i)
            vj = T.axis.spatial(50, j_0 * 16 + j_1)
            vk = T.axis.reduce(20, k)
            T.where(j_0 * 16 + j_1 < 50)
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0.0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj])");
  check_matmul(sch.func());
}

TEST_CASE("schedule: split, reorder, parallel and vectorize keep the matmul's numbers") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  Schedule sch(p.func, diags);
  auto loops = sch.get_loops("C");
  auto j = sch.split(loops[1], {-1, 10});
  REQUIRE(j.size() == 2);
  REQUIRE(sch.reorder({loops[0], j[0], loops[2], j[1]}));
  REQUIRE(sch.parallel(loops[0]));
  REQUIRE(sch.vectorize(j[1]));
  CHECK(diags.empty());
  std::string text = print(p, sch.func());
  CHECK(text.find("for i in T.parallel(30):") != std::string::npos);
  CHECK(text.find("for j_0, k in T.grid(5, 20):") != std::string::npos);
  CHECK(text.find("for j_1 in T.vectorized(10):") != std::string::npos);
  check_matmul(sch.func());
}

TEST_CASE("schedule: fuse two loops and unroll the inner split") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  Schedule sch(p.func, diags);
  auto loops = sch.get_loops("C");
  auto fused = sch.fuse({loops[0], loops[1]});
  REQUIRE(fused);
  CHECK(fused->name == "i_j_fused");
  auto k = sch.split(loops[2], {5, 4});
  REQUIRE(k.size() == 2);
  REQUIRE(sch.unroll(k[1]));
  CHECK(diags.empty());
  std::string text = print(p, sch.func());
  CHECK(text.find("for i_j_fused, k_0 in T.grid(1500, 5):") != std::string::npos);
  CHECK(text.find("vi = T.axis.spatial(30, i_j_fused // 50)") != std::string::npos);
  CHECK(text.find("vj = T.axis.spatial(50, i_j_fused % 50)") != std::string::npos);
  CHECK(text.find("for k_1 in T.unroll(4):") != std::string::npos);
  check_matmul(sch.func());
}

TEST_CASE("schedule: errors for bad factors and loops that are not a nest") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  Schedule sch(p.func, diags);
  auto loops = sch.get_loops("C");
  CHECK(sch.split(loops[0], {4, 4}).empty());  // 16 < 30
  CHECK(sch.split(loops[0], {-1, -1}).empty());
  CHECK(sch.fuse({loops[0], loops[2]}) == nullptr);  // k is not directly inside i
  CHECK(sch.func().same_as(p.func));
  std::vector<std::string> codes;
  for (const auto& d : diags.items()) codes.push_back(d.code);
  CHECK(codes == std::vector<std::string>{"E0722", "E0722", "E0723"});
}

TEST_CASE("schedule: a loop feeding a reduction iterator is not made parallel or vectorized") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  Schedule sch(p.func, diags);
  auto loops = sch.get_loops("C");
  CHECK_FALSE(sch.parallel(loops[2]));
  CHECK_FALSE(sch.vectorize(loops[2]));
  CHECK(sch.unroll(loops[2]));  // unrolling keeps the order
  REQUIRE(diags.size() == 2);
  CHECK(diags.items()[0].code == "E0725");
  CHECK(diags.items()[0].message ==
        "schedule: cannot parallelize loop `k`: it feeds the reduction iterator `vk` of block `C` "
        "(not data parallel)");
  CHECK(diags.items()[1].message.find("cannot vectorize loop `k`") != std::string::npos);
  CHECK(sch.parallel(loops[0]));
}

TEST_CASE("default cpu schedule: a function marked tir.is_scheduled is left alone") {
  auto p = parse(kMatmul);
  auto marked = ir::copy(p.func);
  marked->attrs.set("tir.is_scheduled", ir::tir::bool_imm(true));
  ir::DiagnosticBag diags;
  CHECK(
      compiler::tir::default_cpu_schedule(marked, compiler::Target::host(), diags).same_as(marked));
  CHECK_FALSE(
      compiler::tir::default_cpu_schedule(p.func, compiler::Target::host(), diags).same_as(p.func));
}

TEST_CASE("schedule: an inexact split vectorized on the inside keeps the matmul's numbers") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  Schedule sch(p.func, diags);
  auto loops = sch.get_loops("C");
  auto j = sch.split(loops[1], {-1, 16});
  REQUIRE(sch.reorder({loops[0], j[0], loops[2], j[1]}));
  REQUIRE(sch.vectorize(j[1]));
  CHECK(diags.empty());
  check_matmul(sch.func());
}

TEST_CASE("default cpu schedule: matmul gets parallel spatial loops and a vectorized inner loop") {
  auto p = parse(kMatmul);
  ir::DiagnosticBag diags;
  compiler::Target target;
  target.vector_bits = 512;
  auto f = compiler::tir::default_cpu_schedule(p.func, target, diags);
  CHECK(diags.empty());
  std::string text = print(p, f);
  CHECK(text.find("for i_j_0_fused in T.parallel(120):") != std::string::npos);
  CHECK(text.find("for k in range(20):") != std::string::npos);
  CHECK(text.find("for j_1 in T.vectorized(16):") != std::string::npos);
  check_matmul(f);
  // Scheduling a scheduled function again changes nothing.
  CHECK(compiler::tir::default_cpu_schedule(f, target, diags).same_as(f));
}

TEST_CASE(
    "default cpu schedule: a row reduction vectorizes the spatial loop, never the reduction") {
  auto p = parse(R"(
@T.prim_func
def f(A: T.Buffer((8, 100), "float32"), S: T.Buffer((8,), "float32")):
    for i, k in T.grid(8, 100):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + A[vi, vk]
)");
  ir::DiagnosticBag diags;
  auto f = compiler::tir::default_cpu_schedule(p.func, compiler::Target::host(), diags);
  CHECK(diags.empty());
  std::string text = print(p, f);
  CHECK(text.find("for k in range(100):") != std::string::npos);
  CHECK(text.find("for i in T.vectorized(8):") != std::string::npos);
  CHECK(text.find("T.parallel") == std::string::npos);

  auto lib = compiler::codegen::jit_compile({{"f", f}}, compiler::Target::host(), diags);
  REQUIRE(lib);
  test::HostTensor a({8, 100}, test::kF32), s({8}, test::kF32);
  for (int64_t i = 0; i < a.size(); ++i) a.data<float>()[i] = static_cast<float>(i % 13) * 0.5f;
  test::TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("f"), {a.arg(), s.arg()}) == 0);
  for (int i = 0; i < 8; ++i) {
    float ref = 0;
    for (int k = 0; k < 100; ++k) ref += a.data<float>()[i * 100 + k];
    CHECK(s.data<float>()[i] == Approx(ref).epsilon(1e-6));
  }
}

TEST_CASE("default cpu schedule: a symbolic elementwise function runs for several sizes") {
  auto p = parse(R"(
@T.prim_func
def f(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(40)), "float32")
    B = T.match_buffer(b, (n, T.int64(40)), "float32")
    for i, j in T.grid(n, T.int64(40)):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.exp(A[vi, vj])
)");
  ir::DiagnosticBag diags;
  compiler::Target target;
  target.vector_bits = 256;
  auto f = compiler::tir::default_cpu_schedule(p.func, target, diags);
  CHECK(diags.empty());
  std::string text = print(p, f);
  CHECK(text.find("for i_j_0_fused in T.parallel(T.int64(5) * n):") != std::string::npos);
  CHECK(
      text.find("vj = T.axis.spatial(T.int64(40), i_j_0_fused % T.int64(5) * T.int64(8) + j_1)") !=
      std::string::npos);
  CHECK(text.find("T.vectorized(T.int64(8))") != std::string::npos);
  auto lib = compiler::codegen::jit_compile({{"f", f}}, compiler::Target::host(), diags);
  REQUIRE(lib);
  for (int64_t n : {1, 3, 17}) {
    test::HostTensor a({n, 40}, test::kF32), b({n, 40}, test::kF32);
    for (int64_t i = 0; i < a.size(); ++i) a.data<float>()[i] = static_cast<float>(i % 7) * 0.1f;
    test::TestKernelContext ctx;
    REQUIRE(ctx.call(lib->resolve("f"), {a.arg(), b.arg()}) == 0);
    for (int64_t i = 0; i < a.size(); ++i)
      REQUIRE(b.data<float>()[i] == Approx(std::exp(a.data<float>()[i])));
  }
}

TEST_CASE("default cpu schedule: imperative blocks (scatters) keep their serial loops") {
  // The form of the scatter legalizations: one block without iteration variables whose body
  // copies, then applies the updates in order; and TVM's form, a loop around such a block. The
  // updates' loop carries a dependence (duplicate indices), so it must stay serial.
  auto p = parse(R"(
@T.prim_func
def f(A: T.Buffer((6,), "float32"), I: T.Buffer((4,), "int64"), U: T.Buffer((4,), "float32"), B: T.Buffer((6,), "float32"), C: T.Buffer((6,), "float32")):
    with T.block("B"):
        T.reads(A[0:6], I[0:4], U[0:4])
        T.writes(B[0:6])
        for i in range(6):
            B[i] = A[i]
        for j in range(4):
            B[I[j]] = B[I[j]] * T.float32(0.5) + U[j]
    for i in range(6):
        with T.block("C_init"):
            C[i] = A[i]
    for j in range(4):
        with T.block("C"):
            C[I[j]] = C[I[j]] * T.float32(0.5) + U[j]
)");
  ir::DiagnosticBag diags;
  compiler::Target target;
  target.vector_bits = 256;
  auto f = compiler::tir::default_cpu_schedule(p.func, target, diags);
  CHECK(diags.empty());
  std::string text = print(p, f);
  INFO(text);
  CHECK(text.find("T.parallel") == std::string::npos);
  CHECK(text.find("T.vectorized") == std::string::npos);
  auto lib = compiler::codegen::jit_compile({{"f", f}}, compiler::Target::host(), diags);
  for (const auto& d : diags.items()) FAIL_CHECK(d.code << ": " << d.message);
  REQUIRE(lib);
  test::HostTensor a({6}, test::kF32), ind({4}, test::kI64), u({4}, test::kF32), b({6}, test::kF32),
      c({6}, test::kF32);
  const int64_t idx[4] = {2, 5, 2, 2};
  for (int64_t k = 0; k < 6; ++k) a.data<float>()[k] = static_cast<float>(k + 1);
  for (int64_t k = 0; k < 4; ++k) {
    ind.data<int64_t>()[k] = idx[k];
    u.data<float>()[k] = static_cast<float>(10 * (k + 1));
  }
  test::TestKernelContext ctx;
  REQUIRE(ctx.call(lib->resolve("f"), {a.arg(), ind.arg(), u.arg(), b.arg(), c.arg()}) == 0);
  float want[6] = {1, 2, 3, 4, 5, 6};
  for (int64_t k = 0; k < 4; ++k)
    want[idx[k]] = want[idx[k]] * 0.5f + static_cast<float>(10 * (k + 1));
  for (int64_t k = 0; k < 6; ++k) {
    CHECK(b.data<float>()[k] == want[k]);
    CHECK(c.data<float>()[k] == want[k]);
  }
}

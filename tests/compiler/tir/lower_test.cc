// TIR lowering (compiler/tir/lower.h): prim_funcs parsed from text, lowered for the host CPU,
// compared with the printed loop form. Each case names what the step under test must do.
#include <catch2/catch.hpp>

#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"
#include "ir/module.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

using namespace relax;
namespace ctir = relax::compiler::tir;

namespace {

struct Lowered {
  std::string text;                // the lowered function, printed; empty on failure
  std::vector<std::string> codes;  // diagnostic codes reported
  std::vector<std::string> steps;  // the steps run
};

// Parses `src` (one prim_func named `f`), lowers it and prints the result.
Lowered lower(const std::string& src, ctir::LowerOptions options = {}) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(src, "lower_test.relax", diags);
  REQUIRE(diags.empty());
  auto pf = ir::as_prim_func(parsed.module->lookup("f"));
  REQUIRE(pf);
  Lowered out;
  options.verify = true;
  options.after_step = [&](const std::string& step, const ir::Ref<ir::tir::PrimFunc>&) {
    out.steps.push_back(step);
  };
  auto low = ctir::lower_prim_func(pf, compiler::Target::host(), diags, options);
  for (const auto& d : diags.items()) out.codes.push_back(d.code);
  if (!low) return out;
  CHECK(ctir::is_lowered(*low));
  auto m = ir::copy(parsed.module);
  m->add(m->global_var("f"), low);
  out.text = syntax::print_functions(*m);
  // Compare from `def` on, without the header and the final newline.
  const std::string header = "# from tvm.script import tir as T\n\n@T.prim_func\n";
  if (out.text.rfind(header, 0) == 0) out.text = out.text.substr(header.size());
  while (!out.text.empty() && out.text.back() == '\n') out.text.pop_back();
  return out;
}

}  // namespace

TEST_CASE("tir lower: a reduction block with init becomes loops with a guarded init") {
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((4, 8), "float32"), B: T.Buffer((8, 4), "float32"), C: T.Buffer((4, 4), "float32")):
    for i, j, k in T.grid(4, 4, 8):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)");
  CHECK(r.codes.empty());
  CHECK(
      r.text ==
      R"(def f(A: T.Buffer((4, 8), "float32"), B: T.Buffer((8, 4), "float32"), C: T.Buffer((4, 4), "float32")):
    for i, j, k in T.grid(4, 4, 8):
        C_1 = T.Buffer((16,), data=C.data)
        if k == 0:
            C_1[i * 4 + j] = T.float32(0.0)
        A_1 = T.Buffer((32,), data=A.data)
        B_1 = T.Buffer((32,), data=B.data)
        C_1[i * 4 + j] = C_1[i * 4 + j] + A_1[i * 8 + k] * B_1[k * 4 + j])");
  CHECK(r.steps == std::vector<std::string>{"LowerInitBlock", "ConvertBlocksToOpaque",
                                            "LowerMatchBuffer", "LowerOpaqueBlock", "FlattenBuffer",
                                            "Simplify", "LowerParallelLoops", "VectorizeLoop",
                                            "UnrollLoop", "Simplify"});
}

TEST_CASE("tir lower: match_buffer parameters with a symbolic shape flatten to n * 4 elements") {
  auto r = lower(R"(
@T.prim_func
def f(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(4)), "float32")
    B = T.match_buffer(b, (n, T.int64(4)), "float32")
    for i, j in T.grid(n, T.int64(4)):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.exp(A[vi, vj])
)");
  CHECK(r.codes.empty());
  CHECK(r.text == R"(def f(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(4)))
    B = T.match_buffer(b, (n, T.int64(4)))
    for i, j in T.grid(n, T.int64(4)):
        B_1 = T.Buffer((n * T.int64(4),), data=B.data)
        A_1 = T.Buffer((n * T.int64(4),), data=A.data)
        B_1[i * T.int64(4) + j] = T.exp(A_1[i * T.int64(4) + j]))");
}

TEST_CASE("tir lower: a match_buffer inside a block becomes accesses of its source") {
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("outer"):
            vi = T.axis.spatial(16, i)
            sub = T.match_buffer(A[vi, 0:16], (16,))
            for j in range(16):
                with T.block("inner"):
                    vj = T.axis.remap("S", [j])
                    B[vi] = B[vi] + sub[vj]
)");
  CHECK(r.codes.empty());
  CHECK(r.text == R"(def f(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    for i, j in T.grid(16, 16):
        A_1 = T.Buffer((256,), data=A.data)
        B[i] = B[i] + A_1[i * 16 + j])");
}

TEST_CASE("tir lower: alloc_buffer of the root block becomes a local allocation") {
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    tmp = T.alloc_buffer((8,), "float32")
    for i in range(8):
        with T.block("t"):
            vi = T.axis.spatial(8, i)
            tmp[vi] = A[vi] * T.float32(2)
    for i in range(8):
        with T.block("b"):
            vi = T.axis.spatial(8, i)
            B[vi] = tmp[vi] + T.float32(1)
)");
  CHECK(r.codes.empty());
  CHECK(r.text == R"(def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    tmp = T.decl_buffer((8,))
    for i in range(8):
        tmp[i] = A[i] * T.float32(2.0)
    for i in range(8):
        B[i] = tmp[i] + T.float32(1.0))");
}

TEST_CASE("tir lower: a block predicate becomes an if around the body") {
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((10,), "float32"), B: T.Buffer((10,), "float32")):
    for io, ii in T.grid(3, 4):
        with T.block("b"):
            vi = T.axis.spatial(10, io * 4 + ii)
            T.where(io * 4 + ii < 10)
            B[vi] = A[vi]
)");
  CHECK(r.codes.empty());
  CHECK(r.text == R"(def f(A: T.Buffer((10,), "float32"), B: T.Buffer((10,), "float32")):
    for io, ii in T.grid(3, 4):
        if io * 4 + ii < 10:
            B[io * 4 + ii] = A[io * 4 + ii])");
}

TEST_CASE(
    "tir lower: a vectorized inner loop becomes ramps and broadcasts, the parallel loop stays") {
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((64, 16), "float32"), B: T.Buffer((64, 16), "float32")):
    for i in T.parallel(64):
        for j in T.vectorized(16):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)
)");
  CHECK(r.codes.empty());
  CHECK(r.text.find("for i in T.parallel(64):") != std::string::npos);
  CHECK(
      r.text.find(
          "B_1[i * 16:i * 16 + 16] = A_1[i * 16:i * 16 + 16] + T.Broadcast(T.float32(1.0), 16)") !=
      std::string::npos);
  CHECK(r.text.find("vectorized") == std::string::npos);
}

TEST_CASE("tir lower: without explicit vectors a vectorized loop stays a loop") {
  ctir::LowerOptions options;
  options.explicit_vectors = false;
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for j in T.vectorized(16):
        with T.block("b"):
            vj = T.axis.remap("S", [j])
            B[vj] = A[vj]
)",
                 options);
  CHECK(r.codes.empty());
  CHECK(r.text.find("T.vectorized(16)") != std::string::npos);
}

TEST_CASE("tir lower: a short unrolled loop is replicated") {
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for i in T.unroll(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            B[vi] = A[vi]
)");
  CHECK(r.codes.empty());
  CHECK(r.text == R"(def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    B[0] = A[0]
    B[1] = A[1]
    B[2] = A[2]
    B[3] = A[3])");
}

TEST_CASE("tir lower: E0700 a thread binding on a CPU target") {
  auto r = lower(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in T.thread_binding(4, thread="threadIdx.x"):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            A[vi] = T.float32(0)
)");
  CHECK(r.text.empty());
  CHECK(r.codes == std::vector<std::string>{"E0700"});
}

TEST_CASE("tir lower: lowering a lowered function again changes nothing") {
  const char* src = R"(
@T.prim_func
def f(A: T.Buffer((4, 8), "float32"), C: T.Buffer((4,), "float32")):
    for i, k in T.grid(4, 8):
        with T.block("C"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                C[vi] = T.float32(0)
            C[vi] = C[vi] + A[vi, vk]
)";
  auto once = lower(src);
  REQUIRE(once.codes.empty());
  auto twice = lower("@T.prim_func\n" + once.text + "\n");
  CHECK(twice.codes.empty());
  CHECK(twice.text == once.text);
}

TEST_CASE("tir lower: the steps as module passes print after each step") {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(R"(
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
        for i, j in T.grid(4, 4):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj]
)",
                                   "passes_test.relax", diags);
  REQUIRE(diags.empty());
  auto passes = ctir::lowering_passes(compiler::Target::host());
  REQUIRE(passes.size() == 11);
  CHECK(passes[4].name == "tir.InstrumentBoundCheckers");  // a no-op without bounds checking
  CHECK(passes[5].name == "tir.FlattenBuffer");
  compiler::PassContext ctx;
  std::ostringstream log;
  ctx.log = &log;
  ctx.print_after = {"tir.FlattenBuffer"};
  auto out = compiler::run_pass(compiler::sequential("tir.Lower", passes), parsed.module, ctx);
  REQUIRE(out);
  CHECK(ctx.diagnostics().empty());
  auto pf = ir::as_prim_func(out->lookup("f"));
  REQUIRE(pf);
  CHECK(ctir::is_lowered(*pf));
  CHECK(log.str().find("B_1[i * 4 + j] = A_1[i * 4 + j]") != std::string::npos);
}

TEST_CASE("compiler TIR helpers fold constants only to their exact value") {
  namespace irt = ir::tir;
  using irt::as_const_int;
  const int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = -kMax - 1;
  auto i64 = [](int64_t v) { return irt::int_imm(ir::DataType::Int64(), v); };
  auto i32 = [](int64_t v) { return irt::int_imm(ir::DataType::Int32(), v); };
  CHECK(as_const_int(ctir::add(i64(kMax - 1), i64(1))) == kMax);
  CHECK(as_const_int(ctir::mul(i64(1), i64(kMin))) == kMin);
  CHECK(as_const_int(ctir::ceildiv(i64(-4), i64(3))) == -1);  // ceil(-1.33)
  CHECK(as_const_int(ctir::ceildiv(i64(kMax), i64(2))) == kMax / 2 + 1);
  CHECK(as_const_int(ctir::floordiv(i64(-7), i64(2))) == -4);
  CHECK(as_const_int(ctir::floormod(i64(kMin), i64(-1))) == 0);
  // Past int64, past int32, INT64_MIN / -1 and a cast that does not fit: the node is kept (the
  // value is computed, and wraps, where the kernel runs).
  CHECK(ctir::add(i64(kMax), i64(1))->kind() == ir::ObjectKind::kAdd);
  CHECK(ctir::sub(i64(kMin), i64(1))->kind() == ir::ObjectKind::kSub);
  CHECK(ctir::mul(i64(int64_t{1} << 62), i64(4))->kind() == ir::ObjectKind::kMul);
  CHECK(ctir::add(i32(2147483647), i32(1))->kind() == ir::ObjectKind::kAdd);
  CHECK(ctir::floordiv(i64(kMin), i64(-1))->kind() == ir::ObjectKind::kFloorDiv);
  CHECK(as_const_int(ctir::ceildiv(i64(kMax), i64(kMax - 1))) == 2);
  CHECK(as_const_int(ctir::ceildiv(i64(kMin), i64(2))) == kMin / 2);
  auto narrowed = ctir::cast(ir::DataType::Int32(), i64(int64_t{1} << 32));
  CHECK(narrowed->kind() == ir::ObjectKind::kCast);
  CHECK(as_const_int(ctir::cast(ir::DataType::Int32(), i64(-5))) == -5);
}

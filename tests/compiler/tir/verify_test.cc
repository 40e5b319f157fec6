// The TIR verifier (compiler/tir/verify.h): well-formed functions pass; each defect reports its
// code. Defects are made by editing parsed functions, since the front end rejects most of them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "compiler/tir/verify.h"
#include "ir/module.h"
#include "syntax/frontend.h"

using namespace relax;
using namespace relax::ir::tir;
namespace ctir = relax::compiler::tir;

namespace {

ir::Ref<PrimFunc> parse(const std::string& src) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(src, "verify_test.relax", diags);
  REQUIRE(diags.empty());
  auto pf = ir::as_prim_func(parsed.module->lookup("f"));
  REQUIRE(pf);
  return pf;
}

std::vector<std::string> verify(const PrimFunc& f, ctir::VerifyOptions options = {}) {
  ir::DiagnosticBag diags;
  bool ok = ctir::verify_prim_func(f, diags, options);
  std::vector<std::string> codes;
  for (const auto& d : diags.items()) codes.push_back(d.code);
  CHECK(ok == codes.empty());
  return codes;
}

const char* kLoops = R"(
@T.prim_func
def f(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
    for i, j in T.grid(4, 4):
        B[i, j] = A[i, j] + T.float32(1)
)";

const char* kBlocks = R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            B[vi] = A[vi]
)";

ir::Ref<BufferStore> inner_store(const ir::Ref<PrimFunc>& f) {
  auto outer = f->body.as<For>();
  REQUIRE(outer);
  auto inner = outer->body.as<For>();
  REQUIRE(inner);
  auto store = inner->body.as<BufferStore>();
  REQUIRE(store);
  return store;
}

}  // namespace

TEST_CASE("tir verify: loops and block functions are well formed") {
  CHECK(verify(*parse(kLoops), {.lowered = true}).empty());
  CHECK(verify(*parse(kBlocks)).empty());
}

TEST_CASE("tir verify: E0705 a block left in a lowered function") {
  CHECK(verify(*parse(kBlocks), {.lowered = true}) == std::vector<std::string>{"E0705"});
}

TEST_CASE("tir verify: E0702 a variable used outside its loop") {
  auto f = parse(kLoops);
  auto store = inner_store(f);
  auto stray = ir::make<Var>("k", ir::DataType::Int32());
  store->indices[1] = stray;
  auto codes = verify(*f, {.lowered = true});
  CHECK(codes == std::vector<std::string>{"E0702"});
}

TEST_CASE("tir verify: E0703 wrong number of indices and wrong stored type") {
  auto f = parse(kLoops);
  auto store = inner_store(f);
  store->indices.pop_back();
  CHECK(verify(*f, {.lowered = true}) == std::vector<std::string>{"E0703"});

  auto g = parse(kLoops);
  inner_store(g)->value = int32(1);
  CHECK(verify(*g, {.lowered = true}) == std::vector<std::string>{"E0703"});
}

TEST_CASE("tir verify: E0704 a loop with a float extent") {
  auto f = parse(kLoops);
  f->body.as<For>()->extent = float_imm(ir::DataType::Float32(), 4.0);
  CHECK(verify(*f, {.lowered = true}) == std::vector<std::string>{"E0704"});
}

TEST_CASE("tir verify: E0700 a thread-bound loop on a CPU target only") {
  auto f = parse(kLoops);
  f->body.as<For>()->for_kind = ForKind::kThreadBinding;
  f->body.as<For>()->thread_binding = ir::make<IterVar>(nullptr, f->body.as<For>()->loop_var,
                                                        IterType::kThreadIndex, "threadIdx.x");
  CHECK(verify(*f, {.lowered = true}) == std::vector<std::string>{"E0700"});
  CHECK(verify(*f, {.lowered = true, .cpu = false}).empty());
}

// The tensor-expression builder: stage structure of the PrimFuncs it builds (root block with the
// intermediate buffers, one block per stage, spatial then reduce iteration variables, reads and
// writes, init of reductions) and their values through the interpreter.
#include <catch2/catch.hpp>

#include "compiler/te/te.h"
#include "compiler/tir_eval/tir_eval.h"
#include "syntax/printer.h"

using namespace relax;
using namespace relax::compiler;
using ir::DataType;
using ir::Ref;
namespace tir = ir::tir;

namespace {

// The blocks of a function's root, in order.
std::vector<Ref<tir::Block>> stage_blocks(const tir::PrimFunc& f) {
  std::vector<Ref<tir::Block>> out;
  auto root = f.body.as<tir::BlockRealize>()->block;
  std::vector<Ref<tir::Stmt>> stmts;
  if (auto seq = root->body.as<tir::SeqStmt>())
    stmts = seq->seq;
  else
    stmts = {root->body};
  for (auto s : stmts) {
    while (auto loop = s.as<tir::For>()) s = loop->body;
    out.push_back(s.as<tir::BlockRealize>()->block);
  }
  return out;
}

}  // namespace

TEST_CASE("te: a compute then a reduction, with a symbolic dim") {
  auto n = ir::make<tir::Var>("n", DataType::Int64());
  te::Builder b;
  te::Tensor a = b.placeholder({n, te::i64(3)}, DataType::Float32(), "A");
  te::Tensor sq = b.compute(
      a.shape(), DataType::Float32(), "T_multiply",
      [&](const te::Exprs& i) { return te::mul(a(i), a(i)); }, "ax");
  te::Tensor red = b.reduce({n}, {te::i64(3)}, te::ReduceKind::kSum, DataType::Float32(),
                            "T_multiply_red", [&](const te::Exprs& i, const te::Exprs& k) {
                              return sq({i[0], k[0]});
                            });
  auto f = b.build({a, red});
  REQUIRE(f->params.size() == 2);
  CHECK(f->buffer_of(f->params[0])->name == "A");
  CHECK(f->buffer_of(f->params[1])->name == "T_multiply_red");
  auto root = f->body.as<tir::BlockRealize>()->block;
  CHECK(root->name_hint == "root");
  REQUIRE(root->alloc_buffers.size() == 1);
  CHECK(root->alloc_buffers[0]->name == "T_multiply");
  auto blocks = stage_blocks(*f);
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0]->name_hint == "T_multiply");
  CHECK(!blocks[0]->init);
  CHECK(blocks[0]->reads.size() == 1);
  CHECK(blocks[1]->name_hint == "T_multiply_red");
  REQUIRE(blocks[1]->iter_vars.size() == 2);
  CHECK(blocks[1]->iter_vars[0]->iter_type == tir::IterType::kDataPar);
  CHECK(blocks[1]->iter_vars[1]->iter_type == tir::IterType::kCommReduce);
  CHECK(blocks[1]->iter_vars[1]->var->name == "v_k0");
  CHECK(blocks[1]->init);
  // The reduction reads the intermediate, not its own output.
  REQUIRE(blocks[1]->reads.size() == 1);
  CHECK(blocks[1]->reads[0]->buffer->name == "T_multiply");
  CHECK(f->attrs.contains("tir.noalias"));

  tir_eval::HostArray in(DataType::Float32(), {2, 3});
  in.f = {1, 2, 3, -1, 0.5, 2};
  tir_eval::HostArray out(DataType::Float32(), {2});
  tir_eval::run(*f, {&in, &out});
  CHECK(out.f[0] == 14.0);
  CHECK(out.f[1] == 5.25);
}

TEST_CASE("te: reduction identities and combiners") {
  using te::ReduceKind;
  auto f32 = DataType::Float32();
  CHECK(te::reduce_identity(ReduceKind::kSum, f32).as<tir::FloatImm>()->value == 0.0);
  CHECK(te::reduce_identity(ReduceKind::kProd, f32).as<tir::FloatImm>()->value == 1.0);
  CHECK(te::reduce_identity(ReduceKind::kMax, f32).as<tir::FloatImm>()->value < -3.4e38);
  CHECK(te::reduce_identity(ReduceKind::kMin, DataType::Int32()).as<tir::IntImm>()->value ==
        2147483647);
  CHECK(te::reduce_identity(ReduceKind::kMax, DataType::Int(8)).as<tir::IntImm>()->value == -128);
  CHECK(te::reduce_identity(ReduceKind::kMax, DataType::UInt(8)).as<tir::IntImm>()->value == 0);
  auto x = te::const_of(f32, 2), y = te::const_of(f32, 3);
  CHECK(te::reduce_combine(ReduceKind::kMax, x, y)->kind() == ir::ObjectKind::kMax);
  CHECK(te::reduce_combine(ReduceKind::kProd, x, y)->kind() == ir::ObjectKind::kMul);
}

TEST_CASE("te: a given init value and a max reduction print as TVM writes them") {
  te::Builder b;
  te::Tensor a = b.placeholder({te::i64(4)}, DataType::Float32(), "A");
  te::Tensor m = b.reduce({}, {te::i64(4)}, te::ReduceKind::kMax, DataType::Float32(), "A_red",
                          [&](const te::Exprs&, const te::Exprs& k) { return a(k); }, {}, {"k0"});
  ir::IRModule mod;
  mod.add(ir::make<ir::GlobalVar>("max"), b.build({a, m}));
  std::string text = syntax::print_module(mod);
  INFO(text);
  CHECK(
      text.find(
          "def max(A: T.Buffer((T.int64(4),), \"float32\"), A_red: T.Buffer((), \"float32\")):") !=
      std::string::npos);
  CHECK(text.find("A_red[()] = T.max(A_red[()], A[v_k0])") != std::string::npos);
  CHECK(text.find("A_red[()] = T.float32(-340282346638528859811704183484516925440.0)") !=
        std::string::npos);
}

TEST_CASE("te: a hand-written stage is one block without iteration variables around its loops") {
  te::Builder b;
  te::Tensor a = b.placeholder({te::i64(4)}, DataType::Float32(), "A");
  te::Tensor sq = b.compute(
      a.shape(), DataType::Float32(), "T_sq",
      [&](const te::Exprs& i) { return te::mul(a(i), a(i)); }, "ax");
  // A running sum: out[k] = out[k - 1] + sq[k], a loop-carried dependence.
  te::Tensor run =
      b.opaque({te::i64(4)}, DataType::Float32(), "T_run", {sq}, [&](const te::Tensor& out) {
        auto init = te::store(out, {te::i64(0)}, sq({te::i64(0)}));
        auto loop = te::loop_nest(
            {te::i64(3)},
            [&](const te::Exprs& i) {
              te::Expr k = te::add(i[0], te::i64(1));
              return te::store(out, {k}, te::add(out({i[0]}), sq({k})));
            },
            "j");
        return te::seq({init, loop});
      });
  auto f = b.build({a, run});
  auto root = f->body.as<tir::BlockRealize>()->block;
  REQUIRE(root->alloc_buffers.size() == 1);
  auto seq = root->body.as<tir::SeqStmt>();
  REQUIRE(seq);
  REQUIRE(seq->seq.size() == 2);
  auto realize = seq->seq[1].as<tir::BlockRealize>();
  REQUIRE(realize);
  CHECK(realize->iter_values.empty());
  CHECK(realize->block->iter_vars.empty());
  CHECK(realize->block->name_hint == "T_run");
  REQUIRE(realize->block->reads.size() == 1);
  CHECK(realize->block->reads[0]->buffer->name == "T_sq");
  REQUIRE(realize->block->writes.size() == 1);
  CHECK(realize->block->writes[0]->buffer->name == "T_run");
  tir_eval::HostArray in(DataType::Float32(), {4});
  in.f = {1, 2, 3, 4};
  tir_eval::HostArray out(DataType::Float32(), {4});
  tir_eval::run(*f, {&in, &out});
  CHECK(out.f == std::vector<double>{1, 5, 14, 30});
}

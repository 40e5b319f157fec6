// Structural equality and hashing: alpha-equivalence of variables, spans ignored, module member
// order ignored, real differences detected.
#include <catch2/catch.hpp>

#include "ir/expr.h"
#include "ir/module.h"
#include "ir/structural_equal.h"

using namespace relax::ir;

namespace {

// fn(x: Tensor((n, 4), f32)) -> add(x, x), built with the given names.
Ref<Function> make_fn(const std::string& xname, const std::string& nname, int64_t dim = 4,
                      Span span = {}) {
  auto n = make<tir::Var>(nname, DataType::Int64());
  auto x = make<Var>(xname, tensor_sinfo({n, tir::int64(dim)}, DataType::Float32()));
  x->span = span;
  auto add = make<Call>(Op::get("relax.add"), std::vector<Ref<Expr>>{x, x});
  auto y = make<Var>("y", tensor_sinfo({n, tir::int64(dim)}, DataType::Float32()));
  auto block = make<BindingBlock>(std::vector<Ref<Binding>>{make<VarBinding>(y, add)}, false);
  auto f = make<Function>();
  f->params = {x};
  f->body = make<SeqExpr>(std::vector<Ref<BindingBlock>>{block}, y);
  f->ret_struct_info = tensor_sinfo({n, tir::int64(dim)}, DataType::Float32());
  return f;
}

}  // namespace

TEST_CASE("alpha-equivalent functions are equal and hash equal") {
  auto a = make_fn("x", "n");
  auto b = make_fn("input", "m", 4, Span{1, 10, 20});
  CHECK(structural_equal(a, b));
  CHECK(structural_hash(a) == structural_hash(b));
  CHECK_FALSE(structural_diff(a, b).has_value());
}

TEST_CASE("a different constant dim is a difference") {
  auto a = make_fn("x", "n", 4);
  auto b = make_fn("x", "n", 5);
  CHECK_FALSE(structural_equal(a, b));
  auto diff = structural_diff(a, b);
  REQUIRE(diff.has_value());
  CHECK(diff->find("IntImm") != std::string::npos);
  CHECK(structural_hash(a) != structural_hash(b));
}

TEST_CASE("variables must be used consistently") {
  auto x = make<Var>("x", nullptr);
  auto y = make<Var>("y", nullptr);
  auto f1 = make<Function>();
  f1->params = {x, y};
  f1->body = make<SeqExpr>(std::vector<Ref<BindingBlock>>{}, x);
  auto f2 = make<Function>();
  f2->params = {x, y};
  f2->body = make<SeqExpr>(std::vector<Ref<BindingBlock>>{}, y);
  CHECK_FALSE(structural_equal(f1, f2));
}

TEST_CASE("module members compare by name in any order") {
  auto m1 = make<IRModule>();
  m1->add(make<GlobalVar>("f"), make_fn("x", "n"));
  m1->add(make<GlobalVar>("main"), make_fn("x", "k"));
  auto m2 = make<IRModule>();
  m2->add(make<GlobalVar>("main"), make_fn("a", "b"));
  m2->add(make<GlobalVar>("f"), make_fn("c", "d"));
  CHECK(structural_equal(m1, m2));
  CHECK(structural_hash(m1) == structural_hash(m2));
  m2->attrs.set("key", make<IntValue>(1));
  CHECK_FALSE(structural_equal(m1, m2));
}

TEST_CASE("attribute values distinguish Python bools from TIR bools") {
  Attrs a{{"tir.noalias", make<BoolValue>(true)}};
  Attrs b{{"tir.noalias", tir::bool_imm(true)}};
  auto f1 = make<tir::PrimFunc>();
  f1->attrs = a;
  auto f2 = make<tir::PrimFunc>();
  f2->attrs = b;
  CHECK_FALSE(structural_equal(f1, f2));
  f2->attrs = a;
  CHECK(structural_equal(f1, f2));
}

TEST_CASE("TIR buffers are matched by binding") {
  auto make_store = [](const std::string& name) {
    auto buf = make<tir::Buffer>();
    buf->name = name;
    buf->data = make<tir::Var>(name, DataType::Handle());
    buf->shape = {tir::int64(8)};
    auto i = make<tir::Var>("i", DataType::Int64());
    auto load = make<tir::BufferLoad>(DataType::Float32(), buf, std::vector<Ref<PrimExpr>>{i});
    auto store = make<tir::BufferStore>(buf, load, std::vector<Ref<PrimExpr>>{i});
    auto loop = make<tir::For>();
    loop->loop_var = i;
    loop->min = tir::int64(0);
    loop->extent = tir::int64(8);
    loop->body = store;
    auto f = make<tir::PrimFunc>();
    f->params = {buf->data};
    f->buffer_map = {{buf->data, buf}};
    f->body = loop;
    return f;
  };
  CHECK(structural_equal(make_store("A"), make_store("B")));
  CHECK(structural_hash(make_store("A")) == structural_hash(make_store("B")));
}

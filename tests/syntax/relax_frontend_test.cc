// The Relax front end: the IR that signatures, struct-info annotations, bindings, dataflow
// blocks, if/else, nested functions and the call_tir / packed-call family become.
#include <catch2/catch.hpp>
#include <cstring>

#include "ir/structural_equal.h"
#include "relax_test_util.h"

using namespace relax;
using ir::Ref;

namespace {

template <class T>
Ref<T> value_of(const Ref<ir::Binding>& b) {
  return b->value.as<T>();
}

const ir::TensorStructInfo& tensor(const Ref<ir::StructInfo>& s) {
  REQUIRE(s.is<ir::TensorStructInfo>());
  return *s.as_ptr<ir::TensorStructInfo>();
}

const std::vector<Ref<ir::tir::PrimExpr>>& dims(const Ref<ir::StructInfo>& s) {
  const auto* v = tensor(s).shape_values();
  REQUIRE(v != nullptr);
  return *v;
}

}  // namespace

TEST_CASE("a signature gives typed parameters, a return struct info and global_symbol") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor((4, 8), dtype="float32"), s: R.Shape([2, 3]), o: R.Object, t: R.Tuple(R.Tensor, R.Prim("int64"))) -> R.Tensor((4, 8), "float32"):
    return x
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  REQUIRE(f);
  REQUIRE(f->params.size() == 4);
  CHECK(f->params[0]->name == "x");
  CHECK(tensor(f->params[0]->struct_info).dtype == ir::DataType::Float32());
  CHECK(tensor(f->params[0]->struct_info).ndim == 2);
  CHECK(f->params[1]->struct_info.as_ptr<ir::ShapeStructInfo>()->ndim == 2);
  CHECK(f->params[2]->struct_info.is<ir::ObjectStructInfo>());
  auto tup = f->params[3]->struct_info.as<ir::TupleStructInfo>();
  REQUIRE(tup);
  REQUIRE(tup->fields.size() == 2);
  CHECK(tensor(tup->fields[0]).is_unknown_ndim());
  CHECK(tup->fields[1].as_ptr<ir::PrimStructInfo>()->dtype == ir::DataType::Int64());
  CHECK(tensor(f->ret_struct_info).dtype == ir::DataType::Float32());
  CHECK(f->attrs.get_string("global_symbol") == "f");
  CHECK(f->is_pure);
  CHECK(f->body->body.same_as(f->params[0]));
}

TEST_CASE("decorator flags: pure=False and private=True") {
  auto p = test::parse(R"(
@I.ir_module
class Module:
    @R.function(pure=False, private=True)
    def g(x: R.Object) -> R.Object:
        return x
)");
  REQUIRE_FALSE(p.diags.has_errors());
  auto g = p.function("g");
  REQUIRE(g);
  CHECK_FALSE(g->is_pure);
  CHECK_FALSE(g->attrs.contains("global_symbol"));
}

TEST_CASE("struct info annotation forms") {
  auto p = test::parse(R"(
@R.function
def f(a: R.Tensor("float32", ndim=2), b: R.Tensor(None, "int8", ndim=3), c: R.Tensor, d: R.Tensor((2,)), e: R.Shape(ndim=3), g: R.Callable((R.Tensor((4,), "float32"),), R.Object, True), h: R.Callable, i: T.int64, j: R.Prim(value=3), k: R.Tensor([1, 2], "bool"), l: R.Any) -> R.Tuple:
    return R.tuple()
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  const auto& ps = f->params;
  CHECK(tensor(ps[0]->struct_info).ndim == 2);
  CHECK_FALSE(tensor(ps[0]->struct_info).shape);
  CHECK(tensor(ps[1]->struct_info).dtype == ir::DataType::Int(8));
  CHECK(tensor(ps[2]->struct_info).is_unknown_dtype());
  CHECK(tensor(ps[3]->struct_info).is_unknown_dtype());
  CHECK(tensor(ps[3]->struct_info).ndim == 1);
  CHECK(ps[4]->struct_info.as_ptr<ir::ShapeStructInfo>()->ndim == 3);
  auto g = ps[5]->struct_info.as<ir::FuncStructInfo>();
  REQUIRE(g);
  CHECK_FALSE(g->is_opaque());
  CHECK(g->purity);
  auto h = ps[6]->struct_info.as<ir::FuncStructInfo>();
  CHECK(h->is_opaque());
  CHECK_FALSE(h->purity);
  CHECK(ps[7]->struct_info.as_ptr<ir::PrimStructInfo>()->dtype == ir::DataType::Int64());
  CHECK(ir::tir::as_const_int(ps[8]->struct_info.as_ptr<ir::PrimStructInfo>()->value) == 3);
  CHECK(tensor(ps[9]->struct_info).dtype == ir::DataType::Bool());
  CHECK(ps[10]->struct_info.is<ir::ObjectStructInfo>());
  CHECK(ir::is_void_sinfo(f->ret_struct_info));
}

TEST_CASE("a symbolic var is one variable across the signature and the body") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n * 2",), "float32")) -> R.Tensor(("n", 4), dtype="float32"):
    n = T.int64()
    z: R.Tensor((n, 4), dtype="float32") = R.add(x, x)
    s = R.shape([n + 1])
    return z
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  auto n = dims(f->params[0]->struct_info)[0];
  REQUIRE(n.is<ir::tir::Var>());
  CHECK(n.as_ptr<ir::tir::Var>()->name == "n");
  CHECK(n->dtype == ir::DataType::Int64());
  auto twice = dims(f->params[1]->struct_info)[0].as<ir::tir::BinaryOp>();
  REQUIRE(twice);
  CHECK(twice->a.same_as(n));
  CHECK(dims(f->ret_struct_info)[0].same_as(n));
  auto bs = test::bindings(f);
  REQUIRE(bs.size() == 2);
  CHECK(dims(bs[0]->var->struct_info)[0].same_as(n));
  auto shape = value_of<ir::ShapeExpr>(bs[1]);
  REQUIRE(shape);
  CHECK(shape->values[0].as_ptr<ir::tir::BinaryOp>()->a.same_as(n));
}

TEST_CASE("legacy strings, TypeVars and PEP 695 type parameters give the same IR") {
  const char* legacy = R"(
@R.function
def main(x: R.Tensor(("n", 16), dtype="float32")) -> R.Tensor(("n * 2", 16), dtype="float32"):
    n = T.int64()
    y: R.Tensor((n * 2, 16), dtype="float32") = R.concat((x, x), axis=0)
    return y
)";
  const char* type_var = R"(
n = TypeVar("n")

@R.function
def main(x: R.Tensor((n, 16), dtype="float32")) -> R.Tensor(("n * 2", 16), dtype="float32"):
    y: R.Tensor((n * 2, 16), dtype="float32") = R.concat((x, x), axis=0)
    return y
)";
  const char* pep695 = R"(
@R.function
def main[n](x: R.Tensor((n, 16), dtype="float32")) -> R.Tensor((n * 2, 16), dtype="float32"):
    y: R.Tensor((n * 2, 16), dtype="float32") = R.concat((x, x), axis=0)
    return y
)";
  auto a = test::parse(legacy), b = test::parse(type_var), c = test::parse(pep695);
  INFO(a.messages() << b.messages() << c.messages());
  REQUIRE_FALSE(a.diags.has_errors());
  REQUIRE_FALSE(b.diags.has_errors());
  REQUIRE_FALSE(c.diags.has_errors());
  auto d1 = ir::structural_diff(a.result.module, b.result.module);
  auto d2 = ir::structural_diff(a.result.module, c.result.module);
  CHECK_FALSE(d1.has_value());
  CHECK_FALSE(d2.has_value());
}

TEST_CASE("an R.Prim(\"int64\") parameter defines a symbolic value for later parameters") {
  auto p = test::parse(R"(
@R.function
def f(n: R.Prim("int64"), x: R.Tensor([n], "float32")) -> R.Tensor([n], "float32"):
    return x
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  auto prim = f->params[0]->struct_info.as<ir::PrimStructInfo>();
  REQUIRE(prim);
  REQUIRE(prim->value);
  CHECK(dims(f->params[1]->struct_info)[0].same_as(prim->value));
}

TEST_CASE("dataflow blocks bind DataflowVars except the outputs") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    with R.dataflow():
        a = R.add(x, x)
        b = R.multiply(a, a)
        a = R.nn.relu(b)
        R.output(a)
    c = R.add(a, a)
    return c
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  REQUIRE(f->body->blocks.size() == 2);
  const auto& df = f->body->blocks[0];
  CHECK(df->is_dataflow);
  REQUIRE(df->bindings.size() == 3);
  CHECK(df->bindings[0]->var->is_dataflow());
  CHECK(df->bindings[1]->var->is_dataflow());
  CHECK_FALSE(df->bindings[2]->var->is_dataflow());  // the last binding of `a` is the output
  CHECK_FALSE(f->body->blocks[1]->is_dataflow);
  auto c = value_of<ir::Call>(f->body->blocks[1]->bindings[0]);
  CHECK(c->args[0].same_as(df->bindings[2]->var));
}

TEST_CASE("match_cast binds a var typed by its target and may define symbolic vars") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
    m = T.int64()
    n = T.int64()
    y = R.match_cast(x, R.Tensor((m, n), dtype="float32"))
    z: R.Tensor((m, n), dtype="float32") = R.nn.relu(y)
    return z
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("f"));
  REQUIRE(bs.size() == 2);
  auto mc = bs[0].as<ir::MatchCast>();
  REQUIRE(mc);
  CHECK(mc->var->struct_info.same_as(mc->struct_info));
  auto m = dims(mc->struct_info)[0];
  CHECK(m.as_ptr<ir::tir::Var>()->name == "m");
  CHECK(dims(bs[1]->var->struct_info)[0].same_as(m));
}

TEST_CASE("if/else becomes an If bound to the name both branches end with") {
  auto p = test::parse(R"(
@R.function
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    if c:
        d = R.add(x, x)
        y: R.Tensor((4,), "float32") = R.nn.relu(d)
    else:
        y: R.Tensor((4,), "float32") = x
    return y
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  auto bs = test::bindings(f);
  REQUIRE(bs.size() == 1);
  auto node = value_of<ir::If>(bs[0]);
  REQUIRE(node);
  CHECK(bs[0]->var->name == "y");
  CHECK(f->body->body.same_as(bs[0]->var));
  CHECK(node->condition.same_as(f->params[0]));
  // A call at the end of a branch is rebound to `y_then`; a leaf becomes the branch's value.
  auto then_body = node->true_branch->body.as<ir::Var>();
  REQUIRE(then_body);
  CHECK(then_body->name == "y_then");
  CHECK(node->false_branch->body.same_as(f->params[1]));
  CHECK(node->false_branch->blocks.empty());
}

TEST_CASE("a branch ending in a dataflow block or a statement names the if by its last binding") {
  auto p = test::parse(R"(
@R.function(pure=False)
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")):
    if c:
        with R.dataflow():
            d = R.add(x, x)
            out = R.multiply(d, d)
            R.output(out)
    else:
        with R.dataflow():
            out = R.add(x, x)
            R.output(out)
    if c:
        R.print(out, format="{}")
    else:
        R.print(x, format="{}")
    return out
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("f"));
  REQUIRE(bs.size() == 2);
  CHECK(bs[0]->var->name == "out");
  auto node = value_of<ir::If>(bs[0]);
  REQUIRE(node);
  // The block keeps its other bindings; the output is rebound to a Var `out_then` in it.
  const auto& blocks = node->true_branch->blocks;
  REQUIRE(blocks.size() == 1);
  CHECK(blocks[0]->is_dataflow);
  REQUIRE(blocks[0]->bindings.size() == 2);
  CHECK(blocks[0]->bindings[0]->var.is<ir::DataflowVar>());
  const auto& last = blocks[0]->bindings[1]->var;
  CHECK(last->name == "out_then");
  CHECK_FALSE(last.is<ir::DataflowVar>());
  CHECK(node->true_branch->body.same_as(last));
  CHECK(node->false_branch->blocks[0]->bindings.back()->var->name == "out_else");
  // A void statement binds `_`, which names the second if.
  CHECK(bs[1]->var->name == "_");
  auto stmt = value_of<ir::If>(bs[1]);
  REQUIRE(stmt);
  CHECK(stmt->true_branch->blocks[0]->bindings.back()->var->name == "__then");
  CHECK(stmt->false_branch->blocks[0]->bindings.back()->var->name == "__else");
}

TEST_CASE("a branch whose last binding is local to its dataflow block is E0508") {
  auto p = test::parse(R"(
@R.function
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")):
    if c:
        with R.dataflow():
            out = R.add(x, x)
            d = R.add(out, x)
            R.output(out)
    else:
        out = x
    return out
)");
  CHECK(p.errors() == std::vector<std::string>{"E0508@5:9"});
  CHECK(p.messages().find("`d`, is local to its dataflow block") != std::string::npos);
}

TEST_CASE("x.struct_info is the written struct info, or a StructInfoOf that inference completes") {
  auto p = test::parse(R"(
@R.function(pure=False)
def f(x: R.Tensor((4,), "float32")):
    y = R.add(x, x)
    a = R.call_packed("f", y, sinfo_args=[y.struct_info])
    b = R.call_packed("g", x, sinfo_args=[x.struct_info])
    s = R.call_packed("h", x, sinfo_args=R.Shape(ndim=2))
    c = R.call_packed("k", x, s, sinfo_args=R.Tensor(s, "float32"))
    return (a, b, c)
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  auto bs = test::bindings(f);
  REQUIRE(bs.size() == 5);
  auto a = value_of<ir::Call>(bs[1]);
  REQUIRE(a->sinfo_args.size() == 1);
  auto of = a->sinfo_args[0].as<ir::StructInfoOf>();
  REQUIRE(of);
  CHECK(of->expr.same_as(bs[0]->var));
  // A parameter's struct info is known: the annotation itself.
  CHECK(value_of<ir::Call>(bs[2])->sinfo_args[0].same_as(f->params[0]->struct_info));
  // A shape variable without struct info yet: the rank is left to inference.
  const auto& t = tensor(value_of<ir::Call>(bs[4])->sinfo_args[0]);
  CHECK(t.shape.same_as(bs[3]->var));
  CHECK(t.is_unknown_ndim());
  // Printed before inference, the deferred struct info reads as written.
  CHECK(test::print(p).find(R"(sinfo_args=(y.struct_info,))") != std::string::npos);
}

TEST_CASE("elif nests an if in the else branch, a PrimExpr condition becomes a prim value") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
    n = T.int64()
    if n % 16 == 0:
        y = x
    elif n > 4:
        y = R.add(x, x)
    else:
        y = R.multiply(x, x)
    return y
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto outer = value_of<ir::If>(test::bindings(p.function("f"))[0]);
  REQUIRE(outer);
  CHECK(outer->condition.is<ir::PrimValue>());
  const auto& else_blocks = outer->false_branch->blocks;
  REQUIRE(else_blocks.size() == 1);
  CHECK(else_blocks[0]->bindings[0]->value.is<ir::If>());
  CHECK(else_blocks[0]->bindings[0]->var->name == "y_else");
}

TEST_CASE("call_tir keeps its args tuple, output struct info and tir_vars") {
  auto p = test::parse(R"(
@I.ir_module
class Module:
    @R.function
    def callee(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        return x

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tuple(R.Tensor(("n",), "float32"), R.Tensor(("n",), "float32")):
        n = T.int64()
        cls = Module
        y = R.call_tir(cls.callee, (x,), out_sinfo=[R.Tensor((n,), "float32"), R.Tensor((n,), "float32")], tir_vars=R.shape([n]))
        z = R.call_tir(cls.callee, x, R.Tensor((n,), "float32"))
        return y
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("main"));
  REQUIRE(bs.size() == 2);
  auto c = value_of<ir::Call>(bs[0]);
  CHECK(c->op_name() == "relax.call_tir");
  REQUIRE(c->args.size() == 3);
  CHECK(c->args[0].as_ptr<ir::GlobalVar>()->name == "callee");
  CHECK(c->args[1].as_ptr<ir::Tuple>()->fields.size() == 1);
  CHECK(c->args[2].is<ir::ShapeExpr>());
  REQUIRE(c->sinfo_args.size() == 1);
  CHECK(c->sinfo_args[0].as_ptr<ir::TupleStructInfo>()->fields.size() == 2);
  // Without an annotation the result is typed by the output struct info (TVM's inference).
  CHECK(bs[0]->var->struct_info.same_as(c->sinfo_args[0]));
  // A single argument is wrapped into a tuple; the output may be positional.
  auto c2 = value_of<ir::Call>(bs[1]);
  CHECK(c2->args[1].is<ir::Tuple>());
  CHECK(c2->sinfo_args[0].is<ir::TensorStructInfo>());
}

TEST_CASE("packed calls, print and assert_op map to TVM's IR") {
  auto p = test::parse(R"(
@R.function(pure=False)
def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    a = R.call_packed("my.func", x, sinfo_args=R.Tensor((4,), "float32"))
    b = R.call_pure_packed("my.pure", x, sinfo_args=[R.Tensor((4,), "float32")])
    c = R.call_dps_packed("my.dps", (x,), out_sinfo=R.Tensor((4,), "float32"))
    R.print(x, format="x = {}")
    R.assert_op(R.const(True, "bool"), x, format="bad {}")
    d = R.call_builtin_with_ctx("vm.builtin.f", (x,), sinfo_args=R.Object)
    return a
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("f"));
  REQUIRE(bs.size() == 6);
  auto a = value_of<ir::Call>(bs[0]);
  REQUIRE(a->op.is<ir::ExternFunc>());
  CHECK(a->op.as_ptr<ir::ExternFunc>()->global_symbol == "my.func");
  CHECK(a->sinfo_args.size() == 1);
  auto b = value_of<ir::Call>(bs[1]);
  CHECK(b->op_name() == "relax.call_pure_packed");
  CHECK(b->args[0].is<ir::ExternFunc>());
  auto c = value_of<ir::Call>(bs[2]);
  CHECK(c->op_name() == "relax.call_dps_packed");
  CHECK(c->args[0].is<ir::ExternFunc>());
  auto pr = value_of<ir::Call>(bs[3]);
  CHECK(pr->op_name() == "relax.print");
  CHECK(pr->args[0].as_ptr<ir::StringImm>()->value == "x = {}");
  CHECK(ir::is_void_sinfo(bs[3]->var->struct_info));
  auto as = value_of<ir::Call>(bs[4]);
  CHECK(as->op_name() == "relax.assert_op");
  CHECK(as->args[1].as_ptr<ir::StringImm>()->value == "bad {}");
  CHECK(as->args[2].same_as(p.function("f")->params[0]));
  auto d = value_of<ir::Call>(bs[5]);
  CHECK(d->op_name() == "relax.call_builtin_with_ctx");
  CHECK(d->args[1].is<ir::Tuple>());
}

TEST_CASE("op calls keep positional args and keyword attributes in written order") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor((1, 3, 8, 8), "float32"), w: R.Tensor((4, 3, 3, 3), "float32")) -> R.Tensor:
    y = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1], out_dtype="void", data_layout="NCHW")
    z = R.sum(y, axis=None, keepdims=True)
    return z
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("f"));
  auto conv = value_of<ir::Call>(bs[0]);
  CHECK(conv->op_name() == "relax.nn.conv2d");
  CHECK(conv->args.size() == 2);
  std::vector<std::string> keys;
  for (const auto& [k, v] : conv->attrs) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"strides", "padding", "out_dtype", "data_layout"});
  auto sum = value_of<ir::Call>(bs[1]);
  REQUIRE(sum->attrs.size() == 2);
  CHECK(sum->attrs.entries()[0].first == "axis");
  CHECK_FALSE(sum->attrs.entries()[0].second);  // None
}

TEST_CASE("operators, methods, tuples and nested calls normalize to A-normal form") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    y = R.multiply(R.add(x, x), -x)
    t = (x, y)
    u = t[1]
    h = x.astype("float16")
    return R.add(u, x)
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto f = p.function("f");
  auto bs = test::bindings(f);
  // add -> gv, negative -> gv1, multiply -> y, t, u, astype, return value -> gv2.
  REQUIRE(bs.size() == 7);
  CHECK(value_of<ir::Call>(bs[0])->op_name() == "relax.add");
  CHECK(value_of<ir::Call>(bs[1])->op_name() == "relax.negative");
  auto mul = value_of<ir::Call>(bs[2]);
  CHECK(mul->args[0].same_as(bs[0]->var));
  CHECK(mul->args[1].same_as(bs[1]->var));
  CHECK(value_of<ir::Tuple>(bs[3])->fields.size() == 2);
  CHECK(value_of<ir::TupleGetItem>(bs[4])->index == 1);
  auto astype = value_of<ir::Call>(bs[5]);
  CHECK(astype->op_name() == "relax.astype");
  CHECK(astype->attrs.get_string("dtype") == "float16");
  CHECK(f->body->body.same_as(bs[6]->var));
}

TEST_CASE("constants keep their dtype, float32 values are rounded to float32") {
  auto p = test::parse(R"(
@R.function
def f() -> R.Tensor((), "float32"):
    a = R.const(0.1, "float32")
    b = R.const(3)
    c = R.const(True)
    d = R.const([[1, 2], [3, 4]], "int64")
    e = 1.5
    g = R.const(1.0, "float16")
    return a
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("f"));
  auto a = value_of<ir::Constant>(bs[0]);
  REQUIRE(a->data);
  CHECK(a->data->dtype == ir::DataType::Float32());
  float f;
  std::memcpy(&f, a->data->bytes.data(), 4);
  CHECK(f == 0.1f);
  CHECK(value_of<ir::Constant>(bs[1])->data->dtype == ir::DataType::Int32());
  CHECK(value_of<ir::Constant>(bs[2])->data->dtype == ir::DataType::Bool());
  auto d = value_of<ir::Constant>(bs[3]);
  CHECK(d->data->shape == std::vector<int64_t>{2, 2});
  CHECK(d->data->bytes.size() == 32);
  CHECK(value_of<ir::Constant>(bs[4])->data->dtype == ir::DataType::Float32());
  auto g = value_of<ir::Constant>(bs[5]);
  CHECK(g->data->bytes == std::vector<uint8_t>{0x00, 0x3C});
}

TEST_CASE("metadata references are opaque constants typed by the annotation") {
  auto p = test::parse(R"(
@R.function
def f() -> R.Tensor((2, 2), "float32"):
    a: R.Tensor((2, 2), "float32") = metadata["relax.expr.Constant"][3]
    return a
)");
  INFO(p.messages());
  // Without a section the constant has no value (one error, E0248); it still parses.
  CHECK(p.errors() == std::vector<std::string>{"E0248@4:38"});
  auto c = value_of<ir::Constant>(test::bindings(p.function("f"))[0]);
  REQUIRE(c);
  CHECK_FALSE(c->data);
  CHECK(c->metadata_index == 3);
  CHECK(tensor(c->struct_info).ndim == 2);
}

TEST_CASE("nested functions are closures, a recursive one refers to its own binding var") {
  auto p = test::parse(R"(
@R.function
def f(x: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
    @R.function
    def loop(i: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        r: R.Tensor((), "int32") = loop(i)
        return r

    y: R.Tensor((), "int32") = loop(x)
    return y
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("f"));
  REQUIRE(bs.size() == 2);
  auto inner = value_of<ir::Function>(bs[0]);
  REQUIRE(inner);
  CHECK_FALSE(inner->attrs.contains("global_symbol"));
  auto sinfo = bs[0]->var->struct_info.as<ir::FuncStructInfo>();
  REQUIRE(sinfo);
  CHECK(sinfo->params->size() == 1);
  auto rec = value_of<ir::Call>(test::bindings(inner)[0]);
  CHECK(rec->op.same_as(bs[0]->var));
  CHECK(value_of<ir::Call>(bs[1])->op.same_as(bs[0]->var));
}

TEST_CASE("tuple unpacking binds tuple items, T.int64 declarations may be unpacked too") {
  auto p = test::parse(R"(
@R.function
def f(t: R.Tuple(R.Tensor((2,), "float32"), R.Tensor((3,), "float32"))) -> R.Tensor((3,), "float32"):
    m, n = T.int64(), T.int64()
    a, b = t
    return b
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto bs = test::bindings(p.function("f"));
  REQUIRE(bs.size() == 2);
  CHECK(value_of<ir::TupleGetItem>(bs[0])->index == 0);
  CHECK(value_of<ir::TupleGetItem>(bs[1])->index == 1);
  CHECK(p.function("f")->body->body.same_as(bs[1]->var));
}

TEST_CASE("virtual devices are looked up in the module's global infos") {
  auto p = test::parse(R"(
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("cuda", 0, "global"), I.vdevice("cuda", 1, "global")]})
    @R.function
    def main(x: R.Tensor((2,), "float32", "cuda:1")) -> R.Tensor((2,), "float32", vdevice="llvm"):
        y: R.Tensor((2,), "float32", vdevice="llvm:0") = R.to_vdevice(x, dst_vdevice="llvm:0")
        return y
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto devices = p.result.module->vdevices();
  REQUIRE(devices.size() == 3);
  auto f = p.function("main");
  CHECK(tensor(f->params[0]->struct_info).vdevice.same_as(devices[2]));
  CHECK(tensor(f->ret_struct_info).vdevice.same_as(devices[0]));
  auto call = value_of<ir::Call>(test::bindings(f)[0]);
  CHECK(call->attrs.find("dst_vdevice").same_as(devices[0]));
}

TEST_CASE("a target string with options gives its kind: \"cuda:1\" finds \"cuda -arch=sm_80\"") {
  // tests/python/relax/test_tvmscript_parser.py (test_vdevice).
  auto p = test::parse(R"(
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0), I.vdevice("cuda -arch=sm_80 -max_num_threads=1024", 0)]})
    @R.function
    def main(x: R.Tensor((2,), "float32", "cuda:1")) -> R.Tensor((2,), "float32", "cuda:1"):
        return x
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto devices = p.result.module->vdevices();
  REQUIRE(devices.size() == 3);
  CHECK(tensor(p.function("main")->params[0]->struct_info).vdevice.same_as(devices[2]));
  const auto& config = *devices[2]->target->config;
  CHECK(devices[2]->target->kind_name() == "cuda");
  CHECK(config.find("arch").as_ptr<ir::StringValue>()->value == "sm_80");
  CHECK(config.find("max_num_threads").as_ptr<ir::IntValue>()->value == 1024);
  auto bad = test::parse(R"(
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("cuda arch")]})
)");
  CHECK(bad.errors() == std::vector<std::string>{"E0512@4:50"});
}

TEST_CASE("R.func_attr, extern functions and the module alias") {
  auto p = test::parse(R"(
@I.ir_module
class Module:
    ext = R.ExternFunc("my_ext")
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        cls = Module
        y = R.call_dps_packed(cls.ext, (x,), out_sinfo=R.Tensor((2,), "float32"))
        return y
)");
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  auto ext = p.result.module->find("ext");
  REQUIRE(ext);
  CHECK(ext->func.as_ptr<ir::ExternFunc>()->global_symbol == "my_ext");
  auto f = p.function("main");
  CHECK(f->attrs.get_int("num_input") == 1);
  CHECK(f->attrs.get_bool("relax.force_pure"));
  CHECK(f->attrs.get_string("global_symbol") == "main");
}

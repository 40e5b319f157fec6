// The struct-info algebra, replicating TVM's test_analysis_struct_info_analysis.py: static
// types, erasure, the base check's four levels, LCA, call-site derivation and symbolic vars.
#include <catch2/catch.hpp>

#include "tests/analysis/inference_test_util.h"

using namespace relax;
using namespace relax::infer_test;
using analysis::BaseCheck;

namespace {

analysis::arith::Analyzer& az() {
  static analysis::arith::Analyzer analyzer({.non_negative_int64_vars = true});
  return analyzer;
}

BaseCheck bcheck(const Ref<StructInfo>& base, const Ref<StructInfo>& derived) {
  return analysis::struct_info_base_check(base, derived, az());
}
bool is_base(const Ref<StructInfo>& base, const Ref<StructInfo>& derived) {
  return analysis::is_base_of(base, derived, az());
}
std::string lca(const Ref<StructInfo>& a, const Ref<StructInfo>& b) {
  std::string ab = text(analysis::struct_info_lca(a, b, az()));
  std::string ba = text(analysis::struct_info_lca(b, a, az()));
  return ab == ba ? ab : ab + " | reversed: " + ba;
}

}  // namespace

TEST_CASE("static struct info drops values") {
  auto n = sym("n"), m = sym("m");
  CHECK(text(analysis::static_struct_info(object())) == "R.Object");
  CHECK(text(analysis::static_struct_info(prim("float32"))) == "R.Prim(\"float32\")");
  CHECK(text(analysis::static_struct_info(shape({1, add(n, 1), m}))) == "R.Shape(ndim=3)");
  CHECK(text(analysis::static_struct_info(tensor({1, add(n, 1), m}, "int64"))) ==
        "R.Tensor(dtype=\"int64\", ndim=3)");
  CHECK(text(analysis::static_struct_info(
            tuple({tuple({tensor({1, n}, "int64"), object()}), shape({1, n})}))) ==
        "R.Tuple(R.Tuple(R.Tensor(dtype=\"int64\", ndim=2), R.Object), R.Shape(ndim=2))");
  auto f =
      func({tensor({1, n, m}, "float32"), tensor({1, n, 1}, "float32")}, tensor({1, n}, "float32"));
  CHECK(text(analysis::static_struct_info(f)) ==
        "R.Callable((R.Tensor(dtype=\"float32\", ndim=3), R.Tensor(dtype=\"float32\", ndim=3)), "
        "R.Tensor(dtype=\"float32\", ndim=2), True)");
  CHECK(text(analysis::static_struct_info(prim_value(n))) == "R.Prim(\"int64\")");
}

TEST_CASE("erase to well defined") {
  auto n = sym("n"), m = sym("m");
  auto erase = [](const Ref<StructInfo>& s,
                  std::unordered_map<const tir::Var*, Ref<tir::PrimExpr>> map) {
    return text(analysis::erase_to_well_defined(s, map, nullptr, az()));
  };
  CHECK(erase(object(), {}) == "R.Object");
  CHECK(erase(prim("float32"), {}) == "R.Prim(\"float32\")");
  auto s2 = shape({1, add(n, 1), m});
  CHECK(erase(s2, {}) == "R.Shape(ndim=3)");
  CHECK(erase(s2, {{n.get(), n}, {m.get(), m}}) == "R.Shape([1, n + 1, m])");
  CHECK(
      analysis::erase_to_well_defined(s2, {{n.get(), n}, {m.get(), m}}, nullptr, az()).same_as(s2));
  CHECK(erase(s2, {{n.get(), tir::int64(2)}, {m.get(), add(m, 1)}}) == "R.Shape([1, 3, m + 1])");
  CHECK(erase(s2, {{n.get(), n}}) == "R.Shape(ndim=3)");

  // A tensor whose shape is a shape variable is erased to its rank.
  auto rshape = make<ir::Var>("shape", shape(2));
  auto s0 = make<ir::TensorStructInfo>(rshape, dt("int32"), 2);
  CHECK(erase(s0, {}) == "R.Tensor(dtype=\"int32\", ndim=2)");
  auto s1 = tensor({add(m, 1), n}, "float32");
  CHECK(erase(s1, {{n.get(), n}, {m.get(), m}}) == "R.Tensor((m + 1, n), dtype=\"float32\")");
  CHECK(erase(s1, {{n.get(), tir::int64(2)}, {m.get(), tir::int64(3)}}) ==
        "R.Tensor((4, 2), dtype=\"float32\")");
  CHECK(erase(s1, {{m.get(), m}}) == "R.Tensor(dtype=\"float32\", ndim=2)");
  CHECK(erase(tensor({1, 2}, "float32"), {}) == "R.Tensor((1, 2), dtype=\"float32\")");

  // Tuples field by field; function struct info is always well defined.
  auto t1 = tuple({tuple({tensor({1, add(n, 1), m}, "int64"), object()}), shape({1, m})});
  CHECK(erase(t1, {{m.get(), add(m, 1)}}) ==
        "R.Tuple(R.Tuple(R.Tensor(dtype=\"int64\", ndim=3), R.Object), R.Shape([1, m + 1]))");
  auto f0 = func({tensor({1, n, m}, "float32")}, tensor({1, n}, "float32"));
  CHECK(analysis::erase_to_well_defined(f0, {}, nullptr, az()).same_as(f0));

  // The predicate keeps in-scope vars.
  std::function<bool(const tir::Var*)> defined = [&](const tir::Var* v) { return v == n.get(); };
  CHECK(text(analysis::erase_to_well_defined(shape({n, mul(n, 2)}), {}, defined, az())) ==
        "R.Shape([n, n * 2])");
  CHECK(text(analysis::erase_to_well_defined(shape({n, m}), {}, defined, az())) ==
        "R.Shape(ndim=2)");
  CHECK(text(analysis::erase_to_well_defined(prim_value(m), {}, defined, az())) ==
        "R.Prim(\"int64\")");
}

TEST_CASE("base check: four levels") {
  auto n = sym("n"), m = sym("m");
  auto obj0 = object();
  auto prim0 = prim("int32"), prim1 = prim("float32");
  auto shape0 = shape(-1), shape1 = shape(2), shape2 = shape(3);
  auto shape3 = shape({1, 2, 3}), shape4 = shape({1, n, 3});
  auto v0 = vdevice(""), v1 = vdevice("llvm"), v2 = vdevice("cuda", 0), v3 = vdevice("cuda", 2),
       v4 = vdevice("cuda", 0, "");
  auto tensor0 = tensor(-1, "int32"), tensor1 = tensor(-1, "float32");
  auto tensor2 = tensor(2, "int32"), tensor3 = tensor(2, "float32");
  auto tensor4 = tensor({n, m}, "int32"), tensor5 = tensor({n, m, 1}, "int32"),
       tensor6 = tensor({n, m, 2}, "int32");
  auto tensor7 = tensor(2, "float32", v0), tensor8 = tensor(2, "float32", v1),
       tensor9 = tensor(2, "float32", v2);
  auto tensor10 = tensor(2, "float32", v3), tensor11 = tensor(2, "float32", v4);
  auto tensor12 = tensor({n, m, 2}, "int32", v0), tensor13 = tensor({n, m, 2}, "int32", v1);
  auto tensor14 = tensor({n, m, 2}, "int32", v2), tensor15 = tensor({n, m, 2}, "int32", v3);
  auto tensor16 = tensor({n, m, 2}, "int32", v4);

  CHECK(bcheck(obj0, prim0) == BaseCheck::kPass);
  CHECK(bcheck(obj0, shape1) == BaseCheck::kPass);
  CHECK(is_base(obj0, tensor2));

  CHECK(is_base(prim0, prim0));
  CHECK_FALSE(is_base(prim0, prim1));
  CHECK(bcheck(prim0, obj0) == BaseCheck::kFailL1);
  CHECK(bcheck(prim0, prim1) == BaseCheck::kFailL0);

  CHECK(bcheck(shape0, obj0) == BaseCheck::kFailL1);
  CHECK(bcheck(shape0, prim0) == BaseCheck::kFailL0);
  CHECK(bcheck(shape0, shape1) == BaseCheck::kPass);
  CHECK(bcheck(shape1, shape0) == BaseCheck::kFailL1);
  CHECK(bcheck(shape1, shape2) == BaseCheck::kFailL0);
  CHECK(bcheck(shape2, shape3) == BaseCheck::kPass);
  CHECK(bcheck(shape3, shape2) == BaseCheck::kFailL2);
  CHECK(bcheck(shape3, shape4) == BaseCheck::kFailL2);
  CHECK(is_base(shape4, shape({1, n, 3})));

  CHECK(bcheck(tensor0, obj0) == BaseCheck::kFailL1);
  CHECK(bcheck(tensor0, prim0) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor0, shape0) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor0, tensor1) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor0, tensor3) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor3, tensor4) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor1, tensor2) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor8, tensor9) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor9, tensor10) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor10, tensor11) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor13, tensor14) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor14, tensor15) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor15, tensor16) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor2, tensor5) == BaseCheck::kFailL0);
  CHECK(bcheck(tensor5, tensor6) == BaseCheck::kFailL0);

  CHECK(is_base(tensor0, tensor(-1, "int32")));
  CHECK(is_base(tensor0, tensor2));
  CHECK(is_base(tensor0, tensor4));
  CHECK(is_base(tensor0, tensor5));
  CHECK(is_base(tensor0, tensor6));
  CHECK(is_base(tensor2, tensor4));
  CHECK(is_base(tensor3, tensor7));
  CHECK(is_base(tensor3, tensor8));
  CHECK(is_base(tensor6, tensor12));
  CHECK(is_base(tensor6, tensor13));
  CHECK(is_base(tensor4, tensor({n, m}, "int32")));
  // Less specific derived info is L1; unproven symbolic dims are L2.
  CHECK(bcheck(tensor2, tensor0) == BaseCheck::kFailL1);
  CHECK(bcheck(tensor(2, "float32"), tensor(2, "")) == BaseCheck::kFailL1);
  CHECK(bcheck(tensor({n, m}, "int32"), tensor2) == BaseCheck::kFailL2);
  CHECK(bcheck(tensor({n, m}, "int32"), tensor({m, n}, "int32")) == BaseCheck::kFailL2);
  CHECK(bcheck(tensor9, tensor3) == BaseCheck::kFailL1);

  auto t0 = tuple({obj0, tensor0}), t1 = tuple({prim0, tensor4}), t2 = tuple({obj0, tensor0, obj0});
  auto t3 = tuple({tensor0, obj0});
  CHECK(is_base(t0, t1));
  CHECK(bcheck(t0, t2) == BaseCheck::kFailL0);
  CHECK(bcheck(t0, t3) == BaseCheck::kFailL1);
  CHECK(is_base(tuple({t0, t1}), tuple({t1, t1})));
  CHECK(bcheck(tuple({t0, t1}), tuple({t1, t0})) == BaseCheck::kFailL1);

  auto fn_shape = [](int c) {
    auto n = sym("n"), m = sym("m");
    return func({tensor({c, n, m}, "float32"), tensor({c, n, 1}, "float32")},
                tensor({c, n}, "float32"));
  };
  auto fn_erased = func({tensor(3, "float32"), tensor(3, "float32")}, tensor(2, "float32"));
  CHECK(is_base(fn_shape(1), fn_shape(1)));
  CHECK(is_base(fn_erased, fn_shape(1)));
  CHECK(bcheck(fn_shape(1), fn_erased) == BaseCheck::kFailL2);
  CHECK(is_base(opaque(), fn_shape(1)));
  // A pure function type does not contain impure functions.
  CHECK(bcheck(opaque(nullptr, true), opaque(nullptr, false)) == BaseCheck::kFailL0);

  // Prim values.
  CHECK(bcheck(prim_value(n), prim("int64")) == BaseCheck::kFailL2);
  CHECK(bcheck(prim("int64"), prim_value(n)) == BaseCheck::kPass);
  CHECK(bcheck(prim_value(tir::int64(1)), prim_value(tir::int64(2))) == BaseCheck::kFailL0);
}

TEST_CASE("least common ancestor") {
  auto n = sym("n"), m = sym("m");
  auto obj0 = object(), prim0 = prim("int32"), prim1 = prim("float32");
  auto v0 = vdevice("llvm"), v1 = vdevice("cuda", 0);
  auto shape0 = shape(-1), shape1 = shape(2), shape2 = shape(3), shape3 = shape({1, 2, 3}),
       shape4 = shape({1, n, 3});
  auto tensor0 = tensor(-1, "int32"), tensor1 = tensor(-1, "float32"), tensor2 = tensor(2, "int32");
  auto tensor3 = tensor(2, "float32"), tensor4 = tensor({n, m}, "int32"),
       tensor5 = tensor({n, m, 1}, "int32");
  auto tensor6 = tensor({n, m, 2}, "int32"), tensor7 = tensor(2, "float32", v0),
       tensor8 = tensor(2, "float32", v1);
  auto tensor9 = tensor({n, m, 2}, "int32", v0), tensor10 = tensor({n, m, 2}, "int32", v1);

  CHECK(lca(obj0, prim0) == "R.Object");
  CHECK(lca(obj0, prim1) == "R.Object");
  CHECK(lca(shape0, tensor0) == "R.Object");
  CHECK(lca(shape0, shape1) == "R.Shape(ndim=-1)");
  CHECK(lca(shape1, shape2) == "R.Shape(ndim=-1)");
  CHECK(lca(shape1, shape3) == "R.Shape(ndim=-1)");
  CHECK(lca(shape2, shape3) == "R.Shape(ndim=3)");
  CHECK(lca(shape3, shape4) == "R.Shape(ndim=3)");
  CHECK(lca(shape4, shape({1, n, 3})) == "R.Shape([1, n, 3])");

  CHECK(lca(tensor0, prim0) == "R.Object");
  CHECK(lca(tensor0, tensor1) == "R.Tensor");
  CHECK(lca(tensor0, tensor2) == "R.Tensor(dtype=\"int32\")");
  CHECK(lca(tensor0, tensor4) == "R.Tensor(dtype=\"int32\")");
  CHECK(lca(tensor1, tensor3) == "R.Tensor(dtype=\"float32\")");
  CHECK(lca(tensor3, tensor7) == "R.Tensor(dtype=\"float32\", ndim=2)");
  CHECK(lca(tensor3, tensor8) == "R.Tensor(dtype=\"float32\", ndim=2)");
  CHECK(lca(tensor1, tensor8) == "R.Tensor(dtype=\"float32\")");
  CHECK(lca(tensor6, tensor9) == "R.Tensor((n, m, 2), dtype=\"int32\")");
  CHECK(lca(tensor6, tensor10) == "R.Tensor((n, m, 2), dtype=\"int32\")");
  CHECK(lca(tensor2, tensor4) == "R.Tensor(dtype=\"int32\", ndim=2)");
  CHECK(lca(tensor5, tensor6) == "R.Tensor(dtype=\"int32\", ndim=3)");
  CHECK(lca(tensor4, tensor5) == "R.Tensor(dtype=\"int32\")");
  CHECK(lca(tensor4, tensor({n, m}, "int32")) == "R.Tensor((n, m), dtype=\"int32\")");
  // SEMANTICS.md examples.
  CHECK(lca(tensor({2, 3}, "float32"), tensor({2, 4}, "float32")) ==
        "R.Tensor(dtype=\"float32\", ndim=2)");
  CHECK(lca(tensor({2, 3}, "float32"), tensor({2, 3}, "int32")) == "R.Tensor((2, 3))");

  auto t0 = tuple({obj0, tensor0}), t1 = tuple({prim0, tensor4}), t2 = tuple({obj0, tensor0, obj0});
  auto t3 = tuple({tensor0, obj0});
  CHECK(lca(t0, t1) == "R.Tuple(R.Object, R.Tensor(dtype=\"int32\"))");
  CHECK(lca(t0, t2) == "R.Object");
  CHECK(lca(t0, t3) == "R.Tuple(R.Object, R.Object)");
  CHECK(lca(tuple({t0, t1}), tuple({t1, t2})) ==
        "R.Tuple(R.Tuple(R.Object, R.Tensor(dtype=\"int32\")), R.Object)");
  CHECK(lca(tuple({}), tuple({})) == "R.Tuple");

  auto fn_shape = [](int c) {
    auto n = sym("n"), m = sym("m");
    return func({tensor({c, n, m}, "float32"), tensor({c, n, 1}, "float32")},
                tensor({c, n}, "float32"));
  };
  CHECK(lca(fn_shape(1), fn_shape(2)) ==
        "R.Callable((R.Tensor(dtype=\"float32\", ndim=3), R.Tensor(dtype=\"float32\", ndim=3)), "
        "R.Tensor(dtype=\"float32\", ndim=2), True)");
  auto f2 = fn_shape(2);
  CHECK(analysis::struct_info_lca(f2, f2, az()).same_as(f2));
  CHECK(lca(opaque(), opaque(prim0)) == "R.Callable");
  CHECK(lca(opaque(), fn_shape(1)) == "R.Callable");
  CHECK(lca(opaque(tensor(2, "float32")), fn_shape(1)) ==
        "R.Callable(ret=R.Tensor(dtype=\"float32\", ndim=2))");
}

TEST_CASE("least common ancestor of prim values") {
  auto n = sym("N"), m = sym("M");
  for (const char* dtype :
       {"bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64"}) {
    INFO(dtype);
    auto zero = [&] { return make<ir::PrimStructInfo>(dt(dtype), tir::int_imm(dt(dtype), 0)); };
    auto one = [&] { return make<ir::PrimStructInfo>(dt(dtype), tir::int_imm(dt(dtype), 1)); };
    CHECK(lca(prim(dtype), prim(dtype)) == text(prim(dtype)));
    CHECK(lca(zero(), zero()) == text(zero()));
    CHECK(lca(zero(), one()) == text(prim(dtype)));
  }
  CHECK(lca(prim_value(n), prim_value(n)) == "R.Prim(value=N)");
  CHECK(lca(prim_value(n), prim_value(tir::int64(0))) == "R.Prim(\"int64\")");
  CHECK(lca(prim_value(n), prim_value(m)) == "R.Prim(\"int64\")");
  CHECK(lca(prim("int32"), prim("float32")) == "R.Object");
  CHECK(lca(prim_value(make<tir::Var>("a", dt("int32"))),
            prim_value(make<tir::Var>("b", dt("int64")))) == "R.Object");
}

TEST_CASE("derive call result struct info") {
  auto n = sym("n0"), m = sym("m0");
  auto derive = [](const Ref<ir::FuncStructInfo>& f, std::vector<Ref<StructInfo>> args) {
    return analysis::derive_call_ret_struct_info(*f, args, az());
  };
  auto func0 = [](int c) {
    auto n = sym("n"), m = sym("m");
    return func({tensor({n, m}, "float32")}, tensor({add(m, c), n}, "float32"));
  };
  CHECK(text(derive(func0(1), {tensor({10, 11}, "float32")}).ret) ==
        "R.Tensor((12, 10), dtype=\"float32\")");
  CHECK(text(derive(func0(2), {tensor({n, m}, "float32")}).ret) ==
        "R.Tensor((m0 + 2, n0), dtype=\"float32\")");
  CHECK(text(derive(func0(2), {tensor(2, "float32")}).ret) ==
        "R.Tensor(dtype=\"float32\", ndim=2)");

  auto arity = derive(func0(2), {tensor(2, "float32"), object()});
  CHECK_FALSE(arity.ret);
  CHECK(arity.error == "expects 1 argument, got 2");
  auto mismatch = derive(func0(2), {object()});
  CHECK_FALSE(mismatch.ret);
  CHECK(mismatch.bad_argument == 0);
  CHECK(mismatch.bad_argument_check == BaseCheck::kFailL1);
  auto disjoint = derive(func0(2), {shape(2)});
  CHECK(disjoint.bad_argument_check == BaseCheck::kFailL0);

  auto vd = vdevice("llvm");
  auto func1 = [&](int c) {
    auto n = sym("n"), m = sym("m");
    return func({tensor({n, m}, "float32", vd)}, tensor({add(m, c), n}, "float32", vd));
  };
  CHECK(analysis::struct_info_text(derive(func1(1), {tensor({10, 11}, "float32", vd)}).ret) ==
        "R.Tensor((12, 10), dtype=\"float32\", vdevice=\"llvm:0\")");

  CHECK(text(derive(opaque(), {object(), prim("float32")}).ret) == "R.Object");
  CHECK(text(derive(opaque(prim("float32")), {object(), prim("float32")}).ret) ==
        "R.Prim(\"float32\")");

  auto func_tuple0 = [](int c) {
    auto n = sym("n"), m = sym("m");
    return func({tuple({tensor({n, c}, "float32"), tensor({add(n, c), m}, "float32")})},
                tuple({tensor({m, n}, "float32")}));
  };
  CHECK(text(derive(func_tuple0(2),
                    {tuple({tensor({n, 2}, "float32"), tensor({add(n, 2), 10}, "float32")})})
                 .ret) == "R.Tuple(R.Tensor((10, n0), dtype=\"float32\"))");
  auto func_tuple1 = [](int c) {
    auto n = sym("n"), m = sym("m");
    return func({tuple({tensor({n, m}, "float32"), tensor({add(n, c), c}, "float32")})},
                tuple({tensor({m, n}, "float32")}));
  };
  CHECK(text(derive(func_tuple1(4), {tuple({tensor({n, 4}, "float32"), tensor(2, "float32")})})
                 .ret) == "R.Tuple(R.Tensor((4, n0), dtype=\"float32\"))");
  CHECK_FALSE(derive(func_tuple0(4), {tuple({tensor({n, 4}, "float32")})}).ret);

  // Vars inside function-typed parameters are not bound.
  auto func_shape_mixed = [&](int c) {
    auto n = sym("n"), m = sym("m");
    return func({shape({n, m}), func_tuple0(c)}, shape({add(m, n), c}));
  };
  CHECK(text(derive(func_shape_mixed(3), {shape({10, 20}), opaque(shape(2), true)}).ret) ==
        "R.Shape([30, 3])");

  // Extern functions derive their result from the call's sinfo_args.
  // `tensor({Dim(2)}, ...)`: a braced `{2}` alone would also match tensor(int ndim, ...).
  std::vector<Ref<StructInfo>> sinfo_args{tensor({Dim(2)}, "float32"), shape(1)};
  CHECK(text(analysis::derive_call_ret_struct_info(*analysis::extern_func_struct_info(), {}, az(),
                                                   &sinfo_args)
                 .ret) == "R.Tuple(R.Tensor((2,), dtype=\"float32\"), R.Shape(ndim=1))");
}

TEST_CASE("symbolic vars a struct info uses and defines") {
  auto n = sym("n"), m = sym("m");
  auto names = [](const std::vector<Ref<tir::Var>>& vars) {
    std::string out;
    for (const auto& v : vars) out += (out.empty() ? "" : ",") + v->name;
    return out;
  };
  struct Case {
    Ref<StructInfo> sinfo;
    std::string definable, used;
  };
  std::vector<Case> cases{
      {shape({1, n, 3}), "n", "n"},
      {shape({1, mul(n, 2), n, m}), "n,m", "n,m"},
      {shape({1, mul(n, 2), m}), "m", "n,m"},
      {tensor({1, n, 3}, "int32"), "n", "n"},
      {tensor({1, mul(n, 2), n, m}, "int32"), "n,m", "n,m"},
      {tensor({1, mul(n, 2), m}, "int32"), "m", "n,m"},
      {func({tensor({1, mul(n, 2), n, m}, "int32")}, tensor({1, n, 3}, "int32")), "n,m", "n,m"},
      {prim_value(n), "n", "n"},
      {prim_value(add(n, 1)), "", "n"},
  };
  for (const auto& c : cases) {
    INFO(text(c.sinfo));
    CHECK(names(analysis::definable_tir_vars(c.sinfo)) == c.definable);
    CHECK(names(analysis::tir_vars_in(c.sinfo)) == c.used);
  }
}

TEST_CASE("prim_func struct info from its buffers") {
  auto r = infer(R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def add(a: T.handle, b: T.Buffer((T.int64(4),), "float32"), n: T.int32):
        m = T.int64()
        A = T.match_buffer(a, (m, 4))
        T.evaluate(0)
)");
  const auto* member = r.result.module->find("add");
  REQUIRE(member);
  CHECK(text(member->gvar->struct_info) ==
        "R.Callable((R.Tensor((m, 4), dtype=\"float32\"), R.Tensor((4,), dtype=\"float32\"), "
        "R.Prim(\"int32\")), "
        "R.Tuple, True)");
}

TEST_CASE("struct info texts for messages") {
  auto n = sym("n");
  CHECK(analysis::struct_info_text(tensor({n, 4}, "float32")) ==
        "R.Tensor((n, 4), dtype=\"float32\")");
  CHECK(analysis::struct_info_text(tensor({n}, "")) == "R.Tensor((n,))");
  CHECK(analysis::struct_info_text(tensor(-1, "")) == "R.Tensor");
  CHECK(analysis::struct_info_text(shape(2)) == "R.Shape(ndim=2)");
  CHECK(analysis::struct_info_text(prim_value(add(n, 1))) == "R.Prim(value=n + 1)");
  CHECK(analysis::struct_info_text(tuple({})) == "R.Tuple");
  CHECK(analysis::struct_info_text(func({object()}, prim("bool"))) ==
        "R.Callable((R.Object,), R.Prim(\"bool\"), True)");
}

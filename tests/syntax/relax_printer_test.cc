// The Relax printer: the exact text TVM v0.20's printer gives for each construct (legacy
// profile), the current profile's spellings, and that both reparse to the same IR.
#include <catch2/catch.hpp>

#include "ir/structural_equal.h"
#include "relax_test_util.h"
#include "syntax/printer/text_util.h"

using namespace relax;

namespace {

// Parses `input` (which must have no errors) and prints it in `profile`.
std::string reprint(const std::string& input, syntax::Profile profile = syntax::Profile::kLegacy) {
  auto p = test::parse(input);
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  return test::print(p, profile);
}

// Text that is already canonical prints back unchanged.
void check_fixpoint(const std::string& canonical) {
  CHECK(reprint(canonical) == canonical);
}

}  // namespace

TEST_CASE("printer: signature with symbolic dims, declarations and func_attr") {
  check_fixpoint(R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("m * 2",), dtype="float16")) -> R.Tensor(("n", "m"), dtype="float32"):
    n = T.int64()
    m = T.int64()
    R.func_attr({"num_input": 1, "relax.force_pure": True})
    z: R.Tensor((n, m), dtype="float32") = R.add(x, x)
    return z)");
}

TEST_CASE("printer: the return type is printed first, so its vars are declared first") {
  std::string in = R"(
@R.function
def main(x: R.Tensor((1, "c", "d"), dtype="float32"), y: R.Tensor(("a", "b", "c", 1), dtype="float32")) -> R.Tensor(("a", "b", "c", "d"), dtype="float32"):
    return x
)";
  CHECK(reprint(in) == R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def main(x: R.Tensor((1, "c", "d"), dtype="float32"), y: R.Tensor(("a", "b", "c", 1), dtype="float32")) -> R.Tensor(("a", "b", "c", "d"), dtype="float32"):
    a = T.int64()
    b = T.int64()
    c = T.int64()
    d = T.int64()
    return x)");
}

TEST_CASE("printer: decorators, global_symbol, private, module alias and member order") {
  std::string in = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"global_symbol": "main", "b": 2, "a": 1})
        cls = Module
        y: R.Tensor((4,), "float32") = cls.helper(x)
        return y

    @R.function(private=True, pure=False)
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"global_symbol": "other"})
        return x
)";
  CHECK(reprint(in) == R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"global_symbol": "other"})
        return x

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"a": 1, "b": 2})
        cls = Module
        y: R.Tensor((4,), dtype="float32") = cls.helper(x)
        return y)");
}

TEST_CASE("printer: a private standalone function prints as main with private=True") {
  std::string in = R"(
@R.function(private=True)
def f(x: R.Object) -> R.Object:
    return x
)";
  CHECK(reprint(in) == R"(# from tvm.script import relax as R

@R.function(private=True)
def main(x: R.Object) -> R.Object:
    return x)");
}

TEST_CASE("printer: dataflow blocks list outputs in binding order") {
  check_fixpoint(R"(# from tvm.script import relax as R

@R.function
def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
    with R.dataflow():
        lv: R.Tensor((2, 3), dtype="float32") = R.exp(x)
        gv1: R.Tensor((2, 3), dtype="float32") = R.add(lv, x)
        lv1: R.Tensor((2, 3), dtype="float32") = R.multiply(gv1, x)
        gv: R.Tensor((2, 3), dtype="float32") = R.nn.relu(lv1)
        R.output(gv1, gv)
    res: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = gv1, gv
    return res)");
}

TEST_CASE("printer: if/else binds the result in each branch") {
  std::string in = R"(
@R.function
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    if c:
        y: R.Tensor((4,), "float32") = R.nn.relu(x)
    else:
        y: R.Tensor((4,), "float32") = x
    return y
)";
  CHECK(reprint(in) == R"(# from tvm.script import relax as R

@R.function
def f(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    if c:
        y_then: R.Tensor((4,), dtype="float32") = R.nn.relu(x)
        y: R.Tensor((4,), dtype="float32") = y_then
    else:
        y: R.Tensor((4,), dtype="float32") = x
    return y)");
}

TEST_CASE("printer: match_cast, prim values, shapes, strings, dtypes and constants") {
  check_fixpoint(R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def f(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
    m = T.int64()
    n = T.int64()
    x1: R.Tensor((m, n), dtype="float32") = R.match_cast(x, R.Tensor((m, n), dtype="float32"))
    p: R.Prim("int64") = R.prim_value(m * n + 1)
    q: R.Prim("float64") = R.prim_value(T.float64(0.5))
    s: R.Shape([m, n]) = R.shape([m, n])
    a: R.Object = R.str("text")
    b: R.Object = R.dtype("float16")
    c: R.Tensor((), dtype="float32") = R.const(0.10000000149011612, "float32")
    d: R.Tensor((), dtype="int64") = R.const(-3, "int64")
    e: R.Tensor((), dtype="bool") = R.const(True, "bool")
    g: R.Tensor((), dtype="float16") = R.const(1.5, "float16")
    h: R.Tensor((), dtype="float32") = R.const("inf", "float32")
    R.tuple()
    t: R.Tuple(R.Tensor((m, n), dtype="float32"), R.Shape([m, n])) = x1, s
    u: R.Tuple(R.Tensor((m, n), dtype="float32")) = (x1,)
    v: R.Tensor((m, n), dtype="float32") = t[0]
    return v)");
}

TEST_CASE("printer: call_tir hides the result annotation only when it is the output struct info") {
  std::string in = R"(
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        return x

    @R.function
    def main(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        cls = Module
        a = R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((8,), "float32"))
        b: R.Tensor((8,), "float32") = R.call_tir(cls.f, (a,), out_sinfo=R.Tensor((8,), "float32"))
        c: R.Tensor(ndim=1) = R.call_tir(cls.f, (b,), out_sinfo=R.Tensor((8,), "float32"), tir_vars=R.shape([4]))
        d = R.call_dps_packed("ext", (c,), out_sinfo=[R.Tensor((8,), "float32"), R.Tensor((8,), "float32")])
        e: R.Tensor((8,), "float32") = R.call_tir_inplace(cls.f, (x,), out_sinfo=R.Tensor((8,), "float32"), inplace_indices=[0])
        return a
)";
  std::string out = reprint(in);
  CHECK(out.find(
            "        a = R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((8,), dtype=\"float32\"))\n") !=
        std::string::npos);
  CHECK(out.find(
            "        b = R.call_tir(cls.f, (a,), out_sinfo=R.Tensor((8,), dtype=\"float32\"))\n") !=
        std::string::npos);
  CHECK(out.find("        c: R.Tensor(ndim=1) = R.call_tir(cls.f, (b,), out_sinfo=R.Tensor((8,), "
                 "dtype=\"float32\"), tir_vars=R.shape([4]))\n") != std::string::npos);
  CHECK(out.find("        d = R.call_dps_packed(\"ext\", (c,), out_sinfo=[R.Tensor((8,), "
                 "dtype=\"float32\"), R.Tensor((8,), dtype=\"float32\")])\n") != std::string::npos);
  CHECK(out.find("        e: R.Tensor((8,), dtype=\"float32\") = R.call_tir_inplace(cls.f, (x,), "
                 "out_sinfo=R.Tensor((8,), dtype=\"float32\"), inplace_indices=[0])\n") !=
        std::string::npos);
}

TEST_CASE("printer: packed calls, print, assert_op and void calls as statements") {
  check_fixpoint(R"(# from tvm.script import relax as R

@R.function(pure=False)
def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
    a: R.Tensor((4,), dtype="float32") = R.call_packed("my.func", x, R.prim_value(1), sinfo_args=(R.Tensor((4,), dtype="float32"),))
    b: R.Object = R.call_pure_packed("my.pure", a, sinfo_args=(R.Object,))
    R.print(x, format=R.str("x = {}"))
    R.assert_op(R.const(True, "bool"), x, format=R.str("bad {}"))
    R.call_packed("log", x, sinfo_args=(R.Tuple,))
    c: R.Tuple(R.Object, R.Object) = R.call_builtin_with_ctx("vm.builtin.f", (x, R.prim_value(0)), sinfo_args=(R.Tuple(R.Object, R.Object),))
    d: R.Object = R.call_inplace_packed("inplace.add", x, x, inplace_indices=[0, -1], sinfo_args=(R.Object,))
    return a)");
}

TEST_CASE("printer: op attributes print as written and vdevices by kind index") {
  check_fixpoint(R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "tag": ""}, 0, "global"), I.vdevice({"kind": "cuda", "tag": ""}, 0, "global")]})
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32", vdevice="cuda:0"), w: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="llvm:0"):
        y: R.Tensor((1, 4, 8, 8), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
        z: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="llvm:0") = R.to_vdevice(y, dst_vdevice="llvm:0")
        h: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="llvm:0") = R.hint_on_device(z, R.device(dev_type=1, dev_id=0))
        return h)");
}

TEST_CASE("printer: struct info forms") {
  check_fixpoint(R"(# from tvm.script import relax as R

@R.function
def main(a: R.Tensor, b: R.Tensor((10, 10)), c: R.Tensor(dtype="float32"), d: R.Tensor(dtype="int8", ndim=3), e: R.Shape(ndim=2), f: R.Shape(ndim=-1), g: R.Tuple, h: R.Tuple(R.Tensor, R.Object), i: R.Callable, j: R.Callable((R.Tensor((2,), dtype="float32"),), R.Tensor((2,), dtype="float32"), True), k: R.Callable(ret=R.Prim("int64"), purity=True), l: R.Prim("bool"), m: R.Prim(value=3)) -> R.Tuple:
    return R.tuple())");
}

TEST_CASE("printer: rebound names are made unique, reserved names get a suffix") {
  std::string in = R"(
@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    x = R.add(x, x)
    x = R.multiply(x, x)
    R = R.nn.relu(x)
    return R
)";
  std::string out = reprint(in);
  CHECK(out.find("    x_1 = R.add(x, x)\n    x_2 = R.multiply(x_1, x_1)\n    R_1 = "
                 "R.nn.relu(x_2)\n    return R_1") != std::string::npos);
}

TEST_CASE("printer: a nested function repeats the header and is followed by a blank line") {
  check_fixpoint(R"(# from tvm.script import relax as R

@R.function
def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
    # from tvm.script import relax as R
    
    @R.function
    def inner(y: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"Composite": "x"})
        s: R.Tensor((2, 3), dtype="float32") = R.add(y, x)
        return s

    gv: R.Tensor((2, 3), dtype="float32") = inner(x)
    return gv)");
}

TEST_CASE("printer: opaque metadata constants print their reference and TVM's comment") {
  std::string in = R"(# from tvm.script import relax as R

@R.function
def main() -> R.Tensor((2, 2), dtype="float32"):
    a: R.Tensor((2, 2), dtype="float32") = metadata["relax.expr.Constant"][0]
    return a

# Metadata omitted. Use show_meta=True in script() method to show it.)";
  auto p = test::parse(in);
  CHECK(p.errors() == std::vector<std::string>{"E0248@5:44"});  // no value, but it prints
  CHECK(test::print(p) == in);
}

TEST_CASE("printer: the current profile's spellings reparse to the same IR") {
  std::string in = R"(
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((8,), "float32")) -> R.Tensor((8,), "float32"):
        return x

    @R.function
    def main(x: R.Tensor(("n",), "float32"), o: R.Object, k: R.Prim("int64")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Module
        a = R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([n]))
        b: R.Tensor((n,), "float32") = R.call_packed("g", a, R.prim_value(2), sinfo_args=R.Tensor((n,), "float32"))
        c: R.Tensor((n,), "float32") = R.matmul(b, b, out_dtype="void")
        return c
)";
  auto p = test::parse(in);
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  std::string current = test::print(p, syntax::Profile::kCurrent);
  CHECK(current == R"(# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

n = TypeVar("n")
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor((n,), dtype="float32"), o: R.Any, k: T.int64) -> R.Tensor((n,), dtype="float32"):
        cls = Module
        a = R.call_tir(cls.f, (x, n), out_ty=R.Tensor((n,), dtype="float32"))
        b: R.Tensor((n,), dtype="float32") = R.call_packed("g", a, 2, ty_args=(R.Tensor((n,), dtype="float32"),))
        c: R.Tensor((n,), dtype="float32") = R.matmul(b, b, out_dtype=None)
        return c)");
  auto q = test::parse(current);
  INFO(q.messages());
  REQUIRE_FALSE(q.diags.has_errors());
  auto diff = ir::structural_diff(p.result.module, q.result.module);
  CHECK_FALSE(diff.has_value());
  if (diff) WARN(*diff);
  CHECK(test::print(q, syntax::Profile::kCurrent) == current);
  CHECK(test::print(q) == test::print(p));
}

TEST_CASE(
    "printer: current-profile prim values stay explicit where a bare number would change meaning") {
  std::string in = R"(
@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    a = R.prim_value(1)
    b: R.Prim("int64") = R.prim_value(2)
    c: R.Object = R.prim_value(3)
    d = R.call_packed("g", x, R.prim_value(4), sinfo_args=R.Callable(ret=R.Object, derive_func="my.derive"))
    return (a, b, c, R.prim_value(5))
)";
  auto p = test::parse(in);
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  std::string current = test::print(p, syntax::Profile::kCurrent);
  CHECK(current.find("    a = R.prim_value(1)\n") != std::string::npos);
  CHECK(current.find("    b: T.int64 = 2\n") != std::string::npos);
  CHECK(current.find("    c: R.Any = R.prim_value(3)\n") != std::string::npos);
  CHECK(current.find("g\", x, 4, ty_args=(R.Callable(derive_func=\"my.derive\"),))") !=
        std::string::npos);
  CHECK(current.find("    return (a, b, c, 5)") != std::string::npos);
  auto q = test::parse(current);
  INFO(q.messages());
  REQUIRE_FALSE(q.diags.has_errors());
  CHECK_FALSE(ir::structural_diff(p.result.module, q.result.module).has_value());
}

TEST_CASE("printer: int32 prim values keep their dtype in Relax contexts") {
  std::string in = R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def main() -> R.Tuple(R.Prim("int32"), R.Prim("int64")):
    a: R.Prim("int32") = R.prim_value(T.int32(5))
    b: R.Prim("int64") = R.prim_value(7)
    c: R.Tuple(R.Prim("int32"), R.Prim("int64")) = a, b
    return c)";
  auto p = test::parse(in);
  INFO(p.messages());
  REQUIRE_FALSE(p.diags.has_errors());
  CHECK(test::print(p) == in);
  auto a = test::bindings(p.function("main"))[0]->value.as<ir::PrimValue>();
  REQUIRE(a);
  CHECK(a->value->dtype == ir::DataType::Int32());
}

TEST_CASE("printer: a symbolic var first met in a branch is declared at the function's top") {
  check_fixpoint(R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def main(c: R.Tensor((), dtype="bool"), x: R.Tensor(dtype="float32", ndim=1)) -> R.Tensor(dtype="float32", ndim=1):
    k = T.int64()
    if c:
        y_then: R.Tensor((k,), dtype="float32") = R.match_cast(x, R.Tensor((k,), dtype="float32"))
        y: R.Tensor(dtype="float32", ndim=1) = y_then
    else:
        y: R.Tensor(dtype="float32", ndim=1) = x
    k_1: R.Tensor(dtype="float32", ndim=1) = R.nn.relu(y)
    return k_1)");
}

TEST_CASE("printer: call_tir_with_grad, shape-typed tensors and data constants") {
  std::string in = R"(
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((5, 5), "float32")) -> R.Tensor((5, 5), "float32"):
        return x

    @R.function
    def main(a: R.Tensor((5, 5), "float32"), s: R.Shape(ndim=2), t: R.Tensor(s, "float32")) -> R.Tensor((5, 5), "float32"):
        cls = Module
        b = R.call_tir_with_grad(cls.f, (a,), out_sinfo=R.Tensor((5, 5), "float32"), te_grad_name="f_grad", te_grad_kwargs={"k": T.float32(2.0)})
        c: R.Tensor((2,), "int64") = R.const([1, 2], "int64")
        return b
)";
  std::string out = reprint(in);
  CHECK(out.find("def main(a: R.Tensor((5, 5), dtype=\"float32\"), s: R.Shape(ndim=2), t: "
                 "R.Tensor(s, dtype=\"float32\"))") != std::string::npos);
  CHECK(out.find("b: R.Tensor((5, 5), dtype=\"float32\") = R.call_tir_with_grad(cls.f, (a,), "
                 "out_sinfo=R.Tensor((5, 5), dtype=\"float32\"), te_grad_name=\"f_grad\", "
                 "te_grad_kwargs={\"k\": T.float32(2.0)})") == std::string::npos);
  CHECK(out.find(
            "b = R.call_tir_with_grad(cls.f, (a,), out_sinfo=R.Tensor((5, 5), dtype=\"float32\"), "
            "te_grad_name=\"f_grad\", te_grad_kwargs={\"k\": T.float32(2.0)})") !=
        std::string::npos);
  CHECK(out.find("c: R.Tensor((2,), dtype=\"int64\") = metadata[\"relax.expr.Constant\"][0]") !=
        std::string::npos);
  CHECK(out.ends_with("\n\n# Metadata omitted. Use show_meta=True in script() method to show it."));
}

TEST_CASE("printer names: the first free suffix, reused once its frame is gone") {
  syntax::NameTable names;
  int nodes[16];
  auto def = [&](int i, const char* hint) {
    return names.define(reinterpret_cast<const ir::Object*>(&nodes[i]), hint);
  };
  CHECK(def(0, "lv") == "lv");
  CHECK(def(1, "lv") == "lv_1");
  names.push_frame();
  CHECK(def(2, "lv") == "lv_2");
  CHECK(def(3, "k") == "k");
  CHECK(def(4, "k") == "k_1");
  names.pop_frame();
  CHECK(names.find(reinterpret_cast<const ir::Object*>(&nodes[2])) == nullptr);
  CHECK(def(5, "lv") == "lv_2");  // freed with the frame
  CHECK(def(6, "k_1") == "k_1");  // a hint of its own that is also k's second candidate
  CHECK(def(7, "k") == "k");
  CHECK(def(8, "k") == "k_2");
  names.reserve("y_1");
  CHECK(def(9, "y") == "y");
  CHECK(def(10, "y") == "y_2");
  CHECK(def(11, "a.b") == "a_b");
  CHECK(def(12, "a_b") == "a_b_1");
  CHECK(*names.find(reinterpret_cast<const ir::Object*>(&nodes[1])) == "lv_1");
}

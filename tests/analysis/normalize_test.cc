// Normalize on .relax snippets: the struct info of each binding (printed as `relax print` shows
// it), symbolic shapes, annotations, calls of functions and closures, if/else, match_cast,
// returns, leaves; errors with their codes and positions, and recovery after an error.
#include <catch2/catch.hpp>

#include "tests/analysis/inference_test_util.h"

using namespace relax;
using namespace relax::infer_test;
using Codes = std::vector<std::string>;

TEST_CASE("normalize: parameters define symbolic vars, op calls are inferred") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(("n", "m"), "float32"), y: R.Tensor(("m",), "float32"), s: R.Shape(["n", "m"])):
    a = R.add(x, y)
    b = R.multiply(a, R.const(2.0, "float32"))
    c = R.less(a, x)
    return c
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("a") == "R.Tensor((n, m), dtype=\"float32\")");
  CHECK(r.sinfo("b") == "R.Tensor((n, m), dtype=\"float32\")");
  CHECK(r.sinfo("c") == "R.Tensor((n, m), dtype=\"bool\")");
  // The return struct info is the body's, erased to what the parameters define.
  CHECK(text(r.function("f")->ret_struct_info) == "R.Tensor((n, m), dtype=\"bool\")");
  CHECK(text(r.function("f")->struct_info).rfind("R.Callable((", 0) == 0);
}

TEST_CASE("normalize: leaves have their intrinsic struct info") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(("n",), "float32")):
    n = T.int64()
    s = R.shape([n, 2])
    p = R.prim_value(n + 1)
    q = R.prim_value(T.float32(1.5))
    st = R.str("hi")
    d = R.dtype("float32")
    c = R.const([1, 2, 3], "int32")
    e = R.ExternFunc("my_func")
    t = (x, s)
    u = t[1]
    w = R.tuple()
    return w
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("s") == "R.Shape([n, 2])");
  CHECK(r.sinfo("p") == "R.Prim(value=n + 1)");
  CHECK(r.sinfo("q") == "R.Prim(value=T.float32(1.5))");
  CHECK(r.sinfo("st") == "R.Object");
  CHECK(r.sinfo("d") == "R.Object");
  CHECK(r.sinfo("c") == "R.Tensor((3,), dtype=\"int32\")");
  CHECK(r.sinfo("e") == "R.Callable");
  CHECK(r.sinfo("t") == "R.Tuple(R.Tensor((n,), dtype=\"float32\"), R.Shape([n, 2]))");
  CHECK(r.sinfo("u") == "R.Shape([n, 2])");
  CHECK(r.sinfo("w") == "R.Tuple");
}

TEST_CASE("normalize: a call keeps a compatible annotation, other values their own struct info") {
  const char* text = R"(
@R.function
def f(x: R.Tensor((4, 8), "float32"), y: R.Tensor((4, 8), "float32")):
    z: R.Object = R.add(x, y)
    w: R.Tensor(ndim=2) = R.add(x, y)
    v: R.Tensor((4, 8), "float32") = z
    a: R.Tensor(ndim=2) = x
    return w
)";
  auto r = infer(text);
  CHECK(r.codes().empty());
  CHECK(r.sinfo("z") == "R.Object");
  CHECK(r.sinfo("w") == "R.Tensor(ndim=2)");
  // An alias takes the value's struct info; the annotation is only checked (`v` is compatible
  // with R.Object, which may be anything).
  CHECK(r.sinfo("v") == "R.Object");
  CHECK(r.sinfo("a") == "R.Tensor((4, 8), dtype=\"float32\")");

  // Ignoring annotations: everything is inferred from the parameters.
  auto i = infer(text, /*ignore_annotations=*/true);
  CHECK(i.codes().empty());
  CHECK(i.sinfo("z") == "R.Tensor((4, 8), dtype=\"float32\")");
  CHECK(i.sinfo("w") == "R.Tensor((4, 8), dtype=\"float32\")");
  CHECK(i.sinfo("v") == "R.Tensor((4, 8), dtype=\"float32\")");
}

TEST_CASE("normalize: provably incompatible annotations are errors naming both sides") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((4, 8), "float32")):
    a: R.Tensor(ndim=3) = R.add(x, x)
    b: R.Tensor((4, 8), "int32") = R.add(x, x)
    c: R.Shape = x
    d = R.add(a, a)
    return d
)");
  CHECK(r.codes() == Codes{"E0350@4:8", "E0350@5:8", "E0350@6:5"});
  CHECK(
      r.diags.items()[0].message ==
      "the annotation of `a` is incompatible with its value: annotated R.Tensor(ndim=3), inferred "
      "R.Tensor((4, 8), dtype=\"float32\")");
  // The annotation stays (the user's intent); later bindings are still inferred from it.
  CHECK(r.sinfo("a") == "R.Tensor(ndim=3)");
  CHECK(r.sinfo("d") == "R.Tensor(ndim=3)");
}

TEST_CASE("normalize: symbolic shapes and the analyzer") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(("n", 4), "float32"), y: R.Tensor((1, 4), "float32"), z: R.Tensor(("n * 2", 4), "float32")):
    a = R.add(x, y)
    b = R.add(x, z)
    return b
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("a") == "R.Tensor((n, 4), dtype=\"float32\")");
  // n and n * 2 are neither provably equal nor provably different: the shape is unknown.
  CHECK(r.sinfo("b") == "R.Tensor(dtype=\"float32\", ndim=2)");
}

TEST_CASE("normalize: match_cast defines symbolic vars, an impossible one is an error") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(dtype="float32", ndim=2), s: R.Shape(ndim=2)):
    n = T.int64()
    m = T.int64()
    y = R.match_cast(x, R.Tensor((n, m), "float32"))
    z = R.add(y, y)
    w = R.match_cast(x, R.Shape([n, m]))
    v = R.match_cast(s, R.Shape([m, n]))
    return z
)");
  CHECK(r.codes() == Codes{"E0355@8:5"});
  CHECK(r.sinfo("y") == "R.Tensor((n, m), dtype=\"float32\")");
  CHECK(r.sinfo("z") == "R.Tensor((n, m), dtype=\"float32\")");
  CHECK(r.sinfo("v") == "R.Shape([m, n])");
  // n and m come from a match_cast, not the parameters: the return loses them.
  CHECK(text(r.function("f")->ret_struct_info) == "R.Tensor(dtype=\"float32\", ndim=2)");
}

TEST_CASE("normalize: if/else joins the branches (LCA of the erased branch results)") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(("n",), "float32"), y: R.Tensor(("n",), "float32"), c: R.Prim("bool")):
    if c:
        a = R.add(x, y)
    else:
        a = R.multiply(x, y)
    if c:
        b = x
    else:
        b = R.const([1.0, 2.0], "float32")
    if c:
        k = T.int64()
        t = R.match_cast(x, R.Tensor((k,), "float32"))
    else:
        t = y
    if c:
        d = R.prim_value(5)
    else:
        d = R.prim_value(10)
    return a
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("a") == "R.Tensor((n,), dtype=\"float32\")");
  CHECK(r.sinfo("b") == "R.Tensor(dtype=\"float32\", ndim=1)");
  // k is defined inside the branch only: erased outside it.
  CHECK(r.sinfo("t") == "R.Tensor(dtype=\"float32\", ndim=1)");
  CHECK(r.sinfo("d") == "R.Prim(\"int64\")");
}

TEST_CASE("normalize: calls of module functions derive the result through the signature") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @R.function
    def inner(x: R.Tensor(("n", "m"), "float32")) -> R.Tensor(("m", "n + 1"), "float32"):
        n = T.int64()
        m = T.int64()
        y: R.Tensor((m, n + 1), "float32") = R.call_pure_packed("f", x, sinfo_args=(R.Tensor((m, n + 1), "float32"),))
        return y

    @R.function
    def main(a: R.Tensor((3, 4), "float32"), b: R.Tensor(("k", 2), "float32")):
        cls = Module
        p = cls.inner(a)
        q = cls.inner(b)
        return q
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("p") == "R.Tensor((4, 4), dtype=\"float32\")");
  CHECK(r.sinfo("q") == "R.Tensor((2, k + 1), dtype=\"float32\")");
  // The global var carries the function's struct info.
  CHECK(text(r.result.module->find("inner")->gvar->struct_info) ==
        "R.Callable((R.Tensor((n, m), dtype=\"float32\"),), R.Tensor((m, n + 1), "
        "dtype=\"float32\"), True)");
}

TEST_CASE("normalize: call errors name the parameter and both struct infos") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @R.function
    def g(x: R.Tensor(("n",), "float32"), y: R.Shape(["n"])) -> R.Tensor(("n",), "float32"):
        return x

    @R.function
    def main(a: R.Tensor((3,), "float32"), t: R.Tensor((2, 2), "float32")):
        cls = Module
        p = cls.g(a)
        q = cls.g(a, t)
        z = cls.g(a, R.shape([3]))
        w = a(z)
        return z
)");
  CHECK(r.codes() == Codes{"E0351@11:13", "E0352@12:22", "E0353@14:13"});
  CHECK(r.diags.items()[0].message == "cls.g expects 2 arguments, got 1");
  CHECK(r.diags.items()[1].message ==
        "argument 1 of cls.g does not match parameter `y`: expected R.Shape([n]), got R.Tensor((2, "
        "2), "
        "dtype=\"float32\")");
  REQUIRE(r.diags.items()[1].labels.size() == 1);
  CHECK(r.diags.items()[1].labels[0].message == "`t` is defined here");
  CHECK(r.diags.items()[2].message ==
        "`a` is not a function: its struct info is R.Tensor((3,), dtype=\"float32\")");
  // Failed calls are unknown, and the binding after them is still inferred.
  CHECK(r.sinfo("p") == "R.Object");
  CHECK(r.sinfo("z") == "R.Tensor((3,), dtype=\"float32\")");
}

TEST_CASE("normalize: nested functions, closures and recursion") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((2, 3), "float32")):
    @R.function
    def inner(y: R.Tensor(("k", 3), "float32")) -> R.Tensor(("k", 3), "float32"):
        z = R.add(y, y)
        return z

    @R.function
    def rec(i: R.Tensor((), "int32")) -> R.Tensor((), "int32"):
        j = rec(i)
        return j

    a = inner(x)
    return a
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("inner") ==
        "R.Callable((R.Tensor((k, 3), dtype=\"float32\"),), R.Tensor((k, 3), dtype=\"float32\"), "
        "True)");
  CHECK(r.sinfo("z") == "R.Tensor((k, 3), dtype=\"float32\")");
  CHECK(r.sinfo("j") == "R.Tensor((), dtype=\"int32\")");
  CHECK(r.sinfo("a") == "R.Tensor((2, 3), dtype=\"float32\")");
}

TEST_CASE("normalize: return struct info against the annotation") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @R.function
    def weaker(x: R.Tensor((2, 3), "float32")) -> R.Tensor(ndim=2):
        return x

    @R.function
    def stronger(x: R.Tensor(ndim=2)) -> R.Tensor((2, 3), "float32"):
        return x

    @R.function
    def impossible(x: R.Tensor((2, 3), "float32")) -> R.Shape:
        return x

    @R.function
    def unannotated(x: R.Tensor(("n",), "float32")):
        y = R.add(x, x)
        return y
)");
  // A body more specific than the annotation refines the return; an annotation the body does not
  // provably satisfy is kept (checked at run time); a provably impossible one is a warning.
  CHECK(text(r.function("weaker")->ret_struct_info) == "R.Tensor((2, 3), dtype=\"float32\")");
  CHECK(text(r.function("stronger")->ret_struct_info) == "R.Tensor((2, 3), dtype=\"float32\")");
  CHECK(text(r.function("impossible")->ret_struct_info) == "R.Shape(ndim=-1)");
  CHECK(r.codes() == Codes{"W0351@14:16"});
  CHECK(text(r.function("unannotated")->ret_struct_info) == "R.Tensor((n,), dtype=\"float32\")");
}

TEST_CASE("normalize: unknown ops are reported once, inference continues") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((4,), "float32")):
    a = R.frobnicate(x)
    b = R.add(a, x)
    c = R.add(x, x)
    d: R.Tensor((4,), "float32") = R.frobnicate(c)
    e = R.add(d, d)
    return e
)");
  CHECK(r.codes() == Codes{"E0301@4:9", "E0301@7:36"});
  CHECK(r.diags.items()[0].message == "unknown op `R.frobnicate`");
  // Uses of the unknown result are not reported again; an annotation keeps what is known.
  CHECK(r.sinfo("a") == "R.Object");
  CHECK(r.sinfo("b") == "R.Object");
  CHECK(r.sinfo("c") == "R.Tensor((4,), dtype=\"float32\")");
  CHECK(r.sinfo("d") == "R.Tensor((4,), dtype=\"float32\")");
  CHECK(r.sinfo("e") == "R.Tensor((4,), dtype=\"float32\")");
}

TEST_CASE("normalize: op errors are located at the argument and recovery continues") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 4), "float32"), i: R.Tensor((2, 3), "int32")):
    a = R.add(x, y)
    b = R.add(x, i)
    c = R.multiply(x, x)
    return c
)");
  CHECK(r.codes() == Codes{"E0308@4:18", "E0307@5:18"});
  REQUIRE(r.diags.items()[0].labels.size() == 1);
  CHECK(r.diags.items()[0].labels[0].message == "`y` is defined here");
  CHECK(r.sinfo("a") == "R.Object");
  CHECK(r.sinfo("c") == "R.Tensor((2, 3), dtype=\"float32\")");
}

TEST_CASE("normalize: tuple items out of range and values that are not tuples") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @R.function
    def pair(x: R.Tensor((2,), "float32")) -> R.Tuple(R.Tensor((2,), "float32"), R.Tensor((2,), "float32")):
        return (x, x)

    @R.function
    def main(x: R.Tensor((2,), "float32"), o: R.Object):
        cls = Module
        t = cls.pair(x)
        a = t[1]
        b = t[2]
        c = o[0]
        return a
)");
  CHECK(r.codes() == Codes{"E0354@13:13", "E0354@14:13"});
  CHECK(
      r.diags.items()[0].message ==
      "index 2 is out of range for a tuple of 2 fields (R.Tuple(R.Tensor((2,), dtype=\"float32\"), "
      "R.Tensor((2,), dtype=\"float32\")))");
  CHECK(r.sinfo("a") == "R.Tensor((2,), dtype=\"float32\")");
}

TEST_CASE("normalize: statements must be void") {
  auto r = infer(R"(
@R.function(pure=False)
def f(x: R.Tensor((2,), "float32")):
    R.print(x, format="x = {}")
    R.call_packed("log", x, sinfo_args=R.Tuple())
    R.call_packed("compute", x)
    return x
)");
  CHECK(r.codes() == Codes{"E0356@6:5"});
  CHECK(r.print().find("    R.print(x, format=R.str(\"x = {}\"))\n") != std::string::npos);
}

TEST_CASE("normalize: packed calls and extern functions take sinfo_args") {
  auto r = infer(R"(
@R.function(pure=False)
def f(x: R.Tensor((2,), "float32")):
    a = R.call_packed("f", x, sinfo_args=R.Tensor((2,), "float32"))
    b = R.call_packed("g", x, sinfo_args=(R.Tensor((2,), "float32"), R.Shape(ndim=1)))
    c = R.call_packed("h", x)
    e = R.ExternFunc("k")
    d = e(x)
    return a
)");
  CHECK(r.sinfo("a") == "R.Tensor((2,), dtype=\"float32\")");
  CHECK(r.sinfo("b") == "R.Tuple(R.Tensor((2,), dtype=\"float32\"), R.Shape(ndim=1))");
  CHECK(r.sinfo("c") == "R.Object");
  CHECK(r.sinfo("e") == "R.Callable");
  CHECK(r.sinfo("d") == "R.Object");
}

TEST_CASE("normalize: uses of void values become the empty tuple") {
  auto r = infer(R"(
@R.function(pure=False)
def f(x: R.Tensor((2,), "float32")):
    v = R.print(x, format="")
    t = (v, x)
    return v
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("t") == "R.Tuple(R.Tuple, R.Tensor((2,), dtype=\"float32\"))");
  CHECK(r.print().find("t: R.Tuple(R.Tuple, R.Tensor((2,), dtype=\"float32\")) = R.tuple(), x") !=
        std::string::npos);
  CHECK(r.print().find("return R.tuple()") != std::string::npos);
}

TEST_CASE("normalize: dataflow blocks") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(("n", 3), "float32")):
    with R.dataflow():
        a = R.add(x, x)
        b = R.multiply(a, x)
        R.output(b)
    return b
)");
  CHECK(r.codes().empty());
  CHECK(r.sinfo("a") == "R.Tensor((n, 3), dtype=\"float32\")");
  CHECK(r.sinfo("b") == "R.Tensor((n, 3), dtype=\"float32\")");
  CHECK(r.var("a")->is_dataflow());
}

TEST_CASE("normalize: relax print shows every binding's struct info") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor(("n",), "float32")):
    y = R.add(x, x)
    z = (y, x)
    return z
)");
  CHECK(r.print() == R"(# from tvm.script import tir as T
# from tvm.script import relax as R

@R.function
def f(x: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")):
    n = T.int64()
    y: R.Tensor((n,), dtype="float32") = R.add(x, x)
    z: R.Tuple(R.Tensor((n,), dtype="float32"), R.Tensor((n,), dtype="float32")) = y, x
    return z)");
}

TEST_CASE("normalize: callers see the declared signature, as in TVM's parser") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @R.function
    def g(x: R.Tensor(("n",), "float32")):
        y = R.add(x, x)
        return y

    @R.function
    def main(a: R.Tensor((3,), "float32")):
        cls = Module
        b = cls.g(a)
        return b
)");
  CHECK(r.codes().empty());
  // g's return is not annotated: callers see R.Object, then the global var gets g's struct info.
  CHECK(r.sinfo("b") == "R.Object");
  CHECK(
      text(r.result.module->find("g")->gvar->struct_info) ==
      "R.Callable((R.Tensor((n,), dtype=\"float32\"),), R.Tensor((n,), dtype=\"float32\"), True)");
}

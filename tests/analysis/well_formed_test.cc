// Well-formedness (analysis/well_formed.cc): one test per rule, each with a module that breaks it
// and one that does not. Rules the front end already enforces on text are broken by editing the
// parsed (and normalized) module, as a pass could.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/analysis/inference_test_util.h"

using namespace relax;
using namespace relax::infer_test;

namespace {

std::vector<std::string> check(const Inferred& r, const analysis::WellFormedOptions& options = {}) {
  ir::DiagnosticBag diags;
  analysis::check_well_formed(*r.result.module, diags, options);
  std::vector<std::string> out;
  for (const auto& d : diags.items()) out.push_back(d.code);
  return out;
}

bool has(const std::vector<std::string>& codes, const std::string& code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

std::vector<Ref<ir::Binding>> bindings_of(const Ref<ir::Function>& f) {
  std::vector<Ref<ir::Binding>> out;
  for (const auto& b : f->body->blocks)
    out.insert(out.end(), b->bindings.begin(), b->bindings.end());
  return out;
}

}  // namespace

TEST_CASE("well-formed: conformance-style modules are well formed") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @T.prim_func
    def add(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
        for i, j in T.grid(4, 4):
            with T.block("add"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), c: R.Prim("bool")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            a = R.add(x, x)
            b = R.call_pure_packed("f", a, sinfo_args=R.Tensor((n, 4), "float32"))
            R.output(b)
        if c:
            y = b
        else:
            y = x
        return y
)");
  CHECK(r.codes().empty());
  CHECK(check(r).empty());
}

TEST_CASE("well-formed E0401: a variable used outside its scope") {
  const char* text = R"(
@R.function
def f(x: R.Tensor((2,), "float32"), c: R.Prim("bool")):
    if c:
        a = R.add(x, x)
        y = a
    else:
        y = x
    return y
)";
  auto ok = infer(text);
  CHECK(check(ok).empty());
  auto r = infer(text);
  r.function("f")->body->body = r.var("a");
  CHECK(check(r) == std::vector<std::string>{"E0401"});
}

TEST_CASE("well-formed E0402: a variable defined twice") {
  const char* text = R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    a = R.add(x, x)
    return a
)";
  auto r = infer(text);
  CHECK(check(r).empty());
  auto& block = r.function("f")->body->blocks[0];
  block->bindings.push_back(block->bindings[0]);
  CHECK(check(r) == std::vector<std::string>{"E0402"});
}

TEST_CASE("well-formed E0403: a dataflow variable used after its block") {
  const char* text = R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    with R.dataflow():
        a = R.add(x, x)
        b = R.multiply(a, a)
        R.output(b)
    return b
)";
  auto ok = infer(text);
  CHECK(check(ok).empty());
  auto r = infer(text);
  r.function("f")->body->body = r.var("a");
  CHECK(check(r) == std::vector<std::string>{"E0403"});
}

TEST_CASE("well-formed E0404: a dataflow variable defined outside a dataflow block") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    a = R.add(x, x)
    return a
)");
  CHECK(check(r).empty());
  auto dv = make<ir::DataflowVar>("d", r.var("a")->struct_info);
  r.function("f")->body->blocks[0]->bindings.push_back(make<ir::VarBinding>(dv, r.var("x")));
  CHECK(check(r) == std::vector<std::string>{"E0404"});
}

TEST_CASE("well-formed E0405: an impure call inside a dataflow block") {
  auto bad = infer(R"(
@R.function(pure=False)
def f(x: R.Tensor((2,), "float32")):
    with R.dataflow():
        a = R.add(x, x)
        R.print(a, format="{}")
        R.output(a)
    return a
)");
  CHECK(bad.codes().empty());
  CHECK(check(bad) == std::vector<std::string>{"E0405"});
  auto ok = infer(R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    with R.dataflow():
        a = R.call_pure_packed("g", x, sinfo_args=R.Tensor((2,), "float32"))
        R.output(a)
    return a
)");
  CHECK(check(ok).empty());
}

TEST_CASE("well-formed E0406: an impure call in a pure function") {
  auto bad = infer(R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    y = R.call_packed("g", x, sinfo_args=R.Tensor((2,), "float32"))
    return y
)",
                   false, true);
  CHECK(bad.codes() == std::vector<std::string>{"E0406@4:9"});
  for (const char* header : {"@R.function(pure=False)\ndef f(x: R.Tensor((2,), \"float32\")):\n",
                             "@R.function\ndef f(x: R.Tensor((2,), \"float32\")):\n    "
                             "R.func_attr({\"relax.force_pure\": True})\n"}) {
    auto ok = infer(
        std::string(header) +
        "    y = R.call_packed(\"g\", x, sinfo_args=R.Tensor((2,), \"float32\"))\n    return y\n");
    CHECK(check(ok).empty());
  }
}

TEST_CASE("well-formed E0407: relax.force_pure on an impure function") {
  auto bad = infer(R"(
@R.function(pure=False)
def f(x: R.Tensor((2,), "float32")):
    R.func_attr({"relax.force_pure": True})
    return x
)");
  CHECK(check(bad) == std::vector<std::string>{"E0407"});
}

TEST_CASE("well-formed E0408: a symbolic variable nothing defines") {
  auto bad = infer(R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    n = T.int64()
    y: R.Tensor((n,), "float32") = R.call_pure_packed("g", x, sinfo_args=R.Tensor((n,), "float32"))
    return y
)",
                   false, true);
  CHECK(bad.codes() == std::vector<std::string>{"E0408@5:36"});
  CHECK(bad.diags.items()[0].message == "symbolic variable `n` is not defined here");
  auto ok = infer(R"(
@R.function
def f(x: R.Tensor(dtype="float32", ndim=1)):
    n = T.int64()
    x1 = R.match_cast(x, R.Tensor((n,), "float32"))
    y: R.Tensor((n + 1,), "float32") = R.call_pure_packed("g", x1, sinfo_args=R.Tensor((n + 1,), "float32"))
    return y
)");
  CHECK(check(ok).empty());
}

TEST_CASE("well-formed E0409: a symbolic variable shared by two functions") {
  const char* text = R"(
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor(("n",), "float32")):
        return x

    @R.function
    def g(y: R.Tensor(("m",), "float32")):
        return y
)";
  auto r = infer(text);
  CHECK(check(r).empty());
  // g's parameter (and so its result) now uses f's `n`.
  auto g = r.function("g");
  g->params[0]->struct_info = r.function("f")->params[0]->struct_info;
  g->ret_struct_info = g->params[0]->struct_info;
  g->body->struct_info = g->params[0]->struct_info;
  CHECK(check(r) == std::vector<std::string>{"E0409"});
}

TEST_CASE("well-formed E0410: a global variable the module lacks") {
  const char* text = R"(
@I.ir_module
class Module:
    @R.function
    def g(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x

    @R.function
    def main(x: R.Tensor((2,), "float32")):
        cls = Module
        y = cls.g(x)
        return y
)";
  auto r = infer(text);
  CHECK(check(r).empty());
  r.result.module->remove("g");
  CHECK(check(r) == std::vector<std::string>{"E0410"});
  analysis::WellFormedOptions options;
  options.ignore_missing_globals.insert("g");
  CHECK(check(r, options).empty());
}

TEST_CASE("well-formed E0411: global_symbol differs from the function's name") {
  auto bad = infer(R"(
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((2,), "float32")):
        R.func_attr({"global_symbol": "other"})
        return x
)");
  CHECK(check(bad) == std::vector<std::string>{"E0411"});
}

TEST_CASE("well-formed E0412: if/else inside a dataflow block") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((2,), "float32"), c: R.Prim("bool")):
    if c:
        y = x
    else:
        y = R.add(x, x)
    return y
)");
  CHECK(check(r).empty());
  r.function("f")->body->blocks[0]->is_dataflow = true;
  CHECK(check(r) == std::vector<std::string>{"E0412"});
}

TEST_CASE("well-formed E0413: a variable that is a parameter of two functions") {
  auto r = infer(R"(
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((2,), "float32")):
        return x

    @R.function
    def g(x: R.Tensor((2,), "float32")):
        return x
)");
  CHECK(check(r).empty());
  auto g = r.function("g");
  g->params[0] = r.function("f")->params[0];
  g->body->body = g->params[0];
  CHECK(check(r) == std::vector<std::string>{"E0413"});
}

TEST_CASE("well-formed E0414: not in A-normal form") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    a = R.add(x, x)
    b = R.multiply(a, x)
    return b
)");
  CHECK(check(r).empty());
  auto bs = bindings_of(r.function("f"));
  bs[1]->value.as<ir::Call>()->args[0] = bs[0]->value;  // R.multiply(R.add(x, x), x)
  CHECK(check(r) == std::vector<std::string>{"E0414"});
}

TEST_CASE("well-formed E0415: a module that was not normalized") {
  Inferred r;
  r.result = syntax::parse_text(
      "@R.function\ndef f(x: R.Tensor((2,), \"float32\")):\n    a = R.add(x, x)\n    return a\n",
      "test.relax", r.diags);
  // One report per function, not one per expression.
  CHECK(check(r) == std::vector<std::string>{"E0415"});
}

TEST_CASE("well-formed E0416: a shape with a non-integer dimension") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((2,), "float32")):
    s = R.shape([2, 3])
    return s
)");
  CHECK(check(r).empty());
  bindings_of(r.function("f"))[0]->value.as<ir::ShapeExpr>()->values[1] =
      tir::float_imm(ir::DataType::Float32(), 1.5);
  CHECK(check(r) == std::vector<std::string>{"E0416"});
}

TEST_CASE("well-formed E0417: a dataflow variable inside a struct info") {
  auto r = infer(R"(
@R.function
def f(x: R.Tensor((2, 3), "float32")):
    with R.dataflow():
        s = R.shape_of(x)
        y = R.add(x, x)
        R.output(y)
    return y
)");
  CHECK(check(r).empty());
  r.var("y")->struct_info = make<ir::TensorStructInfo>(r.var("s"), dt("float32"), 2);
  CHECK(has(check(r), "E0417"));
}

TEST_CASE("well-formed E0418: call_tir not in normalized form, normalize puts it there") {
  const char* text = R"(
@I.ir_module
class Module:
    @T.prim_func
    def copy(A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2,), "float32")):
        cls = Module
        t = (x,)
        y = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((2,), "float32"))
        return y
)";
  auto r = infer(text);
  CHECK(check(r).empty());
  auto call = bindings_of(r.function("main"))[1]->value.as<ir::Call>();
  call->args[1] = r.var("t");
  CHECK(check(r) == std::vector<std::string>{"E0418"});

  // Before normalization: the variable is replaced by the tuple it is bound to.
  Inferred raw;
  raw.result = syntax::parse_text(text, "test.relax", raw.diags);
  bindings_of(raw.function("main"))[1]->value.as<ir::Call>()->args[1] = raw.var("t");
  analysis::normalize_module(*raw.result.module, raw.diags);
  CHECK(raw.codes().empty());
  CHECK(bindings_of(raw.function("main"))[1]->value.as<ir::Call>()->args[1].is<ir::Tuple>());
  CHECK(check(raw).empty());
}

TEST_CASE("well-formed E0420: TIR buffer index count") {
  auto r = infer(R"(
@T.prim_func
def f(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        B[i] = A[i, 0]
)");
  CHECK(check(r).empty());
  auto pf = r.result.module->find("f")->func.as<tir::PrimFunc>();
  auto loop = pf->body.as<tir::For>();
  REQUIRE(loop);
  auto store = loop->body.as<tir::BufferStore>();
  REQUIRE(store);
  store->value.as<tir::BufferLoad>()->indices.pop_back();
  CHECK(check(r) == std::vector<std::string>{"E0420"});
}

TEST_CASE("well-formed E0421: TIR variable nothing defines") {
  auto bad = infer(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    a = T.int32()
    A[0] = T.Cast("float32", a)
)",
                   false, true);
  CHECK(bad.codes() == std::vector<std::string>{"E0421@5:30"});
  auto ok = infer(R"(
@T.prim_func
def f(a: T.handle, b: T.int32):
    n = T.int64()
    A = T.match_buffer(a, (n,))
    for i in range(n):
        A[i] = T.Cast("float32", b)
)");
  CHECK(check(ok).empty());
}

TEST_CASE("well-formed E0422: a block that uses an enclosing loop variable") {
  auto bad = infer(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("copy"):
            vi = T.axis.spatial(4, i)
            B[vi] = A[i]
)",
                   false, true);
  CHECK(bad.codes() == std::vector<std::string>{"E0422@7:23"});
  auto opaque = infer(R"(
@T.prim_func
def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("copy"):
            B[i] = A[i]
)");
  CHECK(check(opaque).empty());
}

TEST_CASE(
    "well-formed scopes: a local function sees the variables outside it, not the symbolic "
    "ones; nothing it or a branch defines is seen after it") {
  const char* text = R"(
@R.function
def f(x: R.Tensor(("n",), "float32"), w: R.Tensor((2,), "float32"), c: R.Prim("bool")) -> R.Tensor(("n",), "float32"):
    n = T.int64()

    @R.function
    def g(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        z = R.add(y, w)
        u = R.add(w, w)
        return z

    if c:
        a = R.add(x, x)
        r = a
    else:
        b = R.add(x, x)
        r = b
    s = R.add(r, x)
    return s
)";
  auto ok = infer(text);
  CHECK(check(ok).empty());
  for (const char* inner : {"z", "a", "b"}) {
    INFO(inner);
    auto r = infer(text);
    r.function("f")->body->body = r.var(inner);
    CHECK(check(r) == std::vector<std::string>{"E0401"});
  }
  // The local function uses n (in the struct info of x + x), which only its own annotations
  // could define.
  auto bad = infer(
      std::string(text).replace(std::string(text).find("u = R.add(w, w)"), 15, "u = R.add(x, x)"),
      false, true);
  CHECK(bad.codes() == std::vector<std::string>{"E0408@9:19"});
}

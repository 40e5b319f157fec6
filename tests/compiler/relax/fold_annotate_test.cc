// AnnotateTIROpPattern (the pattern of each prim_func, as TVM classifies it) and FoldConstant
// (computations on constants evaluated at compile time), on small modules written here and on
// TVM's own test inputs from ../shared/conformance when it is present.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>

#include "analysis/normalize.h"
#include "compiler/legalize/legalize.h"
#include "compiler/pipeline.h"
#include "compiler/relax/bind_params.h"
#include "compiler/relax/passes.h"
#include "compiler/tir/op_pattern.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/support/test_util.h"

using namespace relax;
using namespace relax::compiler;
using namespace relax::compiler::relax_passes;

namespace {

ir::Ref<ir::IRModule> parse(const std::string& text) {
  ir::DiagnosticBag diags;
  auto result = syntax::parse_text(text, "test.relax", diags);
  REQUIRE(result.module);
  analysis::normalize_module(*result.module, diags);
  INFO((diags.items().empty() ? "" : diags.items()[0].message));
  REQUIRE_FALSE(diags.has_errors());
  return result.module;
}

ir::Ref<ir::IRModule> run(ir::Ref<ir::IRModule> module, const std::vector<Pass>& passes,
                          PassContext& ctx) {
  // The caller's bag when it gave one (to look at the warnings), else a local one.
  ir::DiagnosticBag local;
  ir::DiagnosticBag* outer = ctx.diags;
  ir::DiagnosticBag& diags = outer ? *outer : local;
  ctx.diags = &diags;
  ctx.verify = true;
  for (const Pass& p : passes) module = run_pass(p, module, ctx);
  INFO((diags.items().empty() ? "" : diags.items()[0].message));
  REQUIRE_FALSE(diags.has_errors());
  ctx.diags = outer;
  return module;
}

ir::Ref<ir::IRModule> run(ir::Ref<ir::IRModule> module, const std::vector<Pass>& passes) {
  PassContext ctx;
  return run(std::move(module), passes, ctx);
}

// The op_pattern attribute of each prim_func, by name.
std::map<std::string, int64_t> patterns(const ir::IRModule& module) {
  std::map<std::string, int64_t> out;
  for (const auto& m : module.functions)
    if (auto f = ir::as_prim_func(m.func)) out[m.gvar->name] = f->attrs.get_int("op_pattern", -1);
  return out;
}

std::shared_ptr<const ir::TensorData> f32(std::vector<int64_t> shape, std::vector<float> values) {
  auto d = std::make_shared<ir::TensorData>();
  d->dtype = ir::DataType::Float(32);
  d->shape = std::move(shape);
  d->bytes.resize(values.size() * 4);
  std::memcpy(d->bytes.data(), values.data(), d->bytes.size());
  return d;
}

std::vector<float> floats(const ir::TensorData& d) {
  std::vector<float> v(d.bytes.size() / 4);
  std::memcpy(v.data(), d.bytes.data(), d.bytes.size());
  return v;
}

// The value bound to `name` in function `func`.
ir::Ref<ir::Expr> bound_value(const ir::IRModule& module, const std::string& func,
                              const std::string& name) {
  auto f = ir::as_relax_function(module.lookup(func));
  REQUIRE(f);
  auto seq = f->body.as<ir::SeqExpr>();
  REQUIRE(seq);
  for (const auto& block : seq->blocks)
    for (const auto& b : block->bindings)
      if (b->var->name == name) return b->value;
  return nullptr;
}

}  // namespace

TEST_CASE("AnnotateTIROpPattern classifies legalized ops as TVM does") {
  auto module = parse(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 8), "float32"), b: R.Tensor((8,), "float32"), w: R.Tensor((8, 8), "float32"), img: R.Tensor((1, 2, 8, 8), "float32")):
        with R.dataflow():
            a = R.add(x, x)
            c = R.add(x, b)
            t = R.permute_dims(x)
            s = R.sum(x, axis=[1])
            m = R.matmul(x, w)
            sm = R.nn.softmax(x)
            p = R.nn.max_pool2d(img, pool_size=[2, 2], strides=[2, 2])
            e = R.exp(x)
            R.output(a, c, t, s, m, sm, p, e)
        return (a, c, t, s, m, sm, p, e)
)");
  module = run(module, {legalize::legalize_ops_pass(), annotate_tir_op_pattern_pass()});
  auto p = patterns(*module);
  CHECK(p["add"] == 0);         // ElemWise
  CHECK(p["add1"] == 0);        // x + b: a broadcast load next to an elementwise one
  CHECK(p["transpose"] == 2);   // Injective
  CHECK(p["sum"] == 3);         // CommReduce
  CHECK(p["matmul"] == 4);      // multiply-accumulate: OutEWiseFusable
  CHECK(p["softmax"] == 4);     // injective blocks after a reduction
  CHECK(p["max_pool2d"] == 4);  // reduce index mixed into an expression (pooling)
  CHECK(p["exp"] == 0);
}

TEST_CASE("AnnotateTIROpPattern on hand-written prim_funcs") {
  auto module = parse(
      "@I.ir_module\nclass Module:\n"
      R"(    @T.prim_func
    def bcast(A: T.Buffer((16,), "float32"), B: T.Buffer((4, 16), "float32")):
        for i, j in T.grid(4, 16):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vj]

    @T.prim_func
    def two_stores(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("b"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi]
                A[vi] = T.float32(0)

    @T.prim_func
    def gather(A: T.Buffer((16,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("b"):
                vi = T.axis.spatial(8, i)
                B[vi] = A[vi * 2]

    @T.prim_func
    def reads_other(A: T.Buffer((16,), "float32"), n: T.int64, B: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("b"):
                vi = T.axis.spatial(8, i)
                B[vi] = A[n]

    @T.prim_func
    def loops_only(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            B[i] = A[i]

    @T.prim_func
    def stated(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"op_pattern": 8})
        for i in range(16):
            with T.block("b"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi]
)");
  module = run(module, {annotate_tir_op_pattern_pass()});
  auto p = patterns(*module);
  CHECK(p["bcast"] == 1);
  CHECK(p["two_stores"] == 8);
  CHECK(p["gather"] == 2);       // vi * 2 uses only the store's variables
  CHECK(p["reads_other"] == 8);  // n is not an index of the store
  CHECK(p["loops_only"] == 8);   // no block to classify
  CHECK(p["stated"] == 8);       // kept as written
}

TEST_CASE("AnnotateTIROpPattern agrees with TVM's tests on their inputs") {
  auto shared = test::shared_dir();
  if (!shared) {
    WARN("../shared not found: TVM's inputs not checked");
    return;
  }
  auto dir = *shared / "conformance" / "tvm-v0.20";
  // File, prim_func, TVM's expected pattern (test_transform_annotate_tir_op_pattern.py).
  struct Expect {
    const char* file;
    const char* func;
    int64_t pattern;
  };
  for (const Expect& e : std::vector<Expect>{
           {"InputModule__L96", "tir_matmul", 4},
           {"InputModule__L118", "sum", 3},
           {"InputModule__L158", "broadcast", 1},
           {"InputModule__L196", "tir_bias_add", 0},
           {"InputModule__L243", "add_zero_dim", 0},
           {"InputModule__L309", "softmax", 4},
           {"Module__L421", "no_buffer_stores", 8},
       }) {
    std::string name = "relax__test_transform_annotate_tir_op_pattern__";
    name += e.file;
    name += ".relax";
    auto path = dir / name;
    INFO(path.string());
    REQUIRE(std::filesystem::exists(path));
    auto module = run(parse(test::read_file(path)), {annotate_tir_op_pattern_pass()});
    CHECK(patterns(*module)[e.func] == e.pattern);
  }
}

TEST_CASE("FoldConstant evaluates call_tir on bound weights and DCE drops the kernel") {
  auto module = parse(
      "@I.ir_module\nclass Module:\n"
      R"(    @T.prim_func(private=True)
    def func(A: T.Buffer((2, 3), "float32"), B: T.Buffer((3, 2), "float32")):
        for i, j in T.grid(3, 2):
            with T.block("transpose"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vj, vi]

    @R.function
    def main(x: R.Tensor((3, 2), "float32"), c0: R.Tensor((2, 3), "float32")) -> R.Tensor((3, 2), "float32"):
        cls = Module
        with R.dataflow():
            lv0 = R.call_tir(cls.func, (c0,), out_sinfo=R.Tensor((3, 2), dtype="float32"))
            lv1 = R.add(lv0, x)
            R.output(lv1)
        return lv1
)");
  module = run(module, {bind_params_pass("main", {{"c0", f32({2, 3}, {1, 2, 3, 4, 5, 6})}}),
                        fold_constant_pass()});
  auto lv0 = bound_value(*module, "main", "lv0").as<ir::Constant>();
  REQUIRE(lv0);
  CHECK(lv0->data->shape == std::vector<int64_t>{3, 2});
  CHECK(floats(*lv0->data) == std::vector<float>{1, 4, 2, 5, 3, 6});
  // lv1 reads x, a parameter: not folded.
  CHECK(bound_value(*module, "main", "lv1").is<ir::Call>());
  // The kernel is private: nothing calls it any more, so DCE drops it (a public one would stay).
  module = run(module, {dead_code_elimination_pass()});
  CHECK(module->find("func") == nullptr);
}

TEST_CASE("FoldConstant folds op calls, tuples and chains, and leaves the rest") {
  auto module = parse(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), "float32"), w: R.Tensor((2, 2), "float32")):
        with R.dataflow():
            t = R.permute_dims(w)
            u = R.multiply(t, t)
            parts = R.split(u, indices_or_sections=2, axis=0)
            first = parts[0]
            z = R.zeros((64, 64), "float32")
            y = R.add(x, first)
            R.output(y, z)
        return (y, z)
)");
  auto bound = run(
      module, {bind_params_pass("main", {{"w", f32({2, 2}, {1, 2, 3, 4})}}), fold_constant_pass()});
  auto t = bound_value(*bound, "main", "t").as<ir::Constant>();
  auto u = bound_value(*bound, "main", "u").as<ir::Constant>();
  REQUIRE(t);
  REQUIRE(u);
  CHECK(floats(*t->data) == std::vector<float>{1, 3, 2, 4});
  CHECK(floats(*u->data) == std::vector<float>{1, 9, 4, 16});
  auto parts = bound_value(*bound, "main", "parts").as<ir::Tuple>();
  REQUIRE(parts);
  REQUIRE(parts->fields.size() == 2);
  auto first = bound_value(*bound, "main", "first").as<ir::Constant>();
  REQUIRE(first);
  CHECK(floats(*first->data) == std::vector<float>{1, 9});
  CHECK(bound_value(*bound, "main", "z").is<ir::Call>());  // creation without constant input
  CHECK(bound_value(*bound, "main", "y").is<ir::Call>());  // reads the parameter x

  // A result larger than the configured limit stays a computation.
  PassContext ctx;
  ctx.config.emplace("relax.FoldConstant.max_elements", std::string(1, '3'));
  auto limited = run(
      module, {bind_params_pass("main", {{"w", f32({2, 2}, {1, 2, 3, 4})}}), fold_constant_pass()},
      ctx);
  CHECK(bound_value(*limited, "main", "t").is<ir::Call>());

  // A limit that is not a whole integer ("3x" once read as 3) is refused: W0775, the default.
  PassContext bad;
  ir::DiagnosticBag bad_diags;
  bad.diags = &bad_diags;
  bad.config.emplace("relax.FoldConstant.max_elements", std::string("3x"));
  auto defaulted = run(
      module, {bind_params_pass("main", {{"w", f32({2, 2}, {1, 2, 3, 4})}}), fold_constant_pass()},
      bad);
  CHECK(bound_value(*defaulted, "main", "t").is<ir::Constant>());
  bool warned = false;
  for (const auto& d : bad_diags.items()) warned |= d.code == "W0775";
  CHECK(warned);
}

TEST_CASE("FoldConstant counts an output's elements before allocating them") {
  // 2^40 elements used to be allocated (std::bad_alloc) before the limit was compared. (A shape
  // past 2^56 bytes, such as 2^62 x 4, is an error of well-formedness before any pass: E0419.)
  for (const char* shape : {"(1099511627776, 1)", "(1099511627776, 1024)", "(3, 2)"}) {
    CAPTURE(shape);
    auto module = parse(std::string(R"(@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill(a: T.handle, b: T.handle):
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(a, (1,))
        B = T.match_buffer(b, (n, m))
        for i, j in T.grid(n, m):
            with T.block("fill"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[0]

    @R.function
    def main(w: R.Tensor((1,), "float32")):
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.fill, (w,), out_sinfo=R.Tensor()") +
                        shape + R"(, "float32"))
            R.output(y)
        return y
)");
    auto folded =
        run(module, {bind_params_pass("main", {{"w", f32({1}, {7})}}), fold_constant_pass()});
    auto y = bound_value(*folded, "main", "y");
    if (std::string(shape) == "(3, 2)") {
      auto c = y.as<ir::Constant>();
      REQUIRE(c);
      CHECK(floats(*c->data) == std::vector<float>{7, 7, 7, 7, 7, 7});
    } else {
      CHECK(y.is<ir::Call>());
    }
  }
}

TEST_CASE("FoldConstant folds a legalized transpose of a weight") {
  // After LegalizeOps, the transpose of a bound weight is folded to the transposed values.
  auto module = parse(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4), "float32"), w: R.Tensor((3, 4), "float32")):
        with R.dataflow():
            wt = R.permute_dims(w)
            y = R.matmul(x, wt)
            R.output(y)
        return y
)");
  std::vector<float> w(12);
  for (int i = 0; i < 12; ++i) w[static_cast<size_t>(i)] = 0.5f * static_cast<float>(i) - 2.0f;
  PassContext ctx;
  auto folded =
      run(module, {bind_params_pass("main", {{"w", f32({3, 4}, w)}}), legalize::legalize_ops_pass(),
                   fold_constant_pass(), dead_code_elimination_pass()});
  auto wt = bound_value(*folded, "main", "wt").as<ir::Constant>();
  REQUIRE(wt);
  auto v = floats(*wt->data);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      CHECK(v[static_cast<size_t>(i * 3 + j)] == w[static_cast<size_t>(j * 4 + i)]);
  // The transpose kernel is gone; the matmul kernel stays.
  CHECK(folded->find("transpose") == nullptr);
  CHECK(folded->find("matmul") != nullptr);
}

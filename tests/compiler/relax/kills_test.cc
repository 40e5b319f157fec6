// Kills and aliases (compiler/relax/kills.h): lowered text builds and runs again, KillAfterLastUse
// kills a value once after the last use of any of its names, and a use after a kill is reported
// (E0788) on the input, after a pass that makes one, and in VM codegen.
#include <catch2/catch.hpp>

#include "analysis/normalize.h"
#include "compiler/build.h"
#include "compiler/codegen/vm/vm_codegen.h"
#include "compiler/pipeline.h"
#include "compiler/relax/kills.h"
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/source.h"
#include "ir/visitor.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "vm/runtime.h"

using namespace relax;
using namespace relax::compiler;
using namespace relax::compiler::relax_passes;

namespace {

ir::Ref<ir::IRModule> parse(const std::string& text) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(text, "kills.relax", diags);
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  INFO((diags.items().empty() ? "" : diags.items()[0].message));
  REQUIRE_FALSE(diags.has_errors());
  return parsed.module;
}

std::string lower(const std::string& text) {
  PassContext ctx;
  ctx.verify = true;
  auto m = run_pass(default_pipeline(Target::host()), parse(text), ctx);
  INFO((ctx.diagnostics().items().empty() ? "" : ctx.diagnostics().items()[0].message));
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  return syntax::print_module(*m);
}

vm::Value vec(std::vector<float> v) {
  std::vector<int64_t> shape{static_cast<int64_t>(v.size())};
  return vm::Value(vm::tensor_from_bytes(shape, vm::kFloat32, v.data()));
}

std::vector<float> values(const vm::Value& v) {
  const vm::TensorObj* t = v.as_tensor();
  REQUIRE(t != nullptr);
  const float* p = t->data_as<float>();
  return std::vector<float>(p, p + t->numel());
}

vm::Value run_text(const std::string& text, const std::vector<vm::Value>& args) {
  PassContext ctx;
  ctx.verify = true;
  auto result = build(parse(text), Target::host(), ctx);
  INFO((ctx.diagnostics().items().empty() ? "" : ctx.diagnostics().items()[0].message));
  REQUIRE(result.ok());
  auto m = vm::Module::from_parts(result.executable, result.kernels);
  REQUIRE(m);
  auto r = m->invoke("main", args);
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  return *r;
}

// The errors of building `text` (the build must fail).
std::vector<ir::Diagnostic> build_errors(const std::string& text) {
  PassContext ctx;
  auto result = build(parse(text), Target::host(), ctx);
  CHECK_FALSE(result.ok());
  std::vector<ir::Diagnostic> out;
  for (const auto& d : ctx.diagnostics().items())
    if (d.severity == ir::Severity::kError) out.push_back(d);
  return out;
}

std::string line_of(const ir::Span& span) {
  auto file = ir::SourceManager::global().get(span.file);
  if (!file) return "?";
  return std::to_string(file->position(span.begin).line + 1);  // 1-based, as editors show
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const char* kAdd = R"(from tvm.script import relax as R

@R.function
def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    z = R.add(x, y)
    return z
)";

// A module as CallTIRRewrite and LowerAllocTensor leave it, with aliases of `a`: `b = a` and the
// field of a tuple literal `c = t[0]`.
const char* kAliases = R"(@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            C[i] = A[i] + B[i]

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((4,), "float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        cls.add(x, x, a)
        b: R.Tensor((4,), "float32") = a
        t: R.Tuple(R.Tensor((4,), "float32"), R.Tensor((4,), "float32")) = (b, x)
        c: R.Tensor((4,), "float32") = t[0]
        storage1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        d: R.Tensor((4,), "float32") = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        cls.add(c, x, d)
        return d
)";

}  // namespace

TEST_CASE("kills: a statically shaped add lowered by `opt -p default` runs again from its text") {
  std::string lowered = lower(kAdd);
  // The result is the allocation (through `z = alloc`): never killed.
  CHECK(lowered.find("R.vm.kill_object(alloc)") == std::string::npos);
  CHECK(count(lowered, "R.vm.kill_object(") == 1);  // the storage
  CHECK(values(run_text(lowered, {vec({1, 2, 3, 4}), vec({10, 20, 30, 40})})) ==
        std::vector<float>{11, 22, 33, 44});
  // The pipeline again on its own output: CanonicalizeBindings folds `z = alloc`, and
  // KillAfterLastUse adds no second kill.
  std::string twice = lower(lowered);
  CHECK(count(twice, "R.vm.kill_object(") == 1);
  CHECK(twice.find("return alloc") != std::string::npos);
  CHECK(values(run_text(twice, {vec({1, 2, 3, 4}), vec({10, 20, 30, 40})})) ==
        std::vector<float>{11, 22, 33, 44});
}

TEST_CASE("kills: KillAfterLastUse kills a value after the last use of any alias, once") {
  PassContext ctx;
  ctx.verify = true;
  auto killed = run_pass(kill_after_last_use_pass(), parse(kAliases), ctx);
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  std::string text = syntax::print_module(*killed);
  // `a` is used through `c` by the second add: one kill of `a`, after it; none of b or c.
  CHECK(count(text, "R.memory.kill_tensor(") == 1);
  auto use = text.find("cls.add(c, x, d)");
  auto kill = text.find("R.memory.kill_tensor(a)");
  REQUIRE(use != std::string::npos);
  REQUIRE(kill != std::string::npos);
  CHECK(use < kill);
  CHECK(count(text, "R.memory.kill_storage(") == 2);
  // Run again on its own output, and after CanonicalizeBindings folded the aliases: no second
  // kill, and no use follows the kill.
  auto again = run_pass(kill_after_last_use_pass(), killed, ctx);
  CHECK(syntax::print_module(*again) == text);
  auto folded = run_pass(canonicalize_bindings_pass(), again, ctx);
  auto refolded = run_pass(kill_after_last_use_pass(), folded, ctx);
  std::string folded_text = syntax::print_module(*refolded);
  CHECK(count(folded_text, "R.memory.kill_tensor(") == 1);
  CHECK(folded_text.find("cls.add(a, x, d)") < folded_text.find("R.memory.kill_tensor(a)"));
  INFO((ctx.diagnostics().items().empty() ? "" : ctx.diagnostics().items()[0].message));
  CHECK_FALSE(ctx.diagnostics().has_errors());  // verify: check_kills after every pass
}

TEST_CASE("kills: a kill of an alias kills the value: no second kill, and `return` keeps it") {
  std::string text = kAliases;
  // Kill `b` (an alias of `a`) right after the second add, and return `c` in another module.
  std::string killed_b = text;
  killed_b.replace(killed_b.find("        return d"), 16,
                   "        R.memory.kill_tensor(b)\n        return d");
  PassContext ctx;
  auto out = run_pass(kill_after_last_use_pass(), parse(killed_b), ctx);
  std::string printed = syntax::print_module(*out);
  CHECK(printed.find("R.memory.kill_tensor(a)") == std::string::npos);
  CHECK(count(printed, "R.memory.kill_tensor(") == 1);
  std::string returns_c = text;
  returns_c.replace(returns_c.find("        return d"), 16, "        return c");
  auto kept = run_pass(kill_after_last_use_pass(), parse(returns_c), ctx);
  std::string kept_text = syntax::print_module(*kept);
  CHECK(kept_text.find("R.memory.kill_tensor(a)") == std::string::npos);  // c is a
  CHECK(kept_text.find("R.memory.kill_tensor(d)") != std::string::npos);
  CHECK_FALSE(ctx.diagnostics().has_errors());
}

TEST_CASE("kills: a use after a kill of the value or an alias is E0788 at build time") {
  // The text `relax opt -p default` printed before kills followed aliases.
  std::string old_text = lower(kAdd);
  old_text.replace(old_text.find("        return z"), 16,
                   "        R.vm.kill_object(alloc)\n        return z");
  auto errors = build_errors(old_text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == "E0788");
  CHECK(errors[0].message ==
        "function `main`: `z` is returned after `R.vm.kill_object(alloc)` killed it (`z` and "
        "`alloc` are one value)");
  REQUIRE(errors[0].labels.size() == 1);
  CHECK(errors[0].labels[0].message == "killed here");

  // Through the field of a tuple literal, in a call.
  std::string tuple_text = kAliases;
  tuple_text.replace(tuple_text.find("        cls.add(c, x, d)"), 24,
                     "        R.memory.kill_tensor(a)\n        cls.add(c, x, d)");
  errors = build_errors(tuple_text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == "E0788");
  CHECK(errors[0].message ==
        "function `main`: `c` is used after `R.memory.kill_tensor(a)` killed it (`c` and `a` are "
        "one value)");
  CHECK(line_of(errors[0].span) == "20");            // the binding that uses it
  CHECK(line_of(errors[0].labels[0].span) == "19");  // the kill, inserted before it
}

TEST_CASE("kills: a kill in one branch makes the value dead after the if, aliasing is no use") {
  const char* branch = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32"), flag: R.Tensor((), "bool")) -> R.Tensor((4,), "float32"):
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((4,), "float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        if flag:
            R.memory.kill_tensor(a)
            r: R.Tensor((4,), "float32") = x
        else:
            r: R.Tensor((4,), "float32") = x
        y: R.Tensor((4,), "float32") = R.add(a, r)
        return y
)";
  ir::DiagnosticBag diags;
  check_kills(*parse(branch), diags);
  REQUIRE(diags.error_count() == 1);
  CHECK(diags.items()[0].code == "E0788");
  CHECK(diags.items()[0].message ==
        "function `main`: `a` is used after `R.memory.kill_tensor(a)` killed it");
  CHECK(line_of(diags.items()[0].span) == "12");

  // TVM's own output binds an alias of a killed value it never uses, and kills twice: fine.
  const char* tvm = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        storage: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc: R.Tensor((4,), "float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        R.vm.kill_object(alloc)
        u: R.Tensor((4,), "float32") = alloc
        R.vm.kill_object(u)
        R.vm.kill_object(storage)
        return x
)";
  ir::DiagnosticBag fine;
  check_kills(*parse(tvm), fine);
  CHECK(fine.empty());
}

TEST_CASE("kills: verify reports a pass that moves a use past a kill, VM codegen rejects it") {
  // A broken pass: it kills the function's result just before returning it.
  Pass bad;
  bad.name = "KillTheResult";
  bad.fn = [](ir::Ref<ir::IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [](const ir::Ref<ir::Function>& f) {
      auto body = f->body;
      auto result = body->body.as<ir::Var>();
      if (!result) return f;
      auto seq = ir::copy(body);
      auto block = ir::make<ir::BindingBlock>(
          std::vector<ir::Ref<ir::Binding>>{ir::make<ir::VarBinding>(
              ir::make<ir::Var>("_"), op_call("relax.vm.kill_object", {result}))},
          false);
      seq->blocks.push_back(block);
      auto g = ir::copy(f);
      g->body = seq;
      return g;
    });
  };
  std::string lowered = lower(kAdd);
  PassContext ctx;
  ctx.verify = true;
  auto broken = run_pass(bad, parse(lowered), ctx);
  REQUIRE(ctx.diagnostics().has_errors());
  CHECK(ctx.diagnostics().items()[0].code == "E0788");
  CHECK(ctx.diagnostics().items()[0].message ==
        "after pass KillTheResult: function `main`: `z` is returned after "
        "`R.vm.kill_object(z)` killed it");
  // VM codegen checks again (a custom pipeline without verify).
  ir::DiagnosticBag diags;
  CHECK(codegen_vm::build_executable(*broken, diags) == nullptr);
  REQUIRE_FALSE(diags.items().empty());
  CHECK(diags.items()[0].code == "E0788");
}

TEST_CASE("kills: identity ops are aliases, so their argument lives as long as their result") {
  // LowerRuntimeBuiltin turns `c = R.grad.start_checkpoint(a)` into `c = a` after
  // KillAfterLastUse: a kill of `a` right after the checkpoint would kill `c` too.
  const char* text = R"(from tvm.script import relax as R

@R.function
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    a = R.add(x, x)
    c = R.grad.start_checkpoint(a)
    d = R.add(c, x)
    e = R.grad.end_checkpoint(d)
    return e
)";
  CHECK(values(run_text(text, {vec({1, 2, 3, 4})})) == std::vector<float>{3, 6, 9, 12});
  std::string lowered = lower(text);
  CHECK(values(run_text(lowered, {vec({1, 2, 3, 4})})) == std::vector<float>{3, 6, 9, 12});
}

TEST_CASE("kills: a match_cast is an alias, and checking a dead value is a use") {
  const char* text = R"(from tvm.script import relax as R

@R.function
def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
    n = T.int64()
    a = R.add(x, x)
    b: R.Tensor((n,), "float32") = R.match_cast(a, R.Tensor((n,), "float32"))
    d = R.add(b, x)
    return d
)";
  CHECK(values(run_text(text, {vec({1, 2, 3})})) == std::vector<float>{3, 6, 9});
  std::string lowered = lower(text);
  CHECK(values(run_text(lowered, {vec({1, 2, 3})})) == std::vector<float>{3, 6, 9});
  const char* dead = R"(from tvm.script import relax as R

@R.function(pure=False)
def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    a = R.add(x, x)
    R.memory.kill_tensor(a)
    b: R.Tensor((4,), "float32") = R.match_cast(a, R.Tensor((4,), "float32"))
    return x
)";
  ir::DiagnosticBag diags;
  check_kills(*parse(dead), diags);
  REQUIRE(diags.error_count() == 1);
  CHECK(diags.items()[0].message ==
        "function `main`: `a` is used after `R.memory.kill_tensor(a)` killed it");
}

TEST_CASE("kills: values that die at one binding are killed in definition order") {
  PassContext ctx;
  ctx.verify = false;  // the pass alone, on a function not made force_pure
  auto killed = run_pass(kill_after_last_use_pass(), parse(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((16,), "float32"):
        zed = R.add(x, x)
        alpha = R.multiply(x, x)
        mid = R.subtract(x, x)
        beta = R.add(x, x)
        y = R.concat((mid, beta, zed, alpha), axis=0)
        return y
)"),
                         ctx);
  REQUIRE_FALSE(ctx.diagnostics().has_errors());
  std::string text = syntax::print_module(*killed);
  size_t at = text.find("R.concat(");
  REQUIRE(at != std::string::npos);
  for (const char* v : {"zed", "alpha", "mid", "beta"}) {
    size_t kill = text.find(std::string("R.memory.kill_tensor(") + v + ")");
    INFO(v << "\n" << text);
    REQUIRE(kill != std::string::npos);
    CHECK(kill > at);
    at = kill;
  }
}

TEST_CASE("kills: a branch sees the kills made before its if, the else branch's count after it") {
  const char* text = R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32"), flag: R.Tensor((), "bool")) -> R.Tensor((4,), "float32"):
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((4,), "float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        b: R.Tensor((4,), "float32") = R.memory.alloc_tensor(storage, R.prim_value(16), R.shape([4]), R.dtype("float32"))
        R.memory.kill_tensor(a)
        if flag:
            r: R.Tensor((4,), "float32") = x
        else:
            R.memory.kill_tensor(b)
            r: R.Tensor((4,), "float32") = R.add(a, x)
        y: R.Tensor((4,), "float32") = R.add(b, r)
        return y
)";
  ir::DiagnosticBag diags;
  check_kills(*parse(text), diags);
  REQUIRE(diags.error_count() == 2);
  CHECK(diags.items()[0].message ==
        "function `main`: `a` is used after `R.memory.kill_tensor(a)` killed it");
  CHECK(diags.items()[1].message ==
        "function `main`: `b` is used after `R.memory.kill_tensor(b)` killed it");
  CHECK(line_of(diags.items()[1].span) == "14");
}

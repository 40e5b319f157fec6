// The editor queries (ide/queries.h) on annotated sources: the symbol, binding, call and
// function at a position of a checked document.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/check.h"
#include "ide/queries.h"
#include "tests/support/annotations.h"

using namespace relax;
using relax::test::Annotations;

namespace {

const char* kModule = R"(@I.ir_module
class Module:
    @R.function
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        $y^y = R.add(R.mult$mul^iply(x, x), $arg1^x)
        return y

    @R.function
    def main(a: R.Tensor((4,), "float32")) -> R.Tensor((), "float32"):
        cls = Module
        $call^b = cls.hel$callee^per($first^a)
        c = R.sum(b, axis=[0], keep$kw^dims=False)
        return c

    @R.function
    def broken(z: R.Tensor((4,), "float32")):
        $broken^w = R.add(z, undefined_name)
        return w
)";

}  // namespace

TEST_CASE("ide: the symbol and the enclosing function at a position") {
  Annotations code(kModule);
  analysis::CheckResult doc = analysis::check_text(code.code(), "queries.relax");
  const syntax::Symbol* helper = ide::symbol_at(doc, code.point("callee"));
  REQUIRE(helper);
  CHECK(helper->kind == syntax::SymbolKind::kFunction);
  CHECK(helper->name == "helper");
  const syntax::Symbol* a = ide::symbol_at(doc, code.point("first"));
  REQUIRE(a);
  CHECK(a->kind == syntax::SymbolKind::kParameter);
  CHECK(a->function == "main");

  const syntax::Symbol* f = ide::enclosing_function(doc, code.point("call"));
  REQUIRE(f);
  CHECK(f->name == "main");
  // A function that failed to build is still found, with its name.
  CHECK_FALSE(doc.module->find("broken"));
  f = ide::enclosing_function(doc, code.point("broken"));
  REQUIRE(f);
  CHECK(f->name == "broken");
  CHECK(ide::enclosing_function(doc, 0) == nullptr);
}

TEST_CASE("ide: the binding at a position, innermost first") {
  Annotations code(kModule);
  analysis::CheckResult doc = analysis::check_text(code.code(), "queries.relax");
  auto y = ide::binding_at(doc, code.point("y"));
  REQUIRE(y);
  CHECK(y->function == "helper");
  CHECK(y->binding->var->name == "y");
  // The nested call was pulled out into a binding of its own: on it, that binding.
  auto mul = ide::binding_at(doc, code.point("mul"));
  REQUIRE(mul);
  auto value = mul->binding->value.as<ir::Call>();
  REQUIRE(value);
  CHECK(value->op_name() == "relax.multiply");
  CHECK(mul->binding->var->name != "y");
  auto b = ide::binding_at(doc, code.point("call"));
  REQUIRE(b);
  CHECK(b->function == "main");
  CHECK(b->binding->var->name == "b");
  // The struct info the normalizer inferred is there for a hover.
  CHECK(b->binding->var->struct_info);
  // Outside every binding, and in a function that failed to build: none.
  CHECK_FALSE(ide::binding_at(doc, 0));
  CHECK_FALSE(ide::binding_at(doc, code.point("broken")));
}

TEST_CASE("ide: the call and argument at a position") {
  Annotations code(kModule);
  analysis::CheckResult doc = analysis::check_text(code.code(), "queries.relax");
  auto add = ide::call_at(doc, code.point("arg1"));
  REQUIRE(add);
  CHECK(add->callee == "R.add");
  CHECK(add->argument == 1);
  CHECK(add->keyword.empty());
  CHECK(add->function == nullptr);

  auto helper = ide::call_at(doc, code.point("first"));
  REQUIRE(helper);
  CHECK(helper->callee == "cls.helper");
  REQUIRE(helper->function);
  CHECK(helper->function->name == "helper");
  CHECK(helper->argument == 0);

  auto sum = ide::call_at(doc, code.point("kw"));
  REQUIRE(sum);
  CHECK(sum->callee == "R.sum");
  CHECK(sum->keyword == "keepdims");
  CHECK(sum->argument == 2);

  // On the callee's name the offset is outside that call's parentheses: the enclosing call.
  auto outer = ide::call_at(doc, code.point("mul"));
  REQUIRE(outer);
  CHECK(outer->callee == "R.add");
  CHECK(outer->argument == 0);
  CHECK_FALSE(ide::call_at(doc, code.point("y")));
  CHECK_FALSE(ide::call_at(doc, code.point("callee")));
}

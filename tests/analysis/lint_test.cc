// Lint rules, one section per rule: what each reports (code, line, column, message) and what it
// leaves alone; then noqa comments and rule selection.
#include <catch2/catch.hpp>

#include "analysis/lint/lint.h"
#include "analysis/lint/suppression.h"
#include "tests/analysis/check_test_util.h"

using namespace check_test;
using relax::analysis::CheckOptions;
using relax::analysis::lint::LintRegistry;
using relax::analysis::lint::RuleSelection;

namespace {

const std::string kHeader =
    "# from tvm.script import relax as R\n"
    "\n";

// A file with one function whose body is `body` (each line indented by 4).
std::string function(const std::string& signature, const std::string& body,
                     const std::string& decorator = "@R.function") {
  return kHeader + decorator + "\ndef " + signature + ":\n" + body;
}

const std::string kT4 = "R.Tensor((4,), \"float32\")";

}  // namespace

TEST_CASE("the registry lists every rule with code, name, summary and default") {
  const auto& rules = LintRegistry::global().rules();
  REQUIRE(rules.size() == 14);
  for (size_t i = 0; i < rules.size(); ++i) {
    INFO(rules[i].code);
    char expected[8];
    std::snprintf(expected, sizeof expected, "W%04zu", 1001 + i);
    CHECK(rules[i].code == expected);
    CHECK_FALSE(rules[i].name.empty());
    CHECK_FALSE(rules[i].summary.empty());
    CHECK(rules[i].run);
  }
  CHECK(LintRegistry::global().find("W1001")->name == "unused-binding");
  CHECK(LintRegistry::global().find("W1012")->default_on == false);
  CHECK(LintRegistry::global().find("W1013")->severity == relax::ir::Severity::kNote);
  CHECK(LintRegistry::global().find("W1014")->default_on == false);
  CHECK(LintRegistry::global().find("W9999") == nullptr);
}

TEST_CASE("W1001 unused-binding") {
  SECTION("an unused binding, with a fix that deletes its line") {
    std::string text = function("f(x: " + kT4 + ") -> " + kT4,
                                "    y = R.add(x, x)\n"
                                "    z = R.multiply(x, x)\n"
                                "    return y\n");
    auto run = check(text);
    auto w = run.of("W1001");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 6);
    CHECK(w[0].column == 5);
    CHECK(w[0].message == "`z` is bound but never used");
    REQUIRE(w[0].diag.fix);
    CHECK(w[0].diag.fix->replacement.empty());
    size_t line_start = text.find("    z = ");
    CHECK(w[0].diag.fix->span.begin == line_start);
    CHECK(w[0].diag.fix->span.end == text.find("    return"));
    CHECK(run.codes() == std::vector<std::string>{"W1001"});
  }
  SECTION("an output of a dataflow block that is never used after it") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                              "    with R.dataflow():\n"
                              "        y = R.add(x, x)\n"
                              "        z = R.add(y, y)\n"
                              "        R.output(y, z)\n"
                              "    return y\n"));
    auto w = run.of("W1001");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 7);
    CHECK(w[0].message == "`z` is listed in R.output(...) but never used after the dataflow block");
    CHECK_FALSE(w[0].diag.fix);  // deleting it would leave R.output naming nothing
  }
  SECTION("an unused local function") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                              "    @R.function\n"
                              "    def g(y: " +
                                  kT4 + ") -> " + kT4 +
                                  ":\n"
                                  "        return y\n"
                                  "    return x\n"));
    auto w = run.of("W1001");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 6);
    CHECK(w[0].column == 9);
    CHECK(w[0].message == "the local function `g` is never used");
  }
  SECTION("left alone: used values, `_` names, match_casts, impure calls, captures") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                              "    y = R.add(x, x)\n"
                              "    _unused = R.add(y, y)\n"
                              "    m = R.match_cast(y, R.Tensor(ndim=1))\n"
                              "    p = R.call_packed(\"side_effect\", y, sinfo_args=R.Object)\n"
                              "    @R.function\n"
                              "    def g(z: " +
                                  kT4 + ") -> " + kT4 +
                                  ":\n"
                                  "        w = R.add(z, y)\n"
                                  "        return w\n"
                                  "    r = g(x)\n"
                                  "    return r\n",
                              "@R.function(pure=False)"));
    CHECK(run.of("W1001").empty());
  }
  SECTION("a tuple unpacking with an unused name") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                              "    t = (x, x)\n"
                              "    a, b = t\n"
                              "    return a\n"));
    auto w = run.of("W1001");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 6);
    CHECK(w[0].column == 8);
    CHECK(w[0].message == "`b` is bound but never used");
  }
}

TEST_CASE("W1002 unused-parameter") {
  SECTION("reported at the parameter") {
    auto run = check(function("f(x: " + kT4 + ", w: " + kT4 + ") -> " + kT4, "    return x\n"));
    auto w = run.of("W1002");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 4);
    CHECK(w[0].column == 37);
    CHECK(w[0].message == "the parameter `w` of this function is never used");
    CHECK(w[0].diag.notes.size() == 1);
  }
  SECTION("a local function's parameter") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                              "    @R.function\n"
                              "    def g(a: " +
                                  kT4 + ", b: " + kT4 + ") -> " + kT4 +
                                  ":\n"
                                  "        return a\n"
                                  "    y = g(x, x)\n"
                                  "    return y\n"));
    auto w = run.of("W1002");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 6);
    CHECK(w[0].message == "the parameter `b` of this local function is never used");
  }
  SECTION("left alone: `_` names and parameters that define symbolic variables used elsewhere") {
    auto run = check(function("f(_w: " + kT4 +
                                  ", s: R.Shape([\"n\"]), x: R.Tensor((\"n\",), \"float32\")) -> "
                                  "R.Tensor((\"n\",), \"float32\")",
                              "    return x\n"));
    CHECK(run.of("W1002").empty());
  }
}

TEST_CASE("W1003 shadowed-name") {
  SECTION("a binding rebinding a name, and a parameter") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                              "    y = R.add(x, x)\n"
                              "    y = R.add(y, y)\n"
                              "    x = R.add(y, y)\n"
                              "    return x\n"));
    auto w = run.of("W1003");
    REQUIRE(w.size() == 2);
    CHECK(w[0].line == 6);
    CHECK(w[0].column == 5);
    CHECK(w[0].message == "`y` shadows the earlier binding of `y` on line 5");
    REQUIRE(w[0].diag.labels.size() == 1);
    CHECK(relax::analysis::source_range(w[0].diag.labels[0].span).line == 5);
    CHECK(w[0].diag.labels[0].message == "`y` is first bound here");
    CHECK(w[1].line == 7);
    CHECK(w[1].message == "`x` shadows the parameter `x` on line 4");
    CHECK(w[1].diag.labels[0].message == "the parameter is declared here");
  }
  SECTION("a local function's parameter hiding an enclosing variable") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                              "    @R.function\n"
                              "    def g(x: " +
                                  kT4 + ") -> " + kT4 +
                                  ":\n"
                                  "        return x\n"
                                  "    y = g(x)\n"
                                  "    return y\n"));
    auto w = run.of("W1003");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 6);
    CHECK(w[0].column == 11);
    CHECK(w[0].message ==
          "the parameter `x` of this local function shadows the parameter `x` on line 4");
  }
  SECTION("left alone: dataflow-local names reused after the block, if branches, `_`") {
    auto run = check(function("f(c: R.Tensor((), \"bool\"), x: " + kT4 + ") -> " + kT4,
                              "    with R.dataflow():\n"
                              "        t = R.add(x, x)\n"
                              "        y = R.add(t, t)\n"
                              "        R.output(y)\n"
                              "    t = R.add(y, y)\n"
                              "    if c:\n"
                              "        u = R.add(t, t)\n"
                              "        r = R.add(u, u)\n"
                              "    else:\n"
                              "        u = R.multiply(t, t)\n"
                              "        r = R.add(u, u)\n"
                              "    return r\n"));
    CHECK(run.of("W1003").empty());
  }
  SECTION("an if's result rebinding an earlier name is reported once") {
    auto run = check(function("f(c: R.Tensor((), \"bool\"), x: " + kT4 + ") -> " + kT4,
                              "    r = R.add(x, x)\n"
                              "    if c:\n"
                              "        r = R.add(r, r)\n"
                              "    else:\n"
                              "        r = R.multiply(r, r)\n"
                              "    return r\n"));
    auto w = run.of("W1003");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 7);
    CHECK(w[0].message == "`r` shadows the earlier binding of `r` on line 5");
  }
}

TEST_CASE("W1004 unused-dataflow-value") {
  auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                            "    with R.dataflow():\n"
                            "        y = R.add(x, x)\n"
                            "        z = R.multiply(x, x)\n"
                            "        _k = R.multiply(x, x)\n"
                            "        R.output(y)\n"
                            "    return y\n"));
  auto w = run.of("W1004");
  REQUIRE(w.size() == 1);
  CHECK(w[0].line == 7);
  CHECK(w[0].column == 9);
  CHECK(w[0].message ==
        "`z` is computed in the dataflow block but neither used there nor listed in R.output(...)");
  REQUIRE(w[0].diag.fix);
  CHECK(run.of("W1001").empty());
}

TEST_CASE("W1005 redundant-match-cast") {
  SECTION("a cast to the struct info the value has") {
    auto run = check(function("f(x: " + kT4 + ") -> " + kT4, "    y = R.match_cast(x, " + kT4 +
                                                                 ")\n"
                                                                 "    return y\n"));
    auto w = run.of("W1005");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 5);
    CHECK(w[0].column == 9);
    CHECK(w[0].message ==
          "this match_cast is redundant: `x` already has struct info R.Tensor((4,), "
          "dtype=\"float32\")");
    REQUIRE(w[0].diag.fix);
    CHECK(w[0].diag.fix->replacement == "x");
  }
  SECTION("left alone: a cast that narrows or defines a symbolic variable") {
    auto run = check(
        function("f(x: R.Tensor(ndim=1, dtype=\"float32\")) -> R.Tensor(ndim=1, dtype=\"float32\")",
                 "    n = T.int64()\n"
                 "    y = R.match_cast(x, R.Tensor((n,), \"float32\"))\n"
                 "    z = R.match_cast(y, R.Tensor((4,), \"float32\"))\n"
                 "    return z\n"));
    CHECK(run.of("W1005").empty());
  }
}

TEST_CASE("W1006 weak-annotation") {
  SECTION("an annotation less precise than the value's struct info") {
    auto run = check(function("f(x: R.Tensor((4, 8), \"float32\"))",
                              "    y: R.Tensor(ndim=2) = x\n"
                              "    return y\n"));
    auto w = run.of("W1006");
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 5);
    CHECK(w[0].column == 8);
    CHECK(w[0].message ==
          "the annotation R.Tensor(ndim=2) is less precise than the inferred struct info "
          "R.Tensor((4, 8), dtype=\"float32\")");
    REQUIRE(w[0].diag.fix);
    CHECK(w[0].diag.fix->replacement == "R.Tensor((4, 8), dtype=\"float32\")");
  }
  SECTION("left alone: equal or more precise annotations, unannotated bindings") {
    auto run = check(
        function("f(x: R.Tensor((4, 8), \"float32\"), u: R.Tensor(ndim=2, dtype=\"float32\"))",
                 "    y: R.Tensor((4, 8), \"float32\") = x\n"
                 "    v: R.Tensor((4, 8), \"float32\") = u\n"
                 "    z = y\n"
                 "    return (z, v)\n"));
    CHECK(run.of("W1006").empty());
  }
}

TEST_CASE("W1007 unused-symbolic-var") {
  std::string text =
      function("f(x: R.Tensor((\"k\",), \"float32\")) -> R.Tensor(ndim=1, dtype=\"float32\")",
               "    k = T.int64()\n"
               "    n = T.int64()\n"
               "    m, p = T.int64(), T.int64()\n"
               "    y = R.match_cast(x, R.Tensor((m,), \"float32\"))\n"
               "    @R.function\n"
               "    def g(z: " +
                   kT4 + ") -> " + kT4 +
                   ":\n"
                   "        q = T.int64()\n"
                   "        w = R.match_cast(y, R.Tensor((q,), \"float32\"))\n"
                   "        return z\n"
                   "    r = g(x)\n"
                   "    return y\n");
  auto run = check(text);
  auto w = run.of("W1007");
  REQUIRE(w.size() == 2);
  CHECK(w[0].line == 6);
  CHECK(w[0].column == 5);
  CHECK(w[0].message == "the symbolic variable `n` is declared but never used");
  REQUIRE(w[0].diag.fix);
  CHECK(w[0].diag.fix->span.begin == text.find("    n = T.int64()"));
  CHECK(w[1].line == 7);
  CHECK(w[1].column == 8);
  CHECK(w[1].message == "the symbolic variable `p` is declared but never used");
  CHECK_FALSE(w[1].diag.fix);  // the statement declares `m` too
  SECTION("left alone: prim_funcs declare their own variables") {
    auto prim = check(kHeader +
                      "@T.prim_func\n"
                      "def k(a: T.handle):\n"
                      "    n = T.int64()\n"
                      "    A = T.match_buffer(a, (n,))\n"
                      "    T.evaluate(0)\n");
    CHECK(prim.of("W1007").empty());
  }
}

TEST_CASE("W1008 unused-private-function") {
  std::string text =
      "# from tvm.script import ir as I\n"
      "# from tvm.script import tir as T\n"
      "# from tvm.script import relax as R\n"
      "\n"
      "@I.ir_module\n"
      "class Module:\n"
      "    @T.prim_func(private=True)\n"
      "    def dead_kernel(A: T.Buffer((4,), \"float32\")):\n"
      "        T.evaluate(0)\n"
      "\n"
      "    @T.prim_func(private=True)\n"
      "    def copy(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
      "        T.evaluate(0)\n"
      "\n"
      "    @R.function(private=True)\n"
      "    def helper(x: " +
      kT4 + ") -> " + kT4 +
      ":\n"
      "        return x\n"
      "\n"
      "    @R.function(private=True)\n"
      "    def used(x: " +
      kT4 + ") -> " + kT4 +
      ":\n"
      "        return x\n"
      "\n"
      "    @R.function\n"
      "    def main(x: " +
      kT4 + ") -> " + kT4 +
      ":\n"
      "        cls = Module\n"
      "        y = R.call_tir(cls.copy, (x,), out_sinfo=" +
      kT4 +
      ")\n"
      "        z = cls.used(y)\n"
      "        return z\n";
  auto run = check(text);
  auto w = run.of("W1008");
  REQUIRE(w.size() == 2);
  CHECK(w[0].line == 8);
  CHECK(w[0].column == 9);
  CHECK(w[0].message == "the private prim_func `dead_kernel` is never used in this module");
  CHECK(w[1].line == 16);
  CHECK(w[1].message == "the private function `helper` is never used in this module");
  SECTION("files of top-level functions are not modules") {
    auto top = check(
        function("f(x: " + kT4 + ") -> " + kT4, "    return x\n", "@R.function(private=True)"));
    CHECK(top.of("W1008").empty());
  }
}

TEST_CASE("W1009 empty-dataflow-block") {
  std::string text = function("f(x: " + kT4 + ") -> " + kT4,
                              "    with R.dataflow():\n"
                              "        # nothing yet\n"
                              "        R.output()\n"
                              "    with R.dataflow():\n"
                              "        y = R.add(x, x)\n"
                              "        R.output(y)\n"
                              "    return y\n");
  auto run = check(text);
  auto w = run.of("W1009");
  REQUIRE(w.size() == 1);
  CHECK(w[0].line == 5);
  CHECK(w[0].column == 10);
  CHECK(w[0].message == "this dataflow block binds nothing");
  REQUIRE(w[0].diag.fix);
  CHECK(w[0].diag.fix->span.begin == text.find("    with R.dataflow():"));
  CHECK(w[0].diag.fix->span.end == text.find("    with R.dataflow():\n        y"));
}

TEST_CASE("W1010 missing-return-annotation") {
  std::string module =
      "# from tvm.script import ir as I\n"
      "# from tvm.script import relax as R\n"
      "\n"
      "@I.ir_module\n"
      "class Module:\n"
      "    @R.function\n"
      "    def double(x: " +
      kT4 +
      "):\n"
      "        y = R.add(x, x)\n"
      "        return y\n"
      "\n"
      "    @R.function\n"
      "    def lonely(x: " +
      kT4 +
      "):\n"
      "        return x\n"
      "\n"
      "    @R.function\n"
      "    def main(x: " +
      kT4 + ") -> " + kT4 +
      ":\n"
      "        cls = Module\n"
      "        y = cls.double(x)\n"
      "        return y\n";
  auto run = check(module);
  auto w = run.of("W1010");
  REQUIRE(w.size() == 1);  // `lonely` is called by nobody
  CHECK(w[0].line == 7);
  CHECK(w[0].column == 9);
  CHECK(w[0].message ==
        "`double` has no return annotation, so TVM types calls of it from other functions as "
        "R.Object");
  REQUIRE(w[0].diag.labels.size() == 1);
  CHECK(relax::analysis::source_range(w[0].diag.labels[0].span).line == 18);
}

TEST_CASE("W1011 redundant-force-pure") {
  auto run = check(function("f(x: " + kT4 + ") -> " + kT4,
                            "    R.func_attr({\"relax.force_pure\": True})\n"
                            "    y = R.add(x, x)\n"
                            "    return y\n"));
  auto w = run.of("W1011");
  REQUIRE(w.size() == 1);
  CHECK(w[0].line == 5);
  CHECK(w[0].column == 18);
  CHECK(w[0].message == "\"relax.force_pure\" is set but the function makes no impure call");
  SECTION("left alone: a function with an impure call") {
    auto impure = check(function("f(x: " + kT4 + ") -> " + kT4,
                                 "    R.func_attr({\"relax.force_pure\": True})\n"
                                 "    R.print(x, format=\"{}\")\n"
                                 "    return x\n"));
    CHECK(impure.of("W1011").empty());
  }
}

TEST_CASE("W1012 print-call is off by default") {
  std::string text = function("f(x: " + kT4 + ") -> " + kT4,
                              "    R.print(x, format=\"x={}\")\n"
                              "    return x\n",
                              "@R.function(pure=False)");
  CHECK(check(text).of("W1012").empty());
  CheckOptions options;
  options.rules.extend_select = {"W1012"};
  auto w = check(text, options).of("W1012");
  REQUIRE(w.size() == 1);
  CHECK(w[0].line == 5);
  CHECK(w[0].column == 5);
  CHECK(w[0].message == "R.print(...) left in the code");
  REQUIRE(w[0].diag.fix);
}

TEST_CASE("W1013 legacy-spelling (a note, off by default)") {
  std::string text = function("f(x: R.Object) -> R.Object",
                              "    y = R.call_packed(\"g\", x, sinfo_args=R.Object)\n"
                              "    return y\n",
                              "@R.function(pure=False)");
  CHECK(check(text).of("W1013").empty());
  auto w = check(text, all_rules()).of("W1013");
  REQUIRE(w.size() == 4);
  CHECK(w[0].line == 4);
  CHECK(w[0].column == 10);
  CHECK(w[0].message == "`R.Object` is a legacy spelling; TVM v0.26 and later write `R.Any`");
  CHECK(w[0].diag.severity == relax::ir::Severity::kNote);
  REQUIRE(w[0].diag.fix);
  CHECK(w[0].diag.fix->replacement == "R.Any");
  CHECK(w[2].line == 5);
  CHECK(w[2].message == "`sinfo_args=` is a legacy spelling; TVM v0.26 and later write `ty_args=`");
  CHECK(w[2].diag.fix->replacement == "ty_args");
}

TEST_CASE("W1014 mixed-spellings") {
  std::string text =
      function("f(x: R.Any, y: R.Object, z: R.Object) -> R.Object", "    return x\n");
  auto w = check(text, all_rules()).of("W1014");
  REQUIRE(w.size() == 1);
  CHECK(w[0].line == 4);
  CHECK(w[0].column == 10);
  CHECK(w[0].message ==
        "this file mixes TVM spellings: `R.Any` is current but `R.Object` is legacy");
  REQUIRE(w[0].diag.labels.size() == 1);
  CHECK(w[0].diag.notes[0] ==
        "the file has 3 spellings of the legacy profile and 1 spelling of the current one; `relax "
        "print "
        "--profile legacy|current` writes one profile");
  CHECK(check(function("f(x: R.Object) -> R.Object", "    return x\n"), all_rules())
            .of("W1014")
            .empty());
}

TEST_CASE("noqa comments") {
  std::string body =
      "    y = R.add(x, x)\n"
      "    a = R.add(y, y)  # noqa\n"
      "    b = R.add(y, y)  # noqa: W1001\n"
      "    c = R.add(y, y)  # noqa: W1003, W1002\n"
      "    y = R.add(y, y)  # NOQA:W1003 because it is fine\n"
      "    return y\n";
  std::string text = function("f(x: " + kT4 + ") -> " + kT4, body);
  auto run = check(text);
  CHECK(run.codes() == std::vector<std::string>{"W1001"});
  CHECK(run.rows[0].line == 8);  // `c`: its noqa names other codes
  CHECK(run.result.suppressed == 3);
  CheckOptions no_noqa;
  no_noqa.honour_noqa = false;
  auto all = check(text, no_noqa);
  CHECK(all.codes() == std::vector<std::string>{"W1001", "W1001", "W1001", "W1003"});
  CHECK(all.result.suppressed == 0);
  SECTION("a bare noqa does not silence errors; naming the code does; syntax errors stay") {
    auto errors = check(function("f(x: " + kT4 + ") -> " + kT4,
                                 "    y = R.add(x, undefined_a)  # noqa\n"
                                 "    z = R.add(x, undefined_b)  # noqa: E0201\n"
                                 "    return x\n"));
    CHECK(errors.codes() == std::vector<std::string>{"E0201"});
    CHECK(errors.rows[0].line == 5);
    auto syntax = check(function("f(x: " + kT4 + ") -> " + kT4,
                                 "    y = R.add(x, x) )  # noqa: E0101\n    return x\n"));
    CHECK(syntax.of("E0101").size() == 1);
  }
}

TEST_CASE("noqa parsing") {
  using relax::analysis::lint::parse_noqa;
  CHECK(parse_noqa("# noqa")->all);
  CHECK(parse_noqa("#noqa")->all);
  CHECK(parse_noqa("# NoQA")->all);
  CHECK(parse_noqa("# noqa:")->all);
  CHECK(parse_noqa("# type: ignore  # noqa")->all);
  auto codes = parse_noqa("# noqa: W1001,W1002  w1003 trailing words");
  REQUIRE(codes);
  CHECK_FALSE(codes->all);
  CHECK(codes->codes == std::vector<std::string>{"W1001", "W1002", "W1003"});
  CHECK_FALSE(parse_noqa("# a comment"));
  CHECK_FALSE(parse_noqa("# noqab"));
  CHECK_FALSE(parse_noqa("# this is noqa-free"));
}

TEST_CASE("rule selection: codes and prefixes, the most specific wins") {
  RuleSelection defaults;
  CHECK(defaults.enabled("E0201", true));
  CHECK(defaults.enabled("W1001", true));
  CHECK_FALSE(defaults.enabled("W1012", false));

  RuleSelection only_lint{{"W10"}, {}, {}};
  CHECK(only_lint.enabled("W1001", true));
  CHECK(only_lint.enabled("W1012", false));  // selected explicitly, default off or not
  CHECK_FALSE(only_lint.enabled("E0201", true));
  CHECK_FALSE(only_lint.enabled("W0501", true));
  CHECK(only_lint.enabled("E0101", true));  // syntax errors are always reported

  RuleSelection ignore{{}, {}, {"W1001", "E05"}};
  CHECK_FALSE(ignore.enabled("W1001", true));
  CHECK(ignore.enabled("W1002", true));
  CHECK_FALSE(ignore.enabled("E0501", true));
  CHECK(ignore.enabled("E0201", true));

  RuleSelection specific{{"W1001"}, {}, {"W"}};
  CHECK(specific.enabled("W1001", true));  // W1001 is more specific than W
  CHECK_FALSE(specific.enabled("W1002", true));

  RuleSelection tie{{"W1001"}, {}, {"W1001"}};
  CHECK_FALSE(tie.enabled("W1001", true));  // at equal specificity, ignore wins

  RuleSelection all{{"ALL"}, {}, {"W1013"}};
  CHECK(all.enabled("W1014", false));
  CHECK_FALSE(all.enabled("W1013", false));

  RuleSelection extend{{}, {"W1012"}, {}};
  CHECK(extend.enabled("W1012", false));
  CHECK(extend.enabled("W1001", true));
  CHECK_FALSE(extend.enabled("W1013", false));
}

TEST_CASE("rule selectors are parsed and validated") {
  using relax::analysis::lint::parse_selectors;
  CHECK(*parse_selectors("W1001,W10 e ALL") ==
        std::vector<std::string>{"W1001", "W10", "E", "ALL"});
  CHECK(parse_selectors("")->empty());
  std::string bad;
  CHECK_FALSE(parse_selectors("W1001,X12", &bad));
  CHECK(bad == "X12");
  CHECK_FALSE(parse_selectors("W100001", &bad));
  CHECK_FALSE(parse_selectors("W10a", &bad));
}

TEST_CASE("selection applies to every code, front end included") {
  std::string text = function("f(x: " + kT4 + ") -> " + kT4,
                              "    \"\"\"A docstring.\"\"\"\n"
                              "    y = R.add(x, x)\n"
                              "    return x\n");
  CHECK(check(text).codes() == std::vector<std::string>{"W0501", "W1001"});
  CheckOptions ignore;
  ignore.rules.ignore = {"W05"};
  CHECK(check(text, ignore).codes() == std::vector<std::string>{"W1001"});
  CheckOptions select;
  select.rules.select = {"W05"};
  CHECK(check(text, select).codes() == std::vector<std::string>{"W0501"});
}

TEST_CASE("W1007 unused-symbolic-var: each declaration belongs to the innermost function") {
  // g declares n and never uses it although f does; h, after both, uses its own n.
  std::string text =
      kHeader +
      "@I.ir_module\n"
      "class Module:\n"
      "    @R.function\n"
      "    def f(x: R.Tensor((\"n\",), \"float32\")) -> R.Tensor((\"n\",), \"float32\"):\n"
      "        n = T.int64()\n"
      "        @R.function\n"
      "        def g(z: " +
      kT4 + ") -> " + kT4 +
      ":\n"
      "            n = T.int64()\n"
      "            return z\n"
      "        r = g(x)\n"
      "        return x\n"
      "    @R.function\n"
      "    def h(x: R.Tensor((\"n\",), \"float32\")) -> R.Tensor((\"n\",), \"float32\"):\n"
      "        n = T.int64()\n"
      "        return x\n";
  auto run = check(text);
  auto w = run.of("W1007");
  REQUIRE(w.size() == 1);
  CHECK(w[0].line == 10);
  CHECK(w[0].column == 13);
}

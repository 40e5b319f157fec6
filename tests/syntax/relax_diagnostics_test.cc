// Diagnostics of the Relax front end: each misuse reports a stable code at the right line and
// column, every error of a file is reported, the functions without errors are still built, and
// damaged input never crashes the front end or the printer.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "relax_test_util.h"

using namespace relax;

namespace {

// The errors of a module holding `body` as the body of function `f`, which starts at line 3.
std::vector<std::string> errors_of(const std::string& text) {
  auto p = test::parse(text);
  return p.errors();
}

using Errors = std::vector<std::string>;

}  // namespace

TEST_CASE("diagnostics: signatures and decorators") {
  CHECK(errors_of(R"(@R.function
def f(x, y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    return y
)") == Errors{"E0502@2:7"});
  CHECK(errors_of(R"(@R.function(pure=1, fast=True)
def f(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
    return y
)") == Errors{"E0501@1:18", "E0501@1:21"});
  CHECK(errors_of(R"(@R.function
def f(y: R.Tensor((4,), "float32"), y: R.Object) -> R.Object:
    return y
)") == Errors{"E0502@2:37"});
  CHECK(errors_of(R"(@R.function
def f(y: 3) -> R.Object:
    return y
)") == Errors{"E0503@2:10"});
}

TEST_CASE("diagnostics: symbolic dims and declarations") {
  // A compound string may only use names the signature defines.
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor(("n * 2",), "float32")) -> R.Object:
    return x
)") == Errors{"E0201@2:21"});
  // Strings are not shape dims in the body.
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    y: R.Tensor(("k",), "float32") = x
    return y
)") == Errors{"E0504@3:18"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    x = T.int64()
    return x
)") == Errors{"E0514@3:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4.5,), "float32")) -> R.Object:
    return x
)") == Errors{"E0504@2:20"});
}

TEST_CASE("diagnostics: dataflow blocks") {
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    R.output(x)
    return x
)") == Errors{"E0507@3:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    with R.dataflow():
        y = R.add(x, x)
    return x
)") == Errors{"E0507@4:9"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    with R.dataflow():
        y = R.add(x, x)
        R.output(x)
    return x
)") == Errors{"E0507@5:18"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    with R.dataflow() as d:
        y = R.add(x, x)
        R.output(y)
    return x
)") == Errors{"E0507@3:26"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    with R.dataflow():
        y = R.add(x, x)
        R.output(y)
        z = y
        R.output(z)
    return x
)") == Errors{"E0507@5:9"});
}

TEST_CASE("diagnostics: if/else") {
  CHECK(errors_of(R"(@R.function
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")) -> R.Object:
    if c:
        y = x
    return x
)") == Errors{"E0508@3:5"});
  CHECK(errors_of(R"(@R.function
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")) -> R.Object:
    if c:
        y = x
    else:
        z = x
    return x
)") == Errors{"E0508@3:5"});
  CHECK(errors_of(R"(@R.function
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")) -> R.Object:
    with R.dataflow():
        if c:
            y = x
        else:
            y = x
        R.output()
    return x
)") == Errors{"E0508@4:9"});
  // A statement binds `_` (as in TVM), which is not the other branch's `y`.
  CHECK(errors_of(R"(@R.function
def f(c: R.Tensor((), "bool"), x: R.Tensor((4,), "float32")) -> R.Object:
    if c:
        y = x
    else:
        R.print(x)
    return x
)") == Errors{"E0508@3:5"});
}

TEST_CASE("diagnostics: statements, bindings and return") {
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    y = z = x
    return x
)") == Errors{"E0509@3:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    x
    return x
)") == Errors{"E0515@3:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    return x
    y = x
)") == Errors{"E0506@3:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    y = x
)") == Errors{"E0506@2:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    for i in range(3):
        y = x
    x += x
    return x
)") == Errors{"E0505@3:5", "E0505@5:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    R.func_attr({"a": 1})
    R.func_attr({"b": 1})
    return x
)") == Errors{"E0513@4:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    @T.prim_func
    def g(A: T.Buffer((4,), "float32")):
        pass
    return x
)") == Errors{"E0517@3:5"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    y: R.Tensor((8,), "float32") = R.match_cast(x, R.Tensor((4,), "float32"))
    return y
)") == Errors{"E0509@3:8"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    y = R.call_tir(x, (x,))
    return y
)") == Errors{"E0511@3:9"});
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32", "cuda:0")) -> R.Object:
    return x
)") == Errors{"E0512@2:36"});
}

TEST_CASE("diagnostics: devices of TVM's runtime API") {
  CHECK(errors_of(R"(@R.function
def f(x: R.Tensor((4,), "float32")):
    y = R.hint_on_device(x, tvm.device("tpu", 0))
    z = R.hint_on_device(x, tvm.cuda("one"))
    w = R.hint_on_device(x, tvm.cpu(0, 1))
    return x
)") == Errors{"E0511@3:40", "E0218@4:38", "E0213@5:40"});
}

TEST_CASE("diagnostics: every error is reported and the clean functions are kept") {
  auto p = test::parse(R"(@I.ir_module
class Module:
    @R.function
    def bad1(x) -> R.Object:
        return x

    @R.function
    def good(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x

    @R.function
    def bad2(x: R.Tensor((4,), "float32")) -> R.Object:
        y = unknown(x)
        z = also_unknown(y)
        w = R.add(x, x
        return x
)");
  CHECK(p.errors() == Errors{"E0102@15:23", "E0502@4:14", "E0201@13:13", "E0201@14:13"});
  CHECK(p.function("good"));
  CHECK_FALSE(p.function("bad1"));
  CHECK_FALSE(p.function("bad2"));
  CHECK(p.result.failed_functions.size() == 2);
  std::string out = test::print(p);
  CHECK(out.find("def good(") != std::string::npos);
}

TEST_CASE("diagnostics: a docstring is accepted with a warning") {
  auto p = test::parse(R"(@R.function
def f(x: R.Tensor((4,), "float32")) -> R.Object:
    """Returns x."""
    return x
)");
  CHECK(p.errors().empty());
  REQUIRE(p.diags.size() == 1);
  CHECK(p.diags.items()[0].code == "W0501");
  CHECK(p.function("f"));
}

TEST_CASE("damaged Relax text never crashes the front end or the printer") {
  namespace fs = std::filesystem;
  std::vector<std::string> texts;
  fs::path dir = fs::path(RELAX_SHARED_DIR) / "examples";
  if (fs::exists(dir)) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".relax") continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      texts.push_back(ss.str());
    }
  }
  texts.push_back(R"(@R.function
def f(x: R.Tensor(("n",), "float32"), c: R.Tensor((), "bool")) -> R.Tensor(("n",), "float32"):
    n = T.int64()
    with R.dataflow():
        y = R.add(x, x)
        t = (y, x)
        R.output(t)
    if c:
        z = t[0]
    else:
        z = R.call_tir(R.ExternFunc("e"), (x,), out_sinfo=R.Tensor((n,), "float32"), tir_vars=[n])
    return z
)");
  // Deleting one character at many positions makes every kind of broken statement.
  size_t runs = 0;
  for (const std::string& text : texts) {
    size_t step = std::max<size_t>(1, text.size() / 60);
    for (size_t i = 0; i < text.size(); i += step) {
      std::string damaged = text;
      damaged.erase(i, 1);
      auto p = test::parse(damaged, "damaged.relax");
      (void)test::print(p);
      (void)test::print(p, syntax::Profile::kCurrent);
      ++runs;
    }
  }
  CHECK(runs > 100);
}

TEST_CASE("diagnostics: deep nesting is refused, long operator chains are not") {
  std::string deep = "T.int64(1)";
  for (int i = 0; i < 5000; ++i) deep = "(" + deep + ")";
  auto deep_errors = errors_of(
      "@R.function\ndef f(x: R.Tensor((4,), \"float32\")):\n    y = "
      "R.prim_value(" +
      deep + ")\n    return x\n");
  REQUIRE(deep_errors.size() == 1);
  CHECK(deep_errors[0].rfind("E0242@3:", 0) == 0);

  // 20,000 terms: evaluated without a stack frame per term, and the value is right.
  std::string chain = "T.int64(0)";
  for (int i = 1; i < 20000; ++i) chain += " + T.int64(1)";
  auto p = test::parse(
      "@R.function\ndef f(x: R.Tensor((4,), \"float32\")):\n    y = "
      "R.prim_value(" +
      chain + ")\n    return y\n");
  CHECK(p.errors().empty());
  // An error inside a chain is reported once, at the failing term.
  std::string broken = "T.int64(0)";
  for (int i = 1; i < 3000; ++i) broken += i == 1500 ? " + undefined_name" : " + T.int64(1)";
  auto broken_errors = errors_of(
      "@R.function\ndef f(x: R.Tensor((4,), \"float32\")):\n    y = "
      "R.prim_value(" +
      broken + ")\n    return x\n");
  REQUIRE(broken_errors.size() == 1);
  CHECK(broken_errors[0].rfind("E0201@3:", 0) == 0);
}

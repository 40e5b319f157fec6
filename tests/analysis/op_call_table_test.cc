// Every registered op, called through the whole check pipeline (parse, normalize, well-formedness,
// lint) and the printer with a wrong number of arguments or an argument of the wrong kind: zero
// arguments, one positional argument too many, and each argument replaced by a shape, a tuple,
// a prim value or a string (literals and variables). Each call must give diagnostics that carry
// a code and a position, never a crash. The table is the registry, so a new op is covered.
#include <catch2/catch.hpp>

#include <iostream>

#include "analysis/ops/op_registry.h"
#include "ir/source.h"
#include "syntax/printer.h"
#include "tests/analysis/check_test_util.h"

using namespace relax;

namespace {

const char* kHeader =
    "# from tvm.script import relax as R\n"
    "\n"
    "@R.function\n"
    "def main(x: R.Tensor((2, 3, 4, 5), \"float32\"), i: R.Tensor((2,), \"int64\"),\n"
    "         s: R.Shape([2, 3]), p: R.Prim(\"int64\"),\n"
    "         t: R.Tuple(R.Tensor((2, 3), \"float32\"), R.Tensor((2, 3), \"float32\"))):\n";

// The op as TVMScript writes it: relax.nn.conv2d -> R.nn.conv2d.
std::string script_name(const analysis::OpInfo& op) {
  return "R." + op.name.substr(std::string("relax.").size());
}

// What stands in for an argument of the wrong kind.
const std::vector<std::string> kWrongKinds = {
    "R.shape([2, 3])", "s",        // shapes
    "(x, x)",          "t",        // tuples
    "R.prim_value(1)", "p",        // prim values
    "R.str(\"abc\")",  "\"abc\"",  // strings
};

struct Case {
  std::string call;
  bool must_fail = false;  // a wrong number of arguments is always an error
};

std::vector<Case> cases_of(const analysis::OpInfo& op) {
  std::string name = script_name(op);
  std::vector<Case> out;
  size_t required = 0;
  for (const auto& a : op.args) required += !a.optional && !a.variadic && !a.default_value;
  out.push_back({name + "()", required > 0});
  bool variadic = !op.args.empty() && op.args.back().variadic;
  size_t n = op.args.size();
  if (!variadic) {
    // Arguments and then every attribute positionally: one more is one too many.
    std::string call = name + "(";
    for (size_t k = 0; k < n + op.attrs.size() + 1; ++k) call += (k ? ", " : "") + std::string("x");
    out.push_back({call + ")", true});
  }
  for (size_t i = 0; i < n; ++i) {
    for (const std::string& wrong : kWrongKinds) {
      std::string call = name + "(";
      for (size_t k = 0; k < n; ++k) call += (k ? ", " : "") + (k == i ? wrong : std::string("x"));
      out.push_back({call + ")", false});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("op calls: every op survives missing, extra and ill-typed arguments") {
  size_t calls = 0, errors = 0;
  for (const analysis::OpInfo* op : analysis::OpRegistry::global().all()) {
    for (const Case& c : cases_of(*op)) {
      std::string text = std::string(kHeader) + "    y = " + c.call + "\n    return y\n";
      INFO(c.call);
      auto run = check_test::check(text);
      ++calls;
      bool failed = false;
      for (const auto& row : run.rows) {
        // Every diagnostic names its code and points into the file.
        CHECK_FALSE(row.code.empty());
        CHECK(row.line > 0);
        CHECK(row.diag.span.is_known());
        failed |= row.diag.severity == ir::Severity::kError;
      }
      errors += failed;
      if (c.must_fail) CHECK(failed);
      // The (partly unknown) module still prints.
      CHECK_FALSE(syntax::print_module(*run.result.module).empty());
    }
  }
  std::cout << "op calls: " << calls << " calls, " << errors << " with errors\n";
  CHECK(calls > 2000);
}

TEST_CASE("op calls: shape-taking ops without arguments report the missing ones") {
  for (const char* call : {"R.broadcast_to()", "R.reshape()", "R.zeros()", "R.ones()", "R.full()",
                           "R.collapse_sum_to()", "R.image.resize2d()"}) {
    INFO(call);
    auto run = check_test::check(std::string(kHeader) + "    y = " + call + "\n    return y\n");
    auto missing = run.of("E0304");
    REQUIRE_FALSE(missing.empty());
    CHECK(missing[0].line == 7);
    CHECK(missing[0].column == 9);
    CHECK(missing[0].message.find("is missing the argument") != std::string::npos);
  }
}

// The safety checks against a formatter that changes meaning: a test hook edits the laid-out
// text before the checks run, and every edit that changes meaning, comments or syntax must be
// refused with its code at the right place, on every path (the formatter's own parser on both
// sides, tree-sitter for an output that parser declines, tree-sitter for both, the thorough
// checks), while edits of layout only pass. Also the tree comparison itself, pair by pair.
#include <catch2/catch.hpp>

#include <functional>

#include "syntax/cst.h"
#include "syntax/format.h"
#include "syntax/format/ast.h"
#include "syntax/format/verify.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

const char* kInput =
    "# the header\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4,), dtype='float32'), y: R.Tensor((4,), dtype='float32')) -> "
    "R.Tensor((4,), dtype='float32'):\n"
    "        a = R.add(x, y)  # sum\n"
    "        b = R.multiply(a, R.const(1.5, 'float32'))\n"
    "        c = (a, b)\n"
    "        return b\n";

struct Outcome {
  syntax::FormatResult result;
  std::string code;     // of the first error, or ""
  uint32_t offset = 0;  // where it points
};

// Formats `text` with `edit` applied to the laid-out text (which must contain `from`).
Outcome format_edited(const std::string& text, const std::string& from, const std::string& to,
                      bool thorough = false) {
  syntax::FormatOptions options;
  options.thorough_checks = thorough;
  bool found = false;
  options.after_layout_for_testing = [&](std::string& out) {
    size_t at = out.find(from);
    found = at != std::string::npos;
    if (found) out.replace(at, from.size(), to);
  };
  ir::DiagnosticBag diags;
  Outcome o;
  o.result = syntax::format_text(text, options, diags, "safety.relax");
  REQUIRE(found);
  for (const auto& d : diags.items()) {
    if (d.severity == ir::Severity::kError) {
      o.code = d.code;
      o.offset = d.span.begin;
      break;
    }
  }
  if (!o.result.ok) {
    CHECK(o.result.text == text);  // nothing is lost
    CHECK_FALSE(o.code.empty());
  }
  return o;
}

struct Case {
  const char* from;
  const char* to;
  const char* code;  // "" when the edit only changes layout
  const char* at;    // where the diagnostic points in the input (its first occurrence), or ""
};

}  // namespace

TEST_CASE("the safety checks refuse a formatter that changes meaning") {
  const Case cases[] = {
      // Meaning: operands, callees, numbers, strings, tuples, nesting, blocks.
      {"R.add(x, y)", "R.add(y, x)", "F0004", "x, y)"},
      {"R.add(x, y)", "R.subtract(x, y)", "F0004", "R.add"},
      {"R.const(1.5", "R.const(1.25", "F0004", "1.5"},
      {"\"float32\"))\n", "\"float16\"))\n", "F0004", "'float32'))\n"},
      {"c = (a, b)", "c = (a,)", "F0004", "b)\n"},
      {"c = (a, b)", "c = (b, a)", "F0004", "a, b)"},
      {"return b", "return b,", "F0004", "b\n"},
      {"return b", "return a", "F0004", "b\n"},
      {"        return b\n", "    return b\n", "F0004", "return b"},
      {"), y: R", "), z: R", "F0004", "y: R"},
      // Comments.
      {"  # sum", "  # total", "F0003", "# sum"},
      {"  # sum", "", "F0003", "# sum"},
      {"# the header\n", "", "F0003", "# the header"},
      // Output that does not parse.
      {"c = (a, b)", "c = (a, b", "F0002", ""},
      {"return b", "retrn b", "F0002", ""},
      // Layout only: passes.
      {"return b", "return (b)", "", ""},
      {"c = (a, b)", "c = a, b", "", ""},
      {"R.add(x, y)", "R.add(\n            x,\n            y,\n        )", "", ""},
      {"R.const(1.5, \"float32\")", "R.const(1.50, 'float32')", "", ""},
      {"  # sum", "  #sum", "", ""},
  };
  for (bool thorough : {false, true}) {
    for (const Case& c : cases) {
      INFO(c.from << " -> " << c.to << (thorough ? " (thorough)" : ""));
      Outcome o = format_edited(kInput, c.from, c.to, thorough);
      if (*c.code == '\0') {
        CHECK(o.result.ok);
        continue;
      }
      CHECK_FALSE(o.result.ok);
      CHECK(o.code == c.code);
      if (*c.at != '\0') CHECK(o.offset == std::string(kInput).find(c.at));
    }
  }
}

TEST_CASE("the safety checks hold where the own parser declines the output or the input") {
  // Output the formatter's parser leaves to tree-sitter (a comprehension, a tab): compared with
  // the input's own tree through tree-sitter's.
  Outcome o = format_edited(kInput, "R.add(x, y)", "R.add(*[v for v in (x, y)])");
  CHECK_FALSE(o.result.ok);
  CHECK(o.code == "F0004");
  Outcome tab = format_edited(kInput, "        return b\n", "\treturn b\n");
  CHECK(tab.result.ok);
  CHECK(tab.result.verified_by == "syntax");
  Outcome tab_moved = format_edited(kInput, "        return b\n", "    \treturn a\n");
  CHECK_FALSE(tab_moved.result.ok);
  CHECK(tab_moved.code == "F0004");

  // Input the formatter's parser leaves to tree-sitter (a comprehension): both sides are
  // tree-sitter's trees.
  std::string general = "x = [v for v in range(3)]\ny = a + b  # c\n";
  Outcome swapped = format_edited(general, "a + b", "a - b");
  CHECK_FALSE(swapped.result.ok);
  CHECK(swapped.code == "F0004");
  CHECK(swapped.offset == general.find("+"));
  Outcome lost = format_edited(general, "  # c", "");
  CHECK(lost.code == "F0003");
  CHECK(format_edited(general, "a + b", "(a + b)").result.ok);

  // An unchanged text is not checked, but an edited one always is.
  ir::DiagnosticBag diags;
  syntax::FormatResult once = syntax::format_text(kInput, {}, diags);
  REQUIRE(once.ok);
  Outcome edited = format_edited(once.text, "R.add(x, y)", "R.add(x, x)");
  CHECK(edited.code == "F0004");
}

TEST_CASE("the safety checks find one changed operator in a 20,000-line module") {
  auto shared = test::shared_dir();
  if (!shared) {
    WARN("../shared is missing; skipped");
    return;
  }
  std::string text = test::read_file(*shared / "conformance" / "large_module_20k.relax");
  syntax::FormatOptions options;
  size_t edited_at = 0;
  options.after_layout_for_testing = [&](std::string& out) {
    edited_at = out.rfind(" + ");
    REQUIRE(edited_at != std::string::npos);
    out[edited_at + 1] = '-';
  };
  ir::DiagnosticBag diags;
  syntax::FormatResult r = syntax::format_text(text, options, diags, "large.relax");
  CHECK_FALSE(r.ok);
  REQUIRE_FALSE(diags.items().empty());
  CHECK(diags.items().front().code == "F0004");
  // The last `+` of the output is in the input's last few lines.
  CHECK(diags.items().front().span.begin > text.size() - 4000);
}

namespace {

// tree_difference on both builders' trees (the formatter's parser and tree-sitter's CST), which
// must agree; returns whether the trees are the same.
bool same_tree(const std::string& a, const std::string& b) {
  auto ta = syntax::SyntaxTree::parse(a);
  auto tb = syntax::SyntaxTree::parse(b);
  REQUIRE_FALSE(ta->root().has_error());
  REQUIRE_FALSE(tb->root().has_error());
  syntax::format::Ast ca(*ta), cb(*tb);
  bool by_cst = !syntax::format::tree_difference(ca, cb);
  auto fa = syntax::format::Ast::parse(a);
  auto fb = syntax::format::Ast::parse(b);
  if (fa && fb) CHECK(!syntax::format::tree_difference(*fa, *fb) == by_cst);
  return by_cst;
}

}  // namespace

TEST_CASE("the tree comparison ignores layout and sees meaning") {
  // Layout: grouping parentheses, commas, tuple parentheses, literal spellings, implicit
  // concatenation, `class A():`, spaces in dotted names, docstring indentation.
  CHECK(same_tree("x = (a + b)\n", "x = a + b\n"));
  CHECK(same_tree("f(a, b,)\n", "f(\n    a,\n    b,\n)\n"));
  CHECK(same_tree("x = 'a' \"b\"\n", "x = \"ab\"\n"));
  CHECK(same_tree("x = 0XFF + 1E5 + 1_0\n", "x = 0xff + 1e5 + 10\n"));
  CHECK(same_tree("x = 'a\\x41'\n", "x = \"aA\"\n"));
  CHECK(same_tree("return 1, 2\n", "return (1, 2)\n"));
  CHECK(same_tree("for (i, j) in x:\n    pass\n", "for i, j in x:\n    pass\n"));
  CHECK(same_tree("class A():\n    pass\n", "class A:\n    pass\n"));
  CHECK(same_tree("from a . b import (c, d)\n", "from a.b import c, d\n"));
  CHECK(same_tree("x[(1, 2)]\n", "x[1, 2]\n"));
  CHECK(
      same_tree("def f():\n    '''  a\n         b  '''\n", "def f():\n    \"\"\"a\n    b\"\"\"\n"));
  CHECK(same_tree("(x) = 1\n", "x = 1\n"));
  CHECK(same_tree("x[a:b]\n", "x[a:b:]\n"));
  // Meaning.
  CHECK_FALSE(same_tree("x = (a + b) * c\n", "x = a + b * c\n"));
  CHECK_FALSE(same_tree("x[a,]\n", "x[a]\n"));
  CHECK_FALSE(same_tree("x = (a,)\n", "x = (a)\n"));
  CHECK_FALSE(same_tree("x = 'a'\n", "x = 'b'\n"));
  CHECK_FALSE(same_tree("x = b'a'\n", "x = 'a'\n"));
  CHECK_FALSE(same_tree("x = 1.5\n", "x = 1.50001\n"));
  CHECK_FALSE(same_tree("x = 10\n", "x = 0x10\n"));
  CHECK_FALSE(same_tree("x[a:]\n", "x[:a]\n"));
  CHECK_FALSE(same_tree("x = a and b and c\n", "x = a and (b and c)\n"));
  CHECK_FALSE(same_tree("x = a and b\n", "x = a or b\n"));
  CHECK_FALSE(same_tree("x = a < b < c\n", "x = (a < b) < c\n"));
  CHECK_FALSE(same_tree("x = a is not b\n", "x = a is b\n"));
  CHECK_FALSE(same_tree("f(a, b=1)\n", "f(a, c=1)\n"));
  CHECK_FALSE(same_tree("f(*a)\n", "f(**a)\n"));
  CHECK_FALSE(same_tree("f((a, b))\n", "f(a, b)\n"));
  CHECK_FALSE(same_tree("x = -a\n", "x = ~a\n"));
  CHECK_FALSE(same_tree("x = '''a  b'''\n", "x = '''a b'''\n"));  // not a docstring
  CHECK_FALSE(same_tree("y = 1\n'''a  b'''\n", "y = 1\n'''a b'''\n"));
  CHECK_FALSE(same_tree("def f():\n    '''a b'''\n", "def f():\n    '''a c'''\n"));
  CHECK_FALSE(same_tree("def f(a, *, b):\n    pass\n", "def f(a, b):\n    pass\n"));
  CHECK_FALSE(same_tree("def f() -> a:\n    pass\n", "def f():\n    pass\n"));
  CHECK_FALSE(same_tree("@d\ndef f():\n    pass\n", "def f():\n    pass\n"));
  CHECK_FALSE(same_tree("import a.b as c\n", "import a.b as d\n"));
  CHECK_FALSE(same_tree("from a import *\n", "from a import b\n"));
  CHECK_FALSE(same_tree("x = [a, b]\n", "x = (a, b)\n"));
  CHECK_FALSE(same_tree("x = {a: b}\n", "x = {b: a}\n"));
  CHECK_FALSE(same_tree("x = {**a}\n", "x = {a: a}\n"));
  CHECK_FALSE(same_tree("if a:\n    b\nelse:\n    c\n", "if a:\n    b\nc\n"));
  CHECK_FALSE(same_tree("x = a if b else c\n", "x = b if a else c\n"));
  CHECK_FALSE(same_tree("f = lambda: (a, b)\n", "f = lambda: a, b\n"));
  CHECK_FALSE(same_tree("x: int = 1\n", "x: float = 1\n"));
  CHECK_FALSE(same_tree("x += 1\n", "x -= 1\n"));
  CHECK_FALSE(same_tree("a = b = c\n", "a = c\n"));
  CHECK_FALSE(same_tree("with a as b:\n    pass\n", "with a:\n    pass\n"));
  CHECK_FALSE(same_tree("for x in y:\n    a\n    b\n", "for x in y:\n    a\nb\n"));
}

TEST_CASE("the tree comparison says where and what") {
  auto a = syntax::format::Ast::parse("x = f(a + b)\n");
  auto b = syntax::format::Ast::parse("x = f(a - b)\n");
  REQUIRE(a);
  REQUIRE(b);
  auto d = syntax::format::tree_difference(*a, *b);
  REQUIRE(d);
  CHECK(d->offset == 6);
  CHECK(d->expected == "binary operator a + b");
  CHECK(d->found == "binary operator a - b");
  auto c = syntax::format::Ast::parse("x = f(a + b, c)\n");
  auto missing = syntax::format::tree_difference(*c, *a);
  REQUIRE(missing);
  CHECK(missing->expected == "name c");
  CHECK(missing->found == "(nothing)");

  auto comments = [](const char* x, const char* y) {
    return syntax::format::comment_difference(*syntax::format::Ast::parse(x),
                                              *syntax::format::Ast::parse(y));
  };
  CHECK_FALSE(comments("x = 1  #note   \n", "x = 1  # note\n"));
  CHECK_FALSE(comments("x = (a  # p\n     .b)  # q\n", "x = a.b  # p  # q\n"));
  auto reordered = comments("# a\n# b\nx = 1\n", "# b\n# a\nx = 1\n");
  REQUIRE(reordered);
  CHECK(reordered->offset == 0);
  CHECK(reordered->expected == "# a");
  CHECK(reordered->found == "# b");
}

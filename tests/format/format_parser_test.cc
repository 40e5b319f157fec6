// The formatter's own parser (syntax/format/parser.cc) against the tree built from tree-sitter's
// CST: on every known file it accepts, the two trees are the same node for node (types,
// operators, flags, parentheses, ranges, texts, children) and the comments are the same.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <iterator>

#include "syntax/cst.h"
#include "syntax/format.h"
#include "syntax/format/ast.h"
#include "syntax/format/verify.h"
#include "tests/format/format_test_util.h"
#include "tests/support/test_util.h"

using namespace relax;
using syntax::format::Ast;
using syntax::format::AstNode;
using syntax::format::kNone;

namespace {

// The first difference between the subtrees at a (in x) and b (in y), or "".
std::string compare(const Ast& x, int32_t a, const Ast& y, int32_t b, const std::string& path) {
  if ((a == kNone) != (b == kNone)) return path + ": present in one tree only";
  if (a == kNone) return "";
  const AstNode& p = x.node(a);
  const AstNode& q = y.node(b);
  std::string at =
      path + "/" + std::to_string(static_cast<int>(p.type)) + "@" + std::to_string(p.start);
  if (p.type != q.type) return at + ": type " + std::to_string(static_cast<int>(q.type));
  if (p.op != q.op) return at + ": op";
  if (p.flag != q.flag) return at + ": flag";
  if (p.parens != q.parens) return at + ": parens";
  if (p.start != q.start || p.end != q.end) {
    return at + ": range " + std::to_string(p.start) + "-" + std::to_string(p.end) + " vs " +
           std::to_string(q.start) + "-" + std::to_string(q.end);
  }
  if (p.outer_start != q.outer_start || p.outer_end != q.outer_end) return at + ": outer range";
  if (p.text != q.text)
    return at + ": text `" + std::string(p.text) + "` vs `" + std::string(q.text) + "`";
  if (p.text2 != q.text2) return at + ": text2";
  if (!std::ranges::equal(p.ops, q.ops)) return at + ": comparison operators";
  if (p.list.size() != q.list.size()) return at + ": list size";
  if (p.list2.size() != q.list2.size()) return at + ": list2 size";
  for (size_t i = 0; i < p.list.size(); ++i) {
    std::string d = compare(x, p.list[i], y, q.list[i], at + "/list" + std::to_string(i));
    if (!d.empty()) return d;
  }
  for (size_t i = 0; i < p.list2.size(); ++i) {
    std::string d = compare(x, p.list2[i], y, q.list2[i], at + "/list2_" + std::to_string(i));
    if (!d.empty()) return d;
  }
  for (auto [u, v, name] : {std::tuple{p.a, q.a, "a"}, {p.b, q.b, "b"}, {p.c, q.c, "c"}}) {
    std::string d = compare(x, u, y, v, at + "/" + name);
    if (!d.empty()) return d;
  }
  return "";
}

}  // namespace

TEST_CASE("the formatter's parser builds the same tree as tree-sitter's CST") {
  size_t files = 0, parsed = 0;
  std::vector<test::FormatInput> inputs = test::all_format_inputs();
  // More files (say, a fuzzer's output) from RELAX_FMT_EXTRA_DIR.
  if (const char* extra = std::getenv("RELAX_FMT_EXTRA_DIR")) {
    for (const auto& e : std::filesystem::directory_iterator(extra)) {
      if (e.path().extension() == ".relax")
        inputs.push_back({e.path().string(), test::read_file(e.path())});
    }
  }
  for (const test::FormatInput& in : inputs) {
    auto tree = syntax::SyntaxTree::parse(in.text);
    if (tree->root().has_error()) continue;
    ++files;
    std::unique_ptr<Ast> fast = Ast::parse(tree->text());
    if (!fast) {
      if (std::getenv("RELAX_FMT_DEBUG")) std::cout << "not parsed: " << in.name << "\n";
      continue;
    }
    ++parsed;
    Ast slow(*tree);
    INFO(in.name);
    std::string d = compare(slow, slow.root(), *fast, fast->root(), "");
    CHECK(d == "");
    REQUIRE(slow.comments().size() == fast->comments().size());
    for (size_t i = 0; i < slow.comments().size(); ++i) {
      CHECK(slow.comments()[i].start == fast->comments()[i].start);
      CHECK(slow.comments()[i].end == fast->comments()[i].end);
      CHECK(slow.comments()[i].own_line == fast->comments()[i].own_line);
    }
  }
  std::cout << "formatter parser: " << parsed << " of " << files
            << " files parsed without tree-sitter, all with the same tree\n";
  CHECK(parsed * 10 >= files * 9);
}

TEST_CASE("the safety check's one-walk canonical form sees every comment") {
  for (const test::FormatInput& in : test::all_format_inputs(false)) {
    auto tree = syntax::SyntaxTree::parse(in.text);
    // Every comment node, by a plain walk of the whole tree.
    std::vector<uint32_t> expected;
    std::vector<syntax::Node> stack{tree->root()};
    while (!stack.empty()) {
      syntax::Node node = stack.back();
      stack.pop_back();
      if (node.kind() == syntax::NodeKind::kComment) expected.push_back(node.start());
      for (const syntax::Node& c : node.children()) stack.push_back(c);
    }
    std::sort(expected.begin(), expected.end());
    std::vector<syntax::format::CanonicalToken> tokens, comments;
    syntax::format::canonicalize(*tree, tokens, comments);
    std::vector<uint32_t> seen;
    for (const auto& c : comments) seen.push_back(c.offset);
    INFO(in.name);
    for (uint32_t offset : expected) {
      CHECK(std::find(seen.begin(), seen.end(), offset) != seen.end());
    }
  }
}

TEST_CASE("the formatter's parser builds tree-sitter's tree of every formatted text too") {
  // The safety check reads the formatted text with the formatter's parser, so it must read
  // outputs as tree-sitter does, not only inputs.
  size_t compared = 0;
  syntax::FormatOptions unchecked;
  unchecked.verify = false;
  for (const test::FormatInput& in : test::all_format_inputs()) {
    ir::DiagnosticBag diags;
    syntax::FormatResult r = syntax::format_text(in.text, unchecked, diags, in.name);
    if (!r.ok || !r.changed) continue;
    std::unique_ptr<Ast> fast = Ast::parse(r.text);
    if (!fast) continue;
    auto tree = syntax::SyntaxTree::parse(r.text);
    INFO(in.name << " (formatted)");
    REQUIRE_FALSE(tree->root().has_error());
    Ast slow(*tree);
    CHECK(compare(slow, slow.root(), *fast, fast->root(), "") == "");
    CHECK(slow.comments().size() == fast->comments().size());
    ++compared;
  }
  std::cout << "formatter parser on formatted texts: " << compared << " compared\n";
  CHECK(compared >= 1000);
}

TEST_CASE("the formatter's parser accepts nothing tree-sitter rejects") {
  // Near misses of every known file: a character deleted, or a token inserted, at a few places.
  // Whatever the formatter's parser accepts, tree-sitter must accept too (and build the same
  // tree): the formatter refuses files with syntax errors (F0001) from that parser alone.
  const char* inserts[] = {")",  " :", ",",  "=",  "*",    "\n", "\\\n", "1e",
                           "0x", "_",  "\r", "\f", "\n  ", "@",  "'",    "\t"};
  size_t tries = 0, accepted = 0;
  for (const test::FormatInput& in : test::all_format_inputs()) {
    if (in.text.size() > 20000 || !Ast::parse(in.text)) continue;
    for (size_t k = 1; k <= 2; ++k) {
      size_t at = in.text.size() * k / 3 + in.name.size() % 7;
      for (int m = -1; m < static_cast<int>(std::size(inserts)); ++m) {
        std::string text = in.text;
        if (at >= text.size()) continue;
        if (m < 0) {
          text.erase(at, 1);
        } else {
          text.insert(at, inserts[m]);
        }
        ++tries;
        std::unique_ptr<Ast> fast = Ast::parse(text);
        if (!fast) continue;
        ++accepted;
        auto tree = syntax::SyntaxTree::parse(text);
        INFO(in.name << " edited at " << at << ":\n" << text);
        REQUIRE_FALSE(tree->root().has_error());
        Ast slow(*tree);
        CHECK(compare(slow, slow.root(), *fast, fast->root(), "") == "");
      }
    }
  }
  std::cout << "formatter parser on near misses: " << accepted << " of " << tries
            << " accepted, each without syntax errors for tree-sitter\n";
  CHECK(tries >= 40000);
}

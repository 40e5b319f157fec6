// Runs the grammar's corpus (syntax/test/corpus/*.txt, tree-sitter's test format) through the
// committed parser and Debian's libtree-sitter runtime, so CI checks the grammar without the
// tree-sitter CLI. Expected trees are compared after whitespace normalisation; `:error` cases
// only need an ERROR or MISSING node.
#include <catch2/catch.hpp>

#include <cctype>
#include <sstream>

#include "syntax/cst.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

struct CorpusCase {
  std::string file;
  std::string name;
  std::string input;
  std::string expected;
  bool expect_error = false;
  bool skip = false;
};

bool is_rule(const std::string& line, char c) {
  if (line.size() < 3) return false;
  size_t n = 0;
  while (n < line.size() && line[n] == c) ++n;
  return n >= 3;
}

std::vector<CorpusCase> parse_corpus(const std::string& file, const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  std::vector<CorpusCase> cases;
  size_t i = 0;
  while (i < lines.size()) {
    if (!is_rule(lines[i], '=')) {
      ++i;
      continue;
    }
    CorpusCase c;
    c.file = file;
    ++i;
    // Name, then optional attribute lines (":error", ":skip", ...), then the closing rule.
    while (i < lines.size() && !is_rule(lines[i], '=')) {
      const std::string& l = lines[i];
      if (l.rfind(":error", 0) == 0)
        c.expect_error = true;
      else if (l.rfind(":skip", 0) == 0)
        c.skip = true;
      else if (!l.empty() && l[0] != ':' && c.name.empty())
        c.name = l;
      ++i;
    }
    ++i;  // closing rule
    std::string input;
    while (i < lines.size() && !is_rule(lines[i], '-')) input += lines[i++] + "\n";
    ++i;  // ---
    std::string expected;
    while (i < lines.size() && !is_rule(lines[i], '=')) expected += lines[i++] + "\n";
    // The input ends before the blank line that precedes `---`.
    while (input.size() >= 2 && input.substr(input.size() - 2) == "\n\n") input.pop_back();
    c.input = input;
    c.expected = expected;
    cases.push_back(std::move(c));
  }
  return cases;
}

// Collapses whitespace runs to single spaces and drops spaces next to parentheses.
std::string normalize(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty() && out.back() != '(' && c != ')') out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE("grammar corpus parses to the expected trees") {
  auto files = test::list_files(test::source_dir() / "syntax" / "test" / "corpus", ".txt");
  REQUIRE_FALSE(files.empty());
  size_t total = 0, errors = 0;
  for (const auto& path : files) {
    for (const CorpusCase& c : parse_corpus(path.filename().string(), test::read_file(path))) {
      if (c.skip) continue;
      ++total;
      INFO(c.file << ": " << c.name);
      auto tree = syntax::SyntaxTree::parse(c.input);
      syntax::Node root = tree->root();
      if (c.expect_error) {
        ++errors;
        CHECK(root.has_error());
        continue;
      }
      CHECK_FALSE(root.has_error());
      CHECK(normalize(root.sexp()) == normalize(c.expected));
    }
  }
  // The grammar issue asks for at least 80 cases, error-recovery cases among them.
  CHECK(total >= 80);
  CHECK(errors >= 5);
}

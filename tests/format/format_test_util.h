// Inputs the formatter tests share: every example, grammar corpus case, golden file and (when
// ../shared is present) conformance file, each with a name for messages.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace relax::test {

struct FormatInput {
  std::string name;  // a repository-relative path, "corpus/FILE.txt#N", or "shared/..."
  std::string text;
};

// The grammar corpus cases that parse (`:error` cases are left out).
std::vector<FormatInput> corpus_inputs();
// Examples (examples/ and ../shared/examples), golden files (tests/golden: inputs and printed
// expectations), formatter golden pairs, corpus cases, and the conformance files of ../shared.
std::vector<FormatInput> all_format_inputs(bool with_conformance = true);

// Comments right after a prefix operator (`not`, `-`, `~`, `await`, `yield`), the operand on the
// next line, in the contexts that lay them out differently (assignments, return, if, while,
// assert, for, binary/boolean/comparison chains, conditional expressions, calls, subscripts,
// tuples, lambdas, ...), each with comments of 30 to 99 characters (every length from 65 to 92), so
// that some fit, some only fit parenthesized and some never fit. Named
// "prefix-comment:CASE:LENGTH". (The comment's final place depends on the layout: formatting must
// be idempotent on all.)
std::vector<FormatInput> prefix_comment_inputs();
// The CASE of a prefix_comment_inputs() name.
std::string prefix_comment_case(const std::string& name);

// The `relax` binary and the ruff oracle script.
std::string relax_binary();
std::filesystem::path ruff_oracle_script();

}  // namespace relax::test

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

// The `relax` binary and the ruff oracle script.
std::string relax_binary();
std::filesystem::path ruff_oracle_script();

}  // namespace relax::test

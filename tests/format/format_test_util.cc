// The formatter tests' shared inputs.
#include "tests/format/format_test_util.h"

#include <sstream>

#include "tests/support/test_util.h"

namespace relax::test {

namespace {

bool is_rule(const std::string& line, char c) {
  if (line.size() < 3) return false;
  for (char x : line) {
    if (x != c) return false;
  }
  return true;
}

void add_files(std::vector<FormatInput>& out, const std::filesystem::path& dir,
               const std::string& suffix, const std::string& prefix,
               const std::filesystem::path& base) {
  for (const auto& p : list_files(dir, suffix)) {
    out.push_back({prefix + std::filesystem::relative(p, base).string(), read_file(p)});
  }
}

}  // namespace

std::vector<FormatInput> corpus_inputs() {
  std::vector<FormatInput> out;
  for (const auto& path : list_files(source_dir() / "syntax" / "test" / "corpus", ".txt")) {
    std::vector<std::string> lines;
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    size_t i = 0;
    int index = 0;
    while (i < lines.size()) {
      if (!is_rule(lines[i], '=')) {
        ++i;
        continue;
      }
      ++i;
      bool error = false;
      while (i < lines.size() && !is_rule(lines[i], '=')) {
        if (lines[i].rfind(":error", 0) == 0) error = true;
        ++i;
      }
      ++i;
      std::string text;
      while (i < lines.size() && !is_rule(lines[i], '-')) text += lines[i++] + "\n";
      ++index;
      // The corpus format pads inputs with blank lines.
      while (!text.empty() && text.front() == '\n') text.erase(text.begin());
      while (text.size() >= 2 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n')
        text.pop_back();
      if (!error)
        out.push_back({"corpus/" + path.filename().string() + "#" + std::to_string(index), text});
    }
  }
  return out;
}

std::vector<FormatInput> all_format_inputs(bool with_conformance) {
  std::vector<FormatInput> out;
  add_files(out, source_dir() / "examples", ".relax", "", source_dir());
  add_files(out, tests_dir() / "golden", ".relax", "", source_dir());
  add_files(out, tests_dir() / "golden" / "print", ".expected", "", source_dir());
  add_files(out, tests_dir() / "golden" / "format", ".expected", "", source_dir());
  std::vector<FormatInput> corpus = corpus_inputs();
  out.insert(out.end(), corpus.begin(), corpus.end());
  if (auto shared = shared_dir()) {
    add_files(out, *shared / "examples", ".relax", "shared/", *shared);
    if (with_conformance) add_files(out, *shared / "conformance", ".relax", "shared/", *shared);
  }
  return out;
}

std::string relax_binary() {
  return RELAX_BINARY;
}
std::filesystem::path ruff_oracle_script() {
  return source_dir() / "tools" / "ruff-oracle" / "format.mjs";
}

}  // namespace relax::test

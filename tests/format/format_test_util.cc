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

std::vector<FormatInput> prefix_comment_inputs() {
  // {C} is the comment; every body sits in a Relax function of a module.
  static const std::pair<const char*, const char*> kCases[] = {
      {"not", "d = (not  {C}\n            flag)"},
      {"neg", "d = (-  {C}\n            flag)"},
      {"invert", "d = (~  {C}\n            flag)"},
      {"plus", "d = (+  {C}\n            flag)"},
      {"not-not", "d = (not  {C}\n            not flag)"},
      {"not-not-inner", "d = (not not  {C}\n            flag)"},
      {"not-neg", "d = (not -  {C}\n            flag)"},
      {"not-attribute", "d = (not  {C}\n            x.y)"},
      {"not-call", "d = (not  {C}\n            f(x))"},
      {"not-long-call",
       "d = (not  {C}\n            ffffffffffffffffffffffffff(aaaaaaaaaaaaaaaaaaaaaa, "
       "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, cccccccc))"},
      {"neg-number", "d = (-  {C}\n            1)"},
      {"not-parenthesized-operand", "d = (not  {C}\n            (flag))"},
      {"return", "return (not  {C}\n            flag)"},
      {"return-tuple", "return (-  {C}\n            x), y"},
      {"if", "if (not  {C}\n            flag):\n            pass"},
      {"while", "while (not  {C}\n            flag):\n            pass"},
      {"assert", "assert (not  {C}\n            flag)"},
      {"assert-message", "assert x, (not  {C}\n            flag)"},
      {"for", "for i in (-  {C}\n            x):\n            pass"},
      {"augmented", "d += (-  {C}\n            b)"},
      {"annotated", "d: R.Tensor = (-  {C}\n            b)"},
      {"expression-statement", "(not  {C}\n            flag)"},
      {"binary-last", "d = (a + -  {C}\n            b)"},
      {"binary-middle", "d = (a + -  {C}\n            b + c)"},
      {"binary-in-call", "d = f(a + -  {C}\n            b)"},
      {"boolean", "d = (x and not  {C}\n            y)"},
      {"comparison", "d = (x < -  {C}\n            y)"},
      {"conditional-else", "d = (x if c else -  {C}\n            y)"},
      {"conditional-body", "d = (-  {C}\n            x if c else y)"},
      {"parenthesized-operand-of-binary", "d = (not  {C}\n            flag) + 1"},
      {"attribute-of-parenthesized", "d = (-  {C}\n            x).y"},
      {"lambda", "d = (lambda: -  {C}\n            y)"},
      {"tuple-first", "d = (-  {C}\n            x, y)"},
      {"tuple-last", "d = (y, -  {C}\n            x)"},
      {"list", "d = [not  {C}\n            flag]"},
      {"dict-value", "d = {1: -  {C}\n            x}"},
      {"call", "d = f(not  {C}\n            flag)"},
      {"keyword", "d = f(x=-  {C}\n            1)"},
      {"starred", "d = f(*(-  {C}\n            x))"},
      {"subscript", "d = a[-  {C}\n            1]"},
      {"subscript-not", "d = a[not  {C}\n            x]"},
      {"slice", "d = a[1:-  {C}\n            1]"},
      {"with", "with (-  {C}\n            x) as y:\n            pass"},
      {"await", "d = (await  {C}\n            flag)"},
      {"not-await", "d = (not await  {C}\n            flag)"},
      {"await-in-call", "d = f(await  {C}\n            flag)"},
      {"await-in-binary", "d = (a + await  {C}\n            b)"},
      {"yield", "d = (yield  {C}\n            flag)"},
  };
  std::vector<FormatInput> out;
  for (const auto& [name, body] : kCases) {
    // Every length where the layout can change (65 to 92), and a few shorter and longer ones.
    std::vector<int> lengths = {30, 40, 50, 60, 96, 99};
    for (int length = 65; length <= 92; ++length) lengths.push_back(length);
    for (int length : lengths) {
      std::string b = body;
      b.replace(b.find("{C}"), 3, "# " + std::string(static_cast<size_t>(length) - 2, 'x'));
      out.push_back({std::string("prefix-comment:") + name + ":" + std::to_string(length),
                     "from tvm.script import ir as I\nfrom tvm.script import relax as R\n\n\n"
                     "@I.ir_module\nclass Module:\n    @R.function\n"
                     "    def main(flag: R.Tensor((), \"bool\")):\n        " +
                         b + "\n        return d\n"});
    }
  }
  return out;
}

std::string prefix_comment_case(const std::string& name) {
  size_t a = name.find(':'), b = name.rfind(':');
  return name.substr(a + 1, b - a - 1);
}

std::string relax_binary() {
  return RELAX_BINARY;
}
std::filesystem::path ruff_oracle_script() {
  return source_dir() / "tools" / "ruff-oracle" / "format.mjs";
}

}  // namespace relax::test

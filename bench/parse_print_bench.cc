// Parses and prints ../shared/conformance/large_module_20k.relax (19,932 lines, 1,950
// functions) and prints the time of each stage and lines per second, next to TVM v0.20's
// figures on this machine (from the conformance README: about 18 s to parse with its
// well-formedness check, 14 s without, 0.4 s to print). Usage: parse_print_bench [FILE] [REPEAT]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "syntax/cst.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

using namespace relax;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  std::string path =
      argc > 1 ? argv[1] : std::string(RELAX_SHARED_DIR) + "/conformance/large_module_20k.relax";
  int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "parse_print_bench: cannot open %s\n", path.c_str());
    return 2;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;

  std::vector<double> t_cst, t_frontend, t_print;
  size_t functions = 0, errors = 0;
  bool fixpoint = true;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = Clock::now();
    auto tree = syntax::SyntaxTree::parse(text);
    t_cst.push_back(seconds_since(t0));

    ir::DiagnosticBag diags;
    t0 = Clock::now();
    auto result = syntax::parse_text(text, path, diags);
    t_frontend.push_back(seconds_since(t0));  // includes its own tree-sitter parse
    functions = result.module->functions.size();
    errors = diags.error_count();

    t0 = Clock::now();
    std::string printed = result.is_module_class ? syntax::print_module(*result.module)
                                                 : syntax::print_functions(*result.module);
    t_print.push_back(seconds_since(t0));
    if (r == 0) fixpoint = printed == text;
  }
  double cst = median(t_cst), fe = median(t_frontend), pr = median(t_print);
  std::printf("input: %s (%zu lines, %zu functions parsed, %zu errors)\n", path.c_str(), lines,
              functions, errors);
  std::printf("%-34s %10s %14s %12s\n", "stage (median of runs)", "seconds", "lines/second",
              "TVM v0.20");
  std::printf("%-34s %10.4f %14.0f %12s\n", "tree-sitter parse (CST)", cst, lines / cst, "");
  std::printf("%-34s %10.4f %14.0f %12s\n", "parse to IR (CST + front end)", fe, lines / fe,
              "14-18 s");
  std::printf("%-34s %10.4f %14.0f %12s\n", "print", pr, lines / pr, "0.4 s");
  std::printf("%-34s %10.4f %14.0f %12s\n", "parse + print", fe + pr, lines / (fe + pr),
              "14.4-18.4 s");
  std::printf("speedup over TVM (parse + print, against 14.4 s): %.0fx\n", 14.4 / (fe + pr));
  std::printf("printed text equals the input: %s\n", fixpoint ? "yes" : "no");
  return 0;
}

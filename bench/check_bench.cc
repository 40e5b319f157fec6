// Parses, normalizes (struct-info inference) and checks the well-formedness of
// ../shared/conformance/large_module_20k.relax (19,932 lines, 1,950 functions) and prints the
// time of each stage and lines per second, next to TVM v0.20's 17.9 s to parse and check it (its
// parser infers struct info and runs the well-formedness check).
// Usage: check_bench [FILE] [REPEAT]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "analysis/normalize.h"
#include "analysis/well_formed.h"
#include "syntax/frontend.h"

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
    std::fprintf(stderr, "check_bench: cannot open %s\n", path.c_str());
    return 2;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;

  std::vector<double> t_parse, t_normalize, t_well_formed;
  size_t functions = 0, parse_errors = 0, inference_diags = 0, well_formed_diags = 0;
  for (int r = 0; r < repeat; ++r) {
    ir::DiagnosticBag diags;
    auto t0 = Clock::now();
    auto result = syntax::parse_text(text, path, diags);
    t_parse.push_back(seconds_since(t0));
    functions = result.module->functions.size();
    parse_errors = diags.error_count();

    size_t before = diags.size();
    t0 = Clock::now();
    analysis::normalize_module(*result.module, diags);
    t_normalize.push_back(seconds_since(t0));
    inference_diags = diags.size() - before;

    before = diags.size();
    t0 = Clock::now();
    analysis::check_well_formed(*result.module, diags);
    t_well_formed.push_back(seconds_since(t0));
    well_formed_diags = diags.size() - before;
  }
  double pa = median(t_parse), no = median(t_normalize), wf = median(t_well_formed);
  double total = pa + no + wf;
  std::printf("input: %s (%zu lines, %zu functions, %zu parse errors)\n", path.c_str(), lines,
              functions, parse_errors);
  std::printf(
      "inference diagnostics: %zu, well-formedness diagnostics: %zu (errors of ops missing from "
      "the registry included)\n",
      inference_diags, well_formed_diags);
  std::printf("%-38s %10s %14s %12s\n", "stage (median of runs)", "seconds", "lines/second",
              "TVM v0.20");
  std::printf("%-38s %10.4f %14.0f %12s\n", "parse to IR (tree-sitter + front end)", pa, lines / pa,
              "");
  std::printf("%-38s %10.4f %14.0f %12s\n", "normalize (struct-info inference)", no, lines / no,
              "");
  std::printf("%-38s %10.4f %14.0f %12s\n", "well-formedness", wf, lines / wf, "");
  std::printf("%-38s %10.4f %14.0f %12s\n", "parse + normalize + well-formed", total, lines / total,
              "17.9 s");
  std::printf("speedup over TVM (parse and check, 17.9 s): %.0fx\n", 17.9 / total);
  return 0;
}

// Times `relax check`'s stages on ../shared/conformance/large_module_20k.relax (19,932 lines,
// 1,950 functions): the front end, normalize + well-formedness, the lint rules alone (default
// set, then every rule), noqa and selection, and the whole check, next to TVM v0.20's 17.9 s to
// parse and check the same file. Usage: lint_bench [FILE] [REPEAT]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "analysis/check.h"
#include "analysis/lint/lint.h"
#include "analysis/lint/suppression.h"
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
    std::fprintf(stderr, "lint_bench: cannot open %s\n", path.c_str());
    return 2;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;

  std::vector<double> t_frontend, t_normalize, t_lint, t_lint_all, t_noqa, t_check;
  size_t warnings = 0, warnings_all = 0, reported = 0;
  for (int r = 0; r < repeat; ++r) {
    ir::DiagnosticBag diags;
    auto t0 = Clock::now();
    syntax::FrontendResult fe = syntax::parse_text(text, path, diags);
    t_frontend.push_back(seconds_since(t0));

    analysis::lint::WrittenFacts facts = analysis::lint::collect_written_facts(*fe.module);
    facts.symbols = fe.symbols.get();
    facts.is_module_class = fe.is_module_class;
    t0 = Clock::now();
    analysis::normalize_module(*fe.module, diags);
    analysis::check_well_formed(*fe.module, diags);
    t_normalize.push_back(seconds_since(t0));

    ir::DiagnosticBag lint_diags;
    t0 = Clock::now();
    analysis::lint::run_lints(
        *fe.module, fe.tree.get(), facts,
        [](const analysis::lint::LintRule& rule) { return rule.default_on; }, lint_diags);
    t_lint.push_back(seconds_since(t0));
    warnings = lint_diags.size();

    ir::DiagnosticBag all_diags;
    t0 = Clock::now();
    analysis::lint::run_lints(
        *fe.module, fe.tree.get(), facts, [](const analysis::lint::LintRule&) { return true; },
        all_diags);
    t_lint_all.push_back(seconds_since(t0));
    warnings_all = all_diags.size();

    t0 = Clock::now();
    analysis::lint::NoqaMap noqa = analysis::lint::collect_noqa(*fe.tree);
    t_noqa.push_back(seconds_since(t0));

    t0 = Clock::now();
    analysis::CheckResult result = analysis::check_text(text, path);
    t_check.push_back(seconds_since(t0));
    reported = result.diagnostics.size();
  }
  double fe = median(t_frontend), nz = median(t_normalize), li = median(t_lint),
         la = median(t_lint_all), nq = median(t_noqa), ch = median(t_check);
  std::printf("input: %s (%zu lines)\n", path.c_str(), lines);
  std::printf("%-40s %10s %14s %12s\n", "stage (median of runs)", "seconds", "lines/second",
              "TVM v0.20");
  std::printf("%-40s %10.4f %14.0f %12s\n", "front end (CST + IR)", fe, lines / fe, "");
  std::printf("%-40s %10.4f %14.0f %12s\n", "normalize + well-formedness", nz,
              lines / std::max(nz, 1e-9), "");
  std::printf("%-40s %10.4f %14.0f %12s\n", "lint, default rules", li, lines / li, "");
  std::printf("%-40s %10.4f %14.0f %12s\n", "lint, every rule", la, lines / la, "");
  std::printf("%-40s %10.4f %14.0f %12s\n", "noqa comments", nq, lines / nq, "");
  std::printf("%-40s %10.4f %14.0f %12s\n", "relax check (whole pipeline)", ch, lines / ch,
              "17.9 s");
  // Each rule alone, on a fresh module.
  {
    ir::DiagnosticBag diags;
    syntax::FrontendResult fe = syntax::parse_text(text, path, diags);
    analysis::lint::WrittenFacts facts = analysis::lint::collect_written_facts(*fe.module);
    facts.symbols = fe.symbols.get();
    facts.is_module_class = fe.is_module_class;
    analysis::normalize_module(*fe.module, diags);
    for (const auto& rule : analysis::lint::LintRegistry::global().rules()) {
      std::vector<double> times;
      size_t found = 0;
      for (int r = 0; r < repeat; ++r) {
        ir::DiagnosticBag out;
        auto t0 = Clock::now();
        analysis::lint::run_lints(
            *fe.module, fe.tree.get(), facts,
            [&](const analysis::lint::LintRule& x) { return &x == &rule; }, out);
        times.push_back(seconds_since(t0));
        found = out.size();
      }
      std::printf("  %s %-28s %s %8.4f s %6zu found\n", rule.code.c_str(), rule.name.c_str(),
                  rule.default_on ? "on " : "off", median(times), found);
    }
  }
  std::printf(
      "lint warnings: %zu (default rules), %zu (every rule); check reported %zu diagnostics\n",
      warnings, warnings_all, reported);
  std::printf("speedup over TVM (parse + check, against 17.9 s): %.0fx\n", 17.9 / ch);
  return 0;
}

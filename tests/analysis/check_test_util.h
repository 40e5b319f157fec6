// Helpers of the check and lint tests: run the check driver on a text and look at what it
// reports as (code, line, column, message) rows.
#pragma once

#include <string>
#include <vector>

#include "analysis/check.h"
#include "analysis/diagnostics/source_range.h"

namespace check_test {

struct Reported {
  std::string code;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;
  relax::ir::Diagnostic diag;
};

struct Run {
  relax::analysis::CheckResult result;
  std::vector<Reported> rows;

  // The rows of one code.
  std::vector<Reported> of(const std::string& code) const {
    std::vector<Reported> out;
    for (const auto& r : rows) {
      if (r.code == code) out.push_back(r);
    }
    return out;
  }
  std::vector<std::string> codes() const {
    std::vector<std::string> out;
    for (const auto& r : rows) out.push_back(r.code);
    return out;
  }
};

inline Run check(const std::string& text, const relax::analysis::CheckOptions& options = {}) {
  Run run;
  run.result = relax::analysis::check_text(text, "test.relax", options);
  for (const auto& d : run.result.diagnostics) {
    auto range = relax::analysis::source_range(d.span);
    run.rows.push_back({d.code, range.line, range.column, d.message, d});
  }
  return run;
}

// Every rule selected (the off-by-default ones included).
inline relax::analysis::CheckOptions all_rules() {
  relax::analysis::CheckOptions options;
  options.rules.select = {"ALL"};
  return options;
}

}  // namespace check_test

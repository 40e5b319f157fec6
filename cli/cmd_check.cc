// `relax check`: check files and directories for errors and lint warnings, for people (text)
// and for CI (JSON, SARIF, GitHub annotations).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/check.h"
#include "analysis/diagnostics/catalog.h"
#include "analysis/diagnostics/github.h"
#include "analysis/diagnostics/json.h"
#include "analysis/diagnostics/sarif.h"
#include "analysis/diagnostics/terminal.h"
#include "analysis/lint/lint.h"
#include "cli/commands.h"
#include "cli/common.h"

#ifndef RELAX_VERSION
#define RELAX_VERSION "0.0.0"
#endif

namespace relax::cli {

namespace {

struct Options {
  std::vector<std::string> inputs;
  std::string format = "text";
  std::vector<std::string> select, extend_select, ignore;
  bool warnings_as_errors = false;
  bool statistics = false;
  bool ignore_noqa = false;
};

// Selector lists as given (each option may repeat and hold a comma-separated list).
bool parse_selector_options(const std::vector<std::string>& raw, std::vector<std::string>& out,
                            const char* option) {
  for (const auto& text : raw) {
    std::string bad;
    auto parsed = analysis::lint::parse_selectors(text, &bad);
    if (!parsed) {
      print_error(std::string("invalid rule selector '") + bad + "' for " + option +
                  ": expected a code or a prefix such as W1001, W10, E or ALL");
      return false;
    }
    out.insert(out.end(), parsed->begin(), parsed->end());
  }
  return true;
}

bool stderr_color() {
  switch (global_options().color) {
    case ColorMode::kAlways:
      return true;
    case ColorMode::kNever:
      return false;
    case ColorMode::kAuto:
      break;
  }
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDERR_FILENO) != 0;
}

// A short name for a code in the statistics: the lint rule's name or the documented title.
std::string code_name(const std::string& code) {
  if (const auto* rule = analysis::lint::LintRegistry::global().find(code)) return rule->name;
  if (const auto* doc = analysis::find_code_doc(code)) return doc->title;
  return "";
}

std::string statistics_text(const std::map<std::string, size_t>& counts) {
  std::vector<std::pair<std::string, size_t>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  size_t width = 1;
  for (const auto& [code, n] : rows) width = std::max(width, std::to_string(n).size());
  std::string out;
  for (const auto& [code, n] : rows) {
    std::string count = std::to_string(n);
    out += std::string(width - count.size(), ' ') + count + "\t" + code + "\t" + code_name(code) +
           "\n";
  }
  return out;
}

std::string statistics_json(const std::map<std::string, size_t>& counts) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  std::vector<std::pair<std::string, size_t>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [code, n] : rows)
    out.push_back({{"code", code}, {"name", code_name(code)}, {"count", n}});
  return out.dump(2) + "\n";
}

std::string source_root_uri() {
  std::error_code ec;
  std::string cwd = std::filesystem::current_path(ec).string();
  if (ec || cwd.empty()) return "";
  if (cwd.back() != '/') cwd.push_back('/');
  return analysis::path_to_uri(cwd);
}

int run_check(const Options& o) {
  analysis::CheckOptions options;
  options.honour_noqa = !o.ignore_noqa;
  if (!parse_selector_options(o.select, options.rules.select, "--select") ||
      !parse_selector_options(o.extend_select, options.rules.extend_select, "--extend-select") ||
      !parse_selector_options(o.ignore, options.rules.ignore, "--ignore"))
    return kExitUsage;
  if (o.statistics && o.format != "text" && o.format != "json") {
    print_error("--statistics works with --format text or json");
    return kExitUsage;
  }

  analysis::InputFiles inputs = analysis::expand_inputs(o.inputs);
  std::vector<std::string> io_errors = inputs.errors;
  for (const auto& e : inputs.errors) print_error(e);
  std::vector<analysis::FileCheck> checks = analysis::check_files(inputs.files, options);

  std::vector<ir::Diagnostic> all;
  for (auto& fc : checks) {
    if (fc.read_error) {
      print_error(fc.error);
      io_errors.push_back(fc.error);
      continue;
    }
    for (auto& d : fc.result.diagnostics) all.push_back(std::move(d));
  }
  if (inputs.files.empty() && inputs.errors.empty())
    std::cerr << "relax: warning: no .relax files found\n";

  size_t errors = 0, warnings = 0;
  std::map<std::string, size_t> counts;
  for (const auto& d : all) {
    if (d.severity == ir::Severity::kError) ++errors;
    if (d.severity == ir::Severity::kWarning) ++warnings;
    ++counts[d.code];
  }

  if (o.statistics) {
    std::cout << (o.format == "json" ? statistics_json(counts) : statistics_text(counts));
  } else if (o.format == "json") {
    std::cout << analysis::render_json(all);
  } else if (o.format == "sarif") {
    analysis::SarifOptions sarif;
    sarif.tool_version = RELAX_VERSION;
    for (const auto& rule : analysis::lint::LintRegistry::global().rules())
      sarif.rule_names[rule.code] = rule.name;
    sarif.source_root_uri = source_root_uri();
    sarif.execution_errors = io_errors;
    std::cout << analysis::render_sarif(all, sarif);
  } else if (o.format == "github") {
    std::cout << analysis::render_github(all);
  } else {
    analysis::TerminalStyle style;
    style.color = stderr_color();
    std::cerr << analysis::render_terminal(all, style);
  }
  std::cout.flush();
  std::cerr.flush();

  if (!io_errors.empty()) return kExitUsage;
  if (errors > 0 || (o.warnings_as_errors && warnings > 0)) return kExitInputErrors;
  return kExitOk;
}

}  // namespace

Runner add_check_command(CLI::App& app) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("check",
                                     "Check .relax files for errors (syntax, names, struct info, "
                                     "well-formedness) and lint warnings");
  cmd->add_option("inputs", options->inputs,
                  "Files to check; directories are searched recursively for *.relax files (in "
                  "sorted order); - reads standard input")
      ->required();
  cmd->add_option(
         "--format", options->format,
         "Output format: text (the default: source excerpts on stderr, coloured on a terminal), "
         "json (one array of objects on stdout), sarif (a SARIF 2.1.0 log on stdout, for code "
         "scanning) or github (GitHub Actions annotations on stdout)")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  // Each occurrence takes one value (a comma-separated list); occurrences accumulate, and the
  // inputs that follow are not taken for more values.
  cmd->add_option("--select", options->select,
                  "Report only these codes: codes or prefixes, comma-separated (W1001,W10,E,ALL), "
                  "replacing the default set, so rules that are off by default can be chosen")
      ->allow_extra_args(false);
  cmd->add_option("--extend-select", options->extend_select,
                  "Report these codes as well as the default set (e.g. W1012 to turn on an "
                  "optional rule)")
      ->allow_extra_args(false);
  cmd->add_option("--ignore", options->ignore,
                  "Do not report these codes or prefixes; the most specific of --select and "
                  "--ignore wins")
      ->allow_extra_args(false);
  cmd->add_flag("--warnings-as-errors", options->warnings_as_errors,
                "Exit with 1 when there are warnings, not only errors");
  cmd->add_flag("--statistics", options->statistics,
                "Print how many diagnostics of each code were found instead of the diagnostics "
                "(text or json)");
  cmd->add_flag("--ignore-noqa", options->ignore_noqa,
                "Report what `# noqa` comments would silence");
  cmd->footer(
      "Suppression: `# noqa` at the end of a line silences the warnings reported on that line;\n"
      "`# noqa: W1001, W1002` only the listed codes (errors only when named). Syntax errors "
      "(E01xx)\n"
      "are always reported. Lint rules and their defaults: docs/diagnostics.md.\n"
      "Exit codes: 0 no errors (warnings allowed unless --warnings-as-errors), 1 errors found (or\n"
      "warnings with --warnings-as-errors), 2 usage or I/O errors (an unreadable or missing file "
      "is\n"
      "reported and the other files are still checked).");
  return [options]() -> int { return run_check(*options); };
}

}  // namespace relax::cli

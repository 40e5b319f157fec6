// `relax check`: check files and directories for errors and lint warnings, for people (text)
// and for CI (JSON, SARIF, GitHub annotations).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/check.h"
#include "analysis/diagnostics/catalog.h"
#include "analysis/diagnostics/github.h"
#include "analysis/diagnostics/json.h"
#include "analysis/diagnostics/limits.h"
#include "analysis/diagnostics/sarif.h"
#include "analysis/diagnostics/terminal.h"
#include "analysis/fix.h"
#include "analysis/lint/lint.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/project_settings.h"
#include "ir/source.h"
#include "syntax/format.h"

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
  bool fix = false;
  bool unsafe_fixes = false;
  bool diff = false;
  ConfigChoice config;
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

// "2 errors and 1 warning" (notes too, when there are any).
std::string severity_counts(size_t errors, size_t warnings, size_t notes) {
  auto count = [](size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::vector<std::string> parts;
  if (errors) parts.push_back(count(errors, "error", "errors"));
  if (warnings) parts.push_back(count(warnings, "warning", "warnings"));
  if (notes) parts.push_back(count(notes, "note", "notes"));
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What --fix changed in one file.
struct FileFixes {
  std::string name;
  std::map<std::string, size_t> fixed;  // code -> count
};

// The summary ruff prints after the diagnostics: "All checks passed!", or the counts with how
// many --fix (and --unsafe-fixes) would fix; after --fix, what was fixed and what is left.
std::string summary_text(const std::vector<ir::Diagnostic>& remaining,
                         const analysis::FixableCounts& fixable,
                         const std::vector<FileFixes>& fixes, bool fix_mode, bool unsafe_fixes) {
  size_t errors = 0, warnings = 0, notes = 0, stopped = 0;
  for (const auto& d : remaining) {
    // E0001 (the error limit) is not an error of the input: it says some were not shown.
    if (analysis::is_limit_notice(d))
      ++stopped;
    else if (d.severity == ir::Severity::kError)
      ++errors;
    if (d.severity == ir::Severity::kWarning) ++warnings;
    if (d.severity == ir::Severity::kNote) ++notes;
  }
  size_t reported = remaining.size() - stopped;
  std::string limited = stopped ? "; " + plural(stopped, "file was", "files were") +
                                      " not checked to the end (--max-errors " +
                                      std::to_string(cli::global_options().max_errors) + ")"
                                : "";
  size_t fixed = 0;
  for (const auto& f : fixes)
    for (const auto& [code, n] : f.fixed) fixed += n;
  std::string out;
  if (fixed) {
    out += "Fixed " + plural(fixed, "diagnostic", "diagnostics") + ":\n";
    for (const auto& f : fixes) {
      if (f.fixed.empty()) continue;
      out += "- " + f.name + ":\n";
      for (const auto& [code, n] : f.fixed) {
        std::string name = code_name(code);
        out += "    " + std::to_string(n) + " \xC3\x97 " + code +
               (name.empty() ? "" : " (" + name + ")") + "\n";
      }
    }
  }
  if (remaining.empty() && !fixed) return out + "All checks passed!\n";
  if (fix_mode && fixed) {
    out += "Found " + plural(fixed + reported, "diagnostic", "diagnostics") + " (" +
           std::to_string(fixed) + " fixed, " + std::to_string(reported) + " remaining" +
           (reported == 0 ? "" : ": " + severity_counts(errors, warnings, notes)) + ")" + limited +
           ".\n";
  } else {
    out += "Found " + severity_counts(errors, warnings, notes) + limited + ".\n";
  }
  std::string hidden = fixable.unsafe_only && !unsafe_fixes
                           ? plural(fixable.unsafe_only, "hidden fix", "hidden fixes") +
                                 " can be enabled with the `--unsafe-fixes` option"
                           : "";
  if (!fix_mode && fixable.safe)
    out += "[" + std::to_string(fixable.safe) + " fixable with the `--fix` option" +
           (hidden.empty() ? "" : " (" + hidden + ")") + "]\n";
  else if (!fix_mode && !hidden.empty())
    out += "[No fixes available (" + hidden + ")]\n";
  else if (!hidden.empty())
    out += "[" + hidden + "]\n";
  return out;
}

// The check options of one file: `defaults` with the rules of its configuration; nullopt (and
// an I/O error noted) when its configuration cannot be used (reported by ProjectSettings).
std::optional<analysis::CheckOptions> file_options(const std::string& path,
                                                   const analysis::CheckOptions& defaults,
                                                   ProjectSettings& settings,
                                                   std::vector<std::string>& io_errors) {
  std::optional<config::FileSettings> configured = settings.for_file(path);
  if (!configured) {
    io_errors.push_back("invalid configuration for '" + path + "'");
    return std::nullopt;
  }
  analysis::CheckOptions options = defaults;
  options.rules = configured->rules;
  return options;
}

// --fix / --diff: fix each file (checking the result), then write it, print it (standard input)
// or print the diff. Fills `all` with what is left and `fixes` with what was fixed.
void fix_files(const Options& o, const std::vector<std::string>& files,
               const analysis::CheckOptions& defaults, ProjectSettings& settings,
               std::vector<ir::Diagnostic>& all, std::vector<FileFixes>& fixes,
               std::vector<std::string>& io_errors, bool& would_change) {
  analysis::FixOptions fix;
  fix.unsafe = o.unsafe_fixes;
  for (const std::string& path : files) {
    std::optional<analysis::CheckOptions> configured =
        file_options(path, defaults, settings, io_errors);
    if (!configured) continue;
    const analysis::CheckOptions& options = *configured;
    std::string error;
    std::optional<SourceFile> source = read_source_file(path, error);
    if (!source) {
      print_error(error);
      io_errors.push_back(error);
      continue;
    }
    const std::string& text = source->text;
    std::string name = display_name(path);
    analysis::FixOutcome r = analysis::fix_text(text, name, options, fix);
    bool changed = r.text != text;
    would_change |= changed;
    if (o.diff) {
      if (changed) std::cout << syntax::unified_diff(text, r.text, name);
    } else if (path == "-") {
      rewrite_source_file(path, *source, r.text);
    } else if (changed && !rewrite_source_file(path, *source, r.text)) {
      io_errors.push_back("cannot write '" + path + "'");
      // Nothing was written: what the file still has is what the first check found.
      r = analysis::fix_text(text, name, options, analysis::FixOptions{false, 0});
    }
    fixes.push_back({name, r.fixed});
    for (auto& d : r.result.diagnostics) all.push_back(std::move(d));
  }
}

int run_check(const Options& o) {
  analysis::CheckOptions options;
  options.honour_noqa = !o.ignore_noqa;
  // The error limit stops each file's check (bounded work) where exact counts are not needed:
  // --statistics counts everything, and --fix compares error counts before and after a fix
  // (its result is capped afterwards).
  size_t max_errors = global_options().max_errors;
  bool fix_mode = o.fix || o.diff;
  if (!o.statistics && !fix_mode) options.max_errors = max_errors;
  // The flags go on top of each file's configuration (--select replaces its select).
  config::Overrides overrides;
  std::vector<std::string> select;
  if (!parse_selector_options(o.select, select, "--select") ||
      !parse_selector_options(o.extend_select, overrides.extend_select, "--extend-select") ||
      !parse_selector_options(o.ignore, overrides.ignore, "--ignore"))
    return kExitUsage;
  if (!o.select.empty()) overrides.select = select;
  ProjectSettings settings(o.config, overrides);
  if (o.statistics && o.format != "text" && o.format != "json") {
    print_error("--statistics works with --format text or json");
    return kExitUsage;
  }
  bool reads_stdin = std::find(o.inputs.begin(), o.inputs.end(), "-") != o.inputs.end();
  // Standard output carries the diff, or the fixed text of standard input.
  if ((o.diff || (o.fix && reads_stdin)) && (o.format != "text" || o.statistics)) {
    print_error(std::string(o.diff ? "--diff" : "--fix with standard input (-)") +
                " writes to standard output: it works with --format text, without --statistics");
    return kExitUsage;
  }
  if (o.unsafe_fixes && !fix_mode) {
    print_error("--unsafe-fixes goes with --fix or --diff");
    return kExitUsage;
  }

  analysis::InputFiles inputs = analysis::expand_inputs(o.inputs);
  std::vector<std::string> io_errors = inputs.errors;
  for (const auto& e : inputs.errors) print_error(e);

  std::vector<ir::Diagnostic> all;
  std::vector<FileFixes> fixes;
  analysis::FixableCounts fixable;
  bool would_change = false;
  if (fix_mode) {
    fix_files(o, inputs.files, options, settings, all, fixes, io_errors, would_change);
  } else {
    std::vector<analysis::FileCheck> checks;
    for (const std::string& path : inputs.files) {
      if (std::optional<analysis::CheckOptions> configured =
              file_options(path, options, settings, io_errors))
        for (auto& fc : analysis::check_files({path}, *configured)) checks.push_back(std::move(fc));
    }
    for (auto& fc : checks) {
      if (fc.read_error) {
        print_error(fc.error);
        io_errors.push_back(fc.error);
        continue;
      }
      if (auto source = ir::SourceManager::global().get(fc.result.tree->file())) {
        analysis::FixableCounts c = analysis::count_fixable(fc.result.diagnostics, source->text());
        fixable.safe += c.safe;
        fixable.unsafe_only += c.unsafe_only;
      }
      for (auto& d : fc.result.diagnostics) all.push_back(std::move(d));
    }
  }
  if (fix_mode) {
    // What is left may still carry fixes that only --unsafe-fixes applies.
    for (const auto& d : all) {
      if (auto source = ir::SourceManager::global().get(d.span.file)) {
        if (!analysis::fix_applies(d, source->text(), o.unsafe_fixes) &&
            analysis::fix_applies(d, source->text(), true))
          ++fixable.unsafe_only;
      }
    }
  }
  if (inputs.files.empty() && inputs.errors.empty())
    std::cerr << "relax: warning: no .relax files found\n";
  if (o.fix && !o.diff) analysis::cap_errors(all, max_errors);

  size_t errors = 0, warnings = 0;
  std::map<std::string, size_t> counts;
  for (const auto& d : all) {
    if (d.severity == ir::Severity::kError) ++errors;
    if (d.severity == ir::Severity::kWarning) ++warnings;
    ++counts[d.code];
  }

  if (o.diff) {
    size_t fixed = 0;
    for (const auto& f : fixes)
      for (const auto& [code, n] : f.fixed) fixed += n;
    std::cout.flush();
    if (fixed)
      std::cerr << "Would fix " << plural(fixed, "diagnostic", "diagnostics") << " (" << all.size()
                << " remaining).\n";
    else
      std::cerr << "No diagnostics would be fixed.\n";
    if (!io_errors.empty()) return kExitUsage;
    return would_change ? kExitInputErrors : kExitOk;
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
    style.summary = false;
    style.max_warnings = max_errors;
    analysis::render_terminal(all, style, std::cerr);
    if (!inputs.files.empty())
      std::cerr << summary_text(all, fixable, fixes, fix_mode, o.unsafe_fixes);
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
  add_config_options(cmd, options->config);
  cmd->add_flag("--warnings-as-errors", options->warnings_as_errors,
                "Exit with 1 when there are warnings, not only errors");
  cmd->add_flag("--statistics", options->statistics,
                "Print how many diagnostics of each code were found instead of the diagnostics "
                "(text or json)");
  cmd->add_flag("--ignore-noqa", options->ignore_noqa,
                "Report what `# noqa` comments would silence");
  cmd->add_flag("--fix", options->fix,
                "Apply the safe fixes of the reported diagnostics, check the result again (until "
                "nothing more is fixable) and write each file back; - prints the fixed text");
  cmd->add_flag("--unsafe-fixes", options->unsafe_fixes,
                "With --fix or --diff, also apply the fixes that may change what the program "
                "does (removing an R.print, a stronger annotation on a call)");
  cmd->add_flag("--diff", options->diff,
                "Write nothing; print the unified diff --fix would make (exit 1 if it would "
                "change a file)");
  add_max_errors_option(
      cmd,
      "Stop checking a file after N errors (default 100; 0: no limit); E0001 then says where "
      "checking stopped. Every format shows at most N errors per file; the text format also "
      "shows at most N warnings per file (the summary counts them all). --statistics counts "
      "without a limit");
  cmd->footer(
      "Suppression: `# noqa` at the end of a line silences the warnings reported on that line;\n"
      "`# noqa: W1001, W1002` only the listed codes (errors only when named). Syntax errors "
      "(E01xx)\n"
      "are always reported. Lint rules and their defaults: docs/diagnostics.md.\n"
      "Fixes: a fix is applied only when the file still checks with no more errors than before;\n"
      "--fix rewrites files as `relax fmt` does (atomically, through symbolic links, keeping "
      "mode,\n"
      "owner and a byte order mark).\n"
      "Configuration: each file's nearest relax.toml (or pyproject.toml with [tool.relax]) sets\n"
      "[lint] select, extend-select, ignore and per-file-ignores; the flags go on top\n"
      "(docs/configuration.md). An invalid configuration is an error (exit 2).\n"
      "Exit codes: 0 no errors (warnings allowed unless --warnings-as-errors), 1 errors found (or\n"
      "warnings with --warnings-as-errors), 2 usage or I/O errors (an unreadable or missing file "
      "is\n"
      "reported and the other files are still checked).");
  return [options]() -> int { return run_check(*options); };
}

}  // namespace relax::cli

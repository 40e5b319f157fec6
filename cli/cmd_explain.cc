// `relax explain CODE`: the documentation of a diagnostic code (as `rustc --explain` and
// `ruff rule` print theirs), from the docs embedded in the binary; without a code, the list.
#include <algorithm>
#include <cctype>
#include <iostream>

#include "analysis/diagnostics/catalog.h"
#include "analysis/lint/lint.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "ir/suggest.h"

namespace relax::cli {

namespace {

// The first line of a title, shortened for the list.
std::string one_line(const std::string& text, size_t width) {
  std::string s = text.substr(0, text.find('\n'));
  if (s.size() > width) s = s.substr(0, width - 3) + "...";
  return s;
}

int list_codes() {
  for (const analysis::CodeDoc& doc : analysis::all_code_docs()) {
    std::string name;
    if (const auto* rule = analysis::lint::LintRegistry::global().find(doc.code))
      name = " (" + rule->name + ")";
    std::cout << doc.code << "  " << one_line(doc.title + name, 90) << "\n";
  }
  return kExitOk;
}

int explain(std::string query) {
  std::string code = query;
  std::transform(code.begin(), code.end(), code.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  // A lint rule may be named instead of numbered (`relax explain unused-binding`).
  for (const auto& rule : analysis::lint::LintRegistry::global().rules()) {
    if (rule.name == query) code = rule.code;
  }
  if (const analysis::CodeDoc* doc = analysis::find_code_doc(code)) {
    std::cout << doc->text;
    return kExitOk;
  }
  ir::ClosestMatch match(analysis::is_diagnostic_code(code) ? code : query);
  for (const analysis::CodeDoc& doc : analysis::all_code_docs()) match.consider(doc.code);
  for (const auto& rule : analysis::lint::LintRegistry::global().rules()) match.consider(rule.name);
  std::string suggestion = match.best().empty() ? "" : "; did you mean `" + match.best() + "`?";
  if (analysis::is_diagnostic_code(code))
    print_error("no diagnostic `" + code + "` is documented" + suggestion);
  else
    print_error("`" + query +
                "` is not a diagnostic code (E or W and four digits, such as E0101) " +
                "or a lint rule name" + suggestion);
  std::cerr << "Run `relax explain` for the list of codes.\n";
  return kExitUsage;
}

}  // namespace

Runner add_explain_command(CLI::App& app) {
  auto code = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "explain", "Print the documentation of a diagnostic code (E0101, w1001) or lint rule name");
  cmd->add_option("code", *code,
                  "A diagnostic code (case does not matter) or a lint rule name; without one, "
                  "list every documented code");
  cmd->footer(
      "The text is docs/diagnostics.md and docs/diagnostics/*.md, embedded when relax is built.\n"
      "Exit codes: 0 ok, 2 an unknown code.");
  return [code]() -> int { return code->empty() ? list_codes() : explain(*code); };
}

}  // namespace relax::cli

// Loading a module for `relax build` and `relax run`.
#include "cli/build_common.h"

#include <algorithm>

#include "analysis/normalize.h"
#include "cli/common.h"
#include "compiler/pass.h"
#include "ir/suggest.h"
#include "syntax/frontend.h"

namespace relax::cli {

ir::Ref<ir::IRModule> load_relax_module(const std::string& path, int& exit_code) {
  exit_code = kExitUsage;
  auto text = read_input(path);
  if (!text) return nullptr;
  exit_code = kExitInputErrors;
  ir::DiagnosticBag diags;
  syntax::FrontendResult result = syntax::parse_text(std::move(*text), display_name(path), diags);
  if (!diags.has_errors()) analysis::normalize_module(*result.module, diags);
  print_diagnostics(diags);
  if (diags.has_errors()) return nullptr;
  return result.module;
}

bool resolve_pass_names(std::vector<std::string>& names, const std::vector<std::string>& keywords) {
  const compiler::PassRegistry& registry = compiler::PassRegistry::global();
  for (std::string& name : names) {
    if (std::find(keywords.begin(), keywords.end(), name) != keywords.end()) continue;
    compiler::PassRegistry::Lookup found = registry.lookup(name);
    if (found.pass) {
      if (!found.note.empty()) print_note(found.note);
      name = found.pass->name;
      continue;
    }
    std::vector<std::string> known = keywords;
    for (std::string& n : registry.names()) known.push_back(std::move(n));
    std::string best = ir::closest_match(name, known);
    print_error("unknown pass `" + name + "`" +
                (best.empty() ? "" : "; did you mean `" + best + "`?") + " (see `relax passes`)");
    return false;
  }
  return true;
}

}  // namespace relax::cli

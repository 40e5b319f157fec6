// Loading a module for `relax build` and `relax run`.
#include "cli/build_common.h"

#include "analysis/normalize.h"
#include "cli/common.h"
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

}  // namespace relax::cli

// Loading a module for `relax build` and `relax run`.
#include "cli/build_common.h"

#include "analysis/normalize.h"
#include "cli/common.h"
#include "cli/file_kind.h"
#include "syntax/frontend.h"

namespace relax::cli {

ir::Ref<ir::IRModule> load_relax_module(const std::string& path, int& exit_code) {
  exit_code = kExitUsage;
  auto text = read_input(path);
  if (!text) return nullptr;
  if (FileKind kind = file_kind_of(std::string_view(*text).substr(0, 64));
      kind != FileKind::kText) {
    bool runnable = kind == FileKind::kSharedLibrary || kind == FileKind::kExecutable;
    print_error(display_name(path) + " is " + describe(kind) + ", not a .relax file" +
                (runnable ? " (`relax run` runs it)" : ""));
    return nullptr;
  }
  exit_code = kExitInputErrors;
  ir::DiagnosticBag diags;
  syntax::FrontendResult result = syntax::parse_text(std::move(*text), display_name(path), diags);
  if (!diags.has_errors()) analysis::normalize_module(*result.module, diags);
  print_diagnostics(diags);
  if (diags.has_errors()) return nullptr;
  return result.module;
}

std::string relax_function_names(const ir::IRModule& module) {
  std::string names;
  for (const auto& m : module.functions) {
    if (ir::as_relax_function(m.func)) names += (names.empty() ? "" : ", ") + m.gvar->name;
  }
  return names.empty() ? "none" : names;
}

bool check_relax_function(const ir::IRModule& module, const std::string& name) {
  if (ir::as_relax_function(module.lookup(name))) return true;
  print_error("the module has no Relax function `" + name +
              "` (its Relax functions: " + relax_function_names(module) + ")");
  return false;
}

}  // namespace relax::cli

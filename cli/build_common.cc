// Loading a module for `relax build`, `relax run` and `relax opt`; binding a model's weights.
#include "cli/build_common.h"

#include "analysis/normalize.h"
#include "analysis/well_formed.h"
#include "cli/common.h"
#include "compiler/relax/bind_params.h"
#include "syntax/frontend.h"

namespace relax::cli {

ir::Ref<ir::IRModule> load_relax_module(const std::string& path, int& exit_code) {
  exit_code = kExitUsage;
  auto text = read_input(path);
  if (!text) return nullptr;
  exit_code = kExitInputErrors;
  // The steps of `relax check` before its lint rules, so that the two agree on every file.
  ir::DiagnosticBag diags;
  syntax::FrontendResult result = syntax::parse_text(std::move(*text), display_name(path), diags);
  analysis::normalize_module(*result.module, diags);
  analysis::check_well_formed(*result.module, diags);
  print_diagnostics(diags);
  if (diags.has_errors()) return nullptr;
  return result.module;
}

int bind_model_params(vm::Module& model, const std::string& path, const std::string& func,
                      std::vector<std::string>& bound) {
  auto file = vm::read_safetensors(path);
  if (!file) {
    print_error(file.error().message);
    return kExitUsage;
  }
  auto index = model.executable().find_function(func);
  if (!index) return kExitOk;  // reported by the caller
  const auto& params = model.executable().functions[static_cast<size_t>(*index)].param_names;
  std::vector<std::string> names;
  for (const auto& nt : file->tensors) names.push_back(nt.name);
  ir::DiagnosticBag diags;
  auto bindings =
      compiler::relax_passes::match_params(names, params, path, func, ir::Span{}, diags);
  print_diagnostics(diags);
  if (diags.has_errors()) return kExitInputErrors;
  for (const auto& b : bindings) {
    for (const auto& nt : file->tensors) {
      if (nt.name == b.tensor) model.bind_param(params[b.param], vm::Value(nt.tensor));
    }
    bound.push_back(params[b.param]);
  }
  return kExitOk;
}

}  // namespace relax::cli

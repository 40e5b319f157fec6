// Loading a module for `relax build`, `relax run` and `relax opt`; binding a model's weights.
#include "cli/build_common.h"

#include "analysis/normalize.h"
#include "analysis/well_formed.h"
#include "cli/common.h"
#include "compiler/codegen/llvm/llvm_codegen.h"
#include "compiler/relax/bind_params.h"
#include "compiler/tir/lower.h"
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

std::optional<compiler::Target> parse_target_option(const std::string& text) {
  std::string error;
  auto target = compiler::Target::parse(text, &error);
  if (target) error = compiler::codegen::check_target(*target);
  if (!error.empty()) {
    print_error("--target `" + text + "`: " + error);
    return std::nullopt;
  }
  return target;
}

void add_bounds_check_flag(CLI::App* cmd, bool& flag) {
  cmd->add_flag("--bounds-check", flag,
                "Compile kernels that check every buffer index against the buffer's shape at run "
                "time and fail with an error naming the kernel, buffer and index (slower)");
}

void apply_bounds_check(bool flag, compiler::PassContext& ctx) {
  if (flag) compiler::tir::set_bounds_check(ctx, true);
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

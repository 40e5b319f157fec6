// Loading a module for `relax build`, `relax run` and `relax opt`; binding a model's weights.
#include "cli/build_common.h"

#include <algorithm>

#include "analysis/normalize.h"
#include "analysis/well_formed.h"
#include "cli/common.h"
#include "cli/file_kind.h"
#include "compiler/codegen/llvm/llvm_codegen.h"
#include "compiler/pass.h"
#include "compiler/relax/bind_params.h"
#include "compiler/tir/lower.h"
#include "ir/suggest.h"
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
  // The steps of `relax check` before its lint rules, so that the two agree on every file.
  ir::DiagnosticBag diags = input_diagnostics();
  syntax::FrontendResult result = syntax::parse_text(std::move(*text), display_name(path), diags);
  // Past --max-errors nothing more is checked (the module has errors either way).
  if (!diags.limit_reached()) analysis::normalize_module(*result.module, diags);
  analysis::WellFormedOptions well_formed;
  well_formed.standalone_functions = !result.is_module_class;
  if (!diags.limit_reached()) analysis::check_well_formed(*result.module, diags, well_formed);
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

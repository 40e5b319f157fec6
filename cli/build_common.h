// Shared by `relax build`, `relax run` and `relax opt`: load a .relax file as `relax check`
// does (front end, normalize, well-formedness), bind weights to a loaded model.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "compiler/build.h"
#include "ir/diagnostic.h"
#include "ir/module.h"
#include "vm/runtime.h"

namespace relax::cli {

// Parses and normalizes `path`; null (diagnostics printed) when it cannot be read or has errors,
// with `exit_code` set to kExitUsage (I/O) or kExitInputErrors.
// A file that is not text (a model library, an executable, an array) is a usage error naming
// what it is.
ir::Ref<ir::IRModule> load_relax_module(const std::string& path, int& exit_code);

// The target of a --target option, checked against what LLVM can compile for (an unknown CPU,
// feature or triple, with close matches); nullopt after printing why (a usage error, exit 2).
std::optional<compiler::Target> parse_target_option(const std::string& text);

// --bounds-check of `relax build` and `relax run`: compiled kernels check every buffer index
// against its buffer's shape and fail with a message naming the kernel, buffer and index
// (PassContext config tir.instrument_bound_checkers).
void add_bounds_check_flag(CLI::App* cmd, bool& flag);
void apply_bounds_check(bool flag, compiler::PassContext& ctx);

// Binds the tensors of the .safetensors file `path` to the parameters of `func` of a loaded
// model by the names BindParams matches (compiler/relax/bind_params.h: the same name, else dots
// as underscores), printing its warnings and errors. kExitOk, kExitUsage (cannot read the file)
// or kExitInputErrors (an ambiguous name). A model without `func` binds nothing. The names of
// the parameters bound go to `bound`.
int bind_model_params(vm::Module& model, const std::string& path, const std::string& func,
                      std::vector<std::string>& bound);

// Resolves the pass names of an option (`-p`, `--print-before`, `--print-after`) in place to
// registered names: TVM's names and qualified names are accepted with a note on stderr; an
// unknown name is reported with the closest known one (false: a usage error). `keywords` are
// accepted as they are ("all", "default").
bool resolve_pass_names(std::vector<std::string>& names, const std::vector<std::string>& keywords);
// The module's Relax functions, comma-separated ("main, helper"; "none").
std::string relax_function_names(const ir::IRModule& module);
// True when `name` is a Relax function of the module; otherwise prints an error listing them.
bool check_relax_function(const ir::IRModule& module, const std::string& name);

}  // namespace relax::cli

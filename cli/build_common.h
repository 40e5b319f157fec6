// Shared by `relax build` and `relax run`: parse and normalize a .relax file, then build it
// with the default pipeline.
#pragma once

#include <string>

#include "compiler/build.h"
#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::cli {

// Parses and normalizes `path`; null (diagnostics printed) when it cannot be read or has errors,
// with `exit_code` set to kExitUsage (I/O) or kExitInputErrors.
// A file that is not text (a model library, an executable, an array) is a usage error naming
// what it is.
ir::Ref<ir::IRModule> load_relax_module(const std::string& path, int& exit_code);

// The module's Relax functions, comma-separated ("main, helper"; "none").
std::string relax_function_names(const ir::IRModule& module);
// True when `name` is a Relax function of the module; otherwise prints an error listing them.
bool check_relax_function(const ir::IRModule& module, const std::string& name);

}  // namespace relax::cli

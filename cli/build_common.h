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
ir::Ref<ir::IRModule> load_relax_module(const std::string& path, int& exit_code);

}  // namespace relax::cli

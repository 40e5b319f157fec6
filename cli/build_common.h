// Shared by `relax build` and `relax run`: parse and normalize a .relax file, then build it
// with the default pipeline.
#pragma once

#include <string>

#include "compiler/build.h"
#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::cli {

// Parses and normalizes `path`; null (diagnostics printed) when the input has errors.
ir::Ref<ir::IRModule> load_relax_module(const std::string& path);

}  // namespace relax::cli

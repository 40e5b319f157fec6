// Shared by `relax build` and `relax run`: parse and normalize a .relax file, then build it
// with the default pipeline.
#pragma once

#include <string>
#include <vector>

#include "compiler/build.h"
#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::cli {

// Parses and normalizes `path`; null (diagnostics printed) when it cannot be read or has errors,
// with `exit_code` set to kExitUsage (I/O) or kExitInputErrors.
ir::Ref<ir::IRModule> load_relax_module(const std::string& path, int& exit_code);

// Resolves the pass names of an option (`-p`, `--print-before`, `--print-after`) in place to
// registered names: TVM's names and qualified names are accepted with a note on stderr; an
// unknown name is reported with the closest known one (false: a usage error). `keywords` are
// accepted as they are ("all", "default").
bool resolve_pass_names(std::vector<std::string>& names, const std::vector<std::string>& keywords);

}  // namespace relax::cli

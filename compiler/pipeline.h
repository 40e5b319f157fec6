// The default Relax pipeline per target, written out once in pipeline.cc.
#pragma once

#include <string>
#include <vector>

#include "compiler/pass.h"
#include "compiler/target.h"

namespace relax::compiler {

// Registers every pass this build has (the Relax passes, and whatever other parts registered)
// in PassRegistry::global(). Idempotent.
void register_default_passes();

// The Relax passes `build` runs for `target`, in order (SEMANTICS.md §4.2). LegalizeOps is part
// of it when a pass of that name is registered (the legalize part registers it).
Pass default_pipeline(const Target& target);

}  // namespace relax::compiler

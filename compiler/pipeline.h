// The default Relax pipeline per target, written out once in pipeline.cc.
#pragma once

#include <optional>
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

// A place in a pipeline: right before or after the first step of that name (nested sequentials
// searched depth first). Used for plugin passes, `relax build --pass-before/--pass-after` and
// the schedule of `--schedule` (after LegalizeOps).
struct PassPosition {
  enum class Where { kBefore, kAfter };
  Where where = Where::kAfter;
  std::string step;
  static PassPosition before(std::string step) { return {Where::kBefore, std::move(step)}; }
  static PassPosition after(std::string step) { return {Where::kAfter, std::move(step)}; }
};

struct PlacedPass {
  Pass pass;
  PassPosition position;
};

// `pipeline` with the `extra` passes placed. Passes placed at the same side of one step keep the
// order of `extra` (after X: A, B runs X, A, B). Null, with `missing` set to the step's name,
// when the pipeline has no step of a position's name.
std::optional<Pass> place_passes(const Pass& pipeline, const std::vector<PlacedPass>& extra,
                                 std::string& missing);

}  // namespace relax::compiler

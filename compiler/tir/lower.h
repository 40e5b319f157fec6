// Lowering a block-level prim_func (as the front end parses it, or as legalization and schedules
// leave it) to the loop form code generators take: no blocks, one-dimensional buffers, explicit
// allocations, simplified indices, loop kinds honoured for the target. One step per file
// (lower_init_block.cc, convert_blocks_to_opaque.cc, ...); `lower_prim_func` runs them in order,
// verifying the function between steps in debug builds. docs/tir-lowering.md describes each.
//
//   ir::DiagnosticBag diags;
//   auto lowered = relax::compiler::tir::lower_prim_func(func, Target::host(), diags);
//   if (!lowered) { ... diags holds E07xx errors ... }
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "compiler/target.h"
#include "ir/diagnostic.h"
#include "ir/tir.h"

namespace relax::compiler::tir {

using ir::Ref;
using ir::tir::PrimFunc;

#ifdef NDEBUG
inline constexpr bool kVerifyByDefault = false;
#else
inline constexpr bool kVerifyByDefault = true;
#endif

struct LowerOptions {
  // Verify the function after every step (E0702-E0706 on a malformed result).
  bool verify = kVerifyByDefault;
  // Rewrite vectorized loops of constant extent into vector expressions (Ramp, Broadcast,
  // vector loads and stores). When false, or when a loop body cannot be vectorized, the loop
  // stays a loop that the code generator hands to LLVM's loop vectorizer.
  bool explicit_vectors = true;
  // Vectorized loops longer than this stay loops (LLVM vectorizes them).
  int max_vector_lanes = 64;
  // Unrolled loops of constant extent up to this are unrolled in TIR; longer ones and those of
  // symbolic extent become loops with an unroll hint for LLVM.
  int max_unroll_extent = 32;
  // Check every buffer index against its buffer's shape at run time (InstrumentBoundCheckers;
  // `relax build/run --bounds-check`, PassContext config tir.instrument_bound_checkers).
  bool bounds_check = false;
  // Called after each step with its name, for --print-after and tests.
  std::function<void(const std::string& step, const Ref<PrimFunc>& func)> after_step;
};

// What every step sees: the target, where errors go, the options, the function's name.
struct LowerContext {
  const Target& target;
  ir::DiagnosticBag& diags;
  const LowerOptions& options;
  std::string func_name;
};

using LowerStep = Ref<PrimFunc> (*)(const Ref<PrimFunc>&, LowerContext&);

// The steps, one file each. A step that finds an error reports it and returns null.

// Blocks with `T.init()`: the init runs under `if` every reduction iterator is at its first value.
Ref<PrimFunc> lower_init_block(const Ref<PrimFunc>& f, LowerContext& ctx);
// Block iterators are replaced by the values bound to them; blocks keep no iterators.
Ref<PrimFunc> convert_blocks_to_opaque(const Ref<PrimFunc>& f, LowerContext& ctx);
// `T.match_buffer` inside blocks: accesses of the matched buffer become accesses of the source.
Ref<PrimFunc> lower_match_buffer(const Ref<PrimFunc>& f, LowerContext& ctx);
// Blocks disappear: predicates become ifs, alloc_buffers become allocate + decl_buffer; thread
// bindings are rejected on CPU targets (E0700).
Ref<PrimFunc> lower_opaque_block(const Ref<PrimFunc>& f, LowerContext& ctx);
// With LowerOptions::bounds_check (else nothing): each buffer access is preceded by an assert
// that its indices lie in the buffer's shape, unless that is proven (TVM's
// instrument_bound_checkers); the kernel fails with a message naming the buffer and the index.
Ref<PrimFunc> instrument_bound_checkers(const Ref<PrimFunc>& f, LowerContext& ctx);
// N-d buffer accesses become 1-d accesses (strides, elem_offset); allocations become 1-d.
Ref<PrimFunc> flatten_buffer(const Ref<PrimFunc>& f, LowerContext& ctx);
// Index arithmetic in canonical form under the loop ranges; provable branches and loops of
// extent 0 or 1 removed; floor division of provably non-negative values becomes truncation.
Ref<PrimFunc> simplify(const Ref<PrimFunc>& f, LowerContext& ctx);
// Parallel loops nested in parallel loops become serial (the outer one gets the threads).
Ref<PrimFunc> lower_parallel_loops(const Ref<PrimFunc>& f, LowerContext& ctx);
// Vectorized loops of constant extent become vector expressions where the body allows.
Ref<PrimFunc> vectorize_loop(const Ref<PrimFunc>& f, LowerContext& ctx);
// Unrolled loops of small constant extent are replicated.
Ref<PrimFunc> unroll_loop(const Ref<PrimFunc>& f, LowerContext& ctx);

struct NamedLowerStep {
  const char* name;  // "LowerInitBlock", as TVM names the pass
  LowerStep step;
};
// The steps in pipeline order (Simplify appears twice: after flattening and at the end).
const std::vector<NamedLowerStep>& lowering_steps();

// Runs every step. Null (with diagnostics) on error. A function without blocks skips the block
// steps, so lowering a lowered function again is harmless.
Ref<PrimFunc> lower_prim_func(const Ref<PrimFunc>& func, const Target& target,
                              ir::DiagnosticBag& diags, const LowerOptions& options = {},
                              const std::string& name = "");

// True when `func` has no blocks left (what code generators accept).
bool is_lowered(const PrimFunc& func);

// Each step as a module pass over every prim_func ("tir.LowerInitBlock", ...), to run in a
// pass pipeline where --print-after shows every step. InstrumentBoundCheckers instruments when
// the context's config sets kBoundsCheckConfig.
std::vector<Pass> lowering_passes(const Target& target);

// The PassContext config key that turns bounds checking on ("1" or "true"), as TVM names it.
inline constexpr const char* kBoundsCheckConfig = "tir.instrument_bound_checkers";
bool bounds_check_enabled(const PassContext& ctx);
// Sets (or clears) kBoundsCheckConfig in ctx.config: what `--bounds-check` does.
void set_bounds_check(PassContext& ctx, bool on);

// The module pass "tir.InstrumentBoundCheckers": every prim_func goes through the lowering steps
// up to and including InstrumentBoundCheckers (blocks lowered, accesses checked); code
// generation lowers the rest. compiler::build appends it to the pipeline when the context's
// config turns bounds checking on.
Pass instrument_bound_checkers_pass(const Target& target);

}  // namespace relax::compiler::tir

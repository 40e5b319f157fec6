// Schedule primitives on a block-level prim_func, usable from C++ as in TVM's tir.Schedule:
// loops are named by their loop variables (identity, not names), every primitive rebuilds the
// function and returns the new loops. Errors (a loop or block that is not there, bad factors,
// loops that are not a perfect nest) are E0720-E0725 diagnostics; the function is then left as
// it was and the primitive returns an empty result (or false).
//
//   Schedule sch(func, diags);
//   auto loops = sch.get_loops("C");                 // i, j, k
//   auto split = sch.split(loops[1], {-1, 16});      // j -> j_0, j_1
//   sch.reorder({loops[0], split[0], loops[2], split[1]});
//   sch.parallel(loops[0]);
//   sch.vectorize(split[1]);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "compiler/target.h"
#include "ir/diagnostic.h"
#include "ir/tir.h"

namespace relax::compiler::tir {

class Schedule {
 public:
  using LoopRV = ir::Ref<ir::tir::Var>;

  Schedule(ir::Ref<ir::tir::PrimFunc> func, ir::DiagnosticBag& diags)
      : func_(std::move(func)), diags_(diags) {}

  // The function as the primitives applied so far have left it.
  const ir::Ref<ir::tir::PrimFunc>& func() const { return func_; }

  // The loops around the block named `block`, outermost first (E0721 when there is no such block).
  std::vector<LoopRV> get_loops(const std::string& block);

  // Splits `loop` into nested loops of the given extents, outermost first; at most one factor
  // may be -1 (inferred as the ceiling quotient). When the factors do not divide the extent,
  // the blocks underneath get a predicate (or the body an `if`) so that no extra iteration runs.
  std::vector<LoopRV> split(const LoopRV& loop, const std::vector<int64_t>& factors);
  // Fuses a chain of directly nested loops (outermost first) into one loop.
  LoopRV fuse(const std::vector<LoopRV>& loops);
  // Puts the loops, which lie in one perfect nest, in the given order (outermost first); loops
  // of the nest that are not named keep their positions.
  bool reorder(const std::vector<LoopRV>& loops);

  // Loop kinds: parallel over the runtime's threads, vectorized, unrolled. A loop that feeds a
  // reduction iterator of a block underneath cannot be parallel or vectorized (E0725).
  bool parallel(const LoopRV& loop);
  bool vectorize(const LoopRV& loop);
  bool unroll(const LoopRV& loop);
  // Binds a loop to a GPU thread axis ("blockIdx.x", "threadIdx.x", ...), for GPU targets.
  bool bind(const LoopRV& loop, const std::string& thread);

 private:
  bool set_kind(const LoopRV& loop, ir::tir::ForKind kind, const std::string& thread);

  ir::Ref<ir::tir::PrimFunc> func_;
  ir::DiagnosticBag& diags_;
};

// The default CPU schedule (default_schedule.cc), for every block in a perfect loop nest of a
// function that has no loop kinds set yet and no "tir.is_scheduled" attribute: the innermost
// spatial loop of constant extent moves innermost (below reduction loops), is split by the vector
// width and vectorized; the leading spatial loops are fused and made parallel. Reduction loops are
// never parallel or vectorized. Blocks that do not fit (imperfect nests, symbolic inner extents)
// keep what they have.
ir::Ref<ir::tir::PrimFunc> default_cpu_schedule(const ir::Ref<ir::tir::PrimFunc>& func,
                                                const Target& target, ir::DiagnosticBag& diags);

// The module pass "DefaultCPUSchedule": default_cpu_schedule on every prim_func (opt level 1).
Pass default_cpu_schedule_pass(const Target& target);

}  // namespace relax::compiler::tir

// Schedule files (`relax opt|build --schedule FILE`): TVM's Python schedule lines, as the seed
// tutorial writes them (§6.1), applied to the prim_funcs of a module with the primitives of
// schedule.h. The file is a Python subset, read with the TVMScript grammar:
//
//   sch = tvm.tir.Schedule(mod)                        # optional
//   block = sch.get_block("matmul", func_name="matmul")
//   i, j, k = sch.get_loops(block)
//   jo, ji = sch.split(j, factors=[None, 4])
//   sch.reorder(i, jo, k, ji)
//   sch.parallel(i)
//   sch.vectorize(ji)
//
// docs/cli.md ("Schedule files") lists the statements and primitives; errors are diagnostics at
// the file's lines (E0720-E0738, E01xx for syntax).
#pragma once

#include <memory>
#include <string>

#include "compiler/pass.h"
#include "ir/diagnostic.h"
#include "ir/module.h"

namespace relax::syntax {
class SyntaxTree;
}

namespace relax::compiler::tir {

class ScheduleScript {
 public:
  // Registers `text` as `name` with the SourceManager and parses it; null when it has syntax
  // errors (reported in `diags`).
  static std::shared_ptr<const ScheduleScript> parse(std::string text, const std::string& name,
                                                     ir::DiagnosticBag& diags);

  // Runs the statements in order on `module`'s prim_funcs. Returns the module with every
  // transformed prim_func replaced (and marked "tir.is_scheduled", which DefaultCPUSchedule
  // leaves alone); null at the first error, which is reported at its place in the file.
  ir::Ref<ir::IRModule> apply(const ir::Ref<ir::IRModule>& module, ir::DiagnosticBag& diags) const;

  explicit ScheduleScript(std::shared_ptr<const syntax::SyntaxTree> tree)
      : tree_(std::move(tree)) {}

 private:
  std::shared_ptr<const syntax::SyntaxTree> tree_;
};

// The pass "ApplySchedule": `script->apply` on the module. `relax build --schedule` runs it right
// after LegalizeOps, so that the kernels LegalizeOps made can be scheduled by their names. With
// a null script (the registered placeholder) it reports E0738.
Pass apply_schedule_pass(std::shared_ptr<const ScheduleScript> script);

}  // namespace relax::compiler::tir

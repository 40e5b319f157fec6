// AnnotateTIROpPattern: sets the `op_pattern` attribute (TVM's OpPatternKind, as an int) of every
// prim_func that does not have one, from its blocks (compiler/tir/op_pattern.h). Functions that
// already carry the attribute keep it: a hand-written kernel can state its own pattern.
#include "compiler/relax/passes.h"
#include "compiler/tir/op_pattern.h"
#include "ir/module.h"

namespace relax::compiler::relax_passes {

using namespace ir;

Pass annotate_tir_op_pattern_pass() {
  Pass p;
  p.name = "AnnotateTIROpPattern";
  p.doc =
      "Sets each prim_func's op_pattern attribute (elementwise, broadcast, injective, "
      "reduction, out-elementwise-fusable or opaque) for FuseOps";
  p.fn = [](Ref<IRModule> m, PassContext&) {
    auto out = make<IRModule>();
    out->name = m->name;
    out->attrs = m->attrs;
    out->global_infos = m->global_infos;
    for (const auto& member : m->functions) {
      auto func = as_prim_func(member.func);
      if (!func || func->attrs.contains("op_pattern")) {
        out->functions.push_back(member);
        continue;
      }
      auto copy = make<ir::tir::PrimFunc>(*func);
      copy->attrs.set("op_pattern",
                      make<IntValue>(static_cast<int64_t>(tir::classify_op_pattern(*func))));
      out->functions.push_back({member.gvar, copy});
    }
    return out;
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

// ToNonDataflow: every dataflow block (`with R.dataflow():`) becomes an ordinary binding block
// and every DataflowVar an ordinary Var of the same name and struct info, so that later passes
// and VM codegen see one kind of block. Leaves alone: the bindings themselves, their order,
// blocks that are already ordinary (a lowered module has only those), prim_funcs and extern
// functions.
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {
class ToNonDataflow : public ExprMutator {
 public:
  Ref<BindingBlock> mutate_binding_block(const Ref<BindingBlock>& block) override {
    Ref<BindingBlock> b = ExprMutator::mutate_binding_block(block);
    if (!b->is_dataflow) return b;
    auto n = make<BindingBlock>(b->bindings, false);
    n->span = b->span;
    return n;
  }
  Ref<Var> mutate_var_def(const Ref<Var>& var) override {
    if (!var->is_dataflow()) return ExprMutator::mutate_var_def(var);
    auto fresh = make<Var>(var->name, var->struct_info);
    fresh->span = var->span;
    var_remap_[var.get()] = fresh;
    return fresh;
  }
};
}  // namespace

Pass to_non_dataflow_pass() {
  Pass p;
  p.name = "ToNonDataflow";
  p.doc = "Turns dataflow blocks into ordinary binding blocks and DataflowVars into Vars";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [](const Ref<Function>& f) {
      ToNonDataflow t;
      return t.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

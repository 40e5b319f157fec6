// CanonicalizeBindings: removes trivial bindings. A binding `y = x` of one variable to another
// is dropped and later uses of y read x; `z = t[i]` where t is bound to a tuple literal reads
// that field directly. Leaves alone: a binding that turns a DataflowVar into the block's output
// Var (the output must stay a Var), a binding whose variable has other struct info than its
// value, match_cast bindings, every other value. Kills: y and x are one value (kills.h), so a
// kill of y becomes a kill of x and no use moves past a kill; a module where a name is used
// after a kill of its alias is already invalid (E0788, checked before the pipeline). On a
// lowered module this folds the `z = alloc` bindings CallTIRRewrite left.
#include <unordered_map>

#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/structural_equal.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {
class Canonicalize : public ExprMutator {
 public:
  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    if (binding.is<VarBinding>()) {
      Ref<Expr> value = mutate(binding->value);
      if (auto item = value.as<TupleGetItem>()) {
        if (auto tv = item->tuple.as<Var>()) {
          auto it = tuples_.find(tv.get());
          if (it != tuples_.end() && item->index >= 0 &&
              static_cast<size_t>(item->index) < it->second->fields.size()) {
            value = it->second->fields[static_cast<size_t>(item->index)];
          }
        }
      }
      if (auto src = value.as<Var>()) {
        bool keeps_output = src->is_dataflow() && !binding->var->is_dataflow();
        // A binding that narrows the struct info (`y: R.Tensor((4,)) = x` with x of rank 1)
        // keeps what it states.
        const auto& want = binding->var->struct_info;
        bool same_info = !want || !src->struct_info || structural_equal(want, src->struct_info);
        if (!keeps_output && same_info) {
          var_remap_[binding->var.get()] = src;
          return;
        }
      }
      if (auto tup = value.as<Tuple>()) tuples_[binding->var.get()] = tup;
      if (value.same_as(binding->value)) {
        out.push_back(binding);
      } else {
        auto n = make<VarBinding>(binding->var, value);
        n->span = binding->span;
        out.push_back(n);
      }
      return;
    }
    ExprMutator::mutate_binding(binding, out);
  }

 private:
  std::unordered_map<const Var*, Ref<Tuple>> tuples_;
};
}  // namespace

Pass canonicalize_bindings_pass() {
  Pass p;
  p.name = "CanonicalizeBindings";
  p.doc = "Removes var-to-var bindings and reads tuple fields of tuple literals directly";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [](const Ref<Function>& f) {
      Canonicalize c;
      return c.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

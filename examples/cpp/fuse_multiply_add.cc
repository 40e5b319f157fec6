// An example pass plugin (seed tutorial §7.3, a custom pass that finds an op pattern and
// replaces it): FuseMultiplyAdd turns
//     t = R.multiply(a, b)
//     y = R.add(t, c)          (or R.add(c, t))
// in a dataflow block into y = R.ewise_fma(a, b, c), one kernel instead of two, when a, b, c and
// y have one shape and dtype (ewise_fma does not broadcast) and nothing else reads t. Leaves
// alone: every other binding, bindings outside dataflow blocks, prim_funcs.
//
//   relax opt model.relax --load-pass-plugin ./libfuse_multiply_add.so -p FuseMultiplyAdd
//   relax build model.relax --load-pass-plugin ./libfuse_multiply_add.so   (runs before
//   LegalizeOps)
#include <unordered_map>
#include <unordered_set>

#include "compiler/plugin.h"
#include "compiler/relax/pass_util.h"
#include "ir/visitor.h"

namespace {

using namespace relax;
using namespace relax::ir;
using compiler::relax_passes::is_op_call;

// Same dtype and the same dims (equal constants or the same symbolic variable).
bool same_tensor_info(const Ref<StructInfo>& a, const Ref<StructInfo>& b) {
  auto ta = a.as_ptr<TensorStructInfo>(), tb = b.as_ptr<TensorStructInfo>();
  if (!ta || !tb || ta->is_unknown_dtype() || ta->dtype != tb->dtype) return false;
  const auto* da = ta->shape_values();
  const auto* db = tb->shape_values();
  if (!da || !db || da->size() != db->size()) return false;
  for (size_t i = 0; i < da->size(); ++i) {
    auto ca = tir::as_const_int((*da)[i]), cb = tir::as_const_int((*db)[i]);
    bool same = ca && cb ? *ca == *cb : (*da)[i].same_as((*db)[i]);
    if (!same) return false;
  }
  return true;
}

class FuseMultiplyAdd : public ExprMutator {
 public:
  explicit FuseMultiplyAdd(const Ref<Function>& f) {
    std::vector<const Var*> used;
    compiler::relax_passes::collect_used_vars(f, used);
    for (const Var* v : used) ++uses_[v];
  }

  Ref<BindingBlock> mutate_binding_block(const Ref<BindingBlock>& block) override {
    if (block->is_dataflow) find_pairs(*block);
    return ExprMutator::mutate_binding_block(block);
  }

  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    if (fused_products_.count(binding->var.get())) return;  // folded into the ewise_fma
    auto it = replacements_.find(binding.get());
    if (it == replacements_.end()) return ExprMutator::mutate_binding(binding, out);
    auto n = make<VarBinding>(binding->var, mutate(it->second));
    n->span = binding->span;
    out.push_back(n);
  }

 private:
  void find_pairs(const BindingBlock& block) {
    std::unordered_map<const Var*, Ref<Call>> products;
    for (const auto& b : block.bindings) {
      if (!b.is<VarBinding>()) continue;
      if (is_op_call(b->value, "relax.multiply")) {
        products[b->var.get()] = b->value.as<Call>();
        continue;
      }
      if (!is_op_call(b->value, "relax.add")) continue;
      auto add = b->value.as<Call>();
      for (size_t side = 0; side < 2 && add->args.size() == 2; ++side) {
        auto t = add->args[side].as<Var>();
        auto product = t ? products.find(t.get()) : products.end();
        if (product == products.end() || uses_[t.get()] != 1 || !t->is_dataflow()) continue;
        const Ref<Expr>& a = product->second->args[0];
        const Ref<Expr>& m = product->second->args[1];
        const Ref<Expr>& c = add->args[1 - side];
        const auto& y = b->var->struct_info;
        if (!same_tensor_info(a->struct_info, y) || !same_tensor_info(m->struct_info, y) ||
            !same_tensor_info(c->struct_info, y))
          continue;
        replacements_[b.get()] = compiler::relax_passes::op_call("relax.ewise_fma", {a, m, c});
        fused_products_.insert(t.get());
        break;
      }
    }
  }

  std::unordered_map<const Var*, int> uses_;
  std::unordered_map<const Binding*, Ref<Expr>> replacements_;
  std::unordered_set<const Var*> fused_products_;
};

compiler::Pass fuse_multiply_add_pass() {
  compiler::Pass p;
  p.name = "FuseMultiplyAdd";
  p.opt_level = 1;
  p.doc = "Rewrites R.add(R.multiply(a, b), c) of equal shapes into R.ewise_fma(a, b, c) (plugin)";
  p.fn = [](Ref<IRModule> m, compiler::PassContext& ctx) {
    return compiler::relax_passes::map_relax_functions(m, ctx, [](const Ref<Function>& f) {
      FuseMultiplyAdd rewrite(f);
      return rewrite.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace

// The two entry points `relax --load-pass-plugin` looks up (compiler/plugin.h).
extern "C" RELAX_PLUGIN_EXPORT const relax::compiler::PluginAbi* relax_plugin_abi() {
  return &relax::compiler::kPluginAbi;
}

extern "C" RELAX_PLUGIN_EXPORT void relax_register_passes(
    relax::compiler::PluginRegistrar& registrar) {
  // An op-level rewrite: it must see R.multiply and R.add before LegalizeOps turns them into
  // kernels.
  registrar.add_pass(fuse_multiply_add_pass(),
                     relax::compiler::PassPosition::before("LegalizeOps"));
}

// LowerAllocTensor: every builtin.alloc_tensor left after memory planning gets a storage block
// of its own:
//   x = R.builtin.alloc_tensor(shape, dtype, dev, scope)
// becomes
//   storage = R.memory.alloc_storage(R.shape([nbytes]), dev, scope, dtype)
//   x = R.memory.alloc_tensor(storage, R.prim_value(0), shape, dtype)
// where nbytes is the product of the dims times the element size (a symbolic expression when
// the shape is symbolic). Leaves alone: allocations already placed by StaticPlanBlockMemory or
// lowered before (memory.alloc_tensor, vm.alloc_tensor: running it again changes nothing),
// every other binding. An allocation whose shape is not a literal shape is reported (E0771).
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {
class LowerAlloc : public ExprMutator {
 public:
  LowerAlloc(const Ref<Function>& f, DiagnosticBag& diags) : names_(f), diags_(diags) {}

  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    if (!binding.is<VarBinding>() || !is_op_call(binding->value, "relax.builtin.alloc_tensor")) {
      ExprMutator::mutate_binding(binding, out);
      return;
    }
    auto call = binding->value.as<Call>();
    auto shape = call->args[0].as<ShapeExpr>();
    auto dt = call->args[1].as<DataTypeImm>();
    if (!shape || !dt) {
      diags_.error("E0771", binding->span,
                   "LowerAllocTensor: the allocation of `" + binding->var->name +
                       "` needs a literal shape and dtype");
      ExprMutator::mutate_binding(binding, out);
      return;
    }
    Ref<tir::PrimExpr> nbytes = tir::int64(element_bytes(dt->value));
    if (auto n = static_bytes(shape->values, element_bytes(dt->value))) {
      nbytes = tir::int64(*n);
    } else {
      Ref<tir::PrimExpr> elements;
      for (const auto& d : shape->values)
        elements = elements ? tir::binary(ObjectKind::kMul, elements, d) : d;
      nbytes = tir::binary(ObjectKind::kMul, elements, nbytes);
    }
    auto storage = make<Var>(names_.fresh("storage"));
    Ref<Expr> scope = call->args.size() > 3 && call->args[3] ? call->args[3]
                                                             : Ref<Expr>(make<StringImm>("global"));
    auto alloc_storage = op_call(
        "relax.memory.alloc_storage",
        {make<ShapeExpr>(std::vector<Ref<tir::PrimExpr>>{nbytes}), call->args[2], scope, dt});
    alloc_storage->span = call->span;
    out.push_back(make<VarBinding>(storage, alloc_storage));
    auto tensor =
        op_call("relax.memory.alloc_tensor", {storage, make<PrimValue>(tir::int64(0)), shape, dt});
    tensor->span = call->span;
    auto nb = make<VarBinding>(mutate_var_def(binding->var), tensor);
    nb->span = binding->span;
    out.push_back(nb);
  }

 private:
  NameSupply names_;
  DiagnosticBag& diags_;
};
}  // namespace

Pass lower_alloc_tensor_pass() {
  Pass p;
  p.name = "LowerAllocTensor";
  p.doc = "Gives every remaining builtin.alloc_tensor its own memory.alloc_storage";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      LowerAlloc l(f, ctx.diagnostics());
      return l.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

// RemovePurityChecking: from here on the pipeline inserts effects (allocations, kills) into
// functions declared pure, so every pure Relax function is marked `"relax.force_pure": True`
// (the well-formedness check then accepts them), and the pure call forms become their plain
// forms: R.call_pure_packed("f", args..., sinfo_args=s) -> a call of R.ExternFunc("f"),
// R.invoke_pure_closure -> R.invoke_closure. Leaves alone: impure functions (pure=False),
// functions already marked force_pure (a lowered module), every other call, prim_funcs.
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {
class Unpure : public ExprMutator {
 public:
  Ref<Expr> mutate_call(const Ref<Call>& c) override {
    auto call = ExprMutator::mutate_call(c).as<Call>();
    const std::string& op = call->op_name();
    if (op == "relax.call_pure_packed" && !call->args.empty()) {
      Ref<Expr> callee = call->args[0];
      if (auto s = callee.as<StringImm>()) callee = make<ExternFunc>(s->value);
      std::vector<Ref<Expr>> args(call->args.begin() + 1, call->args.end());
      auto n = make<Call>(callee, std::move(args), Attrs{}, call->sinfo_args);
      n->span = call->span;
      return n;
    }
    if (op == "relax.invoke_pure_closure") {
      auto n =
          make<Call>(Op::get("relax.invoke_closure"), call->args, call->attrs, call->sinfo_args);
      n->span = call->span;
      return n;
    }
    return call;
  }
  Ref<Expr> mutate_function(const Ref<Function>& f) override {
    auto g = ExprMutator::mutate_function(f).as<Function>();
    if (!g->is_pure || g->attrs.get_bool("relax.force_pure", false)) return g;
    if (g.same_as(f)) g = copy(f);
    g->attrs.set("relax.force_pure", make<BoolValue>(true));
    g->struct_info = nullptr;
    return g;
  }
};
}  // namespace

Pass remove_purity_checking_pass() {
  Pass p;
  p.name = "RemovePurityChecking";
  p.doc =
      "Marks pure functions relax.force_pure and turns call_pure_packed / invoke_pure_closure into "
      "plain calls";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [](const Ref<Function>& f) {
      Unpure u;
      return u.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

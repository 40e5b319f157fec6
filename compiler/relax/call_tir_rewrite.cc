// CallTIRRewrite: destination-passing calls become explicit allocations and plain calls.
//   y = R.call_tir(cls.f, (a, b), out_sinfo=T)            (also R.call_dps_packed("ext", ...))
// becomes
//   alloc = R.builtin.alloc_tensor(R.shape(T.shape), R.dtype(T.dtype), R.prim_value(0),
//   R.str("global")) _ = cls.f(a, b, alloc)
// (with tir_vars: `R.vm.call_tir_dyn(cls.f, (a, b, alloc, R.shape([tir_vars])))`)
//   y = alloc
// A tuple out_sinfo allocates each field and binds y to the tuple of allocations. Leaves alone:
// every other binding, call_tir_inplace (its in-place outputs need no allocation; it is reported
// by VM codegen until supported), outputs whose shape is not known as a list of dims (reported,
// E0770), prim_funcs and extern functions.
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {
class CallTIRRewrite : public ExprMutator {
 public:
  CallTIRRewrite(const Ref<Function>& f, DiagnosticBag& diags) : names_(f), diags_(diags) {}

  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    auto call = binding->value.as<Call>();
    if (!binding.is<VarBinding>() || !call ||
        (call->op_name() != "relax.call_tir" && call->op_name() != "relax.call_dps_packed")) {
      ExprMutator::mutate_binding(binding, out);
      return;
    }
    if (call->sinfo_args.empty() || call->args.size() < 2) {
      ExprMutator::mutate_binding(binding, out);
      return;
    }
    // The outputs to allocate.
    std::vector<Ref<StructInfo>> outs;
    if (auto tup = call->sinfo_args[0].as<TupleStructInfo>())
      outs = tup->fields;
    else
      outs = {call->sinfo_args[0]};
    std::vector<Ref<Expr>> allocs;
    std::vector<Ref<Binding>> pending;
    for (const auto& o : outs) {
      auto t = o.as<TensorStructInfo>();
      auto dims = known_dims(o);
      if (!t || !dims || t->is_unknown_dtype()) {
        diags_.error("E0770", binding->span,
                     "CallTIRRewrite: cannot allocate the output of `" + binding->var->name +
                         "`: its shape or dtype is not known");
        ExprMutator::mutate_binding(binding, out);
        return;
      }
      auto var = make<Var>(names_.fresh("alloc"));
      auto alloc = op_call("relax.builtin.alloc_tensor",
                           {make<ShapeExpr>(*dims), make<DataTypeImm>(t->dtype),
                            make<PrimValue>(tir::int64(0)), make<StringImm>("global")});
      alloc->span = call->span;
      pending.push_back(make<VarBinding>(var, alloc));
      allocs.push_back(var);
    }
    // The callee and its inputs.
    Ref<Expr> callee = mutate(call->args[0]);
    if (auto s = callee.as<StringImm>()) callee = make<ExternFunc>(s->value);
    std::vector<Ref<Expr>> args;
    Ref<Expr> inputs = mutate(call->args[1]);
    if (auto tup = inputs.as<Tuple>()) {
      args = tup->fields;
    } else if (auto ts = inputs->struct_info.as<TupleStructInfo>()) {
      for (size_t i = 0; i < ts->fields.size(); ++i)
        args.push_back(make<TupleGetItem>(inputs, static_cast<int>(i)));
    } else {
      args.push_back(inputs);
    }
    args.insert(args.end(), allocs.begin(), allocs.end());
    Ref<Call> invoke;
    if (call->args.size() > 2 && call->args[2]) {
      // Symbolic values after the outputs: the VM unpacks the shape into int arguments.
      args.push_back(mutate(call->args[2]));
      invoke = op_call("relax.vm.call_tir_dyn", {callee, make<Tuple>(std::move(args))});
    } else {
      std::vector<Ref<StructInfo>> sinfo_args;
      if (callee.is<ExternFunc>()) sinfo_args.push_back(void_sinfo());
      invoke = make<Call>(callee, std::move(args), Attrs{}, std::move(sinfo_args));
    }
    invoke->span = call->span;
    pending.push_back(make<VarBinding>(make<Var>("_"), invoke));
    Ref<Expr> result = allocs.size() == 1 && !call->sinfo_args[0].is<TupleStructInfo>()
                           ? allocs[0]
                           : Ref<Expr>(make<Tuple>(allocs));
    Ref<Var> var = mutate_var_def(binding->var);
    auto rebound = make<VarBinding>(var, result);
    rebound->span = binding->span;
    pending.push_back(rebound);
    out.insert(out.end(), pending.begin(), pending.end());
  }

 private:
  NameSupply names_;
  DiagnosticBag& diags_;
};
}  // namespace

Pass call_tir_rewrite_pass() {
  Pass p;
  p.name = "CallTIRRewrite";
  p.doc =
      "Rewrites call_tir / call_dps_packed into builtin.alloc_tensor of each output and a plain "
      "call";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      CallTIRRewrite t(f, ctx.diagnostics());
      return t.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

// CallTIRRewrite: destination-passing calls become explicit allocations and plain calls.
//   y = R.call_tir(cls.f, (a, b), out_sinfo=T)            (also R.call_dps_packed("ext", ...))
// becomes
//   alloc = R.builtin.alloc_tensor(R.shape(T.shape), R.dtype(T.dtype), R.prim_value(0),
//   R.str("global")) _ = cls.f(a, b, alloc)
// (with tir_vars: `R.vm.call_tir_dyn(cls.f, (a, b, alloc, R.shape([tir_vars])))`)
//   y = alloc
// A tuple out_sinfo allocates each field and binds y to the tuple of allocations.
// R.call_tir_with_grad is a call_tir (its gradient attributes are for training passes).
// R.call_tir_inplace allocates only the outputs whose inplace_indices entry is -1; the others are
// the inputs they name, written in place, and y binds to them. Leaves alone: every other binding,
// outputs whose shape is not known as a list of dims (reported, E0770), prim_funcs and extern
// functions; a lowered module has no call_tir left and passes through unchanged.
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
    const std::string op = call ? call->op_name() : "";
    if (!binding.is<VarBinding>() || !call ||
        (op != "relax.call_tir" && op != "relax.call_dps_packed" &&
         op != "relax.call_tir_with_grad" && op != "relax.call_tir_inplace")) {
      ExprMutator::mutate_binding(binding, out);
      return;
    }
    // call_tir_inplace: output i is input inplace_indices[i] (written in place), or a new
    // tensor where the index is -1.
    std::vector<int64_t> inplace;
    if (op == "relax.call_tir_inplace") {
      if (auto list = call->attrs.find("inplace_indices").as<ArrayValue>()) {
        for (const auto& item : list->items) {
          if (auto i = item.as_ptr<IntValue>()) inplace.push_back(i->value);
          if (auto i = item.as_ptr<tir::IntImm>()) inplace.push_back(i->value);
        }
      }
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
    std::vector<Ref<Expr>> results(outs.size());  // set now for in-place outputs
    std::vector<Ref<Binding>> pending;
    // The callee's inputs.
    std::vector<Ref<Expr>> inputs_list;
    {
      Ref<Expr> inputs = mutate(call->args[1]);
      if (auto tup = inputs.as<Tuple>()) {
        inputs_list = tup->fields;
      } else if (auto ts = inputs->struct_info.as<TupleStructInfo>()) {
        for (size_t i = 0; i < ts->fields.size(); ++i)
          inputs_list.push_back(make<TupleGetItem>(inputs, static_cast<int>(i)));
      } else {
        inputs_list.push_back(inputs);
      }
    }
    for (size_t k = 0; k < outs.size(); ++k) {
      const auto& o = outs[k];
      if (k < inplace.size() && inplace[k] >= 0 &&
          static_cast<size_t>(inplace[k]) < inputs_list.size()) {
        results[k] = inputs_list[static_cast<size_t>(inplace[k])];
        continue;
      }
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
      results[k] = var;
    }
    // The callee and its inputs.
    Ref<Expr> callee = mutate(call->args[0]);
    if (auto s = callee.as<StringImm>()) callee = make<ExternFunc>(s->value);
    std::vector<Ref<Expr>> args = inputs_list;
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
    Ref<Expr> result = results.size() == 1 && !call->sinfo_args[0].is<TupleStructInfo>()
                           ? results[0]
                           : Ref<Expr>(make<Tuple>(results));
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

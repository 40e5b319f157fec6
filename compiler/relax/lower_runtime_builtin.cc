// LowerRuntimeBuiltin (TVM's VMBuiltinLower): memory and view ops become the VM's forms.
//   R.memory.alloc_storage(size, dev, scope, dtype) -> R.vm.alloc_storage(size, dev, dtype, scope)
//   R.memory.alloc_tensor(storage, offset, shape, dtype) -> R.vm.alloc_tensor(storage, offset,
//   shape, dtype) R.memory.kill_tensor(x), R.memory.kill_storage(s)  -> R.vm.kill_object(x)
//   R.reshape(x, shape)      -> R.call_packed("vm.builtin.reshape", x, shape, sinfo_args=...)
//   R.shape_of(x)            -> R.call_packed("vm.builtin.shape_of", x, sinfo_args=...)
//   R.tensor_to_shape(x)     -> R.call_packed("vm.builtin.tensor_to_shape", x, sinfo_args=...)
//   R.shape_to_tensor(s), R.memory.view(x, shape, dtype, offset), R.print, R.assert_op
//                            -> vm.builtin.shape_to_tensor / tensor_view / print / assert
//   R.grad.start/end_checkpoint(x), R.builtin.stop_lift_params(x), R.hint_on_device(x, d),
//   R.to_vdevice(x, d), R.memory.ensure_zero_offset(x)  -> x (one host device: no copy)
//   R.null_value()           stays (VM codegen reads it as the null register)
// A builtin.alloc_tensor that is still present is an internal error of the pipeline (E0772).
// Leaves alone: every other call (ops that LegalizeOps did not lower are reported by VM
// codegen), bindings that are not calls, and so an already lowered module (vm.* calls, packed
// calls of builtins) passes through unchanged.
#include "compiler/relax/kills.h"
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {
class Lower : public ExprMutator {
 public:
  explicit Lower(DiagnosticBag& diags) : diags_(diags) {}

  Ref<Expr> mutate_call(const Ref<Call>& c) override {
    auto call = ExprMutator::mutate_call(c).as<Call>();
    const std::string& op = call->op_name();
    auto packed = [&](const std::string& name) -> Ref<Expr> {
      std::vector<Ref<StructInfo>> sinfo;
      sinfo.push_back(c->struct_info ? c->struct_info : Ref<StructInfo>(make<ObjectStructInfo>()));
      auto n = make<Call>(make<ExternFunc>(name), call->args, Attrs{}, std::move(sinfo));
      n->span = call->span;
      return n;
    };
    auto with = [&](const std::string& name, std::vector<Ref<Expr>> args) -> Ref<Expr> {
      auto n = op_call(name, std::move(args));
      n->span = call->span;
      return n;
    };
    const auto& a = call->args;
    if (op == "relax.memory.alloc_storage" && a.size() == 4)
      return with("relax.vm.alloc_storage", {a[0], a[1], a[3], a[2]});
    if (op == "relax.memory.alloc_tensor" && a.size() == 4)
      return with("relax.vm.alloc_tensor", {a[0], a[1], a[2], a[3]});
    if ((op == "relax.memory.kill_tensor" || op == "relax.memory.kill_storage") && a.size() == 1)
      return with("relax.vm.kill_object", {a[0]});
    if (op == "relax.reshape") return packed("vm.builtin.reshape");
    if (op == "relax.shape_of") return packed("vm.builtin.shape_of");
    if (op == "relax.tensor_to_shape") return packed("vm.builtin.tensor_to_shape");
    if (op == "relax.shape_to_tensor") return packed("vm.builtin.shape_to_tensor");
    if (op == "relax.memory.view") return packed("vm.builtin.tensor_view");
    // (format, values...) and (condition, format, values...), as the builtins take them.
    if (op == "relax.print") return packed("vm.builtin.print");
    if (op == "relax.assert_op") return packed("vm.builtin.assert");
    // Markers for other passes (gradient checkpoints, parameter lifting) and device hints on a
    // single-device (host) build: the value itself.
    // They are aliases of their argument (kills.h): KillAfterLastUse, before this pass, already
    // treated `y = R.hint_on_device(x)` as `y = x`.
    if (is_identity_op(op) && !a.empty()) return a[0];
    if (op == "relax.builtin.alloc_tensor") {
      diags_.error("E0772", call->span,
                   "LowerRuntimeBuiltin: builtin.alloc_tensor is still present (LowerAllocTensor "
                   "must run first)");
    }
    return call;
  }

 private:
  DiagnosticBag& diags_;
};
}  // namespace

Pass lower_runtime_builtin_pass() {
  Pass p;
  p.name = "LowerRuntimeBuiltin";
  p.doc = "Lowers memory ops, kills, reshape and shape_of to the VM's builtins";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      Lower l(ctx.diagnostics());
      return l.mutate(f).as<Function>();
    });
  };
  return p;
}

void register_relax_passes() {
  static bool done = false;
  if (done) return;
  done = true;
  auto& r = PassRegistry::global();
  for (Pass p : {to_non_dataflow_pass(), call_tir_rewrite_pass(), dead_code_elimination_pass(),
                 canonicalize_bindings_pass(), static_plan_block_memory_pass(),
                 lower_alloc_tensor_pass(), kill_after_last_use_pass(),
                 lower_runtime_builtin_pass(), lambda_lift_pass(), remove_purity_checking_pass(),
                 annotate_tir_op_pattern_pass(), fold_constant_pass(), vm_shape_lower_pass()}) {
    r.add(std::move(p));
  }
  // TVM's name for this pass until it was renamed (it still accepts it, with a warning).
  r.add_alias("VMBuiltinLower", "LowerRuntimeBuiltin");
}

}  // namespace relax::compiler::relax_passes

// FoldConstant: evaluates at compile time the computations whose inputs are all constants and
// replaces them by constants. Folded: `R.call_tir(f, (c0, c1, ...), out_sinfo=...)` with constant
// arguments and a statically shaped result (the prim_func runs in the TIR interpreter,
// compiler/tir_eval), calls of ops whose tensor arguments are all constants (legalized on the
// fly, then evaluated: `R.permute_dims` of a bound weight), and fields of tuples of constants.
// Arguments are seen through variables bound to constants. Not folded: creation ops without a
// constant input (`R.zeros((4096, 4096))` would only grow the binary), results with more than
// `relax.FoldConstant.max_elements` elements (config; default 2^22), dtypes the interpreter does
// not evaluate (float16, bfloat16: kept as computations), calls with symbolic tir_vars. Bindings
// left unused are removed by DeadCodeElimination, which the pipeline runs next.
#include <unordered_map>

#include "compiler/legalize/legalize.h"
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "compiler/tir_eval/tir_eval.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

class Folder : public ExprMutator {
 public:
  Folder(const IRModule& module, int64_t max_elements)
      : module_(module), max_elements_(max_elements) {}

  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    if (!binding.is<VarBinding>()) {
      ExprMutator::mutate_binding(binding, out);
      return;
    }
    Ref<Expr> value = mutate(binding->value);
    if (Ref<Expr> folded = fold(value)) value = folded;
    if (value.is<Constant>() || value.is<Tuple>()) known_[binding->var.get()] = value;
    if (value.same_as(binding->value)) {
      out.push_back(binding);
      return;
    }
    auto n = make<VarBinding>(binding->var, value);
    n->span = binding->span;
    out.push_back(n);
  }

 private:
  // The constant an argument stands for (through variables bound to constants), or null.
  Ref<Constant> constant_of(const Ref<Expr>& e) const {
    if (auto c = e.as<Constant>()) return c;
    if (auto v = e.as_ptr<Var>()) {
      auto it = known_.find(v);
      if (it != known_.end()) return it->second.as<Constant>();
    }
    return nullptr;
  }

  Ref<Expr> fold(const Ref<Expr>& value) {
    if (auto item = value.as<TupleGetItem>()) return fold_tuple_item(*item);
    auto call = value.as<Call>();
    if (!call) return nullptr;
    if (call->op_name() == "relax.call_tir") return fold_call_tir(*call);
    if (call->op.is<Op>()) return fold_op_call(*call);
    return nullptr;
  }

  Ref<Expr> fold_tuple_item(const TupleGetItem& item) {
    Ref<Expr> tuple = item.tuple;
    if (auto v = tuple.as_ptr<Var>()) {
      auto it = known_.find(v);
      if (it == known_.end()) return nullptr;
      tuple = it->second;
    }
    auto t = tuple.as<Tuple>();
    if (!t || item.index < 0 || static_cast<size_t>(item.index) >= t->fields.size()) return nullptr;
    return constant_of(t->fields[static_cast<size_t>(item.index)]);
  }

  // An op call whose tensor arguments are all constants: legalized, then evaluated.
  Ref<Expr> fold_op_call(const Call& call) {
    bool any_constant = false;
    for (const auto& arg : call.args) {
      bool is_tensor = arg->struct_info && arg->struct_info.is<TensorStructInfo>();
      if (!is_tensor) continue;
      if (!constant_of(arg)) return nullptr;
      any_constant = true;
    }
    if (!any_constant || !legalize::has_legalization(call.op_name())) return nullptr;
    DiagnosticBag ignored;
    auto legal = legalize::legalize(call, ignored);
    if (!legal || !legal->tir_vars.empty()) return nullptr;
    return evaluate(*legal->func, legal->args, legal->out_sinfo);
  }

  Ref<Expr> fold_call_tir(const Call& call) {
    if (call.args.size() != 2 || call.sinfo_args.empty()) return nullptr;  // no tir_vars
    auto gv = call.args[0].as_ptr<GlobalVar>();
    if (!gv) return nullptr;
    auto func = as_prim_func(module_.lookup(gv->name));
    if (!func) return nullptr;
    std::vector<Ref<Expr>> args;
    if (auto tup = call.args[1].as<Tuple>())
      args = tup->fields;
    else
      args = {call.args[1]};
    return evaluate(*func, args, call.sinfo_args[0]);
  }

  // Runs `func` on constant `args` with outputs shaped by `out_sinfo` (a tensor or a tuple of
  // tensors, all static); the result as a constant or a tuple of constants.
  Ref<Expr> evaluate(const tir::PrimFunc& func, const std::vector<Ref<Expr>>& args,
                     const Ref<StructInfo>& out_sinfo) {
    std::vector<Ref<StructInfo>> outs;
    bool tuple = false;
    if (auto t = out_sinfo.as<TupleStructInfo>()) {
      outs = t->fields;
      tuple = true;
    } else {
      outs = {out_sinfo};
    }
    std::vector<tir_eval::HostArray> inputs, outputs;
    int64_t total = 0;
    try {
      for (const auto& arg : args) {
        auto c = constant_of(arg);
        if (!c || !c->data) return nullptr;
        inputs.push_back(tir_eval::from_tensor_data(*c->data));
      }
      for (const auto& o : outs) {
        auto t = o.as<TensorStructInfo>();
        auto dims = known_dims(o);
        if (!t || !dims || t->is_unknown_dtype()) return nullptr;
        // Counted (overflow-checked) before anything is allocated: a huge output is left alone.
        auto elements = static_elements(*dims);
        if (!elements || *elements > max_elements_ - total) return nullptr;
        total += *elements;
        std::vector<int64_t> shape;
        for (const auto& d : *dims) shape.push_back(d.as_ptr<tir::IntImm>()->value);
        outputs.emplace_back(t->dtype, shape);
      }
      if (func.params.size() != inputs.size() + outputs.size()) return nullptr;
      std::vector<tir_eval::Arg> call_args;
      for (auto& a : inputs) call_args.emplace_back(&a);
      for (auto& a : outputs) call_args.emplace_back(&a);
      tir_eval::run(func, call_args);
      std::vector<Ref<Expr>> results;
      for (const auto& a : outputs) {
        results.push_back(
            make<Constant>(std::make_shared<const TensorData>(tir_eval::to_tensor_data(a))));
      }
      if (!tuple) return results[0];
      return make<Tuple>(std::move(results));
    } catch (const tir_eval::EvalError&) {
      return nullptr;  // a dtype or construct the interpreter does not evaluate: keep the call
    }
  }

  const IRModule& module_;
  int64_t max_elements_;
  std::unordered_map<const Var*, Ref<Expr>> known_;
};

}  // namespace

Pass fold_constant_pass() {
  Pass p;
  p.name = "FoldConstant";
  p.doc = "Evaluates call_tir and op calls whose inputs are all constants, at compile time";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    int64_t max_elements = int64_t{1} << 22;
    if (auto it = ctx.config.find("relax.FoldConstant.max_elements"); it != ctx.config.end()) {
      try {
        max_elements = std::stoll(it->second);
      } catch (...) {
        ctx.diagnostics().warning("W0775", {},
                                  "relax.FoldConstant.max_elements is not an integer: `" +
                                      it->second + "`; using the default");
      }
    }
    const IRModule& module = *m;
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      Folder folder(module, max_elements);
      return folder.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

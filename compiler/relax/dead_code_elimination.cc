// DeadCodeElimination: removes bindings whose variable is never used and whose value has no
// side effect (a var, constant, tuple, tuple item, shape, prim value, function, or a call of a
// pure op), repeating until nothing changes, and removes private Relax functions that no public
// function reaches. Leaves alone: match_cast bindings (they are run-time checks), calls of
// module functions, extern functions and impure ops (which may have effects), the function's
// result, public functions, prim_funcs that something calls (a Relax function or a reached
// prim_func). On a lowered module: kills, packed calls and kernel calls (destination-passing) are
// effects and stay, and a kill is a use, so the allocation it kills stays with it.
#include <unordered_set>

#include "analysis/ops/op_registry.h"
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "compiler/tir/util.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

bool has_no_effect(const Ref<Expr>& value) {
  if (!value) return true;
  if (auto call = value.as_ptr<Call>()) {
    auto op = call->op.as_ptr<Op>();
    if (!op) return false;
    const analysis::OpInfo* info = analysis::OpRegistry::global().find(op->name);
    return info && info->pure;
  }
  return !value.is<If>() && !value.is<SeqExpr>();
}

class RemoveDead : public ExprMutator {
 public:
  explicit RemoveDead(const std::unordered_set<const Var*>& used) : used_(used) {}
  bool changed = false;
  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    if (binding.is<VarBinding>() && !used_.count(binding->var.get()) &&
        has_no_effect(binding->value)) {
      changed = true;
      return;
    }
    ExprMutator::mutate_binding(binding, out);
  }

 private:
  const std::unordered_set<const Var*>& used_;
};

Ref<Function> eliminate(Ref<Function> f) {
  for (;;) {
    std::vector<const Var*> uses;
    collect_used_vars(f->body, uses);
    std::unordered_set<const Var*> used(uses.begin(), uses.end());
    RemoveDead r(used);
    auto g = r.mutate(f).as<Function>();
    if (!r.changed) return g;
    f = g;
  }
}

class GlobalRefs : public ExprVisitor {
 public:
  std::vector<std::string> names;
  void visit_global_var(const Ref<GlobalVar>& g) override { names.push_back(g->name); }
};

}  // namespace

Pass dead_code_elimination_pass() {
  Pass p;
  p.name = "DeadCodeElimination";
  p.doc =
      "Removes unused side-effect-free bindings and private functions no public function reaches";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    auto out = map_relax_functions(m, ctx, [](const Ref<Function>& f) { return eliminate(f); });
    // Reachability from the public functions, Relax functions and prim_funcs alike, as TVM's
    // entry functions are every function with a global_symbol (every function is kept when
    // none is public).
    std::unordered_set<std::string> reached;
    std::vector<std::string> work;
    for (const auto& mem : out->functions) {
      if (auto f = as_relax_function(mem.func)) {
        if (f->attrs.contains("global_symbol")) work.push_back(mem.gvar->name);
      } else if (auto pf = as_prim_func(mem.func)) {
        if (pf->attrs.contains("global_symbol")) work.push_back(mem.gvar->name);
      }
    }
    if (work.empty()) return out;
    while (!work.empty()) {
      std::string name = work.back();
      work.pop_back();
      if (!reached.insert(name).second) continue;
      if (auto f = as_relax_function(out->lookup(name))) {
        GlobalRefs refs;
        refs.visit(f);
        work.insert(work.end(), refs.names.begin(), refs.names.end());
      } else if (auto pf = as_prim_func(out->lookup(name))) {
        // prim_funcs may call other prim_funcs of the module (`Module.f(A.data)`).
        auto callees = compiler::tir::called_functions(pf->body);
        work.insert(work.end(), callees.begin(), callees.end());
      }
    }
    // Relax functions and prim_funcs nothing reaches are dropped; extern functions are kept.
    std::vector<IRModule::Member> final_members;
    for (const auto& mem : out->functions) {
      bool droppable = as_relax_function(mem.func) || as_prim_func(mem.func);
      if (droppable && !reached.count(mem.gvar->name)) continue;
      final_members.push_back(mem);
    }
    out->functions = std::move(final_members);
    return out;
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

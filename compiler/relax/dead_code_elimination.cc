// DeadCodeElimination: removes bindings whose variable is never used and whose value has no
// side effect (a var, constant, tuple, tuple item, shape, prim value, function, or a call of a
// pure op), repeating until nothing changes, and removes private Relax functions that no public
// function reaches. Leaves alone: match_cast bindings (they are run-time checks), calls of
// module functions, extern functions and impure ops (which may have effects), the function's
// result, public functions, prim_funcs that something calls (a Relax function or a reached
// prim_func). On a lowered module: kills, packed calls and kernel calls (destination-passing) are
// effects and stay, and a kill is a use, so the allocation it kills stays with it.
#include <unordered_map>
#include <unordered_set>
#include <vector>

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

// The bindings of a function (nested ones too, each with the binding it is nested in), and the
// number of uses of each variable.
class Census : public ExprVisitor {
 public:
  struct Site {
    const Binding* binding;
    int parent;  // the site whose value holds this binding, or -1
  };
  std::vector<Site> sites;
  std::unordered_map<const Binding*, int> site_of;
  std::unordered_map<const Var*, std::vector<int>> defs;  // one site unless malformed
  std::unordered_map<const Var*, int64_t> uses;

  void visit_binding(const Ref<Binding>& binding) override {
    int me = static_cast<int>(sites.size());
    sites.push_back({binding.get(), current_});
    site_of.emplace(binding.get(), me);
    defs[binding->var.get()].push_back(me);
    int saved = current_;
    current_ = me;
    ExprVisitor::visit_binding(binding);
    current_ = saved;
  }
  void visit_var(const Ref<Var>& var) override { ++uses[var.get()]; }

 private:
  int current_ = -1;
};

// Takes back the uses inside a removed binding's value, skipping bindings removed before (their
// uses were taken back then), and reports the variables left without a use.
class Uncount : public ExprVisitor {
 public:
  Uncount(Census& census, const std::vector<char>& removed, std::vector<const Var*>& unused)
      : census_(census), removed_(removed), unused_(unused) {}
  void visit_binding(const Ref<Binding>& binding) override {
    auto it = census_.site_of.find(binding.get());
    if (it != census_.site_of.end() && removed_[static_cast<size_t>(it->second)]) return;
    ExprVisitor::visit_binding(binding);
  }
  void visit_var(const Ref<Var>& var) override {
    if (--census_.uses[var.get()] == 0) unused_.push_back(var.get());
  }

 private:
  Census& census_;
  const std::vector<char>& removed_;
  std::vector<const Var*>& unused_;
};

class RemoveDead : public ExprMutator {
 public:
  explicit RemoveDead(const std::unordered_set<const Binding*>& dead) : dead_(dead) {}
  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    if (dead_.count(binding.get())) return;
    ExprMutator::mutate_binding(binding, out);
  }

 private:
  const std::unordered_set<const Binding*>& dead_;
};

// Removes the bindings without effect whose variable has no use, then those whose uses were all
// in removed bindings, and so on: the fixed point of removing unused bindings one round at a
// time, reached by counting uses (a dead chain of n bindings costs n steps, not n rounds).
Ref<Function> eliminate(const Ref<Function>& f) {
  Census census;
  census.visit(f->body);
  const auto& sites = census.sites;
  auto removable = [&](int s) {
    const Binding* b = sites[static_cast<size_t>(s)].binding;
    return VarBinding::classof(b) && has_no_effect(b->value);
  };
  std::vector<int> work;
  for (int s = 0; s < static_cast<int>(sites.size()); ++s) {
    auto it = census.uses.find(sites[static_cast<size_t>(s)].binding->var.get());
    if ((it == census.uses.end() || it->second == 0) && removable(s)) work.push_back(s);
  }
  std::vector<char> removed(sites.size(), 0);
  std::unordered_set<const Binding*> dead;
  std::vector<const Var*> unused;
  while (!work.empty()) {
    int s = work.back();
    work.pop_back();
    bool gone = removed[static_cast<size_t>(s)];
    // Inside a removed binding: already gone with it.
    for (int p = sites[static_cast<size_t>(s)].parent; p >= 0 && !gone;
         p = sites[static_cast<size_t>(p)].parent)
      gone = removed[static_cast<size_t>(p)];
    if (gone) continue;
    removed[static_cast<size_t>(s)] = 1;
    dead.insert(sites[static_cast<size_t>(s)].binding);
    unused.clear();
    Uncount(census, removed, unused).visit(sites[static_cast<size_t>(s)].binding->value);
    for (const Var* v : unused) {
      for (int d : census.defs[v])
        if (!removed[static_cast<size_t>(d)] && removable(d)) work.push_back(d);
    }
  }
  if (dead.empty()) return f;
  RemoveDead r(dead);
  return r.mutate(f).as<Function>();
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

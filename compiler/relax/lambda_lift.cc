// LambdaLift: every function defined inside another (`@R.function def f(...)` in a body) becomes
// a private module function named `<outer>_<f>`. Without free variables, uses of the local name
// read the module function directly (calls become ordinary calls). With free variables, the
// lifted function takes them as extra parameters after its own, the binding becomes
// `f = R.make_closure(cls.outer_f, (free...))`, and each call `f(args)` becomes
// `R.invoke_pure_closure(f, (args...), sinfo_args=(result,))` (R.invoke_closure when the local
// function is impure; the VM appends the captured values).
// A recursive local function (how loops are written in Relax) calls the lifted module function
// directly, passing its captured values along. Functions nested deeper are lifted too. Leaves
// alone: module-level functions that contain no local function, prim_funcs, extern functions; a
// local function that uses its own name other than to call itself is reported (E0774). A lowered
// module has no local functions left (its make_closure calls stay) and passes through unchanged.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "analysis/arith/substitute.h"
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

class DefCollector : public ExprVisitor {
 public:
  std::unordered_set<const Var*> defined;
  void visit_var_def(const Ref<Var>& v) override { defined.insert(v.get()); }
};

class FreeVarCollector : public ExprVisitor {
 public:
  std::vector<Ref<Var>> used;  // in order of first use
  void visit_var(const Ref<Var>& v) override {
    if (seen_.insert(v.get()).second) used.push_back(v);
  }

 private:
  std::unordered_set<const Var*> seen_;
};

class Remap : public ExprMutator {
 public:
  void set(const Var* from, Ref<Expr> to) { var_remap_[from] = std::move(to); }
};

// Inside a lifted recursive function: `f(args)` becomes `cls.outer_f(args..., captured...)`.
class SelfCalls : public ExprMutator {
 public:
  SelfCalls(const Var* self, Ref<GlobalVar> gvar, std::vector<Ref<Expr>> extra)
      : self_(self), gvar_(std::move(gvar)), extra_(std::move(extra)) {}
  bool used_as_value = false;

  Ref<Expr> mutate_call(const Ref<Call>& call) override {
    if (call->op.get() != self_) return ExprMutator::mutate_call(call);
    std::vector<Ref<Expr>> args;
    for (const auto& a : call->args) args.push_back(mutate(a));
    args.insert(args.end(), extra_.begin(), extra_.end());
    auto n = make<Call>(gvar_, std::move(args), call->attrs, call->sinfo_args);
    n->span = call->span;
    return n;
  }
  Ref<Expr> mutate_var(const Ref<Var>& var) override {
    if (var.get() == self_) used_as_value = true;
    return ExprMutator::mutate_var(var);
  }

 private:
  const Var* self_;
  Ref<GlobalVar> gvar_;
  std::vector<Ref<Expr>> extra_;
};

// Gives a lifted function symbolic variables of its own (TVM's CopyWithNewVars): written inside
// another function it used that function's, and two functions may not share a symbolic
// variable. Every variable is replaced by a fresh one of the same name and type, in struct
// info, shapes and prim values (call attributes are left, as TVM leaves them).
class RenewSymbolicVars : public ExprMutator {
 public:
  Ref<PrimExpr> mutate_prim_expr(const Ref<PrimExpr>& e) override {
    if (!e) return e;
    return analysis::arith::substitute(e, [this](const Ref<tir::Var>& v) -> Ref<PrimExpr> {
      auto [it, inserted] = fresh_.try_emplace(v.get());
      if (inserted) it->second = copy(v);
      return it->second;
    });
  }
  Ref<StructInfo> mutate_struct_info(const Ref<StructInfo>& s) override {
    return mutate_struct_info_values(s);
  }

 private:
  std::unordered_map<const tir::Var*, Ref<tir::Var>> fresh_;
};

class Lifter : public ExprMutator {
 public:
  Lifter(std::string outer, IRModule& module, DiagnosticBag& diags)
      : outer_(std::move(outer)), module_(module), diags_(diags) {}

  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    auto fn = binding->value.as<Function>();
    if (!fn || !binding.is<VarBinding>()) {
      // Calls of a lifted closure.
      if (auto call = binding->value.as<Call>(); call && binding.is<VarBinding>()) {
        if (auto callee = call->op.as<Var>(); callee && closures_.count(callee.get())) {
          std::vector<Ref<Expr>> args;
          for (const auto& a : call->args) args.push_back(mutate(a));
          Ref<StructInfo> ret =
              binding->var->struct_info ? binding->var->struct_info : call->struct_info;
          const char* invoke =
              closures_.at(callee.get()) ? "relax.invoke_pure_closure" : "relax.invoke_closure";
          auto n = op_call(invoke, {mutate(callee), make<Tuple>(args)}, {ret});
          n->span = call->span;
          auto b = make<VarBinding>(mutate_var_def(binding->var), n);
          b->span = binding->span;
          out.push_back(b);
          return;
        }
      }
      ExprMutator::mutate_binding(binding, out);
      return;
    }
    // Free variables: used inside, defined neither inside nor as a module name.
    DefCollector defs;
    defs.visit(fn);
    FreeVarCollector uses;
    uses.visit(fn);
    std::vector<Ref<Var>> free;
    for (const auto& v : uses.used) {
      if (!defs.defined.count(v.get())) free.push_back(v);
    }
    // A recursive local function (a loop: `while_loop` calling itself in a branch) refers to
    // itself by its binding's name: not a capture.
    bool recursive = false;
    if (auto self = std::find(free.begin(), free.end(), binding->var); self != free.end()) {
      recursive = true;
      free.erase(self);
    }
    std::string name = outer_ + "_" + binding->var->name;
    for (int i = 1; module_.find(name); ++i)
      name = outer_ + "_" + binding->var->name + std::to_string(i);
    auto gvar = make<GlobalVar>(name);
    // The lifted function: own parameters, then the free variables as fresh parameters.
    Remap remap;
    auto lifted = copy(fn);
    lifted->attrs = fn->attrs;
    std::vector<Ref<Var>> params = fn->params;
    std::vector<Ref<Expr>> extra;  // the captured values, as the lifted function sees them
    for (const auto& v : free) {
      auto p = make<Var>(v->name, v->struct_info);
      remap.set(v.get(), p);
      params.push_back(p);
      extra.push_back(p);
    }
    lifted->params = params;
    Ref<SeqExpr> body = remap.mutate(fn->body).as<SeqExpr>();
    if (recursive) {
      // Calls of itself call the module function, passing the captured values along.
      SelfCalls self(binding->var.get(), gvar, extra);
      body = self.mutate(body).as<SeqExpr>();
      if (self.used_as_value) {
        diags_.error("E0774", fn->span,
                     "LambdaLift: the local function `" + binding->var->name +
                         "` refers to itself other than by calling itself; only recursive calls "
                         "are supported (make it a module function)");
        ExprMutator::mutate_binding(binding, out);
        return;
      }
    }
    lifted->body = body;
    lifted->struct_info = nullptr;
    lifted = RenewSymbolicVars().mutate(lifted).as<Function>();
    // Deeper local functions are lifted by the module-level loop (the new function is visited
    // again as a module member).
    module_.add(gvar, lifted);
    if (free.empty()) {
      var_remap_[binding->var.get()] = gvar;
      return;
    }
    std::vector<Ref<Expr>> captured;
    for (const auto& v : free) captured.push_back(mutate(v));
    closures_[binding->var.get()] = fn->is_pure;
    auto var = make<Var>(binding->var->name);
    var_remap_[binding->var.get()] = var;
    auto n = make<VarBinding>(var, op_call("relax.make_closure", {gvar, make<Tuple>(captured)}));
    n->span = binding->span;
    out.push_back(n);
  }

  bool changed() const { return !closures_.empty() || !var_remap_.empty(); }

 private:
  std::string outer_;
  IRModule& module_;
  DiagnosticBag& diags_;
  std::unordered_map<const Var*, bool> closures_;  // closure variable -> the function is pure
};

bool has_local_function(const Ref<Function>& f) {
  struct Finder : ExprVisitor {
    bool found = false;
    void visit_function(const Ref<Function>& fn) override {
      if (depth++ > 0) found = true;
      ExprVisitor::visit_function(fn);
    }
    int depth = 0;
  } finder;
  finder.visit(f);
  return finder.found;
}

}  // namespace

Pass lambda_lift_pass() {
  Pass p;
  p.name = "LambdaLift";
  p.doc =
      "Lifts local functions to private module functions (closures capture their free variables)";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    auto out = make<IRModule>();
    out->name = m->name;
    out->attrs = m->attrs;
    out->global_infos = m->global_infos;
    out->functions = m->functions;
    // Each round lifts the outermost local functions; lifted ones are members, visited next round.
    for (bool again = true; again;) {
      again = false;
      auto members = out->functions;
      for (const auto& mem : members) {
        auto f = as_relax_function(mem.func);
        if (!f || !has_local_function(f)) continue;
        Lifter lifter(mem.gvar->name, *out, ctx.diagnostics());
        auto g = lifter.mutate_function(f).as<Function>();
        if (!lifter.changed()) continue;
        out->add(mem.gvar, g);
        again = true;
      }
    }
    // Normalize from scratch (the lifted functions' global vars get their struct info).
    return map_relax_functions(out, ctx, [](const Ref<Function>& f) { return f; });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

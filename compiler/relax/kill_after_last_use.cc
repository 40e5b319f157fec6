// KillAfterLastUse: after the binding that uses a tensor or a storage block for the last time,
// inserts `_ = R.memory.kill_tensor(x)` (or `R.memory.kill_storage(s)`), so that the VM drops
// its reference as early as possible. A value and its aliases (kills.h: `y = x`, a field of a
// tuple literal, identity ops) are one: the kill names the variable that defines the value and
// follows the last use of any of its aliases, and a value whose alias is returned is not killed.
// Each sequence (function body, if branch) handles the values it defines; a use anywhere inside
// a later binding (a branch of an if included) counts as a use at that binding.
// Leaves alone: parameters and their aliases (the caller owns them), values the sequence returns,
// values that are not tensors or storage (shapes, tuples, scalars), every existing binding, and
// values the function already kills anywhere (an input lowered before: running the pass again
// adds no second kill, and an existing kill is not a use).
#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "compiler/relax/kills.h"
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

bool is_storage_binding(const Ref<Binding>& b) {
  return is_op_call(b->value, "relax.memory.alloc_storage") ||
         is_op_call(b->value, "relax.vm.alloc_storage");
}

class Killer : public ExprMutator {
 public:
  explicit Killer(const Ref<Function>& f) : roots_(f) {
    // Values the function kills already (any alias, any branch).
    struct Existing : ExprVisitor {
      const AliasRoots& roots;
      std::unordered_set<const Var*>& killed;
      Existing(const AliasRoots& r, std::unordered_set<const Var*>& k) : roots(r), killed(k) {}
      void visit_binding(const Ref<Binding>& b) override {
        if (const Var* t = kill_target(b->value)) killed.insert(roots.root(t));
        ExprVisitor::visit_binding(b);
      }
    } existing(roots_, killed_);
    existing.visit(f);
  }

  Ref<Expr> mutate_seq_expr(const Ref<SeqExpr>& seq) override {
    // Nested sequences first (branches), then this one.
    auto s = ExprMutator::mutate_seq_expr(seq).as<SeqExpr>();
    std::vector<const Var*> body_uses;
    collect_used_vars(s->body, body_uses);
    std::unordered_set<const Var*> returned;
    for (const Var* v : body_uses) returned.insert(roots_.root(v));
    // Last binding (block, index) that uses each value (through any alias).
    std::unordered_map<const Var*, std::pair<size_t, size_t>> last;
    std::unordered_map<const Var*, Ref<Var>> defined;
    std::unordered_map<const Var*, bool> storage;
    for (size_t bi = 0; bi < s->blocks.size(); ++bi) {
      const auto& bs = s->blocks[bi]->bindings;
      for (size_t i = 0; i < bs.size(); ++i) {
        if (kill_target(bs[i]->value)) continue;
        std::vector<const Var*> uses;
        collect_used_vars(bs[i]->value, uses);
        for (const Var* v : uses) last[roots_.root(v)] = {bi, i};
        const Ref<Var>& var = bs[i]->var;
        bool is_storage = is_storage_binding(bs[i]);
        if (roots_.root(var.get()) != var.get() || killed_.count(var.get())) continue;
        if (is_storage || var->struct_info.is<TensorStructInfo>()) {
          defined[var.get()] = var;
          storage[var.get()] = is_storage;
          if (!last.count(var.get())) last[var.get()] = {bi, i};
        }
      }
    }
    std::map<std::pair<size_t, size_t>, std::vector<const Var*>> kills;
    for (const auto& entry : defined) {
      if (returned.count(entry.first)) continue;
      kills[last[entry.first]].push_back(entry.first);
    }
    if (kills.empty()) return s;
    // Each binding's position in the sequence, to kill in definition order.
    std::unordered_map<const Var*, size_t> order;
    for (const auto& b : s->blocks) {
      for (const auto& binding : b->bindings) order.emplace(binding->var.get(), order.size());
    }
    std::vector<Ref<BindingBlock>> blocks;
    for (size_t bi = 0; bi < s->blocks.size(); ++bi) {
      std::vector<Ref<Binding>> out;
      const auto& bs = s->blocks[bi]->bindings;
      for (size_t i = 0; i < bs.size(); ++i) {
        out.push_back(bs[i]);
        auto it = kills.find({bi, i});
        if (it == kills.end()) continue;
        // Killing in definition order keeps the output stable.
        std::vector<const Var*> vs = it->second;
        std::sort(vs.begin(), vs.end(),
                  [&](const Var* a, const Var* b) { return order.at(a) < order.at(b); });
        for (const Var* v : vs) {
          auto kill = op_call(storage[v] ? "relax.memory.kill_storage" : "relax.memory.kill_tensor",
                              {defined[v]});
          out.push_back(make<VarBinding>(make<Var>("_"), kill));
        }
      }
      blocks.push_back(make<BindingBlock>(std::move(out), s->blocks[bi]->is_dataflow));
    }
    auto n = make<SeqExpr>(std::move(blocks), s->body);
    n->span = s->span;
    return n;
  }

 private:
  AliasRoots roots_;
  std::unordered_set<const Var*> killed_;
};

}  // namespace

Pass kill_after_last_use_pass() {
  Pass p;
  p.name = "KillAfterLastUse";
  p.doc = "Inserts memory.kill_tensor / kill_storage after the last use of each tensor and storage";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [](const Ref<Function>& f) {
      Killer k(f);
      return k.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

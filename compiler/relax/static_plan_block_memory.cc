// StaticPlanBlockMemory: within one binding block, tensors allocated by builtin.alloc_tensor
// with a static shape whose every use is in that same block, as an argument of a prim_func call
// or as the value of an alias binding (`y = alloc`), get their memory from a storage block:
//   storage = R.memory.alloc_storage(R.shape([nbytes]), R.prim_value(0), R.str("global"),
//   R.dtype(t)) alloc = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape(dims), R.dtype(t))
// A storage is reused by a later allocation of the same byte size once every tensor placed in
// it is dead: the binding holding its last use (its own or an alias's) has been passed. Blocks
// are planned independently, so storage allocated inside an if branch is used only there and
// a tensor live across a branch is never planned.
// Leaves alone (for LowerAllocTensor): tensors with symbolic shapes, tensors the function
// returns, tensors used in another block, inside an if, a nested function, a tuple, or by any
// call other than a prim_func call; every other binding.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

bool is_prim_func_call(const Ref<Expr>& value, const IRModule& module) {
  auto call = value.as_ptr<Call>();
  if (!call) return false;
  auto g = call->op.as_ptr<GlobalVar>();
  return g && as_prim_func(module.lookup(g->name));
}

class Planner : public ExprMutator {
 public:
  Planner(const Ref<Function>& f, const IRModule& module) : names_(f), module_(module) {
    std::vector<const Var*> uses;
    collect_used_vars(f->body, uses);
    for (const Var* v : uses) ++total_uses_[v];
  }

  Ref<BindingBlock> mutate_binding_block(const Ref<BindingBlock>& block) override {
    Ref<BindingBlock> b = ExprMutator::mutate_binding_block(block);  // nested blocks first
    const auto& bs = b->bindings;
    // Direct uses in this block: binding index of each use as a prim_func argument or alias.
    std::unordered_map<const Var*, std::vector<size_t>> direct;
    std::unordered_map<const Var*, const Var*> alias_of;  // y -> x for `y = x`
    for (size_t i = 0; i < bs.size(); ++i) {
      const auto& value = bs[i]->value;
      if (auto v = value.as_ptr<Var>(); v && bs[i].is<VarBinding>()) {
        direct[v].push_back(i);
        alias_of[bs[i]->var.get()] = v;
      } else if (is_prim_func_call(value, module_)) {
        for (const auto& a : value.as_ptr<Call>()->args) {
          if (auto v = a.as_ptr<Var>()) direct[v].push_back(i);
        }
      }
    }
    auto all_direct = [&](const Var* v) {
      auto it = direct.find(v);
      size_t n = it == direct.end() ? 0 : it->second.size();
      auto t = total_uses_.find(v);
      return n == (t == total_uses_.end() ? 0 : t->second);
    };
    // Tokens: an allocation and its aliases; plannable when every member's uses are direct.
    struct Token {
      int64_t nbytes;
      size_t last_use;
      bool plannable = true;
    };
    std::unordered_map<const Var*, const Var*> root;  // var -> allocation var
    std::unordered_map<const Var*, Token> tokens;
    for (size_t i = 0; i < bs.size(); ++i) {
      const Var* var = bs[i]->var.get();
      if (bs[i].is<VarBinding>() && is_op_call(bs[i]->value, "relax.builtin.alloc_tensor")) {
        auto call = bs[i]->value.as_ptr<Call>();
        auto shape = call->args[0].as_ptr<ShapeExpr>();
        auto dt = call->args[1].as_ptr<DataTypeImm>();
        std::optional<int64_t> n = shape ? static_elements(shape->values) : std::nullopt;
        if (!n || !dt) continue;
        root[var] = var;
        tokens[var] = Token{*n * element_bytes(dt->value), i, true};
      } else if (auto it = alias_of.find(var); it != alias_of.end() && root.count(it->second)) {
        root[var] = root[it->second];
      }
    }
    for (const auto& [v, r] : root) {
      Token& t = tokens[r];
      if (!all_direct(v)) t.plannable = false;
      if (auto it = direct.find(v); it != direct.end()) {
        for (size_t i : it->second) t.last_use = std::max(t.last_use, i);
      }
    }
    bool any = false;
    for (const auto& [v, t] : tokens) any |= t.plannable;
    if (!any) return b;

    // Walk the block: place planned allocations, free storage after last uses.
    struct Storage {
      Ref<Var> var;
      int64_t nbytes = 0;
    };
    std::vector<Storage> free_list;
    std::unordered_map<size_t, std::vector<Storage>> release_after;
    std::vector<Ref<Binding>> out;
    for (size_t i = 0; i < bs.size(); ++i) {
      const Var* var = bs[i]->var.get();
      auto tok = tokens.find(var);
      if (tok != tokens.end() && tok->second.plannable) {
        auto call = bs[i]->value.as<Call>();
        Storage storage;
        auto reuse = std::find_if(free_list.begin(), free_list.end(),
                                  [&](const Storage& s) { return s.nbytes == tok->second.nbytes; });
        if (reuse != free_list.end()) {
          storage = *reuse;
          free_list.erase(reuse);
        } else {
          storage = {make<Var>(names_.fresh("storage")), tok->second.nbytes};
          auto alloc =
              op_call("relax.memory.alloc_storage",
                      {make<ShapeExpr>(std::vector<Ref<tir::PrimExpr>>{tir::int64(storage.nbytes)}),
                       make<PrimValue>(tir::int64(0)), make<StringImm>("global"), call->args[1]});
          out.push_back(make<VarBinding>(storage.var, alloc));
        }
        auto tensor =
            op_call("relax.memory.alloc_tensor",
                    {storage.var, make<PrimValue>(tir::int64(0)), call->args[0], call->args[1]});
        tensor->span = call->span;
        auto nb = make<VarBinding>(bs[i]->var, tensor);
        nb->span = bs[i]->span;
        out.push_back(nb);
        release_after[tok->second.last_use].push_back(storage);
      } else {
        out.push_back(bs[i]);
      }
      if (auto it = release_after.find(i); it != release_after.end()) {
        free_list.insert(free_list.end(), it->second.begin(), it->second.end());
      }
    }
    auto n = make<BindingBlock>(std::move(out), b->is_dataflow);
    n->span = b->span;
    return n;
  }

 private:
  NameSupply names_;
  const IRModule& module_;
  std::unordered_map<const Var*, size_t> total_uses_;
};

}  // namespace

Pass static_plan_block_memory_pass() {
  Pass p;
  p.name = "StaticPlanBlockMemory";
  p.opt_level = 0;
  p.doc = "Places static-shape tensors local to a block in reusable storage blocks";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      Planner planner(f, *m);
      return planner.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

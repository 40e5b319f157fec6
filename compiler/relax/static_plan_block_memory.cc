// StaticPlanBlockMemory: within one binding block, tensors allocated by builtin.alloc_tensor
// whose every use is in that same block, as an argument of a prim_func call (directly or
// through R.vm.call_tir_dyn) or as the value of
// an alias binding (`y = alloc`, or `y = R.reshape(alloc, shape)`: a view), get their memory from a
// storage block:
//   storage = R.memory.alloc_storage(R.shape([nbytes]), R.prim_value(0), R.str("global"),
//   R.dtype(t)) alloc = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape(dims), R.dtype(t))
// A storage is free again once every tensor placed in it is dead: the binding holding its last
// use (its own or an alias's) has been passed. A later allocation takes a free storage:
//  - static sizes: the smallest free static storage that is large enough, else the largest one,
//    which grows (storage is allocated once, before its first tensor, with the largest size any
//    of its tensors needs; TVM's 1-D token allocator does the same);
//  - symbolic sizes (`n * 2048` bytes): a free storage whose size is provably equal. With the
//    function attribute `tir_var_upper_bound` ({"n": 1024}), a symbolic size whose variables
//    all have bounds is planned as a static size, its largest value.
// Blocks are planned independently, so storage allocated inside an if branch is used only there
// and a tensor live across a branch is never planned.
// Leaves alone (for LowerAllocTensor): tensors the function returns, tensors used in another
// block, inside an if, a nested function, a tuple, or by any call other than a prim_func call
// (a kill included: a tensor that is already killed keeps its own allocation); every other
// binding. Only `R.builtin.alloc_tensor` is planned, so on an input planned or lowered before
// (memory.alloc_storage / memory.alloc_tensor, vm.alloc_*) those allocations stay as they are.
#include <algorithm>
#include <iterator>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "analysis/arith/analyzer.h"
#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/tir_visitor.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

bool is_prim_func(const Ref<Expr>& callee, const IRModule& module) {
  auto g = callee.as_ptr<GlobalVar>();
  return g && as_prim_func(module.lookup(g->name));
}

// The tensor arguments of a call of a prim_func, directly (`cls.f(a, b, out)`) or through
// `R.vm.call_tir_dyn(cls.f, (a, b, out, R.shape([n])))`; null when `value` is neither.
const std::vector<Ref<Expr>>* prim_func_call_args(const Ref<Expr>& value, const IRModule& module) {
  auto call = value.as_ptr<Call>();
  if (!call) return nullptr;
  if (is_prim_func(call->op, module)) return &call->args;
  if (is_op_call(value, "relax.vm.call_tir_dyn") && call->args.size() == 2 &&
      is_prim_func(call->args[0], module)) {
    if (auto tuple = call->args[1].as_ptr<Tuple>()) return &tuple->fields;
  }
  return nullptr;
}

// x for `R.reshape(x, shape)` with x a variable, else null.
const Var* reshape_source(const Ref<Expr>& value) {
  if (!is_op_call(value, "relax.reshape")) return nullptr;
  return value.as_ptr<Call>()->args[0].as_ptr<Var>();
}

class Planner : public ExprMutator {
 public:
  Planner(const Ref<Function>& f, const IRModule& module) : names_(f), module_(module) {
    std::vector<const Var*> uses;
    collect_used_vars(f->body, uses);
    for (const Var* v : uses) ++total_uses_[v];
    if (auto bounds = f->attrs.find("tir_var_upper_bound").as<MapValue>()) {
      for (const auto& [key, value] : bounds->entries) {
        auto name = key.as<StringValue>();
        std::optional<int64_t> bound;
        if (auto i = value.as_ptr<IntValue>()) bound = i->value;
        if (auto i = value.as_ptr<tir::IntImm>()) bound = i->value;
        if (name && bound) upper_bounds_[name->value] = *bound;
      }
    }
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
      } else if (auto src = reshape_source(value); src && bs[i].is<VarBinding>()) {
        // R.reshape is a view of its input's memory (LowerRuntimeBuiltin): an alias.
        direct[src].push_back(i);
        alias_of[bs[i]->var.get()] = src;
      } else if (auto args = prim_func_call_args(value, module_)) {
        for (const auto& a : *args) {
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
      Size size;
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
        if (!shape || !dt) continue;
        std::optional<Size> size = size_of(shape->values, element_bytes(dt->value));
        if (!size) continue;
        root[var] = var;
        tokens[var] = Token{*size, i, true};
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

    // Assign storage: walk the block, take a free storage for each planned allocation, free
    // storage after the last use of its tensors.
    struct Storage {
      Size size;
      size_t first = 0;  // the binding of its first tensor, where it is allocated
      Ref<Var> var;
    };
    std::vector<Storage> storages;
    FreeStorages free_list;
    std::unordered_map<size_t, std::vector<size_t>> release_after;
    std::unordered_map<size_t, size_t> storage_of;  // binding index -> storage
    for (size_t i = 0; i < bs.size(); ++i) {
      auto tok = tokens.find(bs[i]->var.get());
      if (tok != tokens.end() && tok->second.plannable) {
        const Size& need = tok->second.size;
        std::optional<size_t> pick = take_free(storages, free_list, need);
        if (!pick) {
          storages.push_back(Storage{need, i, make<Var>(names_.fresh("storage"))});
          pick = storages.size() - 1;
        }
        storage_of[i] = *pick;
        release_after[tok->second.last_use].push_back(*pick);
      }
      if (auto it = release_after.find(i); it != release_after.end()) {
        for (size_t k : it->second) free_list.release(k, storages[k].size);
      }
    }
    if (storage_of.empty()) return b;

    // Emit: each storage before its first tensor, with the largest size it serves.
    std::vector<Ref<Binding>> out;
    for (size_t i = 0; i < bs.size(); ++i) {
      auto at = storage_of.find(i);
      if (at == storage_of.end()) {
        out.push_back(bs[i]);
        continue;
      }
      const Storage& storage = storages[at->second];
      auto call = bs[i]->value.as<Call>();
      if (storage.first == i) {
        Ref<tir::PrimExpr> nbytes =
            storage.size.bytes ? tir::int64(*storage.size.bytes) : storage.size.expr;
        auto alloc =
            op_call("relax.memory.alloc_storage",
                    {make<ShapeExpr>(std::vector<Ref<tir::PrimExpr>>{nbytes}),
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
    }
    auto n = make<BindingBlock>(std::move(out), b->is_dataflow);
    n->span = b->span;
    return n;
  }

 private:
  // A size in bytes: a constant, or a symbolic expression.
  struct Size {
    std::optional<int64_t> bytes;
    Ref<tir::PrimExpr> expr;
  };

  // The bytes of a tensor of `dims`: constant, bounded by tir_var_upper_bound, or symbolic.
  std::optional<Size> size_of(const std::vector<Ref<tir::PrimExpr>>& dims, int64_t elem_bytes) {
    if (auto n = static_bytes(dims, elem_bytes)) return Size{*n, nullptr};
    Ref<tir::PrimExpr> bytes = tir::int64(elem_bytes);
    for (const auto& d : dims)
      bytes = make<tir::BinaryOp>(ObjectKind::kMul, DataType::Int64(), bytes, d);
    bytes = analyzer_.simplify(bytes);
    // Variables of the size and their upper bounds, if every one has one.
    struct Vars : tir::Visitor {
      std::vector<Ref<tir::Var>> found;
      void visit_var(const Ref<tir::Var>& v) override { found.push_back(v); }
    } vars;
    vars.visit_expr(bytes);
    bool bounded = !upper_bounds_.empty();
    analysis::arith::Analyzer bound_analyzer;
    for (const auto& v : vars.found) {
      auto it = upper_bounds_.find(v->name);
      if (it == upper_bounds_.end()) {
        bounded = false;
        break;
      }
      bound_analyzer.update_bound(v, {0, it->second});
    }
    if (bounded) {
      auto range = bound_analyzer.const_int_bound(bytes);
      if (range.max_value != analysis::arith::ConstIntBound::kPosInf && range.max_value >= 0)
        return Size{range.max_value, nullptr};
    }
    return Size{std::nullopt, bytes};
  }

  // The free storages, in the order they were freed: static ones by size (a multimap keeps
  // equal sizes in that order), so that taking one costs log n however many are free.
  struct FreeStorages {
    std::multimap<int64_t, size_t> by_bytes;  // bytes -> index into storages
    std::vector<size_t> symbolic;
    void release(size_t index, const Size& size) {
      if (size.bytes)
        by_bytes.emplace(*size.bytes, index);
      else if (size.expr)
        symbolic.push_back(index);
    }
  };

  // A free storage for `need` (removed from the free list), or nullopt.
  template <class Storage>
  std::optional<size_t> take_free(std::vector<Storage>& storages, FreeStorages& free_list,
                                  const Size& need) {
    if (need.bytes) {
      auto& free = free_list.by_bytes;
      if (free.empty()) return std::nullopt;
      // The smallest that fits (the first freed of that size), else the largest (which grows).
      auto it = free.lower_bound(*need.bytes);
      if (it == free.end()) it = free.lower_bound(std::prev(free.end())->first);
      size_t index = it->second;
      free.erase(it);
      Size& have = storages[index].size;
      have.bytes = std::max(*have.bytes, *need.bytes);
      return index;
    }
    // A symbolic size: the first freed whose size is provably equal.
    auto& free = free_list.symbolic;
    for (size_t k = 0; k < free.size(); ++k) {
      const Size& have = storages[free[k]].size;
      if (have.expr && analyzer_.can_prove_equal(have.expr, need.expr)) {
        size_t index = free[k];
        free.erase(free.begin() + static_cast<std::ptrdiff_t>(k));
        return index;
      }
    }
    return std::nullopt;
  }

  NameSupply names_;
  const IRModule& module_;
  std::unordered_map<const Var*, size_t> total_uses_;
  std::unordered_map<std::string, int64_t> upper_bounds_;
  analysis::arith::Analyzer analyzer_;
};

}  // namespace

Pass static_plan_block_memory_pass() {
  Pass p;
  p.name = "StaticPlanBlockMemory";
  p.opt_level = 0;
  p.doc = "Places tensors local to a block in reusable storage blocks (static, symbolic, bounded)";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      Planner planner(f, *m);
      return planner.mutate(f).as<Function>();
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

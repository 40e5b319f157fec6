// The loop transformation primitives: finding loops and blocks, split, fuse, reorder and loop
// kinds. Each rebuilds the function with the loop nest replaced and the old loop variables
// substituted by expressions of the new ones (block bindings included). Blocks' own iteration
// domains, reads and writes are left alone: they are in terms of block variables.
#include "compiler/tir/schedule/schedule.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "analysis/arith/analyzer.h"
#include "compiler/tir/util.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::tir {

namespace {

using irt::BlockRealize;
using irt::For;
using irt::ForKind;

// The loop stack at every block, and every loop by its variable.
struct LoopFinder : irt::Visitor {
  std::string block_name;
  std::vector<Ref<Var>> stack;
  std::vector<Ref<Var>> found;
  bool block_found = false;
  std::unordered_map<const Var*, Ref<For>> loops;

  void visit_for(const Ref<For>& s) override {
    loops[s->loop_var.get()] = s;
    stack.push_back(s->loop_var);
    irt::Visitor::visit_for(s);
    stack.pop_back();
  }
  void visit_block(const Ref<irt::Block>& s) override {
    if (!block_found && s->name_hint == block_name) {
      block_found = true;
      found = stack;
    }
    irt::Visitor::visit_block(s);
  }
};

// Replaces the loop with variable `target` by what `rewrite` makes of it.
struct LoopReplacer : irt::Mutator {
  const Var* target;
  std::function<Ref<Stmt>(const Ref<For>&)> rewrite;
  Ref<Stmt> mutate_for(const Ref<For>& s) override {
    if (s->loop_var.get() == target) return rewrite(s);
    return irt::Mutator::mutate_for(s);
  }
};

// Adds `cond` to the predicate of every block realize; counts them.
struct PredicateAdder : irt::Mutator {
  Ref<PrimExpr> cond;
  int count = 0;
  Ref<Stmt> mutate_block_realize(const Ref<BlockRealize>& s) override {
    ++count;
    auto n = ir::copy(s);
    n->predicate =
        s->predicate && !is_const_true(s->predicate) ? logical_and(s->predicate, cond) : cond;
    return n;
  }
};

Ref<For> make_loop(Ref<Var> var, Ref<PrimExpr> extent, Ref<Stmt> body) {
  auto f = make<For>();
  f->loop_var = var;
  f->min = cast(var->dtype, irt::int_imm(DataType::Int64(), 0));
  f->extent = cast(var->dtype, std::move(extent));
  f->body = std::move(body);
  f->for_kind = ForKind::kSerial;
  return f;
}

}  // namespace

std::vector<Schedule::LoopRV> Schedule::get_loops(const std::string& block) {
  LoopFinder finder;
  finder.block_name = block;
  finder.visit_stmt(func_->body);
  if (!finder.block_found) {
    diags_.error("E0721", ir::Span::unknown(), "schedule: there is no block named `" + block + "`");
    return {};
  }
  return finder.found;
}

std::vector<Schedule::LoopRV> Schedule::split(const LoopRV& loop,
                                              const std::vector<int64_t>& factors) {
  LoopFinder finder;
  finder.visit_stmt(func_->body);
  auto it = loop ? finder.loops.find(loop.get()) : finder.loops.end();
  if (it == finder.loops.end()) {
    diags_.error("E0720", ir::Span::unknown(), "schedule: split: the loop is not in the function");
    return {};
  }
  Ref<For> target = it->second;
  int inferred = -1;
  int64_t known = 1;
  for (size_t i = 0; i < factors.size(); ++i) {
    if (factors[i] == -1 && inferred < 0) {
      inferred = static_cast<int>(i);
    } else if (factors[i] <= 0) {
      diags_.error(
          "E0722", ir::Span::unknown(),
          "schedule: split of `" + loop->name + "`: factors must be positive, with at most one -1");
      return {};
    } else {
      known *= factors[i];
    }
  }
  if (factors.size() < 2) {
    diags_.error("E0722", ir::Span::unknown(),
                 "schedule: split of `" + loop->name + "` needs at least two factors");
    return {};
  }
  DataType t = loop->dtype;
  std::vector<Ref<PrimExpr>> extents;
  for (size_t i = 0; i < factors.size(); ++i) {
    if (static_cast<int>(i) == inferred)
      extents.push_back(ceildiv(target->extent, irt::int_imm(t, known)));
    else
      extents.push_back(irt::int_imm(t, factors[i]));
  }
  Ref<PrimExpr> total = extents[0];
  for (size_t i = 1; i < extents.size(); ++i) total = mul(total, extents[i]);
  analysis::arith::Analyzer analyzer({.non_negative_int64_vars = true});
  bool exact = analyzer.can_prove_equal(total, target->extent);
  if (!exact && inferred < 0 && analyzer.can_prove_less(total, target->extent)) {
    diags_.error("E0722", ir::Span::unknown(),
                 "schedule: split of `" + loop->name +
                     "`: the factors cover fewer iterations than the loop has");
    return {};
  }

  std::vector<LoopRV> vars;
  for (size_t i = 0; i < factors.size(); ++i)
    vars.push_back(fresh_var(loop->name + "_" + std::to_string(i), t));
  Ref<PrimExpr> fused = vars[0];
  for (size_t i = 1; i < vars.size(); ++i) fused = add(mul(fused, extents[i]), vars[i]);
  Ref<PrimExpr> value = is_zero(target->min) ? fused : add(target->min, fused);

  LoopReplacer replacer;
  replacer.target = loop.get();
  replacer.rewrite = [&](const Ref<For>& s) -> Ref<Stmt> {
    VarExprMap map{{loop.get(), value}};
    Ref<Stmt> body = substitute(s->body, map);
    if (!exact) {
      PredicateAdder adder;
      adder.cond = cmp(ObjectKind::kLT, fused, cast(t, s->extent));
      Ref<Stmt> guarded = adder.mutate_stmt(body);
      body = adder.count > 0 ? guarded : make<irt::IfThenElse>(adder.cond, body, nullptr);
    }
    for (size_t i = vars.size(); i-- > 0;) body = make_loop(vars[i], extents[i], body);
    return body;
  };
  func_ = ir::copy(func_);
  func_->body = replacer.mutate_stmt(func_->body);
  return vars;
}

Schedule::LoopRV Schedule::fuse(const std::vector<LoopRV>& loops) {
  LoopFinder finder;
  finder.visit_stmt(func_->body);
  if (loops.empty()) return nullptr;
  std::vector<Ref<For>> chain;
  for (size_t i = 0; i < loops.size(); ++i) {
    auto it = loops[i] ? finder.loops.find(loops[i].get()) : finder.loops.end();
    if (it == finder.loops.end()) {
      diags_.error("E0720", ir::Span::unknown(), "schedule: fuse: a loop is not in the function");
      return nullptr;
    }
    if (i > 0 && !chain.back()->body.same_as(it->second)) {
      diags_.error("E0723", ir::Span::unknown(),
                   "schedule: fuse: `" + it->second->loop_var->name +
                       "` is not the only statement inside `" + chain.back()->loop_var->name + "`");
      return nullptr;
    }
    chain.push_back(it->second);
  }
  DataType t = loops[0]->dtype;
  for (const auto& l : loops) t = index_type(irt::int_imm(t, 0), irt::int_imm(l->dtype, 0));
  std::string name;
  for (const auto& l : loops) name += (name.empty() ? "" : "_") + l->name;
  auto fused = fresh_var(name + "_fused", t);
  VarExprMap map;
  Ref<PrimExpr> inner = irt::int_imm(t, 1);
  for (size_t i = chain.size(); i-- > 0;) {
    const Ref<For>& l = chain[i];
    for (size_t j = 0; j < i; ++j) {
      if (uses_var(l->extent, chain[j]->loop_var.get()) ||
          uses_var(l->min, chain[j]->loop_var.get())) {
        diags_.error(
            "E0723", ir::Span::unknown(),
            "schedule: fuse: the extent of `" + l->loop_var->name + "` depends on an outer loop");
        return nullptr;
      }
    }
    Ref<PrimExpr> v = floordiv(fused, inner);
    if (i > 0) v = floormod(v, cast(t, l->extent));
    Ref<PrimExpr> value = cast(l->loop_var->dtype, v);
    if (!is_zero(l->min)) value = add(l->min, value);
    map[l->loop_var.get()] = value;
    inner = mul(inner, cast(t, l->extent));
  }
  LoopReplacer replacer;
  replacer.target = chain[0]->loop_var.get();
  Ref<PrimExpr> total = inner;
  replacer.rewrite = [&](const Ref<For>&) -> Ref<Stmt> {
    return make_loop(fused, total, substitute(chain.back()->body, map));
  };
  func_ = ir::copy(func_);
  func_->body = replacer.mutate_stmt(func_->body);
  return fused;
}

bool Schedule::reorder(const std::vector<LoopRV>& loops) {
  LoopFinder finder;
  finder.visit_stmt(func_->body);
  std::unordered_set<const Var*> wanted;
  for (const auto& l : loops) {
    if (!l || !finder.loops.count(l.get())) {
      diags_.error("E0720", ir::Span::unknown(),
                   "schedule: reorder: a loop is not in the function");
      return false;
    }
    if (!wanted.insert(l.get()).second) {
      diags_.error("E0723", ir::Span::unknown(),
                   "schedule: reorder: loop `" + l->name + "` is named twice");
      return false;
    }
  }
  if (loops.size() < 2) return true;
  // The outermost named loop: the one whose body holds every other named loop.
  Ref<For> top;
  for (const auto& l : loops) {
    LoopFinder inner;
    inner.visit_stmt(finder.loops.at(l.get())->body);
    bool holds_all = true;
    for (const auto& other : loops)
      if (other.get() != l.get() && !inner.loops.count(other.get())) holds_all = false;
    if (holds_all) top = finder.loops.at(l.get());
  }
  if (!top) {
    diags_.error("E0723", ir::Span::unknown(),
                 "schedule: reorder: the loops are not nested in one another");
    return false;
  }
  // Walk the perfect nest down from it until every named loop is seen.
  std::vector<Ref<For>> chain;
  size_t seen = 0;
  Ref<Stmt> cur = top;
  while (seen < wanted.size()) {
    auto f = cur.as<For>();
    if (!f) {
      diags_.error("E0723", ir::Span::unknown(),
                   "schedule: reorder: the loops are not one perfect nest (each loop the only "
                   "statement of the one "
                   "outside it)");
      return false;
    }
    chain.push_back(f);
    if (wanted.count(f->loop_var.get())) ++seen;
    cur = f->body;
  }
  std::vector<Ref<For>> order;
  size_t next = 0;
  for (const auto& f : chain) {
    if (wanted.count(f->loop_var.get()))
      order.push_back(finder.loops.at(loops[next++].get()));
    else
      order.push_back(f);
  }
  for (size_t i = 0; i < order.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (uses_var(order[i]->extent, order[j]->loop_var.get()) ||
          uses_var(order[i]->min, order[j]->loop_var.get())) {
        diags_.error("E0723", ir::Span::unknown(),
                     "schedule: reorder: the bounds of `" + order[i]->loop_var->name +
                         "` depend on `" + order[j]->loop_var->name + "`");
        return false;
      }
    }
    for (size_t j = i + 1; j < order.size(); ++j) {
      if (uses_var(order[i]->extent, order[j]->loop_var.get()) ||
          uses_var(order[i]->min, order[j]->loop_var.get())) {
        diags_.error("E0723", ir::Span::unknown(),
                     "schedule: reorder: the bounds of `" + order[i]->loop_var->name +
                         "` depend on `" + order[j]->loop_var->name + "`");
        return false;
      }
    }
  }
  Ref<Stmt> innermost_body = chain.back()->body;
  LoopReplacer replacer;
  replacer.target = top->loop_var.get();
  replacer.rewrite = [&](const Ref<For>&) -> Ref<Stmt> {
    Ref<Stmt> body = innermost_body;
    for (size_t i = order.size(); i-- > 0;) {
      auto n = ir::copy(order[i]);
      n->body = body;
      body = n;
    }
    return body;
  };
  func_ = ir::copy(func_);
  func_->body = replacer.mutate_stmt(func_->body);
  return true;
}

namespace {

// The first block under `loop` whose binding feeds the loop variable into an iterator that is
// not data parallel, as "the reduction iterator `vk` of block `C`"; empty when there is none.
std::string non_data_parallel_use(const Ref<For>& loop) {
  struct Finder : irt::Visitor {
    const Var* var = nullptr;
    std::string found;
    void visit_block_realize(const Ref<BlockRealize>& s) override {
      const auto& iters = s->block->iter_vars;
      for (size_t i = 0; i < s->iter_values.size() && i < iters.size() && found.empty(); ++i) {
        if (iters[i]->iter_type != irt::IterType::kDataPar && uses_var(s->iter_values[i], var))
          found = std::string(iters[i]->iter_type == irt::IterType::kCommReduce
                                  ? "the reduction iterator `"
                                  : "the iterator `") +
                  iters[i]->var->name + "` of block `" + s->block->name_hint +
                  "` (not data parallel)";
      }
      if (found.empty()) irt::Visitor::visit_block_realize(s);
    }
  } finder;
  finder.var = loop->loop_var.get();
  finder.visit_stmt(loop->body);
  return finder.found;
}

}  // namespace

bool Schedule::set_kind(const LoopRV& loop, ForKind kind, const std::string& thread) {
  LoopFinder finder;
  finder.visit_stmt(func_->body);
  if (!loop || !finder.loops.count(loop.get())) {
    diags_.error("E0720", ir::Span::unknown(), "schedule: the loop is not in the function");
    return false;
  }
  // As in TVM: iterations of a reduction depend on one another, so its loop stays serial.
  if (kind == ForKind::kParallel || kind == ForKind::kVectorized) {
    std::string use = non_data_parallel_use(finder.loops.at(loop.get()));
    if (!use.empty()) {
      diags_.error("E0725", ir::Span::unknown(),
                   std::string("schedule: cannot ") +
                       (kind == ForKind::kParallel ? "parallelize" : "vectorize") + " loop `" +
                       loop->name + "`: it feeds " + use);
      return false;
    }
  }
  LoopReplacer replacer;
  replacer.target = loop.get();
  replacer.rewrite = [&](const Ref<For>& s) -> Ref<Stmt> {
    auto n = ir::copy(s);
    n->for_kind = kind;
    if (kind == ForKind::kThreadBinding) {
      n->thread_binding = make<irt::IterVar>(make<irt::Range>(s->min, s->extent), s->loop_var,
                                             irt::IterType::kThreadIndex, thread);
    }
    return n;
  };
  func_ = ir::copy(func_);
  func_->body = replacer.mutate_stmt(func_->body);
  return true;
}

bool Schedule::parallel(const LoopRV& loop) {
  return set_kind(loop, ForKind::kParallel, "");
}
bool Schedule::vectorize(const LoopRV& loop) {
  return set_kind(loop, ForKind::kVectorized, "");
}
bool Schedule::unroll(const LoopRV& loop) {
  return set_kind(loop, ForKind::kUnrolled, "");
}
bool Schedule::bind(const LoopRV& loop, const std::string& thread) {
  if (thread.empty()) {
    diags_.error("E0724", ir::Span::unknown(), "schedule: bind needs a thread axis name");
    return false;
  }
  return set_kind(loop, ForKind::kThreadBinding, thread);
}

}  // namespace relax::compiler::tir

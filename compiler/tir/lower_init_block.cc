// LowerInitBlock: a block with `T.init()` runs its init under a condition that every reduction
// iterator is at the first value of its domain, before the body (TVM's LowerInitBlock). Blocks
// without reduction iterators run the init unconditionally. Leaves everything else alone.
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

class InitLowerer : public irt::Mutator {
 public:
  Ref<Stmt> mutate_block(const Ref<irt::Block>& block) override {
    Ref<Stmt> mutated = Mutator::mutate_block(block);
    auto b = mutated.as<irt::Block>();
    if (!b->init) return b;
    Ref<PrimExpr> cond;
    for (const auto& iv : b->iter_vars) {
      if (iv->iter_type != irt::IterType::kCommReduce) continue;
      cond = logical_and(cond, cmp(ObjectKind::kEQ, iv->var, iv->dom->min));
    }
    Ref<Stmt> init = b->init;
    if (cond && !is_const_true(cond)) init = make<irt::IfThenElse>(cond, init, nullptr);
    auto n = ir::copy(b);
    n->body = seq({init, b->body});
    n->init = nullptr;
    return n;
  }
};

}  // namespace

Ref<PrimFunc> lower_init_block(const Ref<PrimFunc>& f, LowerContext&) {
  InitLowerer m;
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir

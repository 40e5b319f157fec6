// ConvertBlocksToOpaque: every block iterator is replaced, in the block and everything nested
// in it, by the value its BlockRealize binds to it; blocks are left without iterators (TVM's
// ConvertBlocksToOpaque). Predicates, allocations, match_buffers and regions stay for the next
// steps (regions and match_buffer sources get the substitution too).
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

class BlockOpaquer : public irt::Mutator {
 public:
  Ref<PrimExpr> mutate_var(const Ref<Var>& var) override {
    auto it = map_.find(var.get());
    return it == map_.end() ? Ref<PrimExpr>(var) : it->second;
  }

  Ref<Stmt> mutate_block_realize(const Ref<irt::BlockRealize>& realize) override {
    const auto& block = realize->block;
    std::vector<Ref<PrimExpr>> values;
    mutate_exprs(realize->iter_values, values);
    for (size_t i = 0; i < block->iter_vars.size() && i < values.size(); ++i) {
      map_[block->iter_vars[i]->var.get()] = values[i];
    }
    auto pred = mutate_expr(realize->predicate);
    auto b = mutate_stmt(block).as<irt::Block>();
    auto nb = ir::copy(b);
    nb->iter_vars.clear();
    std::vector<Ref<irt::MatchBufferRegion>> matches;
    for (const auto& m : b->match_buffers) {
      matches.push_back(make<irt::MatchBufferRegion>(m->buffer, mutate_region(m->source)));
    }
    nb->match_buffers = std::move(matches);
    auto n = ir::copy(realize);
    n->iter_values.clear();
    n->predicate = pred;
    n->block = nb;
    return n;
  }

 private:
  VarExprMap map_;
};

}  // namespace

Ref<PrimFunc> convert_blocks_to_opaque(const Ref<PrimFunc>& f, LowerContext&) {
  BlockOpaquer m;
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir

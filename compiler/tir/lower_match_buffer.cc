// LowerMatchBuffer: a block's `T.match_buffer(source[region], shape)` disappears; every access
// of the matched buffer becomes an access of the source buffer at the region's start plus the
// index (the matched buffer's dimensions line up with the region's last dimensions; the leading
// region dimensions it leaves out must have extent 1). Symbolic variables in the matched
// buffer's shape, strides and elem_offset are bound to the region's extents, the source's
// strides and offset. Leaves the function's own match_buffers (its buffer map) alone.
#include <optional>

#include "analysis/arith/analyzer.h"
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

struct Match {
  Ref<Buffer> source;
  std::vector<Ref<PrimExpr>> mins;  // one per source dimension
  size_t skipped = 0;               // leading source dimensions the matched buffer leaves out
};

class MatchLowerer : public irt::Mutator {
 public:
  MatchLowerer(LowerContext& ctx) : ctx_(ctx) {}
  bool failed = false;

  Ref<PrimExpr> mutate_var(const Ref<Var>& var) override {
    auto it = vars_.find(var.get());
    return it == vars_.end() ? Ref<PrimExpr>(var) : it->second;
  }

  Ref<PrimExpr> mutate_buffer_load(const Ref<irt::BufferLoad>& load) override {
    auto l = Mutator::mutate_buffer_load(load).as<irt::BufferLoad>();
    auto it = matches_.find(l->buffer.get());
    if (it == matches_.end()) return l;
    auto n = ir::copy(l);
    n->buffer = it->second.source;
    n->indices = map_indices(it->second, l->indices);
    return n;
  }

  Ref<Stmt> mutate_buffer_store(const Ref<irt::BufferStore>& store) override {
    auto s = Mutator::mutate_buffer_store(store).as<irt::BufferStore>();
    auto it = matches_.find(s->buffer.get());
    if (it == matches_.end()) return s;
    auto n = ir::copy(s);
    n->buffer = it->second.source;
    n->indices = map_indices(it->second, s->indices);
    return n;
  }

  Ref<Stmt> mutate_block(const Ref<irt::Block>& block) override {
    for (const auto& m : block->match_buffers) add_match(*m, block->span);
    auto b = Mutator::mutate_block(block).as<irt::Block>();
    if (b->match_buffers.empty()) return b;
    auto n = ir::copy(b);
    n->match_buffers.clear();
    return n;
  }

 private:
  std::vector<Ref<PrimExpr>> map_indices(const Match& m, const std::vector<Ref<PrimExpr>>& idx) {
    std::vector<Ref<PrimExpr>> out = m.mins;
    for (size_t i = 0; i < idx.size(); ++i) {
      size_t d = m.skipped + i;
      if (d < out.size()) out[d] = add(out[d], idx[i]);
    }
    return out;
  }

  void add_match(const irt::MatchBufferRegion& mr, ir::Span span) {
    const Ref<Buffer>& target = mr.buffer;
    Match m;
    m.source = mr.source->buffer;
    for (const auto& r : mr.source->region) m.mins.push_back(mutate_expr(r->min));
    std::vector<Ref<PrimExpr>> extents;
    for (const auto& r : mr.source->region) extents.push_back(mutate_expr(r->extent));
    // A source that is itself matched: compose the two offsets.
    auto outer = matches_.find(m.source.get());
    if (outer != matches_.end()) {
      m.mins = map_indices(outer->second, m.mins);
      std::vector<Ref<PrimExpr>> ext(outer->second.skipped, irt::int64(1));
      for (auto& e : extents) ext.push_back(e);
      extents = std::move(ext);
      m.source = outer->second.source;
    }
    size_t rank = target->shape.size();
    if (rank > m.mins.size()) {
      fail(span, "buffer `" + target->name + "` has more dimensions than the region it matches");
      return;
    }
    m.skipped = m.mins.size() - rank;
    analysis::arith::Analyzer az;
    for (size_t d = 0; d < m.skipped; ++d) {
      if (!az.can_prove_equal(extents[d], irt::int64(1))) {
        fail(span, "buffer `" + target->name + "` leaves out dimension " + std::to_string(d) +
                       " of the region it matches, whose extent is not 1");
        return;
      }
    }
    for (size_t i = 0; i < rank; ++i) {
      const auto& want = target->shape[i];
      const auto& got = extents[m.skipped + i];
      if (auto v = want.as<Var>()) {
        if (!vars_.count(v.get())) {
          vars_[v.get()] = cast(v->dtype, got);
          continue;
        }
      }
      if (az.prove_equal(want, got) == analysis::arith::Proof::kNo) {
        fail(span, "buffer `" + target->name +
                       "` has extent mismatching the matched region in dimension " +
                       std::to_string(i));
        return;
      }
    }
    // Strides and offset variables of the matched buffer take the source's.
    std::vector<Ref<PrimExpr>> strides = m.source->strides;
    if (strides.empty()) {
      Ref<PrimExpr> acc = irt::int64(1);
      strides.resize(m.source->shape.size());
      for (size_t d = m.source->shape.size(); d-- > 0;) {
        strides[d] = acc;
        acc = mul(acc, m.source->shape[d]);
      }
    }
    for (size_t i = 0; i < target->strides.size() && m.skipped + i < strides.size(); ++i) {
      if (auto v = target->strides[i].as<Var>())
        vars_[v.get()] = cast(v->dtype, strides[m.skipped + i]);
    }
    if (auto v = target->elem_offset.as<Var>()) {
      Ref<PrimExpr> off = m.source->elem_offset ? m.source->elem_offset : irt::int64(0);
      for (size_t d = 0; d < m.mins.size() && d < strides.size(); ++d)
        off = add(off, mul(m.mins[d], strides[d]));
      vars_[v.get()] = cast(v->dtype, off);
    }
    matches_[target.get()] = std::move(m);
  }

  void fail(ir::Span span, const std::string& msg) {
    failed = true;
    ctx_.diags.error("E0706", span,
                     "prim_func `" + ctx_.func_name + "`: cannot lower match_buffer: " + msg);
  }

  LowerContext& ctx_;
  std::unordered_map<const Buffer*, Match> matches_;
  VarExprMap vars_;
};

}  // namespace

Ref<PrimFunc> lower_match_buffer(const Ref<PrimFunc>& f, LowerContext& ctx) {
  MatchLowerer m(ctx);
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (m.failed) return nullptr;
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir

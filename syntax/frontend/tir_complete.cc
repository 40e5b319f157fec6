// The completion TVMScript applies to a parsed prim_func (TVM's ScriptComplete): blocks that
// omit T.reads/T.writes get the regions their body accesses, computed as TVM's block access
// region detector does (loads and stores of the buffers visible to the block, relaxed over the
// loops inside it, regions of nested blocks, tvm_access_ptr); a body with blocks gets the
// implicit root block.
#include <unordered_map>
#include <unordered_set>

#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_internal.h"

namespace relax::syntax::tirfe {

using ir::make;
using ir::ObjectKind;

namespace {

// A symbolic interval [min, max]; unbounded when the analysis cannot bound it.
struct Interval {
  Ref<PrimExpr> min;
  Ref<PrimExpr> max;
  bool bounded() const { return min && max; }
  static Interval point(const Ref<PrimExpr>& e) { return {e, e}; }
};

using DomMap = std::unordered_map<const Var*, Interval>;

bool uses_dom(const Ref<PrimExpr>& e, const DomMap& dom) {
  if (!e) return false;
  switch (e->kind()) {
    case ObjectKind::kTirVar:
      return dom.count(e.as_ptr<Var>()) > 0;
    case ObjectKind::kIntImm:
    case ObjectKind::kFloatImm:
    case ObjectKind::kTirStringImm:
      return false;
    case ObjectKind::kCast:
      return uses_dom(e.as_ptr<Cast>()->value, dom);
    case ObjectKind::kNot:
      return uses_dom(e.as_ptr<Not>()->a, dom);
    case ObjectKind::kSelect: {
      auto s = e.as_ptr<Select>();
      return uses_dom(s->condition, dom) || uses_dom(s->true_value, dom) ||
             uses_dom(s->false_value, dom);
    }
    case ObjectKind::kBufferLoad:
      for (const auto& i : e.as_ptr<BufferLoad>()->indices) {
        if (uses_dom(i, dom)) return true;
      }
      return false;
    case ObjectKind::kTirCall:
      for (const auto& a : e.as_ptr<Call>()->args) {
        if (uses_dom(a, dom)) return true;
      }
      return false;
    case ObjectKind::kRamp:
      return uses_dom(e.as_ptr<Ramp>()->base, dom) || uses_dom(e.as_ptr<Ramp>()->stride, dom);
    case ObjectKind::kBroadcast:
      return uses_dom(e.as_ptr<Broadcast>()->value, dom);
    case ObjectKind::kLet: {
      auto l = e.as_ptr<Let>();
      return uses_dom(l->value, dom) || uses_dom(l->body, dom);
    }
    default:
      break;
  }
  if (auto b = e.as_ptr<BinaryOp>()) return uses_dom(b->a, dom) || uses_dom(b->b, dom);
  return true;
}

Ref<PrimExpr> arith(ObjectKind k, const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  return prim_arith(k, a, b);
}

// The smaller (or larger) of two bounds when their difference is a known constant, else a
// min/max node.
Ref<PrimExpr> pick(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b, bool want_min) {
  if (auto d = const_difference(a, b)) return (*d <= 0) == want_min ? a : b;
  if (expr_equal(a, b)) return a;
  return arith(want_min ? ObjectKind::kMin : ObjectKind::kMax, a, b);
}

Interval eval_interval(const Ref<PrimExpr>& e, const DomMap& dom) {
  if (!uses_dom(e, dom)) return Interval::point(e);
  if (auto v = e.as_ptr<Var>()) return dom.at(v);
  if (e->kind() == ObjectKind::kCast) {
    Interval a = eval_interval(e.as_ptr<Cast>()->value, dom);
    if (!a.bounded()) return {};
    return {prim_cast(e->dtype, a.min), prim_cast(e->dtype, a.max)};
  }
  auto b = e.as_ptr<BinaryOp>();
  if (!b) return {};
  Interval x = eval_interval(b->a, dom);
  Interval y = eval_interval(b->b, dom);
  if (!x.bounded() || !y.bounded()) return {};
  switch (e->kind()) {
    case ObjectKind::kAdd:
      return {arith(ObjectKind::kAdd, x.min, y.min), arith(ObjectKind::kAdd, x.max, y.max)};
    case ObjectKind::kSub:
      return {arith(ObjectKind::kSub, x.min, y.max), arith(ObjectKind::kSub, x.max, y.min)};
    case ObjectKind::kMul: {
      auto scale = [&](const Interval& i, int64_t c, const Ref<PrimExpr>& ce) -> Interval {
        Ref<PrimExpr> lo = arith(ObjectKind::kMul, i.min, ce),
                      hi = arith(ObjectKind::kMul, i.max, ce);
        return c >= 0 ? Interval{lo, hi} : Interval{hi, lo};
      };
      if (auto c = as_const_int(y.min); c && y.min.same_as(y.max)) return scale(x, *c, y.min);
      if (auto c = as_const_int(x.min); c && x.min.same_as(x.max)) {
        Interval r = scale(y, *c, x.min);
        return r;
      }
      return {};
    }
    case ObjectKind::kFloorDiv: {
      auto c = as_const_int(y.min);
      if (!c || *c <= 0 || !y.min.same_as(y.max)) return {};
      return {arith(ObjectKind::kFloorDiv, x.min, y.min),
              arith(ObjectKind::kFloorDiv, x.max, y.min)};
    }
    case ObjectKind::kFloorMod: {
      auto c = as_const_int(y.min);
      if (!c || *c <= 0 || !y.min.same_as(y.max)) return {};
      return {int_imm(e->dtype, 0), int_imm(e->dtype, *c - 1)};
    }
    case ObjectKind::kMin:
      return {pick(x.min, y.min, true), pick(x.max, y.max, true)};
    case ObjectKind::kMax:
      return {pick(x.min, y.min, false), pick(x.max, y.max, false)};
    default:
      return {};
  }
}

// An index as a set: a ramp covers base .. base + stride * (lanes - 1).
Interval eval_index(const Ref<PrimExpr>& index, const DomMap& dom) {
  if (auto r = index.as_ptr<Ramp>()) {
    auto stride = as_const_int(r->stride);
    auto lanes = as_const_int(r->lanes);
    Interval base = eval_interval(r->base, dom);
    if (!stride || !lanes || *stride < 0 || !base.bounded()) return {};
    return {base.min,
            arith(ObjectKind::kAdd, base.max, int_imm(r->base->dtype, *stride * (*lanes - 1)))};
  }
  return eval_interval(index, dom);
}

struct Access {
  Ref<Buffer> buffer;
  std::vector<Interval> region;
};

class Detector {
 public:
  Detector(const std::unordered_map<const Var*, Ref<Buffer>>& visible) : visible_(visible) {}

  void run(const Ref<Block>& block) {
    for (const auto& mb : block->match_buffers) {
      if (visible_.count(mb->source->buffer->data.get())) {
        matched_[mb->buffer->data.get()] = mb;
        visible_[mb->buffer->data.get()] = mb->buffer;
      }
    }
    for (const auto& iv : block->iter_vars) {
      if (iv->dom) {
        expr(iv->dom->min);
        expr(iv->dom->extent);
      }
    }
    for (const auto& r : block->reads) region_exprs(r);
    for (const auto& r : block->writes) region_exprs(r);
    for (const auto& mb : block->match_buffers) region_exprs(mb->source);
    if (block->init) stmt(block->init);
    stmt(block->body);
  }

  std::vector<Ref<BufferRegion>> collect(const std::vector<Access>& accesses,
                                         const std::unordered_set<const Buffer*>& excluded) const {
    std::vector<Ref<BufferRegion>> out;
    for (const Access& a : accesses) {
      if (excluded.count(a.buffer.get())) continue;
      std::vector<Ref<Range>> ranges;
      for (size_t j = 0; j < a.region.size(); ++j) {
        const Interval& i = a.region[j];
        Ref<PrimExpr> shape =
            j < a.buffer->shape.size() ? a.buffer->shape[j] : Ref<PrimExpr>(int32(1));
        if (!i.bounded()) {
          ranges.push_back(make<Range>(int32(0), shape));
          continue;
        }
        auto d = const_difference(i.max, i.min);
        if (d && *d == 0) {
          ranges.push_back(make<Range>(i.min, int_imm(i.min->dtype, 1)));
        } else if (d) {
          ranges.push_back(make<Range>(i.min, int_imm(i.min->dtype, *d + 1)));
        } else {
          Ref<PrimExpr> ext = arith(
              ObjectKind::kSub, arith(ObjectKind::kAdd, i.max, int_imm(i.max->dtype, 1)), i.min);
          ranges.push_back(make<Range>(i.min, simplify_sum(ext)));
        }
      }
      out.push_back(make<BufferRegion>(a.buffer, std::move(ranges)));
    }
    return out;
  }

  std::vector<Access> reads, writes, opaques;

 private:
  void region_exprs(const Ref<BufferRegion>& r) {
    for (const auto& range : r->region) {
      expr(range->min);
      expr(range->extent);
    }
  }

  void update(std::vector<Access>& into, Ref<Buffer> buffer, std::vector<Interval> region) {
    if (!visible_.count(buffer->data.get())) return;
    auto m = matched_.find(buffer->data.get());
    if (m != matched_.end()) {
      // An access through a matched buffer touches its source region.
      buffer = m->second->source->buffer;
      region.clear();
      for (const auto& r : m->second->source->region) {
        Interval lo = eval_interval(r->min, dom_);
        Interval hi =
            eval_interval(arith(ObjectKind::kSub, arith(ObjectKind::kAdd, r->min, r->extent),
                                int_imm(r->min->dtype, 1)),
                          dom_);
        region.push_back(lo.bounded() && hi.bounded() ? Interval{lo.min, hi.max} : Interval{});
      }
    }
    for (Access& a : into) {
      if (a.buffer.same_as(buffer)) {
        for (size_t j = 0; j < a.region.size() && j < region.size(); ++j) {
          Interval& x = a.region[j];
          const Interval& y = region[j];
          if (!x.bounded() || !y.bounded())
            x = {};
          else
            x = {pick(x.min, y.min, true), pick(x.max, y.max, false)};
        }
        return;
      }
    }
    into.push_back({std::move(buffer), std::move(region)});
  }

  void full_region(std::vector<Access>& into, const Ref<Buffer>& buffer) {
    std::vector<Interval> region;
    for (const auto& d : buffer->shape) {
      Interval e = eval_interval(arith(ObjectKind::kSub, d, int_imm(d->dtype, 1)), dom_);
      region.push_back(e.bounded() ? Interval{int_imm(d->dtype, 0), e.max} : Interval{});
    }
    update(into, buffer, std::move(region));
  }

  void expr(const Ref<PrimExpr>& e) {
    if (!e) return;
    switch (e->kind()) {
      case ObjectKind::kTirVar: {
        auto it = visible_.find(e.as_ptr<Var>());
        if (it != visible_.end()) full_region(opaques, it->second);
        return;
      }
      case ObjectKind::kIntImm:
      case ObjectKind::kFloatImm:
      case ObjectKind::kTirStringImm:
        return;
      case ObjectKind::kBufferLoad: {
        auto l = e.as_ptr<BufferLoad>();
        std::vector<Interval> region;
        for (const auto& i : l->indices) region.push_back(eval_index(i, dom_));
        update(reads, l->buffer, std::move(region));
        for (const auto& i : l->indices) expr(i);
        expr(l->predicate);
        return;
      }
      case ObjectKind::kTirCall: {
        auto c = e.as_ptr<Call>();
        if (c->op == "tir.tvm_access_ptr" && c->args.size() == 5) {
          auto var = c->args[1].as_ptr<Var>();
          auto mask = as_const_int(c->args[4]);
          if (var && mask) {
            auto it = visible_.find(var);
            if (it != visible_.end()) {
              if ((*mask & 1) && (*mask & 2))
                full_region(opaques, it->second);
              else if (*mask & 1)
                full_region(reads, it->second);
              else if (*mask & 2)
                full_region(writes, it->second);
            }
            return;
          }
        }
        if (c->op == "tir.if_then_else" && c->args.size() == 3) {
          expr(c->args[0]);
          for (size_t branch = 1; branch <= 2; ++branch) {
            DomMap saved = dom_;
            constrain(c->args[0], branch == 2);
            expr(c->args[branch]);
            dom_ = std::move(saved);
          }
          return;
        }
        for (const auto& a : c->args) expr(a);
        return;
      }
      case ObjectKind::kCast:
        expr(e.as_ptr<Cast>()->value);
        return;
      case ObjectKind::kNot:
        expr(e.as_ptr<Not>()->a);
        return;
      case ObjectKind::kSelect: {
        auto s = e.as_ptr<Select>();
        expr(s->condition);
        expr(s->true_value);
        expr(s->false_value);
        return;
      }
      case ObjectKind::kRamp:
        expr(e.as_ptr<Ramp>()->base);
        expr(e.as_ptr<Ramp>()->stride);
        return;
      case ObjectKind::kBroadcast:
        expr(e.as_ptr<Broadcast>()->value);
        return;
      case ObjectKind::kShuffle:
        for (const auto& v : e.as_ptr<Shuffle>()->vectors) expr(v);
        return;
      case ObjectKind::kLet: {
        auto l = e.as_ptr<Let>();
        expr(l->value);
        expr(l->body);
        return;
      }
      default:
        break;
    }
    if (auto b = e.as_ptr<BinaryOp>()) {
      expr(b->a);
      expr(b->b);
    }
  }

  void stmt(const Ref<Stmt>& s) {
    if (!s) return;
    switch (s->kind()) {
      case ObjectKind::kBufferStore: {
        auto st = s.as_ptr<BufferStore>();
        std::vector<Interval> region;
        for (const auto& i : st->indices) region.push_back(eval_index(i, dom_));
        update(writes, st->buffer, std::move(region));
        expr(st->value);
        for (const auto& i : st->indices) expr(i);
        expr(st->predicate);
        return;
      }
      case ObjectKind::kFor: {
        auto f = s.as_ptr<For>();
        expr(f->min);
        expr(f->extent);
        Interval lo = eval_interval(f->min, dom_);
        Interval hi =
            eval_interval(arith(ObjectKind::kSub, arith(ObjectKind::kAdd, f->min, f->extent),
                                int_imm(f->extent->dtype, 1)),
                          dom_);
        dom_[f->loop_var.get()] =
            lo.bounded() && hi.bounded() ? Interval{lo.min, hi.max} : Interval{};
        stmt(f->body);
        dom_.erase(f->loop_var.get());
        return;
      }
      case ObjectKind::kBlockRealize: {
        auto r = s.as_ptr<BlockRealize>();
        std::unordered_map<const Var*, Ref<PrimExpr>> vmap;
        for (size_t i = 0; i < r->block->iter_vars.size() && i < r->iter_values.size(); ++i) {
          vmap[r->block->iter_vars[i]->var.get()] = r->iter_values[i];
        }
        auto relax_regions = [&](const std::vector<Ref<BufferRegion>>& regions,
                                 std::vector<Access>& into) {
          for (const auto& br : regions) {
            std::vector<Interval> region;
            for (const auto& range : br->region) {
              Ref<PrimExpr> lo = substitute(range->min, vmap);
              Ref<PrimExpr> ext = substitute(range->extent, vmap);
              Interval a = eval_interval(lo, dom_);
              Interval b = eval_interval(
                  arith(ObjectKind::kSub, arith(ObjectKind::kAdd, lo, ext), int_imm(ext->dtype, 1)),
                  dom_);
              region.push_back(a.bounded() && b.bounded() ? Interval{a.min, b.max} : Interval{});
            }
            update(into, br->buffer, std::move(region));
          }
        };
        relax_regions(r->block->reads, reads);
        relax_regions(r->block->writes, writes);
        return;
      }
      case ObjectKind::kBlock:
        return;
      case ObjectKind::kSeqStmt:
        for (const auto& x : s.as_ptr<SeqStmt>()->seq) stmt(x);
        return;
      case ObjectKind::kIfThenElse: {
        auto i = s.as_ptr<IfThenElse>();
        expr(i->condition);
        {
          DomMap saved = dom_;
          constrain(i->condition, false);
          stmt(i->then_case);
          dom_ = std::move(saved);
        }
        if (i->else_case) {
          DomMap saved = dom_;
          constrain(i->condition, true);
          stmt(i->else_case);
          dom_ = std::move(saved);
        }
        return;
      }
      case ObjectKind::kWhile:
        expr(s.as_ptr<While>()->condition);
        stmt(s.as_ptr<While>()->body);
        return;
      case ObjectKind::kLetStmt:
        expr(s.as_ptr<LetStmt>()->value);
        stmt(s.as_ptr<LetStmt>()->body);
        return;
      case ObjectKind::kAttrStmt:
        expr(s.as_ptr<AttrStmt>()->value);
        stmt(s.as_ptr<AttrStmt>()->body);
        return;
      case ObjectKind::kAssertStmt:
        expr(s.as_ptr<AssertStmt>()->condition);
        expr(s.as_ptr<AssertStmt>()->message);
        stmt(s.as_ptr<AssertStmt>()->body);
        return;
      case ObjectKind::kEvaluate:
        expr(s.as_ptr<Evaluate>()->value);
        return;
      case ObjectKind::kAllocate: {
        auto a = s.as_ptr<Allocate>();
        for (const auto& e : a->extents) expr(e);
        expr(a->condition);
        stmt(a->body);
        return;
      }
      case ObjectKind::kDeclBuffer:
        stmt(s.as_ptr<DeclBuffer>()->body);
        return;
      case ObjectKind::kBufferRealize:
        stmt(s.as_ptr<BufferRealize>()->body);
        return;
      default:
        return;
    }
  }

  std::unordered_map<const Var*, Ref<Buffer>> visible_;
  std::unordered_map<const Var*, Ref<MatchBufferRegion>> matched_;
  DomMap dom_;

  // Narrows the domains of loop variables under a branch condition (`k < 8` bounds k), as
  // TVM's ConditionalBoundsContext does for the conditions it can read.
  void constrain(const Ref<PrimExpr>& cond, bool negate) {
    if (!cond) return;
    if (auto n = cond.as_ptr<Not>()) {
      constrain(n->a, !negate);
      return;
    }
    auto b = cond.as_ptr<BinaryOp>();
    if (!b) return;
    ObjectKind k = b->kind();
    if ((k == ObjectKind::kAnd && !negate) || (k == ObjectKind::kOr && negate)) {
      constrain(b->a, negate);
      constrain(b->b, negate);
      return;
    }
    if (!b->is_comparison() || k == ObjectKind::kEQ || k == ObjectKind::kNE) return;
    Ref<PrimExpr> lhs = b->a, rhs = b->b;
    if (!lhs.is<Var>() && rhs.is<Var>()) {
      std::swap(lhs, rhs);
      k = k == ObjectKind::kLT   ? ObjectKind::kGT
          : k == ObjectKind::kLE ? ObjectKind::kGE
          : k == ObjectKind::kGT ? ObjectKind::kLT
                                 : ObjectKind::kLE;
    }
    auto var = lhs.as_ptr<Var>();
    if (!var || !dom_.count(var) || uses_dom(rhs, dom_)) return;
    if (negate) {
      k = k == ObjectKind::kLT   ? ObjectKind::kGE
          : k == ObjectKind::kLE ? ObjectKind::kGT
          : k == ObjectKind::kGT ? ObjectKind::kLE
                                 : ObjectKind::kLT;
    }
    Interval& d = dom_[var];
    if (!d.bounded()) return;
    if (k == ObjectKind::kLT || k == ObjectKind::kLE) {
      Ref<PrimExpr> hi =
          k == ObjectKind::kLT ? arith(ObjectKind::kSub, rhs, int_imm(rhs->dtype, 1)) : rhs;
      if (auto diff = const_difference(hi, d.max); diff && *diff < 0) d.max = hi;
    } else {
      Ref<PrimExpr> lo =
          k == ObjectKind::kGT ? arith(ObjectKind::kAdd, rhs, int_imm(rhs->dtype, 1)) : rhs;
      if (auto diff = const_difference(lo, d.min); diff && *diff > 0) d.min = lo;
    }
  }
};

class Completer {
 public:
  Completer(Frontend& fe, const std::unordered_map<const Block*, DetectMask>& masks)
      : fe_(fe), masks_(masks) {}

  std::unordered_map<const Var*, Ref<Buffer>> visible;
  bool contains_block = false;

  void stmt(const Ref<Stmt>& s) {
    if (!s) return;
    switch (s->kind()) {
      case ObjectKind::kBlockRealize:
        contains_block = true;
        block(s.as_ptr<BlockRealize>()->block);
        return;
      case ObjectKind::kBlock:
        block(s.as<Block>());
        return;
      case ObjectKind::kSeqStmt:
        for (const auto& x : s.as_ptr<SeqStmt>()->seq) stmt(x);
        return;
      case ObjectKind::kFor:
        stmt(s.as_ptr<For>()->body);
        return;
      case ObjectKind::kWhile:
        stmt(s.as_ptr<While>()->body);
        return;
      case ObjectKind::kIfThenElse:
        stmt(s.as_ptr<IfThenElse>()->then_case);
        stmt(s.as_ptr<IfThenElse>()->else_case);
        return;
      case ObjectKind::kLetStmt:
        stmt(s.as_ptr<LetStmt>()->body);
        return;
      case ObjectKind::kAttrStmt:
        stmt(s.as_ptr<AttrStmt>()->body);
        return;
      case ObjectKind::kAssertStmt:
        stmt(s.as_ptr<AssertStmt>()->body);
        return;
      case ObjectKind::kAllocate:
        stmt(s.as_ptr<Allocate>()->body);
        return;
      case ObjectKind::kDeclBuffer:
        stmt(s.as_ptr<DeclBuffer>()->body);
        return;
      case ObjectKind::kBufferRealize:
        stmt(s.as_ptr<BufferRealize>()->body);
        return;
      default:
        return;
    }
  }

 private:
  void block(const Ref<Block>& b) {
    if (!b) return;
    for (const auto& a : b->alloc_buffers) visible[a->data.get()] = a;
    for (const auto& m : b->match_buffers) visible[m->buffer->data.get()] = m->buffer;
    stmt(b->init);
    stmt(b->body);
    for (const auto& a : b->alloc_buffers) visible.erase(a->data.get());
    for (const auto& m : b->match_buffers) visible.erase(m->buffer->data.get());
    auto it = masks_.find(b.get());
    if (it == masks_.end() || (!it->second.reads && !it->second.writes)) return;
    Detector d(visible);
    d.run(b);
    if (!d.opaques.empty()) {
      fe_.error("E0607", b->span,
                "cannot detect the regions block `" + b->name_hint +
                    "` accesses: its body uses a buffer's data pointer directly; write "
                    "T.reads(...) and T.writes(...)");
      return;
    }
    std::vector<Ref<BufferRegion>> writes = d.collect(d.writes, {});
    std::unordered_set<const Buffer*> excluded;
    if (b->init) {
      for (const auto& w : writes) excluded.insert(w->buffer.get());
    }
    if (it->second.reads) b->reads = d.collect(d.reads, excluded);
    if (it->second.writes) b->writes = writes;
  }

  Frontend& fe_;
  const std::unordered_map<const Block*, DetectMask>& masks_;
};

}  // namespace

Ref<Stmt> complete_prim_func(Frontend& fe, const Ref<PrimFunc>& func, Ref<Stmt> body,
                             const std::vector<Ref<Buffer>>& root_allocs,
                             const std::unordered_map<const Block*, DetectMask>& masks,
                             ir::Span span) {
  Completer c(fe, masks);
  for (const auto& [v, b] : func->buffer_map) c.visible[b->data.get()] = b;
  for (const auto& b : root_allocs) c.visible[b->data.get()] = b;
  bool contains_root = false;
  if (root_allocs.empty()) {
    if (auto r = body.as_ptr<BlockRealize>()) contains_root = r->block->iter_vars.empty();
  }
  c.stmt(body);
  if ((c.contains_block || !root_allocs.empty()) && !contains_root) {
    auto root = make<Block>();
    root->name_hint = "root";
    root->body = body;
    root->alloc_buffers = root_allocs;
    root->span = span;
    auto realize = make<BlockRealize>();
    realize->predicate = bool_imm(true);
    realize->block = root;
    realize->span = span;
    return realize;
  }
  return body;
}

}  // namespace relax::syntax::tirfe

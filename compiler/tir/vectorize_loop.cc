// VectorizeLoop: a vectorized loop of constant extent L (2..max_vector_lanes) whose body is
// straight-line code (stores, lets, ifs) becomes that body once, on L-lane vectors: the loop
// variable becomes `T.Ramp(min, 1, L)`, arithmetic, casts, selects and elementwise intrinsics
// work lane-wise, loads and stores take vector indices (contiguous ones become vector memory
// accesses, others gathers and scatters), and an `if` whose condition differs across lanes
// becomes a predicate on the stores and loads under it (masked memory accesses: the tail of a
// split loop stays in bounds). A loop whose body has nested loops, allocations, calls with side
// effects, or a store of a lane-varying value to one address (a reduction) stays a loop, which
// the code generator hands to LLVM's loop vectorizer. Loops of other kinds are left alone.
#include <unordered_set>

#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

bool is_lanewise_intrinsic(const std::string& op) {
  static const std::unordered_set<std::string> kOps = {
      "tir.exp",        "tir.exp2",        "tir.exp10",      "tir.log",         "tir.log2",
      "tir.log10",      "tir.log1p",       "tir.sqrt",       "tir.rsqrt",       "tir.tanh",
      "tir.sigmoid",    "tir.erf",         "tir.fabs",       "tir.floor",       "tir.ceil",
      "tir.round",      "tir.nearbyint",   "tir.trunc",      "tir.sin",         "tir.cos",
      "tir.tan",        "tir.sinh",        "tir.cosh",       "tir.asin",        "tir.acos",
      "tir.atan",       "tir.asinh",       "tir.acosh",      "tir.atanh",       "tir.pow",
      "tir.fmod",       "tir.atan2",       "tir.hypot",      "tir.copysign",    "tir.nextafter",
      "tir.ldexp",      "tir.isnan",       "tir.isinf",      "tir.isfinite",    "tir.popcount",
      "tir.clz",        "tir.bitwise_and", "tir.bitwise_or", "tir.bitwise_xor", "tir.bitwise_not",
      "tir.shift_left", "tir.shift_right", "tir.likely",     "tir.reinterpret",
  };
  return kOps.count(op) > 0;
}

bool is_vec(const Ref<PrimExpr>& e) {
  return e && e->dtype.lanes() != 1;
}

class Vectorizer {
 public:
  Vectorizer(const Ref<Var>& var, const Ref<PrimExpr>& min, int lanes)
      : var_(var), min_(min), lanes_(lanes) {}
  bool failed = false;

  Ref<Stmt> stmt(const Ref<Stmt>& s) {
    if (failed || !s) return s;
    switch (s->kind()) {
      case ObjectKind::kBufferStore:
        return store(s.as<irt::BufferStore>());
      case ObjectKind::kLetStmt: {
        auto l = s.as<irt::LetStmt>();
        auto v = expr(l->value);
        Ref<Var> var = l->var;
        if (is_vec(v)) {
          auto nv = make<Var>(l->var->name, l->var->dtype.with_lanes(lanes_));
          lets_[l->var.get()] = nv;
          var = nv;
        }
        auto body = stmt(l->body);
        if (v.same_as(l->value) && body.same_as(l->body) && var.same_as(l->var)) return s;
        return make<irt::LetStmt>(var, v, body);
      }
      case ObjectKind::kSeqStmt: {
        std::vector<Ref<Stmt>> out;
        for (const auto& x : s.as<irt::SeqStmt>()->seq) out.push_back(stmt(x));
        return make<irt::SeqStmt>(std::move(out));
      }
      case ObjectKind::kIfThenElse: {
        auto i = s.as<irt::IfThenElse>();
        auto c = expr(i->condition);
        if (!is_vec(c)) {
          return make<irt::IfThenElse>(c, stmt(i->then_case),
                                       i->else_case ? stmt(i->else_case) : nullptr);
        }
        Ref<PrimExpr> saved = pred_;
        pred_ = pred_ ? binary(ObjectKind::kAnd, pred_, c) : c;
        auto t = stmt(i->then_case);
        Ref<Stmt> e;
        if (i->else_case) {
          pred_ = saved ? binary(ObjectKind::kAnd, saved, make<irt::Not>(c))
                        : Ref<PrimExpr>(make<irt::Not>(c));
          e = stmt(i->else_case);
        }
        pred_ = saved;
        return seq({t, e});
      }
      case ObjectKind::kEvaluate:
        if (is_no_op(s)) return s;
        failed = true;
        return s;
      default:
        failed = true;  // loops, allocations, asserts, attributes: keep the loop
        return s;
    }
  }

  Ref<PrimExpr> expr(const Ref<PrimExpr>& e) {
    if (failed || !e) return e;
    switch (e->kind()) {
      case ObjectKind::kTirVar: {
        if (e.same_as(var_))
          return make<irt::Ramp>(var_->dtype.with_lanes(lanes_), cast(var_->dtype, min_),
                                 irt::int_imm(var_->dtype, 1), irt::int32(lanes_));
        auto it = lets_.find(e.as_ptr<Var>());
        return it == lets_.end() ? e : Ref<PrimExpr>(it->second);
      }
      case ObjectKind::kIntImm:
      case ObjectKind::kFloatImm:
      case ObjectKind::kTirStringImm:
        return e;
      case ObjectKind::kCast: {
        auto c = e.as<irt::Cast>();
        auto v = expr(c->value);
        if (!is_vec(v)) return v.same_as(c->value) ? e : make<irt::Cast>(c->dtype, v);
        return make<irt::Cast>(c->dtype.with_lanes(lanes_), v);
      }
      case ObjectKind::kNot: {
        auto v = expr(e.as<irt::Not>()->a);
        return v.same_as(e.as<irt::Not>()->a) ? e : make<irt::Not>(v);
      }
      case ObjectKind::kSelect: {
        auto s = e.as<irt::Select>();
        auto c = expr(s->condition), t = expr(s->true_value), f = expr(s->false_value);
        if (!is_vec(c) && !is_vec(t) && !is_vec(f)) {
          if (c.same_as(s->condition) && t.same_as(s->true_value) && f.same_as(s->false_value))
            return e;
          return make<irt::Select>(c, t, f);
        }
        return make<irt::Select>(widen(c), widen(t), widen(f));
      }
      case ObjectKind::kBufferLoad:
        return load(e.as<irt::BufferLoad>());
      case ObjectKind::kLet: {
        auto l = e.as<irt::Let>();
        auto v = expr(l->value);
        Ref<Var> var = l->var;
        if (is_vec(v)) {
          auto nv = make<Var>(l->var->name, l->var->dtype.with_lanes(lanes_));
          lets_[l->var.get()] = nv;
          var = nv;
        }
        auto body = expr(l->body);
        if (v.same_as(l->value) && body.same_as(l->body)) return e;
        return make<irt::Let>(var, v, body);
      }
      case ObjectKind::kTirCall:
        return call(e.as<irt::Call>());
      case ObjectKind::kRamp:
      case ObjectKind::kBroadcast:
      case ObjectKind::kShuffle:
      case ObjectKind::kReduce:
        failed = true;
        return e;
      default:
        return binary_op(e.as<irt::BinaryOp>());
    }
  }

 private:
  Ref<PrimExpr> widen(const Ref<PrimExpr>& e) {
    if (is_vec(e)) return e;
    return make<irt::Broadcast>(e->dtype.with_lanes(lanes_), e, irt::int32(lanes_));
  }

  Ref<PrimExpr> binary_op(const Ref<irt::BinaryOp>& op) {
    auto a = expr(op->a), b = expr(op->b);
    if (failed) return op;
    if (!is_vec(a) && !is_vec(b)) {
      if (a.same_as(op->a) && b.same_as(op->b)) return op;
      return irt::binary(op->kind(), a, b);
    }
    ObjectKind k = op->kind();
    // Keep index arithmetic as ramps: ramp +- scalar, ramp * constant.
    auto ra = a.as<irt::Ramp>(), rb = b.as<irt::Ramp>();
    if (a->dtype.is_int() || a->dtype.is_uint()) {
      auto ramp = [&](Ref<PrimExpr> base, Ref<PrimExpr> stride) -> Ref<PrimExpr> {
        DataType t = index_type(base, stride);
        return make<irt::Ramp>(t.with_lanes(lanes_), cast(t, base), cast(t, stride),
                               irt::int32(lanes_));
      };
      if (k == ObjectKind::kAdd) {
        if (ra && !is_vec(b)) return ramp(add(ra->base, b), ra->stride);
        if (rb && !is_vec(a)) return ramp(add(a, rb->base), rb->stride);
        if (ra && rb) return ramp(add(ra->base, rb->base), add(ra->stride, rb->stride));
      }
      if (k == ObjectKind::kSub) {
        if (ra && !is_vec(b)) return ramp(sub(ra->base, b), ra->stride);
        if (ra && rb) return ramp(sub(ra->base, rb->base), sub(ra->stride, rb->stride));
      }
      if (k == ObjectKind::kMul) {
        if (ra && !is_vec(b)) return ramp(mul(ra->base, b), mul(ra->stride, b));
        if (rb && !is_vec(a)) return ramp(mul(a, rb->base), mul(a, rb->stride));
      }
      bool division = k == ObjectKind::kDiv || k == ObjectKind::kMod ||
                      k == ObjectKind::kFloorDiv || k == ObjectKind::kFloorMod;
      // A lane-varying divisor under a predicate could divide by what a masked load left.
      if (division && is_vec(b) && pred_) {
        failed = true;
        return op;
      }
    }
    return irt::binary(k, widen(a), widen(b));
  }

  Ref<PrimExpr> load(const Ref<irt::BufferLoad>& l) {
    std::vector<Ref<PrimExpr>> idx;
    bool vec = false;
    for (const auto& i : l->indices) {
      idx.push_back(expr(i));
      vec |= is_vec(idx.back());
    }
    if (failed) return l;
    if (!vec) {
      bool same = true;
      for (size_t i = 0; i < idx.size(); ++i) same &= idx[i].same_as(l->indices[i]);
      if (same) return l;
      auto n = ir::copy(l);
      n->indices = std::move(idx);
      return n;
    }
    for (auto& i : idx) i = widen(i);
    auto n = make<irt::BufferLoad>(l->buffer->dtype.with_lanes(lanes_), l->buffer, std::move(idx));
    n->predicate = pred_;
    n->span = l->span;
    return n;
  }

  Ref<PrimExpr> call(const Ref<irt::Call>& c) {
    if (c->op == "tir.if_then_else" && c->args.size() == 3) {
      auto cond = expr(c->args[0]);
      if (!is_vec(cond)) {
        auto t = expr(c->args[1]), f = expr(c->args[2]);
        if (!is_vec(t) && !is_vec(f)) {
          if (cond.same_as(c->args[0]) && t.same_as(c->args[1]) && f.same_as(c->args[2])) return c;
          return make<irt::Call>(c->dtype, c->op, std::vector<Ref<PrimExpr>>{cond, t, f});
        }
        return make<irt::Call>(c->dtype.with_lanes(lanes_), c->op,
                               std::vector<Ref<PrimExpr>>{cond, widen(t), widen(f)});
      }
      // Lane-varying condition: both sides on all lanes, their loads masked by their side's lanes.
      Ref<PrimExpr> saved = pred_;
      pred_ = saved ? binary(ObjectKind::kAnd, saved, cond) : cond;
      auto t = expr(c->args[1]);
      pred_ = saved ? binary(ObjectKind::kAnd, saved, make<irt::Not>(cond))
                    : Ref<PrimExpr>(make<irt::Not>(cond));
      auto f = expr(c->args[2]);
      pred_ = saved;
      return make<irt::Select>(cond, widen(t), widen(f));
    }
    std::vector<Ref<PrimExpr>> args;
    bool vec = false, changed = false;
    for (const auto& a : c->args) {
      args.push_back(expr(a));
      vec |= is_vec(args.back());
      changed |= !args.back().same_as(a);
    }
    if (failed) return c;
    if (!vec) {
      if (c->op == "tir.call_extern" || c->op == "tir.call_llvm_intrin" || c->op == "tir.ret" ||
          c->op.starts_with("@")) {
        failed = true;  // may have side effects (or return): must run once per lane
        return c;
      }
      return changed ? make<irt::Call>(c->dtype, c->op, std::move(args)) : Ref<PrimExpr>(c);
    }
    if (!is_lanewise_intrinsic(c->op)) {
      failed = true;
      return c;
    }
    for (auto& a : args) a = widen(a);
    return make<irt::Call>(c->dtype.with_lanes(lanes_), c->op, std::move(args));
  }

  Ref<Stmt> store(const Ref<irt::BufferStore>& s) {
    auto v = expr(s->value);
    std::vector<Ref<PrimExpr>> idx;
    bool vec = false;
    for (const auto& i : s->indices) {
      idx.push_back(expr(i));
      vec |= is_vec(idx.back());
    }
    if (failed) return s;
    if (!vec) {
      // The same address on every lane: fine only for the same value and no mask.
      if (is_vec(v) || pred_) {
        failed = true;
        return s;
      }
      auto n = ir::copy(s);
      n->value = v;
      n->indices = std::move(idx);
      return n;
    }
    for (auto& i : idx) i = widen(i);
    auto n = make<irt::BufferStore>(s->buffer, widen(v), std::move(idx));
    n->predicate = pred_;
    n->span = s->span;
    return n;
  }

  static Ref<PrimExpr> binary(ObjectKind k, Ref<PrimExpr> a, Ref<PrimExpr> b) {
    return irt::binary(k, a, b);
  }

  Ref<Var> var_;
  Ref<PrimExpr> min_;
  int lanes_;
  Ref<PrimExpr> pred_;  // lanes that run the current statement, null = all
  std::unordered_map<const Var*, Ref<Var>> lets_;
};

class LoopVectorizer : public irt::Mutator {
 public:
  explicit LoopVectorizer(int max_lanes) : max_lanes_(max_lanes) {}

  Ref<Stmt> mutate_for(const Ref<irt::For>& loop) override {
    auto r = Mutator::mutate_for(loop).as<irt::For>();
    if (r->for_kind != irt::ForKind::kVectorized) return r;
    auto extent = irt::as_const_int(r->extent);
    if (!extent || *extent < 2 || *extent > max_lanes_) return r;
    Vectorizer v(r->loop_var, r->min, static_cast<int>(*extent));
    Ref<Stmt> body = v.stmt(r->body);
    if (v.failed) return r;
    return body;
  }

 private:
  int max_lanes_;
};

}  // namespace

Ref<PrimFunc> vectorize_loop(const Ref<PrimFunc>& f, LowerContext& ctx) {
  if (!ctx.options.explicit_vectors) return f;
  LoopVectorizer m(ctx.options.max_vector_lanes);
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir

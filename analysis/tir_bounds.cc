// Check-time bounds of TIR buffer accesses and block iteration bindings (tir_bounds.h).
//
// Each access is first tried for a proof that it is in bounds, under the ranges of the loops,
// the domains of the block iteration variables, let bindings and branch conditions around it.
// When that fails, a witness is looked for: the loop variables the index depends on are set to
// the ends of their ranges (every combination, for up to kMaxCornerVars of them), block
// variables and lets are replaced by the values bound to them, and the corner counts when every
// enclosing loop runs there and every enclosing condition holds. An index provably outside the
// shape at such a corner is an error; anything else is left alone (the instrumented build,
// `--bounds-check`, checks the rest at run time).
#include "analysis/tir_bounds.h"

#include <memory>
#include <unordered_set>
#include <vector>

#include "analysis/arith/analyzer.h"
#include "analysis/arith/expr_text.h"
#include "analysis/use_span.h"
#include "ir/tir_visitor.h"

namespace relax::analysis {

namespace {

namespace tir = ir::tir;
using arith::Analyzer;
using arith::ConstraintScope;
using ir::ObjectKind;
using ir::Ref;
using tir::PrimExpr;
using tir::Var;

constexpr const char* kAccessOutOfBounds = "E0423";
constexpr const char* kIterVarDomain = "E0424";
// Loop variables an index may depend on for every corner of their ranges to be tried (2^6
// corners); with more, only the two corners of all-lowest and all-highest values are tried.
constexpr size_t kMaxCornerVars = 6;

// What encloses an access: a loop (or thread launch) over [min, min + extent), a value bound
// to a variable (a let, a block iteration variable's binding, with its domain), a condition.
struct Scope {
  enum class Kind { kLoop, kValue, kBlockVar, kCondition };
  Kind kind;
  Ref<Var> var;
  Ref<PrimExpr> min, extent;  // kLoop; kBlockVar: the domain
  Ref<PrimExpr> value;        // kValue; kBlockVar: the binding
  Ref<PrimExpr> condition;    // kCondition
};

class VarCollector : public tir::Visitor {
 public:
  std::unordered_set<const Var*> vars;
  void visit_var(const Ref<Var>& v) override { vars.insert(v.get()); }
};

std::unordered_set<const Var*> vars_of(const std::vector<Ref<PrimExpr>>& exprs) {
  VarCollector c;
  for (const auto& e : exprs)
    if (e) c.visit_expr(e);
  return c.vars;
}

Ref<PrimExpr> add(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  return tir::binary(ObjectKind::kAdd, a, b);
}
Ref<PrimExpr> sub(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  return tir::binary(ObjectKind::kSub, a, b);
}
Ref<PrimExpr> int_like(const Ref<PrimExpr>& e, int64_t v) {
  return tir::int_imm(
      e->dtype.is_integer_like() && !e->dtype.is_bool() ? e->dtype : ir::DataType::Int64(), v);
}

std::string shape_text(const tir::Buffer& b) {
  std::string s = "[";
  for (size_t i = 0; i < b.shape.size(); ++i) s += (i ? ", " : "") + arith::expr_text(b.shape[i]);
  return s + "]";
}

class BoundsChecker : public tir::Visitor {
 public:
  BoundsChecker(const tir::PrimFunc& func, std::string name, ir::DiagnosticBag& diags)
      : func_(func), name_(std::move(name)), diags_(diags) {}

  bool run() {
    // Shape variables of the signature's buffers come from tensor shapes: never negative.
    for (const auto& [param, buf] : func_.buffer_map) {
      for (const auto& d : buf->shape)
        if (auto v = d.as<Var>()) shape_vars_.push_back(v);
    }
    at_ = func_.body ? func_.body->span : func_.span;
    visit_stmt(func_.body);
    return ok_;
  }

  void visit_stmt(const Ref<tir::Stmt>& s) override {
    if (!s) return;
    ir::Span saved = at_;
    if (s->span.is_known()) at_ = s->span;
    tir::Visitor::visit_stmt(s);
    at_ = saved;
  }

  void visit_for(const Ref<tir::For>& s) override {
    visit_expr(s->min);
    visit_expr(s->extent);
    scopes_.push_back({Scope::Kind::kLoop, s->loop_var, s->min, s->extent, nullptr, nullptr});
    visit_stmt(s->body);
    scopes_.pop_back();
  }

  void visit_attr_stmt(const Ref<tir::AttrStmt>& s) override {
    auto iv = s->node.as<tir::IterVar>();
    if (iv && iv->var && s->value && s->attr_key == "thread_extent") {
      visit_expr(s->value);
      scopes_.push_back(
          {Scope::Kind::kLoop, iv->var, int_like(s->value, 0), s->value, nullptr, nullptr});
      visit_stmt(s->body);
      scopes_.pop_back();
      return;
    }
    tir::Visitor::visit_attr_stmt(s);
  }

  void visit_let_stmt(const Ref<tir::LetStmt>& s) override {
    visit_expr(s->value);
    scopes_.push_back({Scope::Kind::kValue, s->var, nullptr, nullptr, s->value, nullptr});
    visit_stmt(s->body);
    scopes_.pop_back();
  }

  void visit_let(const Ref<tir::Let>& e) override {
    visit_expr(e->value);
    scopes_.push_back({Scope::Kind::kValue, e->var, nullptr, nullptr, e->value, nullptr});
    visit_expr(e->body);
    scopes_.pop_back();
  }

  void visit_if_then_else(const Ref<tir::IfThenElse>& s) override {
    visit_expr(s->condition);
    conditional(s->condition, [&] { visit_stmt(s->then_case); });
    if (s->else_case) conditional(negate(s->condition), [&] { visit_stmt(s->else_case); });
  }

  void visit_while(const Ref<tir::While>& s) override {
    visit_expr(s->condition);
    conditional(s->condition, [&] { visit_stmt(s->body); });
  }

  // Both arms of a Select may be evaluated, but code relies on the condition to keep an arm's
  // index meaningful (padding); like T.if_then_else and `and`/`or`, an arm counts only where
  // its condition holds, so that no error is reported that cannot happen.
  void visit_select(const Ref<tir::Select>& e) override {
    visit_expr(e->condition);
    conditional(e->condition, [&] { visit_expr(e->true_value); });
    conditional(negate(e->condition), [&] { visit_expr(e->false_value); });
  }

  void visit_call(const Ref<tir::Call>& e) override {
    if (e->op == "tir.if_then_else" && e->args.size() == 3) {
      visit_expr(e->args[0]);
      conditional(e->args[0], [&] { visit_expr(e->args[1]); });
      conditional(negate(e->args[0]), [&] { visit_expr(e->args[2]); });
      return;
    }
    tir::Visitor::visit_call(e);
  }

  void visit_binary(const Ref<tir::BinaryOp>& e) override {
    if (e->kind() == ObjectKind::kAnd || e->kind() == ObjectKind::kOr) {
      visit_expr(e->a);
      conditional(e->kind() == ObjectKind::kAnd ? e->a : negate(e->a), [&] { visit_expr(e->b); });
      return;
    }
    tir::Visitor::visit_binary(e);
  }

  void visit_reduce(const Ref<tir::Reduce>&) override {}  // its axes are not loops here

  // A predicated (masked) vector access touches only the lanes its mask enables, which a
  // vectorized split's last chunk relies on: its indices are not checked lane by lane here
  // (unless the mask enables every lane).
  static bool every_lane(const Ref<PrimExpr>& predicate) {
    if (!predicate) return true;
    auto b = predicate.as<tir::Broadcast>();
    return tir::is_const_int(b ? b->value : predicate, 1);
  }

  void visit_buffer_load(const Ref<tir::BufferLoad>& e) override {
    if (every_lane(e->predicate)) check_access(*e->buffer, e->indices, e->span);
    tir::Visitor::visit_buffer_load(e);
  }

  void visit_buffer_store(const Ref<tir::BufferStore>& s) override {
    if (every_lane(s->predicate)) check_access(*s->buffer, s->indices, s->span);
    tir::Visitor::visit_buffer_store(s);
  }

  void visit_block_realize(const Ref<tir::BlockRealize>& s) override {
    for (const auto& v : s->iter_values) visit_expr(v);
    visit_expr(s->predicate);
    const tir::Block& block = *s->block;
    bool has_predicate = s->predicate && !tir::is_const_int(s->predicate, 1);
    if (has_predicate) scopes_.push_back(condition_scope(s->predicate));
    size_t n = std::min(block.iter_vars.size(), s->iter_values.size());
    for (size_t i = 0; i < n; ++i) check_binding(block, *block.iter_vars[i], s->iter_values[i], s);
    if (has_predicate) scopes_.pop_back();
    size_t depth = scopes_.size();
    for (size_t i = 0; i < n; ++i) {
      const tir::IterVar& iv = *block.iter_vars[i];
      if (!iv.var) continue;
      Ref<PrimExpr> min = iv.dom ? iv.dom->min : nullptr,
                    extent = iv.dom ? iv.dom->extent : nullptr;
      scopes_.push_back({Scope::Kind::kBlockVar, iv.var, min, extent, s->iter_values[i], nullptr});
    }
    if (has_predicate) scopes_.push_back(condition_scope(s->predicate));
    if (block.init) {
      // The init runs where every reduction variable is at the start of its domain.
      size_t before_init = scopes_.size();
      for (const auto& iv : block.iter_vars) {
        if (iv->iter_type == tir::IterType::kCommReduce && iv->dom && iv->var)
          scopes_.push_back(condition_scope(tir::binary(ObjectKind::kEQ, iv->var, iv->dom->min)));
      }
      visit_stmt(block.init);
      scopes_.resize(before_init);
    }
    for (const auto& m : block.match_buffers) visit_region(m->source);
    visit_stmt(block.body);
    scopes_.resize(depth);
  }

 private:
  // Where `e` is written inside `within`: a variable's span is its definition, so a variable is
  // found by name in the enclosing text.
  static ir::Span use_span(const Ref<PrimExpr>& e, ir::Span within) {
    ir::Span where;
    if (auto v = e.as<Var>()) {
      where = find_identifier(within, v->name);
    } else if (e->span.is_known()) {
      where = e->span;
    }
    return where.is_known() ? where : within;
  }
  static Ref<PrimExpr> negate(const Ref<PrimExpr>& c) { return ir::make<tir::Not>(c); }
  static Scope condition_scope(const Ref<PrimExpr>& c) {
    return {Scope::Kind::kCondition, nullptr, nullptr, nullptr, nullptr, c};
  }
  template <class F>
  void conditional(const Ref<PrimExpr>& c, F&& body) {
    scopes_.push_back(condition_scope(c));
    body();
    scopes_.pop_back();
  }

  // Where a check failed: the value reached and the loop values it is reached at.
  struct Witness {
    Ref<PrimExpr> value;
    std::string at;  // "i = 31, j = 0", or "" for an index that depends on no loop
    bool below = false;
  };

  void check_access(const tir::Buffer& buffer, const std::vector<Ref<PrimExpr>>& indices,
                    ir::Span span) {
    if (indices.size() != buffer.shape.size()) return;  // E0420, reported elsewhere
    for (size_t d = 0; d < indices.size(); ++d) {
      const Ref<PrimExpr>& index = indices[d];
      const Ref<PrimExpr>& extent = buffer.shape[d];
      if (!index || !extent || !index->dtype.is_integer_like() || !extent->dtype.is_integer_like())
        continue;
      std::vector<Ref<PrimExpr>> scalars;
      if (auto ramp = index.as<tir::Ramp>()) {
        auto lanes = tir::as_const_int(ramp->lanes);
        if (!lanes || *lanes < 1) continue;
        scalars = {ramp->base, add(ramp->base, tir::binary(ObjectKind::kMul, ramp->stride,
                                                           int_like(ramp->stride, *lanes - 1)))};
      } else if (index->dtype.is_vector()) {
        continue;
      } else {
        scalars = {index};
      }
      for (const auto& scalar : scalars) {
        auto w = outside(scalar, int_like(extent, 0), extent);
        if (!w) continue;
        ir::Span where = use_span(index, span.is_known() ? span : at_);
        std::string text = "prim_func `" + name_ + "`: the index `" + arith::expr_text(index) +
                           "` of dimension " + std::to_string(d) + " of buffer `" + buffer.name +
                           "` (shape " + shape_text(buffer) + ") reaches " +
                           arith::expr_text(w->value) + (w->at.empty() ? "" : " at " + w->at);
        text += w->below
                    ? ", below 0"
                    : ", past the end of the dimension (extent " + arith::expr_text(extent) + ")";
        error(kAccessOutOfBounds, where, text);
        return;  // one report per access
      }
    }
  }

  void check_binding(const tir::Block& block, const tir::IterVar& iv, const Ref<PrimExpr>& value,
                     const Ref<tir::BlockRealize>& realize) {
    if (!iv.dom || !iv.var || !value || !value->dtype.is_integer_like()) return;
    ir::Span where = use_span(value, realize->span.is_known() ? realize->span : at_);
    Analyzer az;
    auto extent = tir::as_const_int(az.simplify(iv.dom->extent));
    if (extent && *extent < 0) {
      ir::Span dom_span = iv.dom->extent->span.is_known() ? iv.dom->extent->span : where;
      error(kIterVarDomain, dom_span,
            "prim_func `" + name_ + "`: block `" + block.name_hint + "`: the iteration variable `" +
                iv.var->name + "` has a negative domain extent (" + std::to_string(*extent) +
                "); a domain is [min, min + extent) with extent >= 0");
      return;
    }
    auto w = outside(value, iv.dom->min, add(iv.dom->min, iv.dom->extent));
    if (!w) return;
    error(kIterVarDomain, where,
          "prim_func `" + name_ + "`: block `" + block.name_hint +
              "` binds its iteration variable `" + iv.var->name + "` to `" +
              arith::expr_text(value) + "`, which reaches " + arith::expr_text(w->value) +
              (w->at.empty() ? "" : " at " + w->at) + ", outside its domain [" +
              arith::expr_text(iv.dom->min) + ", " +
              arith::expr_text(az.simplify(add(iv.dom->min, iv.dom->extent))) + ")");
  }

  // A witness that `e` leaves [lo, hi) where it is evaluated, or nullopt when it provably stays
  // inside or nothing is proven.
  std::optional<Witness> outside(const Ref<PrimExpr>& e, const Ref<PrimExpr>& lo,
                                 const Ref<PrimExpr>& hi) {
    if (proven_inside(e, lo, hi)) return std::nullopt;
    // Block variables and lets become what they are bound to, innermost first.
    auto resolve = [&](Ref<PrimExpr> x) {
      if (!x) return x;
      for (size_t i = scopes_.size(); i-- > 0;) {
        const Scope& s = scopes_[i];
        if (s.kind == Scope::Kind::kValue || s.kind == Scope::Kind::kBlockVar)
          x = arith::substitute(x, arith::VarMap{{s.var, s.value}});
      }
      return x;
    };
    Ref<PrimExpr> re = resolve(e), rlo = resolve(lo), rhi = resolve(hi);
    auto used = vars_of({re, rlo, rhi});
    std::vector<size_t> corner_loops;  // indices into scopes_
    for (size_t i = 0; i < scopes_.size(); ++i) {
      if (scopes_[i].kind == Scope::Kind::kLoop && used.count(scopes_[i].var.get()))
        corner_loops.push_back(i);
    }
    std::vector<uint64_t> masks;
    if (corner_loops.size() <= kMaxCornerVars) {
      for (uint64_t m = 0; m < (uint64_t{1} << corner_loops.size()); ++m) masks.push_back(m);
    } else {
      masks = {0, ~uint64_t{0}};
    }
    for (uint64_t mask : masks) {
      if (auto w = try_corner(re, rlo, rhi, corner_loops, mask, resolve)) return w;
    }
    return std::nullopt;
  }

  bool proven_inside(const Ref<PrimExpr>& e, const Ref<PrimExpr>& lo, const Ref<PrimExpr>& hi) {
    Analyzer az;
    for (const auto& v : shape_vars_) az.mark_non_negative(v);
    std::vector<std::unique_ptr<ConstraintScope>> facts;
    for (const Scope& s : scopes_) {
      switch (s.kind) {
        case Scope::Kind::kLoop:
          az.bind(s.var, ir::make<tir::Range>(s.min, s.extent));
          break;
        case Scope::Kind::kBlockVar:
          if (s.min && s.extent) az.bind(s.var, ir::make<tir::Range>(s.min, s.extent));
          break;
        case Scope::Kind::kValue:
          az.bind(s.var, s.value);
          break;
        case Scope::Kind::kCondition:
          facts.push_back(std::make_unique<ConstraintScope>(az, s.condition));
          break;
      }
    }
    bool inside = az.can_prove_less_equal(lo, e) && az.can_prove_less(e, hi);
    facts.clear();  // before the analyzer they refer to
    return inside;
  }

  template <class Resolve>
  std::optional<Witness> try_corner(const Ref<PrimExpr>& e, const Ref<PrimExpr>& lo,
                                    const Ref<PrimExpr>& hi,
                                    const std::vector<size_t>& corner_loops, uint64_t mask,
                                    const Resolve& resolve) {
    Analyzer az;
    for (const auto& v : shape_vars_) az.mark_non_negative(v);
    std::vector<std::unique_ptr<ConstraintScope>> facts;
    std::optional<Witness> result;
    arith::VarMap corner;
    std::string at;
    auto at_corner = [&](const Ref<PrimExpr>& x) {
      return x ? az.simplify(arith::substitute(resolve(x), corner)) : x;
    };
    bool valid = true;
    size_t next = 0;
    for (size_t i = 0; i < scopes_.size() && valid; ++i) {
      const Scope& s = scopes_[i];
      if (s.kind != Scope::Kind::kLoop) continue;
      Ref<PrimExpr> min = at_corner(s.min), extent = at_corner(s.extent);
      // The loop must run at this corner: a constant extent of at least 1, or a symbolic one
      // taken to be (what holds whenever the code runs at all).
      if (auto c = tir::as_const_int(extent)) {
        if (*c < 1) valid = false;
      } else if (az.prove_less(extent, int_like(extent, 1)) == arith::Proof::kYes) {
        valid = false;
      } else {
        facts.push_back(std::make_unique<ConstraintScope>(
            az, tir::binary(ObjectKind::kGE, extent, int_like(extent, 1))));
      }
      if (!valid) break;
      bool is_corner = next < corner_loops.size() && corner_loops[next] == i;
      if (is_corner) {
        bool high = (mask >> std::min<size_t>(next, 63)) & 1;
        Ref<PrimExpr> value = az.simplify(high ? sub(add(min, extent), int_like(extent, 1)) : min);
        corner[s.var] = value;
        at += (at.empty() ? "" : ", ") + s.var->name + " = " + arith::expr_text(value);
        ++next;
      } else {
        az.bind(s.var, ir::make<tir::Range>(min, extent));
      }
    }
    // The facts taken for symbolic extents must not contradict each other.
    for (const auto& v : shape_vars_) {
      if (az.const_int_bound(v).is_empty()) valid = false;
    }
    for (const Scope& s : scopes_) {
      if (!valid) break;
      if (s.kind == Scope::Kind::kCondition && !az.can_prove(at_corner(s.condition))) valid = false;
    }
    if (valid) {
      Ref<PrimExpr> ve = at_corner(e), vlo = at_corner(lo), vhi = at_corner(hi);
      if (az.can_prove_less(ve, vlo)) {
        result = Witness{ve, at, true};
      } else if (az.can_prove_less_equal(vhi, ve)) {
        result = Witness{ve, at, false};
      }
    }
    facts.clear();
    return result;
  }

  void error(const char* code, ir::Span span, const std::string& message) {
    ok_ = false;
    diags_.error(code, span, message);
  }

  const tir::PrimFunc& func_;
  std::string name_;
  ir::DiagnosticBag& diags_;
  std::vector<Ref<Var>> shape_vars_;
  std::vector<Scope> scopes_;
  ir::Span at_;
  bool ok_ = true;
};

}  // namespace

bool check_tir_bounds(const ir::tir::PrimFunc& func, const std::string& name,
                      ir::DiagnosticBag& diags) {
  BoundsChecker checker(func, name, diags);
  return checker.run();
}

}  // namespace relax::analysis

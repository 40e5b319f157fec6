// InstrumentBoundCheckers (TVM's tir.instrument_bound_checkers, `relax build/run
// --bounds-check`): every buffer access gets a run-time check of each index against the
// buffer's shape, an assert before the statement that evaluates it, so that an out-of-bounds
// index fails the kernel with a message naming the buffer, the dimension and the index instead
// of reading or corrupting memory. Runs on blocks already lowered (N-d buffers, before
// FlattenBuffer). What it leaves alone: indices proven in bounds under the enclosing loop ranges,
// branch conditions and lets (no check is emitted); vector indices other than ramps of constant
// lanes (none exist before VectorizeLoop unless written by hand); accesses in a `T.if_then_else`
// arm are checked only where the arm is taken. A Select and `and`/`or` evaluate both operands
// (the code generator emits both), so their loads are checked unconditionally.
#include <functional>

#include "analysis/arith/analyzer.h"
#include "analysis/arith/expr_text.h"
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

namespace arith = analysis::arith;

struct BoundCheck {
  Ref<PrimExpr> condition;
  std::string message;
};

std::string shape_text(const Buffer& b) {
  std::string s = "[";
  for (size_t i = 0; i < b.shape.size(); ++i) s += (i ? ", " : "") + arith::expr_text(b.shape[i]);
  return s + "]";
}

class Instrumenter : public irt::Mutator {
 public:
  explicit Instrumenter(const PrimFunc& f) {
    for (const auto& [param, buffer] : f.buffer_map) {
      for (const auto& e : buffer->shape)
        if (auto v = e.as<Var>()) az_.mark_non_negative(v);
    }
    for (const auto& p : f.params)
      if (p->is_size_var) az_.mark_non_negative(p);
  }

  size_t emitted = 0;  // checks emitted
  size_t proven = 0;   // accesses dimensions proven in bounds (no check)

  Ref<Stmt> mutate_buffer_store(const Ref<irt::BufferStore>& s) override {
    std::vector<BoundCheck> checks;
    collect(s->value, checks);
    for (const auto& i : s->indices) collect(i, checks);
    if (s->predicate) collect(s->predicate, checks);
    add_access(*s->buffer, s->indices, checks);
    return guard(s, std::move(checks));
  }

  Ref<Stmt> mutate_evaluate(const Ref<irt::Evaluate>& s) override {
    std::vector<BoundCheck> checks;
    collect(s->value, checks);
    return guard(s, std::move(checks));
  }

  Ref<Stmt> mutate_assert_stmt(const Ref<irt::AssertStmt>& s) override {
    std::vector<BoundCheck> checks;
    collect(s->condition, checks);
    return guard(Mutator::mutate_assert_stmt(s), std::move(checks));
  }

  Ref<Stmt> mutate_let_stmt(const Ref<irt::LetStmt>& s) override {
    std::vector<BoundCheck> checks;
    collect(s->value, checks);
    Ref<Stmt> out;
    {
      arith::ConstraintScope saved(az_, const_true());
      if (s->value->dtype.is_integer_like() && s->value->dtype.is_scalar())
        az_.bind(s->var, s->value);
      out = Mutator::mutate_let_stmt(s);
    }
    return guard(out, std::move(checks));
  }

  Ref<Stmt> mutate_for(const Ref<irt::For>& s) override {
    std::vector<BoundCheck> checks;
    collect(s->min, checks);
    collect(s->extent, checks);
    Ref<Stmt> body;
    {
      arith::ConstraintScope saved(az_, const_true());
      az_.bind(s->loop_var, make<irt::Range>(s->min, s->extent));
      body = mutate_stmt(s->body);
    }
    Ref<Stmt> out = s;
    if (!body.same_as(s->body)) {
      auto n = ir::copy(s);
      n->body = body;
      out = n;
    }
    return guard(out, std::move(checks));
  }

  Ref<Stmt> mutate_while(const Ref<irt::While>& s) override {
    std::vector<BoundCheck> checks;
    collect(s->condition, checks);
    Ref<Stmt> body = mutate_stmt(s->body);
    // The condition is evaluated again after every iteration: check it there too.
    if (!checks.empty()) body = seq({body, guard(no_op(), checks)});
    Ref<Stmt> out = s;
    if (!body.same_as(s->body)) {
      auto n = ir::copy(s);
      n->body = body;
      out = n;
    }
    return guard(out, std::move(checks));
  }

  Ref<Stmt> mutate_if_then_else(const Ref<irt::IfThenElse>& s) override {
    std::vector<BoundCheck> checks;
    collect(s->condition, checks);
    Ref<Stmt> then_case, else_case;
    {
      arith::ConstraintScope scope(az_, s->condition);
      then_case = mutate_stmt(s->then_case);
    }
    if (s->else_case) {
      arith::ConstraintScope scope(az_, logical_not(s->condition));
      else_case = mutate_stmt(s->else_case);
    }
    Ref<Stmt> out = s;
    if (!then_case.same_as(s->then_case) || !else_case.same_as(s->else_case))
      out = make<irt::IfThenElse>(s->condition, then_case, else_case);
    return guard(out, std::move(checks));
  }

  Ref<Stmt> mutate_allocate(const Ref<irt::Allocate>& s) override {
    std::vector<BoundCheck> checks;
    for (const auto& e : s->extents) collect(e, checks);
    if (s->condition) collect(s->condition, checks);
    return guard(Mutator::mutate_allocate(s), std::move(checks));
  }

  Ref<Stmt> mutate_attr_stmt(const Ref<irt::AttrStmt>& s) override {
    std::vector<BoundCheck> checks;
    if (s->value) collect(s->value, checks);
    Ref<Stmt> out;
    {
      arith::ConstraintScope saved(az_, const_true());
      auto iv = s->node.as<irt::IterVar>();
      if (iv && iv->var && s->attr_key == "thread_extent" && s->value)
        az_.bind(iv->var, make<irt::Range>(irt::int_imm(s->value->dtype, 0), s->value));
      out = Mutator::mutate_attr_stmt(s);
    }
    return guard(out, std::move(checks));
  }

 private:
  // The checks for the loads `e` evaluates (post-order: a load's own indices are checked before
  // the index that uses its value), under the conditions of the T.if_then_else arms and the
  // lets that enclose each load.
  void collect(const Ref<PrimExpr>& e, std::vector<BoundCheck>& out) {
    struct Collector : irt::Visitor {
      Instrumenter& self;
      std::vector<BoundCheck>& out;
      // Conditions (a Var of null) and let bindings around the current subexpression.
      std::vector<std::pair<Ref<Var>, Ref<PrimExpr>>> context;
      Collector(Instrumenter& s, std::vector<BoundCheck>& o) : self(s), out(o) {}

      void visit_call(const Ref<irt::Call>& c) override {
        if (c->op == "tir.if_then_else" && c->args.size() == 3) {
          visit_expr(c->args[0]);
          under(nullptr, c->args[0], [&] { visit_expr(c->args[1]); });
          under(nullptr, logical_not(c->args[0]), [&] { visit_expr(c->args[2]); });
          return;
        }
        Visitor::visit_call(c);
      }
      void visit_let(const Ref<irt::Let>& l) override {
        visit_expr(l->value);
        under(l->var, l->value, [&] { visit_expr(l->body); });
      }
      void visit_buffer_load(const Ref<irt::BufferLoad>& load) override {
        Visitor::visit_buffer_load(load);
        std::vector<BoundCheck> local;
        self.add_access(*load->buffer, load->indices, local, context);
        for (auto& c : local) out.push_back(std::move(c));
      }
      void under(const Ref<Var>& var, const Ref<PrimExpr>& value,
                 const std::function<void()>& body) {
        context.emplace_back(var, value);
        body();
        context.pop_back();
      }
    };
    if (!e) return;
    Collector c(*this, out);
    c.visit_expr(e);
  }

  using Context = std::vector<std::pair<Ref<Var>, Ref<PrimExpr>>>;

  // Checks of each index of an access of `buffer`, wrapped in the enclosing context.
  void add_access(const Buffer& buffer, const std::vector<Ref<PrimExpr>>& indices,
                  std::vector<BoundCheck>& out, const Context& context = {}) {
    if (indices.size() != buffer.shape.size()) return;
    for (size_t d = 0; d < indices.size(); ++d) {
      const Ref<PrimExpr>& index = indices[d];
      const Ref<PrimExpr>& extent = buffer.shape[d];
      if (!index || !extent || !index->dtype.is_integer_like()) continue;
      std::vector<Ref<PrimExpr>> ends;
      if (auto ramp = index.as<irt::Ramp>()) {
        auto lanes = irt::as_const_int(ramp->lanes);
        if (!lanes || *lanes < 1) continue;
        ends = {ramp->base,
                add(ramp->base, mul(ramp->stride, irt::int_imm(ramp->stride->dtype, *lanes - 1)))};
      } else if (index->dtype.is_vector()) {
        continue;
      } else {
        ends = {index};
      }
      for (const auto& x : ends) {
        DataType t = index_type(x, extent);
        Ref<PrimExpr> xi = cast(t, x), n = cast(t, extent);
        Ref<PrimExpr> cond =
            logical_and(cmp(ObjectKind::kLE, irt::int_imm(t, 0), xi), cmp(ObjectKind::kLT, xi, n));
        if (context.empty() && az_.can_prove(cond)) {
          ++proven;
          continue;
        }
        // Innermost first: a condition c becomes `!c || check`, a let wraps the check in a let
        // of a fresh variable (each variable is defined once).
        for (size_t i = context.size(); i-- > 0;) {
          const auto& [var, value] = context[i];
          if (!var) {
            cond = make<irt::BinaryOp>(ObjectKind::kOr, cond->dtype, logical_not(value), cond);
          } else {
            Ref<Var> fresh = fresh_var(var->name, var->dtype);
            cond = make<irt::Let>(fresh, value, substitute(cond, VarExprMap{{var.get(), fresh}}));
          }
        }
        if (!context.empty() && az_.can_prove(cond)) {
          ++proven;
          continue;
        }
        ++emitted;
        out.push_back({cond, "buffer `" + buffer.name + "` (shape " + shape_text(buffer) +
                                 ") is accessed out of bounds: the index `" +
                                 arith::expr_text(index) + "` of dimension " + std::to_string(d) +
                                 " is not in [0, " + arith::expr_text(extent) + ")"});
      }
    }
  }

  // `s` preceded by its checks: assert(c1, m1) { assert(c2, m2) { s } }.
  static Ref<Stmt> guard(Ref<Stmt> s, std::vector<BoundCheck> checks) {
    for (size_t i = checks.size(); i-- > 0;) {
      s = make<irt::AssertStmt>(checks[i].condition, make<irt::StringImm>(checks[i].message), s);
    }
    return s;
  }

  arith::Analyzer az_;
};

}  // namespace

Ref<PrimFunc> instrument_bound_checkers(const Ref<PrimFunc>& f, LowerContext& ctx) {
  if (!ctx.options.bounds_check) return f;
  Instrumenter m(*f);
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir

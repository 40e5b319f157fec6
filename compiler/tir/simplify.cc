// Simplify: integer index arithmetic and conditions go to the analyzer's canonical form under
// the facts that hold where they appear (loop ranges, the branch conditions of enclosing ifs,
// non-negative shape variables); ifs and asserts with provable conditions are removed, loops of
// extent 0 vanish, loops of extent 1 become their body at the loop's start; floordiv/floormod of
// a provably non-negative value by a positive one become truncating division (what the CPU
// does natively). Float arithmetic is left as written (no reassociation).
#include "analysis/arith/analyzer.h"
#include "compiler/tir/lower.h"
#include "compiler/tir/util.h"

namespace relax::compiler::tir {

namespace {

namespace arith = analysis::arith;

class StmtSimplifier : public irt::Mutator {
 public:
  explicit StmtSimplifier(const PrimFunc& f) {
    for (const auto& [param, buffer] : f.buffer_map) {
      for (const auto& e : buffer->shape)
        if (auto v = e.as<Var>()) az_.mark_non_negative(v);
    }
    for (const auto& p : f.params)
      if (p->is_size_var) az_.mark_non_negative(p);
  }

  Ref<PrimExpr> mutate_expr(const Ref<PrimExpr>& e) override {
    if (!e) return e;
    bool is_index = e->dtype.is_integer_like() && e->dtype.is_scalar();
    if (!is_index || in_index_) return Mutator::mutate_expr(e);
    in_index_ = true;
    Ref<PrimExpr> r = Mutator::mutate_expr(e);
    in_index_ = false;
    r = az_.simplify(r);
    return lower_division(r);
  }

  Ref<PrimExpr> mutate_buffer_load(const Ref<irt::BufferLoad>& load) override {
    bool saved = in_index_;
    in_index_ = false;
    auto r = Mutator::mutate_buffer_load(load);
    in_index_ = saved;
    return r;
  }

  Ref<PrimExpr> mutate_call(const Ref<irt::Call>& call) override {
    bool saved = in_index_;
    in_index_ = false;
    auto r = Mutator::mutate_call(call);
    in_index_ = saved;
    return r;
  }

  Ref<Stmt> mutate_for(const Ref<irt::For>& loop) override {
    auto mn = mutate_expr(loop->min);
    auto ex = mutate_expr(loop->extent);
    if (az_.can_prove_less_equal(ex, irt::int_imm(ex->dtype, 0))) return no_op();
    if (is_one(ex)) {
      VarExprMap m{{loop->loop_var.get(), cast(loop->loop_var->dtype, mn)}};
      return mutate_stmt(substitute(loop->body, m));
    }
    az_.bind(loop->loop_var, make<irt::Range>(mn, ex));
    auto body = mutate_stmt(loop->body);
    if (is_no_op(body)) return no_op();
    if (mn.same_as(loop->min) && ex.same_as(loop->extent) && body.same_as(loop->body)) return loop;
    auto n = ir::copy(loop);
    n->min = mn;
    n->extent = ex;
    n->body = body;
    return n;
  }

  Ref<Stmt> mutate_if_then_else(const Ref<irt::IfThenElse>& s) override {
    auto cond = mutate_expr(s->condition);
    if (is_const_true(cond)) return mutate_stmt(s->then_case);
    if (is_const_false(cond)) return s->else_case ? mutate_stmt(s->else_case) : no_op();
    Ref<Stmt> then_case, else_case;
    {
      arith::ConstraintScope scope(az_, cond);
      then_case = mutate_stmt(s->then_case);
    }
    if (s->else_case) {
      arith::ConstraintScope scope(az_, logical_not(cond));
      else_case = mutate_stmt(s->else_case);
      if (is_no_op(else_case)) else_case = nullptr;
    }
    if (is_no_op(then_case) && !else_case) return no_op();
    if (cond.same_as(s->condition) && then_case.same_as(s->then_case) &&
        else_case.same_as(s->else_case))
      return s;
    return make<irt::IfThenElse>(cond, then_case, else_case);
  }

  Ref<Stmt> mutate_assert_stmt(const Ref<irt::AssertStmt>& s) override {
    auto cond = mutate_expr(s->condition);
    if (is_const_true(cond)) return mutate_stmt(s->body);
    return Mutator::mutate_assert_stmt(s);
  }

  Ref<Stmt> mutate_seq_stmt(const Ref<irt::SeqStmt>& s) override {
    auto r = Mutator::mutate_seq_stmt(s).as<irt::SeqStmt>();
    bool needs = false;
    for (const auto& x : r->seq) needs |= is_no_op(x) || x.is<irt::SeqStmt>();
    return needs ? seq(r->seq) : r;
  }

 private:
  // floordiv/floormod -> truncdiv/truncmod where the dividend is >= 0 and the divisor > 0.
  Ref<PrimExpr> lower_division(const Ref<PrimExpr>& e) {
    struct Rewriter : irt::Mutator {
      arith::Analyzer& az;
      explicit Rewriter(arith::Analyzer& a) : az(a) {}
      Ref<PrimExpr> mutate_binary(const Ref<irt::BinaryOp>& op) override {
        auto r = Mutator::mutate_binary(op).as<irt::BinaryOp>();
        if (r->kind() != ObjectKind::kFloorDiv && r->kind() != ObjectKind::kFloorMod) return r;
        if (!r->dtype.is_int()) return r;
        if (az.const_int_bound(r->a).min_value < 0 || az.const_int_bound(r->b).min_value <= 0)
          return r;
        return irt::binary(r->kind() == ObjectKind::kFloorDiv ? ObjectKind::kDiv : ObjectKind::kMod,
                           r->a, r->b);
      }
      Ref<PrimExpr> mutate_buffer_load(const Ref<irt::BufferLoad>& l) override { return l; }
    };
    if (!has_floor_division(e)) return e;
    Rewriter rw(az_);
    return rw.mutate_expr(e);
  }

  static bool has_floor_division(const Ref<PrimExpr>& e) {
    struct Finder : irt::Visitor {
      bool found = false;
      void visit_binary(const Ref<irt::BinaryOp>& op) override {
        if (op->kind() == ObjectKind::kFloorDiv || op->kind() == ObjectKind::kFloorMod)
          found = true;
        Visitor::visit_binary(op);
      }
      void visit_buffer_load(const Ref<irt::BufferLoad>&) override {}
    } f;
    f.visit_expr(e);
    return f.found;
  }

  arith::Analyzer az_;
  bool in_index_ = false;
};

}  // namespace

Ref<PrimFunc> simplify(const Ref<PrimFunc>& f, LowerContext&) {
  StmtSimplifier m(*f);
  Ref<Stmt> body = m.mutate_stmt(f->body);
  if (body.same_as(f->body)) return f;
  auto n = ir::copy(f);
  n->body = body;
  return n;
}

}  // namespace relax::compiler::tir

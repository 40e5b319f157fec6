// Helpers shared by TIR lowering, schedules and code generation.
#include "compiler/tir/util.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "analysis/arith/int_math.h"

namespace relax::compiler::tir {

using irt::as_const_int;
using irt::BinaryOp;
using irt::IntImm;
namespace arith = analysis::arith;

DataType index_type(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  DataType ta = a->dtype, tb = b->dtype;
  if (ta == tb) return ta;
  if (ta.is_bool()) return tb;
  if (tb.is_bool()) return ta;
  return ta.bits() >= tb.bits() ? ta : tb;
}

Ref<PrimExpr> cast(DataType t, Ref<PrimExpr> e) {
  if (e->dtype == t) return e;
  if (auto c = as_const_int(e)) {
    // A constant that does not fit `t` stays a Cast: the conversion happens where it runs.
    if (t.is_bool()) return irt::int_imm(t, *c != 0);
    if (t.is_integer_like() && arith::fits_dtype(t, *c) && !(t.is_uint() && t.bits() >= 64))
      return irt::int_imm(t, *c);
    if (t.is_floating()) return irt::float_imm(t, static_cast<double>(*c));
  }
  return make<irt::Cast>(t, std::move(e));
}

namespace {

// Widens both operands to their common type.
void unify(Ref<PrimExpr>& a, Ref<PrimExpr>& b) {
  DataType t = index_type(a, b);
  a = cast(t, a);
  b = cast(t, b);
}

// Constants fold only to their exact value in the operands' dtype. TVM (arith/const_fold.h)
// wraps a result past int64 or past a narrower type silently; here the node is built instead, so
// the value is computed (and wraps, as the compiled code's two's complement arithmetic does) where
// the kernel runs, and analyses that see the node never reason from a wrapped constant.
using Fold = bool (*)(int64_t, int64_t, int64_t*);
std::optional<int64_t> fold(std::optional<int64_t> a, std::optional<int64_t> b, Fold op,
                            DataType t) {
  int64_t v = 0;
  if (!a || !b || !t.is_scalar() || !op(*a, *b, &v) || !arith::fits_dtype(t, v))
    return std::nullopt;
  if (t.is_uint() && t.bits() >= 64) return std::nullopt;  // fits_dtype caps uint64 at INT64_MAX
  return v;
}
bool exact_floordiv(int64_t a, int64_t b, int64_t* out) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)) return false;
  *out = arith::floordiv_i64(a, b);
  return true;
}
bool exact_floormod(int64_t a, int64_t b, int64_t* out) {
  if (b == 0) return false;
  *out = arith::floormod_i64(a, b);
  return true;
}
bool exact_ceildiv(int64_t a, int64_t b, int64_t* out) {
  if (b <= 0 || a == std::numeric_limits<int64_t>::min()) return false;
  *out = arith::ceildiv_i64(a, b);
  return true;
}

}  // namespace

Ref<PrimExpr> add(Ref<PrimExpr> a, Ref<PrimExpr> b) {
  unify(a, b);
  auto ca = as_const_int(a), cb = as_const_int(b);
  if (auto v = fold(ca, cb, arith::checked_add, a->dtype)) return irt::int_imm(a->dtype, *v);
  if (ca && *ca == 0) return b;
  if (cb && *cb == 0) return a;
  return irt::binary(ObjectKind::kAdd, a, b);
}

Ref<PrimExpr> sub(Ref<PrimExpr> a, Ref<PrimExpr> b) {
  unify(a, b);
  auto ca = as_const_int(a), cb = as_const_int(b);
  if (auto v = fold(ca, cb, arith::checked_sub, a->dtype)) return irt::int_imm(a->dtype, *v);
  if (cb && *cb == 0) return a;
  return irt::binary(ObjectKind::kSub, a, b);
}

Ref<PrimExpr> mul(Ref<PrimExpr> a, Ref<PrimExpr> b) {
  unify(a, b);
  auto ca = as_const_int(a), cb = as_const_int(b);
  if (auto v = fold(ca, cb, arith::checked_mul, a->dtype)) return irt::int_imm(a->dtype, *v);
  if ((ca && *ca == 0) || (cb && *cb == 0)) return irt::int_imm(a->dtype, 0);
  if (ca && *ca == 1) return b;
  if (cb && *cb == 1) return a;
  return irt::binary(ObjectKind::kMul, a, b);
}

Ref<PrimExpr> floordiv(Ref<PrimExpr> a, Ref<PrimExpr> b) {
  unify(a, b);
  auto ca = as_const_int(a), cb = as_const_int(b);
  if (auto v = fold(ca, cb, exact_floordiv, a->dtype)) return irt::int_imm(a->dtype, *v);
  if (cb && *cb == 1) return a;
  return irt::binary(ObjectKind::kFloorDiv, a, b);
}

Ref<PrimExpr> floormod(Ref<PrimExpr> a, Ref<PrimExpr> b) {
  unify(a, b);
  auto ca = as_const_int(a), cb = as_const_int(b);
  if (auto v = fold(ca, cb, exact_floormod, a->dtype)) return irt::int_imm(a->dtype, *v);
  if (cb && *cb == 1) return irt::int_imm(a->dtype, 0);
  return irt::binary(ObjectKind::kFloorMod, a, b);
}

Ref<PrimExpr> ceildiv(Ref<PrimExpr> a, Ref<PrimExpr> b) {
  unify(a, b);
  auto ca = as_const_int(a), cb = as_const_int(b);
  if (auto v = fold(ca, cb, exact_ceildiv, a->dtype)) return irt::int_imm(a->dtype, *v);
  if (cb && *cb == 1) return a;
  return floordiv(add(a, sub(b, irt::int_imm(b->dtype, 1))), b);
}

Ref<PrimExpr> cmp(ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b) {
  unify(a, b);
  return irt::binary(kind, a, b);
}

Ref<PrimExpr> const_true() {
  return irt::bool_imm(true);
}

bool is_const_true(const Ref<PrimExpr>& e) {
  if (!e) return true;
  auto c = as_const_int(e);
  return c && *c != 0 && e->dtype.is_scalar();
}

bool is_const_false(const Ref<PrimExpr>& e) {
  auto c = e ? as_const_int(e) : std::nullopt;
  return c && *c == 0 && e->dtype.is_scalar();
}

bool is_one(const Ref<PrimExpr>& e) {
  return irt::is_const_int(e, 1);
}
bool is_zero(const Ref<PrimExpr>& e) {
  return irt::is_const_int(e, 0);
}

Ref<PrimExpr> logical_and(Ref<PrimExpr> a, Ref<PrimExpr> b) {
  if (is_const_true(a)) return b ? b : const_true();
  if (is_const_true(b)) return a;
  if (is_const_false(a)) return a;
  if (is_const_false(b)) return b;
  return irt::binary(ObjectKind::kAnd, a, b);
}

Ref<PrimExpr> logical_not(Ref<PrimExpr> a) {
  if (auto c = as_const_int(a)) return irt::bool_imm(*c == 0);
  return make<irt::Not>(a);
}

bool is_no_op(const Ref<Stmt>& s) {
  if (!s) return true;
  if (auto e = s.as_ptr<irt::Evaluate>()) return e->value.is<IntImm>();
  if (auto q = s.as_ptr<irt::SeqStmt>()) {
    return std::all_of(q->seq.begin(), q->seq.end(),
                       [](const Ref<Stmt>& x) { return is_no_op(x); });
  }
  return false;
}

Ref<Stmt> no_op() {
  return make<irt::Evaluate>(irt::int32(0));
}

Ref<Stmt> seq(std::vector<Ref<Stmt>> stmts) {
  std::vector<Ref<Stmt>> flat;
  std::function<void(const Ref<Stmt>&)> push = [&](const Ref<Stmt>& s) {
    if (is_no_op(s)) return;
    if (auto q = s.as_ptr<irt::SeqStmt>()) {
      for (const auto& x : q->seq) push(x);
      return;
    }
    flat.push_back(s);
  };
  for (const auto& s : stmts) push(s);
  if (flat.empty()) return no_op();
  if (flat.size() == 1) return flat[0];
  return make<irt::SeqStmt>(std::move(flat));
}

namespace {

class Substituter : public irt::Mutator {
 public:
  explicit Substituter(const VarExprMap& map) : map_(map) {}
  Ref<PrimExpr> mutate_var(const Ref<Var>& var) override {
    auto it = map_.find(var.get());
    return it == map_.end() ? Ref<PrimExpr>(var) : it->second;
  }

 private:
  const VarExprMap& map_;
};

class VarUse : public irt::Visitor {
 public:
  explicit VarUse(std::function<bool(const Var*)> pred) : pred_(std::move(pred)) {}
  void visit_var(const Ref<Var>& v) override {
    if (pred_(v.get())) found = true;
  }
  void visit_buffer_load(const Ref<irt::BufferLoad>& load) override {
    if (load->buffer->data && pred_(load->buffer->data.get())) found = true;
    Visitor::visit_buffer_load(load);
  }
  void visit_buffer_store(const Ref<irt::BufferStore>& s) override {
    if (s->buffer->data && pred_(s->buffer->data.get())) found = true;
    Visitor::visit_buffer_store(s);
  }
  bool found = false;

 private:
  std::function<bool(const Var*)> pred_;
};

class VarCollector : public irt::Visitor {
 public:
  void add(const Ref<Var>& v) {
    if (v && seen.insert(v.get()).second) vars.push_back(v);
  }
  void visit_var(const Ref<Var>& v) override { add(v); }
  void visit_buffer_load(const Ref<irt::BufferLoad>& load) override {
    add(load->buffer->data);
    if (load->buffer->elem_offset) visit_expr(load->buffer->elem_offset);
    Visitor::visit_buffer_load(load);
  }
  void visit_buffer_store(const Ref<irt::BufferStore>& s) override {
    add(s->buffer->data);
    if (s->buffer->elem_offset) visit_expr(s->buffer->elem_offset);
    Visitor::visit_buffer_store(s);
  }
  void visit_for(const Ref<irt::For>& s) override {
    add(s->loop_var);
    Visitor::visit_for(s);
  }
  void visit_allocate(const Ref<irt::Allocate>& s) override {
    add(s->buffer_var);
    Visitor::visit_allocate(s);
  }
  std::vector<Ref<Var>> vars;
  std::unordered_set<const Var*> seen;
};

}  // namespace

Ref<Stmt> substitute(const Ref<Stmt>& stmt, const VarExprMap& map) {
  if (map.empty()) return stmt;
  Substituter s(map);
  return s.mutate_stmt(stmt);
}

Ref<PrimExpr> substitute(const Ref<PrimExpr>& expr, const VarExprMap& map) {
  if (map.empty() || !expr) return expr;
  Substituter s(map);
  return s.mutate_expr(expr);
}

bool uses_any(const Ref<PrimExpr>& e, const std::function<bool(const Var*)>& pred) {
  VarUse u(pred);
  u.visit_expr(e);
  return u.found;
}

bool uses_var(const Ref<PrimExpr>& e, const Var* var) {
  return uses_any(e, [var](const Var* v) { return v == var; });
}

bool uses_var(const Ref<Stmt>& s, const Var* var) {
  VarUse u([var](const Var* v) { return v == var; });
  u.visit_stmt(s);
  return u.found;
}

std::vector<Ref<Var>> used_vars(const Ref<Stmt>& s) {
  VarCollector c;
  c.visit_stmt(s);
  return std::move(c.vars);
}

std::vector<std::string> called_functions(const Ref<Stmt>& s) {
  struct Collector : irt::Visitor {
    std::vector<std::string> names;
    void visit_call(const Ref<irt::Call>& call) override {
      if (call->op.starts_with("@")) {
        std::string name = call->op.substr(1);
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      }
      irt::Visitor::visit_call(call);
    }
  } c;
  c.visit_stmt(s);
  return std::move(c.names);
}

int64_t attr_int(const ir::Attrs& attrs, std::string_view key, int64_t fallback) {
  ir::ObjectRef v = attrs.find(key);
  if (!v) return fallback;
  if (auto i = v.as_ptr<ir::IntValue>()) return i->value;
  if (auto b = v.as_ptr<ir::BoolValue>()) return b->value ? 1 : 0;
  if (auto imm = v.as_ptr<IntImm>()) return imm->value;
  return fallback;
}

Ref<Var> fresh_var(const std::string& name, DataType t) {
  return make<Var>(name, t);
}

}  // namespace relax::compiler::tir

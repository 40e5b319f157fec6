// A direct interpreter over PrimExprs. Signed results are checked against their dtype's range;
// unsigned ones wrap as the hardware does; casts wrap (two's complement).
#include "analysis/arith/evaluate.h"

#include "analysis/arith/int_math.h"

namespace relax::analysis::arith {

namespace {

using ir::ObjectKind;
using ir::Ref;
namespace tir = ir::tir;
using Value = std::optional<int64_t>;

// Nesting other than left-nested chains recurses; deeper than this evaluates to nullopt.
constexpr int kMaxDepth = 2000;

// The value of an integer result of dtype `t`: checked for signed types, wrapped for unsigned.
Value in_dtype(ir::DataType t, __int128 v) {
  if (t.is_bool()) return v != 0;
  if (t.is_uint()) {
    if (t.bits() >= 64) return std::nullopt;  // not representable in our int64 results
    return static_cast<int64_t>(static_cast<uint64_t>(v) & ((uint64_t{1} << t.bits()) - 1));
  }
  if (v < dtype_min(t) || v > dtype_max(t)) return std::nullopt;
  return static_cast<int64_t>(v);
}

class Evaluator {
 public:
  explicit Evaluator(const Assignment& values) : values_(values) {}

  Value eval(const tir::PrimExpr* e) {
    if (!e) return std::nullopt;
    if (++depth_ > kMaxDepth) {
      --depth_;
      return std::nullopt;
    }
    Value v = eval_node(e);
    --depth_;
    return v;
  }

 private:
  Value eval_node(const tir::PrimExpr* e) {
    ir::DataType t = e->dtype;
    if (!t.is_scalar() || !t.is_integer_like()) return std::nullopt;
    switch (e->kind()) {
      case ObjectKind::kIntImm:
        return static_cast<const tir::IntImm*>(e)->value;
      case ObjectKind::kTirVar: {
        auto* v = static_cast<const tir::Var*>(e);
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) {
          if (it->first == v) return it->second;
        }
        return values_.get(v);
      }
      case ObjectKind::kCast: {
        auto* c = static_cast<const tir::Cast*>(e);
        Value x = eval(c->value.get());
        if (!x) return std::nullopt;
        if (t.is_bool()) return *x != 0;
        if (t.is_uint()) return in_dtype(t, *x);
        return wrap_to_bits(*x, t.bits());
      }
      case ObjectKind::kNot: {
        Value x = eval(static_cast<const tir::Not*>(e)->a.get());
        if (!x) return std::nullopt;
        return *x == 0;
      }
      case ObjectKind::kSelect: {
        auto* s = static_cast<const tir::Select*>(e);
        Value c = eval(s->condition.get());
        Value a = eval(s->true_value.get());
        Value b = eval(s->false_value.get());
        if (!c || !a || !b) return std::nullopt;
        return *c ? a : b;
      }
      case ObjectKind::kLet: {
        auto* l = static_cast<const tir::Let*>(e);
        Value v = eval(l->value.get());
        if (!v) return std::nullopt;
        lets_.emplace_back(l->var.get(), *v);
        Value r = eval(l->body.get());
        lets_.pop_back();
        return r;
      }
      case ObjectKind::kTirCall: {
        auto* c = static_cast<const tir::Call*>(e);
        if (c->op != "tir.if_then_else" || c->args.size() != 3) return std::nullopt;
        Value cond = eval(c->args[0].get());
        if (!cond) return std::nullopt;
        return eval(c->args[*cond ? 1 : 2].get());
      }
      default:
        break;
    }
    if (!tir::BinaryOp::classof(e)) return std::nullopt;
    // Walk the left spine iteratively so that long chains (a + b + c + ...) do not recurse.
    std::vector<const tir::BinaryOp*> spine;
    const tir::PrimExpr* node = e;
    while (node && tir::BinaryOp::classof(node) && spine.size() < (1u << 24)) {
      spine.push_back(static_cast<const tir::BinaryOp*>(node));
      node = spine.back()->a.get();
    }
    Value acc = eval(node);
    for (size_t i = spine.size(); i-- > 0 && acc;) acc = apply(spine[i], *acc);
    return acc;
  }

  // The value of `b` given the value of its left operand.
  Value apply(const tir::BinaryOp* b, int64_t left) {
    ir::DataType t = b->dtype;
    if (!b->b) return std::nullopt;
    if (!t.is_scalar() || !t.is_integer_like() || !b->a->dtype.is_integer_like() ||
        !b->b->dtype.is_integer_like()) {
      return std::nullopt;
    }
    Value y = eval(b->b.get());
    if (!y) return std::nullopt;
    __int128 u = left, w = *y;
    switch (b->kind()) {
      case ObjectKind::kAdd:
        return in_dtype(t, u + w);
      case ObjectKind::kSub:
        return in_dtype(t, u - w);
      case ObjectKind::kMul:
        return in_dtype(t, u * w);
      case ObjectKind::kDiv:
        if (w == 0) return std::nullopt;
        return in_dtype(t, u / w);
      case ObjectKind::kMod:
        if (w == 0) return std::nullopt;
        return in_dtype(t, u % w);
      case ObjectKind::kFloorDiv: {
        if (w == 0) return std::nullopt;
        __int128 q = u / w;
        if ((u % w != 0) && ((u < 0) != (w < 0))) --q;
        return in_dtype(t, q);
      }
      case ObjectKind::kFloorMod: {
        if (w == 0) return std::nullopt;
        __int128 r = u % w;
        if (r != 0 && ((r < 0) != (w < 0))) r += w;
        return in_dtype(t, r);
      }
      case ObjectKind::kMin:
        return u < w ? u : w;
      case ObjectKind::kMax:
        return u > w ? u : w;
      case ObjectKind::kEQ:
        return u == w;
      case ObjectKind::kNE:
        return u != w;
      case ObjectKind::kLT:
        return u < w;
      case ObjectKind::kLE:
        return u <= w;
      case ObjectKind::kGT:
        return u > w;
      case ObjectKind::kGE:
        return u >= w;
      case ObjectKind::kAnd:
        return u != 0 && w != 0;
      case ObjectKind::kOr:
        return u != 0 || w != 0;
      default:
        return std::nullopt;
    }
  }

  const Assignment& values_;
  std::vector<std::pair<const tir::Var*, int64_t>> lets_;
  int depth_ = 0;
};

}  // namespace

void Assignment::set(const Ref<tir::Var>& var, int64_t value) {
  for (auto& [v, x] : values_) {
    if (v == var) {
      x = value;
      return;
    }
  }
  values_.emplace_back(var, value);
}

std::optional<int64_t> Assignment::get(const tir::Var* var) const {
  for (const auto& [v, x] : values_) {
    if (v.get() == var) return x;
  }
  return std::nullopt;
}

std::optional<int64_t> evaluate(const Ref<tir::PrimExpr>& e, const Assignment& values) {
  if (!e) return std::nullopt;
  Evaluator ev(values);
  return ev.eval(e.get());
}

}  // namespace relax::analysis::arith

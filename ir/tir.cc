// TIR constructors that fill result dtypes, and small queries on PrimExprs.
#include "ir/tir.h"

namespace relax::ir::tir {

Ref<IntImm> int_imm(DataType t, int64_t v, Span span) {
  auto imm = make<IntImm>(t, v);
  imm->span = span;
  return imm;
}

Ref<IntImm> bool_imm(bool v) {
  return make<IntImm>(DataType::Bool(), v ? 1 : 0);
}

Ref<FloatImm> float_imm(DataType t, double v, Span span) {
  auto imm = make<FloatImm>(t, v);
  imm->span = span;
  return imm;
}

Ref<PrimExpr> binary(ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b, Span span) {
  DataType t = a->dtype;
  if ((kind >= ObjectKind::kEQ && kind <= ObjectKind::kGE) || kind == ObjectKind::kAnd ||
      kind == ObjectKind::kOr) {
    t = DataType::Bool(a->dtype.lanes());
  }
  auto node = make<BinaryOp>(kind, t, std::move(a), std::move(b));
  node->span = span;
  return node;
}

std::optional<int64_t> as_const_int(const Ref<PrimExpr>& e) {
  if (auto imm = e.as_ptr<IntImm>()) return imm->value;
  return std::nullopt;
}

bool is_const_int(const Ref<PrimExpr>& e, int64_t value) {
  auto v = as_const_int(e);
  return v && *v == value;
}

const char* binary_op_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kAdd:
      return "+";
    case ObjectKind::kSub:
      return "-";
    case ObjectKind::kMul:
      return "*";
    case ObjectKind::kDiv:
      return "/";
    case ObjectKind::kMod:
      return "T.truncmod";
    case ObjectKind::kFloorDiv:
      return "//";
    case ObjectKind::kFloorMod:
      return "%";
    case ObjectKind::kMin:
      return "T.min";
    case ObjectKind::kMax:
      return "T.max";
    case ObjectKind::kEQ:
      return "==";
    case ObjectKind::kNE:
      return "!=";
    case ObjectKind::kLT:
      return "<";
    case ObjectKind::kLE:
      return "<=";
    case ObjectKind::kGT:
      return ">";
    case ObjectKind::kGE:
      return ">=";
    case ObjectKind::kAnd:
      return "and";
    case ObjectKind::kOr:
      return "or";
    default:
      return "?";
  }
}

}  // namespace relax::ir::tir

// PrimExpr operators with TVM's semantics, as TVMScript's Python operators build them:
// arithmetic matches operand dtypes (a literal takes the other side's type, narrower ints are
// widened) and folds constants (`T.int64(8) * 2` is `T.int64(16)`, `x * 1` is `x`; a signed
// result outside its dtype is not folded but reported to the caller); comparisons
// and logic build plain nodes.
#pragma once

#include <optional>
#include <string_view>

#include "ir/tir.h"

namespace relax::syntax {

using ir::Ref;
using ir::tir::PrimExpr;

// `value` converted to `t`: an immediate is re-typed, anything else is wrapped in a Cast
// (nothing when the types already agree).
Ref<PrimExpr> prim_cast(ir::DataType t, Ref<PrimExpr> value, ir::Span span = {});

// Arithmetic with dtype matching and constant folding: kAdd, kSub, kMul, kDiv, kMod, kFloorDiv,
// kFloorMod, kMin, kMax. Returns null when the operand types cannot be matched (e.g. a handle).
// Two integer constants whose signed result leaves their dtype are not folded (never wrapped):
// the node stays as written and `*overflow` is set, for the caller to report at the expression.
Ref<PrimExpr> prim_arith(ir::ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b, ir::Span span = {},
                         bool* overflow = nullptr);

// Comparison or logic node (kEQ..kGE, kAnd, kOr) without folding, broadcasting a scalar operand
// to the other's lanes.
Ref<PrimExpr> prim_compare(ir::ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b,
                           ir::Span span = {});

// Brings two operands to one dtype as TVM's BinaryOpMatchTypes does (casts, broadcasts); false
// when they cannot be matched.
bool prim_match_types(Ref<PrimExpr>& a, Ref<PrimExpr>& b);

// `-x` as TVM builds it: a negated immediate, or `x * -1` (also for an immediate whose negation
// leaves its dtype, which sets `*overflow`).
Ref<PrimExpr> prim_negate(Ref<PrimExpr> x, ir::Span span = {}, bool* overflow = nullptr);

// Bitwise operators as TIR intrinsic calls ("tir.bitwise_and", "tir.shift_left", ...).
Ref<PrimExpr> prim_bitwise(std::string_view op, Ref<PrimExpr> a, Ref<PrimExpr> b,
                           ir::Span span = {});

// The immediate a Python int becomes next to an operand of type `other` (int-like: that
// type; float: that float type), per TVMScript's auto-broadcast rule.
Ref<PrimExpr> literal_like(int64_t value, ir::DataType other, ir::Span span = {});
Ref<PrimExpr> literal_like(double value, ir::DataType other, ir::Span span = {});

}  // namespace relax::syntax

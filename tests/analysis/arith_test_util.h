// Builders for arithmetic tests: X wraps a PrimExpr so that `n * 2 + m` and `fdiv(n, 4)` build
// TIR nodes; integer literals take the dtype of the other operand.
#pragma once

#include <string>

#include "analysis/arith/analyzer.h"
#include "analysis/arith/expr_text.h"
#include "ir/tir.h"

namespace arith_test {

namespace tir = relax::ir::tir;
using relax::ir::DataType;
using relax::ir::ObjectKind;
using relax::ir::Ref;

struct X {
  Ref<tir::PrimExpr> e;
  X(Ref<tir::PrimExpr> x) : e(std::move(x)) {}  // NOLINT: implicit on purpose
  template <class T>
  X(Ref<T> x) : e(std::move(x)) {}                   // NOLINT
  operator Ref<tir::PrimExpr>() const { return e; }  // NOLINT
  std::string str() const { return relax::analysis::arith::expr_text(e); }
};

inline X var(const std::string& name, DataType t = DataType::Int64()) {
  return X(relax::ir::make<tir::Var>(name, t));
}
inline X i64(int64_t v) {
  return X(tir::int64(v));
}
inline X i32(int64_t v) {
  return X(tir::int32(v));
}

inline X bin(ObjectKind k, const X& a, const X& b) {
  return X(tir::binary(k, a.e, b.e));
}
inline X lit(const X& like, int64_t v) {
  return X(tir::int_imm(like.e->dtype, v));
}

#define ARITH_TEST_OP(op, kind)                  \
  inline X operator op(const X& a, const X& b) { \
    return bin(kind, a, b);                      \
  }                                              \
  inline X operator op(const X& a, int64_t b) {  \
    return bin(kind, a, lit(a, b));              \
  }                                              \
  inline X operator op(int64_t a, const X& b) {  \
    return bin(kind, lit(b, a), b);              \
  }
ARITH_TEST_OP(+, ObjectKind::kAdd)
ARITH_TEST_OP(-, ObjectKind::kSub)
ARITH_TEST_OP(*, ObjectKind::kMul)
ARITH_TEST_OP(<, ObjectKind::kLT)
ARITH_TEST_OP(<=, ObjectKind::kLE)
ARITH_TEST_OP(>, ObjectKind::kGT)
ARITH_TEST_OP(>=, ObjectKind::kGE)
ARITH_TEST_OP(==, ObjectKind::kEQ)
ARITH_TEST_OP(!=, ObjectKind::kNE)
#undef ARITH_TEST_OP

inline X fdiv(const X& a, const X& b) {
  return bin(ObjectKind::kFloorDiv, a, b);
}
inline X fdiv(const X& a, int64_t b) {
  return fdiv(a, lit(a, b));
}
inline X fmod(const X& a, const X& b) {
  return bin(ObjectKind::kFloorMod, a, b);
}
inline X fmod(const X& a, int64_t b) {
  return fmod(a, lit(a, b));
}
inline X tdiv(const X& a, const X& b) {
  return bin(ObjectKind::kDiv, a, b);
}
inline X tdiv(const X& a, int64_t b) {
  return tdiv(a, lit(a, b));
}
inline X tmod(const X& a, const X& b) {
  return bin(ObjectKind::kMod, a, b);
}
inline X tmod(const X& a, int64_t b) {
  return tmod(a, lit(a, b));
}
inline X min(const X& a, const X& b) {
  return bin(ObjectKind::kMin, a, b);
}
inline X min(const X& a, int64_t b) {
  return min(a, lit(a, b));
}
inline X max(const X& a, const X& b) {
  return bin(ObjectKind::kMax, a, b);
}
inline X max(const X& a, int64_t b) {
  return max(a, lit(a, b));
}
inline X logical_and(const X& a, const X& b) {
  return bin(ObjectKind::kAnd, a, b);
}
inline X logical_or(const X& a, const X& b) {
  return bin(ObjectKind::kOr, a, b);
}
inline X logical_not(const X& a) {
  return X(relax::ir::make<tir::Not>(a.e));
}
inline X select(const X& c, const X& a, const X& b) {
  return X(relax::ir::make<tir::Select>(c.e, a.e, b.e));
}
inline X cast(DataType t, const X& a) {
  return X(relax::ir::make<tir::Cast>(t, a.e));
}

// The text of the simplified expression.
inline std::string simp(relax::analysis::arith::Analyzer& az, const X& e) {
  return relax::analysis::arith::expr_text(az.simplify(e.e));
}

}  // namespace arith_test

// Small helpers the TIR lowering steps, the schedule primitives and the code generator share:
// building typed index arithmetic, substituting variables in statements, collecting the
// variables a statement uses, flattening sequences.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/tir.h"
#include "ir/tir_visitor.h"

namespace relax::compiler::tir {

namespace irt = ir::tir;
using ir::DataType;
using ir::make;
using ir::ObjectKind;
using ir::Ref;
using irt::Buffer;
using irt::PrimExpr;
using irt::Stmt;
using irt::Var;

using VarExprMap = std::unordered_map<const Var*, Ref<PrimExpr>>;

// Index arithmetic with constant folding; operands of different integer widths are widened to
// the wider one (int32 loop variables meet int64 shapes in legalized code).
Ref<PrimExpr> add(Ref<PrimExpr> a, Ref<PrimExpr> b);
Ref<PrimExpr> sub(Ref<PrimExpr> a, Ref<PrimExpr> b);
Ref<PrimExpr> mul(Ref<PrimExpr> a, Ref<PrimExpr> b);
Ref<PrimExpr> floordiv(Ref<PrimExpr> a, Ref<PrimExpr> b);
Ref<PrimExpr> floormod(Ref<PrimExpr> a, Ref<PrimExpr> b);
// ceil(a / b) for non-negative a and positive b.
Ref<PrimExpr> ceildiv(Ref<PrimExpr> a, Ref<PrimExpr> b);
Ref<PrimExpr> cmp(ObjectKind kind, Ref<PrimExpr> a, Ref<PrimExpr> b);
// a && b, dropping constant-true operands (null means true).
Ref<PrimExpr> logical_and(Ref<PrimExpr> a, Ref<PrimExpr> b);
Ref<PrimExpr> logical_not(Ref<PrimExpr> a);
// `e` converted to `t` (itself when it already has that type; constants are rebuilt).
Ref<PrimExpr> cast(DataType t, Ref<PrimExpr> e);
// The common integer type of two index expressions (the wider one).
DataType index_type(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);
Ref<PrimExpr> const_true();
bool is_const_true(const Ref<PrimExpr>& e);
bool is_const_false(const Ref<PrimExpr>& e);
bool is_one(const Ref<PrimExpr>& e);
bool is_zero(const Ref<PrimExpr>& e);

// A statement sequence with nested sequences flattened and null / no-op statements dropped; a
// single statement comes back unwrapped, an empty sequence as `T.evaluate(0)`.
Ref<Stmt> seq(std::vector<Ref<Stmt>> stmts);
bool is_no_op(const Ref<Stmt>& s);
Ref<Stmt> no_op();

// Replaces variables in every expression of a statement (loop bounds, indices, values,
// conditions, block bindings and regions). Buffers and definitions are left alone.
Ref<Stmt> substitute(const Ref<Stmt>& stmt, const VarExprMap& map);
Ref<PrimExpr> substitute(const Ref<PrimExpr>& expr, const VarExprMap& map);

// True when `e` (or `s`) mentions `var`.
bool uses_var(const Ref<PrimExpr>& e, const Var* var);
bool uses_var(const Ref<Stmt>& s, const Var* var);
// True when `e` mentions any variable for which `pred` holds.
bool uses_any(const Ref<PrimExpr>& e, const std::function<bool(const Var*)>& pred);

// Every variable a statement reads (in expressions, and as data pointers and element offsets of
// the buffers it accesses), in first-use order, including ones it defines itself.
std::vector<Ref<Var>> used_vars(const Ref<Stmt>& s);

// The module functions a statement calls (`Module.f(...)`, a Call whose op is "@f"), by member
// name, in first-call order without repeats.
std::vector<std::string> called_functions(const Ref<Stmt>& s);

// The value of a PrimFunc attribute as an integer (IntValue, BoolValue or IntImm), or fallback.
int64_t attr_int(const ir::Attrs& attrs, std::string_view key, int64_t fallback);

// A fresh variable like `v` with a new name.
Ref<Var> fresh_var(const std::string& name, DataType t);

}  // namespace relax::compiler::tir

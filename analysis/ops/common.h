// Inference helpers shared by op families (SEMANTICS.md §3.0): the binary dtype rule,
// numpy-style broadcasting of symbolic shapes, axis normalization, and constructors of result
// struct info that keep the input's vdevice.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "analysis/ops/infer_context.h"

namespace relax::analysis {

using PrimExprs = std::vector<ir::Ref<ir::tir::PrimExpr>>;

// The dims of a tensor when its shape is known (a ShapeExpr, or a shape var with values).
const PrimExprs* known_shape(const ir::TensorStructInfo& t);

// Result dtype of a binary arithmetic op (§3.0): unknown (Void) if either side is unknown;
// both known and different with neither bool: reports E0307 and returns nullopt; one bool:
// the lhs dtype (TVM's quirk).
std::optional<ir::DataType> binary_arith_dtype(InferContext& ctx, ir::DataType lhs,
                                               ir::DataType rhs, size_t lhs_arg, size_t rhs_arg);

enum class BroadcastResult { kOk, kUnknown, kError };
// Broadcasts two shapes right-aligned (§3.0): literal 1 takes the other side, provably equal
// dims keep the lhs, two different literals are an error (reported at `rhs_arg`, naming both),
// anything else makes the result unknown. On kOk `out` holds the shape.
BroadcastResult broadcast_shapes(InferContext& ctx, const PrimExprs& lhs, const PrimExprs& rhs,
                                 PrimExprs& out, size_t lhs_arg, size_t rhs_arg);

// `axis` in [-ndim, ndim) made non-negative; reports E0309 (at attribute `attr`) otherwise.
std::optional<int> normalize_axis(InferContext& ctx, int64_t axis, int ndim, std::string_view attr);
// Several axes, also rejecting repeats (E0310).
std::optional<std::vector<int>> normalize_axes(InferContext& ctx, const std::vector<int64_t>& axes,
                                               int ndim, std::string_view attr);

// Result struct info constructors.
ir::Ref<ir::TensorStructInfo> tensor_with_shape(PrimExprs shape, ir::DataType dtype,
                                                ir::Ref<ir::VDevice> vdevice);
ir::Ref<ir::TensorStructInfo> tensor_with_ndim(int ndim, ir::DataType dtype,
                                               ir::Ref<ir::VDevice> vdevice);
// The input's struct info with another dtype (same shape object, ndim, vdevice).
ir::Ref<ir::TensorStructInfo> with_dtype(const ir::TensorStructInfo& t, ir::DataType dtype);

// "(2, n + 1)" for messages.
std::string shape_text(const PrimExprs& shape);
std::string dim_text(const ir::Ref<ir::tir::PrimExpr>& dim);

// ---- Helpers of the op catalogue (families beyond binary) ----

// "`x`": the argument's declared name, for messages.
std::string arg_name(const InferContext& ctx, size_t i);
// "a tensor of dtype int32" / "R.Shape([2, 3])": a short description of a struct info.
std::string sinfo_text(const ir::Ref<ir::StructInfo>& sinfo);

// int64 index arithmetic, unsimplified (callers simplify the final dims).
using ExprRef = ir::Ref<ir::tir::PrimExpr>;
ExprRef dim_const(int64_t v);
ExprRef dim_add(ExprRef a, ExprRef b);
ExprRef dim_sub(ExprRef a, ExprRef b);
ExprRef dim_mul(ExprRef a, ExprRef b);
ExprRef dim_floordiv(ExprRef a, ExprRef b);
ExprRef dim_floormod(ExprRef a, ExprRef b);
ExprRef dim_min(ExprRef a, ExprRef b);
ExprRef dim_max(ExprRef a, ExprRef b);
ExprRef dim_ceildiv(ExprRef a, ExprRef b);  // floordiv(a + b - 1, b)
// The product of dims (1 for none).
ExprRef shape_product(const PrimExprs& dims);

// What is known about two dims: provably equal, provably different, or neither.
enum class DimRelation { kEqual, kUnequal, kUnknown };
DimRelation compare_dims(InferContext& ctx, const ExprRef& a, const ExprRef& b);

// Dtype requirements, skipped when the dtype is unknown. Report E0311 at argument `arg`.
// Float: float or bfloat (`allow_bfloat` = false: float only, as prelu and group_norm want).
bool check_float_dtype(InferContext& ctx, size_t arg, ir::DataType dtype, bool allow_bfloat = true);
// Integer: int or uint.
bool check_int_dtype(InferContext& ctx, size_t arg, ir::DataType dtype);

// The tensors of a tuple argument (`R.concat((a, b))`); reports E0317 when the argument is not
// a tuple and E0306 for a field that is not a tensor. Null entries never appear.
std::optional<std::vector<const ir::TensorStructInfo*>> tuple_tensor_args(InferContext& ctx,
                                                                          size_t arg);

// The integer values of an argument written as a tuple of prim values (`(R.prim_value(1),)`) or
// a shape: from its struct info (values known) or the expression itself. nullopt when unknown.
std::optional<PrimExprs> prim_tuple_values(InferContext& ctx, size_t arg);

// The vdevice several tensors share (concat's rule: the first defined one; conflicting ones
// make it unknown).
ir::Ref<ir::VDevice> shared_vdevice(const std::vector<const ir::TensorStructInfo*>& tensors);

// The dims of a tensor whose shape is a ShapeExpr (not a shape var), as TVM's rules that test
// `shape.as<ShapeExpr>()` see them.
const PrimExprs* shape_expr_dims(const ir::TensorStructInfo& t);

// The reduction rule of sum/mean/.../argmax (SEMANTICS.md §3.4): `axes` (nullopt = all) removed,
// or kept as 1 with `keepdims`; the result has `dtype` and the input's vdevice. Reports axis
// errors at attribute `axis_attr`.
ir::Ref<ir::StructInfo> infer_reduction(InferContext& ctx, const ir::TensorStructInfo& t,
                                        const std::optional<std::vector<int64_t>>& axes,
                                        bool keepdims, ir::DataType dtype,
                                        std::string_view axis_attr);

// Copies of a call with one attribute replaced (in place, keeping the order) or new arguments;
// the span and struct-info arguments are kept. For normalize hooks.
ir::Ref<ir::Call> with_attr(const ir::Ref<ir::Call>& call, const std::string& name,
                            ir::ObjectRef value);
ir::Ref<ir::Call> with_args(const ir::Ref<ir::Call>& call, std::vector<ir::Ref<ir::Expr>> args);
// An ArrayValue of IntValues (for canonical attribute values).
ir::ObjectRef int_array_value(const std::vector<int64_t>& values,
                              ir::Span span = ir::Span::unknown());
// A shape expression argument built from dims, with its struct info set.
ir::Ref<ir::ShapeExpr> shape_expr_of(PrimExprs dims, ir::Span span);
// Argument `i` written as a tuple or list of integers (`(2, 3)`, `[n, -1]`) made a ShapeExpr, as
// TVM's Python functions do for shape arguments; other arguments are returned unchanged.
ir::Ref<ir::Expr> tuple_to_shape_expr(const ir::Ref<ir::Expr>& arg);

// A shape argument (`R.shape([...])`, a shape var): its struct info, or null after reporting
// E0317 when the argument is not a shape.
const ir::ShapeStructInfo* shape_arg(InferContext& ctx, size_t i);

}  // namespace relax::analysis

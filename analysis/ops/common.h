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
std::optional<ir::DataType> binary_arith_dtype(InferContext& ctx, ir::DataType lhs, ir::DataType rhs, size_t lhs_arg,
                                               size_t rhs_arg);

enum class BroadcastResult { kOk, kUnknown, kError };
// Broadcasts two shapes right-aligned (§3.0): literal 1 takes the other side, provably equal
// dims keep the lhs, two different literals are an error (reported at `rhs_arg`, naming both),
// anything else makes the result unknown. On kOk `out` holds the shape.
BroadcastResult broadcast_shapes(InferContext& ctx, const PrimExprs& lhs, const PrimExprs& rhs, PrimExprs& out,
                                 size_t lhs_arg, size_t rhs_arg);

// `axis` in [-ndim, ndim) made non-negative; reports E0309 (at attribute `attr`) otherwise.
std::optional<int> normalize_axis(InferContext& ctx, int64_t axis, int ndim, std::string_view attr);
// Several axes, also rejecting repeats (E0310).
std::optional<std::vector<int>> normalize_axes(InferContext& ctx, const std::vector<int64_t>& axes, int ndim,
                                               std::string_view attr);

// Result struct info constructors.
ir::Ref<ir::TensorStructInfo> tensor_with_shape(PrimExprs shape, ir::DataType dtype, ir::Ref<ir::VDevice> vdevice);
ir::Ref<ir::TensorStructInfo> tensor_with_ndim(int ndim, ir::DataType dtype, ir::Ref<ir::VDevice> vdevice);
// The input's struct info with another dtype (same shape object, ndim, vdevice).
ir::Ref<ir::TensorStructInfo> with_dtype(const ir::TensorStructInfo& t, ir::DataType dtype);

// "(2, n + 1)" for messages.
std::string shape_text(const PrimExprs& shape);
std::string dim_text(const ir::Ref<ir::tir::PrimExpr>& dim);

}  // namespace relax::analysis

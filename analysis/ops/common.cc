// Shared inference helpers.
#include "analysis/ops/common.h"

#include "analysis/arith/expr_text.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;
using ir::tir::PrimExpr;

const PrimExprs* known_shape(const ir::TensorStructInfo& t) { return t.shape_values(); }

std::optional<DataType> binary_arith_dtype(InferContext& ctx, DataType lhs, DataType rhs, size_t lhs_arg,
                                           size_t rhs_arg) {
  if (lhs.is_void() || rhs.is_void()) return DataType::Void();
  if (lhs == rhs) return lhs;
  if (lhs.is_bool() || rhs.is_bool()) return lhs;
  ctx.error_at_arg(rhs_arg, "E0307", ctx.op_name() + ": operands have different dtypes: lhs is " + lhs.str() +
                                         ", rhs is " + rhs.str())
      .note("Relax does not promote dtypes; cast one operand with R.astype");
  (void)lhs_arg;
  return std::nullopt;
}

std::string dim_text(const Ref<PrimExpr>& dim) { return arith::expr_text(dim); }

std::string shape_text(const PrimExprs& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += dim_text(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

BroadcastResult broadcast_shapes(InferContext& ctx, const PrimExprs& lhs, const PrimExprs& rhs, PrimExprs& out,
                                 size_t lhs_arg, size_t rhs_arg) {
  size_t n = std::max(lhs.size(), rhs.size());
  out.assign(n, nullptr);
  bool unknown = false;
  for (size_t k = 0; k < n; ++k) {
    // k counts from the right.
    size_t oi = n - 1 - k;
    bool has_l = k < lhs.size(), has_r = k < rhs.size();
    if (!has_l) {
      out[oi] = rhs[rhs.size() - 1 - k];
      continue;
    }
    if (!has_r) {
      out[oi] = lhs[lhs.size() - 1 - k];
      continue;
    }
    const Ref<PrimExpr>& a = lhs[lhs.size() - 1 - k];
    const Ref<PrimExpr>& b = rhs[rhs.size() - 1 - k];
    auto ca = ir::tir::as_const_int(a), cb = ir::tir::as_const_int(b);
    if (ca && *ca == 1) {
      out[oi] = b;
    } else if (cb && *cb == 1) {
      out[oi] = a;
    } else if (ctx.analyzer().can_prove_equal(a, b)) {
      out[oi] = a;
    } else if (ca && cb) {
      size_t dim_l = lhs.size() - 1 - k, dim_r = rhs.size() - 1 - k;
      ctx.error_at_arg(rhs_arg, "E0308", ctx.op_name() + ": shapes " + shape_text(lhs) + " and " + shape_text(rhs) +
                                             " are not broadcastable: lhs dimension " + std::to_string(dim_l) + " is " +
                                             dim_text(a) + ", rhs dimension " + std::to_string(dim_r) + " is " + dim_text(b));
      (void)lhs_arg;
      return BroadcastResult::kError;
    } else {
      unknown = true;
    }
  }
  return unknown ? BroadcastResult::kUnknown : BroadcastResult::kOk;
}

std::optional<int> normalize_axis(InferContext& ctx, int64_t axis, int ndim, std::string_view attr) {
  if (axis < -ndim || axis >= ndim) {
    ctx.error_at_attr(attr, "E0309", ctx.op_name() + ": axis " + std::to_string(axis) + " is out of range for a tensor of rank " +
                                         std::to_string(ndim) + " (valid: " + std::to_string(-ndim) + " to " +
                                         std::to_string(ndim - 1) + ")");
    return std::nullopt;
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::optional<std::vector<int>> normalize_axes(InferContext& ctx, const std::vector<int64_t>& axes, int ndim,
                                               std::string_view attr) {
  std::vector<int> out;
  std::vector<bool> seen(static_cast<size_t>(std::max(ndim, 0)), false);
  for (int64_t a : axes) {
    auto n = normalize_axis(ctx, a, ndim, attr);
    if (!n) return std::nullopt;
    if (seen[static_cast<size_t>(*n)]) {
      ctx.error_at_attr(attr, "E0310", ctx.op_name() + ": axis " + std::to_string(*n) + " appears more than once");
      return std::nullopt;
    }
    seen[static_cast<size_t>(*n)] = true;
    out.push_back(*n);
  }
  return out;
}

Ref<ir::TensorStructInfo> tensor_with_shape(PrimExprs shape, DataType dtype, Ref<ir::VDevice> vdevice) {
  return ir::tensor_sinfo(std::move(shape), dtype, std::move(vdevice));
}

Ref<ir::TensorStructInfo> tensor_with_ndim(int ndim, DataType dtype, Ref<ir::VDevice> vdevice) {
  return ir::tensor_sinfo(ndim, dtype, std::move(vdevice));
}

Ref<ir::TensorStructInfo> with_dtype(const ir::TensorStructInfo& t, DataType dtype) {
  return make<ir::TensorStructInfo>(t.shape, dtype, t.ndim, t.vdevice);
}

}  // namespace relax::analysis

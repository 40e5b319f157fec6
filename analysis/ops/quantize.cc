// Quantization (relax.quantize / relax.dequantize): an affine map between float tensors and
// narrow integer (or float8) tensors with a scale and zero point that are scalars or one value
// per slice along `axis`. The result keeps the data's shape with the `out_dtype`.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_qdq(InferContext& ctx, bool quantize) {
  auto data = ctx.tensor_arg(0);
  auto scale = data ? ctx.tensor_arg(1) : nullptr;
  auto zero_point = scale ? ctx.tensor_arg(2) : nullptr;
  if (!zero_point) return nullptr;
  DataType out =
      ctx.attr_dtype("out_dtype").value_or(quantize ? DataType::Int(8) : DataType::Float32());
  bool out_ok = quantize ? (out.is_int() || out.is_uint() || out.is_float8_or_smaller())
                         : (out.is_float() || out.is_bfloat());
  if (!out_ok) {
    ctx.error_at_attr(
        "out_dtype", "E0316",
        ctx.op_name() + ": `out_dtype` must be " +
            (quantize ? std::string("an integer or float8 dtype") : std::string("a float dtype")) +
            ", got " + out.str());
    return nullptr;
  }
  if (quantize && !check_float_dtype(ctx, 0, data->dtype)) return nullptr;
  if (!check_float_dtype(ctx, 1, scale->dtype)) return nullptr;
  std::optional<int> axis;
  if (!data->is_unknown_ndim()) {
    axis = normalize_axis(ctx, ctx.attr_int("axis").value_or(-1), data->ndim, "axis");
    if (!axis) return nullptr;
  }
  const PrimExprs* dims = shape_expr_dims(*data);
  for (size_t i = 1; i < 3; ++i) {
    const auto* p = i == 1 ? scale : zero_point;
    if (!p->is_unknown_ndim() && p->ndim > 1) {
      ctx.error_at_arg(
          i, "E0312",
          ctx.op_name() + " requires " + arg_name(ctx, i) +
              " to be a scalar or 1-D (one value per slice along `axis`), but it has rank " +
              std::to_string(p->ndim));
      return nullptr;
    }
    const PrimExprs* pd = shape_expr_dims(*p);
    if (dims && axis && pd && pd->size() == 1 && !ir::tir::is_const_int((*pd)[0], 1) &&
        compare_dims(ctx, (*pd)[0], (*dims)[static_cast<size_t>(*axis)]) == DimRelation::kUnequal) {
      ctx.error_at_arg(i, "E0313",
                       ctx.op_name() + ": " + arg_name(ctx, i) + " has " + dim_text((*pd)[0]) +
                           " values but the data has " +
                           dim_text((*dims)[static_cast<size_t>(*axis)]) + " slices along axis " +
                           std::to_string(*axis));
      return nullptr;
    }
  }
  return with_dtype(*data, out);
}

void add_qdq(OpRegistry& r, bool quantize) {
  OpInfo op;
  op.name = quantize ? "relax.quantize" : "relax.dequantize";
  op.doc = quantize ? "Quantizes: clip(round(data / scale) + zero_point) in `out_dtype`"
                    : "Dequantizes: (data - zero_point) * scale in `out_dtype`";
  op.args = {spec::arg("data", "the input tensor"),
             spec::arg("scale", "the scale (a scalar or one per slice)"),
             spec::arg("zero_point", "the zero point (a scalar or one per slice)")};
  op.attrs = {
      spec::dtype_attr("out_dtype", quantize ? "int8" : "float32", "the dtype of the result"),
      spec::int_attr("axis", -1, "the axis the per-slice scale and zero point run along")};
  op.attr_positions = {"axis", "out_dtype"};
  op.infer = [quantize](InferContext& ctx) { return infer_qdq(ctx, quantize); };
  op.pattern = OpPattern::kElemWise;
  spec::add_op(r, std::move(op));
}

}  // namespace

void register_quantize_ops(OpRegistry& r) {
  add_qdq(r, true);
  add_qdq(r, false);
}

}  // namespace relax::analysis

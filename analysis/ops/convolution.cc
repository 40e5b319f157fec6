// Convolutions (SEMANTICS.md §3.6): conv1d/2d/3d and conv1d/2d/3d_transpose. Data and weight are
// converted to the canonical layouts (NCHW / OIHW, IOHW for the transposed weight), the output
// extents computed there, then converted to `out_layout`. The normalize hook expands padding,
// strides and dilation to one value per side or axis and defaults `out_layout` to the data's.
#include "analysis/ops/layout.h"
#include "analysis/ops/nn_window.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

struct ConvKind {
  int dims;        // spatial axes
  bool transpose;  // conv*_transpose
  std::string data_layout() const { return dims == 1 ? "NCW" : dims == 2 ? "NCHW" : "NCDHW"; }
  std::string kernel_layout() const {
    std::string spatial = dims == 1 ? "W" : dims == 2 ? "HW" : "DHW";
    return (transpose ? "IO" : "OI") + spatial;
  }
};

Ref<ir::Call> normalize_conv(InferContext& ctx, ConvKind kind) {
  Ref<ir::Call> call = ctx.call();
  bool ok = expand_window_attr(ctx, call, "strides", kind.dims, false, true);
  ok &= expand_window_attr(ctx, call, "padding", kind.dims, true, false);
  ok &= expand_window_attr(ctx, call, "dilation", kind.dims, false, true);
  if (kind.transpose)
    ok &= expand_window_attr(ctx, call, "output_padding", kind.dims, false, false);
  if (auto groups = ctx.attr_int("groups"); groups && *groups <= 0) {
    ctx.error_at_attr(
        "groups", "E0316",
        ctx.op_name() + ": `groups` must be positive, got " + std::to_string(*groups));
    ok = false;
  }
  if (!ok) return nullptr;
  default_out_layout(call, "out_layout", "data_layout");
  return call;
}

Ref<ir::StructInfo> infer_conv(InferContext& ctx, ConvKind kind) {
  auto data = ctx.tensor_arg(0);
  auto weight = data ? ctx.tensor_arg(1) : nullptr;
  if (!data || !weight) return nullptr;
  auto canon_data = parse_layout(kind.data_layout());
  auto canon_kernel = parse_layout(kind.kernel_layout());
  // One layout error is enough: out_layout often repeats data_layout.
  auto data_layout = layout_attr(ctx, "data_layout", kind.data_layout());
  if (!data_layout) return nullptr;
  auto kernel_layout = layout_attr(ctx, "kernel_layout", kind.kernel_layout());
  if (!kernel_layout) return nullptr;
  auto out_layout = layout_attr(ctx, "out_layout", kind.data_layout());
  if (!out_layout) return nullptr;
  if (!check_layout_rank(ctx, 0, *data, *data_layout, "data_layout") ||
      !check_layout_rank(ctx, 1, *weight, *kernel_layout, "kernel_layout")) {
    return nullptr;
  }
  DataType dtype;
  if (auto out_dtype = ctx.attr_dtype("out_dtype")) {
    dtype = *out_dtype;
  } else {
    auto d = binary_arith_dtype(ctx, data->dtype, weight->dtype, 0, 1);
    if (!d) return nullptr;
    dtype = *d;
  }
  Ref<ir::VDevice> vdevice = ctx.common_vdevice({0, 1});
  const PrimExprs* data_dims = shape_expr_dims(*data);
  const PrimExprs* weight_dims = shape_expr_dims(*weight);
  if (!data_dims || !weight_dims) return tensor_with_ndim(out_layout->ndim(), dtype, vdevice);

  PrimExprs x = convert_layout_shape(ctx, *data_dims, *data_layout, *canon_data);
  PrimExprs w = convert_layout_shape(ctx, *weight_dims, *kernel_layout, *canon_kernel);
  auto& az = ctx.analyzer();
  int64_t groups = ctx.attr_int("groups").value_or(1);
  auto strides = ctx.attr_int_array("strides").value_or(
      std::vector<int64_t>(static_cast<size_t>(kind.dims), 1));
  auto padding = ctx.attr_int_array("padding").value_or(
      std::vector<int64_t>(static_cast<size_t>(2 * kind.dims), 0));
  auto dilation = ctx.attr_int_array("dilation")
                      .value_or(std::vector<int64_t>(static_cast<size_t>(kind.dims), 1));
  PrimExprs out(x.size());
  out[0] = x[0];
  if (!kind.transpose) {
    ExprRef expected = az.simplify(dim_mul(w[1], dim_const(groups)));
    if (compare_dims(ctx, x[1], expected) == DimRelation::kUnequal) {
      ctx.error_at_arg(1, "E0313",
                       ctx.op_name() + ": the data has " + dim_text(x[1]) +
                           " input channels but the weight expects " + dim_text(expected) +
                           (groups == 1 ? ""
                                        : " (" + dim_text(w[1]) + " per group x " +
                                              std::to_string(groups) + " groups)"));
      return nullptr;
    }
    if (az.prove(ir::tir::binary(ir::ObjectKind::kNE, dim_floormod(w[0], dim_const(groups)),
                                 dim_const(0))) == arith::Proof::kYes) {
      ctx.error_at_arg(
          1, "E0320",
          ctx.op_name() + ": the weight's " + dim_text(w[0]) +
              " output channels are not divisible by groups = " + std::to_string(groups));
      return nullptr;
    }
    out[1] = w[0];
  } else {
    if (compare_dims(ctx, x[1], w[0]) == DimRelation::kUnequal) {
      ctx.error_at_arg(1, "E0313",
                       ctx.op_name() + ": the data has " + dim_text(x[1]) +
                           " input channels but the weight expects " + dim_text(w[0]));
      return nullptr;
    }
    if (az.prove(ir::tir::binary(ir::ObjectKind::kNE, dim_floormod(w[0], dim_const(groups)),
                                 dim_const(0))) == arith::Proof::kYes) {
      ctx.error_at_arg(
          1, "E0320",
          ctx.op_name() + ": the weight's " + dim_text(w[0]) +
              " input channels are not divisible by groups = " + std::to_string(groups));
      return nullptr;
    }
    out[1] = az.simplify(dim_mul(w[1], dim_const(groups)));
  }
  auto output_padding = ctx.attr_int_array("output_padding")
                            .value_or(std::vector<int64_t>(static_cast<size_t>(kind.dims), 0));
  for (int i = 0; i < kind.dims; ++i) {
    size_t si = static_cast<size_t>(i);
    const ExprRef& in = x[si + 2];
    const ExprRef& k = w[si + 2];
    int64_t pad_begin = padding[si], pad_end = padding[si + static_cast<size_t>(kind.dims)];
    if (!kind.transpose) {
      out[si + 2] =
          az.simplify(window_output_length(in, pad_begin, pad_end, dilation[si], k, strides[si]));
    } else {
      if (output_padding[si] >= strides[si]) {
        ctx.error_at_attr(
            "output_padding", "E0316",
            ctx.op_name() +
                ": `output_padding` must be smaller than `strides` on every axis, but axis " +
                std::to_string(i) + " has output_padding " + std::to_string(output_padding[si]) +
                " and stride " + std::to_string(strides[si]));
        return nullptr;
      }
      // (in - 1) * stride - pads + dilation * (k - 1) + output_padding + 1
      ExprRef len = dim_mul(dim_sub(in, dim_const(1)), dim_const(strides[si]));
      len = dim_sub(dim_sub(len, dim_const(pad_begin)), dim_const(pad_end));
      len = dim_add(len, dim_mul(dim_const(dilation[si]), dim_sub(k, dim_const(1))));
      len = dim_add(dim_add(len, dim_const(output_padding[si])), dim_const(1));
      out[si + 2] = az.simplify(len);
    }
  }
  return tensor_with_shape(convert_layout_shape(ctx, out, *canon_data, *out_layout), dtype,
                           vdevice);
}

void add_conv(OpRegistry& r, ConvKind kind) {
  std::string d = std::to_string(kind.dims) + "d";
  OpInfo op;
  op.name = "relax.nn.conv" + d + (kind.transpose ? "_transpose" : "");
  op.doc = (kind.transpose ? "Transposed " + d + " convolution" : d + " convolution") + " of " +
           kind.data_layout() + " data with " + kind.kernel_layout() + " weights";
  op.args = {spec::arg("data", "the input tensor"), spec::arg("weight", "the convolution weight")};
  std::vector<int64_t> ones(static_cast<size_t>(kind.dims), 1),
      zeros(static_cast<size_t>(kind.dims), 0);
  op.attrs.push_back(spec::ints_attr("strides", ones, "the strides, one per spatial axis"));
  op.attrs.push_back(spec::ints_attr(
      "padding", zeros, "the padding: one value, one per axis, or begin values then end values"));
  if (kind.transpose)
    op.attrs.push_back(
        spec::ints_attr("output_padding", zeros, "extra length added at the end of each axis"));
  op.attrs.push_back(
      spec::ints_attr("dilation", ones, "the dilation of the kernel, one per spatial axis"));
  op.attrs.push_back(spec::int_attr("groups", 1, "the number of groups of a grouped convolution"));
  op.attrs.push_back(
      spec::string_attr("data_layout", kind.data_layout(), "the layout of the data"));
  op.attrs.push_back(
      spec::string_attr("kernel_layout", kind.kernel_layout(), "the layout of the weight"));
  op.attrs.push_back(spec::optional_attr("out_layout", AttrKind::kString,
                                         "the layout of the output (None: data_layout)"));
  op.attrs.push_back(spec::dtype_attr("out_dtype", "void", "the output dtype (None: the inputs')"));
  op.infer = [kind](InferContext& ctx) { return infer_conv(ctx, kind); };
  op.normalize = [kind](InferContext& ctx) { return normalize_conv(ctx, kind); };
  op.pattern = kind.transpose ? OpPattern::kOpaque : OpPattern::kOutEWiseFusable;
  spec::add_op(r, std::move(op));
}

}  // namespace

void register_convolution_ops(OpRegistry& r) {
  for (int dims : {1, 2, 3}) add_conv(r, {dims, false});
  for (int dims : {1, 2, 3}) add_conv(r, {dims, true});
}

}  // namespace relax::analysis

// Pooling (SEMANTICS.md §3.7): max_pool1d/2d/3d and avg_pool1d/2d/3d (sliding windows with
// padding, dilation and ceil mode, computed in the canonical NCHW-style layout) and
// adaptive_avg_pool1d/2d/3d (spatial extents replaced by `output_size`).
#include "analysis/ops/layout.h"
#include "analysis/ops/nn_window.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::Ref;

std::string canonical_pool_layout(int dims) {
  return dims == 1 ? "NCW" : dims == 2 ? "NCHW" : "NCDHW";
}

Ref<ir::Call> normalize_pool(InferContext& ctx, int dims) {
  Ref<ir::Call> call = ctx.call();
  bool ok = expand_window_attr(ctx, call, "pool_size", dims, false, true);
  ok &= expand_window_attr(ctx, call, "strides", dims, false, true);
  ok &= expand_window_attr(ctx, call, "padding", dims, true, false);
  ok &= expand_window_attr(ctx, call, "dilation", dims, false, true);
  if (!ok) return nullptr;
  default_out_layout(call, "out_layout", "layout");
  return call;
}

// The output of a pooling window over argument `data_arg` (also used by the pooling gradients,
// whose result is the data's struct info once this check passes).
Ref<ir::StructInfo> infer_pool(InferContext& ctx, int dims, size_t data_arg) {
  auto data = ctx.tensor_arg(data_arg);
  if (!data) return nullptr;
  std::string canonical = canonical_pool_layout(dims);
  auto canon = parse_layout(canonical);
  auto layout = layout_attr(ctx, "layout", canonical);
  if (!layout) return nullptr;
  auto out_layout = layout_attr(ctx, "out_layout", canonical);
  if (!out_layout || !check_layout_rank(ctx, data_arg, *data, *layout, "layout")) return nullptr;
  const PrimExprs* data_dims = shape_expr_dims(*data);
  if (!data_dims) return tensor_with_ndim(out_layout->ndim(), data->dtype, data->vdevice);
  PrimExprs x = convert_layout_shape(ctx, *data_dims, *layout, *canon);
  auto pool_size =
      ctx.attr_int_array("pool_size").value_or(std::vector<int64_t>(static_cast<size_t>(dims), 1));
  auto strides =
      ctx.attr_int_array("strides").value_or(std::vector<int64_t>(static_cast<size_t>(dims), 1));
  auto padding = ctx.attr_int_array("padding").value_or(
      std::vector<int64_t>(static_cast<size_t>(2 * dims), 0));
  auto dilation =
      ctx.attr_int_array("dilation").value_or(std::vector<int64_t>(static_cast<size_t>(dims), 1));
  bool ceil_mode = ctx.attr_bool("ceil_mode").value_or(false);
  auto& az = ctx.analyzer();
  PrimExprs out = x;
  for (int i = 0; i < dims; ++i) {
    size_t si = static_cast<size_t>(i);
    const ExprRef& in = x[si + 2];
    int64_t pad_begin = padding[si], pad_end = padding[si + static_cast<size_t>(dims)];
    // With ceil_mode the last window may start inside the end padding; it is dropped then.
    int64_t extra = ceil_mode ? strides[si] - 1 : 0;  // strides are positive
    ExprRef raw = window_output_length(dim_add(in, dim_const(extra)), pad_begin, pad_end,
                                       dilation[si], dim_const(pool_size[si]), strides[si]);
    if (ceil_mode) {
      ExprRef last_start = dim_mul(dim_sub(raw, dim_const(1)), dim_const(strides[si]));
      ExprRef invalid =
          ir::tir::binary(ir::ObjectKind::kGE, last_start, dim_add(in, dim_const(pad_begin)));
      raw = ir::make<ir::tir::Call>(ir::DataType::Int64(), "tir.if_then_else",
                                    std::vector<ExprRef>{invalid, dim_sub(raw, dim_const(1)), raw});
    }
    out[si + 2] = az.simplify(raw);
  }
  return tensor_with_shape(convert_layout_shape(ctx, out, *canon, *out_layout), data->dtype,
                           data->vdevice);
}

namespace {

Ref<ir::Call> normalize_adaptive(InferContext& ctx, int dims) {
  Ref<ir::Call> call = ctx.call();
  if (!expand_window_attr(ctx, call, "output_size", dims, false, true)) return nullptr;
  default_out_layout(call, "out_layout", "layout");
  return call;
}

Ref<ir::StructInfo> infer_adaptive(InferContext& ctx, int dims) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  std::string canonical = canonical_pool_layout(dims);
  auto canon = parse_layout(canonical);
  auto layout = layout_attr(ctx, "layout", canonical);
  if (!layout) return nullptr;
  auto out_layout = layout_attr(ctx, "out_layout", canonical);
  if (!out_layout || !check_layout_rank(ctx, 0, *data, *layout, "layout")) return nullptr;
  const PrimExprs* data_dims = shape_expr_dims(*data);
  if (!data_dims) return tensor_with_ndim(out_layout->ndim(), data->dtype, data->vdevice);
  PrimExprs x = convert_layout_shape(ctx, *data_dims, *layout, *canon);
  if (auto size = ctx.attr_int_array("output_size")) {
    for (int i = 0; i < dims; ++i)
      x[static_cast<size_t>(i) + 2] = dim_const((*size)[static_cast<size_t>(i)]);
  }
  return tensor_with_shape(convert_layout_shape(ctx, x, *canon, *out_layout), data->dtype,
                           data->vdevice);
}

}  // namespace

// The attributes of max/avg pooling in declaration order (the printed order), and the order
// TVM's Python functions take them in (padding before dilation).
std::vector<AttrSpec> pool_attrs(int dims, bool count_include_pad) {
  std::vector<int64_t> ones(static_cast<size_t>(dims), 1), zeros(static_cast<size_t>(dims), 0);
  return {spec::ints_attr("pool_size", ones, "the window size, one per spatial axis"),
          spec::ints_attr("strides", ones, "the strides, one per spatial axis"),
          spec::ints_attr("dilation", ones, "the dilation of the window, one per spatial axis"),
          spec::ints_attr("padding", zeros,
                          "the padding: one value, one per axis, or begin values then end values"),
          spec::bool_attr("ceil_mode", false,
                          "round the output length up (every element is covered by a window)"),
          spec::bool_attr("count_include_pad", count_include_pad,
                          "average pooling counts padded elements"),
          spec::string_attr("layout", canonical_pool_layout(dims), "the layout of the data"),
          spec::optional_attr("out_layout", AttrKind::kString,
                              "the layout of the output (None: layout)")};
}

std::vector<std::string> pool_attr_positions() {
  return {"pool_size", "strides",           "padding", "dilation",
          "ceil_mode", "count_include_pad", "layout",  "out_layout"};
}

void register_pooling_ops(OpRegistry& r) {
  for (const char* kind : {"max", "avg"}) {
    for (int dims : {1, 2, 3}) {
      bool is_avg = std::string(kind) == "avg";
      std::string d = std::to_string(dims) + "d";
      OpInfo op;
      op.name = std::string("relax.nn.") + kind + "_pool" + d;
      op.doc = std::string(is_avg ? "Average" : "Maximum") + " " + d + " pooling of " +
               canonical_pool_layout(dims) + " data";
      op.args = {spec::arg("data", "the input tensor")};
      op.attrs = pool_attrs(dims, is_avg && dims != 2);
      op.attr_positions = pool_attr_positions();
      op.infer = [dims](InferContext& ctx) { return infer_pool(ctx, dims, 0); };
      op.normalize = [dims](InferContext& ctx) { return normalize_pool(ctx, dims); };
      op.pattern = OpPattern::kOutEWiseFusable;
      spec::add_op(r, std::move(op));
    }
  }
  for (int dims : {1, 2, 3}) {
    std::string d = std::to_string(dims) + "d";
    OpInfo op;
    op.name = "relax.nn.adaptive_avg_pool" + d;
    op.doc = "Adaptive average " + d + " pooling to a given output size of " +
             canonical_pool_layout(dims) + " data";
    op.args = {spec::arg("data", "the input tensor")};
    op.attrs = {spec::optional_attr("output_size", AttrKind::kIntArray,
                                    "the output extents (None: the input's)"),
                spec::string_attr("layout", canonical_pool_layout(dims), "the layout of the data"),
                spec::optional_attr("out_layout", AttrKind::kString,
                                    "the layout of the output (None: layout)")};
    op.infer = [dims](InferContext& ctx) { return infer_adaptive(ctx, dims); };
    op.normalize = [dims](InferContext& ctx) { return normalize_adaptive(ctx, dims); };
    op.pattern = OpPattern::kOutEWiseFusable;
    spec::add_op(r, std::move(op));
  }
}

}  // namespace relax::analysis

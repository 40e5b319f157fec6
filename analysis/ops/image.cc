// Image ops (SEMANTICS.md §3.13): image.resize2d replaces the spatial extents of NCHW-style data
// by `size`. The normalize hook gives the canonical call TVM's Python function builds: `size` as
// a shape of two extents and `roi` as four float32 values.
#include "analysis/ops/layout.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;

namespace {

Ref<ir::Call> normalize_resize2d(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  // size: one extent for both axes, or a tuple of two.
  Ref<ir::Expr> size = call->args[1];
  if (auto pv = size.as_ptr<ir::PrimValue>(); pv && pv->value->dtype.is_int()) {
    ExprRef v = pv->value;
    if (auto c = ir::tir::as_const_int(v)) v = dim_const(*c);
    size = shape_expr_of({v, v}, size->span);
  } else {
    size = tuple_to_shape_expr(size);
  }
  if (!size.same_as(call->args[1])) call = with_args(call, {call->args[0], size});
  // roi: four float32 values (one value stands for all four).
  ir::ObjectRef roi = call->attrs.find("roi");
  auto arr = roi.as_ptr<ir::ArrayValue>();
  if (!arr) {
    auto zeros = make<ir::ArrayValue>();
    for (int i = 0; i < 4; ++i)
      zeros->items.push_back(ir::tir::float_imm(DataType::Float32(), 0.0));
    return with_attr(call, "roi", zeros);
  }
  std::vector<double> values;
  bool already = true;
  for (const auto& item : arr->items) {
    if (auto f = item.as_ptr<ir::tir::FloatImm>()) {
      values.push_back(f->value);
      already &= f->dtype == DataType::Float32();
    } else if (auto f = item.as_ptr<ir::FloatValue>()) {
      values.push_back(f->value);
      already = false;
    }
  }
  if (values.size() == 1) values.assign(4, values[0]), already = false;
  if (values.size() != 4) {
    ctx.error_at_attr("roi", "E0316",
                      ctx.op_name() +
                          ": `roi` must have 4 values (start_h, start_w, end_h, end_w), got " +
                          std::to_string(values.size()));
    return nullptr;
  }
  if (already) return call;
  auto out = make<ir::ArrayValue>();
  for (double v : values) out->items.push_back(ir::tir::float_imm(DataType::Float32(), v));
  out->span = roi->span;
  return with_attr(call, "roi", out);
}

bool check_choice(InferContext& ctx, const char* attr, const std::vector<std::string>& allowed) {
  auto value = ctx.attr_string(attr);
  if (!value) return true;
  std::string list;
  for (const auto& a : allowed) {
    if (*value == a) return true;
    list += (list.empty() ? "\"" : ", \"") + a + "\"";
  }
  ctx.error_at_attr(
      attr, "E0316",
      ctx.op_name() + ": `" + attr + "` must be one of " + list + ", got \"" + *value + "\"");
  return false;
}

Ref<ir::StructInfo> infer_resize2d(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  auto size = shape_arg(ctx, 1);
  if (!size) return nullptr;
  if (size->ndim != ir::kUnknownNDim && size->ndim != 2) {
    ctx.error_at_arg(1, "E0312",
                     ctx.op_name() +
                         " requires `size` to have two extents (height, width), but it has " +
                         std::to_string(size->ndim));
    return nullptr;
  }
  if (!check_choice(ctx, "method", {"nearest_neighbor", "linear", "cubic"}) ||
      !check_choice(ctx, "coordinate_transformation_mode",
                    {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
                     "tf_half_pixel_for_nn", "tf_crop_and_resize"}) ||
      !check_choice(ctx, "rounding_method",
                    {"", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil"})) {
    return nullptr;
  }
  auto canon = parse_layout("NCHW");
  auto layout = layout_attr(ctx, "layout", "NCHW");
  if (!layout || !check_layout_rank(ctx, 0, *data, *layout, "layout")) return nullptr;
  DataType dtype = ctx.attr_dtype("out_dtype").value_or(data->dtype);
  const PrimExprs* dims = shape_expr_dims(*data);
  auto size_expr = ctx.arg(1).as_ptr<ir::ShapeExpr>();
  if (!dims || !size_expr) return tensor_with_ndim(layout->ndim(), dtype, data->vdevice);
  PrimExprs x = convert_layout_shape(ctx, *dims, *layout, *canon);
  x[2] = size_expr->values[0];
  x[3] = size_expr->values[1];
  return tensor_with_shape(convert_layout_shape(ctx, x, *canon, *layout), dtype, data->vdevice);
}

}  // namespace

void register_image_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo op;
  op.name = "relax.image.resize2d";
  op.doc =
      "Resizes the spatial axes of NCHW-style data to `size` (nearest, linear or cubic "
      "interpolation)";
  op.args = {arg("data", "the input tensor"), arg("size", "the output (height, width)")};
  auto roi = make<ir::ArrayValue>();
  for (int i = 0; i < 4; ++i) roi->items.push_back(ir::tir::float_imm(DataType::Float32(), 0.0));
  AttrSpec roi_spec =
      optional_attr("roi", AttrKind::kFloatArray, "the region of interest for tf_crop_and_resize");
  roi_spec.default_value = roi;
  op.attrs = {
      roi_spec,
      string_attr("layout", "NCHW", "the layout of the data"),
      string_attr("method", "linear", "nearest_neighbor, linear or cubic"),
      string_attr("coordinate_transformation_mode", "half_pixel",
                  "how output coordinates map to input ones"),
      string_attr("rounding_method", "round", "the rounding of nearest_neighbor"),
      float_attr("cubic_alpha", -0.5, "the spline coefficient of cubic interpolation"),
      int_attr("cubic_exclude", 0, "exclude out-of-image neighbours of cubic interpolation"),
      float_attr("extrapolation_value", 0.0, "the value outside the image (tf_crop_and_resize)"),
      dtype_attr("out_dtype", "void", "the output dtype (None: the data's)")};
  op.infer = infer_resize2d;
  op.normalize = normalize_resize2d;
  op.pattern = OpPattern::kInjective;
  add_op(r, std::move(op));
}

}  // namespace relax::analysis

// Reductions and scans (SEMANTICS.md §3.4): sum, mean, max, min, prod, std and variance over
// `axis` (all axes when None, kept as length 1 with keepdims; the input dtype is kept), and the
// cumulative cumsum/cumprod (flattened when `axis` is None, optional output dtype).
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_reduce(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  std::optional<std::vector<int64_t>> axes = ctx.attr_int_array("axis");
  return infer_reduction(ctx, *t, axes, ctx.attr_bool("keepdims").value_or(false), t->dtype,
                         "axis");
}

Ref<ir::StructInfo> infer_scan(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  DataType dtype = ctx.attr_dtype("dtype").value_or(t->dtype);
  auto axis = ctx.attr_int("axis");
  if (!axis) {
    if (const PrimExprs* dims = shape_expr_dims(*t)) {
      return tensor_with_shape({shape_product(*dims)}, dtype, t->vdevice);
    }
    return tensor_with_ndim(1, dtype, t->vdevice);
  }
  if (!t->is_unknown_ndim() && !normalize_axis(ctx, *axis, t->ndim, "axis")) return nullptr;
  return ir::make<ir::TensorStructInfo>(t->shape, dtype, t->ndim, t->vdevice);
}

void add_reduce(OpRegistry& r, const std::string& name, const std::string& doc) {
  OpInfo op;
  op.name = "relax." + name;
  op.doc = doc + " over `axis` (all axes when None)";
  op.args = {spec::arg("x", "the input tensor")};
  op.attrs = {spec::optional_attr("axis", AttrKind::kIntArray,
                                  "the axes to reduce; None reduces all of them"),
              spec::bool_attr("keepdims", false, "keep the reduced axes with length 1")};
  op.infer = infer_reduce;
  op.pattern = OpPattern::kCommReduce;
  spec::add_op(r, std::move(op));
}

void add_scan(OpRegistry& r, const std::string& name, const std::string& doc) {
  OpInfo op;
  op.name = "relax." + name;
  op.doc = doc + " along `axis` (the flattened tensor when None)";
  op.args = {spec::arg("data", "the input tensor")};
  op.attrs = {spec::optional_attr("axis", AttrKind::kInt,
                                  "the axis to scan along; None scans the flattened tensor"),
              spec::dtype_attr("dtype", "void", "the output dtype (None: the input's)"),
              spec::bool_attr("exclusive", false,
                              "leave out the current element (the first result is the identity)")};
  op.infer = infer_scan;
  op.pattern = OpPattern::kOpaque;
  spec::add_op(r, std::move(op));
}

}  // namespace

void register_statistical_ops(OpRegistry& r) {
  add_reduce(r, "sum", "Sum");
  add_reduce(r, "mean", "Arithmetic mean");
  add_reduce(r, "max", "Maximum");
  add_reduce(r, "min", "Minimum");
  add_reduce(r, "prod", "Product");
  add_reduce(r, "std", "Standard deviation (biased)");
  add_reduce(r, "variance", "Variance (biased)");
  add_scan(r, "cumsum", "Cumulative sum");
  add_scan(r, "cumprod", "Cumulative product");
}

}  // namespace relax::analysis

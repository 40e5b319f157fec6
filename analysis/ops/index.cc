// Indexing (SEMANTICS.md §3.11): take (indices along one axis, a tensor or a prim value),
// strided_slice (axes/begin/end/strides as tuples of prim values, lengths computed with the
// canonicalized bounds unless assume_inbound) and dynamic_strided_slice (bounds in tensors, so
// only the rank is known).
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_take(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  // A prim value index behaves as a 0-d tensor.
  Ref<ir::TensorStructInfo> indices;
  if (auto t = ctx.arg_sinfo(1).as<ir::TensorStructInfo>()) {
    indices = t;
  } else if (auto p = ctx.arg_sinfo(1).as_ptr<ir::PrimStructInfo>()) {
    indices = tensor_with_shape({}, p->dtype, nullptr);
  } else {
    ctx.error_at_arg(1, "E0306",
                     ctx.op_name() +
                         " requires `indices` to be a tensor or a scalar (R.prim_value), got " +
                         sinfo_text(ctx.arg_sinfo(1)));
    return nullptr;
  }
  if (!check_int_dtype(ctx, 1, indices->dtype)) return nullptr;
  if (auto mode = ctx.attr_string("mode")) {
    if (*mode != "fast" && *mode != "wrap" && *mode != "clip" && *mode != "nan") {
      ctx.error_at_attr("mode", "E0316",
                        ctx.op_name() +
                            ": mode must be \"fast\", \"wrap\", \"clip\" or \"nan\", got \"" +
                            *mode + "\"");
      return nullptr;
    }
    if (*mode == "nan" && !data->is_unknown_dtype() && !data->dtype.is_floating()) {
      ctx.error_at_attr(
          "mode", "E0316",
          ctx.op_name() + ": mode \"nan\" needs a floating-point tensor, got " + data->dtype.str());
      return nullptr;
    }
  }
  auto axis_attr = ctx.attr_int("axis");
  if (!axis_attr && data->ndim != 1) {
    ctx.error_at_arg(0, "E0312",
                     ctx.op_name() + " without an axis takes a 1-D tensor, but " +
                         arg_name(ctx, 0) +
                         (data->is_unknown_ndim() ? " has unknown rank"
                                                  : " has rank " + std::to_string(data->ndim)))
        .note("give the axis to take along, e.g. axis=0");
    return nullptr;
  }
  if (data->is_unknown_ndim() || indices->is_unknown_ndim()) {
    return tensor_with_ndim(ir::kUnknownNDim, data->dtype, data->vdevice);
  }
  int axis = 0;
  if (axis_attr) {
    auto a = normalize_axis(ctx, *axis_attr, data->ndim, "axis");
    if (!a) return nullptr;
    axis = *a;
  }
  const PrimExprs* ddims = shape_expr_dims(*data);
  const PrimExprs* idims = shape_expr_dims(*indices);
  if (!ddims || !idims)
    return tensor_with_ndim(indices->ndim + data->ndim - 1, data->dtype, data->vdevice);
  PrimExprs out;
  for (int i = 0; i < data->ndim; ++i) {
    if (i == axis)
      out.insert(out.end(), idims->begin(), idims->end());
    else
      out.push_back((*ddims)[static_cast<size_t>(i)]);
  }
  return tensor_with_shape(std::move(out), data->dtype, data->vdevice);
}

// A bound made non-negative and clamped to the axis ([0, extent] going forward, [-1, extent-1]
// going backward), as TVM's topi::CanonicalizeIndex does.
ExprRef canonical_index(const ExprRef& index, const ExprRef& extent, bool backward) {
  ExprRef wrapped = make<ir::tir::Call>(
      DataType::Int64(), "tir.if_then_else",
      std::vector<ExprRef>{ir::tir::binary(ir::ObjectKind::kLT, index, dim_const(0)),
                           dim_add(index, extent), index});
  ExprRef lo = backward ? dim_const(-1) : dim_const(0);
  ExprRef hi = backward ? dim_sub(extent, dim_const(1)) : extent;
  return dim_min(dim_max(wrapped, lo), hi);
}

Ref<ir::StructInfo> infer_strided_slice(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  const char* names[] = {"x", "axes", "begin", "end", "strides"};
  std::vector<std::optional<PrimExprs>> values(5);
  std::optional<size_t> length;
  for (size_t i = 1; i < ctx.num_args() && i < 5; ++i) {
    const auto& sinfo = ctx.arg_sinfo(i);
    if (auto tuple = sinfo.as_ptr<ir::TupleStructInfo>()) {
      for (const auto& f : tuple->fields) {
        auto p = f.as_ptr<ir::PrimStructInfo>();
        if (!p || !p->dtype.is_int()) {
          ctx.error_at_arg(i, "E0317",
                           ctx.op_name() + " requires `" + names[i] +
                               "` to be a tuple of integers, but it holds " + sinfo_text(f));
          return nullptr;
        }
      }
      if (length && *length != tuple->fields.size()) {
        ctx.error_at_arg(i, "E0316",
                         ctx.op_name() +
                             ": `axes`, `begin`, `end` and `strides` must have one length, but `" +
                             names[i] + "` has " + std::to_string(tuple->fields.size()) +
                             " values where " + std::to_string(*length) + " are expected");
        return nullptr;
      }
      length = tuple->fields.size();
    } else if (!sinfo.is<ir::ObjectStructInfo>()) {
      ctx.error_at_arg(i, "E0317",
                       ctx.op_name() + " requires `" + names[i] +
                           "` to be a tuple of integers, got " + sinfo_text(sinfo));
      return nullptr;
    }
    values[i] = prim_tuple_values(ctx, i);
  }
  auto rank_only = [&]() { return tensor_with_ndim(data->ndim, data->dtype, data->vdevice); };
  if (!values[1] || !values[2] || !values[3] || (ctx.num_args() > 4 && !values[4]))
    return rank_only();
  std::vector<int64_t> axes_values;
  for (const auto& a : *values[1]) {
    auto c = ir::tir::as_const_int(a);
    if (!c) return rank_only();
    axes_values.push_back(*c);
  }
  if (axes_values.empty() && data->shape) return ctx.arg_sinfo(0);
  if (data->is_unknown_ndim()) return rank_only();
  // The axes are an argument here: report range and repeats at it.
  std::vector<int> norm;
  for (int64_t a : axes_values) {
    if (a < -data->ndim || a >= data->ndim) {
      ctx.error_at_arg(1, "E0309",
                       ctx.op_name() + ": axis " + std::to_string(a) +
                           " is out of range for a tensor of rank " + std::to_string(data->ndim) +
                           " (valid: " + std::to_string(-data->ndim) + " to " +
                           std::to_string(data->ndim - 1) + ")");
      return nullptr;
    }
    int n = static_cast<int>(a < 0 ? a + data->ndim : a);
    for (int seen : norm) {
      if (seen == n) {
        ctx.error_at_arg(1, "E0310",
                         ctx.op_name() + ": axis " + std::to_string(n) + " appears more than once");
        return nullptr;
      }
    }
    norm.push_back(n);
  }
  const std::vector<int>* axes = &norm;
  const PrimExprs* dims = known_shape(*data);
  if (!dims) return rank_only();
  bool assume_inbound = ctx.attr_bool("assume_inbound").value_or(false);
  auto& az = ctx.analyzer();
  PrimExprs out = *dims;
  for (size_t i = 0; i < axes->size(); ++i) {
    size_t axis = static_cast<size_t>((*axes)[i]);
    const ExprRef& extent = (*dims)[axis];
    ExprRef begin = (*values[2])[i], end = (*values[3])[i];
    ExprRef stride = values[4] ? (*values[4])[i] : dim_const(1);
    auto s = ir::tir::as_const_int(stride);
    if (!s) return rank_only();
    if (*s == 0) {
      ctx.error_at_arg(4, "E0316",
                       ctx.op_name() + ": the stride of axis " + std::to_string(axis) + " is 0");
      return nullptr;
    }
    ExprRef len;
    if (assume_inbound) {
      len = *s > 0 ? dim_ceildiv(dim_sub(end, begin), dim_const(*s))
                   : dim_ceildiv(dim_sub(begin, end), dim_sub(dim_const(0), stride));
    } else {
      ExprRef b = canonical_index(begin, extent, *s < 0);
      ExprRef e = canonical_index(end, extent, *s < 0);
      len = *s > 0 ? dim_ceildiv(dim_sub(e, b), dim_const(*s))
                   : dim_ceildiv(dim_sub(b, e), dim_sub(dim_const(0), stride));
    }
    len = az.simplify(len);
    // TVM leaves an empty slice's extent negative (begin past end); it is 0 elements.
    if (auto c = ir::tir::as_const_int(len); c && *c < 0) len = dim_const(0);
    out[axis] = len;
  }
  return tensor_with_shape(std::move(out), data->dtype, data->vdevice);
}

Ref<ir::StructInfo> infer_dynamic_strided_slice(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  for (size_t i = 1; i < 4; ++i) {
    auto t = ctx.tensor_arg(i);
    if (!t || !check_int_dtype(ctx, i, t->dtype)) return nullptr;
    if (!t->is_unknown_ndim() && t->ndim != 1) {
      ctx.error_at_arg(i, "E0312",
                       ctx.op_name() + " requires " + arg_name(ctx, i) +
                           " to be 1-D, but it has rank " + std::to_string(t->ndim));
      return nullptr;
    }
  }
  return tensor_with_ndim(data->ndim, data->dtype, data->vdevice);
}

}  // namespace

void register_index_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo take;
  take.name = "relax.take";
  take.doc = "Takes the elements at `indices` along `axis` (a 1-D tensor when axis is None)";
  take.args = {arg("x", "the source tensor"),
               arg("indices", "the integer indices (a tensor or a prim value)")};
  AttrSpec mode = optional_attr(
      "mode", AttrKind::kString,
      "out-of-range indices: not given, a run-time error; \"fast\" unchecked (TVM's default); "
      "\"wrap\", \"clip\", or \"nan\" (NaN results)");
  mode.only_when_given = true;
  take.attrs = {optional_attr("axis", AttrKind::kInt, "the axis to take along"), mode};
  take.infer = infer_take;
  take.pattern = OpPattern::kInjective;
  add_op(r, std::move(take));

  OpInfo slice;
  slice.name = "relax.strided_slice";
  slice.doc = "Slices `x` along `axes` from `begin` to `end` (exclusive) with `strides`";
  slice.args = {arg("x", "the source tensor"), arg("axes", "the axes to slice (a tuple of ints)"),
                arg("begin", "the first indices (a tuple)"),
                arg("end", "the end indices, exclusive (a tuple)"),
                optional_arg("strides", "the steps (a tuple; None: all 1)")};
  slice.attrs = {bool_attr("assume_inbound", false,
                           "trust that begin and end are within the axes (no clamping)")};
  slice.infer = infer_strided_slice;
  slice.pattern = OpPattern::kInjective;
  add_op(r, std::move(slice));

  OpInfo dynamic;
  dynamic.name = "relax.dynamic_strided_slice";
  dynamic.doc =
      "Slices `x` with begin/end/strides given as 1-D tensors (the result's extents are known at "
      "run time)";
  dynamic.args = {arg("x", "the source tensor"), arg("begin", "the first indices (1-D int tensor)"),
                  arg("end", "the end indices (1-D int tensor)"),
                  arg("strides", "the steps (1-D int tensor)")};
  dynamic.infer = infer_dynamic_strided_slice;
  dynamic.pattern = OpPattern::kInjective;
  add_op(r, std::move(dynamic));
}

}  // namespace relax::analysis

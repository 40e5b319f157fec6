// Selection, search and sorting (SEMANTICS.md §3.3-3.4): where (broadcasting select on a bool
// condition), argmax/argmin (an int64 reduction), ewise_fma (x1*x2+x3 on equal shapes), sort,
// argsort, topk, nonzero and unique.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_where(InferContext& ctx) {
  const ir::TensorStructInfo* t[3];
  for (size_t i = 0; i < 3; ++i) {
    t[i] = ctx.tensor_arg(i);
    if (!t[i]) return nullptr;
  }
  if (!t[0]->dtype.is_void() && !t[0]->dtype.is_bool()) {
    ctx.error_at_arg(
           0, "E0311",
           ctx.op_name() + " requires `condition` to have dtype bool, got " + t[0]->dtype.str())
        .note("compare first, e.g. R.greater(x, y), or cast with R.astype(c, \"bool\")");
    return nullptr;
  }
  auto dtype = binary_arith_dtype(ctx, t[1]->dtype, t[2]->dtype, 1, 2);
  if (!dtype) return nullptr;
  Ref<ir::VDevice> vdevice = ctx.common_vdevice({0, 1, 2});
  int ndim = 0;
  for (auto* x : t)
    ndim = (ndim == ir::kUnknownNDim || x->is_unknown_ndim()) ? ir::kUnknownNDim
                                                              : std::max(ndim, x->ndim);
  const PrimExprs* s0 = known_shape(*t[0]);
  const PrimExprs* s1 = known_shape(*t[1]);
  const PrimExprs* s2 = known_shape(*t[2]);
  if (s0 && s1 && s2) {
    PrimExprs values, out;
    switch (broadcast_shapes(ctx, *s1, *s2, values, 1, 2)) {
      case BroadcastResult::kError:
        return nullptr;
      case BroadcastResult::kUnknown:
        return tensor_with_ndim(ndim, *dtype, vdevice);
      case BroadcastResult::kOk:
        break;
    }
    switch (broadcast_shapes(ctx, *s0, values, out, 1, 0)) {
      case BroadcastResult::kError:
        return nullptr;
      case BroadcastResult::kUnknown:
        return tensor_with_ndim(ndim, *dtype, vdevice);
      case BroadcastResult::kOk:
        return tensor_with_shape(std::move(out), *dtype, vdevice);
    }
  }
  if (t[0]->shape && t[0]->shape.same_as(t[1]->shape) && t[0]->shape.same_as(t[2]->shape)) {
    return ir::make<ir::TensorStructInfo>(t[0]->shape, *dtype, t[0]->ndim, vdevice);
  }
  return tensor_with_ndim(ndim, *dtype, vdevice);
}

Ref<ir::StructInfo> infer_arg_reduce(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  std::optional<std::vector<int64_t>> axes;
  if (auto axis = ctx.attr_int("axis")) axes = std::vector<int64_t>{*axis};
  return infer_reduction(ctx, *t, axes, ctx.attr_bool("keepdims").value_or(false),
                         DataType::Int64(), "axis");
}

Ref<ir::StructInfo> infer_ewise_fma(InferContext& ctx) {
  const ir::TensorStructInfo* t[3];
  for (size_t i = 0; i < 3; ++i) {
    t[i] = ctx.tensor_arg(i);
    if (!t[i]) return nullptr;
  }
  int ndim = ir::kUnknownNDim;
  for (size_t i = 0; i < 3; ++i) {
    if (t[i]->is_unknown_ndim()) continue;
    if (ndim == ir::kUnknownNDim) {
      ndim = t[i]->ndim;
    } else if (t[i]->ndim != ndim) {
      ctx.error_at_arg(i, "E0312",
                       ctx.op_name() + " requires its three arguments to have the same rank, but " +
                           arg_name(ctx, i) + " has rank " + std::to_string(t[i]->ndim) +
                           " while the ones before have rank " + std::to_string(ndim));
      return nullptr;
    }
  }
  DataType dtype;
  if (!t[0]->dtype.is_void() && !t[1]->dtype.is_void() && !t[2]->dtype.is_void()) {
    for (size_t i = 1; i < 3; ++i) {
      if (t[i]->dtype != t[0]->dtype) {
        ctx.error_at_arg(i, "E0307",
                         ctx.op_name() + ": arguments have different dtypes: `x1` is " +
                             t[0]->dtype.str() + ", " + arg_name(ctx, i) + " is " +
                             t[i]->dtype.str());
        return nullptr;
      }
    }
    dtype = t[0]->dtype;
  }
  Ref<ir::VDevice> vdevice = shared_vdevice({t[0], t[1], t[2]});
  const PrimExprs* s[3] = {shape_expr_dims(*t[0]), shape_expr_dims(*t[1]), shape_expr_dims(*t[2])};
  if (s[0] && s[1] && s[2]) {
    PrimExprs out;
    bool unknown = false;
    for (size_t d = 0; d < s[0]->size(); ++d) {
      for (size_t i = 1; i < 3; ++i) {
        DimRelation rel = compare_dims(ctx, (*s[0])[d], (*s[i])[d]);
        if (rel == DimRelation::kUnequal) {
          ctx.error_at_arg(i, "E0313",
                           ctx.op_name() + " requires equal shapes: dimension " +
                               std::to_string(d) + " is " + dim_text((*s[0])[d]) + " in `x1` but " +
                               dim_text((*s[i])[d]) + " in " + arg_name(ctx, i));
          return nullptr;
        }
        unknown |= rel == DimRelation::kUnknown;
      }
      out.push_back((*s[0])[d]);
    }
    if (!unknown) return tensor_with_shape(std::move(out), dtype, vdevice);
  } else if (t[0]->shape && t[0]->shape.same_as(t[1]->shape) && t[0]->shape.same_as(t[2]->shape)) {
    return ir::make<ir::TensorStructInfo>(t[0]->shape, dtype, t[0]->ndim, vdevice);
  }
  return tensor_with_ndim(ndim, dtype, vdevice);
}

Ref<ir::StructInfo> infer_sort(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (!t->is_unknown_ndim() &&
      !normalize_axis(ctx, ctx.attr_int("axis").value_or(-1), t->ndim, "axis"))
    return nullptr;
  return ctx.arg_sinfo(0);
}

Ref<ir::StructInfo> infer_argsort(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (!t->is_unknown_ndim() &&
      !normalize_axis(ctx, ctx.attr_int("axis").value_or(-1), t->ndim, "axis"))
    return nullptr;
  DataType dtype = ctx.attr_dtype("dtype").value_or(t->dtype);
  return ir::make<ir::TensorStructInfo>(t->shape, dtype, t->ndim, t->vdevice);
}

Ref<ir::StructInfo> infer_topk(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  std::string ret_type = ctx.attr_string("ret_type").value_or("both");
  if (ret_type != "both" && ret_type != "values" && ret_type != "indices") {
    ctx.error_at_attr("ret_type", "E0316",
                      ctx.op_name() +
                          ": `ret_type` must be \"both\", \"values\" or \"indices\", got \"" +
                          ret_type + "\"");
    return nullptr;
  }
  DataType index_dtype = ctx.attr_dtype("dtype").value_or(t->dtype);
  int64_t k = ctx.attr_int("k").value_or(1);
  Ref<ir::StructInfo> values, indices;
  if (const PrimExprs* dims = shape_expr_dims(*t)) {
    auto axis = normalize_axis(ctx, ctx.attr_int("axis").value_or(-1), t->ndim, "axis");
    if (!axis) return nullptr;
    PrimExprs out = *dims;
    auto extent = ir::tir::as_const_int(out[static_cast<size_t>(*axis)]);
    if (k > 0 && (!extent || k < *extent)) out[static_cast<size_t>(*axis)] = dim_const(k);
    values = tensor_with_shape(out, t->dtype, t->vdevice);
    indices = tensor_with_shape(out, index_dtype, t->vdevice);
  } else {
    if (!t->is_unknown_ndim() &&
        !normalize_axis(ctx, ctx.attr_int("axis").value_or(-1), t->ndim, "axis"))
      return nullptr;
    values = tensor_with_ndim(t->ndim, t->dtype, t->vdevice);
    indices = tensor_with_ndim(t->ndim, index_dtype, t->vdevice);
  }
  if (ret_type == "values") return values;
  if (ret_type == "indices") return indices;
  return ir::make<ir::TupleStructInfo>(std::vector<Ref<ir::StructInfo>>{values, indices});
}

Ref<ir::StructInfo> infer_nonzero(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  return tensor_with_ndim(2, DataType::Int64(), t->vdevice);
}

// A flag or axis of R.unique, passed as a Relax argument (R.prim_value(...)), as TVM does.
std::optional<int64_t> prim_int_arg(InferContext& ctx, size_t i) {
  if (i >= ctx.num_args()) return std::nullopt;
  if (auto pv = ctx.arg(i).as_ptr<ir::PrimValue>()) {
    if (auto imm = pv->value.as_ptr<ir::tir::IntImm>()) return imm->value;
  }
  return std::nullopt;
}

// R.unique(x, sorted, return_index, return_inverse, return_counts[, axis]): the unique values
// (1-D when no axis is given, the input's rank along an axis; shape (1,) for a scalar), then one
// int64 tensor per requested index/inverse/count output. The lengths depend on the data.
Ref<ir::StructInfo> infer_unique(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  int64_t extra = 0;
  for (size_t i = 2; i <= 4; ++i) {
    if (i >= ctx.num_args()) break;
    auto flag = prim_int_arg(ctx, i);
    if (!flag) {
      ctx.error_at_arg(i, "E0316",
                       ctx.op_name() + " needs a constant flag (R.prim_value(True or False)) here");
      return nullptr;
    }
    extra += *flag != 0 ? 1 : 0;
  }
  bool has_axis = ctx.num_args() >= 6;
  if (has_axis && !t->is_unknown_ndim()) {
    auto axis = prim_int_arg(ctx, 5);
    if (axis && !normalize_axis(ctx, *axis, t->ndim, "axis")) return nullptr;
  }
  auto one_dim = [&](DataType dtype) -> Ref<ir::StructInfo> {
    if (t->ndim == 0) return tensor_with_shape(PrimExprs{dim_const(1)}, dtype, t->vdevice);
    return tensor_with_ndim(1, dtype, t->vdevice);
  };
  Ref<ir::StructInfo> values =
      has_axis && t->ndim != 0
          ? Ref<ir::StructInfo>(tensor_with_ndim(t->ndim, t->dtype, t->vdevice))
          : one_dim(t->dtype);
  if (extra == 0) return values;
  std::vector<Ref<ir::StructInfo>> fields{values};
  for (int64_t i = 0; i < extra; ++i) fields.push_back(one_dim(DataType::Int64()));
  return ir::make<ir::TupleStructInfo>(std::move(fields));
}

OpInfo make(std::string name, std::string doc, std::vector<ArgSpec> args,
            std::vector<AttrSpec> attrs, InferFn infer, OpPattern pattern) {
  OpInfo op;
  op.name = "relax." + std::move(name);
  op.doc = std::move(doc);
  op.args = std::move(args);
  op.attrs = std::move(attrs);
  op.infer = std::move(infer);
  op.pattern = pattern;
  return op;
}

}  // namespace

void register_search_ops(OpRegistry& r) {
  using namespace spec;
  add_op(r, make("where", "Elementwise select: x1 where condition is true, else x2 (broadcasting)",
                 {arg("condition", "the bool condition"),
                  arg("x1", "values where the condition holds"), arg("x2", "values elsewhere")},
                 {}, infer_where, OpPattern::kBroadcast));
  for (const char* name : {"argmax", "argmin"}) {
    bool is_max = std::string(name) == "argmax";
    add_op(r, make(name,
                   std::string("Indices (int64) of the ") + (is_max ? "largest" : "smallest") +
                       " values along `axis` (all axes flattened when None)",
                   {arg("x", "the input tensor")},
                   {optional_attr("axis", AttrKind::kInt,
                                  "the axis to search along; None searches the flattened tensor"),
                    bool_attr("keepdims", false, "keep the reduced axis with length 1")},
                   infer_arg_reduce, OpPattern::kCommReduce));
  }
  add_op(r, make("ewise_fma", "Elementwise fused multiply-add x1 * x2 + x3 (equal shapes)",
                 {arg("x1", "the left factor"), arg("x2", "the right factor"),
                  arg("x3", "the addend")},
                 {}, infer_ewise_fma, OpPattern::kElemWise));
  add_op(r, make("sort", "Sorts along `axis`", {arg("data", "the input tensor")},
                 {int_attr("axis", -1, "the axis to sort along"),
                  bool_attr("descending", false, "sort in descending order")},
                 infer_sort, OpPattern::kOpaque));
  add_op(r, make("argsort", "Indices that sort the tensor along `axis`",
                 {arg("data", "the input tensor")},
                 {int_attr("axis", -1, "the axis to sort along"),
                  bool_attr("descending", false, "sort in descending order"),
                  dtype_attr("dtype", "int32", "the dtype of the indices")},
                 infer_argsort, OpPattern::kOpaque));
  add_op(r,
         make("topk", "The k largest (or smallest) values and/or their indices along `axis`",
              {arg("data", "the input tensor")},
              {int_attr("k", 1, "how many elements to keep (k < 1 keeps all)"),
               int_attr("axis", -1, "the axis to search along"),
               string_attr("ret_type", "both",
                           "\"both\" (a tuple of values and indices), \"values\" or \"indices\""),
               bool_attr("largest", true, "take the largest elements (False: the smallest)"),
               dtype_attr("dtype", "int32", "the dtype of the indices")},
              infer_topk, OpPattern::kOpaque));
  add_op(r, make("nonzero", "Indices (int64, one row per dimension) of the non-zero elements",
                 {arg("x", "the input tensor")}, {}, infer_nonzero, OpPattern::kOpaque));
  add_op(r, make("unique",
                 "The unique elements (1-D, or along `axis`), optionally with int64 first "
                 "indices, inverse indices and counts",
                 {arg("x", "the input tensor"), optional_arg("sorted", "R.prim_value(True): sort"),
                  optional_arg("return_index", "R.prim_value(bool): also the first indices"),
                  optional_arg("return_inverse", "R.prim_value(bool): also the inverse indices"),
                  optional_arg("return_counts", "R.prim_value(bool): also the counts"),
                  optional_arg("axis", "R.prim_value(int): the axis; none flattens the input")},
                 {}, infer_unique, OpPattern::kOpaque));
}

}  // namespace relax::analysis

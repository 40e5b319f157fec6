// Normalization and dropout (SEMANTICS.md §3.8): layer_norm, rms_norm, batch_norm, group_norm and
// instance_norm check that the scale/offset tensors match the data along the normalized axes;
// dropout returns the output and its mask.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

// TVM's NormCheckDtypeAndShape: float data; every other argument has the data's dtype, one dim
// per normalized axis, and those dims match the data's. Returns nullopt after an error, else
// whether some length could not be compared (the output then keeps only the rank).
std::optional<bool> check_norm_inputs(InferContext& ctx,
                                      const std::vector<const ir::TensorStructInfo*>& t,
                                      const std::vector<int64_t>& axes,
                                      std::string_view axes_attr) {
  const ir::TensorStructInfo& data = *t[0];
  std::vector<int> norm;
  if (!data.is_unknown_ndim()) {
    auto n = normalize_axes(ctx, axes, data.ndim, axes_attr);
    if (!n) return std::nullopt;
    norm = *n;
  }
  if (!check_float_dtype(ctx, 0, data.dtype)) return std::nullopt;
  for (size_t i = 1; i < t.size(); ++i) {
    if (!data.dtype.is_void() && !t[i]->dtype.is_void() && t[i]->dtype != data.dtype) {
      ctx.error_at_arg(i, "E0307",
                       ctx.op_name() + ": " + arg_name(ctx, i) + " has dtype " + t[i]->dtype.str() +
                           " but `data` has dtype " + data.dtype.str());
      return std::nullopt;
    }
    if (!t[i]->is_unknown_ndim() && t[i]->ndim != static_cast<int>(axes.size())) {
      ctx.error_at_arg(i, "E0312",
                       ctx.op_name() + ": " + arg_name(ctx, i) +
                           " must have one dimension per normalized axis (" +
                           std::to_string(axes.size()) + "), but it has rank " +
                           std::to_string(t[i]->ndim));
      return std::nullopt;
    }
  }
  const PrimExprs* data_dims = shape_expr_dims(data);
  bool unknown = data_dims == nullptr;
  for (size_t i = 1; i < t.size(); ++i) {
    const PrimExprs* dims = shape_expr_dims(*t[i]);
    if (!dims) {
      unknown = true;
      continue;
    }
    if (!data_dims) continue;
    for (size_t d = 0; d < norm.size() && d < dims->size(); ++d) {
      const ExprRef& expected = (*data_dims)[static_cast<size_t>(norm[d])];
      DimRelation rel = compare_dims(ctx, expected, (*dims)[d]);
      if (rel == DimRelation::kUnequal) {
        ctx.error_at_arg(i, "E0313",
                         ctx.op_name() + ": " + arg_name(ctx, i) + " has length " +
                             dim_text((*dims)[d]) + " on dimension " + std::to_string(d) +
                             ", but `data` has length " + dim_text(expected) +
                             " on the normalized axis " + std::to_string(norm[d]));
        return std::nullopt;
      }
      unknown |= rel == DimRelation::kUnknown;
    }
  }
  return unknown;
}

std::optional<std::vector<const ir::TensorStructInfo*>> tensor_args(InferContext& ctx, size_t n) {
  std::vector<const ir::TensorStructInfo*> t;
  for (size_t i = 0; i < n; ++i) {
    auto x = ctx.tensor_arg(i);
    if (!x) return std::nullopt;
    t.push_back(x);
  }
  return t;
}

Ref<ir::StructInfo> data_or_rank(InferContext& ctx, const ir::TensorStructInfo& data,
                                 bool unknown) {
  if (unknown) return tensor_with_ndim(data.ndim, data.dtype, data.vdevice);
  return ctx.arg_sinfo(0);
}

Ref<ir::StructInfo> infer_layer_norm(InferContext& ctx) {
  auto t = tensor_args(ctx, 3);
  if (!t) return nullptr;
  auto unknown = check_norm_inputs(
      ctx, *t, ctx.attr_int_array("axes").value_or(std::vector<int64_t>{}), "axes");
  if (!unknown) return nullptr;
  return data_or_rank(ctx, *(*t)[0], *unknown);
}

Ref<ir::StructInfo> infer_rms_norm(InferContext& ctx) {
  auto t = tensor_args(ctx, 2);
  if (!t) return nullptr;
  auto unknown = check_norm_inputs(
      ctx, *t, ctx.attr_int_array("axes").value_or(std::vector<int64_t>{-1}), "axes");
  if (!unknown) return nullptr;
  return data_or_rank(ctx, *(*t)[0], *unknown);
}

Ref<ir::StructInfo> infer_batch_norm(InferContext& ctx) {
  auto t = tensor_args(ctx, 5);
  if (!t) return nullptr;
  auto unknown = check_norm_inputs(ctx, *t, {ctx.attr_int("axis").value_or(1)}, "axis");
  if (!unknown) return nullptr;
  const ir::TensorStructInfo& data = *(*t)[0];
  if (*unknown) {
    return ir::make<ir::TupleStructInfo>(
        std::vector<Ref<ir::StructInfo>>{tensor_with_ndim(data.ndim, data.dtype, data.vdevice),
                                         tensor_with_ndim(1, data.dtype, data.vdevice),
                                         tensor_with_ndim(1, data.dtype, data.vdevice)});
  }
  return ir::make<ir::TupleStructInfo>(
      std::vector<Ref<ir::StructInfo>>{ctx.arg_sinfo(0), ctx.arg_sinfo(3), ctx.arg_sinfo(4)});
}

// group_norm and instance_norm: gamma and beta are 1-D with the channel count.
Ref<ir::StructInfo> infer_channel_norm(InferContext& ctx, bool grouped) {
  auto t = tensor_args(ctx, 3);
  if (!t) return nullptr;
  const ir::TensorStructInfo& data = *(*t)[0];
  int channel_axis = -1;
  if (!data.is_unknown_ndim()) {
    auto c =
        normalize_axis(ctx, ctx.attr_int("channel_axis").value_or(1), data.ndim, "channel_axis");
    if (!c) return nullptr;
    channel_axis = *c;
    auto axes = normalize_axes(ctx, ctx.attr_int_array("axes").value_or(std::vector<int64_t>{}),
                               data.ndim, "axes");
    if (!axes) return nullptr;
    for (int a : *axes) {
      if (a == channel_axis) {
        ctx.error_at_attr("axes", "E0316",
                          ctx.op_name() + ": `axes` must not contain the channel axis " +
                              std::to_string(channel_axis));
        return nullptr;
      }
    }
  }
  if (!check_float_dtype(ctx, 0, data.dtype, /*allow_bfloat=*/false)) return nullptr;
  for (size_t i = 1; i < 3; ++i) {
    const auto* x = (*t)[i];
    if (!data.dtype.is_void() && !x->dtype.is_void() && x->dtype != data.dtype) {
      ctx.error_at_arg(i, "E0307",
                       ctx.op_name() + ": " + arg_name(ctx, i) + " has dtype " + x->dtype.str() +
                           " but `data` has dtype " + data.dtype.str());
      return nullptr;
    }
    if (!x->is_unknown_ndim() && x->ndim != 1) {
      ctx.error_at_arg(i, "E0312",
                       ctx.op_name() + " requires " + arg_name(ctx, i) +
                           " to be 1-D (one value per channel), but it has rank " +
                           std::to_string(x->ndim));
      return nullptr;
    }
  }
  const PrimExprs* data_dims = shape_expr_dims(data);
  if (!data_dims || channel_axis < 0) return ctx.arg_sinfo(0);
  const ExprRef& channels = (*data_dims)[static_cast<size_t>(channel_axis)];
  if (grouped) {
    int64_t groups = ctx.attr_int("num_groups").value_or(1);
    if (groups <= 0) {
      ctx.error_at_attr(
          "num_groups", "E0316",
          ctx.op_name() + ": `num_groups` must be positive, got " + std::to_string(groups));
      return nullptr;
    }
    if (ctx.analyzer().prove(ir::tir::binary(
            ir::ObjectKind::kNE, dim_floormod(channels, dim_const(groups)), dim_const(0))) ==
        arith::Proof::kYes) {
      ctx.error_at_attr(
          "num_groups", "E0320",
          ctx.op_name() + ": the " + dim_text(channels) +
              " channels are not divisible by num_groups = " + std::to_string(groups));
      return nullptr;
    }
  }
  for (size_t i = 1; i < 3; ++i) {
    const PrimExprs* dims = shape_expr_dims(*(*t)[i]);
    if (dims && dims->size() == 1 &&
        compare_dims(ctx, (*dims)[0], channels) == DimRelation::kUnequal) {
      ctx.error_at_arg(i, "E0313",
                       ctx.op_name() + ": " + arg_name(ctx, i) + " has length " +
                           dim_text((*dims)[0]) + " but `data` has " + dim_text(channels) +
                           " channels");
      return nullptr;
    }
  }
  return ctx.arg_sinfo(0);
}

Ref<ir::StructInfo> infer_dropout(InferContext& ctx) {
  if (!ctx.tensor_arg(0)) return nullptr;
  return ir::make<ir::TupleStructInfo>(
      std::vector<Ref<ir::StructInfo>>{ctx.arg_sinfo(0), ctx.arg_sinfo(0)});
}

OpInfo make(std::string name, std::string doc, std::vector<ArgSpec> args,
            std::vector<AttrSpec> attrs, InferFn infer) {
  OpInfo op;
  op.name = "relax.nn." + std::move(name);
  op.doc = std::move(doc);
  op.args = std::move(args);
  op.attrs = std::move(attrs);
  op.infer = std::move(infer);
  op.pattern = OpPattern::kOutEWiseFusable;
  return op;
}

}  // namespace

void register_normalization_ops(OpRegistry& r) {
  using namespace spec;
  AttrSpec epsilon = float_attr("epsilon", 1e-5, "added to the variance to avoid dividing by zero");
  AttrSpec center = bool_attr("center", true, "add the beta offset");
  AttrSpec scale = bool_attr("scale", true, "multiply by the gamma scale");
  add_op(r, make("layer_norm",
                 "Layer normalization over `axes`: (x - mean) / sqrt(var + epsilon) * gamma + beta",
                 {arg("data", "the input tensor"),
                  arg("gamma", "the scale, shaped like the normalized axes"),
                  arg("beta", "the offset, shaped like the normalized axes")},
                 {required_attr("axes", AttrKind::kIntArray, "the axes to normalize over"), epsilon,
                  center, scale},
                 infer_layer_norm));
  add_op(r,
         make("rms_norm",
              "Root-mean-square normalization over `axes`: x / sqrt(mean(x*x) + epsilon) * weight",
              {arg("data", "the input tensor"),
               arg("weight", "the scale, shaped like the normalized axes")},
              {ints_attr("axes", {-1}, "the axes to normalize over"), epsilon}, infer_rms_norm));
  add_op(r,
         make("batch_norm",
              "Batch normalization along the channel `axis`; returns (output, new moving mean, new "
              "moving var)",
              {arg("data", "the input tensor"), arg("gamma", "the scale, one per channel"),
               arg("beta", "the offset, one per channel"), arg("moving_mean", "the running mean"),
               arg("moving_var", "the running variance")},
              {required_attr("axis", AttrKind::kInt, "the channel axis"), epsilon, center, scale,
               float_attr("momentum", 0.1, "the update rate of the running statistics"),
               bool_attr("training", true,
                         "normalize with the batch statistics (False: the running ones)")},
              infer_batch_norm));
  add_op(r,
         make("group_norm",
              "Group normalization: channels split into `num_groups`, each normalized over `axes`",
              {arg("data", "the input tensor"), arg("gamma", "the scale, one per channel"),
               arg("beta", "the offset, one per channel")},
              {required_attr("num_groups", AttrKind::kInt, "the number of channel groups"),
               required_attr("channel_axis", AttrKind::kInt, "the channel axis"),
               required_attr("axes", AttrKind::kIntArray,
                             "the axes to normalize over (not the channel axis)"),
               epsilon, center, scale},
              [](InferContext& ctx) { return infer_channel_norm(ctx, true); }));
  add_op(r, make("instance_norm",
                 "Instance normalization: each channel of each sample normalized over `axes`",
                 {arg("data", "the input tensor"), arg("gamma", "the scale, one per channel"),
                  arg("beta", "the offset, one per channel")},
                 {required_attr("channel_axis", AttrKind::kInt, "the channel axis"),
                  required_attr("axes", AttrKind::kIntArray,
                                "the axes to normalize over (not the channel axis)"),
                  epsilon, center, scale},
                 [](InferContext& ctx) { return infer_channel_norm(ctx, false); }));
  OpInfo dropout =
      make("dropout", "Dropout with probability `rate`; returns (output, mask)",
           {arg("data", "the input tensor")},
           {float_attr("rate", 0.5, "the probability of dropping an element")}, infer_dropout);
  dropout.pattern = OpPattern::kOpaque;
  add_op(r, std::move(dropout));
}

}  // namespace relax::analysis

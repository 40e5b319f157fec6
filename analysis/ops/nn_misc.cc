// Other nn ops: pad (constant/reflect/replicate/circular padding of every axis), the losses
// nll_loss and cross_entropy_with_logits, batch_flatten and pixel_shuffle.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_pad(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  std::string mode = ctx.attr_string("pad_mode").value_or("constant");
  if (mode != "constant" && mode != "reflect" && mode != "replicate" && mode != "circular" &&
      mode != "edge") {
    ctx.error_at_attr("pad_mode", "E0316",
                      ctx.op_name() +
                          ": `pad_mode` must be \"constant\", \"reflect\", \"replicate\" or "
                          "\"circular\", got \"" +
                          mode + "\"");
    return nullptr;
  }
  auto width = ctx.attr_int_array("pad_width").value_or(std::vector<int64_t>{});
  if (t->is_unknown_ndim()) return tensor_with_ndim(ir::kUnknownNDim, t->dtype, t->vdevice);
  if (width.size() != 2 * static_cast<size_t>(t->ndim)) {
    ctx.error_at_attr("pad_width", "E0316",
                      ctx.op_name() +
                          ": `pad_width` must have two values (before, after) per axis, " +
                          std::to_string(2 * t->ndim) + " for rank " + std::to_string(t->ndim) +
                          ", got " + std::to_string(width.size()));
    return nullptr;
  }
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) return tensor_with_ndim(t->ndim, t->dtype, t->vdevice);
  PrimExprs out;
  for (size_t i = 0; i < dims->size(); ++i) {
    out.push_back(ctx.analyzer().simplify(
        dim_add(dim_add((*dims)[i], dim_const(width[2 * i])), dim_const(width[2 * i + 1]))));
  }
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

Ref<ir::StructInfo> infer_nll_loss(InferContext& ctx) {
  auto pred = ctx.tensor_arg(0);
  auto targets = pred ? ctx.tensor_arg(1) : nullptr;
  if (!targets) return nullptr;
  const ir::TensorStructInfo* weights = nullptr;
  if (ctx.num_args() > 2) {
    weights = ctx.tensor_arg(2);
    if (!weights) return nullptr;
  }
  std::string reduction = ctx.attr_string("reduction").value_or("mean");
  if (reduction != "mean" && reduction != "sum" && reduction != "none") {
    ctx.error_at_attr("reduction", "E0316",
                      ctx.op_name() +
                          ": `reduction` must be \"mean\", \"sum\" or \"none\", got \"" +
                          reduction + "\"");
    return nullptr;
  }
  if (!check_float_dtype(ctx, 0, pred->dtype) || !check_int_dtype(ctx, 1, targets->dtype))
    return nullptr;
  if (weights && !pred->dtype.is_void() && !weights->dtype.is_void() &&
      weights->dtype != pred->dtype) {
    ctx.error_at_arg(2, "E0307",
                     ctx.op_name() + ": `weights` has dtype " + weights->dtype.str() +
                         " but `predictions` has dtype " + pred->dtype.str());
    return nullptr;
  }
  if (!pred->is_unknown_ndim() && pred->ndim == 0) {
    ctx.error_at_arg(
        0, "E0312",
        ctx.op_name() +
            " requires `predictions` of rank 1 (C) or more (N, C, d1, ...), but it has rank 0");
    return nullptr;
  }
  int expected_target_ndim = pred->is_unknown_ndim() ? ir::kUnknownNDim
                             : pred->ndim == 1       ? 0
                                                     : pred->ndim - 1;
  if (expected_target_ndim != ir::kUnknownNDim && !targets->is_unknown_ndim() &&
      targets->ndim != expected_target_ndim) {
    ctx.error_at_arg(1, "E0312",
                     ctx.op_name() + " requires `targets` of rank " +
                         std::to_string(expected_target_ndim) + " for predictions of rank " +
                         std::to_string(pred->ndim) + ", but it has rank " +
                         std::to_string(targets->ndim));
    return nullptr;
  }
  if (weights && !weights->is_unknown_ndim() && weights->ndim != 1) {
    ctx.error_at_arg(2, "E0312",
                     ctx.op_name() +
                         " requires `weights` to be 1-D (one per class), but it has rank " +
                         std::to_string(weights->ndim));
    return nullptr;
  }
  const PrimExprs* pd = shape_expr_dims(*pred);
  const PrimExprs* td = shape_expr_dims(*targets);
  if (pd && !pd->empty()) {
    ExprRef classes = pd->size() == 1 ? (*pd)[0] : (*pd)[1];
    if (td && pd->size() >= 2) {
      // targets are (N, d1, ...): predictions without the class axis.
      PrimExprs expected = *pd;
      expected.erase(expected.begin() + 1);
      for (size_t i = 0; i < expected.size() && i < td->size(); ++i) {
        if (compare_dims(ctx, expected[i], (*td)[i]) == DimRelation::kUnequal) {
          ctx.error_at_arg(1, "E0313",
                           ctx.op_name() + ": `targets` " + shape_text(*td) +
                               " does not match the predictions " + shape_text(*pd) +
                               " without their class axis " + shape_text(expected));
          return nullptr;
        }
      }
    }
    if (weights) {
      const PrimExprs* wd = shape_expr_dims(*weights);
      if (wd && wd->size() == 1 && compare_dims(ctx, (*wd)[0], classes) == DimRelation::kUnequal) {
        ctx.error_at_arg(2, "E0313",
                         ctx.op_name() + ": `weights` has " + dim_text((*wd)[0]) +
                             " values but there are " + dim_text(classes) + " classes");
        return nullptr;
      }
    }
  }
  if (reduction != "none") return tensor_with_shape({}, pred->dtype, pred->vdevice);
  if (td) return tensor_with_shape(*td, pred->dtype, pred->vdevice);
  return tensor_with_ndim(expected_target_ndim, pred->dtype, pred->vdevice);
}

Ref<ir::StructInfo> infer_cross_entropy(InferContext& ctx) {
  auto pred = ctx.tensor_arg(0);
  auto labels = pred ? ctx.tensor_arg(1) : nullptr;
  if (!labels) return nullptr;
  auto dtype = binary_arith_dtype(ctx, pred->dtype, labels->dtype, 0, 1);
  if (!dtype) return nullptr;
  if (!pred->is_unknown_ndim() && !labels->is_unknown_ndim() && pred->ndim != labels->ndim) {
    ctx.error_at_arg(1, "E0312",
                     ctx.op_name() + " requires `labels` to have the rank of `predictions` (" +
                         std::to_string(pred->ndim) + "), but it has rank " +
                         std::to_string(labels->ndim));
    return nullptr;
  }
  const PrimExprs* pd = shape_expr_dims(*pred);
  const PrimExprs* ld = shape_expr_dims(*labels);
  if (pd && ld) {
    for (size_t i = 0; i < pd->size() && i < ld->size(); ++i) {
      if (compare_dims(ctx, (*pd)[i], (*ld)[i]) == DimRelation::kUnequal) {
        ctx.error_at_arg(1, "E0313",
                         ctx.op_name() +
                             " requires `labels` shaped like `predictions`, but they are " +
                             shape_text(*ld) + " and " + shape_text(*pd));
        return nullptr;
      }
    }
  }
  return tensor_with_shape({}, *dtype, ctx.common_vdevice({0, 1}));
}

Ref<ir::StructInfo> infer_batch_flatten(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (t->is_unknown_ndim()) return tensor_with_ndim(2, t->dtype, t->vdevice);
  if (t->ndim < 2) {
    ctx.error_at_arg(0, "E0312",
                     ctx.op_name() + " requires a tensor of rank 2 or more, but it has rank " +
                         std::to_string(t->ndim));
    return nullptr;
  }
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) return tensor_with_ndim(2, t->dtype, t->vdevice);
  PrimExprs rest(dims->begin() + 1, dims->end());
  return tensor_with_shape({(*dims)[0], ctx.analyzer().simplify(shape_product(rest))}, t->dtype,
                           t->vdevice);
}

Ref<ir::StructInfo> infer_pixel_shuffle(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  int64_t r = ctx.attr_int("upscale_factor").value_or(1);
  if (r <= 0) {
    ctx.error_at_attr(
        "upscale_factor", "E0316",
        ctx.op_name() + ": `upscale_factor` must be positive, got " + std::to_string(r));
    return nullptr;
  }
  if (!t->is_unknown_ndim() && t->ndim != 4) {
    ctx.error_at_arg(0, "E0312",
                     ctx.op_name() + " requires a 4-D (N, C*r*r, H, W) tensor, but it has rank " +
                         std::to_string(t->ndim));
    return nullptr;
  }
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) return tensor_with_ndim(4, t->dtype, t->vdevice);
  auto& az = ctx.analyzer();
  ExprRef rr = dim_mul(dim_const(r), dim_const(r));
  if (az.prove(ir::tir::binary(ir::ObjectKind::kNE, dim_floormod((*dims)[1], rr), dim_const(0))) ==
      arith::Proof::kYes) {
    ctx.error_at_arg(0, "E0320",
                     ctx.op_name() + ": the " + dim_text((*dims)[1]) +
                         " channels are not divisible by upscale_factor^2 = " + dim_text(rr));
    return nullptr;
  }
  return tensor_with_shape({(*dims)[0], az.simplify(dim_floordiv((*dims)[1], rr)),
                            az.simplify(dim_mul((*dims)[2], dim_const(r))),
                            az.simplify(dim_mul((*dims)[3], dim_const(r)))},
                           t->dtype, t->vdevice);
}

OpInfo make_op(std::string name, std::string doc, std::vector<ArgSpec> args,
               std::vector<AttrSpec> attrs, InferFn infer, OpPattern pattern) {
  OpInfo op;
  op.name = "relax.nn." + std::move(name);
  op.doc = std::move(doc);
  op.args = std::move(args);
  op.attrs = std::move(attrs);
  op.infer = std::move(infer);
  op.pattern = pattern;
  return op;
}

}  // namespace

void register_nn_misc_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo pad = make_op(
      "pad",
      "Pads every axis by (before, after) widths with a constant or by reflecting/replicating",
      {arg("data", "the input tensor")},
      {required_attr("pad_width", AttrKind::kIntArray, "(before, after) for each axis, flattened"),
       float_attr("pad_value", 0.0, "the value of constant padding"),
       string_attr("pad_mode", "constant", "constant, reflect, replicate or circular")},
      infer_pad, OpPattern::kInjective);
  pad.attr_positions = {"pad_width", "pad_mode", "pad_value"};
  add_op(r, std::move(pad));
  add_op(r,
         make_op("nll_loss",
                 "Negative log-likelihood loss of log-probabilities (N, C, d1, ...) at integer "
                 "targets (N, d1, ...)",
                 {arg("predictions", "the log-probabilities"), arg("targets", "the target classes"),
                  optional_arg("weights", "a weight per class (None: all 1)")},
                 {string_attr("reduction", "mean", "mean, sum or none"),
                  int_attr("ignore_index", -100, "a target value that contributes nothing")},
                 infer_nll_loss, OpPattern::kOpaque));
  add_op(r, make_op("cross_entropy_with_logits",
                    "Cross entropy -sum(predictions * labels) / N of equally shaped tensors",
                    {arg("predictions", "the predictions"), arg("labels", "the labels")}, {},
                    infer_cross_entropy, OpPattern::kOpaque));
  add_op(r, make_op("batch_flatten", "Flattens all axes but the first: (d0, d1*d2*...)",
                    {arg("data", "the input tensor")}, {}, infer_batch_flatten,
                    OpPattern::kInjective));
  add_op(r, make_op("pixel_shuffle",
                    "Moves channel blocks into space: (N, C*r*r, H, W) to (N, C, H*r, W*r)",
                    {arg("data", "the input tensor")},
                    {required_attr("upscale_factor", AttrKind::kInt, "the factor r")},
                    infer_pixel_shuffle, OpPattern::kInjective));
}

}  // namespace relax::analysis

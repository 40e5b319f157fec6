// Activations and softmax (SEMANTICS.md §3.2): relu, gelu, gelu_tanh, selu, silu, leakyrelu and
// softplus keep the input's struct info (all but relu require a float dtype); prelu scales
// negative values by a per-channel slope; softmax and log_softmax normalize along one axis.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_activation(InferContext& ctx, bool require_float) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (require_float && !check_float_dtype(ctx, 0, t->dtype)) return nullptr;
  return ctx.arg_sinfo(0);
}

// softmax / log_softmax: float input, the axis in range (unchecked while the rank is unknown).
Ref<ir::StructInfo> infer_softmax(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (t->is_unknown_ndim()) return ctx.arg_sinfo(0);
  if (!check_float_dtype(ctx, 0, t->dtype)) return nullptr;
  if (!normalize_axis(ctx, ctx.attr_int("axis").value_or(-1), t->ndim, "axis")) return nullptr;
  return ctx.arg_sinfo(0);
}

Ref<ir::StructInfo> infer_prelu(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t || !ctx.tensor_arg(1)) return nullptr;
  if (t->is_unknown_ndim()) return ctx.arg_sinfo(0);
  if (!check_float_dtype(ctx, 0, t->dtype, /*allow_bfloat=*/false)) return nullptr;
  if (!normalize_axis(ctx, ctx.attr_int("axis").value_or(1), t->ndim, "axis")) return nullptr;
  return ctx.arg_sinfo(0);
}

void add_activation(OpRegistry& r, const std::string& name, const std::string& doc,
                    bool require_float, std::vector<AttrSpec> attrs = {}) {
  OpInfo op;
  op.name = "relax.nn." + name;
  op.doc = doc;
  op.args = {spec::arg("data", "the input tensor")};
  op.attrs = std::move(attrs);
  op.infer = [require_float](InferContext& ctx) { return infer_activation(ctx, require_float); };
  op.pattern = OpPattern::kElemWise;
  spec::add_op(r, std::move(op));
}

}  // namespace

void register_nn_activation_ops(OpRegistry& r) {
  add_activation(r, "relu", "Rectified linear unit max(x, 0)", false);
  add_activation(r, "gelu", "Gaussian error linear unit 0.5*x*(1+erf(x/sqrt(2))) (float input)",
                 true);
  add_activation(r, "gelu_tanh", "GELU with the tanh approximation (float input)", true);
  add_activation(r, "selu", "Scaled exponential linear unit (float input)", true);
  add_activation(r, "silu", "Sigmoid linear unit x*sigmoid(x) (float input)", true);
  add_activation(r, "leakyrelu", "Leaky ReLU: x if x > 0 else alpha*x (float input)", true,
                 {spec::float_attr("alpha", 0.01, "the slope for negative inputs")});
  add_activation(r, "softplus",
                 "Softplus log(1+exp(beta*x))/beta, linear above threshold (float input)", true,
                 {spec::float_attr("beta", 1.0, "the smoothness of the transition"),
                  spec::float_attr("threshold", 20.0, "above beta*x > threshold the result is x")});

  OpInfo prelu;
  prelu.name = "relax.nn.prelu";
  prelu.doc =
      "Parametric ReLU: x if x > 0 else alpha*x, alpha per channel along `axis` (float input)";
  prelu.args = {spec::arg("data", "the input tensor"),
                spec::arg("alpha", "the slopes, one per channel")};
  prelu.attrs = {spec::int_attr("axis", 1, "the channel axis alpha applies along")};
  prelu.infer = infer_prelu;
  prelu.pattern = OpPattern::kBroadcast;
  spec::add_op(r, std::move(prelu));

  for (const char* name : {"softmax", "log_softmax"}) {
    OpInfo op;
    op.name = std::string("relax.nn.") + name;
    op.doc = std::string(name) == "softmax"
                 ? "Softmax exp(x)/sum(exp(x)) along `axis` (float input)"
                 : "Log of the softmax along `axis` (float input)";
    op.args = {spec::arg("data", "the input tensor")};
    op.attrs = {spec::int_attr("axis", -1, "the axis to normalize along")};
    op.infer = infer_softmax;
    op.pattern = OpPattern::kOutEWiseFusable;
    spec::add_op(r, std::move(op));
  }
}

}  // namespace relax::analysis

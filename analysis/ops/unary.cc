// Elementwise unary ops (SEMANTICS.md §3.1): math that keeps the input's struct info (trig,
// exp/log, sqrt, sigmoid, tanh and erf require a float dtype), the bool-valued checks
// isfinite/isinf/isnan, and clip with prim-value bounds.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_unary(InferContext& ctx, bool require_float) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (require_float && !check_float_dtype(ctx, 0, t->dtype)) return nullptr;
  return ctx.arg_sinfo(0);
}

Ref<ir::StructInfo> infer_check(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  return with_dtype(*t, DataType::Bool());
}

Ref<ir::StructInfo> infer_clip(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  for (size_t i = 1; i < 3; ++i) {
    if (!ctx.arg_sinfo(i).is<ir::PrimStructInfo>()) {
      ctx.error_at_arg(i, "E0317",
                       ctx.op_name() + " requires " + arg_name(ctx, i) +
                           " to be a scalar (R.prim_value), got " + sinfo_text(ctx.arg_sinfo(i)));
      return nullptr;
    }
  }
  return ctx.arg_sinfo(0);
}

void add_unary(OpRegistry& r, const std::string& name, const std::string& doc, bool require_float) {
  OpInfo op;
  op.name = "relax." + name;
  op.doc = doc + (require_float ? " (float input)" : "");
  op.args = {spec::arg("x", "the input tensor")};
  op.infer = [require_float](InferContext& ctx) { return infer_unary(ctx, require_float); };
  op.pattern = OpPattern::kElemWise;
  spec::add_op(r, std::move(op));
}

void add_check(OpRegistry& r, const std::string& name, const std::string& doc) {
  OpInfo op;
  op.name = "relax." + name;
  op.doc = doc;
  op.args = {spec::arg("x", "the input tensor")};
  op.infer = infer_check;
  op.pattern = OpPattern::kElemWise;
  spec::add_op(r, std::move(op));
}

}  // namespace

void register_unary_ops(OpRegistry& r) {
  // Float-only math.
  add_unary(r, "acos", "Elementwise arc cosine", true);
  add_unary(r, "acosh", "Elementwise inverse hyperbolic cosine", true);
  add_unary(r, "asin", "Elementwise arc sine", true);
  add_unary(r, "asinh", "Elementwise inverse hyperbolic sine", true);
  add_unary(r, "atan", "Elementwise arc tangent", true);
  add_unary(r, "atanh", "Elementwise inverse hyperbolic tangent", true);
  add_unary(r, "cos", "Elementwise cosine", true);
  add_unary(r, "cosh", "Elementwise hyperbolic cosine", true);
  add_unary(r, "exp", "Elementwise exponential e**x", true);
  add_unary(r, "log", "Elementwise natural logarithm", true);
  add_unary(r, "rsqrt", "Elementwise reciprocal square root 1/sqrt(x)", true);
  add_unary(r, "sigmoid", "Elementwise logistic sigmoid 1/(1+exp(-x))", true);
  add_unary(r, "sin", "Elementwise sine", true);
  add_unary(r, "sinh", "Elementwise hyperbolic sine", true);
  add_unary(r, "sqrt", "Elementwise square root", true);
  add_unary(r, "tan", "Elementwise tangent", true);
  add_unary(r, "tanh", "Elementwise hyperbolic tangent", true);
  add_unary(r, "erf", "Elementwise Gauss error function", true);
  // Any dtype.
  add_unary(r, "abs", "Elementwise absolute value", false);
  add_unary(r, "bitwise_not", "Elementwise bitwise not (~x)", false);
  add_unary(r, "ceil", "Elementwise ceiling", false);
  add_unary(r, "floor", "Elementwise floor", false);
  add_unary(r, "logical_not", "Elementwise logical not", false);
  add_unary(r, "negative", "Elementwise negation -x", false);
  add_unary(r, "round", "Elementwise rounding to the nearest integer", false);
  add_unary(r, "sign", "Elementwise sign (-1, 0 or 1)", false);
  add_unary(r, "square", "Elementwise square x*x", false);
  add_unary(r, "trunc", "Elementwise truncation toward zero", false);
  // Checks with a bool result.
  add_check(r, "isfinite", "Elementwise test for finite values (bool result)");
  add_check(r, "isinf", "Elementwise test for infinities (bool result)");
  add_check(r, "isnan", "Elementwise test for NaN (bool result)");

  OpInfo clip;
  clip.name = "relax.clip";
  clip.doc = "Clamps every element into [min, max]";
  clip.args = {spec::arg("x", "the input tensor"),
               spec::arg("min", "the lower bound (a prim value)"),
               spec::arg("max", "the upper bound (a prim value)")};
  clip.infer = infer_clip;
  clip.pattern = OpPattern::kElemWise;
  spec::add_op(r, std::move(clip));
}

}  // namespace relax::analysis

// Backward ops that relax's gradient pass emits (relax.grad.*): each returns a gradient shaped
// like the forward op's input (predictions, the pooled data, the tensor taken from).
#include "analysis/ops/nn_window.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::Ref;

namespace {

// The struct info of argument `like` once every argument is a tensor.
Ref<ir::StructInfo> infer_like_arg(InferContext& ctx, size_t like) {
  for (size_t i = 0; i < ctx.num_args(); ++i) {
    if (!ctx.tensor_arg(i)) return nullptr;
  }
  return ctx.arg_sinfo(like);
}

Ref<ir::StructInfo> infer_pool_backward(InferContext& ctx) {
  if (!ctx.tensor_arg(0)) return nullptr;
  // The window must fit the data as it does in the forward op.
  if (!infer_pool(ctx, 2, 1)) return nullptr;
  return ctx.arg_sinfo(1);
}

Ref<ir::StructInfo> infer_take_backward(InferContext& ctx) {
  auto x = ctx.tensor_arg(1);
  if (!ctx.tensor_arg(0) || !x) return nullptr;
  if (auto axis = ctx.attr_int("axis");
      axis && !x->is_unknown_ndim() && !normalize_axis(ctx, *axis, x->ndim, "axis")) {
    return nullptr;
  }
  return ctx.arg_sinfo(1);
}

}  // namespace

void register_grad_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo nll;
  nll.name = "relax.grad.nll_loss_backward";
  nll.doc = "Gradient of nn.nll_loss with respect to the predictions";
  nll.args = {arg("output_grad", "the gradient of the loss"),
              arg("predictions", "the forward predictions"), arg("targets", "the forward targets"),
              optional_arg("weights", "the forward class weights")};
  nll.attrs = {string_attr("reduction", "mean", "mean, sum or none"),
               int_attr("ignore_index", -100, "a target value that contributes nothing")};
  nll.infer = [](InferContext& ctx) { return infer_like_arg(ctx, 1); };
  nll.pattern = OpPattern::kOpaque;
  add_op(r, std::move(nll));

  for (const char* kind : {"max", "avg"}) {
    OpInfo op;
    op.name = std::string("relax.grad.") + kind + "_pool2d_backward";
    op.doc = std::string("Gradient of nn.") + kind + "_pool2d with respect to its data";
    op.args = {arg("output_grad", "the gradient of the pooled output"),
               arg("data", "the forward data")};
    op.attrs = pool_attrs(2, false);
    op.attr_positions = pool_attr_positions();
    op.infer = infer_pool_backward;
    op.normalize = [](InferContext& ctx) { return normalize_pool(ctx, 2); };
    op.pattern = OpPattern::kOpaque;
    add_op(r, std::move(op));
  }

  OpInfo take;
  take.name = "relax.grad.take_backward";
  take.doc = "Gradient of take with respect to the source tensor";
  take.args = {arg("output_grad", "the gradient of the taken values"),
               arg("x", "the forward source tensor"), arg("indices", "the forward indices")};
  take.attrs = {optional_attr("axis", AttrKind::kInt, "the forward axis")};
  take.infer = infer_take_backward;
  take.pattern = OpPattern::kOpaque;
  add_op(r, std::move(take));
}

}  // namespace relax::analysis

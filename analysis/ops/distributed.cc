// Collective communication (relax.ccl.*) and sampling: allreduce, allgather,
// broadcast_from_worker0 and scatter_from_worker0 across workers, and multinomial_from_uniform,
// which draws one index per row of probabilities from given uniform samples.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_allreduce(InferContext& ctx) {
  if (!ctx.tensor_arg(0)) return nullptr;
  std::string op = ctx.attr_string("op_type").value_or("sum");
  if (op != "sum" && op != "prod" && op != "min" && op != "max" && op != "avg") {
    ctx.error_at_attr(
        "op_type", "E0316",
        ctx.op_name() + ": `op_type` must be sum, prod, min, max or avg, got \"" + op + "\"");
    return nullptr;
  }
  return ctx.arg_sinfo(0);
}

// allgather concatenates the workers' tensors along axis 0; scatter splits axis `axis` into
// `num_workers` parts.
Ref<ir::StructInfo> infer_resize_axis(InferContext& ctx, bool gather) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  int64_t workers = ctx.attr_int("num_workers").value_or(1);
  if (workers <= 0) {
    ctx.error_at_attr(
        "num_workers", "E0316",
        ctx.op_name() + ": `num_workers` must be positive, got " + std::to_string(workers));
    return nullptr;
  }
  if (t->is_unknown_ndim()) return ctx.arg_sinfo(0);
  if (t->ndim == 0) {
    ctx.error_at_arg(0, "E0312",
                     ctx.op_name() + " requires a tensor of rank 1 or more, but it has rank 0");
    return nullptr;
  }
  auto axis = normalize_axis(ctx, gather ? 0 : ctx.attr_int("axis").value_or(0), t->ndim, "axis");
  if (!axis) return nullptr;
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) return tensor_with_ndim(t->ndim, t->dtype, t->vdevice);
  PrimExprs out = *dims;
  ExprRef& d = out[static_cast<size_t>(*axis)];
  auto& az = ctx.analyzer();
  if (gather) {
    d = az.simplify(dim_mul(d, dim_const(workers)));
  } else {
    if (az.prove(ir::tir::binary(ir::ObjectKind::kNE, dim_floormod(d, dim_const(workers)),
                                 dim_const(0))) == arith::Proof::kYes) {
      ctx.error_at_arg(0, "E0320",
                       ctx.op_name() + ": axis " + std::to_string(*axis) + " has length " +
                           dim_text(d) +
                           ", not divisible by num_workers = " + std::to_string(workers));
      return nullptr;
    }
    d = az.simplify(dim_floordiv(d, dim_const(workers)));
  }
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

Ref<ir::StructInfo> infer_multinomial(InferContext& ctx) {
  const ir::TensorStructInfo* t[3];
  for (size_t i = 0; i < 3; ++i) {
    t[i] = ctx.tensor_arg(i);
    if (!t[i]) return nullptr;
    if (!t[i]->is_unknown_ndim() && t[i]->ndim != 2) {
      ctx.error_at_arg(i, "E0312",
                       ctx.op_name() + " requires " + arg_name(ctx, i) +
                           " to be 2-D, but it has rank " + std::to_string(t[i]->ndim));
      return nullptr;
    }
  }
  if (!check_float_dtype(ctx, 0, t[0]->dtype) || !check_float_dtype(ctx, 1, t[1]->dtype) ||
      !check_int_dtype(ctx, 2, t[2]->dtype)) {
    return nullptr;
  }
  DataType dtype = ctx.attr_dtype("dtype").value_or(DataType::Int64());
  const PrimExprs* u = shape_expr_dims(*t[1]);
  const PrimExprs* s = shape_expr_dims(*t[2]);
  if (u && s && compare_dims(ctx, (*u)[0], (*s)[0]) == DimRelation::kUnequal) {
    ctx.error_at_arg(2, "E0313",
                     ctx.op_name() + ": `sample_indices` has " + dim_text((*s)[0]) +
                         " rows but `uniform_sample` has " + dim_text((*u)[0]));
    return nullptr;
  }
  if (u) return tensor_with_shape({(*u)[0], dim_const(1)}, dtype, t[0]->vdevice);
  if (s) return tensor_with_shape({(*s)[0], dim_const(1)}, dtype, t[0]->vdevice);
  return tensor_with_ndim(2, dtype, t[0]->vdevice);
}

}  // namespace

void register_distributed_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo allreduce;
  allreduce.name = "relax.ccl.allreduce";
  allreduce.doc = "Reduces the tensor across workers (every worker gets the result)";
  allreduce.args = {arg("x", "the input tensor")};
  allreduce.attrs = {
      string_attr("op_type", "sum", "sum, prod, min, max or avg"),
      bool_attr("in_group", true, "reduce within the worker group (False: across groups)")};
  allreduce.infer = infer_allreduce;
  add_op(r, std::move(allreduce));

  OpInfo allgather;
  allgather.name = "relax.ccl.allgather";
  allgather.doc = "Concatenates the workers' tensors along axis 0 (every worker gets the result)";
  allgather.args = {arg("x", "the input tensor")};
  allgather.attrs = {required_attr("num_workers", AttrKind::kInt, "the number of workers"),
                     bool_attr("in_group", true, "gather within the worker group")};
  allgather.infer = [](InferContext& ctx) { return infer_resize_axis(ctx, true); };
  add_op(r, std::move(allgather));

  OpInfo broadcast;
  broadcast.name = "relax.ccl.broadcast_from_worker0";
  broadcast.doc = "Sends worker 0's tensor to every worker";
  broadcast.args = {arg("x", "the input tensor")};
  broadcast.infer = [](InferContext& ctx) -> Ref<ir::StructInfo> {
    if (!ctx.tensor_arg(0)) return nullptr;
    return ctx.arg_sinfo(0);
  };
  add_op(r, std::move(broadcast));

  OpInfo scatter;
  scatter.name = "relax.ccl.scatter_from_worker0";
  scatter.doc = "Splits worker 0's tensor along `axis` into one part per worker";
  scatter.args = {arg("x", "the input tensor")};
  scatter.attrs = {required_attr("num_workers", AttrKind::kInt, "the number of workers"),
                   int_attr("axis", 0, "the axis to split")};
  scatter.infer = [](InferContext& ctx) { return infer_resize_axis(ctx, false); };
  add_op(r, std::move(scatter));

  OpInfo multinomial;
  multinomial.name = "relax.multinomial_from_uniform";
  multinomial.doc = "Samples one index per row of `prob` using the given uniform samples in [0, 1)";
  multinomial.args = {arg("prob", "(batch, vocab) probabilities"),
                      arg("uniform_sample", "(n, 1) uniform samples"),
                      arg("sample_indices", "(n, 1) the row each sample draws from")};
  multinomial.attrs = {dtype_attr("dtype", "int64", "the dtype of the sampled indices")};
  multinomial.infer = infer_multinomial;
  add_op(r, std::move(multinomial));
}

}  // namespace relax::analysis

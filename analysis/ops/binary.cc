// Binary elementwise ops with broadcasting (SEMANTICS.md §3.3): arithmetic (result dtype by the
// binary rule) and comparisons (result bool). Operands are tensors or prim values.
#include "analysis/ops/common.h"
#include "analysis/ops/op_registry.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_binary(InferContext& ctx, bool comparison) {
  if (ctx.num_args() != 2) {
    ctx.error("E0302",
              ctx.op_name() + " expects 2 arguments, got " + std::to_string(ctx.num_args()));
    return nullptr;
  }
  const auto& ls = ctx.arg_sinfo(0);
  const auto& rs = ctx.arg_sinfo(1);
  auto lp = ls.as_ptr<ir::PrimStructInfo>(), rp = rs.as_ptr<ir::PrimStructInfo>();
  auto lt = ls.as_ptr<ir::TensorStructInfo>(), rt = rs.as_ptr<ir::TensorStructInfo>();
  for (size_t i = 0; i < 2; ++i) {
    const auto& s = ctx.arg_sinfo(i);
    if (!s.is<ir::PrimStructInfo>() && !s.is<ir::TensorStructInfo>()) {
      ctx.error_at_arg(
          i, "E0306", ctx.op_name() + ": arguments must be tensors (R.Tensor) or scalars (R.Prim)");
      return nullptr;
    }
  }
  DataType ldt = lp ? lp->dtype : lt->dtype;
  DataType rdt = rp ? rp->dtype : rt->dtype;
  DataType out_dtype;
  if (comparison) {
    out_dtype = DataType::Bool();
  } else {
    auto d = binary_arith_dtype(ctx, ldt, rdt, 0, 1);
    if (!d) return nullptr;
    out_dtype = *d;
  }
  if (lp && rp) return make<ir::PrimStructInfo>(out_dtype);
  Ref<ir::VDevice> vdevice = ctx.common_vdevice({0, 1});
  // A prim operand next to a tensor counts as a tensor of shape (1,) (TVM's rule).
  static const PrimExprs kOne{ir::tir::int64(1)};
  const PrimExprs* lshape = lt ? known_shape(*lt) : &kOne;
  const PrimExprs* rshape = rt ? known_shape(*rt) : &kOne;
  int lndim = lt ? lt->ndim : 1, rndim = rt ? rt->ndim : 1;
  if (lshape && rshape) {
    PrimExprs out;
    switch (broadcast_shapes(ctx, *lshape, *rshape, out, 0, 1)) {
      case BroadcastResult::kOk:
        return tensor_with_shape(std::move(out), out_dtype, vdevice);
      case BroadcastResult::kError:
        return nullptr;
      case BroadcastResult::kUnknown:
        break;
    }
  } else if (lt && rt && lt->shape && lt->shape.same_as(rt->shape)) {
    return make<ir::TensorStructInfo>(lt->shape, out_dtype, lt->ndim, vdevice);
  }
  int ndim = (lndim == ir::kUnknownNDim || rndim == ir::kUnknownNDim) ? ir::kUnknownNDim
                                                                      : std::max(lndim, rndim);
  return tensor_with_ndim(ndim, out_dtype, vdevice);
}

void add_binary(OpRegistry& r, const std::string& name, const std::string& doc, bool comparison,
                OpPattern pattern) {
  OpInfo op;
  op.name = "relax." + name;
  op.signature = "R." + name + "(x1, x2)";
  op.doc = doc;
  op.args = {{"x1", "the first operand (tensor or scalar)"},
             {"x2", "the second operand (tensor or scalar)"}};
  op.infer = [comparison](InferContext& ctx) { return infer_binary(ctx, comparison); };
  op.pattern = pattern;
  r.add(std::move(op));
}

}  // namespace

void register_binary_ops(OpRegistry& r) {
  const auto kB = OpPattern::kBroadcast;
  add_binary(r, "add", "Elementwise sum with broadcasting", false, kB);
  add_binary(r, "subtract", "Elementwise difference with broadcasting", false, kB);
  add_binary(r, "multiply", "Elementwise product with broadcasting", false, kB);
  add_binary(r, "divide", "Elementwise true division with broadcasting", false, kB);
  add_binary(r, "floor_divide", "Elementwise floor division with broadcasting", false, kB);
  add_binary(r, "power", "Elementwise power x1 ** x2 with broadcasting", false, kB);
  add_binary(r, "mod", "Elementwise remainder (truncated) with broadcasting", false, kB);
  add_binary(r, "floor_mod", "Elementwise floor modulo with broadcasting", false, kB);
  add_binary(r, "log_add_exp", "Elementwise log(exp(x1) + exp(x2)) with broadcasting", false, kB);
  add_binary(r, "atan2", "Elementwise arctangent of x1 / x2 with broadcasting", false, kB);
  add_binary(r, "minimum", "Elementwise minimum with broadcasting", false, kB);
  add_binary(r, "maximum", "Elementwise maximum with broadcasting", false, kB);
  add_binary(r, "logical_and", "Elementwise logical and with broadcasting", false, kB);
  add_binary(r, "logical_or", "Elementwise logical or with broadcasting", false, kB);
  add_binary(r, "logical_xor", "Elementwise logical xor with broadcasting", false, kB);
  add_binary(r, "bitwise_and", "Elementwise bitwise and with broadcasting", false, kB);
  add_binary(r, "bitwise_or", "Elementwise bitwise or with broadcasting", false, kB);
  add_binary(r, "bitwise_xor", "Elementwise bitwise xor with broadcasting", false, kB);
  add_binary(r, "left_shift", "Elementwise left shift with broadcasting", false, kB);
  add_binary(r, "right_shift", "Elementwise right shift with broadcasting", false, kB);
  add_binary(r, "equal", "Elementwise x1 == x2 (bool result) with broadcasting", true, kB);
  add_binary(r, "not_equal", "Elementwise x1 != x2 (bool result) with broadcasting", true, kB);
  add_binary(r, "less", "Elementwise x1 < x2 (bool result) with broadcasting", true, kB);
  add_binary(r, "less_equal", "Elementwise x1 <= x2 (bool result) with broadcasting", true, kB);
  add_binary(r, "greater", "Elementwise x1 > x2 (bool result) with broadcasting", true, kB);
  add_binary(r, "greater_equal", "Elementwise x1 >= x2 (bool result) with broadcasting", true, kB);
}

}  // namespace relax::analysis

// Tensor creation (SEMANTICS.md §3.12): zeros/ones/full of a shape, the *_like variants, arange
// (one argument means `end`; the dtype defaults to int64 for integer bounds, float32 otherwise),
// tril/triu (a diagonal offset argument), eye and eye_like.
#include <cmath>

#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;

namespace {

Ref<ir::PrimValue> int_prim_value(int64_t v) {
  auto pv = make<ir::PrimValue>(ir::tir::int64(v));
  pv->struct_info = make<ir::PrimStructInfo>(DataType::Int64(), pv->value);
  return pv;
}

// The shape argument written as a tuple or list becomes a shape expression.
Ref<ir::Call> normalize_shape_first(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  Ref<ir::Expr> shape = tuple_to_shape_expr(call->args[0]);
  if (shape.same_as(call->args[0])) return call;
  std::vector<Ref<ir::Expr>> args = call->args;
  args[0] = shape;
  return with_args(call, std::move(args));
}

Ref<ir::StructInfo> tensor_of_shape_arg(InferContext& ctx, const ir::ShapeStructInfo& shape,
                                        DataType dtype) {
  if (auto s = ctx.arg(0).as_ptr<ir::ShapeExpr>())
    return tensor_with_shape(s->values, dtype, nullptr);
  return make<ir::TensorStructInfo>(ctx.arg(0), dtype, shape.ndim, nullptr);
}

Ref<ir::StructInfo> infer_zeros_ones(InferContext& ctx) {
  auto shape = shape_arg(ctx, 0);
  if (!shape) return nullptr;
  return tensor_of_shape_arg(ctx, *shape, ctx.attr_dtype("dtype").value_or(DataType::Void()));
}

// fill_value must be a 0-d tensor (E0312).
const ir::TensorStructInfo* fill_value_arg(InferContext& ctx, size_t i) {
  auto fill = ctx.tensor_arg(i);
  if (!fill) return nullptr;
  if (!fill->is_unknown_ndim() && fill->ndim != 0) {
    ctx.error_at_arg(i, "E0312",
                     ctx.op_name() +
                         " requires `fill_value` to be a scalar (0-d) tensor, but it has rank " +
                         std::to_string(fill->ndim))
        .note("write the value as R.const(v, dtype)");
    return nullptr;
  }
  return fill;
}

Ref<ir::StructInfo> infer_full(InferContext& ctx) {
  auto shape = shape_arg(ctx, 0);
  if (!shape) return nullptr;
  auto fill = fill_value_arg(ctx, 1);
  if (!fill) return nullptr;
  return tensor_of_shape_arg(ctx, *shape, ctx.attr_dtype("dtype").value_or(fill->dtype));
}

Ref<ir::StructInfo> infer_like(InferContext& ctx, bool has_fill) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (has_fill && !fill_value_arg(ctx, 1)) return nullptr;
  auto dtype = ctx.attr_dtype("dtype");
  if (!dtype) return ctx.arg_sinfo(0);
  return with_dtype(*t, *dtype);
}

// arange(end) means arange(0, end); an absent dtype is int64 for integer bounds, else float32.
Ref<ir::Call> normalize_arange(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  std::vector<Ref<ir::Expr>> args = call->args;
  bool changed = false;
  if (args.size() == 1) {
    args = {int_prim_value(0), args[0]};
    changed = true;
  }
  if (args.size() == 2) {
    args.push_back(int_prim_value(1));
    changed = true;
  }
  if (changed) call = with_args(call, args);
  if (!ctx.attr_dtype("dtype")) {
    bool all_int = true;
    for (const auto& a : args) {
      auto pv = a.as_ptr<ir::PrimValue>();
      all_int &= pv && pv->value->dtype.is_int();
    }
    ir::ObjectRef old = call->attrs.find("dtype");
    auto value = make<ir::StringValue>(all_int ? "int64" : "float32");
    if (old) value->span = old->span;
    call = with_attr(call, "dtype", value);
  }
  return call;
}

Ref<ir::StructInfo> infer_arange(InferContext& ctx) {
  const char* names[] = {"start", "end", "step"};
  ExprRef v[3];
  for (size_t i = 0; i < 3; ++i) {
    auto pv = ctx.arg(i).as_ptr<ir::PrimValue>();
    if (!pv) {
      ctx.error_at_arg(i, "E0317",
                       ctx.op_name() + " requires `" + names[i] +
                           "` to be a scalar (R.prim_value), got " + sinfo_text(ctx.arg_sinfo(i)));
      return nullptr;
    }
    v[i] = pv->value;
  }
  DataType dtype = ctx.attr_dtype("dtype").value_or(DataType::Void());
  if (auto step = ir::tir::as_const_int(v[2]); step && *step == 0) {
    ctx.error_at_arg(2, "E0316", ctx.op_name() + ": `step` must not be 0");
    return nullptr;
  }
  ExprRef len;
  if (v[0]->dtype.is_int() && v[1]->dtype.is_int() && v[2]->dtype.is_int()) {
    len = ctx.analyzer().simplify(
        dim_floordiv(dim_sub(dim_add(dim_sub(v[1], v[0]), v[2]), dim_const(1)), v[2]));
  } else {
    auto number = [](const ExprRef& e) -> std::optional<double> {
      if (auto f = e.as_ptr<ir::tir::FloatImm>()) return f->value;
      if (auto i = e.as_ptr<ir::tir::IntImm>()) return static_cast<double>(i->value);
      return std::nullopt;
    };
    auto start = number(v[0]), end = number(v[1]), step = number(v[2]);
    if (start && end && step) {
      if (*step == 0) {
        ctx.error_at_arg(2, "E0316", ctx.op_name() + ": `step` must not be 0");
        return nullptr;
      }
      float span = static_cast<float>(*end - *start);
      double count = std::ceil(static_cast<double>(span) / *step);
      if (!std::isfinite(count) || std::fabs(count) > 4e18)
        return tensor_with_ndim(1, dtype, nullptr);
      len = dim_const(static_cast<int64_t>(count));
    } else {
      return tensor_with_ndim(1, dtype, nullptr);
    }
  }
  return tensor_with_shape({len}, dtype, nullptr);
}

Ref<ir::StructInfo> infer_tri(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (!ctx.arg_sinfo(1).is<ir::PrimStructInfo>()) {
    ctx.error_at_arg(1, "E0317",
                     ctx.op_name() +
                         " requires the diagonal offset `k` to be a scalar (R.prim_value), got " +
                         sinfo_text(ctx.arg_sinfo(1)));
    return nullptr;
  }
  if (!t->is_unknown_ndim() && t->ndim < 2) {
    ctx.error_at_arg(0, "E0312",
                     ctx.op_name() + " requires a tensor of rank 2 or more, but " +
                         arg_name(ctx, 0) + " has rank " + std::to_string(t->ndim));
    return nullptr;
  }
  return ctx.arg_sinfo(0);
}

// eye(n) is eye(n, n).
Ref<ir::Call> normalize_eye(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  if (call->args.size() >= 3) return call;
  Ref<ir::Expr> m = call->args.size() == 2 ? call->args[1] : call->args[0];
  return with_args(call, {call->args[0], m, int_prim_value(0)});
}

Ref<ir::StructInfo> infer_eye(InferContext& ctx) {
  ExprRef dims[2];
  for (size_t i = 0; i < 3 && i < ctx.num_args(); ++i) {
    auto pv = ctx.arg(i).as_ptr<ir::PrimValue>();
    if (!pv || !pv->value->dtype.is_int()) {
      ctx.error_at_arg(i, "E0317",
                       ctx.op_name() + " requires " + arg_name(ctx, i) +
                           " to be an integer (R.prim_value), got " + sinfo_text(ctx.arg_sinfo(i)));
      return nullptr;
    }
    if (i < 2) dims[i] = pv->value;
  }
  return tensor_with_shape({dims[0], dims[1]},
                           ctx.attr_dtype("dtype").value_or(DataType::Float32()), nullptr);
}

Ref<ir::StructInfo> infer_eye_like(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (!t->is_unknown_ndim() && t->ndim != 2) {
    ctx.error_at_arg(0, "E0312",
                     ctx.op_name() + " requires a 2-D tensor, but " + arg_name(ctx, 0) +
                         " has rank " + std::to_string(t->ndim));
    return nullptr;
  }
  if (!ctx.arg_sinfo(1).is<ir::PrimStructInfo>()) {
    ctx.error_at_arg(1, "E0317",
                     ctx.op_name() +
                         " requires the diagonal offset `k` to be a scalar (R.prim_value), got " +
                         sinfo_text(ctx.arg_sinfo(1)));
    return nullptr;
  }
  auto dtype = ctx.attr_dtype("dtype");
  return dtype ? Ref<ir::StructInfo>(with_dtype(*t, *dtype)) : ctx.arg_sinfo(0);
}

OpInfo make_op(std::string name, std::string doc, std::vector<ArgSpec> args,
               std::vector<AttrSpec> attrs, InferFn infer) {
  OpInfo op;
  op.name = "relax." + std::move(name);
  op.doc = std::move(doc);
  op.args = std::move(args);
  op.attrs = std::move(attrs);
  op.infer = std::move(infer);
  op.pattern = OpPattern::kInjective;
  return op;
}

ArgSpec offset_arg() {
  ArgSpec k = spec::arg("k", "the diagonal offset (a prim value; > 0 above the main diagonal)");
  k.default_value = int_prim_value(0);
  return k;
}

}  // namespace

void register_create_ops(OpRegistry& r) {
  using namespace spec;
  for (const char* name : {"zeros", "ones"}) {
    OpInfo op = make_op(
        name, std::string("A tensor of `shape` filled with ") + (name[0] == 'z' ? "zeros" : "ones"),
        {arg("shape", "the shape of the result")},
        {required_attr("dtype", AttrKind::kDType, "the dtype of the result")}, infer_zeros_ones);
    op.normalize = normalize_shape_first;
    add_op(r, std::move(op));
  }
  OpInfo full = make_op(
      "full", "A tensor of `shape` filled with `fill_value`",
      {arg("shape", "the shape of the result"), arg("fill_value", "the value (a 0-d tensor)")},
      {dtype_attr("dtype", "void", "the dtype of the result (None: the fill value's)")},
      infer_full);
  full.normalize = normalize_shape_first;
  add_op(r, std::move(full));
  for (const char* name : {"zeros_like", "ones_like"}) {
    add_op(r, make_op(name,
                      std::string("A tensor shaped like `x` filled with ") +
                          (name[0] == 'z' ? "zeros" : "ones"),
                      {arg("x", "the tensor whose shape the result takes")},
                      {dtype_attr("dtype", "void", "the dtype of the result (None: x's)")},
                      [](InferContext& ctx) { return infer_like(ctx, false); }));
  }
  add_op(r, make_op("full_like", "A tensor shaped like `x` filled with `fill_value`",
                    {arg("x", "the tensor whose shape the result takes"),
                     arg("fill_value", "the value (a 0-d tensor)")},
                    {dtype_attr("dtype", "void", "the dtype of the result (None: x's)")},
                    [](InferContext& ctx) { return infer_like(ctx, true); }));
  OpInfo arange = make_op(
      "arange", "Evenly spaced values in [start, end) with `step` (arange(n) counts from 0)",
      {arg("start", "the first value (or the end when alone)"),
       optional_arg("end", "the end, exclusive"),
       optional_arg("step", "the spacing (1 when omitted)")},
      {dtype_attr("dtype", "void", "the dtype (None: int64 for integer bounds, else float32)")},
      infer_arange);
  arange.normalize = normalize_arange;
  add_op(r, std::move(arange));
  for (const char* name : {"tril", "triu"}) {
    add_op(r, make_op(name,
                      std::string("Keeps the ") + (name[3] == 'l' ? "lower" : "upper") +
                          " triangle of the last two axes (offset by k), zeroing the rest",
                      {arg("x", "the input tensor (rank >= 2)"), offset_arg()}, {}, infer_tri));
  }
  OpInfo eye =
      make_op("eye", "A 2-D tensor with ones on the k-th diagonal",
              {arg("n", "the number of rows"), optional_arg("m", "the number of columns (None: n)"),
               optional_arg("k", "the diagonal offset (a prim value; 0 when omitted)")},
              {dtype_attr("dtype", "float32", "the dtype of the result")}, infer_eye);
  eye.normalize = normalize_eye;
  add_op(r, std::move(eye));
  add_op(r, make_op("eye_like", "A tensor shaped like the 2-D `x` with ones on the k-th diagonal",
                    {arg("x", "the 2-D tensor whose shape the result takes"), offset_arg()},
                    {dtype_attr("dtype", "void", "the dtype of the result (None: x's)")},
                    infer_eye_like));
}

}  // namespace relax::analysis

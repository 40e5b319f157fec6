// Shared inference helpers.
#include "analysis/ops/common.h"

#include "analysis/arith/expr_text.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;
using ir::tir::PrimExpr;

const PrimExprs* known_shape(const ir::TensorStructInfo& t) {
  return t.shape_values();
}

std::optional<DataType> binary_arith_dtype(InferContext& ctx, DataType lhs, DataType rhs,
                                           size_t lhs_arg, size_t rhs_arg) {
  if (lhs.is_void() || rhs.is_void()) return DataType::Void();
  if (lhs == rhs) return lhs;
  if (lhs.is_bool() || rhs.is_bool()) return lhs;
  ctx.error_at_arg(rhs_arg, "E0307",
                   ctx.op_name() + ": operands have different dtypes: lhs is " + lhs.str() +
                       ", rhs is " + rhs.str())
      .note("Relax does not promote dtypes; cast one operand with R.astype");
  (void)lhs_arg;
  return std::nullopt;
}

std::string dim_text(const Ref<PrimExpr>& dim) {
  return arith::expr_text(dim);
}

std::string shape_text(const PrimExprs& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += dim_text(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

BroadcastResult broadcast_shapes(InferContext& ctx, const PrimExprs& lhs, const PrimExprs& rhs,
                                 PrimExprs& out, size_t lhs_arg, size_t rhs_arg) {
  size_t n = std::max(lhs.size(), rhs.size());
  out.assign(n, nullptr);
  bool unknown = false;
  for (size_t k = 0; k < n; ++k) {
    // k counts from the right.
    size_t oi = n - 1 - k;
    bool has_l = k < lhs.size(), has_r = k < rhs.size();
    if (!has_l) {
      out[oi] = rhs[rhs.size() - 1 - k];
      continue;
    }
    if (!has_r) {
      out[oi] = lhs[lhs.size() - 1 - k];
      continue;
    }
    const Ref<PrimExpr>& a = lhs[lhs.size() - 1 - k];
    const Ref<PrimExpr>& b = rhs[rhs.size() - 1 - k];
    auto ca = ir::tir::as_const_int(a), cb = ir::tir::as_const_int(b);
    if (ca && *ca == 1) {
      out[oi] = b;
    } else if (cb && *cb == 1) {
      out[oi] = a;
    } else if (ctx.analyzer().can_prove_equal(a, b)) {
      out[oi] = a;
    } else if (ca && cb) {
      size_t dim_l = lhs.size() - 1 - k, dim_r = rhs.size() - 1 - k;
      ctx.error_at_arg(rhs_arg, "E0308",
                       ctx.op_name() + ": shapes " + shape_text(lhs) + " and " + shape_text(rhs) +
                           " are not broadcastable: lhs dimension " + std::to_string(dim_l) +
                           " is " + dim_text(a) + ", rhs dimension " + std::to_string(dim_r) +
                           " is " + dim_text(b));
      (void)lhs_arg;
      return BroadcastResult::kError;
    } else {
      unknown = true;
    }
  }
  return unknown ? BroadcastResult::kUnknown : BroadcastResult::kOk;
}

std::optional<int> normalize_axis(InferContext& ctx, int64_t axis, int ndim,
                                  std::string_view attr) {
  if (axis < -ndim || axis >= ndim) {
    ctx.error_at_attr(attr, "E0309",
                      ctx.op_name() + ": axis " + std::to_string(axis) +
                          " is out of range for a tensor of rank " + std::to_string(ndim) +
                          " (valid: " + std::to_string(-ndim) + " to " + std::to_string(ndim - 1) +
                          ")");
    return std::nullopt;
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::optional<std::vector<int>> normalize_axes(InferContext& ctx, const std::vector<int64_t>& axes,
                                               int ndim, std::string_view attr) {
  std::vector<int> out;
  std::vector<bool> seen(static_cast<size_t>(std::max(ndim, 0)), false);
  for (int64_t a : axes) {
    auto n = normalize_axis(ctx, a, ndim, attr);
    if (!n) return std::nullopt;
    if (seen[static_cast<size_t>(*n)]) {
      ctx.error_at_attr(attr, "E0310",
                        ctx.op_name() + ": axis " + std::to_string(*n) + " appears more than once");
      return std::nullopt;
    }
    seen[static_cast<size_t>(*n)] = true;
    out.push_back(*n);
  }
  return out;
}

Ref<ir::TensorStructInfo> tensor_with_shape(PrimExprs shape, DataType dtype,
                                            Ref<ir::VDevice> vdevice) {
  return ir::tensor_sinfo(std::move(shape), dtype, std::move(vdevice));
}

Ref<ir::TensorStructInfo> tensor_with_ndim(int ndim, DataType dtype, Ref<ir::VDevice> vdevice) {
  return ir::tensor_sinfo(ndim, dtype, std::move(vdevice));
}

Ref<ir::TensorStructInfo> with_dtype(const ir::TensorStructInfo& t, DataType dtype) {
  return make<ir::TensorStructInfo>(t.shape, dtype, t.ndim, t.vdevice);
}

}  // namespace relax::analysis

// ---- Catalogue helpers ------------------------------------------------------------------------

namespace relax::analysis {

std::string arg_name(const InferContext& ctx, size_t i) {
  if (i < ctx.op().args.size()) return "`" + ctx.op().args[i].name + "`";
  if (!ctx.op().args.empty() && ctx.op().args.back().variadic)
    return "`" + ctx.op().args.back().name + "`";
  return "argument " + std::to_string(i);
}

std::string sinfo_text(const Ref<ir::StructInfo>& sinfo) {
  if (!sinfo || sinfo.is<ir::ObjectStructInfo>()) return "R.Object";
  if (auto p = sinfo.as_ptr<ir::PrimStructInfo>()) return "R.Prim(\"" + p->dtype.str() + "\")";
  if (auto s = sinfo.as_ptr<ir::ShapeStructInfo>()) {
    if (s->values) {
      std::string out = "R.Shape([";
      for (size_t i = 0; i < s->values->size(); ++i)
        out += (i ? ", " : "") + dim_text((*s->values)[i]);
      return out + "])";
    }
    return s->ndim == ir::kUnknownNDim ? "R.Shape"
                                       : "R.Shape(ndim=" + std::to_string(s->ndim) + ")";
  }
  if (auto t = sinfo.as_ptr<ir::TensorStructInfo>()) {
    std::vector<std::string> parts;
    if (const PrimExprs* dims = t->shape_values()) parts.push_back(shape_text(*dims));
    if (!t->dtype.is_void()) parts.push_back("dtype=\"" + t->dtype.str() + "\"");
    if (!t->shape_values() && t->ndim != ir::kUnknownNDim)
      parts.push_back("ndim=" + std::to_string(t->ndim));
    std::string out = "R.Tensor(";
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
    return out + ")";
  }
  if (auto t = sinfo.as_ptr<ir::TupleStructInfo>()) {
    std::string out = "R.Tuple(";
    for (size_t i = 0; i < t->fields.size(); ++i) out += (i ? ", " : "") + sinfo_text(t->fields[i]);
    return out + ")";
  }
  return "R.Callable";
}

ExprRef dim_const(int64_t v) {
  return ir::tir::int64(v);
}

// The index arithmetic folds constants and identities the way TVM's PrimExpr operators do, so
// dims that TVM leaves unsimplified (concat's sum of lengths, flatten's product) read the same.
namespace {
std::optional<int64_t> const_of(const ExprRef& e) {
  return ir::tir::as_const_int(e);
}
}  // namespace

ExprRef dim_add(ExprRef a, ExprRef b) {
  auto ca = const_of(a), cb = const_of(b);
  int64_t r;
  // A constant that would overflow stays an expression (slices often end at INT64_MAX).
  if (ca && cb && !__builtin_add_overflow(*ca, *cb, &r)) return dim_const(r);
  if (ca && *ca == 0) return b;
  if (cb && *cb == 0) return a;
  return ir::tir::binary(ir::ObjectKind::kAdd, std::move(a), std::move(b));
}
ExprRef dim_sub(ExprRef a, ExprRef b) {
  auto ca = const_of(a), cb = const_of(b);
  int64_t r;
  if (ca && cb && !__builtin_sub_overflow(*ca, *cb, &r)) return dim_const(r);
  if (cb && *cb == 0) return a;
  return ir::tir::binary(ir::ObjectKind::kSub, std::move(a), std::move(b));
}
ExprRef dim_mul(ExprRef a, ExprRef b) {
  auto ca = const_of(a), cb = const_of(b);
  int64_t r;
  if (ca && cb && !__builtin_mul_overflow(*ca, *cb, &r)) return dim_const(r);
  if (ca && (*ca == 1 || *ca == 0)) return *ca == 1 ? b : a;
  if (cb && (*cb == 1 || *cb == 0)) return *cb == 1 ? a : b;
  return ir::tir::binary(ir::ObjectKind::kMul, std::move(a), std::move(b));
}
ExprRef dim_floordiv(ExprRef a, ExprRef b) {
  auto ca = const_of(a), cb = const_of(b);
  if (ca && cb && *cb != 0 && !(*ca == INT64_MIN && *cb == -1)) {
    int64_t q = *ca / *cb;
    if ((*ca % *cb != 0) && ((*ca < 0) != (*cb < 0))) --q;
    return dim_const(q);
  }
  if (ca && *ca == 0) return a;
  if (cb && *cb == 1) return a;
  return ir::tir::binary(ir::ObjectKind::kFloorDiv, std::move(a), std::move(b));
}
ExprRef dim_floormod(ExprRef a, ExprRef b) {
  auto ca = const_of(a), cb = const_of(b);
  if (ca && cb && *cb != 0 && *cb != -1) {
    int64_t r = *ca % *cb;
    if (r != 0 && ((r < 0) != (*cb < 0))) r += *cb;
    return dim_const(r);
  }
  if (ca && *ca == 0) return a;
  if (cb && *cb == 1) return dim_const(0);
  return ir::tir::binary(ir::ObjectKind::kFloorMod, std::move(a), std::move(b));
}
ExprRef dim_min(ExprRef a, ExprRef b) {
  auto ca = const_of(a), cb = const_of(b);
  if (ca && cb) return dim_const(std::min(*ca, *cb));
  return ir::tir::binary(ir::ObjectKind::kMin, std::move(a), std::move(b));
}
ExprRef dim_max(ExprRef a, ExprRef b) {
  auto ca = const_of(a), cb = const_of(b);
  if (ca && cb) return dim_const(std::max(*ca, *cb));
  return ir::tir::binary(ir::ObjectKind::kMax, std::move(a), std::move(b));
}
ExprRef dim_ceildiv(ExprRef a, ExprRef b) {
  return dim_floordiv(dim_sub(dim_add(std::move(a), b), dim_const(1)), b);
}

ExprRef shape_product(const PrimExprs& dims) {
  ExprRef out = dim_const(1);
  for (const auto& d : dims) out = dim_mul(out, d);
  return out;
}

DimRelation compare_dims(InferContext& ctx, const ExprRef& a, const ExprRef& b) {
  switch (ctx.analyzer().prove_equal(a, b)) {
    case arith::Proof::kYes:
      return DimRelation::kEqual;
    case arith::Proof::kNo:
      return DimRelation::kUnequal;
    default:
      return DimRelation::kUnknown;
  }
}

bool check_float_dtype(InferContext& ctx, size_t arg, DataType dtype, bool allow_bfloat) {
  if (dtype.is_void() || dtype.is_float() || (allow_bfloat && dtype.is_bfloat())) return true;
  ctx.error_at_arg(arg, "E0311",
                   ctx.op_name() + " requires " + arg_name(ctx, arg) + " to have a float dtype" +
                       (allow_bfloat ? "" : " (float16/32/64; bfloat is not supported)") +
                       ", got " + dtype.str())
      .note("cast it first, e.g. R.astype(x, \"float32\")");
  return false;
}

bool check_int_dtype(InferContext& ctx, size_t arg, DataType dtype) {
  if (dtype.is_void() || dtype.is_int() || dtype.is_uint()) return true;
  ctx.error_at_arg(arg, "E0311",
                   ctx.op_name() + " requires " + arg_name(ctx, arg) +
                       " to have an integer dtype, got " + dtype.str());
  return false;
}

std::optional<std::vector<const ir::TensorStructInfo*>> tuple_tensor_args(InferContext& ctx,
                                                                          size_t arg) {
  auto tuple = ctx.arg_sinfo(arg).as_ptr<ir::TupleStructInfo>();
  if (!tuple) {
    ctx.error_at_arg(arg, "E0317",
                     ctx.op_name() + " requires " + arg_name(ctx, arg) +
                         " to be a tuple of tensors, got " + sinfo_text(ctx.arg_sinfo(arg)));
    return std::nullopt;
  }
  std::vector<const ir::TensorStructInfo*> out;
  for (size_t i = 0; i < tuple->fields.size(); ++i) {
    auto t = tuple->fields[i].as_ptr<ir::TensorStructInfo>();
    if (!t) {
      ctx.error_at_arg(arg, "E0306",
                       ctx.op_name() + " requires every field of " + arg_name(ctx, arg) +
                           " to be a tensor, but field " + std::to_string(i) + " is " +
                           sinfo_text(tuple->fields[i]));
      return std::nullopt;
    }
    out.push_back(t);
  }
  return out;
}

std::optional<PrimExprs> prim_tuple_values(InferContext& ctx, size_t arg) {
  if (arg >= ctx.num_args()) return std::nullopt;
  const auto& sinfo = ctx.arg_sinfo(arg);
  if (auto tuple = sinfo.as_ptr<ir::TupleStructInfo>()) {
    PrimExprs out;
    for (const auto& f : tuple->fields) {
      auto p = f.as_ptr<ir::PrimStructInfo>();
      if (!p || !p->value) return std::nullopt;
      out.push_back(p->value);
    }
    return out;
  }
  if (auto shape = sinfo.as_ptr<ir::ShapeStructInfo>(); shape && shape->values)
    return *shape->values;
  // The expression itself, when inference has not described it.
  const auto& e = ctx.arg(arg);
  if (auto t = e.as_ptr<ir::Tuple>()) {
    PrimExprs out;
    for (const auto& f : t->fields) {
      auto pv = f.as_ptr<ir::PrimValue>();
      if (!pv) return std::nullopt;
      out.push_back(pv->value);
    }
    return out;
  }
  if (auto s = e.as_ptr<ir::ShapeExpr>()) return s->values;
  return std::nullopt;
}

Ref<ir::VDevice> shared_vdevice(const std::vector<const ir::TensorStructInfo*>& tensors) {
  Ref<ir::VDevice> found;
  for (const auto* t : tensors) {
    if (!t->vdevice) continue;
    if (!found) {
      found = t->vdevice;
    } else if (!found.same_as(t->vdevice) && t->vdevice->target) {
      return nullptr;
    }
  }
  return found;
}

const ir::ShapeStructInfo* shape_arg(InferContext& ctx, size_t i) {
  if (auto s = ctx.arg_sinfo(i).as_ptr<ir::ShapeStructInfo>()) return s;
  ctx.error_at_arg(i, "E0317",
                   ctx.op_name() + " requires " + arg_name(ctx, i) +
                       " to be a shape (R.shape([...])), got " + sinfo_text(ctx.arg_sinfo(i)));
  return nullptr;
}

}  // namespace relax::analysis

namespace relax::analysis {

const PrimExprs* shape_expr_dims(const ir::TensorStructInfo& t) {
  if (auto s = t.shape.as_ptr<ir::ShapeExpr>()) return &s->values;
  return nullptr;
}

Ref<ir::StructInfo> infer_reduction(InferContext& ctx, const ir::TensorStructInfo& t,
                                    const std::optional<std::vector<int64_t>>& axes, bool keepdims,
                                    DataType dtype, std::string_view axis_attr) {
  std::vector<int> norm;
  if (!t.is_unknown_ndim()) {
    if (axes) {
      auto n = normalize_axes(ctx, *axes, t.ndim, axis_attr);
      if (!n) return nullptr;
      norm = *n;
    } else {
      for (int i = 0; i < t.ndim; ++i) norm.push_back(i);
    }
  }
  int out_ndim = keepdims              ? t.ndim
                 : !axes               ? 0
                 : t.is_unknown_ndim() ? ir::kUnknownNDim
                                       : t.ndim - static_cast<int>(axes->size());
  const PrimExprs* dims = shape_expr_dims(t);
  if (!dims) {
    if (!axes && keepdims && out_ndim != ir::kUnknownNDim)
      return tensor_with_shape(PrimExprs(static_cast<size_t>(out_ndim), dim_const(1)), dtype,
                               t.vdevice);
    if (out_ndim == 0) return tensor_with_shape({}, dtype, t.vdevice);
    return tensor_with_ndim(out_ndim, dtype, t.vdevice);
  }
  std::vector<bool> reduced(dims->size(), false);
  for (int a : norm) reduced[static_cast<size_t>(a)] = true;
  PrimExprs out;
  for (size_t i = 0; i < dims->size(); ++i) {
    if (!reduced[i])
      out.push_back((*dims)[i]);
    else if (keepdims)
      out.push_back(dim_const(1));
  }
  return tensor_with_shape(std::move(out), dtype, t.vdevice);
}

}  // namespace relax::analysis

namespace relax::analysis {

Ref<ir::Call> with_attr(const Ref<ir::Call>& call, const std::string& name, ir::ObjectRef value) {
  ir::Attrs attrs = call->attrs;
  attrs.set(name, std::move(value));
  auto out = make<ir::Call>(call->op, call->args, std::move(attrs), call->sinfo_args);
  out->span = call->span;
  return out;
}

Ref<ir::Call> with_args(const Ref<ir::Call>& call, std::vector<Ref<ir::Expr>> args) {
  auto out = make<ir::Call>(call->op, std::move(args), call->attrs, call->sinfo_args);
  out->span = call->span;
  return out;
}

ir::ObjectRef int_array_value(const std::vector<int64_t>& values, ir::Span span) {
  auto arr = make<ir::ArrayValue>();
  for (int64_t v : values) arr->items.push_back(make<ir::IntValue>(v));
  arr->span = span;
  return arr;
}

Ref<ir::ShapeExpr> shape_expr_of(PrimExprs dims, ir::Span span) {
  auto shape = make<ir::ShapeExpr>(dims);
  shape->span = span;
  shape->struct_info = make<ir::ShapeStructInfo>(std::move(dims));
  return shape;
}

Ref<ir::Expr> tuple_to_shape_expr(const Ref<ir::Expr>& arg) {
  auto tuple = arg.as_ptr<ir::Tuple>();
  if (!tuple) return arg;
  PrimExprs dims;
  for (const auto& f : tuple->fields) {
    auto pv = f.as_ptr<ir::PrimValue>();
    if (!pv || !pv->value->dtype.is_int()) return arg;
    if (auto c = ir::tir::as_const_int(pv->value))
      dims.push_back(dim_const(*c));
    else
      dims.push_back(pv->value);
  }
  return shape_expr_of(std::move(dims), arg->span);
}

}  // namespace relax::analysis

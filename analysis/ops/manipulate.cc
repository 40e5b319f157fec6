// Shape manipulation (SEMANTICS.md §3.10): reshape (with -1 and 0 resolved by the normalize hook,
// as TVM's constructor does), permute_dims, flatten, squeeze, expand_dims, concat, split, stack,
// broadcast_to, tile, repeat, flip and astype. Gathers, scatters and layout_transform are in
// manipulate_index.cc.
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;

namespace {

// ---- reshape ----------------------------------------------------------------------------------

Ref<ir::Call> normalize_reshape(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  Ref<ir::Expr> shape = tuple_to_shape_expr(call->args[1]);
  auto expr = shape.as_ptr<ir::ShapeExpr>();
  if (!expr) return call;  // a shape var: used as it is
  int infer_at = -1;
  std::vector<size_t> copy_at;
  for (size_t i = 0; i < expr->values.size(); ++i) {
    const ExprRef& dim = expr->values[i];
    if (!dim->dtype.is_int()) {
      ctx.error_at_arg(1, "E0318",
                       ctx.op_name() + ": the new shape must hold integers, but dimension " +
                           std::to_string(i) + " is " + dim_text(dim) + " of dtype " +
                           dim->dtype.str());
      return nullptr;
    }
    auto c = ir::tir::as_const_int(dim);
    if (!c) continue;
    if (*c == 0) {
      copy_at.push_back(i);
    } else if (*c == -1) {
      if (infer_at >= 0) {
        ctx.error_at_arg(
            1, "E0318",
            ctx.op_name() + ": the new shape may hold at most one -1, but dimensions " +
                std::to_string(infer_at) + " and " + std::to_string(i) + " are both -1");
        return nullptr;
      }
      infer_at = static_cast<int>(i);
    } else if (*c < -1) {
      ctx.error_at_arg(1, "E0318",
                       ctx.op_name() + ": the new shape holds " + std::to_string(*c) +
                           " at dimension " + std::to_string(i) +
                           "; dimensions must be positive, 0 (copy) or one -1 (infer)");
      return nullptr;
    }
  }
  if (infer_at < 0 && copy_at.empty()) {
    if (shape.same_as(call->args[1])) return call;
    return with_args(call, {call->args[0], shape});
  }
  auto data = ctx.arg_sinfo(0).as_ptr<ir::TensorStructInfo>();
  const PrimExprs* old_dims = data ? known_shape(*data) : nullptr;
  if (!old_dims) {
    ctx.error_at_arg(1, "E0318",
                     ctx.op_name() + ": the new shape uses " +
                         std::string(infer_at >= 0 ? "-1" : "0") +
                         ", which needs the input's shape, but " + arg_name(ctx, 0) + " is " +
                         sinfo_text(ctx.arg_sinfo(0)))
        .note("give every dimension explicitly, or match_cast the input to a known shape first");
    return nullptr;
  }
  PrimExprs dims = expr->values;
  for (size_t i : copy_at) {
    if (i >= old_dims->size()) {
      ctx.error_at_arg(1, "E0318",
                       ctx.op_name() + ": dimension " + std::to_string(i) +
                           " is 0 (copy the input's), but the input has only " +
                           std::to_string(old_dims->size()) + " dimensions");
      return nullptr;
    }
    dims[i] = (*old_dims)[i];
  }
  if (infer_at >= 0) {
    ExprRef known = dim_const(1);
    for (size_t i = 0; i < dims.size(); ++i) {
      if (static_cast<int>(i) != infer_at) known = dim_mul(known, dims[i]);
    }
    dims[static_cast<size_t>(infer_at)] =
        ctx.analyzer().simplify(dim_floordiv(shape_product(*old_dims), known));
  }
  return with_args(call, {call->args[0], shape_expr_of(std::move(dims), call->args[1]->span)});
}

Ref<ir::StructInfo> infer_reshape(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  auto shape = shape_arg(ctx, 1);
  if (!shape) return nullptr;
  const PrimExprs* old_dims = known_shape(*data);
  std::optional<PrimExprs> new_dims = shape->values;
  if (!new_dims) {
    if (auto s = ctx.arg(1).as_ptr<ir::ShapeExpr>()) new_dims = s->values;
  }
  if (old_dims && new_dims) {
    ExprRef old_prod = shape_product(*old_dims), new_prod = shape_product(*new_dims);
    if (compare_dims(ctx, old_prod, new_prod) == DimRelation::kUnequal) {
      ctx.error_at_arg(1, "E0314",
                       ctx.op_name() + ": cannot reshape " + shape_text(*old_dims) + " (" +
                           dim_text(ctx.analyzer().simplify(old_prod)) + " elements) to " +
                           shape_text(*new_dims) + " (" +
                           dim_text(ctx.analyzer().simplify(new_prod)) + " elements)");
      return nullptr;
    }
  }
  if (ctx.arg(1).is<ir::ShapeExpr>() && new_dims)
    return tensor_with_shape(*new_dims, data->dtype, data->vdevice);
  if (ctx.arg(1).is<ir::Var>() && new_dims)
    return tensor_with_shape(*new_dims, data->dtype, data->vdevice);
  return make<ir::TensorStructInfo>(ctx.arg(1), data->dtype, shape->ndim, data->vdevice);
}

// ---- permute_dims, expand_dims, squeeze, flatten ---------------------------------------------

Ref<ir::StructInfo> infer_permute_dims(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  auto axes_attr = ctx.attr_int_array("axes");
  if (t->is_unknown_ndim()) return tensor_with_ndim(ir::kUnknownNDim, t->dtype, t->vdevice);
  std::vector<int> axes;
  if (axes_attr) {
    if (static_cast<int>(axes_attr->size()) != t->ndim) {
      ctx.error_at_attr("axes", "E0316",
                        ctx.op_name() + ": `axes` lists " + std::to_string(axes_attr->size()) +
                            " axes but the tensor has rank " + std::to_string(t->ndim));
      return nullptr;
    }
    auto n = normalize_axes(ctx, *axes_attr, t->ndim, "axes");
    if (!n) return nullptr;
    axes = *n;
  } else {
    for (int i = t->ndim - 1; i >= 0; --i) axes.push_back(i);
  }
  bool identity = true;
  for (size_t i = 0; i < axes.size(); ++i) identity &= axes[i] == static_cast<int>(i);
  if (identity) return ctx.arg_sinfo(0);
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) return tensor_with_ndim(t->ndim, t->dtype, t->vdevice);
  PrimExprs out;
  for (int a : axes) out.push_back((*dims)[static_cast<size_t>(a)]);
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

Ref<ir::StructInfo> infer_expand_dims(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  auto axis = ctx.attr_int_array("axis").value_or(std::vector<int64_t>{});
  if (axis.empty()) return ctx.arg_sinfo(0);
  if (t->is_unknown_ndim()) return tensor_with_ndim(ir::kUnknownNDim, t->dtype, t->vdevice);
  int out_ndim = t->ndim + static_cast<int>(axis.size());
  auto axes = normalize_axes(ctx, axis, out_ndim, "axis");
  if (!axes) return nullptr;
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) return tensor_with_ndim(out_ndim, t->dtype, t->vdevice);
  PrimExprs out(static_cast<size_t>(out_ndim));
  for (int a : *axes) out[static_cast<size_t>(a)] = dim_const(1);
  size_t next = 0;
  for (auto& d : out) {
    if (!d) d = (*dims)[next++];
  }
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

Ref<ir::StructInfo> infer_squeeze(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  auto axis = ctx.attr_int_array("axis");
  if (axis && axis->empty()) return ctx.arg_sinfo(0);
  if (t->is_unknown_ndim()) return tensor_with_ndim(ir::kUnknownNDim, t->dtype, t->vdevice);
  const PrimExprs* dims = known_shape(*t);
  std::vector<bool> remove(static_cast<size_t>(t->ndim), false);
  if (axis) {
    auto axes = normalize_axes(ctx, *axis, t->ndim, "axis");
    if (!axes) return nullptr;
    if (!dims)
      return tensor_with_ndim(t->ndim - static_cast<int>(axes->size()), t->dtype, t->vdevice);
    for (int a : *axes) {
      auto len = ir::tir::as_const_int((*dims)[static_cast<size_t>(a)]);
      if (len && *len != 1) {
        // TVM keeps such an axis (PyTorch's behaviour); say so, since it is rarely meant.
        ctx.warning("W0301", ctx.op_name() + ": axis " + std::to_string(a) + " has length " +
                                 std::to_string(*len) + ", not 1; it is kept");
        continue;
      }
      remove[static_cast<size_t>(a)] = true;
    }
  } else {
    if (!dims) return tensor_with_ndim(ir::kUnknownNDim, t->dtype, t->vdevice);
    for (size_t i = 0; i < dims->size(); ++i) {
      auto len = ir::tir::as_const_int((*dims)[i]);
      if (!len) return tensor_with_ndim(ir::kUnknownNDim, t->dtype, t->vdevice);
      remove[i] = *len == 1;
    }
  }
  PrimExprs out;
  for (size_t i = 0; i < dims->size(); ++i) {
    if (!remove[i]) out.push_back((*dims)[i]);
  }
  if (t->shape.is<ir::Var>()) {
    if (static_cast<int>(out.size()) == t->ndim) return ctx.arg_sinfo(0);
    return tensor_with_ndim(axis ? static_cast<int>(out.size()) : ir::kUnknownNDim, t->dtype,
                            t->vdevice);
  }
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

Ref<ir::StructInfo> infer_flatten(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (t->is_unknown_ndim()) return tensor_with_ndim(1, t->dtype, t->vdevice);
  if (t->ndim == 0) return tensor_with_shape({dim_const(1)}, t->dtype, t->vdevice);
  if (t->ndim == 1) return ctx.arg_sinfo(0);
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) return tensor_with_ndim(1, t->dtype, t->vdevice);
  return tensor_with_shape({shape_product(*dims)}, t->dtype, t->vdevice);
}

// ---- concat, stack, split ---------------------------------------------------------------------

// The dtype and rank shared by the tensors of a tuple argument (E0307 / E0312 at the tuple).
struct TupleCommon {
  DataType dtype;
  int ndim = ir::kUnknownNDim;
};

std::optional<TupleCommon> tuple_common(InferContext& ctx,
                                        const std::vector<const ir::TensorStructInfo*>& t) {
  TupleCommon c;
  bool void_dtype = false;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i]->dtype.is_void()) {
      void_dtype = true;
    } else if (c.dtype.is_void()) {
      c.dtype = t[i]->dtype;
    } else if (t[i]->dtype != c.dtype) {
      ctx.error_at_arg(0, "E0307",
                       ctx.op_name() + " requires the tensors to have one dtype, but tensor " +
                           std::to_string(i) + " is " + t[i]->dtype.str() +
                           " while the ones before are " + c.dtype.str());
      return std::nullopt;
    }
    if (t[i]->is_unknown_ndim()) continue;
    if (c.ndim == ir::kUnknownNDim) {
      c.ndim = t[i]->ndim;
    } else if (t[i]->ndim != c.ndim) {
      ctx.error_at_arg(0, "E0312",
                       ctx.op_name() + " requires the tensors to have one rank, but tensor " +
                           std::to_string(i) + " has rank " + std::to_string(t[i]->ndim) +
                           " while the ones before have rank " + std::to_string(c.ndim));
      return std::nullopt;
    }
  }
  if (void_dtype) c.dtype = DataType::Void();
  return c;
}

Ref<ir::StructInfo> infer_concat(InferContext& ctx) {
  auto t = tuple_tensor_args(ctx, 0);
  if (!t) return nullptr;
  if (t->empty()) {
    ctx.error_at_arg(0, "E0317",
                     ctx.op_name() + " needs at least one tensor, but the tuple is empty");
    return nullptr;
  }
  auto common = tuple_common(ctx, *t);
  if (!common) return nullptr;
  auto axis_attr = ctx.attr_int("axis");
  int ndim = common->ndim;
  if (!axis_attr) {
    if (ndim != ir::kUnknownNDim && ndim != 1) {
      ctx.error_at_attr("axis", "E0312",
                        ctx.op_name() +
                            " with axis=None concatenates 1-D tensors, but they have rank " +
                            std::to_string(ndim));
      return nullptr;
    }
    ndim = 1;
  }
  Ref<ir::VDevice> vdevice = shared_vdevice(*t);
  if (ndim == ir::kUnknownNDim) {
    return t->size() == 1 ? ctx.arg_sinfo(0).as<ir::TupleStructInfo>()->fields[0]
                          : Ref<ir::StructInfo>(tensor_with_ndim(ndim, common->dtype, vdevice));
  }
  int axis = 0;
  if (axis_attr) {
    auto a = normalize_axis(ctx, *axis_attr, ndim, "axis");
    if (!a) return nullptr;
    axis = *a;
  }
  if (t->size() == 1) return ctx.arg_sinfo(0).as<ir::TupleStructInfo>()->fields[0];
  std::vector<const PrimExprs*> shapes;
  bool missing = false;
  for (const auto* x : *t) {
    if (const PrimExprs* d = shape_expr_dims(*x))
      shapes.push_back(d);
    else if (const PrimExprs* v = known_shape(*x))
      shapes.push_back(v), missing = true;
    else
      missing = true;
  }
  if (shapes.empty()) return tensor_with_ndim(ndim, common->dtype, vdevice);
  bool all_same = true;
  // TVM tests the lengths for structural equality (the same expression, written the same way).
  for (const auto* s : shapes) {
    const ExprRef& len = (*s)[static_cast<size_t>(axis)];
    const ExprRef& first = (*shapes[0])[static_cast<size_t>(axis)];
    all_same &= len.same_as(first) || dim_text(len) == dim_text(first);
  }
  ExprRef sum;
  if (all_same) {
    sum = dim_mul((*shapes[0])[static_cast<size_t>(axis)],
                  dim_const(static_cast<int64_t>(shapes.size())));
  } else {
    sum = dim_const(0);
    for (const auto* s : shapes) sum = dim_add(sum, (*s)[static_cast<size_t>(axis)]);
  }
  bool unknown = false;
  for (size_t d = 0; d < shapes[0]->size(); ++d) {
    if (static_cast<int>(d) == axis) continue;
    for (size_t i = 1; i < shapes.size(); ++i) {
      DimRelation rel = compare_dims(ctx, (*shapes[0])[d], (*shapes[i])[d]);
      if (rel == DimRelation::kUnequal) {
        ctx.error_at_arg(
            0, "E0313",
            ctx.op_name() +
                ": the tensors must agree on every dimension but the concatenation axis " +
                std::to_string(axis) + ", but dimension " + std::to_string(d) + " is " +
                dim_text((*shapes[0])[d]) + " in tensor 0 and " + dim_text((*shapes[i])[d]) +
                " in tensor " + std::to_string(i));
        return nullptr;
      }
      unknown |= rel == DimRelation::kUnknown;
    }
  }
  if (missing || unknown) return tensor_with_ndim(ndim, common->dtype, vdevice);
  PrimExprs out = *shapes[0];
  out[static_cast<size_t>(axis)] = sum;  // TVM leaves the sum as built
  return tensor_with_shape(std::move(out), common->dtype, vdevice);
}

Ref<ir::StructInfo> infer_stack(InferContext& ctx) {
  auto t = tuple_tensor_args(ctx, 0);
  if (!t) return nullptr;
  if (t->empty()) {
    ctx.error_at_arg(0, "E0317",
                     ctx.op_name() + " needs at least one tensor, but the tuple is empty");
    return nullptr;
  }
  auto common = tuple_common(ctx, *t);
  if (!common) return nullptr;
  Ref<ir::VDevice> vdevice = shared_vdevice(*t);
  if (common->ndim == ir::kUnknownNDim)
    return tensor_with_ndim(ir::kUnknownNDim, common->dtype, vdevice);
  int out_ndim = common->ndim + 1;
  auto axis = normalize_axis(ctx, ctx.attr_int("axis").value_or(0), out_ndim, "axis");
  if (!axis) return nullptr;
  std::vector<const PrimExprs*> shapes;
  bool missing = false;
  for (const auto* x : *t) {
    if (const PrimExprs* d = known_shape(*x)) shapes.push_back(d);
    if (!shape_expr_dims(*x)) missing = true;
  }
  if (shapes.empty()) return tensor_with_ndim(out_ndim, common->dtype, vdevice);
  bool unknown = false;
  for (size_t d = 0; d < shapes[0]->size(); ++d) {
    for (size_t i = 1; i < shapes.size(); ++i) {
      DimRelation rel = compare_dims(ctx, (*shapes[0])[d], (*shapes[i])[d]);
      if (rel == DimRelation::kUnequal) {
        ctx.error_at_arg(0, "E0313",
                         ctx.op_name() + " requires tensors of one shape, but dimension " +
                             std::to_string(d) + " is " + dim_text((*shapes[0])[d]) +
                             " in tensor 0 and " + dim_text((*shapes[i])[d]) + " in tensor " +
                             std::to_string(i));
        return nullptr;
      }
      unknown |= rel == DimRelation::kUnknown;
    }
  }
  if ((missing && t->size() > 1) || unknown)
    return tensor_with_ndim(out_ndim, common->dtype, vdevice);
  PrimExprs out = *shapes[0];
  out.insert(out.begin() + *axis, dim_const(static_cast<int64_t>(t->size())));
  return tensor_with_shape(std::move(out), common->dtype, vdevice);
}

constexpr int64_t kMaxSections = 1 << 16;

// `indices_or_sections` as written (an int, a prim value, a list or tuple of them) made an
// IntValue or an ArrayValue of IntValues.
Ref<ir::Call> normalize_split(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  ir::ObjectRef raw = call->attrs.find("indices_or_sections");
  auto int_of = [](const ir::ObjectRef& v) -> std::optional<int64_t> {
    if (auto i = v.as_ptr<ir::IntValue>()) return i->value;
    if (auto i = v.as_ptr<ir::tir::IntImm>(); i && !i->dtype.is_bool()) return i->value;
    if (auto p = v.as_ptr<ir::PrimValue>()) {
      if (auto i = p->value.as_ptr<ir::tir::IntImm>(); i && !i->dtype.is_bool()) return i->value;
    }
    return std::nullopt;
  };
  ir::ObjectRef value;
  if (auto n = int_of(raw)) {
    // The result is a tuple with one field per section: bound it so no input can exhaust memory.
    if (*n <= 0 || *n > kMaxSections) {
      ctx.error_at_attr("indices_or_sections", "E0316",
                        ctx.op_name() + ": the number of sections must be between 1 and " +
                            std::to_string(kMaxSections) + ", got " + std::to_string(*n));
      return nullptr;
    }
    value = make<ir::IntValue>(*n);
  } else {
    std::vector<ir::ObjectRef> items;
    if (auto arr = raw.as_ptr<ir::ArrayValue>())
      items = arr->items;
    else if (auto tuple = raw.as_ptr<ir::Tuple>())
      items.assign(tuple->fields.begin(), tuple->fields.end());
    else if (auto shape = raw.as_ptr<ir::ShapeExpr>())
      items.assign(shape->values.begin(), shape->values.end());
    else
      items = {nullptr};
    std::vector<int64_t> indices;
    for (const auto& item : items) {
      auto i = int_of(item);
      if (!i) {
        ctx.error_at_attr("indices_or_sections", "E0305",
                          ctx.op_name() +
                              ": `indices_or_sections` must be a number of sections or a list of "
                              "integer indices");
        return nullptr;
      }
      indices.push_back(*i);
    }
    value = int_array_value(indices);
  }
  if (raw && raw->span.is_known()) value->span = raw->span;
  if (auto i = raw.as_ptr<ir::IntValue>(); i && value.is<ir::IntValue>()) return call;
  return with_attr(call, "indices_or_sections", value);
}

Ref<ir::StructInfo> infer_split(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  int axis = -1;
  if (!t->is_unknown_ndim()) {
    auto a = normalize_axis(ctx, ctx.attr_int("axis").value_or(0), t->ndim, "axis");
    if (!a) return nullptr;
    axis = *a;
  }
  const PrimExprs* dims = shape_expr_dims(*t);
  ir::ObjectRef spec_value = ctx.attr("indices_or_sections");
  auto& az = ctx.analyzer();
  std::vector<Ref<ir::StructInfo>> fields;
  if (auto arr = spec_value.as_ptr<ir::ArrayValue>()) {
    if (arr->items.empty()) return ctx.arg_sinfo(0);
    size_t n = arr->items.size() + 1;
    if (!dims)
      return make<ir::TupleStructInfo>(
          std::vector<Ref<ir::StructInfo>>(n, tensor_with_ndim(t->ndim, t->dtype, t->vdevice)));
    const ExprRef& len = (*dims)[static_cast<size_t>(axis)];
    auto clamp = [&](ExprRef v) { return dim_min(dim_max(std::move(v), dim_const(0)), len); };
    for (size_t i = 0; i < n; ++i) {
      ExprRef left =
          i == 0 ? dim_const(0) : dim_const(arr->items[i - 1].as_ptr<ir::IntValue>()->value);
      ExprRef right = i + 1 < n ? dim_const(arr->items[i].as_ptr<ir::IntValue>()->value) : len;
      PrimExprs out = *dims;
      out[static_cast<size_t>(axis)] =
          az.simplify(dim_max(dim_sub(clamp(right), clamp(left)), dim_const(0)));
      fields.push_back(tensor_with_shape(std::move(out), t->dtype, t->vdevice));
    }
    return make<ir::TupleStructInfo>(std::move(fields));
  }
  int64_t sections = ctx.attr_int("indices_or_sections").value_or(1);
  if (sections == 1) return ctx.arg_sinfo(0);
  if (!dims) {
    return make<ir::TupleStructInfo>(std::vector<Ref<ir::StructInfo>>(
        static_cast<size_t>(sections), tensor_with_ndim(t->ndim, t->dtype, t->vdevice)));
  }
  const ExprRef& len = (*dims)[static_cast<size_t>(axis)];
  ExprRef part = az.simplify(dim_ceildiv(len, dim_const(sections)));
  PrimExprs shape = *dims;
  shape[static_cast<size_t>(axis)] = part;
  for (int64_t i = 0; i + 1 < sections; ++i)
    fields.push_back(tensor_with_shape(shape, t->dtype, t->vdevice));
  shape[static_cast<size_t>(axis)] =
      az.simplify(dim_sub(len, dim_mul(part, dim_const(sections - 1))));
  fields.push_back(tensor_with_shape(shape, t->dtype, t->vdevice));
  return make<ir::TupleStructInfo>(std::move(fields));
}

// ---- broadcast_to, tile, repeat, flip, astype -------------------------------------------------

Ref<ir::Call> normalize_shape_arg(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  Ref<ir::Expr> shape = tuple_to_shape_expr(call->args[1]);
  if (shape.same_as(call->args[1])) return call;
  std::vector<Ref<ir::Expr>> args = call->args;
  args[1] = shape;
  return with_args(call, std::move(args));
}

Ref<ir::StructInfo> infer_broadcast_to(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  auto shape = shape_arg(ctx, 1);
  if (!shape) return nullptr;
  if (!t->is_unknown_ndim() && shape->ndim != ir::kUnknownNDim && shape->ndim < t->ndim) {
    ctx.error_at_arg(1, "E0314",
                     ctx.op_name() + ": the target shape has rank " + std::to_string(shape->ndim) +
                         ", less than the tensor's rank " + std::to_string(t->ndim));
    return nullptr;
  }
  const PrimExprs* old_dims = known_shape(*t);
  std::optional<PrimExprs> target = shape->values;
  if (!target) {
    if (auto s = ctx.arg(1).as_ptr<ir::ShapeExpr>()) target = s->values;
  }
  if (old_dims && target) {
    size_t n_old = old_dims->size(), n_new = target->size();
    for (size_t k = 0; k < n_old; ++k) {
      const ExprRef& a = (*old_dims)[n_old - 1 - k];
      const ExprRef& b = (*target)[n_new - 1 - k];
      if (ir::tir::is_const_int(a, 1)) continue;
      if (compare_dims(ctx, a, b) == DimRelation::kUnequal) {
        ctx.error_at_arg(1, "E0314",
                         ctx.op_name() + ": cannot broadcast " + shape_text(*old_dims) + " to " +
                             shape_text(*target) + ": dimension " + std::to_string(n_old - 1 - k) +
                             " of the tensor is " + dim_text(a) + " but the target has " +
                             dim_text(b));
        return nullptr;
      }
    }
  }
  if (auto s = ctx.arg(1).as_ptr<ir::ShapeExpr>())
    return tensor_with_shape(s->values, t->dtype, t->vdevice);
  return make<ir::TensorStructInfo>(ctx.arg(1), t->dtype, shape->ndim, t->vdevice);
}

Ref<ir::StructInfo> infer_tile(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  auto repeats = ctx.attr_int_array("repeats").value_or(std::vector<int64_t>{});
  for (int64_t r : repeats) {
    if (r < 0) {
      ctx.error_at_attr(
          "repeats", "E0316",
          ctx.op_name() + ": `repeats` must be non-negative, got " + std::to_string(r));
      return nullptr;
    }
  }
  int l = static_cast<int>(repeats.size());
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) {
    if (t->is_unknown_ndim()) return tensor_with_ndim(ir::kUnknownNDim, t->dtype, t->vdevice);
    if (l > t->ndim) return tensor_with_ndim(l, t->dtype, t->vdevice);
    for (int64_t r : repeats) {
      if (r != 1) return tensor_with_ndim(t->ndim, t->dtype, t->vdevice);
    }
    return ctx.arg_sinfo(0);
  }
  int ndim = static_cast<int>(dims->size());
  int out_ndim = std::max(l, ndim);
  int l_delta = out_ndim - l, ndim_delta = out_ndim - ndim;
  PrimExprs out;
  for (int i = 0; i < out_ndim; ++i) {
    if (i < l_delta)
      out.push_back((*dims)[static_cast<size_t>(i - ndim_delta)]);
    else if (i < ndim_delta)
      out.push_back(dim_const(repeats[static_cast<size_t>(i - l_delta)]));
    else
      out.push_back(
          ctx.analyzer().simplify(dim_mul((*dims)[static_cast<size_t>(i - ndim_delta)],
                                          dim_const(repeats[static_cast<size_t>(i - l_delta)]))));
  }
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

Ref<ir::StructInfo> infer_repeat(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  int64_t repeats = ctx.attr_int("repeats").value_or(1);
  if (repeats < 0) {
    ctx.error_at_attr(
        "repeats", "E0316",
        ctx.op_name() + ": `repeats` must be non-negative, got " + std::to_string(repeats));
    return nullptr;
  }
  auto axis = ctx.attr_int("axis");
  std::optional<int> norm;
  if (axis && !t->is_unknown_ndim()) {
    norm = normalize_axis(ctx, *axis, t->ndim, "axis");
    if (!norm) return nullptr;
  }
  const PrimExprs* dims = shape_expr_dims(*t);
  if (!dims) {
    if (axis)
      return repeats == 1 ? ctx.arg_sinfo(0)
                          : Ref<ir::StructInfo>(tensor_with_ndim(t->ndim, t->dtype, t->vdevice));
    return tensor_with_ndim(1, t->dtype, t->vdevice);
  }
  if (!axis) {
    return tensor_with_shape(
        {ctx.analyzer().simplify(dim_mul(shape_product(*dims), dim_const(repeats)))}, t->dtype,
        t->vdevice);
  }
  PrimExprs out = *dims;
  out[static_cast<size_t>(*norm)] =
      ctx.analyzer().simplify(dim_mul(out[static_cast<size_t>(*norm)], dim_const(repeats)));
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

Ref<ir::StructInfo> infer_flip(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (!t->is_unknown_ndim() &&
      !normalize_axis(ctx, ctx.attr_int("axis").value_or(0), t->ndim, "axis"))
    return nullptr;
  return ctx.arg_sinfo(0);
}

Ref<ir::StructInfo> infer_astype(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  return with_dtype(*t, ctx.attr_dtype("dtype").value_or(DataType::Void()));
}

// ---- collapse_sum_like / collapse_sum_to --------------------------------------------------------

// The target must be what a broadcast of it produced: right-aligned, each target dim equal to
// the data's or 1 (E0314 when provably not).
bool check_collapse(InferContext& ctx, size_t target_arg, const PrimExprs& data,
                    const PrimExprs& target) {
  int ti = static_cast<int>(target.size()) - 1;
  for (int di = static_cast<int>(data.size()) - 1; di >= 0 && ti >= 0; --di) {
    const ExprRef& a = data[static_cast<size_t>(di)];
    const ExprRef& b = target[static_cast<size_t>(ti)];
    if (ir::tir::is_const_int(b, 1) || compare_dims(ctx, a, b) != DimRelation::kUnequal) {
      --ti;
      continue;
    }
    ctx.error_at_arg(target_arg, "E0314",
                     ctx.op_name() + ": cannot collapse " + shape_text(data) + " to " +
                         shape_text(target) + ": dimension " + std::to_string(di) +
                         " of the data is " + dim_text(a) + " but the target has " + dim_text(b) +
                         " (it must be equal or 1)");
    return false;
  }
  if (ti >= 0) {
    ctx.error_at_arg(target_arg, "E0314",
                     ctx.op_name() + ": cannot collapse " + shape_text(data) + " to " +
                         shape_text(target) + ", which has more dimensions");
    return false;
  }
  return true;
}

Ref<ir::StructInfo> infer_collapse_sum_like(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  auto target = data ? ctx.tensor_arg(1) : nullptr;
  if (!data || !target) return nullptr;
  const PrimExprs* d = known_shape(*data);
  const PrimExprs* s = known_shape(*target);
  if (d && s && !check_collapse(ctx, 1, *d, *s)) return nullptr;
  return make<ir::TensorStructInfo>(target->shape, data->dtype, target->ndim, target->vdevice);
}

Ref<ir::StructInfo> infer_collapse_sum_to(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  auto shape = shape_arg(ctx, 1);
  if (!shape) return nullptr;
  const PrimExprs* d = known_shape(*data);
  std::optional<PrimExprs> target = shape->values;
  if (!target) {
    if (auto s = ctx.arg(1).as_ptr<ir::ShapeExpr>()) target = s->values;
  }
  if (d && target && !check_collapse(ctx, 1, *d, *target)) return nullptr;
  if (auto s = ctx.arg(1).as_ptr<ir::ShapeExpr>())
    return tensor_with_shape(s->values, data->dtype, data->vdevice);
  return make<ir::TensorStructInfo>(ctx.arg(1), data->dtype, shape->ndim, data->vdevice);
}

OpInfo make_op(std::string name, std::string doc, std::vector<ArgSpec> args,
               std::vector<AttrSpec> attrs, InferFn infer,
               OpPattern pattern = OpPattern::kInjective) {
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

void register_manipulate_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo reshape =
      make_op("reshape", "Reshapes to `shape` (one -1 is inferred, 0 copies the input's dimension)",
              {arg("x", "the input tensor"), arg("shape", "the new shape")}, {}, infer_reshape);
  reshape.normalize = normalize_reshape;
  add_op(r, std::move(reshape));
  add_op(r, make_op("permute_dims", "Permutes the axes (reverses them when `axes` is None)",
                    {arg("x", "the input tensor")},
                    {optional_attr("axes", AttrKind::kIntArray, "the new order of the axes")},
                    infer_permute_dims));
  add_op(r,
         make_op("expand_dims", "Inserts axes of length 1 at the positions `axis` (of the result)",
                 {arg("x", "the input tensor")},
                 {required_attr("axis", AttrKind::kIntArray, "where the new axes go")},
                 infer_expand_dims));
  add_op(r, make_op(
                "squeeze", "Removes axes of length 1 (those in `axis`, or all of them when None)",
                {arg("x", "the input tensor")},
                {optional_attr("axis", AttrKind::kIntArray, "the axes to remove")}, infer_squeeze));
  add_op(r, make_op("flatten", "Flattens to one dimension", {arg("x", "the input tensor")}, {},
                    infer_flatten));
  add_op(r, make_op("concat", "Concatenates a tuple of tensors along `axis`",
                    {arg("tensors", "the tuple of tensors")},
                    {or_none(int_attr(
                        "axis", 0, "the axis to concatenate along (None: the tensors are 1-D)"))},
                    infer_concat));
  add_op(r, make_op("stack", "Stacks a tuple of tensors of one shape along a new axis",
                    {arg("tensors", "the tuple of tensors")},
                    {int_attr("axis", 0, "the position of the new axis")}, infer_stack));
  OpInfo split = make_op(
      "split", "Splits along `axis` into equal sections or at the given indices; returns a tuple",
      {arg("x", "the input tensor")},
      {required_attr("indices_or_sections", AttrKind::kAny,
                     "a number of (nearly) equal sections, or the indices to split at"),
       int_attr("axis", 0, "the axis to split along")},
      infer_split);
  split.normalize = normalize_split;
  add_op(r, std::move(split));
  OpInfo broadcast_to = make_op("broadcast_to", "Broadcasts to `shape` (numpy rules)",
                                {arg("x", "the input tensor"), arg("shape", "the target shape")},
                                {}, infer_broadcast_to, OpPattern::kBroadcast);
  broadcast_to.normalize = normalize_shape_arg;
  add_op(r, std::move(broadcast_to));
  add_op(r, make_op("tile", "Repeats the whole tensor `repeats` times along each axis",
                    {arg("data", "the input tensor")},
                    {required_attr("repeats", AttrKind::kIntArray,
                                   "the repetitions per axis (aligned to the right)")},
                    infer_tile));
  add_op(
      r,
      make_op("repeat",
              "Repeats each element `repeats` times along `axis` (the flattened tensor when None)",
              {arg("data", "the input tensor")},
              {required_attr("repeats", AttrKind::kInt, "how many times each element repeats"),
               optional_attr("axis", AttrKind::kInt, "the axis to repeat along")},
              infer_repeat));
  add_op(r, make_op("flip", "Reverses the order of the elements along `axis`",
                    {arg("data", "the input tensor")},
                    {required_attr("axis", AttrKind::kInt, "the axis to reverse")}, infer_flip));
  add_op(r, make_op("astype", "Casts the elements to `dtype`", {arg("x", "the input tensor")},
                    {required_attr("dtype", AttrKind::kDType, "the target dtype")}, infer_astype,
                    OpPattern::kElemWise));
  add_op(r, make_op("collapse_sum_like",
                    "Sums the broadcast axes away so the result has the shape of `collapse_target`",
                    {arg("data", "the input tensor"),
                     arg("collapse_target", "the tensor whose shape the result takes")},
                    {}, infer_collapse_sum_like, OpPattern::kCommReduce));
  OpInfo collapse_to =
      make_op("collapse_sum_to", "Sums the broadcast axes away so the result has `shape`",
              {arg("data", "the input tensor"), arg("shape", "the shape to collapse to")}, {},
              infer_collapse_sum_to, OpPattern::kCommReduce);
  collapse_to.normalize = normalize_shape_arg;
  add_op(r, std::move(collapse_to));
}

}  // namespace relax::analysis

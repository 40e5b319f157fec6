// Data-movement ops driven by indices or index maps (SEMANTICS.md §3.10): layout_transform (an
// index map applied to the shape), gather_elements, gather_nd, scatter_elements, scatter_nd,
// one_hot, meshgrid and index_tensor.
#include <map>
#include <utility>

#include "analysis/arith/analyzer.h"
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;

namespace {

// ---- layout_transform ---------------------------------------------------------------------------

// pad_value written as a number becomes a prim value of the data's dtype; None separators
// become empty lists (TVM's Python function does both).
Ref<ir::Call> normalize_layout_transform(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  for (const char* name : {"axis_separators", "input_axis_separators"}) {
    if (!call->attrs.find(name)) call = with_attr(call, name, int_array_value({}));
  }
  ir::ObjectRef pad = call->attrs.find("pad_value");
  if (!pad || pad.is<ir::PrimValue>()) return call;
  auto data = ctx.arg_sinfo(0).as_ptr<ir::TensorStructInfo>();
  DataType dtype = data && !data->dtype.is_void() ? data->dtype : DataType::Float32();
  Ref<ir::tir::PrimExpr> value;
  if (auto i = pad.as_ptr<ir::IntValue>()) {
    value = dtype.is_floating()
                ? Ref<ir::tir::PrimExpr>(ir::tir::float_imm(dtype, static_cast<double>(i->value)))
                : Ref<ir::tir::PrimExpr>(ir::tir::int_imm(dtype, i->value));
  } else if (auto f = pad.as_ptr<ir::FloatValue>()) {
    value = dtype.is_floating()
                ? Ref<ir::tir::PrimExpr>(ir::tir::float_imm(dtype, f->value))
                : Ref<ir::tir::PrimExpr>(ir::tir::int_imm(dtype, static_cast<int64_t>(f->value)));
  } else if (auto p = pad.as<ir::tir::PrimExpr>()) {
    value = p;
  } else {
    ctx.error_at_attr("pad_value", "E0305",
                      ctx.op_name() + ": `pad_value` must be a number or None");
    return nullptr;
  }
  auto pv = make<ir::PrimValue>(value);
  pv->span = pad->span;
  return with_attr(call, "pad_value", pv);
}

// The extent of an index-map output expression over the input extents: a variable, v // c,
// v % c, a mixed-radix fusion sum(c_i * v_i), or anything whose bounds are constant.
ExprRef map_extent(InferContext& ctx, const ExprRef& e,
                   const std::map<const ir::tir::Var*, ExprRef>& extent_of) {
  auto& az = ctx.analyzer();
  if (auto v = e.as_ptr<ir::tir::Var>()) {
    auto it = extent_of.find(v);
    return it == extent_of.end() ? nullptr : it->second;
  }
  if (auto b = e.as_ptr<ir::tir::BinaryOp>()) {
    auto c = ir::tir::as_const_int(b->b);
    if (c && *c > 0 && b->kind() == ir::ObjectKind::kFloorDiv) {
      if (ExprRef inner = map_extent(ctx, b->a, extent_of))
        return az.simplify(dim_ceildiv(inner, dim_const(*c)));
    }
    // v % c ranges over [0, c), padded when the input is shorter (TVM's MapShape).
    if (c && *c > 0 && b->kind() == ir::ObjectKind::kFloorMod && map_extent(ctx, b->a, extent_of))
      return dim_const(*c);
  }
  // Mixed radix: terms c_i * v_i whose coefficients grow by the extents of the finer terms.
  std::vector<std::pair<int64_t, const ir::tir::Var*>> terms;
  std::vector<ExprRef> stack{e};
  bool linear = true;
  while (!stack.empty() && linear) {
    ExprRef x = stack.back();
    stack.pop_back();
    if (x->kind() == ir::ObjectKind::kAdd) {
      auto b = x.as_ptr<ir::tir::BinaryOp>();
      stack.push_back(b->a);
      stack.push_back(b->b);
    } else if (auto v = x.as_ptr<ir::tir::Var>()) {
      terms.push_back({1, v});
    } else if (x->kind() == ir::ObjectKind::kMul) {
      auto b = x.as_ptr<ir::tir::BinaryOp>();
      auto c = ir::tir::as_const_int(b->b);
      auto v = b->a.as_ptr<ir::tir::Var>();
      if (!c) c = ir::tir::as_const_int(b->a), v = b->b.as_ptr<ir::tir::Var>();
      if (c && v)
        terms.push_back({*c, v});
      else
        linear = false;
    } else {
      linear = false;
    }
  }
  if (linear && !terms.empty()) {
    std::sort(terms.begin(), terms.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    ExprRef expected = dim_const(1);
    bool fused = true;
    for (const auto& [coeff, var] : terms) {
      auto it = extent_of.find(var);
      if (it == extent_of.end() || !az.can_prove_equal(dim_const(coeff), expected)) {
        fused = false;
        break;
      }
      expected = az.simplify(dim_mul(expected, it->second));
    }
    if (fused) return expected;
  }
  // Constant extents: the bound of the expression over the box.
  arith::Analyzer local;
  for (const auto& [var, extent] : extent_of) {
    auto c = ir::tir::as_const_int(extent);
    if (!c) return nullptr;
    local.update_bound(Ref<ir::tir::Var>(const_cast<ir::tir::Var*>(var)), {0, *c - 1});
  }
  auto bound = local.const_int_bound(e);
  if (bound.min_value == 0 && bound.max_value < arith::ConstIntBound::kPosInf)
    return dim_const(bound.max_value + 1);
  return nullptr;
}

Ref<ir::StructInfo> infer_layout_transform(InferContext& ctx) {
  auto t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  auto map = ctx.attr("index_map").as_ptr<ir::tir::IndexMap>();
  if (!map) return nullptr;
  if (auto pad = ctx.attr("pad_value").as_ptr<ir::PrimValue>()) {
    if (!t->dtype.is_void() && pad->value->dtype != t->dtype) {
      ctx.error_at_attr("pad_value", "E0307",
                        ctx.op_name() + ": `pad_value` has dtype " + pad->value->dtype.str() +
                            " but the tensor has dtype " + t->dtype.str());
      return nullptr;
    }
  }
  int out_ndim = static_cast<int>(map->final_indices.size());
  if (t->is_unknown_ndim()) return tensor_with_ndim(out_ndim, t->dtype, t->vdevice);
  if (map->initial_indices.size() != static_cast<size_t>(t->ndim)) {
    ctx.error_at_attr("index_map", "E0322",
                      ctx.op_name() + ": the index map takes " +
                          std::to_string(map->initial_indices.size()) +
                          " indices but the tensor has rank " + std::to_string(t->ndim));
    return nullptr;
  }
  const PrimExprs* dims = known_shape(*t);
  if (!dims) return tensor_with_ndim(out_ndim, t->dtype, t->vdevice);
  std::map<const ir::tir::Var*, ExprRef> extent_of;
  for (size_t i = 0; i < map->initial_indices.size(); ++i)
    extent_of[map->initial_indices[i].get()] = (*dims)[i];
  PrimExprs out;
  for (const auto& f : map->final_indices) {
    ExprRef extent = map_extent(ctx, f, extent_of);
    if (!extent) return tensor_with_ndim(out_ndim, t->dtype, t->vdevice);
    out.push_back(extent);
  }
  return tensor_with_shape(std::move(out), t->dtype, t->vdevice);
}

// ---- gathers and scatters
// -------------------------------------------------------------------------

Ref<ir::StructInfo> infer_gather_elements(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  auto indices = data ? ctx.tensor_arg(1) : nullptr;
  if (!data || !indices || !check_int_dtype(ctx, 1, indices->dtype)) return nullptr;
  if (data->is_unknown_ndim() || indices->is_unknown_ndim())
    return tensor_with_ndim(ir::kUnknownNDim, data->dtype, data->vdevice);
  if (!normalize_axis(ctx, ctx.attr_int("axis").value_or(0), data->ndim, "axis")) return nullptr;
  if (data->ndim != indices->ndim) {
    ctx.error_at_arg(1, "E0312",
                     ctx.op_name() + " requires `indices` to have the rank of `data` (" +
                         std::to_string(data->ndim) + "), but it has rank " +
                         std::to_string(indices->ndim));
    return nullptr;
  }
  return make<ir::TensorStructInfo>(indices->shape, data->dtype, indices->ndim, data->vdevice);
}

Ref<ir::StructInfo> infer_gather_nd(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  auto indices = data ? ctx.tensor_arg(1) : nullptr;
  if (!data || !indices) return nullptr;
  if (!indices->dtype.is_void() && indices->dtype != DataType::Int64()) {
    ctx.error_at_arg(
        1, "E0311",
        ctx.op_name() + " requires `indices` to have dtype int64, got " + indices->dtype.str());
    return nullptr;
  }
  int64_t batch_dims = ctx.attr_int("batch_dims").value_or(0);
  if (batch_dims < 0) {
    ctx.error_at_attr(
        "batch_dims", "E0316",
        ctx.op_name() + ": `batch_dims` must be non-negative, got " + std::to_string(batch_dims));
    return nullptr;
  }
  if (data->is_unknown_ndim() || indices->is_unknown_ndim())
    return tensor_with_ndim(ir::kUnknownNDim, data->dtype, data->vdevice);
  if (batch_dims > data->ndim || batch_dims > indices->ndim - 1) {
    ctx.error_at_attr("batch_dims", "E0316",
                      ctx.op_name() + ": `batch_dims` = " + std::to_string(batch_dims) +
                          " exceeds the data's rank " + std::to_string(data->ndim) +
                          " or the indices' rank minus one (" + std::to_string(indices->ndim - 1) +
                          ")");
    return nullptr;
  }
  const PrimExprs* idims = shape_expr_dims(*indices);
  auto last = idims && !idims->empty() ? ir::tir::as_const_int(idims->back()) : std::nullopt;
  if (!last) return tensor_with_ndim(ir::kUnknownNDim, data->dtype, data->vdevice);
  if (*last < 0 || *last > data->ndim - batch_dims) {
    ctx.error_at_arg(1, "E0313",
                     ctx.op_name() + ": the last dimension of `indices` (" + std::to_string(*last) +
                         ") exceeds the data's rank minus batch_dims (" +
                         std::to_string(data->ndim - batch_dims) + ")");
    return nullptr;
  }
  int l = static_cast<int>(*last);
  int out_ndim = indices->ndim + data->ndim - l - 1 - static_cast<int>(batch_dims);
  const PrimExprs* ddims = shape_expr_dims(*data);
  if (!ddims) return tensor_with_ndim(out_ndim, data->dtype, data->vdevice);
  PrimExprs out(idims->begin(), idims->end() - 1);
  for (size_t i = static_cast<size_t>(batch_dims + l); i < ddims->size(); ++i)
    out.push_back((*ddims)[i]);
  return tensor_with_shape(std::move(out), data->dtype, data->vdevice);
}

Ref<ir::StructInfo> infer_scatter_elements(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  auto indices = data ? ctx.tensor_arg(1) : nullptr;
  auto updates = indices ? ctx.tensor_arg(2) : nullptr;
  if (!updates) return nullptr;
  if (data->is_unknown_ndim())
    return tensor_with_ndim(ir::kUnknownNDim, data->dtype, data->vdevice);
  if (!indices->is_unknown_ndim() && !updates->is_unknown_ndim()) {
    if (indices->ndim != data->ndim || updates->ndim != indices->ndim) {
      size_t bad = indices->ndim != data->ndim ? 1 : 2;
      ctx.error_at_arg(
          bad, "E0312",
          ctx.op_name() +
              " requires `data`, `indices` and `updates` to have one rank, but they have ranks " +
              std::to_string(data->ndim) + ", " + std::to_string(indices->ndim) + " and " +
              std::to_string(updates->ndim));
      return nullptr;
    }
  }
  if (!data->dtype.is_void() && !updates->dtype.is_void() && data->dtype != updates->dtype) {
    ctx.error_at_arg(2, "E0307",
                     ctx.op_name() + ": `updates` has dtype " + updates->dtype.str() +
                         " but `data` has dtype " + data->dtype.str());
    return nullptr;
  }
  if (!check_int_dtype(ctx, 1, indices->dtype)) return nullptr;
  if (!normalize_axis(ctx, ctx.attr_int("axis").value_or(0), data->ndim, "axis")) return nullptr;
  const PrimExprs* idims = shape_expr_dims(*indices);
  const PrimExprs* udims = shape_expr_dims(*updates);
  if (idims && udims) {
    for (size_t i = 0; i < idims->size() && i < udims->size(); ++i) {
      if (compare_dims(ctx, (*idims)[i], (*udims)[i]) == DimRelation::kUnequal) {
        ctx.error_at_arg(2, "E0313",
                         ctx.op_name() +
                             " requires `updates` to have the shape of `indices`, but they are " +
                             shape_text(*udims) + " and " + shape_text(*idims));
        return nullptr;
      }
    }
  }
  if (const PrimExprs* d = shape_expr_dims(*data))
    return tensor_with_shape(*d, data->dtype, data->vdevice);
  return tensor_with_ndim(data->ndim, data->dtype, data->vdevice);
}

Ref<ir::StructInfo> infer_scatter_nd(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  auto indices = data ? ctx.tensor_arg(1) : nullptr;
  auto updates = indices ? ctx.tensor_arg(2) : nullptr;
  if (!updates) return nullptr;
  if (!data->dtype.is_void() && !updates->dtype.is_void() && data->dtype != updates->dtype) {
    ctx.error_at_arg(2, "E0307",
                     ctx.op_name() + ": `updates` has dtype " + updates->dtype.str() +
                         " but `data` has dtype " + data->dtype.str());
    return nullptr;
  }
  if (!check_int_dtype(ctx, 1, indices->dtype)) return nullptr;
  const PrimExprs* d = shape_expr_dims(*data);
  const PrimExprs* i = shape_expr_dims(*indices);
  const PrimExprs* u = shape_expr_dims(*updates);
  if (d && i && u && !i->empty()) {
    auto k = ir::tir::as_const_int(i->back());
    if (k && *k <= static_cast<int64_t>(d->size())) {
      PrimExprs expected(i->begin(), i->end() - 1);
      for (size_t x = static_cast<size_t>(*k); x < d->size(); ++x) expected.push_back((*d)[x]);
      bool bad = expected.size() != u->size();
      for (size_t x = 0; !bad && x < expected.size(); ++x)
        bad = compare_dims(ctx, expected[x], (*u)[x]) == DimRelation::kUnequal;
      if (bad) {
        ctx.error_at_arg(
            2, "E0313",
            ctx.op_name() +
                ": `updates` must have the shape indices.shape[:-1] + data.shape[K:] = " +
                shape_text(expected) + ", but it is " + shape_text(*u));
        return nullptr;
      }
    } else if (k) {
      ctx.error_at_arg(1, "E0313",
                       ctx.op_name() + ": the last dimension of `indices` (" + std::to_string(*k) +
                           ") exceeds the data's rank " + std::to_string(d->size()));
      return nullptr;
    }
  }
  if (d) return tensor_with_shape(*d, data->dtype, data->vdevice);
  return tensor_with_ndim(data->ndim, data->dtype, data->vdevice);
}

Ref<ir::StructInfo> infer_one_hot(InferContext& ctx) {
  auto indices = ctx.tensor_arg(0);
  if (!indices) return nullptr;
  const ir::PrimStructInfo* value[2];
  for (size_t i = 1; i < 3; ++i) {
    value[i - 1] = ctx.arg_sinfo(i).as_ptr<ir::PrimStructInfo>();
    if (!value[i - 1]) {
      ctx.error_at_arg(i, "E0317",
                       ctx.op_name() + " requires " + arg_name(ctx, i) +
                           " to be a scalar (R.prim_value), got " + sinfo_text(ctx.arg_sinfo(i)));
      return nullptr;
    }
  }
  if (value[0]->dtype != value[1]->dtype) {
    ctx.error_at_arg(2, "E0307",
                     ctx.op_name() + ": `on_value` has dtype " + value[0]->dtype.str() +
                         " but `off_value` has dtype " + value[1]->dtype.str());
    return nullptr;
  }
  if (!check_int_dtype(ctx, 0, indices->dtype)) return nullptr;
  int64_t depth = ctx.attr_int("depth").value_or(1);
  if (depth <= 0) {
    ctx.error_at_attr("depth", "E0316",
                      ctx.op_name() + ": `depth` must be positive, got " + std::to_string(depth));
    return nullptr;
  }
  DataType dtype = value[0]->dtype;
  if (indices->is_unknown_ndim())
    return tensor_with_ndim(ir::kUnknownNDim, dtype, indices->vdevice);
  auto axis = normalize_axis(ctx, ctx.attr_int("axis").value_or(-1), indices->ndim + 1, "axis");
  if (!axis) return nullptr;
  const PrimExprs* dims = shape_expr_dims(*indices);
  if (!dims) return tensor_with_ndim(indices->ndim + 1, dtype, indices->vdevice);
  PrimExprs out = *dims;
  out.insert(out.begin() + *axis, dim_const(depth));
  return tensor_with_shape(std::move(out), dtype, indices->vdevice);
}

Ref<ir::StructInfo> infer_meshgrid(InferContext& ctx) {
  auto t = tuple_tensor_args(ctx, 0);
  if (!t) return nullptr;
  if (t->empty()) {
    ctx.error_at_arg(0, "E0317",
                     ctx.op_name() + " needs at least one 1-D tensor, but the tuple is empty");
    return nullptr;
  }
  std::string indexing = ctx.attr_string("indexing").value_or("ij");
  if (indexing != "ij" && indexing != "xy") {
    ctx.error_at_attr(
        "indexing", "E0316",
        ctx.op_name() + ": `indexing` must be \"ij\" or \"xy\", got \"" + indexing + "\"");
    return nullptr;
  }
  DataType dtype;
  PrimExprs lengths;
  bool unknown = false;
  for (size_t i = 0; i < t->size(); ++i) {
    const auto* x = (*t)[i];
    if (!x->is_unknown_ndim() && x->ndim != 1) {
      ctx.error_at_arg(0, "E0312",
                       ctx.op_name() + " requires 1-D tensors, but tensor " + std::to_string(i) +
                           " has rank " + std::to_string(x->ndim));
      return nullptr;
    }
    if (!x->dtype.is_void()) {
      if (dtype.is_void()) {
        dtype = x->dtype;
      } else if (x->dtype != dtype) {
        ctx.error_at_arg(0, "E0307",
                         ctx.op_name() + " requires one dtype, but tensor " + std::to_string(i) +
                             " is " + x->dtype.str() + " while the ones before are " + dtype.str());
        return nullptr;
      }
    }
    const PrimExprs* d = shape_expr_dims(*x);
    if (d && d->size() == 1)
      lengths.push_back((*d)[0]);
    else
      unknown = true;
  }
  // "xy" (Cartesian) indexing swaps the first two axes (numpy).
  if (!unknown && indexing == "xy" && lengths.size() >= 2) std::swap(lengths[0], lengths[1]);
  Ref<ir::VDevice> vdevice = shared_vdevice(*t);
  int n = static_cast<int>(t->size());
  Ref<ir::StructInfo> field = unknown
                                  ? Ref<ir::StructInfo>(tensor_with_ndim(n, dtype, vdevice))
                                  : Ref<ir::StructInfo>(tensor_with_shape(lengths, dtype, vdevice));
  return make<ir::TupleStructInfo>(std::vector<Ref<ir::StructInfo>>(t->size(), field));
}

Ref<ir::StructInfo> infer_index_tensor(InferContext& ctx) {
  auto data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  auto indices = tuple_tensor_args(ctx, 1);
  if (!indices) return nullptr;
  if (indices->empty()) {
    ctx.error_at_arg(1, "E0317",
                     ctx.op_name() + " needs at least one index tensor, but the tuple is empty");
    return nullptr;
  }
  int n = static_cast<int>(indices->size());
  for (int i = 0; i < n; ++i) {
    DataType dt = (*indices)[static_cast<size_t>(i)]->dtype;
    if (!dt.is_void() && !dt.is_int()) {
      ctx.error_at_arg(1, "E0311",
                       ctx.op_name() + " requires integer index tensors, but index " +
                           std::to_string(i) + " has dtype " + dt.str());
      return nullptr;
    }
  }
  if (!data->is_unknown_ndim() && n > data->ndim) {
    ctx.error_at_arg(1, "E0312",
                     ctx.op_name() + ": " + std::to_string(n) +
                         " index tensors for a tensor of rank " + std::to_string(data->ndim));
    return nullptr;
  }
  PrimExprs broadcast;
  bool known = true;
  for (const auto* x : *indices) {
    const PrimExprs* d = shape_expr_dims(*x);
    if (!d) {
      known = false;
      break;
    }
    PrimExprs next;
    switch (broadcast_shapes(ctx, broadcast, *d, next, 1, 1)) {
      case BroadcastResult::kError:
        return nullptr;
      case BroadcastResult::kUnknown:
        known = false;
        break;
      case BroadcastResult::kOk:
        broadcast = std::move(next);
        break;
    }
    if (!known) break;
  }
  const PrimExprs* ddims = shape_expr_dims(*data);
  if (known && ddims) {
    PrimExprs out = broadcast;
    for (size_t i = static_cast<size_t>(n); i < ddims->size(); ++i) out.push_back((*ddims)[i]);
    return tensor_with_shape(std::move(out), data->dtype, data->vdevice);
  }
  int out_ndim = ir::kUnknownNDim;
  if (!data->is_unknown_ndim() && known)
    out_ndim = static_cast<int>(broadcast.size()) + data->ndim - n;
  return tensor_with_ndim(out_ndim, data->dtype, data->vdevice);
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

void register_manipulate_index_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo lt = make_op(
      "layout_transform",
      "Rearranges the elements by an index map (with padding where it does not divide)",
      {arg("x", "the input tensor")},
      {required_attr("index_map", AttrKind::kIndexMap, "the map from input to output indices"),
       optional_attr("pad_value", AttrKind::kAny, "the value of padded elements"),
       optional_attr("axis_separators", AttrKind::kIntArray, "axis separators of the output"),
       optional_attr("input_axis_separators", AttrKind::kIntArray, "axis separators of the input")},
      infer_layout_transform);
  lt.normalize = normalize_layout_transform;
  add_op(r, std::move(lt));
  add_op(r, make_op("gather_elements",
                    "Gathers elements along `axis` at `indices` (shaped like indices)",
                    {arg("data", "the input tensor"), arg("indices", "the integer indices")},
                    {int_attr("axis", 0, "the axis to gather along")}, infer_gather_elements));
  add_op(r,
         make_op("gather_nd", "Gathers slices at the coordinates in the last axis of `indices`",
                 {arg("data", "the input tensor"), arg("indices", "the int64 coordinates")},
                 {int_attr("batch_dims", 0, "the number of leading batch axes")}, infer_gather_nd));
  add_op(r, make_op("scatter_elements",
                    "Writes `updates` into a copy of `data` at `indices` along `axis`",
                    {arg("data", "the input tensor"), arg("indices", "the integer indices"),
                     arg("updates", "the values to write")},
                    {int_attr("axis", 0, "the axis to scatter along"),
                     string_attr("reduction", "update",
                                 "how to combine: update, add, mul, mean, max or min")},
                    infer_scatter_elements, OpPattern::kOpaque));
  add_op(r,
         make_op(
             "scatter_nd", "Writes `updates` into a copy of `data` at the coordinates in `indices`",
             {arg("data", "the input tensor"), arg("indices", "the integer coordinates"),
              arg("updates", "the values to write")},
             {string_attr("reduction", "update", "how to combine: update, add, mul, max or min")},
             infer_scatter_nd, OpPattern::kOpaque));
  add_op(r, make_op("one_hot",
                    "One-hot encoding: on_value at each index, off_value elsewhere, on a new axis "
                    "of length `depth`",
                    {arg("indices", "the integer indices"),
                     arg("on_value", "the value at the index (a prim value)"),
                     arg("off_value", "the value elsewhere (a prim value)")},
                    {required_attr("depth", AttrKind::kInt, "the length of the new axis"),
                     int_attr("axis", -1, "the position of the new axis")},
                    infer_one_hot));
  add_op(r,
         make_op("meshgrid", "Coordinate grids from 1-D tensors; returns a tuple",
                 {arg("tensors", "the tuple of 1-D tensors")},
                 {string_attr("indexing", "ij", "\"ij\" (matrix) or \"xy\" (Cartesian) indexing")},
                 infer_meshgrid));
  add_op(r, make_op("index_tensor",
                    "Advanced indexing data[i0, i1, ...] by a tuple of broadcasting index tensors",
                    {arg("data", "the input tensor"),
                     arg("indices", "the tuple of integer index tensors")},
                    {}, infer_index_tensor));
}

}  // namespace relax::analysis

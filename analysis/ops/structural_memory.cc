// The lowering-only structural ops (SEMANTICS.md §3.14, §4.2): tensor and storage allocation
// (builtin.*, memory.*, vm.*), kills, memory views, the dynamic call_tir of the VM and the
// parameter-lifting barrier. Part of the structural family (ops/structural.cc registers these).
#include "analysis/ops/common.h"
#include "analysis/ops/op_registry.h"
#include "analysis/struct_info.h"

namespace relax::analysis {

using ir::make;
using ir::Ref;
using ir::StructInfo;

namespace {

constexpr const char* kArgKind = "E0377";     // argument of the wrong struct info
constexpr const char* kViewBounds = "E0378";  // a view larger than the viewed tensor

OpInfo make_op(std::string name, std::string signature, std::string doc, std::vector<ArgSpec> args,
               InferFn infer, bool pure = true) {
  OpInfo op;
  op.name = "relax." + name;
  op.signature = "R." + name + "(" + signature + ")";
  op.doc = std::move(doc);
  op.args = std::move(args);
  op.infer = std::move(infer);
  op.pure = pure;
  op.pattern = OpPattern::kOpaque;
  return op;
}

Ref<StructInfo> object_sinfo() {
  return make<ir::ObjectStructInfo>();
}
Ref<StructInfo> void_result(InferContext&) {
  return ir::void_sinfo();
}

// The dtype written as R.dtype("...") (or a variable bound to one); nullopt otherwise.
std::optional<ir::DataType> dtype_arg(InferContext& ctx, size_t i) {
  if (i >= ctx.num_args()) return std::nullopt;
  if (auto d = ctx.lookup_binding(ctx.arg(i)).as_ptr<ir::DataTypeImm>()) return d->value;
  return std::nullopt;
}

// A tensor of the shape given by argument i and `dtype`. With `keep_var`, a shape variable is
// the tensor's shape itself (builtin.alloc_tensor, memory.alloc_tensor); otherwise (as
// vm.alloc_tensor does) its known dims, or its rank.
Ref<StructInfo> tensor_of_shape_arg(InferContext& ctx, size_t i, ir::DataType dtype,
                                    bool keep_var) {
  const Ref<ir::Expr>& shape = ctx.arg(i);
  if (shape.is<ir::ShapeExpr>())
    return make<ir::TensorStructInfo>(
        shape, dtype, static_cast<int>(shape.as_ptr<ir::ShapeExpr>()->values.size()));
  auto s = ctx.arg_sinfo(i).as_ptr<ir::ShapeStructInfo>();
  if (!s) {
    std::string name = i < ctx.op().args.size() ? ctx.op().args[i].name : "#" + std::to_string(i);
    ctx.error_at_arg(i, kArgKind,
                     ctx.op_name() + ": `" + name + "` must be a shape, got " +
                         struct_info_text(ctx.arg_sinfo(i)));
    return nullptr;
  }
  if (keep_var && shape.is<ir::Var>()) return make<ir::TensorStructInfo>(shape, dtype, s->ndim);
  if (s->values) return tensor_with_shape(*s->values, dtype, nullptr);
  return tensor_with_ndim(s->ndim, dtype, nullptr);
}

// builtin.alloc_tensor(shape, dtype, runtime_device_index, storage_scope)
Ref<StructInfo> infer_builtin_alloc_tensor(InferContext& ctx) {
  auto dtype = dtype_arg(ctx, 1);
  if (!dtype) {
    ctx.error_at_arg(1, kArgKind,
                     ctx.op_name() + ": `dtype` must be a dtype: R.dtype(\"...\") or a string");
    return nullptr;
  }
  return tensor_of_shape_arg(ctx, 0, *dtype, /*keep_var=*/true);
}

// memory.alloc_tensor / vm.alloc_tensor(storage, offset, shape, dtype)
Ref<StructInfo> infer_memory_alloc_tensor(InferContext& ctx) {
  ir::DataType dtype = dtype_arg(ctx, 3).value_or(ir::DataType::Void());
  return tensor_of_shape_arg(ctx, 2, dtype, /*keep_var=*/true);
}
Ref<StructInfo> infer_vm_alloc_tensor(InferContext& ctx) {
  ir::DataType dtype = dtype_arg(ctx, 3).value_or(ir::DataType::Void());
  return tensor_of_shape_arg(ctx, 2, dtype, /*keep_var=*/false);
}

// memory.view(x, shape, dtype, relative_byte_offset): each of the last three may be the empty
// tuple, meaning "unchanged".
Ref<StructInfo> infer_view(InferContext& ctx) {
  const ir::TensorStructInfo* data = ctx.tensor_arg(0);
  if (!data) return nullptr;
  const ir::ShapeStructInfo* view_shape = nullptr;
  if (!ir::is_void_sinfo(ctx.arg_sinfo(1))) {
    view_shape = ctx.arg_sinfo(1).as_ptr<ir::ShapeStructInfo>();
    if (!view_shape) {
      ctx.error_at_arg(1, kArgKind,
                       ctx.op_name() + ": `shape` must be a shape or R.tuple(), got " +
                           struct_info_text(ctx.arg_sinfo(1)));
      return nullptr;
    }
  }
  std::optional<ir::DataType> view_dtype;
  if (!ir::is_void_sinfo(ctx.arg_sinfo(2))) {
    if (auto d = dtype_arg(ctx, 2)) {
      view_dtype = *d;
    } else if (ctx.arg_sinfo(2).is<ir::ObjectStructInfo>()) {
      view_dtype = ir::DataType::Void();  // changed into a dtype not known here
    } else {
      ctx.error_at_arg(2, kArgKind,
                       ctx.op_name() + ": `dtype` must be R.dtype(\"...\") or R.tuple(), got " +
                           struct_info_text(ctx.arg_sinfo(2)));
      return nullptr;
    }
  }
  std::optional<Ref<ir::tir::PrimExpr>> offset = ir::tir::int64(0);
  if (!ir::is_void_sinfo(ctx.arg_sinfo(3))) {
    auto p = ctx.arg_sinfo(3).as_ptr<ir::PrimStructInfo>();
    if (!p || p->dtype != ir::DataType::Int64()) {
      ctx.error_at_arg(
          3, kArgKind,
          ctx.op_name() +
              ": `relative_byte_offset` must be an int64 prim value or R.tuple(), got " +
              struct_info_text(ctx.arg_sinfo(3)));
      return nullptr;
    }
    if (auto pv = ctx.arg(3).as_ptr<ir::PrimValue>()) {
      offset = pv->value;
    } else {
      offset = std::nullopt;
    }
  }
  const PrimExprs* in_shape = data->shape_values();
  std::optional<PrimExprs> out_shape;
  int out_ndim = ir::kUnknownNDim;
  if (view_shape && view_shape->values) {
    out_shape = *view_shape->values;
  } else if (view_shape) {
    out_ndim = view_shape->ndim;
  } else if (in_shape) {
    out_shape = *in_shape;
  } else {
    out_ndim = data->ndim;
  }
  ir::DataType out_dtype = view_dtype.value_or(data->dtype);
  // A view that provably reads past the end of the viewed tensor is an error (TVM's checks).
  auto& az = ctx.analyzer();
  auto elements = [&](const PrimExprs& shape) {
    Ref<ir::tir::PrimExpr> n = ir::tir::int64(1);
    for (const auto& d : shape) n = ir::tir::binary(ir::ObjectKind::kMul, n, d);
    return az.simplify(n);
  };
  auto bytes = [](ir::DataType t) -> std::optional<int64_t> {
    if (t.is_void()) return std::nullopt;
    return (static_cast<int64_t>(t.bits()) * t.lanes() + 7) / 8;
  };
  auto in_bytes = bytes(data->dtype), out_bytes = bytes(out_dtype);
  std::string overrun;
  if (in_shape && out_shape && in_bytes && out_bytes) {
    auto total_in =
        ir::tir::binary(ir::ObjectKind::kMul, elements(*in_shape), ir::tir::int64(*in_bytes));
    auto total_out =
        ir::tir::binary(ir::ObjectKind::kMul, elements(*out_shape), ir::tir::int64(*out_bytes));
    // total_in < total_out + offset, asked without the sum: an offset near 2^63 would wrap it.
    auto room = ir::tir::binary(ir::ObjectKind::kSub, total_in, total_out);
    if (az.can_prove_less(room, offset ? *offset : ir::tir::int64(0)))
      overrun = "the view of " + dim_text(az.simplify(total_out)) + " bytes at byte offset " +
                dim_text(offset ? az.simplify(*offset) : ir::tir::int64(0)) +
                " ends past the end of a tensor of " + dim_text(az.simplify(total_in)) + " bytes";
  } else if (in_bytes && out_bytes && !view_shape && *out_bytes > *in_bytes) {
    overrun = "the dtype grows from " + std::to_string(*in_bytes) + " to " +
              std::to_string(*out_bytes) + " bytes per element with the same shape";
  } else if (in_shape && out_shape && !view_dtype &&
             az.can_prove_less(elements(*in_shape), elements(*out_shape))) {
    overrun = "the view has more elements than the tensor";
  } else if (offset && !view_shape && !view_dtype &&
             az.can_prove_less(ir::tir::int64(0), *offset)) {
    overrun = "a non-zero offset without a smaller shape or dtype";
  }
  if (!overrun.empty()) {
    ctx.error(kViewBounds,
              ctx.op_name() + ": the view exceeds the bounds of the tensor it views: " + overrun);
  }
  if (out_shape) return tensor_with_shape(*out_shape, out_dtype, data->vdevice);
  return tensor_with_ndim(out_ndim, out_dtype, data->vdevice);
}

Ref<StructInfo> infer_same_tensor(InferContext& ctx) {
  if (!ctx.tensor_arg(0)) return nullptr;
  return ctx.arg_sinfo(0);
}

// A dtype argument: R.dtype("float32"), or the string alone.
ArgSpec dtype_arg_spec() {
  ArgSpec spec{"dtype", "the dtype: R.dtype(\"float32\") or \"float32\""};
  spec.kind = ArgKind::kDType;
  return spec;
}

}  // namespace

void register_structural_memory_ops(OpRegistry& r) {
  auto dev = ArgSpec{"runtime_device_index", "the device index (-1 = host)"};
  r.add(make_op(
      "builtin.alloc_tensor", "shape, dtype, runtime_device_index, storage_scope=\"global\"",
      "Allocates a tensor (introduced by CallTIRRewrite)",
      {{"shape", "the shape"},
       dtype_arg_spec(),
       dev,
       {"storage_scope", "the storage scope", false, false, make<ir::StringImm>("global")}},
      infer_builtin_alloc_tensor));
  r.add(make_op("memory.alloc_storage", "total_space, virtual_device_index, storage_scope, dtype",
                "Allocates a storage block (R.Object)",
                {{"total_space", "the size in bytes, as a shape"},
                 {"virtual_device_index", "the device index (-1 = host)"},
                 {"storage_scope", "the storage scope"},
                 dtype_arg_spec()},
                [](InferContext&) { return object_sinfo(); }));
  r.add(make_op("memory.alloc_tensor", "storage, offset, shape, dtype",
                "Allocates a tensor inside a storage block",
                {{"storage", "the storage"},
                 {"offset", "the byte offset"},
                 {"shape", "the shape"},
                 dtype_arg_spec()},
                infer_memory_alloc_tensor));
  r.add(make_op("memory.kill_storage", "storage", "Frees a storage block (side effect)",
                {{"storage", "the storage"}}, void_result, /*pure=*/false));
  r.add(make_op("memory.kill_tensor", "tensor", "Frees a tensor (side effect)",
                {{"tensor", "the tensor"}}, void_result,
                /*pure=*/false));
  r.add(
      make_op("memory.view", "x, shape=R.tuple(), dtype=R.tuple(), relative_byte_offset=R.tuple()",
              "A view of a tensor with another shape, dtype or byte offset",
              {{"x", "the tensor"},
               {"shape", "the view's shape", false, false, make<ir::Tuple>()},
               {"dtype", "the view's dtype", false, false, make<ir::Tuple>(), ArgKind::kDType},
               {"relative_byte_offset", "the view's byte offset", false, false, make<ir::Tuple>()}},
              infer_view));
  r.add(make_op("memory.ensure_zero_offset", "x",
                "The tensor, copied when its byte offset is not zero", {{"x", "the tensor"}},
                infer_same_tensor));
  r.add(
      make_op("vm.alloc_storage", "size, runtime_device_index, dtype, storage_scope=\"global\"",
              "Allocates a storage block in the VM (R.Object)",
              {{"size", "the size in bytes, as a shape"},
               dev,
               dtype_arg_spec(),
               {"storage_scope", "the storage scope", false, false, make<ir::StringImm>("global")}},
              [](InferContext&) { return object_sinfo(); }));
  r.add(make_op("vm.alloc_tensor", "storage, offset, shape, dtype",
                "Allocates a tensor inside a VM storage block",
                {{"storage", "the storage"},
                 {"offset", "the byte offset"},
                 {"shape", "the shape"},
                 dtype_arg_spec()},
                infer_vm_alloc_tensor));
  r.add(make_op("vm.kill_object", "obj", "Releases an object's register (side effect)",
                {{"obj", "the object"}}, void_result, /*pure=*/false));
  r.add(make_op("vm.call_tir_dyn", "func, args",
                "Calls a prim_func whose last argument is a shape of symbolic values (side effect)",
                {{"func", "the prim_func"}, {"args", "the tensors, then a shape"}}, void_result,
                /*pure=*/false));
  r.add(make_op("builtin.stop_lift_params", "x", "Marks where parameter lifting stops (identity)",
                {{"x", "the tensor"}}, infer_same_tensor));
}

}  // namespace relax::analysis

// Structural ops (SEMANTICS.md §3.14): the call_tir family (result = the declared output, checked
// against the prim_func's buffers), packed calls, closures, shape inspection, print / assert,
// device hints and the gradient-checkpoint markers. The lowering-only memory, vm and builtin ops
// are registered from ops/structural_memory.cc.
#include <unordered_set>

#include "analysis/ops/common.h"
#include "analysis/ops/op_registry.h"
#include "analysis/struct_info.h"

namespace relax::analysis {

using ir::make;
using ir::Ref;
using ir::StructInfo;

// Codes of the structural ops (docs/diagnostics/inference.md); the op catalogue's own codes stop
// at E0349, so these live in the normalizer's range.
namespace structural_codes {
inline constexpr const char* kOutSinfo = "E0370";   // call_tir family needs one output struct info
inline constexpr const char* kCallee = "E0371";     // callee of the wrong kind
inline constexpr const char* kSignature = "E0372";  // call_tir does not fit the prim_func
inline constexpr const char* kInplace = "E0373";    // bad in-place indices
inline constexpr const char* kArgTuple = "E0374";   // arguments not given as a tuple
inline constexpr const char* kAssertCondition = "E0375";  // assert condition not a bool scalar
inline constexpr const char* kArgKind = "E0377";          // argument of the wrong struct info
inline constexpr const char* kPackedInts = "E0379";       // tir_vars not a shape of known rank
}  // namespace structural_codes

void register_structural_memory_ops(OpRegistry& r);

namespace {

namespace codes = structural_codes;

Ref<StructInfo> object_sinfo() {
  return make<ir::ObjectStructInfo>();
}

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

ArgSpec optional_arg(std::string name, std::string doc) {
  ArgSpec a{std::move(name), std::move(doc)};
  a.optional = true;
  return a;
}

ArgSpec variadic_arg(std::string name, std::string doc) {
  ArgSpec a{std::move(name), std::move(doc)};
  a.variadic = true;
  return a;
}

AttrSpec required_attr(std::string name, AttrKind kind, std::string doc) {
  AttrSpec a{std::move(name), kind};
  a.required = true;
  a.doc = std::move(doc);
  return a;
}

// The single struct-info argument of the call_tir family (`out_sinfo=`).
Ref<StructInfo> out_sinfo(InferContext& ctx) {
  const auto& s = ctx.call()->sinfo_args;
  if (s.size() != 1) {
    ctx.error(codes::kOutSinfo, ctx.op_name() +
                                    " needs exactly one output struct info (out_sinfo=), got " +
                                    std::to_string(s.size()));
    return nullptr;
  }
  return s[0];
}

// The outputs of `out` as a list: a tuple's fields, or the one struct info.
std::vector<Ref<StructInfo>> output_list(const Ref<StructInfo>& out) {
  if (auto t = out.as_ptr<ir::TupleStructInfo>()) return t->fields;
  return {out};
}

// --- call_tir family -----------------------------------------------------------------------------

// FNormalize of the call_tir family: the arguments as an inline tuple. A variable bound to a
// tuple is replaced by that tuple; any other tuple-typed variable by its items.
Ref<ir::Call> normalize_call_tir(InferContext& ctx) {
  const Ref<ir::Call>& call = ctx.call();
  if (call->args.size() < 2) return call;
  const Ref<ir::Expr>& args = call->args[1];
  if (args.is<ir::Tuple>()) return call;
  if (!ctx.arg_sinfo(1).is<ir::TupleStructInfo>()) {
    ctx.error_at_arg(1, codes::kArgTuple,
                     ctx.op_name() +
                         " takes its arguments as a tuple, got a value of struct info " +
                         struct_info_text(ctx.arg_sinfo(1)))
        .note("write the arguments inline: " + ctx.op_name() + "(f, (x, y), out_sinfo=...)");
    return nullptr;
  }
  Ref<ir::Expr> bound = ctx.lookup_binding(args);
  Ref<ir::Expr> tuple;
  if (bound.is<ir::Tuple>()) {
    tuple = bound;
  } else {
    const auto& fields = ctx.arg_sinfo(1).as_ptr<ir::TupleStructInfo>()->fields;
    std::vector<Ref<ir::Expr>> items;
    for (size_t i = 0; i < fields.size(); ++i) {
      auto item = make<ir::TupleGetItem>(args, static_cast<int>(i));
      item->span = args->span;
      items.push_back(item);
    }
    tuple = make<ir::Tuple>(std::move(items));
    tuple->span = args->span;
  }
  std::vector<Ref<ir::Expr>> new_args = call->args;
  new_args[1] = tuple;
  auto out = make<ir::Call>(call->op, std::move(new_args), call->attrs, call->sinfo_args);
  out->span = call->span;
  return out;
}

// The in-place indices of call_tir_inplace / call_inplace_packed, checked against `num_args`
// inputs and `num_outputs` outputs (TVM's checks). Returns nullopt after reporting.
std::optional<std::vector<int64_t>> inplace_indices(InferContext& ctx, size_t num_args,
                                                    size_t num_outputs, const char* plain_op) {
  auto indices = ctx.attr_int_array("inplace_indices");
  if (!indices) return std::nullopt;
  if (indices->size() != num_outputs) {
    ctx.error_at_attr("inplace_indices", codes::kInplace,
                      ctx.op_name() + ": inplace_indices has " + std::to_string(indices->size()) +
                          " entries for " + std::to_string(num_outputs) + " output" +
                          (num_outputs == 1 ? "" : "s") +
                          "; give one per output (-1 for a fresh one)");
    return std::nullopt;
  }
  std::unordered_set<int64_t> seen;
  for (size_t i = 0; i < indices->size(); ++i) {
    int64_t index = (*indices)[i];
    if (index < -1 || index >= static_cast<int64_t>(num_args)) {
      ctx.error_at_attr("inplace_indices", codes::kInplace,
                        ctx.op_name() + ": in-place index " + std::to_string(index) + " (output " +
                            std::to_string(i) +
                            ") is out of range: it must be -1 or an argument index below " +
                            std::to_string(num_args));
      return std::nullopt;
    }
    if (index != -1 && !seen.insert(index).second) {
      ctx.error_at_attr("inplace_indices", codes::kInplace,
                        ctx.op_name() + ": argument " + std::to_string(index) +
                            " is used in place more than once");
      return std::nullopt;
    }
  }
  if (seen.empty()) {
    ctx.error_at_attr("inplace_indices", codes::kInplace,
                      ctx.op_name() + ": every in-place index is -1; use " + plain_op + " instead");
    return std::nullopt;
  }
  return indices;
}

// FValidate of the call_tir family (TVM's ValidateCallTIR): derive the outputs the prim_func's
// signature implies for these arguments and compare them with out_sinfo. Unlike TVM, only a
// provable mismatch (L0/L1) is an error; an unproven symbolic one is trusted.
bool validate_call_tir(InferContext& ctx, const Ref<StructInfo>& out,
                       const std::optional<std::vector<int64_t>>& inplace) {
  auto callee = ctx.arg_sinfo(0).as_ptr<ir::FuncStructInfo>();
  if (!callee) {
    ctx.error_at_arg(0, codes::kCallee,
                     ctx.op_name() + " calls a prim_func; `" +
                         (ctx.arg(0).is<ir::GlobalVar>() ? ctx.arg(0).as_ptr<ir::GlobalVar>()->name
                                                         : std::string("the callee")) +
                         "` has struct info " + struct_info_text(ctx.arg_sinfo(0)));
    return false;
  }
  if (callee->is_opaque()) return true;  // no buffer signature to check against
  auto args = ctx.arg_sinfo(1).as_ptr<ir::TupleStructInfo>();
  if (!args) {
    ctx.error_at_arg(1, codes::kArgTuple, ctx.op_name() + " takes its arguments as a tuple");
    return false;
  }
  const ir::ShapeStructInfo* packed = nullptr;
  if (ctx.num_args() > 2) {
    packed = ctx.arg_sinfo(2).as_ptr<ir::ShapeStructInfo>();
    if (!packed || packed->ndim == ir::kUnknownNDim) {
      ctx.error_at_arg(
          2, codes::kPackedInts,
          ctx.op_name() +
              ": the symbolic arguments (tir_vars) must be a shape of known rank, got " +
              struct_info_text(ctx.arg_sinfo(2)));
      return false;
    }
  }
  const auto& params = *callee->params;
  size_t n_in = args->fields.size();
  size_t n_int = packed ? static_cast<size_t>(packed->ndim) : 0;
  if (n_in + n_int > params.size()) {
    ctx.error_at_arg(
           0, codes::kSignature,
           ctx.op_name() + " passes " + std::to_string(n_in) + " argument" +
               (n_in == 1 ? "" : "s") +
               (n_int
                    ? " and " + std::to_string(n_int) + " symbolic value" + (n_int == 1 ? "" : "s")
                    : "") +
               ", but the prim_func takes " + std::to_string(params.size()) + " parameters in all")
        .note("the prim_func's signature is " + struct_info_text(ctx.arg_sinfo(0)));
    return false;
  }
  // A function that takes the inputs (and symbolic values) and returns the output buffers.
  ir::FuncStructInfo dummy;
  std::vector<Ref<StructInfo>> dummy_params(params.begin(),
                                            params.begin() + static_cast<std::ptrdiff_t>(n_in));
  for (size_t i = params.size() - n_int; i < params.size(); ++i) dummy_params.push_back(params[i]);
  std::vector<Ref<StructInfo>> outputs(params.begin() + static_cast<std::ptrdiff_t>(n_in),
                                       params.end() - static_cast<std::ptrdiff_t>(n_int));
  if (inplace) {
    for (size_t i = 0; i < inplace->size(); ++i) {
      int64_t j = (*inplace)[i];
      if (j >= 0 && static_cast<size_t>(j) < params.size() && i <= outputs.size()) {
        outputs.insert(outputs.begin() + static_cast<std::ptrdiff_t>(i),
                       params[static_cast<size_t>(j)]);
      }
    }
  }
  dummy.params = std::move(dummy_params);
  dummy.ret =
      outputs.size() == 1 ? outputs[0] : Ref<StructInfo>(make<ir::TupleStructInfo>(outputs));
  std::vector<Ref<StructInfo>> dummy_args = args->fields;
  for (size_t i = 0; i < n_int; ++i) {
    if (packed->values) {
      dummy_args.push_back(make<ir::PrimStructInfo>(ir::DataType::Int64(), (*packed->values)[i]));
    } else {
      dummy_args.push_back(make<ir::PrimStructInfo>(ir::DataType::Int64()));
    }
  }
  CallDerivation d = derive_call_ret_struct_info(dummy, dummy_args, ctx.analyzer());
  if (!d.ret) {
    for (const auto& [index, level] : d.mismatches) {
      size_t i = static_cast<size_t>(index);
      std::string what = i < n_in ? "argument " + std::to_string(i)
                                  : "symbolic argument " + std::to_string(i - n_in);
      ctx.error_at_arg(
          1, codes::kSignature,
          ctx.op_name() + ": " + what + " does not fit the prim_func's parameter: expected " +
              struct_info_text((*dummy.params)[i]) + ", got " + struct_info_text(dummy_args[i]));
    }
    if (d.mismatches.empty()) ctx.error(codes::kSignature, ctx.op_name() + ": " + d.error);
    return false;
  }
  BaseCheck check = struct_info_base_check(d.ret, out, ctx.analyzer());
  if (check == BaseCheck::kFailL0 || check == BaseCheck::kFailL1) {
    ctx.error_at(out->span, codes::kSignature,
                 ctx.op_name() + ": out_sinfo " + struct_info_text(out) +
                     " does not match the prim_func's output buffers, which imply " +
                     struct_info_text(d.ret))
        .note("the prim_func's signature is " + struct_info_text(ctx.arg_sinfo(0)));
    return false;
  }
  return true;
}

// The result is the declared output even when it does not fit the prim_func (the error is
// reported; the binding still has the struct info the program states).
Ref<StructInfo> infer_call_tir(InferContext& ctx) {
  Ref<StructInfo> out = out_sinfo(ctx);
  if (!out) return nullptr;
  validate_call_tir(ctx, out, std::nullopt);
  return out;
}

Ref<StructInfo> infer_call_tir_inplace(InferContext& ctx) {
  Ref<StructInfo> out = out_sinfo(ctx);
  if (!out) return nullptr;
  auto args = ctx.arg_sinfo(1).as_ptr<ir::TupleStructInfo>();
  if (!args) {
    ctx.error_at_arg(1, codes::kArgTuple,
                     ctx.op_name() + " takes its arguments as an inline tuple");
    return nullptr;
  }
  std::vector<Ref<StructInfo>> outputs = output_list(out);
  auto indices = inplace_indices(ctx, args->fields.size(), outputs.size(), "R.call_tir");
  if (!indices) return out;  // the declared output, whatever the error
  // An output computed in place is its input: their shapes must agree (TVM requires it proven;
  // here a provable difference is the error).
  for (size_t i = 0; i < indices->size(); ++i) {
    int64_t j = (*indices)[i];
    if (j < 0) continue;
    auto o = outputs[i].as_ptr<ir::TensorStructInfo>();
    if (!o) {
      ctx.error(codes::kInplace, ctx.op_name() + ": output " + std::to_string(i) +
                                     " is computed in place, so it must be a tensor");
      return out;  // the declared output, whatever the error
    }
    auto in = args->fields[static_cast<size_t>(j)].as_ptr<ir::TensorStructInfo>();
    const PrimExprs* os = o->shape_values();
    const PrimExprs* is = in ? in->shape_values() : nullptr;
    bool differs = in && !in->is_unknown_ndim() && !o->is_unknown_ndim() && in->ndim != o->ndim;
    for (size_t k = 0; !differs && os && is && k < os->size() && k < is->size(); ++k) {
      differs = ctx.analyzer().can_prove_not_equal((*os)[k], (*is)[k]);
    }
    if (differs) {
      ctx.error_at_arg(
          1, codes::kInplace,
          ctx.op_name() + ": output " + std::to_string(i) + " is argument " + std::to_string(j) +
              " updated in place, but their shapes differ: output " + struct_info_text(outputs[i]) +
              ", argument " + struct_info_text(args->fields[static_cast<size_t>(j)]));
      return out;  // the declared output, whatever the error
    }
  }
  validate_call_tir(ctx, out, indices);
  return out;
}

Ref<StructInfo> infer_call_dps_packed(InferContext& ctx) {
  return out_sinfo(ctx);
}

// --- Packed calls and closures -------------------------------------------------------------------

// The result of calling an opaque callee (argument 0): its derivation from sinfo_args, or its ret.
Ref<StructInfo> opaque_callee_result(InferContext& ctx) {
  if (ctx.num_args() < 1) {
    ctx.error(codes::kCallee, ctx.op_name() + " needs the function to call as its first argument");
    return nullptr;
  }
  auto f = ctx.arg_sinfo(0).as_ptr<ir::FuncStructInfo>();
  if (!f || !f->is_opaque()) {
    ctx.error_at_arg(0, codes::kCallee,
                     ctx.op_name() +
                         " calls an opaque (packed) function, got a callee of struct info " +
                         struct_info_text(ctx.arg_sinfo(0)))
        .note("a packed function is named by a string: " + ctx.op_name() + "(\"name\", ...)");
    return nullptr;
  }
  if (!f->derive_func.empty()) {
    if (f->derive_func == kInferBySinfoArgs)
      return struct_info_from_sinfo_args(ctx.call()->sinfo_args);
    return object_sinfo();
  }
  return f->ret ? f->ret : object_sinfo();
}

Ref<StructInfo> infer_call_inplace_packed(InferContext& ctx) {
  if (ctx.num_args() <= 1) {
    ctx.error(codes::kInplace, ctx.op_name() + " needs at least one argument to update in place");
    return nullptr;
  }
  Ref<StructInfo> ret = opaque_callee_result(ctx);
  if (!ret) return nullptr;
  std::vector<Ref<StructInfo>> outputs = output_list(ret);
  auto indices =
      inplace_indices(ctx, ctx.num_args() - 1, ret.is<ir::TupleStructInfo>() ? outputs.size() : 1,
                      "R.call_pure_packed");
  if (!indices) return ret;
  for (size_t i = 0; i < indices->size(); ++i) {
    int64_t j = (*indices)[i];
    if (j < 0) continue;
    const Ref<StructInfo>& result = indices->size() == 1 ? ret : outputs[i];
    const Ref<StructInfo>& arg = ctx.arg_sinfo(static_cast<size_t>(j) + 1);
    BaseCheck check = struct_info_base_check(result, arg, ctx.analyzer());
    if (check == BaseCheck::kFailL0 || check == BaseCheck::kFailL1) {
      ctx.error_at_arg(static_cast<size_t>(j) + 1, codes::kInplace,
                       ctx.op_name() + ": result " + std::to_string(i) + " is argument " +
                           std::to_string(j) +
                           " updated in place, but their struct infos differ: result " +
                           struct_info_text(result) + ", argument " + struct_info_text(arg));
      return ret;
    }
  }
  return ret;
}

Ref<StructInfo> infer_call_builtin_with_ctx(InferContext& ctx) {
  const auto& s = ctx.call()->sinfo_args;
  if (s.empty()) return ir::void_sinfo();
  if (s.size() > 1) {
    ctx.error(codes::kOutSinfo, ctx.op_name() +
                                    " takes at most one result struct info (sinfo_args), got " +
                                    std::to_string(s.size()));
    return nullptr;
  }
  return s[0];
}

Ref<StructInfo> infer_invoke_closure(InferContext& ctx) {
  return struct_info_from_sinfo_args(ctx.call()->sinfo_args);
}

// --- Shapes --------------------------------------------------------------------------------------

Ref<StructInfo> infer_shape_of(InferContext& ctx) {
  const ir::TensorStructInfo* t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (t->is_unknown_ndim()) return make<ir::ShapeStructInfo>(ir::kUnknownNDim);
  if (auto se = t->shape.as_ptr<ir::ShapeExpr>()) return make<ir::ShapeStructInfo>(se->values);
  return make<ir::ShapeStructInfo>(t->ndim);
}

Ref<StructInfo> infer_tensor_to_shape(InferContext& ctx) {
  const ir::TensorStructInfo* t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  if (!t->is_unknown_ndim() && t->ndim != 1) {
    ctx.error_at_arg(
        0, codes::kArgKind,
        ctx.op_name() + " takes a 1-D tensor of dims, got " + struct_info_text(ctx.arg_sinfo(0)));
    return nullptr;
  }
  if (const PrimExprs* dims = t->shape_values(); dims && dims->size() == 1) {
    if (auto n = ir::tir::as_const_int((*dims)[0]))
      return make<ir::ShapeStructInfo>(static_cast<int>(*n));
  }
  // The rank of the result is the tensor's length, which is not known statically here.
  return make<ir::ShapeStructInfo>(ir::kUnknownNDim);
}

Ref<StructInfo> infer_shape_to_tensor(InferContext& ctx) {
  auto s = ctx.arg_sinfo(0).as_ptr<ir::ShapeStructInfo>();
  if (!s) {
    ctx.error_at_arg(0, codes::kArgKind,
                     ctx.op_name() + " takes a shape, got " + struct_info_text(ctx.arg_sinfo(0)));
    return nullptr;
  }
  if (s->ndim == ir::kUnknownNDim) return tensor_with_ndim(1, ir::DataType::Int64(), nullptr);
  return tensor_with_shape({ir::tir::int64(s->ndim)}, ir::DataType::Int64(), nullptr);
}

// --- Print, assert -------------------------------------------------------------------------------

Ref<StructInfo> infer_void(InferContext&) {
  return ir::void_sinfo();
}

// TVM's IsBoolStructInfo: a bool prim value, or a 0-d bool tensor (unknown rank or dtype allowed).
bool is_bool_scalar(const Ref<StructInfo>& s) {
  if (auto p = s.as_ptr<ir::PrimStructInfo>()) return p->dtype.is_bool();
  if (auto t = s.as_ptr<ir::TensorStructInfo>()) {
    return (t->is_unknown_dtype() || t->dtype.is_bool()) && (t->is_unknown_ndim() || t->ndim == 0);
  }
  return false;
}

Ref<StructInfo> infer_assert(InferContext& ctx) {
  if (ctx.num_args() < 1) {
    ctx.error(codes::kAssertCondition, ctx.op_name() + " needs a condition");
    return nullptr;
  }
  if (!is_bool_scalar(ctx.arg_sinfo(0))) {
    ctx.error_at_arg(0, codes::kAssertCondition,
                     ctx.op_name() +
                         ": the condition must be a boolean scalar (R.Prim(\"bool\") or a 0-d bool "
                         "tensor), got " +
                         struct_info_text(ctx.arg_sinfo(0)));
  }
  return ir::void_sinfo();  // the result is void whatever the condition
}

// --- Tensors passed through
// ------------------------------------------------------------------------

Ref<StructInfo> infer_same_tensor(InferContext& ctx) {
  const ir::TensorStructInfo* t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  return ctx.arg_sinfo(0);
}

Ref<StructInfo> infer_to_vdevice(InferContext& ctx) {
  const ir::TensorStructInfo* t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  Ref<ir::VDevice> vd = ctx.attr("dst_vdevice").as<ir::VDevice>();
  if (!vd) {
    ctx.error_at_attr("dst_vdevice", codes::kArgKind,
                      ctx.op_name() + ": dst_vdevice must be a virtual device");
    return nullptr;
  }
  return make<ir::TensorStructInfo>(t->shape, t->dtype, t->ndim, vd);
}

Ref<StructInfo> infer_wrap_param(InferContext& ctx) {
  const ir::TensorStructInfo* t = ctx.tensor_arg(0);
  if (!t) return nullptr;
  auto dtype = ctx.attr_dtype("dtype");
  return with_dtype(*t, dtype ? *dtype : ir::DataType::Void());
}

}  // namespace

void register_structural_ops(OpRegistry& r) {
  const ArgSpec callee{"gvar", "the prim_func to call (cls.f)"};
  const ArgSpec args{"args", "the arguments, as a tuple"};
  const ArgSpec tir_vars =
      optional_arg("tir_vars", "symbolic values passed after the outputs (R.shape([...]))");
  {
    OpInfo op = make_op("call_tir", "gvar, args, out_sinfo, tir_vars=None",
                        "Calls a prim_func in destination-passing style; the result is out_sinfo",
                        {callee, args, tir_vars}, infer_call_tir);
    op.normalize = normalize_call_tir;
    r.add(std::move(op));
  }
  {
    OpInfo op = make_op("call_tir_inplace", "gvar, args, inplace_indices, out_sinfo, tir_vars=None",
                        "Calls a prim_func that updates some arguments in place (inplace_indices, "
                        "-1 = fresh output)",
                        {callee, args, tir_vars}, infer_call_tir_inplace);
    op.attrs = {required_attr("inplace_indices", AttrKind::kIntArray,
                              "for each output, the argument it updates or -1")};
    op.normalize = normalize_call_tir;
    r.add(std::move(op));
  }
  {
    OpInfo op = make_op("call_tir_with_grad",
                        "gvar, args, out_sinfo, te_grad_name, te_grad_kwargs=None, tir_vars=None",
                        "call_tir that names the TE function computing its gradient",
                        {callee, args, tir_vars}, infer_call_tir);
    AttrSpec kwargs{"te_grad_kwargs", AttrKind::kAny};
    kwargs.optional = true;
    kwargs.doc = "keyword arguments of the gradient function";
    op.attrs = {
        required_attr("te_grad_name", AttrKind::kString, "the registered TE gradient function"),
        kwargs};
    op.normalize = normalize_call_tir;
    r.add(std::move(op));
  }
  r.add(make_op("call_dps_packed", "func, args, out_sinfo",
                "Calls a packed function in destination-passing style; the result is out_sinfo",
                {{"func", "the packed function (a name string)"}, args}, infer_call_dps_packed));
  r.add(make_op(
      "call_pure_packed", "func, *args, sinfo_args",
      "Calls a packed function that has no side effects; the result is sinfo_args",
      {{"func", "the packed function (a name string)"}, variadic_arg("args", "its arguments")},
      opaque_callee_result));
  {
    OpInfo op = make_op(
        "call_inplace_packed", "func, *args, inplace_indices, sinfo_args",
        "Calls a packed function that updates some arguments in place",
        {{"func", "the packed function (a name string)"}, variadic_arg("args", "its arguments")},
        infer_call_inplace_packed);
    op.attrs = {required_attr("inplace_indices", AttrKind::kIntArray,
                              "for each result, the argument it updates or -1")};
    r.add(std::move(op));
  }
  r.add(make_op("call_builtin_with_ctx", "func, args, sinfo_args=None",
                "Calls a VM builtin, passing the VM context first; the result is sinfo_args (void "
                "when absent)",
                {{"func", "the builtin (a name string)"}, args}, infer_call_builtin_with_ctx,
                /*pure=*/false));
  r.add(make_op(
      "make_closure", "func, args",
      "Captures values into a closure of a lifted function (R.Object)",
      {{"func", "the lifted function (cls.f)"}, {"args", "the captured values, as a tuple"}},
      [](InferContext&) { return object_sinfo(); }));
  r.add(make_op("invoke_closure", "closure, args, sinfo_args",
                "Calls a closure (may have side effects); the result is sinfo_args",
                {{"closure", "the closure"}, args}, infer_invoke_closure, /*pure=*/false));
  r.add(make_op("invoke_pure_closure", "closure, args, sinfo_args",
                "Calls a closure without side effects; the result is sinfo_args",
                {{"closure", "the closure"}, args}, infer_invoke_closure));
  r.add(make_op("shape_of", "x", "The shape of a tensor as a shape value", {{"x", "the tensor"}},
                infer_shape_of));
  r.add(make_op("tensor_to_shape", "x", "A 1-D integer tensor as a shape value",
                {{"x", "the 1-D tensor of dims"}}, infer_tensor_to_shape));
  r.add(make_op("shape_to_tensor", "shape", "A shape value as a 1-D int64 tensor",
                {{"shape", "the shape"}}, infer_shape_to_tensor));
  r.add(make_op("null_value", "", "The null object (R.Object)", {},
                [](InferContext&) { return object_sinfo(); }));
  r.add(make_op("print", "*values, format=\"\"",
                "Prints values with a Python-style format string (side effect)",
                {{"format", "the format string"}, variadic_arg("values", "the values to print")},
                infer_void,
                /*pure=*/false));
  r.add(make_op("assert_op", "condition, *format_args, format=\"\"",
                "Fails at run time when the boolean condition is false (side effect)",
                {{"condition", "a boolean scalar"},
                 {"format", "the message format string"},
                 variadic_arg("format_args", "values for the message")},
                infer_assert, /*pure=*/false));
  {
    OpInfo op = make_op("hint_on_device", "data, dst_vdevice",
                        "Hints that a tensor lives on a device (R.device(...))",
                        {{"data", "the tensor"}}, infer_same_tensor);
    AttrSpec dev_type{"dev_type", AttrKind::kInt};
    dev_type.required = true;
    dev_type.doc = "the DLPack device type (1 = CPU, 2 = CUDA, ...)";
    AttrSpec dev_id{"dev_id", AttrKind::kInt};
    dev_id.default_value = make<ir::IntValue>(0);
    dev_id.doc = "the device index";
    op.attrs = {dev_type, dev_id};
    r.add(std::move(op));
  }
  {
    OpInfo op = make_op("to_vdevice", "data, dst_vdevice",
                        "Copies a tensor to a virtual device (\"cuda:0\")",
                        {{"data", "the tensor"}}, infer_to_vdevice);
    op.attrs = {required_attr("dst_vdevice", AttrKind::kAny, "the target virtual device")};
    r.add(std::move(op));
  }
  r.add(make_op("grad.start_checkpoint", "input",
                "Marks the start of a gradient checkpoint (identity)", {{"input", "the tensor"}},
                infer_same_tensor));
  r.add(make_op("grad.end_checkpoint", "input", "Marks the end of a gradient checkpoint (identity)",
                {{"input", "the tensor"}}, infer_same_tensor));
  {
    OpInfo op = make_op("wrap_param", "data, dtype=\"float32\"",
                        "Casts a parameter to another dtype, as a mark removed by mixed precision",
                        {{"data", "the parameter tensor"}}, infer_wrap_param);
    AttrSpec dtype{"dtype", AttrKind::kDType};
    dtype.default_value = ir::make_string("float32");
    dtype.doc = "the dtype to cast to";
    op.attrs = {dtype};
    op.pattern = OpPattern::kElemWise;
    r.add(std::move(op));
  }
  register_structural_memory_ops(r);
}

}  // namespace relax::analysis

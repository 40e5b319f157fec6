// Legalizations into calls of VM runtime builtins, for the ops TVM runs as runtime functions on
// the CPU rather than as TIR (tvm.contrib.sort.*, relax.run.unique, relax.run.nonzero,
// runtime.disco.*): sort, argsort, topk, unique, nonzero, dynamic_strided_slice and the ccl
// collectives (vm/builtins.h lists the builtins). The attributes become R.prim_value /
// R.str arguments. A call becomes
//   R.call_dps_packed("vm.builtin.sort", (x, R.prim_value(-1), R.prim_value(0)), out_sinfo=...)
// for the ops whose output shapes follow from the input shapes (the output is allocated by the
// caller and planned with the other allocations; when they are not known as dims the call is
// left alone, as for TIR legalizations), or
//   R.call_pure_packed("vm.builtin.unique", x, ..., sinfo_args=(...))
// for those whose result shapes depend on the data (the builtin allocates them).
#include "analysis/struct_info.h"
#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::make;
using ir::Ref;

namespace {

Ref<ir::Expr> with_sinfo(Ref<ir::Expr> e) {
  e->struct_info = analysis::struct_info_of(e);
  return e;
}

Ref<ir::Expr> int_value(int64_t v) {
  return with_sinfo(make<ir::PrimValue>(ir::tir::int64(v)));
}

Ref<ir::Expr> str_value(const std::string& s) {
  return with_sinfo(make<ir::StringImm>(s));
}

// Whether every output (a tensor or a tuple of tensors) has known dims and dtype.
bool outputs_known(const Ref<ir::StructInfo>& s) {
  if (!s) return false;
  if (auto t = s.as_ptr<ir::TensorStructInfo>())
    return t->shape_values() != nullptr && !t->is_unknown_dtype();
  if (auto tup = s.as_ptr<ir::TupleStructInfo>()) {
    if (tup->fields.empty()) return false;
    for (const auto& f : tup->fields)
      if (!f.as_ptr<ir::TensorStructInfo>() || !outputs_known(f)) return false;
    return true;
  }
  return false;
}

// The call of builtin `name` with `args` (tensors first, then attribute values) returning the
// op call's struct info: destination-passing when `dps` (null when the outputs to allocate are
// not known: the call is not legalized), else the builtin allocates its results.
Ref<ir::Expr> builtin_call(const ir::Call& call, const std::string& name,
                           std::vector<Ref<ir::Expr>> args, bool dps) {
  Ref<ir::Expr> callee = with_sinfo(make<ir::ExternFunc>(name));
  Ref<ir::Call> out;
  if (dps && !outputs_known(call.struct_info)) return nullptr;
  if (dps) {
    auto tuple = make<ir::Tuple>(std::move(args));
    tuple->struct_info = analysis::struct_info_of(tuple);
    out = make<ir::Call>(ir::Op::get("relax.call_dps_packed"),
                         std::vector<Ref<ir::Expr>>{callee, tuple}, ir::Attrs{},
                         std::vector<Ref<ir::StructInfo>>{call.struct_info});
  } else {
    args.insert(args.begin(), callee);
    out = make<ir::Call>(ir::Op::get("relax.call_pure_packed"), std::move(args), ir::Attrs{},
                         std::vector<Ref<ir::StructInfo>>{call.struct_info});
  }
  out->struct_info = call.struct_info;
  out->span = call.span;
  return out;
}

bool has_tensor_arg(const ir::Call& call, size_t i) {
  return i < call.args.size() && call.args[i]->struct_info &&
         call.args[i]->struct_info.as_ptr<ir::TensorStructInfo>();
}

// The constant int of an R.prim_value argument (bools as 0/1).
std::optional<int64_t> prim_int(const ir::Call& call, size_t i) {
  if (i >= call.args.size()) return std::nullopt;
  if (auto p = call.args[i].as_ptr<ir::PrimValue>()) return ir::tir::as_const_int(p->value);
  if (auto s = call.args[i]->struct_info.as_ptr<ir::PrimStructInfo>())
    if (s->value) return ir::tir::as_const_int(s->value);
  return std::nullopt;
}

PackedFn sort_like(const std::string& builtin) {
  return [builtin](const ir::Call& call, ir::DiagnosticBag& diags) -> Ref<ir::Expr> {
    if (!has_tensor_arg(call, 0)) return nullptr;
    Ctx c(call, diags);
    return builtin_call(call, builtin,
                        {call.args[0], int_value(c.int_attr("axis", -1)),
                         int_value(c.bool_attr("descending", false) ? 1 : 0)},
                        true);
  };
}

Ref<ir::Expr> topk(const ir::Call& call, ir::DiagnosticBag& diags) {
  if (!has_tensor_arg(call, 0)) return nullptr;
  Ctx c(call, diags);
  return builtin_call(
      call, "vm.builtin.topk",
      {call.args[0], int_value(c.int_attr("k", 1)), int_value(c.int_attr("axis", -1)),
       str_value(c.str_attr("ret_type", "both")), int_value(c.bool_attr("largest", true) ? 1 : 0)},
      true);
}

Ref<ir::Expr> unique(const ir::Call& call, ir::DiagnosticBag& diags) {
  if (!has_tensor_arg(call, 0)) return nullptr;
  Ctx c(call, diags);
  std::vector<Ref<ir::Expr>> args{call.args[0]};
  const char* names[] = {"sorted", "return_index", "return_inverse", "return_counts"};
  for (size_t i = 1; i <= 4; ++i) {
    int64_t fallback = i == 1 ? 1 : 0;
    if (i < call.args.size()) {
      auto v = prim_int(call, i);
      if (!v) {
        c.unsupported(std::string("`") + names[i - 1] + "` must be a constant R.prim_value");
        return nullptr;
      }
      fallback = *v != 0 ? 1 : 0;
    }
    args.push_back(int_value(fallback));
  }
  if (call.args.size() > 5) {
    auto axis = prim_int(call, 5);
    if (!axis) {
      c.unsupported("`axis` must be a constant R.prim_value");
      return nullptr;
    }
    args.push_back(int_value(*axis));
  }
  return builtin_call(call, "vm.builtin.unique", std::move(args), false);
}

Ref<ir::Expr> nonzero(const ir::Call& call, ir::DiagnosticBag&) {
  if (!has_tensor_arg(call, 0)) return nullptr;
  return builtin_call(call, "vm.builtin.nonzero", {call.args[0]}, false);
}

Ref<ir::Expr> dynamic_strided_slice(const ir::Call& call, ir::DiagnosticBag&) {
  for (size_t i = 0; i < 4; ++i)
    if (!has_tensor_arg(call, i)) return nullptr;
  return builtin_call(call, "vm.builtin.dynamic_strided_slice",
                      {call.args[0], call.args[1], call.args[2], call.args[3]}, false);
}

Ref<ir::Expr> allreduce(const ir::Call& call, ir::DiagnosticBag& diags) {
  if (!has_tensor_arg(call, 0)) return nullptr;
  Ctx c(call, diags);
  return builtin_call(call, "vm.builtin.ccl_allreduce",
                      {call.args[0], str_value(c.str_attr("op_type", "sum"))}, true);
}

Ref<ir::Expr> allgather(const ir::Call& call, ir::DiagnosticBag& diags) {
  if (!has_tensor_arg(call, 0)) return nullptr;
  Ctx c(call, diags);
  return builtin_call(call, "vm.builtin.ccl_allgather",
                      {call.args[0], int_value(c.int_attr("num_workers", 1))}, true);
}

Ref<ir::Expr> broadcast(const ir::Call& call, ir::DiagnosticBag&) {
  if (!has_tensor_arg(call, 0)) return nullptr;
  return builtin_call(call, "vm.builtin.ccl_broadcast_from_worker0", {call.args[0]}, true);
}

Ref<ir::Expr> scatter(const ir::Call& call, ir::DiagnosticBag& diags) {
  if (!has_tensor_arg(call, 0)) return nullptr;
  Ctx c(call, diags);
  return builtin_call(
      call, "vm.builtin.ccl_scatter_from_worker0",
      {call.args[0], int_value(c.int_attr("num_workers", 1)), int_value(c.int_attr("axis", 0))},
      true);
}

}  // namespace

void register_runtime(PackedTable& t) {
  t["relax.sort"] = sort_like("vm.builtin.sort");
  t["relax.argsort"] = sort_like("vm.builtin.argsort");
  t["relax.topk"] = topk;
  t["relax.unique"] = unique;
  t["relax.nonzero"] = nonzero;
  t["relax.dynamic_strided_slice"] = dynamic_strided_slice;
  t["relax.ccl.allreduce"] = allreduce;
  t["relax.ccl.allgather"] = allgather;
  t["relax.ccl.broadcast_from_worker0"] = broadcast;
  t["relax.ccl.scatter_from_worker0"] = scatter;
}

}  // namespace relax::compiler::legalize

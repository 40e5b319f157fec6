// VM codegen (see vm_codegen.h).
#include "compiler/codegen/vm/vm_codegen.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/relax/kills.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"
#include "syntax/printer.h"
#include "vm/builtins.h"
#include "vm/dtype.h"
#include "vm/shape_program.h"
#include "vm/tensor.h"

namespace relax::compiler::codegen_vm {

namespace {

using ir::Ref;
using vm::Arg;

struct CodegenError {
  std::string code;
  ir::Span span;
  std::string message;
};

// A parameter's struct info as the executable records it; its dims are shape programs over the
// function's shape-heap slots (named by the printed expression, as VMShapeLower names them).
vm::ParamInfo param_info(const Ref<ir::StructInfo>& sinfo, const std::vector<std::string>& slots,
                         int depth = 0) {
  vm::ParamInfo info;
  info.text = sinfo ? syntax::to_text(sinfo) : "R.Object";
  if (!sinfo || depth > vm::kMaxParamInfoDepth) return info;
  auto slot = [&](const Ref<ir::tir::PrimExpr>& e) -> int64_t {
    auto it = std::find(slots.begin(), slots.end(), syntax::to_text(e));
    return it == slots.end() ? -1 : static_cast<int64_t>(it - slots.begin());
  };
  auto dims = [&](const std::vector<Ref<ir::tir::PrimExpr>>& values) {
    for (const auto& d : values) {
      vm::ParamInfo::Dim dim{syntax::to_text(d), relax_passes::shape_program(d, slot)};
      // A dim whose variables have no slot cannot be computed from the heap.
      for (int64_t s : vm::shape_program_slots(dim.program))
        if (s < 0) dim.program.clear();
      info.dims.push_back(std::move(dim));
    }
  };
  if (auto t = sinfo.as<ir::TensorStructInfo>()) {
    info.kind = vm::ParamInfo::Kind::kTensor;
    if (!t->is_unknown_dtype()) info.dtype = t->dtype.str();
    info.ndim = t->ndim;
    if (const auto* values = t->shape_values()) dims(*values);
  } else if (auto sh = sinfo.as<ir::ShapeStructInfo>()) {
    info.kind = vm::ParamInfo::Kind::kShape;
    info.ndim = sh->ndim;
    if (sh->values) dims(*sh->values);
  } else if (auto p = sinfo.as<ir::PrimStructInfo>()) {
    info.kind = vm::ParamInfo::Kind::kPrim;
    info.dtype = p->dtype.str();
    if (p->value) dims({p->value});
  } else if (auto tup = sinfo.as<ir::TupleStructInfo>()) {
    info.kind = vm::ParamInfo::Kind::kTuple;
    for (const auto& f : tup->fields) info.fields.push_back(param_info(f, slots, depth + 1));
  } else if (sinfo.is<ir::FuncStructInfo>()) {
    info.kind = vm::ParamInfo::Kind::kCallable;
  }
  return info;
}

class FunctionCodegen {
 public:
  FunctionCodegen(const ir::IRModule& module, vm::ExecutableBuilder& b, std::string name)
      : module_(module), b_(b), name_(std::move(name)) {}

  void run(const Ref<ir::Function>& f) {
    // VMShapeLower made the checks and shape computations explicit; it records the shape
    // heap's slots, which messages and the disassembly name.
    auto heap = f->attrs.find("relax.vm_shape_heap").as<ir::ArrayValue>();
    if (!heap)
      fail("E0787", f->span,
           "the function has not been through VMShapeLower (it must run before VM codegen)");
    std::vector<std::string> slot_names;
    for (const auto& item : heap->items) {
      if (auto str = item.as<ir::StringValue>()) slot_names.push_back(str->value);
    }
    b_.begin_function(name_);
    for (size_t i = 0; i < f->params.size(); ++i)
      regs_[f->params[i].get()] = Arg::reg(static_cast<int64_t>(i));
    Arg result = emit_seq(f->body);
    std::vector<vm::ParamInfo> params;
    for (const auto& p : f->params) params.push_back(param_info(p->struct_info, slot_names));
    b_.set_param_info(std::move(params));
    b_.set_shape_slot_names(std::move(slot_names));
    b_.emit_ret(to_register(result));
    b_.end_function();
  }

 private:
  [[noreturn]] void fail(const std::string& code, ir::Span span, const std::string& message) {
    throw CodegenError{code, span, name_ + ": " + message};
  }

  int64_t to_register(const Arg& a) {
    if (a.kind == vm::ArgKind::kRegister) return a.value;
    int64_t r = b_.new_register();
    b_.emit_call("vm.builtin.copy", {a}, r);
    return r;
  }

  static DLDataType to_dl(ir::DataType t) {
    auto d = vm::parse_dtype(t.str());
    return d ? *d : DLDataType{kDLOpaqueHandle, 0, 0};
  }

  // ---- expressions ----------------------------------------------------------------------
  Arg emit_seq(const Ref<ir::SeqExpr>& seq) {
    for (const auto& block : seq->blocks) {
      for (const auto& binding : block->bindings) emit_binding(binding);
    }
    return emit_expr(seq->body);
  }

  void emit_binding(const Ref<ir::Binding>& binding) {
    if (auto mc = binding.as<ir::MatchCast>()) {
      // Checked by the calls VMShapeLower put before it. The same value: of a variable, its
      // register (an alias, kills.h), else a register of its own.
      Arg value = emit_expr(mc->value);
      if (mc->value.is<ir::Var>()) {
        regs_[mc->var.get()] = value;
        return;
      }
      int64_t r = b_.new_register();
      b_.emit_call("vm.builtin.copy", {value}, r);
      regs_[mc->var.get()] = Arg::reg(r);
      b_.name_register(r, mc->var->name);
      return;
    }
    const auto& value = binding->value;
    if (auto v = value.as<ir::Var>()) {
      // One value, one register: a kill of either name kills both (kills.h), and binding an
      // alias reads nothing (an alias of a killed value may be bound, not used).
      regs_[binding->var.get()] = lookup(v);
      return;
    }
    if (auto call = value.as<ir::Call>(); call && call->op_name() == "relax.vm.kill_object") {
      auto target = call->args.empty() ? nullptr : call->args[0].as<ir::Var>();
      if (target) {
        auto it = regs_.find(target.get());
        if (it != regs_.end() && it->second.kind == vm::ArgKind::kRegister &&
            !vm::is_special_register(it->second.value)) {
          b_.emit_call("vm.builtin.kill", {}, it->second.value);
        }
      }
      regs_[binding->var.get()] = Arg::void_reg();
      return;
    }
    Arg a = emit_expr(value);
    regs_[binding->var.get()] = a;
    if (a.kind == vm::ArgKind::kRegister) b_.name_register(a.value, binding->var->name);
  }

  Arg lookup(const Ref<ir::Var>& v) {
    auto it = regs_.find(v.get());
    if (it == regs_.end())
      fail("E0785", v->span, "variable `" + v->name + "` is used before it is defined");
    return it->second;
  }

  // Constants only: VMShapeLower turned symbolic values into reads of the shape heap.
  Arg emit_prim(const Ref<ir::tir::PrimExpr>& e) {
    if (auto c = ir::tir::as_const_int(e)) return b_.int_arg(*c);
    if (auto f = e.as<ir::tir::FloatImm>()) return b_.float_arg(f->value);
    fail("E0783", ir::Span::unknown(),
         "the symbolic value " + syntax::to_text(e) +
             " reached VM codegen (VMShapeLower computes it from the shape heap)");
  }

  Arg emit_shape(const std::vector<Ref<ir::tir::PrimExpr>>& dims) {
    std::vector<int64_t> consts;
    for (const auto& d : dims) {
      auto c = ir::tir::as_const_int(d);
      if (!c)
        fail("E0783", ir::Span::unknown(),
             "the symbolic dimension " + syntax::to_text(d) +
                 " reached VM codegen (VMShapeLower computes it from the shape heap)");
      consts.push_back(*c);
    }
    return b_.shape_arg(consts);
  }

  Arg emit_expr(const Ref<ir::Expr>& e) {
    using K = ir::ObjectKind;
    switch (e->kind()) {
      case K::kVar:
      case K::kDataflowVar:
        return lookup(e.as<ir::Var>());
      case K::kConstant: {
        auto c = e.as<ir::Constant>();
        if (!c->data)
          fail("E0785", e->span, "a constant without data (metadata reference) cannot be compiled");
        auto dt = vm::parse_dtype(c->data->dtype.str());
        if (!dt)
          fail("E0785", e->span,
               "constants of dtype " + c->data->dtype.str() + " are not supported");
        vm::Tensor t = vm::tensor_from_bytes(c->data->shape, *dt, c->data->bytes.data());
        return b_.constant(vm::Value(t));
      }
      case K::kTuple: {
        std::vector<Arg> args;
        for (const auto& f : e.as<ir::Tuple>()->fields) args.push_back(emit_expr(f));
        int64_t r = b_.new_register();
        b_.emit_call(b_.declare_builtin("vm.builtin.make_tuple"), std::span<const Arg>(args), r);
        return Arg::reg(r);
      }
      case K::kTupleGetItem: {
        auto item = e.as<ir::TupleGetItem>();
        Arg t = emit_expr(item->tuple);
        int64_t r = b_.new_register();
        b_.emit_call("vm.builtin.tuple_getitem", {t, b_.int_arg(item->index)}, r);
        return Arg::reg(r);
      }
      case K::kShapeExpr:
        return emit_shape(e.as<ir::ShapeExpr>()->values);
      case K::kPrimValue:
        return emit_prim(e.as<ir::PrimValue>()->value);
      case K::kStringImm:
        return b_.string_arg(e.as<ir::StringImm>()->value);
      case K::kDataTypeImm:
        return b_.dtype_arg(to_dl(e.as<ir::DataTypeImm>()->value));
      case K::kGlobalVar: {
        auto g = e.as<ir::GlobalVar>();
        return b_.func_arg(g->name);
      }
      case K::kCall:
        return emit_call(e.as<ir::Call>());
      case K::kIf:
        return emit_if(e.as<ir::If>());
      case K::kSeqExpr:
        return emit_seq(e.as<ir::SeqExpr>());
      case K::kFunction:
        fail("E0781", e->span, "a nested function reached VM codegen (LambdaLift must run first)");
      default:
        fail("E0785", e->span,
             "this expression cannot be compiled to VM code: " + syntax::to_text(e));
    }
  }

  Arg emit_if(const Ref<ir::If>& node) {
    Arg cond = emit_expr(node->condition);
    int64_t c = b_.new_register();
    b_.emit_call("vm.builtin.read_if_cond", {cond}, c);
    int64_t merge = b_.new_register();
    int64_t if_instr = b_.emit_if(c);
    Arg t = emit_expr(node->true_branch);
    b_.emit_call("vm.builtin.copy", {t}, merge);
    int64_t goto_instr = b_.emit_goto();
    b_.patch_target(if_instr, b_.next_instr());
    Arg f = emit_expr(node->false_branch);
    b_.emit_call("vm.builtin.copy", {f}, merge);
    b_.patch_target(goto_instr, b_.next_instr());
    return Arg::reg(merge);
  }

  bool is_void(const Ref<ir::Expr>& e) {
    return e->struct_info && ir::is_void_sinfo(e->struct_info);
  }

  Arg emit_call(const Ref<ir::Call>& call) {
    std::vector<Arg> args;
    auto eval_args = [&](size_t from) {
      for (size_t i = from; i < call->args.size(); ++i) args.push_back(emit_expr(call->args[i]));
    };
    auto finish = [&](int64_t func) -> Arg {
      int64_t dst = is_void(call) ? vm::kVoidRegister : b_.new_register();
      b_.emit_call(func, std::span<const Arg>(args), dst);
      return Arg::reg(dst);
    };
    if (auto op = call->op.as<ir::Op>()) {
      const std::string& name = op->name;
      if (name == "relax.vm.alloc_storage") {
        // (size, device_index, dtype, scope) -> alloc_storage(ctx, size, device_index, dtype,
        // scope)
        args.push_back(Arg::context());
        eval_args(0);
        return finish(b_.declare_builtin("vm.builtin.alloc_storage"));
      }
      if (name == "relax.vm.alloc_tensor") {
        eval_args(0);
        return finish(b_.declare_builtin("vm.builtin.alloc_tensor"));
      }
      if (name == "relax.null_value") return Arg::void_reg();
      if (name == "relax.call_builtin_with_ctx") {
        // (R.ExternFunc("vm.builtin.f"), (values...)) -> f(ctx, values...)
        auto ext = call->args.empty() ? nullptr : call->args[0].as<ir::ExternFunc>();
        auto tup = call->args.size() > 1 ? call->args[1].as<ir::Tuple>() : nullptr;
        if (!ext || !tup)
          fail("E0785", call->span,
               "R.call_builtin_with_ctx needs a builtin's name and a tuple literal");
        args.push_back(Arg::context());
        for (const auto& f : tup->fields) args.push_back(emit_expr(f));
        return finish(b_.declare_builtin(ext->global_symbol));
      }
      if (name == "relax.vm.call_tir_dyn") {
        // (cls.f, (tensors..., shape)) -> call_tir_dyn(kernel, tensors..., shape)
        auto g = call->args.empty() ? nullptr : call->args[0].as<ir::GlobalVar>();
        auto tup = call->args.size() > 1 ? call->args[1].as<ir::Tuple>() : nullptr;
        if (!g || !tup)
          fail("E0785", call->span, "R.vm.call_tir_dyn needs a prim_func and a tuple literal");
        args.push_back(Arg::func(b_.declare_kernel(g->name)));
        for (const auto& f : tup->fields) args.push_back(emit_expr(f));
        return finish(b_.declare_builtin("vm.builtin.call_tir_dyn"));
      }
      if (name == "relax.make_closure" || name == "relax.invoke_closure" ||
          name == "relax.invoke_pure_closure") {
        // (func | closure, (values...)) -> make_closure(func, values...) / invoke_closure(ctx,
        // closure, values...)
        bool make = name == "relax.make_closure";
        if (!make) args.push_back(Arg::context());
        args.push_back(emit_expr(call->args[0]));
        auto tup = call->args.size() > 1 ? call->args[1].as<ir::Tuple>() : nullptr;
        if (!tup)
          fail("E0785", call->span,
               "R." + op->short_name() + " needs its values as a tuple literal");
        for (const auto& f : tup->fields) args.push_back(emit_expr(f));
        return finish(
            b_.declare_builtin(make ? "vm.builtin.make_closure" : "vm.builtin.invoke_closure"));
      }
      if (name == "relax.call_tir_inplace")
        fail("E0782", call->span, "call_tir_inplace reached VM codegen (CallTIRRewrite lowers it)");
      fail("E0780", call->span,
           "the op R." + op->short_name() +
               " has no VM lowering: LegalizeOps must turn it into a prim_func call first (is it "
               "in the pipeline?)");
    }
    if (auto ext = call->op.as<ir::ExternFunc>()) {
      eval_args(0);
      const std::string& sym = ext->global_symbol;
      int64_t func =
          sym.rfind("vm.builtin.", 0) == 0 ? b_.declare_builtin(sym) : b_.declare_extern(sym);
      return finish(func);
    }
    if (auto g = call->op.as<ir::GlobalVar>()) {
      eval_args(0);
      ir::ObjectRef member = module_.lookup(g->name);
      if (ir::as_relax_function(member)) return finish(*b_.function_index(g->name));
      if (ir::as_prim_func(member)) return finish(b_.declare_kernel(g->name));
      if (auto ext = member.as<ir::ExternFunc>())
        return finish(b_.declare_extern(ext->global_symbol));
      fail("E0785", call->span, "`" + g->name + "` is not a function of the module");
    }
    // A closure value.
    args.push_back(Arg::context());
    args.push_back(emit_expr(call->op));
    eval_args(0);
    return finish(b_.declare_builtin("vm.builtin.invoke_closure"));
  }

  const ir::IRModule& module_;
  vm::ExecutableBuilder& b_;
  std::string name_;
  std::unordered_map<const ir::Var*, Arg> regs_;
};

}  // namespace

bool generate(const ir::IRModule& module, vm::ExecutableBuilder& builder,
              ir::DiagnosticBag& diags) {
  // Declare every Relax function first so that calls may go forward or recurse.
  for (const auto& m : module.functions) {
    if (auto f = ir::as_relax_function(m.func)) {
      std::vector<std::string> names;
      for (const auto& p : f->params) names.push_back(p->name);
      builder.declare_function(m.gvar->name, std::move(names));
    }
  }
  size_t errors = diags.error_count();
  relax_passes::check_kills(module, diags);
  bool ok = diags.error_count() == errors;
  for (const auto& m : module.functions) {
    auto f = ir::as_relax_function(m.func);
    if (!f) continue;
    try {
      FunctionCodegen(module, builder, m.gvar->name).run(f);
    } catch (const CodegenError& e) {
      diags.error(e.code, e.span, e.message);
      ok = false;
      builder.end_function();
    }
  }
  return ok;
}

std::shared_ptr<vm::Executable> build_executable(const ir::IRModule& module,
                                                 ir::DiagnosticBag& diags) {
  vm::ExecutableBuilder builder;
  if (!generate(module, builder, diags)) return nullptr;
  auto exe = builder.finish();
  if (!exe) {
    diags.error("E0786", ir::Span::unknown(),
                "VM codegen produced an invalid executable: " + exe.error().message);
    return nullptr;
  }
  return *exe;
}

}  // namespace relax::compiler::codegen_vm

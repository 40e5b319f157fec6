// VM codegen (see vm_codegen.h).
#include "compiler/codegen/vm/vm_codegen.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/visitor.h"
#include "syntax/printer.h"
#include "vm/builtins.h"
#include "vm/dtype.h"
#include "vm/tensor.h"

namespace relax::compiler::codegen_vm {

namespace {

using ir::Ref;
using vm::Arg;

// Symbolic values of one function: each tir::Var and each distinct compound expression gets a
// slot of the shape heap.
class SlotCollector : public ir::ExprVisitor {
 public:
  std::map<std::string, int64_t> slot_of;  // printed expression -> slot
  std::vector<std::string> names;

  void add(const Ref<ir::tir::PrimExpr>& e) {
    if (!e || ir::tir::as_const_int(e)) return;
    std::string key = syntax::to_text(e);
    if (slot_of.count(key)) return;
    if (auto b = e.as<ir::tir::BinaryOp>()) {
      add(b->a);
      add(b->b);
    }
    slot_of[key] = static_cast<int64_t>(names.size());
    names.push_back(key);
  }
  void add_sinfo(const Ref<ir::StructInfo>& s) {
    if (!s) return;
    if (auto t = s.as<ir::TensorStructInfo>()) {
      if (const auto* dims = t->shape_values()) {
        for (const auto& d : *dims) add(d);
      }
    } else if (auto sh = s.as<ir::ShapeStructInfo>()) {
      if (sh->values) {
        for (const auto& d : *sh->values) add(d);
      }
    } else if (auto p = s.as<ir::PrimStructInfo>()) {
      add(p->value);
    } else if (auto tup = s.as<ir::TupleStructInfo>()) {
      for (const auto& f : tup->fields) add_sinfo(f);
    }
  }
  void visit_binding(const Ref<ir::Binding>& b) override {
    if (auto mc = b.as<ir::MatchCast>()) add_sinfo(mc->struct_info);
    ExprVisitor::visit_binding(b);
  }
  void visit_shape_expr(const Ref<ir::ShapeExpr>& s) override {
    for (const auto& v : s->values) add(v);
  }
  void visit_prim_value(const Ref<ir::PrimValue>& v) override { add(v->value); }
};

struct CodegenError {
  std::string code;
  ir::Span span;
  std::string message;
};

class FunctionCodegen {
 public:
  FunctionCodegen(const ir::IRModule& module, vm::ExecutableBuilder& b, std::string name)
      : module_(module), b_(b), name_(std::move(name)) {}

  void run(const Ref<ir::Function>& f) {
    SlotCollector slots;
    for (const auto& p : f->params) slots.add_sinfo(p->struct_info);
    slots.visit(f->body);
    slot_of_ = slots.slot_of;
    b_.begin_function(name_);
    for (size_t i = 0; i < f->params.size(); ++i)
      regs_[f->params[i].get()] = Arg::reg(static_cast<int64_t>(i));
    if (!slots.names.empty()) {
      heap_ = Arg::reg(b_.new_register());
      b_.emit_call("vm.builtin.alloc_shape_heap",
                   {Arg::context(), b_.int_arg(static_cast<int64_t>(slots.names.size()))},
                   heap_.value);
    }
    // Parameters: types first, then shapes (a later parameter may fix a variable's value).
    for (size_t i = 0; i < f->params.size(); ++i) {
      const auto& p = f->params[i];
      check_value(Arg::reg(static_cast<int64_t>(i)), p->struct_info,
                  "argument `" + p->name + "` (parameter " + std::to_string(i) + ")");
    }
    Arg result = emit_seq(f->body);
    b_.set_shape_slot_names(slots.names);
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

  // ---- symbolic values ------------------------------------------------------------------
  int64_t slot(const Ref<ir::tir::PrimExpr>& e) {
    auto it = slot_of_.find(syntax::to_text(e));
    if (it == slot_of_.end())
      fail("E0783", ir::Span::unknown(), "no shape heap slot for " + syntax::to_text(e));
    return it->second;
  }
  bool is_var(const Ref<ir::tir::PrimExpr>& e) { return e.is<ir::tir::Var>(); }

  // Makes sure the slot of `e` holds its value at this point; false when a variable it needs
  // is not known yet.
  bool ensure(const Ref<ir::tir::PrimExpr>& e) {
    if (ir::tir::as_const_int(e)) return true;
    int64_t s = slot(e);
    if (known_.count(s)) return true;
    if (is_var(e)) return false;
    auto bin = e.as<ir::tir::BinaryOp>();
    if (!bin)
      fail("E0783", ir::Span::unknown(),
           "the symbolic expression " + syntax::to_text(e) + " cannot be computed by the VM");
    if (!ensure(bin->a) || !ensure(bin->b)) return false;
    std::vector<Arg> args{heap_, b_.int_arg(s)};
    program(e, args);
    b_.emit_call(b_.declare_builtin("vm.builtin.shape_compute"), std::span<const Arg>(args));
    known_.insert(s);
    return true;
  }
  void program(const Ref<ir::tir::PrimExpr>& e, std::vector<Arg>& out) {
    if (auto c = ir::tir::as_const_int(e)) {
      out.push_back(Arg::imm(0));
      out.push_back(b_.int_arg(*c));
      return;
    }
    if (auto bin = e.as<ir::tir::BinaryOp>()) {
      int code = 0;
      switch (bin->kind()) {
        case ir::ObjectKind::kAdd:
          code = 2;
          break;
        case ir::ObjectKind::kSub:
          code = 3;
          break;
        case ir::ObjectKind::kMul:
          code = 4;
          break;
        case ir::ObjectKind::kFloorDiv:
          code = 5;
          break;
        case ir::ObjectKind::kFloorMod:
          code = 6;
          break;
        case ir::ObjectKind::kMin:
          code = 7;
          break;
        case ir::ObjectKind::kMax:
          code = 8;
          break;
        case ir::ObjectKind::kDiv:
          code = 9;
          break;
        case ir::ObjectKind::kMod:
          code = 10;
          break;
        case ir::ObjectKind::kEQ:
          code = 11;
          break;
        case ir::ObjectKind::kNE:
          code = 12;
          break;
        case ir::ObjectKind::kLT:
          code = 13;
          break;
        case ir::ObjectKind::kLE:
          code = 14;
          break;
        case ir::ObjectKind::kGT:
          code = 15;
          break;
        case ir::ObjectKind::kGE:
          code = 16;
          break;
        default:
          break;
      }
      if (code != 0) {
        program(bin->a, out);
        program(bin->b, out);
        out.push_back(Arg::imm(code));
        out.push_back(Arg::imm(0));
        return;
      }
    }
    if (is_var(e)) {
      out.push_back(Arg::imm(1));
      out.push_back(b_.int_arg(slot(e)));
      return;
    }
    fail("E0783", ir::Span::unknown(),
         "the symbolic expression " + syntax::to_text(e) + " cannot be computed by the VM");
  }
  // Checks a value against struct info, defining the variables it introduces.
  void check_value(const Arg& value, const Ref<ir::StructInfo>& sinfo, const std::string& what) {
    if (!sinfo) return;
    Arg err = b_.string_arg(what);
    if (auto t = sinfo.as<ir::TensorStructInfo>()) {
      Arg dtype = t->is_unknown_dtype() ? Arg::void_reg() : b_.dtype_arg(to_dl(t->dtype));
      b_.emit_call("vm.builtin.check_tensor_info", {value, b_.int_arg(t->ndim), dtype, err});
      if (const auto* dims = t->shape_values()) match_dims(value, *dims, err);
    } else if (auto s = sinfo.as<ir::ShapeStructInfo>()) {
      b_.emit_call("vm.builtin.check_shape_info", {value, b_.int_arg(s->ndim), err});
      if (s->values) match_dims(value, *s->values, err);
    } else if (auto p = sinfo.as<ir::PrimStructInfo>()) {
      Arg dtype = p->dtype.is_void() ? Arg::void_reg() : b_.dtype_arg(to_dl(p->dtype));
      b_.emit_call("vm.builtin.check_prim_value_info", {value, dtype, err});
      if (p->value && p->dtype.is_integer_like()) {
        auto [code, r] = match_code(p->value, true);
        b_.emit_call("vm.builtin.match_prim_value",
                     {value, heap_, b_.int_arg(code), b_.int_arg(r), err});
        if (code == 2) {
          ensure(p->value);
          b_.emit_call("vm.builtin.match_prim_value",
                       {value, heap_, b_.int_arg(3), b_.int_arg(slot(p->value)), err});
        }
      }
    } else if (auto tup = sinfo.as<ir::TupleStructInfo>()) {
      b_.emit_call("vm.builtin.check_tuple_info",
                   {value, b_.int_arg(static_cast<int64_t>(tup->fields.size())), err});
      for (size_t i = 0; i < tup->fields.size(); ++i) {
        int64_t r = b_.new_register();
        b_.emit_call("vm.builtin.tuple_getitem", {value, b_.int_arg(static_cast<int64_t>(i))}, r);
        check_value(Arg::reg(r), tup->fields[i], what + " field " + std::to_string(i));
      }
    } else if (sinfo.is<ir::FuncStructInfo>()) {
      b_.emit_call("vm.builtin.check_func_info", {value, err});
    }
  }

  // (code, r) for one dimension in the first round of matching.
  std::pair<int64_t, int64_t> match_code(const Ref<ir::tir::PrimExpr>& d, bool define) {
    if (auto c = ir::tir::as_const_int(d)) return {0, *c};
    int64_t s = slot(d);
    if (known_.count(s)) return {3, s};
    if (is_var(d) && define) {
      known_.insert(s);
      return {1, s};
    }
    return {2, 0};
  }

  void match_dims(const Arg& value, const std::vector<Ref<ir::tir::PrimExpr>>& dims,
                  const Arg& err) {
    std::vector<Arg> args{value, heap_, b_.int_arg(static_cast<int64_t>(dims.size()))};
    std::vector<size_t> deferred;
    for (size_t i = 0; i < dims.size(); ++i) {
      // A variable seen twice in one shape: the second occurrence compares with the first.
      auto [code, r] = match_code(dims[i], true);
      if (code == 2) deferred.push_back(i);
      args.push_back(b_.int_arg(code));
      args.push_back(b_.int_arg(r));
    }
    args.push_back(err);
    b_.emit_call(b_.declare_builtin("vm.builtin.match_shape"), std::span<const Arg>(args));
    if (deferred.empty()) return;
    std::vector<Arg> second{value, heap_, b_.int_arg(static_cast<int64_t>(dims.size()))};
    for (size_t i = 0; i < dims.size(); ++i) {
      bool check = std::find(deferred.begin(), deferred.end(), i) != deferred.end();
      if (check && !ensure(dims[i])) {
        fail("E0784", ir::Span::unknown(),
             "the dimension " + syntax::to_text(dims[i]) +
                 " uses a variable no parameter or match_cast defines");
      }
      second.push_back(b_.int_arg(check ? 3 : 2));
      second.push_back(b_.int_arg(check ? slot(dims[i]) : 0));
    }
    second.push_back(err);
    b_.emit_call(b_.declare_builtin("vm.builtin.match_shape"), std::span<const Arg>(second));
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
      Arg value = emit_expr(mc->value);
      check_value(value, mc->struct_info, "match_cast of `" + mc->var->name + "`");
      int64_t r = b_.new_register();
      b_.emit_call("vm.builtin.copy", {value}, r);
      regs_[mc->var.get()] = Arg::reg(r);
      return;
    }
    const auto& value = binding->value;
    if (auto v = value.as<ir::Var>()) {
      // A copy in a register of its own, so that killing one name never kills the other.
      int64_t r = b_.new_register();
      b_.emit_call("vm.builtin.copy", {lookup(v)}, r);
      regs_[binding->var.get()] = Arg::reg(r);
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
    regs_[binding->var.get()] = emit_expr(value);
  }

  Arg lookup(const Ref<ir::Var>& v) {
    auto it = regs_.find(v.get());
    if (it == regs_.end())
      fail("E0785", v->span, "variable `" + v->name + "` is used before it is defined");
    return it->second;
  }

  Arg emit_prim(const Ref<ir::tir::PrimExpr>& e) {
    if (auto c = ir::tir::as_const_int(e)) return b_.int_arg(*c);
    if (auto f = e.as<ir::tir::FloatImm>()) return b_.float_arg(f->value);
    if (!ensure(e))
      fail("E0784", ir::Span::unknown(),
           "the value " + syntax::to_text(e) + " uses an undefined variable");
    int64_t r = b_.new_register();
    b_.emit_call("vm.builtin.make_prim_value", {heap_, b_.int_arg(1), b_.int_arg(slot(e))}, r);
    return Arg::reg(r);
  }

  Arg emit_shape(const std::vector<Ref<ir::tir::PrimExpr>>& dims) {
    std::vector<int64_t> consts;
    bool all_const = true;
    for (const auto& d : dims) {
      auto c = ir::tir::as_const_int(d);
      if (!c) {
        all_const = false;
        break;
      }
      consts.push_back(*c);
    }
    if (all_const) return b_.shape_arg(consts);
    std::vector<Arg> args{heap_, b_.int_arg(static_cast<int64_t>(dims.size()))};
    for (const auto& d : dims) {
      if (auto c = ir::tir::as_const_int(d)) {
        args.push_back(b_.int_arg(0));
        args.push_back(b_.int_arg(*c));
        continue;
      }
      if (!ensure(d))
        fail("E0784", ir::Span::unknown(),
             "the dimension " + syntax::to_text(d) + " uses an undefined variable");
      args.push_back(b_.int_arg(1));
      args.push_back(b_.int_arg(slot(d)));
    }
    int64_t r = b_.new_register();
    b_.emit_call(b_.declare_builtin("vm.builtin.make_shape"), std::span<const Arg>(args), r);
    return Arg::reg(r);
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
    auto saved = known_;
    Arg t = emit_expr(node->true_branch);
    b_.emit_call("vm.builtin.copy", {t}, merge);
    int64_t goto_instr = b_.emit_goto();
    known_ = saved;
    b_.patch_target(if_instr, b_.next_instr());
    Arg f = emit_expr(node->false_branch);
    b_.emit_call("vm.builtin.copy", {f}, merge);
    known_ = saved;
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
        fail("E0782", call->span, "call_tir_inplace is not supported by the build pipeline yet");
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
  std::map<std::string, int64_t> slot_of_;
  std::set<int64_t> known_;
  Arg heap_ = Arg::void_reg();
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
  bool ok = true;
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

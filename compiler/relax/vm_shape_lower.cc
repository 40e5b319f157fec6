// VMShapeLower: makes the run-time checks of struct info and the symbolic shape computations
// explicit calls of VM builtins (SEMANTICS.md §5.3), so that `--print-after=VMShapeLower` shows
// what the VM will check. Per Relax function:
//  - every symbolic value (a variable `n`, or a compound expression `n * 4` used as a dimension
//    or a prim value) gets a slot of a shape heap, allocated first:
//      shape_heap = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(K),),
//                                           sinfo_args=(R.Tensor(ndim=1, dtype="int64"),))
//  - parameters, then every match_cast, are checked against their struct info
//    (`vm.builtin.check_tensor_info`, `check_shape_info`, `check_prim_value_info`,
//    `check_tuple_info`, `check_func_info`) and their dims matched against the heap
//    (`vm.builtin.match_shape` / `match_prim_value`: a constant is compared, a new variable is
//    stored, a known one compared; compound dims are compared in a second round once computed);
//  - compound expressions are computed into their slots where first needed
//    (`vm.builtin.shape_compute`, a postfix program over the variables' slots; its parts get no
//    slots of their own, so a chain of N terms is one slot and one program of N terms, not N of
//    each), and every symbolic `R.shape([...])` or
//    `R.prim_value(...)` becomes `vm.builtin.make_shape` / `make_prim_value` from the heap.
// The match_cast bindings stay (after their checks) so the module remains well formed; VM
// codegen treats them as copies. The slots' expressions are recorded in the function attribute
// `relax.vm_shape_heap` (for error messages and the disassembly); VM codegen requires it.
// Facts learnt inside an if branch are forgotten after it. Nested functions must have been
// lifted (LambdaLift). Leaves alone: functions that already have `relax.vm_shape_heap` (lowered
// before: their checks and shape computations are explicit already), prim_funcs.
#include <map>
#include <set>
#include <unordered_set>

#include "compiler/relax/pass_util.h"
#include "compiler/relax/passes.h"
#include "ir/visitor.h"
#include "syntax/printer.h"
#include "vm/shape_program.h"

namespace relax::compiler::relax_passes {

using namespace ir;

namespace {

std::pair<std::vector<Ref<tir::PrimExpr>>, int64_t> operands(const Ref<tir::PrimExpr>& e);

// Calls visit(node) for `root` and every operand under it (operands() gives them) that
// enter(operand) accepts, each operand before the expression that uses it, left to right. A
// loop over an explicit stack: a chain of N terms nests N levels, and the front end accepts
// 50,000 (E0243).
template <typename Enter, typename Visit>
void walk_post_order(const Ref<tir::PrimExpr>& root, Enter&& enter, Visit&& visit) {
  struct Frame {
    Ref<tir::PrimExpr> e;
    std::vector<Ref<tir::PrimExpr>> parts;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  stack.push_back({root, operands(root).first});
  while (!stack.empty()) {
    if (stack.back().next < stack.back().parts.size()) {
      Ref<tir::PrimExpr> part = stack.back().parts[stack.back().next++];
      if (!enter(part)) continue;
      auto parts = operands(part).first;
      stack.push_back({std::move(part), std::move(parts)});
      continue;
    }
    visit(stack.back().e);
    stack.pop_back();
  }
}

// The symbolic values of one function: each variable, and each distinct compound expression
// used as a dimension or a prim value (not its parts: a slot's key and name is its printed
// text, and the parts of a chain of N terms would make N keys of up to N terms).
class SlotCollector : public ExprVisitor {
 public:
  std::map<std::string, int64_t> slot_of;  // printed expression -> slot
  std::vector<std::string> names;

  void add(const Ref<tir::PrimExpr>& e) {
    if (!e || tir::as_const_int(e) || e.is<tir::FloatImm>()) return;
    if (!e.is<tir::Var>()) {
      // The variables under it, left to right; an operand shared by several expressions is
      // walked once.
      walk_post_order(
          e, [&](const Ref<tir::PrimExpr>& part) { return walked_.insert(part.get()).second; },
          [&](const Ref<tir::PrimExpr>& part) {
            if (part.is<tir::Var>()) intern(part);
          });
    }
    intern(e);
  }
  void add_sinfo(const Ref<StructInfo>& s) {
    if (!s) return;
    if (auto t = s.as<TensorStructInfo>()) {
      if (const auto* dims = t->shape_values())
        for (const auto& d : *dims) add(d);
    } else if (auto sh = s.as<ShapeStructInfo>()) {
      if (sh->values)
        for (const auto& d : *sh->values) add(d);
    } else if (auto p = s.as<PrimStructInfo>()) {
      if (p->dtype.is_integer_like()) add(p->value);
    } else if (auto tup = s.as<TupleStructInfo>()) {
      for (const auto& f : tup->fields) add_sinfo(f);
    }
  }
  void visit_binding(const Ref<Binding>& b) override {
    if (auto mc = b.as<MatchCast>()) add_sinfo(mc->struct_info);
    ExprVisitor::visit_binding(b);
  }
  void visit_shape_expr(const Ref<ShapeExpr>& s) override {
    for (const auto& v : s->values) add(v);
  }
  void visit_prim_value(const Ref<PrimValue>& v) override { add(v->value); }

 private:
  void intern(const Ref<tir::PrimExpr>& e) {
    std::string key = syntax::to_text(e);
    if (slot_of.count(key)) return;
    slot_of[key] = static_cast<int64_t>(names.size());
    names.push_back(std::move(key));
  }
  std::unordered_set<const Object*> walked_;
};

// The postfix codes of vm.builtin.shape_compute for a binary operator (0: not computable).
int64_t operator_code(ObjectKind kind) {
  using C = vm::ShapeProgramCode;
  auto code = [](C c) { return static_cast<int64_t>(c); };
  switch (kind) {
    case ObjectKind::kAdd:
      return code(C::kAdd);
    case ObjectKind::kSub:
      return code(C::kSub);
    case ObjectKind::kMul:
      return code(C::kMul);
    case ObjectKind::kFloorDiv:
      return code(C::kFloorDiv);
    case ObjectKind::kFloorMod:
      return code(C::kFloorMod);
    case ObjectKind::kMin:
      return code(C::kMin);
    case ObjectKind::kMax:
      return code(C::kMax);
    case ObjectKind::kDiv:
      return code(C::kTruncDiv);
    case ObjectKind::kMod:
      return code(C::kTruncMod);
    case ObjectKind::kEQ:
      return code(C::kEQ);
    case ObjectKind::kNE:
      return code(C::kNE);
    case ObjectKind::kLT:
      return code(C::kLT);
    case ObjectKind::kLE:
      return code(C::kLE);
    case ObjectKind::kGT:
      return code(C::kGT);
    case ObjectKind::kGE:
      return code(C::kGE);
    default:
      return 0;
  }
}

// The operands of a compound expression the VM computes and its shape_compute code: binary
// operators, and select / T.if_then_else (code 17, both sides are integers here). Code 0: not
// computable.
std::pair<std::vector<Ref<tir::PrimExpr>>, int64_t> operands(const Ref<tir::PrimExpr>& e) {
  if (auto b = e.as<tir::BinaryOp>()) return {{b->a, b->b}, operator_code(b->kind())};
  if (auto sel = e.as<tir::Select>())
    return {{sel->condition, sel->true_value, sel->false_value},
            static_cast<int64_t>(vm::ShapeProgramCode::kSelect)};
  if (auto call = e.as<tir::Call>();
      call && call->op == "tir.if_then_else" && call->args.size() == 3)
    return {call->args, static_cast<int64_t>(vm::ShapeProgramCode::kSelect)};
  return {{}, 0};
}

}  // namespace

std::vector<int64_t> shape_program(const Ref<tir::PrimExpr>& e,
                                   const std::function<int64_t(const Ref<tir::PrimExpr>&)>& slot) {
  using C = vm::ShapeProgramCode;
  std::vector<int64_t> out;
  // Post order over an explicit stack (a dimension may be a chain of 50,000 terms); an
  // expression the VM cannot compute is a leaf read from its slot, its operands unvisited.
  auto parts_of = [](const Ref<tir::PrimExpr>& x) {
    if (tir::as_const_int(x)) return std::vector<Ref<tir::PrimExpr>>{};
    auto [parts, code] = operands(x);
    return code ? parts : std::vector<Ref<tir::PrimExpr>>{};
  };
  struct Frame {
    Ref<tir::PrimExpr> e;
    std::vector<Ref<tir::PrimExpr>> parts;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  stack.push_back({e, parts_of(e)});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.parts.size()) {
      Ref<tir::PrimExpr> part = top.parts[top.next++];
      auto parts = parts_of(part);
      stack.push_back({std::move(part), std::move(parts)});
      continue;
    }
    const Ref<tir::PrimExpr>& x = top.e;
    if (auto c = tir::as_const_int(x)) {
      out.insert(out.end(), {static_cast<int64_t>(C::kPushImm), *c});
    } else if (int64_t code = operands(x).second) {
      out.insert(out.end(), {code, 0});
    } else {
      out.insert(out.end(), {static_cast<int64_t>(C::kPushHeap), slot(x)});
    }
    stack.pop_back();
  }
  return out;
}

namespace {

class ShapeLowerer : public ExprMutator {
 public:
  ShapeLowerer(const Ref<Function>& f, DiagnosticBag& diags) : names_(f), diags_(diags) {}

  Ref<Function> run(const Ref<Function>& f) {
    SlotCollector slots;
    for (const auto& p : f->params) slots.add_sinfo(p->struct_info);
    slots.visit(f->body);
    slot_of_ = slots.slot_of;
    std::vector<Ref<Binding>> prologue;
    out_ = &prologue;
    // The heap (TVM binds R.null_value() when there is no symbolic value: static dims are
    // compared with constants).
    heap_ = make<Var>(names_.fresh("shape_heap"));
    if (!slots.names.empty()) {
      heap_->struct_info = make<TensorStructInfo>(nullptr, DataType::Int64(), 1);
      auto alloc = make<Call>(
          op_ref("relax.call_builtin_with_ctx"),
          std::vector<Ref<Expr>>{make<ExternFunc>("vm.builtin.alloc_shape_heap"),
                                 make<Tuple>(std::vector<Ref<Expr>>{
                                     int_value(static_cast<int64_t>(slots.names.size()))})},
          Attrs{}, std::vector<Ref<StructInfo>>{heap_->struct_info});
      prologue.push_back(make<VarBinding>(heap_, alloc));
    } else {
      prologue.push_back(make<VarBinding>(heap_, null_value()));
    }
    // Parameters: types first, then shapes (a later parameter may fix a variable's value).
    defer_compound_ = true;
    for (size_t i = 0; i < f->params.size(); ++i) {
      const auto& p = f->params[i];
      check_value(p, p->struct_info,
                  "argument `" + p->name + "` (parameter " + std::to_string(i) + ")");
    }
    defer_compound_ = false;
    for (const auto& c : pending_) check_compound(c);
    pending_.clear();
    out_ = nullptr;
    auto body = mutate_seq(f->body.as<SeqExpr>());
    if (!prologue.empty()) {
      auto seq = make<SeqExpr>(*body);
      seq->blocks.insert(seq->blocks.begin(), make<BindingBlock>(prologue, false));
      body = seq;
    }
    auto out = make<Function>(*f);
    out->body = body;
    std::vector<ObjectRef> slot_names;
    for (const auto& n : slots.names) slot_names.push_back(make_string(n));
    out->attrs.set("relax.vm_shape_heap", make<ArrayValue>(std::move(slot_names)));
    return out;
  }

  void mutate_binding(const Ref<Binding>& binding, std::vector<Ref<Binding>>& out) override {
    auto* saved = out_;
    out_ = &out;
    if (auto mc = binding.as<MatchCast>()) {
      Ref<Expr> value = mutate(mc->value);
      if (!value.is<Var>()) {
        auto tmp = make<Var>(names_.fresh("lv"));
        out.push_back(make<VarBinding>(tmp, value));
        value = tmp;
      }
      check_value(value, mc->struct_info, "match_cast of `" + mc->var->name + "`");
      auto n = make<MatchCast>(mc->var, value, mc->struct_info);
      n->span = mc->span;
      out.push_back(n);
    } else {
      Ref<Expr> value = mutate(binding->value);
      if (value.same_as(binding->value)) {
        out.push_back(binding);
      } else {
        auto n = make<VarBinding>(binding->var, value);
        n->span = binding->span;
        out.push_back(n);
      }
    }
    out_ = saved;
  }

  Ref<Expr> mutate_seq_expr(const Ref<SeqExpr>& seq) override { return mutate_seq(seq); }

  Ref<Expr> mutate_if(const Ref<If>& node) override {
    Ref<Expr> cond = mutate(node->condition);
    auto saved = known_;
    Ref<SeqExpr> t = mutate_seq(node->true_branch);
    known_ = saved;
    Ref<SeqExpr> f = mutate_seq(node->false_branch);
    known_ = saved;
    auto n = make<If>(cond, t, f);
    n->span = node->span;
    return n;
  }

  Ref<Expr> mutate_function(const Ref<Function>& f) override {
    diags_.error("E0781", f->span,
                 "VMShapeLower: a nested function (LambdaLift must run before shape lowering)");
    return f;
  }

  Ref<Expr> mutate_shape_expr(const Ref<ShapeExpr>& s) override {
    bool all_const = true;
    for (const auto& d : s->values) all_const = all_const && tir::as_const_int(d).has_value();
    if (all_const || !out_) return s;
    std::vector<Ref<Expr>> args{heap_, int_value(static_cast<int64_t>(s->values.size()))};
    for (const auto& d : s->values) {
      if (auto c = tir::as_const_int(d)) {
        args.push_back(int_value(0));
        args.push_back(int_value(*c));
        continue;
      }
      if (!ensure(d)) {
        diags_.error("E0784", s->span,
                     "the dimension " + syntax::to_text(d) + " uses an undefined variable");
        return s;
      }
      args.push_back(int_value(1));
      args.push_back(int_value(slot(d)));
    }
    return emit("vm.builtin.make_shape", std::move(args), make<ShapeStructInfo>(s->values),
                "shape");
  }

  Ref<Expr> mutate_prim_value(const Ref<PrimValue>& v) override {
    const auto& e = v->value;
    if (!e || tir::as_const_int(e) || e.is<tir::FloatImm>() || !out_) return v;
    if (!ensure(e)) {
      diags_.error("E0784", v->span,
                   "the value " + syntax::to_text(e) + " uses an undefined variable");
      return v;
    }
    return emit("vm.builtin.make_prim_value", {heap_, int_value(1), int_value(slot(e))},
                make<PrimStructInfo>(e->dtype, e), "prim");
  }

 private:
  static Ref<Expr> op_ref(const std::string& name) { return Op::get(name); }
  static Ref<Expr> null_value() {
    return make<Call>(Op::get("relax.null_value"), std::vector<Ref<Expr>>{});
  }
  Ref<Expr> heap() const { return heap_; }
  static Ref<Expr> int_value(int64_t v) { return make<PrimValue>(tir::int64(v)); }

  // Binds `name(args...)` (a packed call of a builtin) before the current binding; its var.
  Ref<Var> emit(const std::string& name, std::vector<Ref<Expr>> args, Ref<StructInfo> sinfo,
                const std::string& var_name = "_") {
    auto call = make<Call>(make<ExternFunc>(name), std::move(args), Attrs{},
                           std::vector<Ref<StructInfo>>{sinfo});
    auto var = make<Var>(names_.fresh(var_name));
    out_->push_back(make<VarBinding>(var, call));
    return var;
  }
  void emit_check(const std::string& name, std::vector<Ref<Expr>> args) {
    emit(name, std::move(args), make<TupleStructInfo>());
  }

  Ref<SeqExpr> mutate_seq(const Ref<SeqExpr>& seq) {
    std::vector<Ref<BindingBlock>> blocks;
    for (const auto& b : seq->blocks) blocks.push_back(mutate_binding_block(b));
    std::vector<Ref<Binding>> tail;
    auto* saved = out_;
    out_ = &tail;
    Ref<Expr> body = mutate(seq->body);
    out_ = saved;
    if (!tail.empty()) blocks.push_back(make<BindingBlock>(tail, false));
    auto n = make<SeqExpr>(blocks, body);
    n->span = seq->span;
    n->struct_info = seq->struct_info;
    return n;
  }

  int64_t slot(const Ref<tir::PrimExpr>& e) {
    auto it = slot_of_.find(syntax::to_text(e));
    return it == slot_of_.end() ? -1 : it->second;
  }

  // Makes sure the slot of `e` holds its value here; false when a variable it needs is not
  // known yet (or it cannot be computed, reported).
  bool ensure(const Ref<tir::PrimExpr>& e) {
    if (tir::as_const_int(e)) return true;
    int64_t s = slot(e);
    if (s < 0) return false;
    if (known_.count(s)) return true;
    if (e.is<tir::Var>()) return false;
    std::vector<Ref<Expr>> args{heap_, int_value(s)};
    if (!program(e, args)) return false;
    emit_check("vm.builtin.shape_compute", std::move(args));
    known_.insert(s);
    return true;
  }

  // Appends the postfix program of `e` to `out`: constants pushed, variables loaded from their
  // slots, operators applied. False when a variable is not known here or a part cannot be
  // computed (reported).
  bool program(const Ref<tir::PrimExpr>& e, std::vector<Ref<Expr>>& out) {
    bool ok = true;
    walk_post_order(
        e, [&](const Ref<tir::PrimExpr>&) { return ok; },
        [&](const Ref<tir::PrimExpr>& part) {
          if (!ok) return;
          if (auto c = tir::as_const_int(part)) {
            out.push_back(int_value(0));
            out.push_back(int_value(*c));
            return;
          }
          if (part.is<tir::Var>()) {
            int64_t s = slot(part);
            if (s < 0 || !known_.count(s)) {
              ok = false;
              return;
            }
            out.push_back(int_value(1));
            out.push_back(int_value(s));
            return;
          }
          int64_t code = operands(part).second;
          if (!code) {
            diags_.error("E0783", Span::unknown(),
                         "the symbolic expression " + syntax::to_text(part) +
                             " cannot be computed by the VM");
            ok = false;
            return;
          }
          out.push_back(int_value(code));
          out.push_back(int_value(0));
        });
    return ok;
  }

  // (code, r) for one dimension in the first round of matching.
  std::pair<int64_t, int64_t> match_code(const Ref<tir::PrimExpr>& d) {
    if (auto c = tir::as_const_int(d)) return {0, *c};
    int64_t s = slot(d);
    if (known_.count(s)) return {3, s};
    if (d.is<tir::Var>()) {
      known_.insert(s);
      return {1, s};
    }
    return {2, 0};
  }

  void match_dims(const Ref<Expr>& value, const std::vector<Ref<tir::PrimExpr>>& dims,
                  const Ref<Expr>& err) {
    std::vector<Ref<Expr>> args{value, heap(), int_value(static_cast<int64_t>(dims.size()))};
    std::vector<size_t> deferred;
    for (size_t i = 0; i < dims.size(); ++i) {
      // A variable seen twice in one shape: the second occurrence compares with the first.
      auto [code, r] = match_code(dims[i]);
      if (code == 2) deferred.push_back(i);
      args.push_back(int_value(code));
      args.push_back(int_value(r));
    }
    args.push_back(err);
    emit_check("vm.builtin.match_shape", std::move(args));
    if (deferred.empty()) return;
    // Parameters are all matched before compound dims are checked: `N - 2` of a first
    // parameter may use N from a later one.
    if (defer_compound_) {
      pending_.push_back({value, dims, deferred, err});
      return;
    }
    check_compound({value, dims, deferred, err});
  }

  struct CompoundCheck {
    Ref<Expr> value;
    std::vector<Ref<tir::PrimExpr>> dims;
    std::vector<size_t> deferred;  // the dims to check
    Ref<Expr> err;
  };

  // The second round of matching: compound dims compared with their computed values.
  void check_compound(const CompoundCheck& c) {
    std::vector<Ref<Expr>> second{c.value, heap(), int_value(static_cast<int64_t>(c.dims.size()))};
    for (size_t i = 0; i < c.dims.size(); ++i) {
      bool check = std::find(c.deferred.begin(), c.deferred.end(), i) != c.deferred.end();
      if (check && !ensure(c.dims[i])) {
        diags_.error("E0784", Span::unknown(),
                     "the dimension " + syntax::to_text(c.dims[i]) +
                         " uses a variable no parameter or match_cast defines");
        return;
      }
      second.push_back(int_value(check ? 3 : 2));
      second.push_back(int_value(check ? slot(c.dims[i]) : 0));
    }
    second.push_back(c.err);
    emit_check("vm.builtin.match_shape", std::move(second));
  }

  // Checks a value against struct info, defining the variables it introduces.
  void check_value(const Ref<Expr>& value, const Ref<StructInfo>& sinfo, const std::string& what) {
    if (!sinfo) return;
    Ref<Expr> err = make<StringImm>(what);
    // Any dtype: the null value, read from the (null) heap's sibling binding.
    auto dtype_or_null = [&](DataType t) -> Ref<Expr> {
      if (!t.is_void()) return make<DataTypeImm>(t);
      auto null = make<Var>(names_.fresh("null"));
      out_->push_back(make<VarBinding>(null, null_value()));
      return null;
    };
    if (auto t = sinfo.as<TensorStructInfo>()) {
      emit_check(
          "vm.builtin.check_tensor_info",
          {value, int_value(t->ndim),
           t->is_unknown_dtype() ? dtype_or_null(DataType::Void()) : dtype_or_null(t->dtype), err});
      if (const auto* dims = t->shape_values()) match_dims(value, *dims, err);
    } else if (auto s = sinfo.as<ShapeStructInfo>()) {
      emit_check("vm.builtin.check_shape_info", {value, int_value(s->ndim), err});
      if (s->values) match_dims(value, *s->values, err);
    } else if (auto p = sinfo.as<PrimStructInfo>()) {
      emit_check("vm.builtin.check_prim_value_info", {value, dtype_or_null(p->dtype), err});
      if (p->value && p->dtype.is_integer_like()) {
        Ref<Expr> heap = this->heap();
        auto [code, r] = match_code(p->value);
        emit_check("vm.builtin.match_prim_value",
                   {value, heap, int_value(code), int_value(r), err});
        if (code == 2 && ensure(p->value)) {
          emit_check("vm.builtin.match_prim_value",
                     {value, heap, int_value(3), int_value(slot(p->value)), err});
        }
      }
    } else if (auto tup = sinfo.as<TupleStructInfo>()) {
      emit_check("vm.builtin.check_tuple_info",
                 {value, int_value(static_cast<int64_t>(tup->fields.size())), err});
      for (size_t i = 0; i < tup->fields.size(); ++i) {
        auto item = make<Var>(names_.fresh("field"));
        out_->push_back(make<VarBinding>(item, make<TupleGetItem>(value, static_cast<int>(i))));
        check_value(item, tup->fields[i], what + " field " + std::to_string(i));
      }
    } else if (sinfo.is<FuncStructInfo>()) {
      emit_check("vm.builtin.check_func_info", {value, err});
    }
  }

  NameSupply names_;
  DiagnosticBag& diags_;
  std::map<std::string, int64_t> slot_of_;
  std::set<int64_t> known_;
  Ref<Var> heap_;
  std::vector<Ref<Binding>>* out_ = nullptr;
  bool defer_compound_ = false;
  std::vector<CompoundCheck> pending_;
};

}  // namespace

Pass vm_shape_lower_pass() {
  Pass p;
  p.name = "VMShapeLower";
  p.doc =
      "Makes struct-info checks and symbolic shape computations explicit calls of VM builtins "
      "over a shape heap";
  p.fn = [](Ref<IRModule> m, PassContext& ctx) {
    return map_relax_functions(m, ctx, [&](const Ref<Function>& f) {
      if (f->attrs.contains("relax.vm_shape_heap")) return f;  // already lowered
      ShapeLowerer lowerer(f, ctx.diagnostics());
      return lowerer.run(f);
    });
  };
  return p;
}

}  // namespace relax::compiler::relax_passes

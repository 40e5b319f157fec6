// Kills and aliases (see kills.h): the alias roots of a function and the use-after-kill check.
#include "compiler/relax/kills.h"

#include <unordered_set>

#include "compiler/relax/pass_util.h"
#include "ir/visitor.h"

namespace relax::compiler::relax_passes {

using namespace ir;

const Var* kill_target(const Ref<Expr>& value) {
  auto call = value.as_ptr<Call>();
  if (!call || call->args.size() != 1) return nullptr;
  const std::string& op = call->op_name();
  if (op != "relax.memory.kill_tensor" && op != "relax.memory.kill_storage" &&
      op != "relax.vm.kill_object")
    return nullptr;
  return call->args[0].as_ptr<Var>();
}

bool is_identity_op(const std::string& op) {
  return op == "relax.grad.start_checkpoint" || op == "relax.grad.end_checkpoint" ||
         op == "relax.builtin.stop_lift_params" || op == "relax.hint_on_device" ||
         op == "relax.to_vdevice" || op == "relax.memory.ensure_zero_offset";
}

class AliasCollector : public ExprVisitor {
 public:
  explicit AliasCollector(AliasRoots& roots) : roots_(roots) {}
  void visit_binding(const Ref<Binding>& b) override {
    ExprVisitor::visit_binding(b);  // nested sequences (branches) first: they bind earlier vars
    if (const Var* source = roots_.alias_of(b)) {
      roots_.root_[b->var.get()] = source;
    } else if (auto tuple = b->value.as<Tuple>(); tuple && b.is<VarBinding>()) {
      roots_.tuples_[b->var.get()] = tuple;
    }
  }

 private:
  AliasRoots& roots_;
};

AliasRoots::AliasRoots(const Ref<Function>& func) {
  AliasCollector c(*this);
  c.visit(func);
}

const Var* AliasRoots::root(const Var* v) const {
  auto it = root_.find(v);
  return it == root_.end() ? v : it->second;
}

const Var* AliasRoots::alias_of(const Ref<Binding>& binding) const {
  const Ref<Expr>& value = binding->value;
  if (auto v = value.as_ptr<Var>()) return root(v);  // `y = x`, or a match_cast of x
  if (!binding.is<VarBinding>()) return nullptr;
  if (auto item = value.as_ptr<TupleGetItem>()) {
    auto t = item->tuple.as_ptr<Var>();
    auto it = t ? tuples_.find(root(t)) : tuples_.end();
    if (it == tuples_.end() || item->index < 0 ||
        static_cast<size_t>(item->index) >= it->second->fields.size())
      return nullptr;
    auto field = it->second->fields[static_cast<size_t>(item->index)].as_ptr<Var>();
    return field ? root(field) : nullptr;
  }
  if (auto call = value.as_ptr<Call>(); call && is_identity_op(call->op_name())) {
    auto arg = call->args.empty() ? nullptr : call->args[0].as_ptr<Var>();
    return arg ? root(arg) : nullptr;
  }
  return nullptr;
}

namespace {

// Dead roots and the kill binding of each, along one path through the function: the kills made
// since the innermost enclosing if branch began, over those of the path outside it (a branch
// looks outward instead of copying everything dead so far, which made n ifs after n kills
// quadratic).
class Dead {
 public:
  explicit Dead(const Dead* outer = nullptr) : outer_(outer) {}
  // The kill of `root` on this path, or null.
  const Ref<Binding>* find(const Var* root) const {
    for (const Dead* d = this; d; d = d->outer_) {
      if (auto it = d->own_.find(root); it != d->own_.end()) return &it->second;
    }
    return nullptr;
  }
  // Killing a dead value again is harmless; the first kill stays the one to name.
  void kill(const Var* root, const Ref<Binding>& b) {
    if (!find(root)) own_.emplace(root, b);
  }
  // After an if, the kills of one of its branches (merged true branch first).
  void merge(const Dead& branch) {
    for (const auto& [root, b] : branch.own_) kill(root, b);
  }

 private:
  const Dead* outer_;
  std::unordered_map<const Var*, Ref<Binding>> own_;
};

class KillChecker {
 public:
  KillChecker(const std::string& name, const Ref<Function>& func, DiagnosticBag& diags)
      : name_(name), roots_(func), diags_(diags) {}

  void check_function(const Ref<Function>& func) {
    Dead dead;
    check_expr(func->body, func->span, dead);
  }

 private:
  void check_seq(const Ref<SeqExpr>& seq, Dead& dead) {
    for (const auto& block : seq->blocks) {
      for (const auto& b : block->bindings) check_binding(b, dead);
    }
    returning_ = true;
    check_expr(seq->body, seq->body->span.is_known() ? seq->body->span : seq->span, dead);
    returning_ = false;
  }

  void check_binding(const Ref<Binding>& b, Dead& dead) {
    returning_ = false;
    if (const Var* target = kill_target(b->value)) {
      dead.kill(roots_.root(target), b);
      return;
    }
    // An alias of a dead value is dead too, not a use; a match_cast checks the value: a use.
    if (b.is<VarBinding>() && roots_.alias_of(b)) return;
    check_expr(b->value, b->span, dead);
  }

  // Checks the uses of `e`, evaluated at `at`; kills inside an if branch count after the if.
  void check_expr(const Ref<Expr>& e, Span at, Dead& dead) {
    if (auto node = e.as<If>()) {
      check_uses(node->condition, at, dead);
      Dead then_dead(&dead), else_dead(&dead);
      check_expr(node->true_branch, at, then_dead);
      check_expr(node->false_branch, at, else_dead);
      dead.merge(then_dead);
      dead.merge(else_dead);
      return;
    }
    if (auto seq = e.as<SeqExpr>()) return check_seq(seq, dead);
    if (auto func = e.as<Function>()) {
      // A closure reads its free variables where it is made; its own body starts afresh.
      check_uses(func, at, dead);
      KillChecker(name_, func, diags_).check_function(func);
      return;
    }
    check_uses(e, at, dead);
  }

  void check_uses(const Ref<Expr>& e, Span at, const Dead& dead) {
    std::vector<const Var*> uses;
    collect_used_vars(e, uses);
    for (const Var* v : uses) {
      const Var* root = roots_.root(v);
      const Ref<Binding>* kill = dead.find(root);
      if (!kill || !reported_.insert(root).second) continue;
      const Var* killed = kill_target((*kill)->value);
      std::string op = (*kill)->value.as<Call>()->op_name();
      if (op.starts_with("relax.")) op = "R." + op.substr(6);
      std::string message = "function `" + name_ + "`: `" + v->name + "` is " +
                            (returning_ ? "returned" : "used") + " after `" + op + "(" +
                            killed->name + ")` killed it";
      if (killed != v) message += " (`" + v->name + "` and `" + killed->name + "` are one value)";
      diags_.error("E0788", at.is_known() ? at : (*kill)->span, message)
          .label((*kill)->span, "killed here");
    }
  }

  std::string name_;
  AliasRoots roots_;
  DiagnosticBag& diags_;
  std::unordered_set<const Var*> reported_;
  bool returning_ = false;  // checking the result of a sequence
};

}  // namespace

void check_kills(const IRModule& module, DiagnosticBag& diags) {
  for (const auto& m : module.functions) {
    if (auto f = as_relax_function(m.func)) KillChecker(m.gvar->name, f, diags).check_function(f);
  }
}

}  // namespace relax::compiler::relax_passes

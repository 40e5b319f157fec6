// Unused values: W1001 unused-binding (a variable bound and never used), W1002
// unused-parameter (a parameter the function never reads), W1004 unused-dataflow-value (a value
// computed inside a dataflow block that is neither used there nor listed in R.output).
// Names starting with `_` are exempt, as in Python; so are bindings whose value has side
// effects (an impure call must be bound even when its result is not needed) and match_casts
// (a runtime check that may define symbolic variables).
#include <string>

#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"

namespace relax::analysis::lint {

namespace {

bool exempt_name(const std::string& name) {
  return name.empty() || name[0] == '_';
}

// Every binding of a function, nested functions included, with whether its block is a
// dataflow block.
class BindingWalker : public ir::ExprVisitor {
 public:
  explicit BindingWalker(std::function<void(const ir::Ref<ir::Binding>&, bool in_dataflow)> fn)
      : fn_(std::move(fn)) {}
  void visit_binding_block(const ir::Ref<ir::BindingBlock>& block) override {
    bool saved = dataflow_;
    dataflow_ = block->is_dataflow;
    ir::ExprVisitor::visit_binding_block(block);
    dataflow_ = saved;
  }
  void visit_binding(const ir::Ref<ir::Binding>& binding) override {
    fn_(binding, dataflow_);
    ir::ExprVisitor::visit_binding(binding);
  }

 private:
  std::function<void(const ir::Ref<ir::Binding>&, bool)> fn_;
  bool dataflow_ = false;
};

// A fix deleting the binding's statement, when it is alone on its lines.
void add_removal_fix(LintContext& ctx, ir::Diagnostic& d, const ir::Binding& binding) {
  if (auto lines = whole_lines(ctx.source(), binding.span))
    // Only bindings of pure values are reported (an impure call must stay), so removing one
    // changes nothing the program does.
    d.with_fix("remove the unused binding", *lines, "", ir::FixSafety::kSafe);
}

// Runs `fn` with the use counts of each top-level function (uses inside nested functions, the
// captures, included).
void for_each_counted_function(
    LintContext& ctx,
    const std::function<void(const ir::Ref<ir::Function>&, const UseCounter&)>& fn) {
  for (const auto& member : ctx.module().functions) {
    auto func = ir::as_relax_function(member.func);
    if (!func) continue;
    UseCounter uses;
    uses.visit(func);
    fn(func, uses);
  }
}

void check_bindings(LintContext& ctx, bool dataflow_rule) {
  if (!ctx.source()) return;
  for_each_counted_function(ctx, [&](const ir::Ref<ir::Function>& func, const UseCounter& uses) {
    BindingWalker walker([&](const ir::Ref<ir::Binding>& binding, bool in_dataflow) {
      const ir::Var& var = *binding->var;
      if (binding.is<ir::MatchCast>() || !is_user_named(var, ctx.source()) || exempt_name(var.name))
        return;
      if (uses.uses(&var) > 0) return;
      if (in_dataflow && var.is_dataflow()) {
        if (!dataflow_rule) return;
        auto& d = ctx.report(var.span,
                             "`" + var.name +
                                 "` is computed in the dataflow block but neither used there nor "
                                 "listed in R.output(...)");
        add_removal_fix(ctx, d, *binding);
        return;
      }
      if (dataflow_rule || expr_purity(binding->value, ctx.module()) != Purity::kPure) return;
      std::string message;
      if (binding->value.is<ir::Function>())
        message = "the local function `" + var.name + "` is never used";
      else if (in_dataflow)
        message =
            "`" + var.name + "` is listed in R.output(...) but never used after the dataflow block";
      else
        message = "`" + var.name + "` is bound but never used";
      auto& d = ctx.report(var.span, message);
      if (!in_dataflow) add_removal_fix(ctx, d, *binding);
      d.note("prefix the name with `_` to keep an intentionally unused binding");
    });
    walker.visit(func);
  });
}

// A parameter is used when the body reads it, or when a symbolic variable its annotation
// mentions is used elsewhere (`s: R.Shape([n, m])` may exist to define n and m).
bool parameter_used(const ir::Var& param, const UseCounter& uses) {
  if (uses.uses(&param) > 0) return true;
  std::unordered_map<const ir::tir::Var*, size_t> own;
  for_each_tir_var(param.struct_info, [&](const ir::tir::Var* v) { ++own[v]; });
  for (const auto& [v, n] : own) {
    if (uses.tir_uses(v) > n) return true;
  }
  return false;
}

void check_parameters(LintContext& ctx) {
  for_each_counted_function(ctx, [&](const ir::Ref<ir::Function>& top, const UseCounter& uses) {
    auto check = [&](const ir::Function& func, const std::string& what) {
      for (const auto& p : func.params) {
        if (exempt_name(p->name) || !p->span.is_known() || parameter_used(*p, uses)) continue;
        ctx.report(p->span, "the parameter `" + p->name + "` of " + what + " is never used")
            .note("prefix the name with `_` to keep an intentionally unused parameter");
      }
    };
    check(*top, "this function");
    class Nested : public ir::ExprVisitor {
     public:
      explicit Nested(std::function<void(const ir::Function&)> fn) : fn_(std::move(fn)) {}
      void visit_function(const ir::Ref<ir::Function>& f) override {
        if (depth_++ > 0) fn_(*f);
        ir::ExprVisitor::visit_function(f);
        --depth_;
      }

     private:
      std::function<void(const ir::Function&)> fn_;
      int depth_ = 0;
    };
    Nested nested([&](const ir::Function& f) { check(f, "this local function"); });
    nested.visit(top);
  });
}

}  // namespace

void register_unused_rules(LintRegistry& registry) {
  registry.add({"W1001", "unused-binding", "a variable is bound but its value is never used", true,
                ir::Severity::kWarning, false,
                [](LintContext& ctx) { check_bindings(ctx, false); }});
  registry.add({"W1002", "unused-parameter", "a function parameter is never used", true,
                ir::Severity::kWarning, false, check_parameters});
  registry.add({"W1004", "unused-dataflow-value",
                "a value computed in a dataflow block is neither used there nor listed in R.output",
                true, ir::Severity::kWarning, false,
                [](LintContext& ctx) { check_bindings(ctx, true); }});
}

}  // namespace relax::analysis::lint

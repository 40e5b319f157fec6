// W1003 shadowed-name: a binding that rebinds a name already visible in its scope (an earlier
// binding or a parameter), and a local function's parameter that hides a variable of the
// enclosing function. Relax allows both (a rebinding makes a new variable, TVM's printer then
// renames it `x_1`), but a reader easily takes the later uses for the earlier value.
// Scopes follow the front end: a dataflow block keeps its non-output names to itself, each
// branch of an `if` has its own scope and its result name joins the enclosing one.
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"

namespace relax::analysis::lint {

namespace {

struct Definition {
  ir::Span span;
  bool is_param = false;
};

class ShadowChecker {
 public:
  explicit ShadowChecker(LintContext& ctx) : ctx_(ctx) {}

  void top_function(const ir::Function& func) { function(func, false); }

 private:
  using Scope = std::unordered_map<std::string, Definition>;

  const Definition* lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end()) return &found->second;
    }
    return nullptr;
  }

  bool tracked(const ir::Var& var) const {
    return var.name != "_" && is_user_named(var, ctx_.source());
  }

  void check(const ir::Var& var, bool is_param) {
    const Definition* prev = lookup(var.name);
    if (!prev) return;
    std::string name = "`" + var.name + "`";
    std::string message = (is_param ? "the parameter " + name + " of this local function" : name) +
                          " shadows " +
                          (prev->is_param ? "the parameter " : "the earlier binding of ") + name +
                          " on line " + std::to_string(line_of(ctx_.source(), prev->span));
    ctx_.report(var.span, message)
        .label(prev->span,
               prev->is_param ? "the parameter is declared here" : name + " is first bound here")
        .note("later uses of " + name + " refer to the new value; a new name makes that explicit");
  }

  void define(const ir::Var& var, bool is_param) {
    scopes_.back()[var.name] = Definition{var.span, is_param};
  }

  void function(const ir::Function& func, bool nested) {
    scopes_.emplace_back();
    for (const auto& p : func.params) {
      if (!p->span.is_known() || p->name.empty()) continue;
      if (nested) check(*p, true);
      define(*p, true);
    }
    if (func.body) seq(*func.body, "");
    scopes_.pop_back();
  }

  void seq(const ir::SeqExpr& s, const std::string& result_name) {
    for (const auto& block : s.blocks) {
      if (!block->is_dataflow) {
        for (const auto& b : block->bindings) binding(*b, result_name);
        continue;
      }
      scopes_.emplace_back();
      for (const auto& b : block->bindings) binding(*b, result_name);
      scopes_.pop_back();
      // The outputs stay visible after the block.
      for (const auto& b : block->bindings) {
        if (!b->var->is_dataflow() && tracked(*b->var)) define(*b->var, false);
      }
    }
  }

  void binding(const ir::Binding& b, const std::string& branch_result) {
    const ir::Var& var = *b.var;
    bool is_tracked = tracked(var);
    if (auto node = b.value.as_ptr<ir::If>()) {
      // Each branch ends by binding the if's result name; that binding is checked once, as the
      // if's own variable, below.
      for (const auto& branch : {node->true_branch, node->false_branch}) {
        if (!branch) continue;
        scopes_.emplace_back();
        seq(*branch, var.name);
        scopes_.pop_back();
      }
    }
    bool is_branch_result = !branch_result.empty() && var.name == branch_result;
    if (is_tracked && !is_branch_result) check(var, false);
    if (is_tracked) define(var, false);
    // A local function may call itself, so its name is visible inside it.
    if (auto f = b.value.as_ptr<ir::Function>()) function(*f, true);
  }

  LintContext& ctx_;
  std::vector<Scope> scopes_;
};

void check_shadowing(LintContext& ctx) {
  if (!ctx.source()) return;
  for (const auto& member : ctx.module().functions) {
    if (auto func = ir::as_relax_function(member.func)) ShadowChecker(ctx).top_function(*func);
  }
}

}  // namespace

void register_shadowing_rules(LintRegistry& registry) {
  registry.add({"W1003", "shadowed-name",
                "a binding or a local function's parameter hides a name already in scope", true,
                ir::Severity::kWarning, false, check_shadowing});
}

}  // namespace relax::analysis::lint

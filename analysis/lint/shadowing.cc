// W1003 shadowed-name: a binding that rebinds a name already visible in its scope (an earlier
// binding or a parameter), and a local function's parameter that hides a variable of the
// enclosing function. Relax allows both (a rebinding makes a new variable, TVM's printer then
// renames it `x_1`), but a reader easily takes the later uses for the earlier value.
// Scopes are the front end's (its symbol index records, for each definition, the name it
// hides): a dataflow block keeps its non-output names to itself, each branch of an `if` has its
// own scope and its result name joins the enclosing one.
#include <string>

#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"
#include "syntax/symbol_index.h"

namespace relax::analysis::lint {

namespace {

// Which earlier name a binding hides comes from the front end's symbol index (the scopes it
// resolved names with); this walk decides which bindings count: user-named ones, not the names
// an `if`'s branches bind as its result (the `if`'s own variable is checked), and parameters
// only of local functions.
class ShadowChecker {
 public:
  ShadowChecker(LintContext& ctx, const syntax::SymbolIndex& index) : ctx_(ctx), index_(index) {}

  void top_function(const ir::Function& func) { function(func, false); }

 private:
  bool tracked(const ir::Var& var) const {
    return var.name != "_" && is_user_named(var, ctx_.source());
  }

  static bool is_relax_value(syntax::SymbolKind kind) {
    return kind == syntax::SymbolKind::kVariable || kind == syntax::SymbolKind::kDataflowVariable ||
           kind == syntax::SymbolKind::kParameter;
  }

  void check(const ir::Var& var, bool is_param) {
    // By the definition's text: normalization may have rebuilt the variable.
    const syntax::Symbol* symbol = index_.find(&var);
    if (!symbol && var.span.is_known()) symbol = index_.symbol_at(var.span.begin);
    if (!symbol || symbol->definition != var.span) return;
    if (symbol->shadows == syntax::Symbol::kNoSymbol) return;
    const syntax::Symbol& prev = index_.symbols()[symbol->shadows];
    if (!is_relax_value(prev.kind) || !prev.definition.is_known()) return;
    bool prev_is_param = prev.kind == syntax::SymbolKind::kParameter;
    std::string name = "`" + var.name + "`";
    std::string message = (is_param ? "the parameter " + name + " of this local function" : name) +
                          " shadows " +
                          (prev_is_param ? "the parameter " : "the earlier binding of ") + name +
                          " on line " + std::to_string(line_of(ctx_.source(), prev.definition));
    ctx_.report(var.span, message)
        .label(prev.definition,
               prev_is_param ? "the parameter is declared here" : name + " is first bound here")
        .note("later uses of " + name + " refer to the new value; a new name makes that explicit");
  }

  void function(const ir::Function& func, bool nested) {
    if (nested) {
      for (const auto& p : func.params) {
        if (p->span.is_known() && !p->name.empty()) check(*p, true);
      }
    }
    if (func.body) seq(*func.body, "");
  }

  void seq(const ir::SeqExpr& s, const std::string& result_name) {
    for (const auto& block : s.blocks) {
      for (const auto& b : block->bindings) binding(*b, result_name);
    }
  }

  void binding(const ir::Binding& b, const std::string& branch_result) {
    const ir::Var& var = *b.var;
    if (auto node = b.value.as_ptr<ir::If>()) {
      // Each branch ends by binding the if's result name; those bindings are checked once, as
      // the if's own variable, below.
      for (const auto& branch : {node->true_branch, node->false_branch}) {
        if (branch) seq(*branch, var.name);
      }
    }
    bool is_branch_result = !branch_result.empty() && var.name == branch_result;
    if (tracked(var) && !is_branch_result) check(var, false);
    if (auto f = b.value.as_ptr<ir::Function>()) function(*f, true);
  }

  LintContext& ctx_;
  const syntax::SymbolIndex& index_;
};

void check_shadowing(LintContext& ctx) {
  const syntax::SymbolIndex* index = ctx.facts().symbols;
  if (!ctx.source() || !index) return;
  for (const auto& member : ctx.module().functions) {
    if (auto func = ir::as_relax_function(member.func))
      ShadowChecker(ctx, *index).top_function(*func);
  }
}

}  // namespace

void register_shadowing_rules(LintRegistry& registry) {
  registry.add({"W1003", "shadowed-name",
                "a binding or a local function's parameter hides a name already in scope", true,
                ir::Severity::kWarning, false, check_shadowing});
}

}  // namespace relax::analysis::lint

// The lint framework: written facts, the rule context, the registry and the runner.
#include "analysis/lint/lint.h"

#include <algorithm>
#include <cassert>

#include "analysis/lint/lint_util.h"

namespace relax::analysis::lint {

namespace {

// Records, for each binding, the annotation the author wrote: the front end gives an annotated
// binding's variable the annotation as struct info; the source tells a written `x: ann = ...`
// from struct info the front end implied (call_tir outputs, match_cast targets).
class WrittenFactsCollector : public ir::ExprVisitor {
 public:
  WrittenFactsCollector(WrittenFacts& facts, const ir::SourceFile* source)
      : facts_(facts), source_(source) {}

  void visit_binding(const ir::Ref<ir::Binding>& binding) override {
    const ir::Var& var = *binding->var;
    if (binding.is<ir::VarBinding>() && var.struct_info && is_user_named(var, source_) &&
        annotated(var.span))
      facts_.binding_annotations.emplace(span_key(var.span), var.struct_info);
    ir::ExprVisitor::visit_binding(binding);
  }
  void visit_function(const ir::Ref<ir::Function>& func) override {
    if (func->ret_struct_info) facts_.annotated_returns.insert(span_key(func->span));
    ir::ExprVisitor::visit_function(func);
  }

 private:
  // A ':' after the name (before '=') means `name: annotation = value`.
  bool annotated(const ir::Span& name) const {
    const std::string& text = source_->text();
    for (size_t i = name.end; i < text.size(); ++i) {
      if (text[i] == ' ' || text[i] == '\t') continue;
      return text[i] == ':';
    }
    return false;
  }

  WrittenFacts& facts_;
  const ir::SourceFile* source_;
};

}  // namespace

WrittenFacts collect_written_facts(const ir::IRModule& module) {
  WrittenFacts facts;
  for (const auto& member : module.functions) {
    auto func = ir::as_relax_function(member.func);
    if (!func) continue;
    auto source = ir::SourceManager::global().get(func->span.file);
    if (!source) continue;
    WrittenFactsCollector collector(facts, source.get());
    collector.visit(func);
  }
  return facts;
}

LintContext::LintContext(const ir::IRModule& module, const syntax::SyntaxTree* tree,
                         const WrittenFacts& facts, ir::DiagnosticBag& diags)
    : module_(module), tree_(tree), facts_(facts), diags_(diags) {
  if (tree_) source_ = ir::SourceManager::global().get(tree_->file());
}

ir::Diagnostic& LintContext::report(ir::Span span, std::string message) {
  assert(rule_ != nullptr);
  return diags_.report(rule_->severity, rule_->code, span, std::move(message));
}

const LintRegistry& LintRegistry::global() {
  static const LintRegistry* registry = [] {
    auto* r = new LintRegistry();
    register_builtin_lints(*r);
    std::sort(r->rules_.begin(), r->rules_.end(),
              [](const LintRule& a, const LintRule& b) { return a.code < b.code; });
    return r;
  }();
  return *registry;
}

void LintRegistry::add(LintRule rule) {
  assert(find(rule.code) == nullptr && "a lint rule is registered twice");
  rules_.push_back(std::move(rule));
}

const LintRule* LintRegistry::find(std::string_view code) const {
  for (const auto& r : rules_) {
    if (r.code == code) return &r;
  }
  return nullptr;
}

void run_lints(const ir::IRModule& module, const syntax::SyntaxTree* tree,
               const WrittenFacts& facts, const std::function<bool(const LintRule&)>& enabled,
               ir::DiagnosticBag& diags) {
  LintContext ctx(module, tree, facts, diags);
  for (const auto& rule : LintRegistry::global().rules()) {
    if (!enabled(rule)) continue;
    ctx.set_rule(&rule);
    rule.run(ctx);
  }
}

}  // namespace relax::analysis::lint

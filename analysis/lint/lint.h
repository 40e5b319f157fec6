// Lint rules: warnings (W1xxx) about programs TVM accepts but that are probably not what the
// author meant (an unused binding, a redundant match_cast, ...). Each rule is a function over
// the normalized module, with the syntax tree and the written annotations at hand for names and
// positions; the registry lists every rule with its code, name, one-line summary and whether it
// runs by default. Rules are registered explicitly from register_builtin_lints (registry.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/arith/analyzer.h"
#include "ir/diagnostic.h"
#include "ir/module.h"
#include "ir/source.h"
#include "syntax/cst.h"
#include "syntax/symbol_index.h"

namespace relax::analysis::lint {

// A span as a hash key (file and start offset).
inline uint64_t span_key(const ir::Span& span) {
  return (uint64_t{span.file} << 32) | span.begin;
}

// What the author wrote, captured before normalization (which may replace a binding's
// annotation by the inferred struct info and fills in missing return struct info).
struct WrittenFacts {
  // Binding variables written with an annotation (`x: ann = value`), by the span of the name.
  std::unordered_map<uint64_t, ir::Ref<ir::StructInfo>> binding_annotations;
  // Functions written with a return annotation, by the span of the function's name.
  std::unordered_set<uint64_t> annotated_returns;
  // True when the front end left out functions that had errors: rules that look across the
  // module (is this function referenced anywhere?) then stay quiet.
  bool incomplete_module = false;
  // True when the file defines an `@I.ir_module` class. A file of top-level functions is not a
  // module its members share (TVM prints a lone function as `@R.function(private=True)`).
  bool is_module_class = true;
  // The front end's definitions and uses (null for a module a pass built): rules that need the
  // text's scoping read it instead of rebuilding scopes.
  const syntax::SymbolIndex* symbols = nullptr;
};

// Reads the written facts of a module fresh from the front end.
WrittenFacts collect_written_facts(const ir::IRModule& module);

struct LintRule;

// What a rule sees while it runs, and how it reports.
class LintContext {
 public:
  LintContext(const ir::IRModule& module, const syntax::SyntaxTree* tree, const WrittenFacts& facts,
              ir::DiagnosticBag& diags);

  const ir::IRModule& module() const { return module_; }
  // The syntax tree the module was built from; null when there is none (a module built by a
  // pass), in which case rules that need it do nothing.
  const syntax::SyntaxTree* tree() const { return tree_; }
  // The source text spans point into (null without a tree).
  const ir::SourceFile* source() const { return source_.get(); }
  const WrittenFacts& facts() const { return facts_; }
  arith::Analyzer& analyzer() { return analyzer_; }

  // Reports a diagnostic of the running rule (its code and severity).
  ir::Diagnostic& report(ir::Span span, std::string message);

  void set_rule(const LintRule* rule) { rule_ = rule; }

 private:
  const ir::IRModule& module_;
  const syntax::SyntaxTree* tree_;
  std::shared_ptr<const ir::SourceFile> source_;
  const WrittenFacts& facts_;
  ir::DiagnosticBag& diags_;
  arith::Analyzer analyzer_;
  const LintRule* rule_ = nullptr;
};

struct LintRule {
  std::string code;     // "W1001"
  std::string name;     // "unused-binding"
  std::string summary;  // one line: "a binding whose value is never used"
  bool default_on = true;
  ir::Severity severity = ir::Severity::kWarning;
  // Dropped when an error is reported on an overlapping span (the error says it better).
  bool yields_to_errors = false;
  std::function<void(LintContext&)> run;
};

class LintRegistry {
 public:
  // Every builtin rule, registered on first use.
  static const LintRegistry& global();

  void add(LintRule rule);
  const LintRule* find(std::string_view code) const;
  const std::vector<LintRule>& rules() const { return rules_; }

 private:
  std::vector<LintRule> rules_;
};

// The one list of rule families (registry.cc).
void register_builtin_lints(LintRegistry& registry);

// Runs the rules `enabled` accepts, in code order.
void run_lints(const ir::IRModule& module, const syntax::SyntaxTree* tree,
               const WrittenFacts& facts, const std::function<bool(const LintRule&)>& enabled,
               ir::DiagnosticBag& diags);

}  // namespace relax::analysis::lint

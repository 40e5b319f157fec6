// Lookup of variables by name in a normalized snippet.
#include "tests/analysis/inference_test_util.h"

#include <functional>

namespace relax::infer_test {

Ref<ir::Var> Inferred::var(const std::string& name) const {
  Ref<ir::Var> found;
  std::function<void(const Ref<ir::Expr>&)> visit_expr;
  std::function<void(const Ref<ir::SeqExpr>&)> visit_seq = [&](const Ref<ir::SeqExpr>& seq) {
    if (!seq) return;
    for (const auto& block : seq->blocks) {
      for (const auto& b : block->bindings) {
        if (b->var && b->var->name == name) found = b->var;
        visit_expr(b->value);
      }
    }
  };
  visit_expr = [&](const Ref<ir::Expr>& e) {
    if (auto f = e.as<ir::Function>()) {
      for (const auto& p : f->params) {
        if (p->name == name) found = p;
      }
      visit_seq(f->body);
    } else if (auto node = e.as<ir::If>()) {
      visit_seq(node->true_branch);
      visit_seq(node->false_branch);
    }
  };
  for (const auto& member : result.module->functions) {
    if (auto f = member.func.as<ir::Function>()) visit_expr(f);
  }
  return found;
}

std::string Inferred::sinfo(const std::string& name) const {
  Ref<ir::Var> v = var(name);
  if (!v) return "(no variable " + name + ")";
  return text(v->struct_info);
}

}  // namespace relax::infer_test

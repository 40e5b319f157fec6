// Variable substitution through the TIR mutator, memoized on shared nodes.
#include "analysis/arith/substitute.h"

#include "ir/tir_visitor.h"

namespace relax::analysis::arith {

namespace {

namespace tir = ir::tir;
using ir::Ref;

class Substituter : public tir::Mutator {
 public:
  explicit Substituter(const std::function<Ref<tir::PrimExpr>(const Ref<tir::Var>&)>& replace)
      : replace_(replace) {}

  Ref<tir::PrimExpr> mutate_expr(const Ref<tir::PrimExpr>& e) override {
    if (!e) return e;
    // A node held by more than its parent may be met again: rewrite it once.
    if (e->use_count() > 1 && e->kind() != ir::ObjectKind::kTirVar) {
      auto it = memo_.find(e.get());
      if (it != memo_.end()) return it->second;
      Ref<tir::PrimExpr> r = tir::Mutator::mutate_expr(e);
      memo_.emplace(e.get(), r);
      return r;
    }
    return tir::Mutator::mutate_expr(e);
  }

  Ref<tir::PrimExpr> mutate_var(const Ref<tir::Var>& var) override {
    Ref<tir::PrimExpr> r = replace_(var);
    return r ? r : Ref<tir::PrimExpr>(var);
  }

 private:
  const std::function<Ref<tir::PrimExpr>(const Ref<tir::Var>&)>& replace_;
  std::unordered_map<const tir::PrimExpr*, Ref<tir::PrimExpr>> memo_;
};

}  // namespace

Ref<tir::PrimExpr> substitute(const Ref<tir::PrimExpr>& e, const VarMap& map) {
  if (map.empty()) return e;
  std::function<Ref<tir::PrimExpr>(const Ref<tir::Var>&)> replace = [&](const Ref<tir::Var>& v) {
    auto it = map.find(v);
    return it == map.end() ? Ref<tir::PrimExpr>() : it->second;
  };
  return substitute(e, replace);
}

Ref<tir::PrimExpr> substitute(
    const Ref<tir::PrimExpr>& e,
    const std::function<Ref<tir::PrimExpr>(const Ref<tir::Var>&)>& replace) {
  if (!e) return e;
  Substituter s(replace);
  return s.mutate_expr(e);
}

}  // namespace relax::analysis::arith

// Replacing variables in a PrimExpr by expressions, sharing every untouched subtree. Shared
// subtrees are rewritten once, so a DAG costs its number of distinct nodes.
#pragma once

#include <functional>
#include <unordered_map>

#include "ir/tir.h"

namespace relax::analysis::arith {

using VarMap = std::unordered_map<ir::Ref<ir::tir::Var>, ir::Ref<ir::tir::PrimExpr>>;

// `e` with every var in `map` replaced by its value (no simplification; see Analyzer::substitute).
ir::Ref<ir::tir::PrimExpr> substitute(const ir::Ref<ir::tir::PrimExpr>& e, const VarMap& map);

// The same with a function: it returns the replacement for a var, or null to keep the var.
ir::Ref<ir::tir::PrimExpr> substitute(
    const ir::Ref<ir::tir::PrimExpr>& e,
    const std::function<ir::Ref<ir::tir::PrimExpr>(const ir::Ref<ir::tir::Var>&)>& replace);

}  // namespace relax::analysis::arith

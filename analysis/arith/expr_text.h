// A compact TVMScript-like rendering of a PrimExpr ("n * 2 + m", "T.min(a, b) // 4"), with only
// the parentheses precedence needs. For test expectations and messages; the module printer lives
// in the syntax layer.
#pragma once

#include <string>

#include "ir/tir.h"

namespace relax::analysis::arith {

std::string expr_text(const ir::Ref<ir::tir::PrimExpr>& e);

}  // namespace relax::analysis::arith

// Deep equality and hashing of PrimExprs with variables compared by identity (unlike
// ir::structural_equal, which matches variables up to renaming): `x + y` and `y + x` differ, and
// two distinct vars named `n` differ. This is the notion of "the same expression" arithmetic needs.
#pragma once

#include <cstddef>

#include "ir/tir.h"

namespace relax::analysis::arith {

bool expr_equal(const ir::Ref<ir::tir::PrimExpr>& a, const ir::Ref<ir::tir::PrimExpr>& b);

// Consistent with expr_equal: equal expressions hash equal.
size_t expr_hash(const ir::Ref<ir::tir::PrimExpr>& e);

}  // namespace relax::analysis::arith

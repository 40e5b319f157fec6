// Evaluation of integer and boolean PrimExprs for given variable values, with TVM's semantics:
// floor division for FloorDiv/FloorMod, truncation for Div/Mod, both sides of a Select evaluated.
// For tests (simplified vs original) and for folding.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ir/tir.h"

namespace relax::analysis::arith {

// Values of variables. Holds the vars, so keys stay valid.
class Assignment {
 public:
  void set(const ir::Ref<ir::tir::Var>& var, int64_t value);
  std::optional<int64_t> get(const ir::tir::Var* var) const;
  void clear() { values_.clear(); }

 private:
  std::vector<std::pair<ir::Ref<ir::tir::Var>, int64_t>> values_;
};

// The value of `e` (bools as 0 or 1), or nullopt when it is undefined or unknown: division by
// zero, a signed result outside its dtype (overflow), an unassigned var, a float or anything
// other than integer arithmetic, comparisons, logic, select, casts between integer types, let
// and T.if_then_else.
std::optional<int64_t> evaluate(const ir::Ref<ir::tir::PrimExpr>& e, const Assignment& values);

}  // namespace relax::analysis::arith

// Structural equality and hashing of IR: two nodes are equal when they have the same shape and
// values, up to a consistent renaming of variables (Relax vars, TIR vars, buffers). Spans and
// name hints are ignored; module members are matched by name, in any order.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "ir/object.h"

namespace relax::ir {

bool structural_equal(const ObjectRef& lhs, const ObjectRef& rhs);

// A description of the first difference ("Function.body: Call.args[1]: IntImm 3 vs 4"), or
// nullopt when the nodes are structurally equal. For test failure messages.
std::optional<std::string> structural_diff(const ObjectRef& lhs, const ObjectRef& rhs);

// A hash consistent with structural_equal: equal nodes hash equal.
size_t structural_hash(const ObjectRef& node);

}  // namespace relax::ir

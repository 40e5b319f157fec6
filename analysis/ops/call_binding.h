// Binding a written op call to the op's schema. TVMScript lets a user write
// `R.sum(x, [1], True)`, `R.reshape(x, shape=s)` or `R.nn.conv2d(x, w, padding=1)`; the
// canonical call has the op's arguments in position and every attribute, in declaration order,
// with its default filled in and its value converted to the attribute's kind — the form TVM's
// printer shows.
#pragma once

#include "analysis/ops/op_registry.h"
#include "ir/diagnostic.h"
#include "ir/expr.h"

namespace relax::analysis {

// Returns the canonical call, or null after reporting: too many arguments (E0302), an unknown
// keyword (E0303), a missing argument or attribute (E0304), an attribute value of the wrong
// kind (E0305). A call that is already canonical is returned as is (same node).
ir::Ref<ir::Call> bind_op_call(const OpInfo& op, const ir::Ref<ir::Call>& call,
                               ir::DiagnosticBag& diags);

// Whether `n` positional arguments fit the op's schema: at least its required arguments and at
// most all of them (any number past the required ones when the last is variadic). A canonical
// call always fits; normalize hooks and inference index arguments only after this holds.
bool arity_fits(const OpInfo& op, size_t n);

// Converts a value to an attribute kind (null ref for None); nullopt when it does not fit.
// Accepts boxed values, TIR immediates and the Relax forms a positional attribute takes
// (`R.prim_value(1)`, a tuple of them, `R.str`, `R.dtype`, a ShapeExpr).
std::optional<ir::ObjectRef> convert_attr(const AttrSpec& spec, const ir::ObjectRef& value);

}  // namespace relax::analysis

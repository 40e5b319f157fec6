// Where a variable is used. Variables are shared nodes whose span is their definition, so a use
// has no span of its own; diagnostics about an argument find the argument in the call's text.
#pragma once

#include "ir/expr.h"
#include "ir/span.h"

namespace relax::analysis {

// The span of argument `i` of `call` as written: a variable's name inside the call's source
// text (the k-th occurrence when the same variable is passed k times), another argument's own
// span, or the call's span when the text cannot be read.
ir::Span argument_span(const ir::Call& call, size_t i);

// The span of the identifier `name` inside `within` (the `occurrence`-th one, counting from 0;
// the last one when there are fewer), skipping strings, keyword names (`x=`) and, unless
// `attribute` (a module function written `cls.f`), attribute names; unknown when absent.
ir::Span find_identifier(ir::Span within, const std::string& name, size_t occurrence = 0,
                         bool attribute = false);

}  // namespace relax::analysis

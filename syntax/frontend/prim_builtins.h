// The T.* builtins that build PrimExprs and are shared by both dialects: dtype constructors
// (`T.int64(8)`, `T.float32("inf")`, casts, declarations `n = T.int64()`), `T.Cast`, min/max,
// division helpers, `T.Select`, and the explicit node constructors (`T.Add(a, b)`) that the
// printer writes when an operator would fold.
#pragma once

#include <optional>
#include <string_view>

#include "syntax/frontend/context.h"

namespace relax::syntax {

void register_prim_builtins(Frontend& fe);

// The dtype a `T.<name>` dtype constructor stands for ("T.int64" -> int64, "T.f32" -> float32),
// or nullopt.
std::optional<ir::DataType> dtype_of_constructor(std::string_view builtin_name);

// Calls the dtype constructor `T.<dtype>` (used for names not registered one by one).
Value call_dtype_constructor(Frontend& fe, const CallArgs& call, ir::DataType dtype);

// TVMScript's intrinsic wrappers (`T.exp`, `T.if_then_else`, `T.floordiv`, ...) accept and drop
// a `dtype=` keyword: the result type follows the arguments. Wraps `inner` the same way,
// warning (W0602) when the dropped dtype is not the type of the result.
Builtin dropping_dtype_keyword(Builtin inner);

}  // namespace relax::syntax

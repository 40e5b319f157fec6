// A harness for op-inference tests: parse a .relax snippet, and for every binding whose value
// is an op call, bind the call to the op's schema, run its normalize hook and its inference with
// the arguments' struct info taken from parameter annotations, earlier results and literal
// values (no normalizer involved). Results are compared as printed text.
#pragma once

#include <string>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/expr.h"

namespace relax::test {

struct OpResult {
  std::string sinfo;                   // the inferred struct info as printed; "" when it failed
  std::string call;                    // the canonical call as printed; "" when binding failed
  std::vector<std::string> errors;     // "E0313@w": code and the source text the error points at
  std::vector<std::string> warnings;   // same, for warnings
  std::vector<std::string> positions;  // "E0313@3:20": code, 1-based line and column
  std::string messages;                // "E0313: message" lines, every diagnostic
};

// Every op-call binding of the first function in `source`, in order. Parse errors make a
// single result whose `messages` hold them.
std::vector<OpResult> infer_bindings(const std::string& source);

// `gv = CALL` inside `def f(PARAMS):`; the result of that binding. The call is on line 3.
OpResult infer_op(const std::string& params, const std::string& call);

// The struct info of a leaf argument (variable, constant, shape, prim value, tuple of them).
ir::Ref<ir::StructInfo> leaf_struct_info(const ir::Ref<ir::Expr>& expr);

// Runs one op call through binding, normalize and inference. Returns the struct info (null on
// failure) and sets `canonical` to the canonical call (null when binding failed).
ir::Ref<ir::StructInfo> infer_call(const ir::Ref<ir::Call>& call, ir::DiagnosticBag& diags,
                                   ir::Ref<ir::Call>& canonical);

}  // namespace relax::test

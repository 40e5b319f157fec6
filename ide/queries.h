// What is at a position of a checked document: the symbol, the Relax binding, the call and its
// argument, the enclosing function. One place for the questions an editor asks (hover,
// go-to-definition, signature help, outline), as clangd's SelectionTree is for C++. Offsets are
// byte offsets into the document's text; an offset just after a name is on it (an editor's
// cursor after a word).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/check.h"
#include "ir/expr.h"
#include "syntax/cst.h"
#include "syntax/symbol_index.h"

namespace relax::ide {

// The symbol named at `offset` (a definition or a use), or null.
const syntax::Symbol* symbol_at(const analysis::CheckResult& doc, uint32_t offset);

// The innermost function (Relax or TIR) whose definition holds `offset`; functions that failed
// to build are found too (their symbol keeps name and extent). Null outside every function.
const syntax::Symbol* enclosing_function(const analysis::CheckResult& doc, uint32_t offset);

// The innermost Relax binding of the normalized module whose text holds `offset` (the
// bindings the front end pulls out of nested calls count: on `R.multiply` inside
// `y = R.add(R.multiply(x, x), x)` it is that call's binding), with its function's name.
struct BindingAt {
  ir::Ref<ir::Binding> binding;
  std::string function;
};
std::optional<BindingAt> binding_at(const analysis::CheckResult& doc, uint32_t offset);

// The innermost call whose parentheses hold `offset` (between `(` and `)`, both excluded).
struct CallAt {
  syntax::Node node;   // the call
  std::string callee;  // as written: "R.add", "R.nn.conv2d", "cls.helper", "T.grid"
  // A module function called as `cls.f`, `Module.f` or `f`, or null (an op or builtin).
  const syntax::Symbol* function = nullptr;
  // 0-based index of the argument the offset is in, counting the positional arguments before
  // it (in `f(a, b, |)` it is 2); with `keyword` set, the keyword argument's position.
  uint32_t argument = 0;
  std::string keyword;  // the keyword of a `key=value` argument the offset is in, else ""
};
std::optional<CallAt> call_at(const analysis::CheckResult& doc, uint32_t offset);

}  // namespace relax::ide

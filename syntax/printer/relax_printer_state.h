// Internal interface between the files of the Relax printer: the state of the outermost Relax
// function being printed (TVM declares symbolic variables and the `cls = Module` alias at its
// top, wherever they are first needed) and the lines a body is printed into.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "ir/expr.h"
#include "syntax/printer/context.h"

namespace relax::syntax::relax_printer {

struct FunctionState {
  // Statements that open the outermost function's body: `n = T.int64()` declarations,
  // R.func_attr, `cls = Module`, in the order they were first needed.
  std::vector<std::string> header;
  // The name frame of the outermost function: symbolic vars are defined there.
  size_t frame = 0;
  // While the outermost signature is printed: the symbolic vars it defines, printed as strings.
  std::unordered_set<const ir::Object*>* signature_vars = nullptr;
  bool cls_printed = false;
  // Functions printed alone (not in a module class): global vars print by name.
  bool standalone = false;
  // Relax variables referenced anywhere in the function (a void binding whose var is never
  // used prints as a bare expression statement).
  std::unordered_set<const ir::Object*> used;
};

// The state of the function being printed, or null (one-line texts outside functions).
inline FunctionState* current_state(PrinterContext& ctx) {
  return ctx.relax_function;
}

// Installs a function's state in the printer's context for the lifetime of the guard.
class StateGuard {
 public:
  StateGuard(PrinterContext& ctx, FunctionState* state) : ctx_(ctx), saved_(ctx.relax_function) {
    ctx.relax_function = state;
  }
  ~StateGuard() { ctx_.relax_function = saved_; }
  StateGuard(const StateGuard&) = delete;
  StateGuard& operator=(const StateGuard&) = delete;

 private:
  PrinterContext& ctx_;
  FunctionState* saved_;
};

// A PrimExpr in a Relax context: symbolic vars not yet named are declared (`n = T.int64()` at
// the function's top); inside the outermost signature, an expression over the vars the
// signature defines is quoted (`"n * 2"`), as TVM's legacy printer does.
std::string print_dim(PrinterContext& ctx, const ir::Ref<ir::tir::PrimExpr>& e);

// A call's callee position: extern functions print as their quoted name.
std::string print_callee(PrinterContext& ctx, const ir::Ref<ir::Expr>& e);

// A virtual device as TVM names it: "kind:index" among the module's vdevices of that kind.
std::string vdevice_name(PrinterContext& ctx, const ir::VDevice& vd);

}  // namespace relax::syntax::relax_printer

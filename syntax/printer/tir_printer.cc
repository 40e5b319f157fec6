// TIR printer (to be written: see printer/context.h).
#include "syntax/printer/context.h"

namespace relax::syntax {

void print_prim_func(PrinterContext& ctx, const ir::tir::PrimFunc& func, const std::string& name, bool standalone) {
  (void)func, (void)standalone;
  ctx.uses_tir = true;
  ctx.writer.line("@T.prim_func");
  ctx.writer.line("def " + name + "(): ...");
}

}  // namespace relax::syntax

// Relax printer (to be written: see printer/context.h).
#include "syntax/printer/context.h"

namespace relax::syntax {

void print_relax_function(PrinterContext& ctx, const ir::Function& func, const std::string& name, bool standalone) {
  (void)func, (void)standalone;
  ctx.uses_relax = true;
  ctx.writer.line("@R.function");
  ctx.writer.line("def " + name + "(): ...");
}

void print_extern_func(PrinterContext& ctx, const ir::ExternFunc& func, const std::string& name) {
  ctx.uses_relax = true;
  ctx.writer.line(name + " = R.ExternFunc(" + quote_string(func.global_symbol) + ")");
}

std::string print_struct_info(PrinterContext& ctx, const ir::Ref<ir::StructInfo>& sinfo) {
  (void)ctx, (void)sinfo;
  return "R.Object";
}

std::string print_relax_expr(PrinterContext& ctx, const ir::Ref<ir::Expr>& expr) {
  (void)ctx, (void)expr;
  return "...";
}

}  // namespace relax::syntax

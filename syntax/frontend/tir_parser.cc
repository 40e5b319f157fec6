// TIR front end (to be written: see tir_parser.h).
#include "syntax/frontend/tir_parser.h"

namespace relax::syntax {

void register_tir_builtins(Frontend& fe) { (void)fe; }

ir::Ref<ir::tir::PrimFunc> parse_prim_func(Frontend& fe, Node decorated, const ir::Ref<ir::GlobalVar>& gvar) {
  fe.error("E0299", decorated, "prim_funcs are not supported yet");
  (void)gvar;
  return nullptr;
}

}  // namespace relax::syntax

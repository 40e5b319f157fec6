// Relax front end (to be written: see relax_parser.h).
#include "syntax/frontend/relax_parser.h"

namespace relax::syntax {

void register_relax_builtins(Frontend& fe) { (void)fe; }

void declare_relax_function(Frontend& fe, Node decorated, const ir::Ref<ir::GlobalVar>& gvar) {
  (void)fe, (void)decorated, (void)gvar;
}

ir::Ref<ir::Function> parse_relax_function(Frontend& fe, Node decorated, const ir::Ref<ir::GlobalVar>& gvar) {
  fe.error("E0299", decorated, "Relax functions are not supported yet");
  (void)gvar;
  return nullptr;
}

}  // namespace relax::syntax

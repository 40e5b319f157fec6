// The one list of lint rule families; each family registers its rules from its own file.
//
//   W1001 unused-binding             on   unused.cc
//   W1002 unused-parameter           on   unused.cc
//   W1003 shadowed-name              on   shadowing.cc
//   W1004 unused-dataflow-value      on   unused.cc
//   W1005 redundant-match-cast       on   struct_info_rules.cc
//   W1006 weak-annotation            on   struct_info_rules.cc
//   W1007 unused-symbolic-var        on   symbolic_rules.cc
//   W1008 unused-private-function    on   module_rules.cc
//   W1009 empty-dataflow-block       on   syntax_rules.cc
//   W1010 missing-return-annotation  on   module_rules.cc
//   W1011 redundant-force-pure       on   purity_rules.cc
//   W1012 print-call                 off  syntax_rules.cc
//   W1013 legacy-spelling            off  spelling_rules.cc (a note)
//   W1014 mixed-spellings            off  spelling_rules.cc
//
// R.call_tir's argument count against the prim_func is not a lint rule: inference checks the call
// against the prim_func's signature (E0372).
#include "analysis/lint/lint.h"

namespace relax::analysis::lint {

void register_unused_rules(LintRegistry& registry);
void register_shadowing_rules(LintRegistry& registry);
void register_struct_info_rules(LintRegistry& registry);
void register_symbolic_rules(LintRegistry& registry);
void register_module_rules(LintRegistry& registry);
void register_syntax_rules(LintRegistry& registry);
void register_purity_rules(LintRegistry& registry);
void register_spelling_rules(LintRegistry& registry);

void register_builtin_lints(LintRegistry& registry) {
  register_unused_rules(registry);
  register_shadowing_rules(registry);
  register_struct_info_rules(registry);
  register_symbolic_rules(registry);
  register_module_rules(registry);
  register_syntax_rules(registry);
  register_purity_rules(registry);
  register_spelling_rules(registry);
}

}  // namespace relax::analysis::lint

// The front end: a .relax text (its syntax tree) to an IRModule, with diagnostics. It resolves
// names, attaches a Span to every node and reports syntax errors and unknown names; it does not
// infer struct info (analysis does). It keeps going: every function that parses is returned,
// along with all the errors of the file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/module.h"
#include "syntax/cst.h"
#include "syntax/symbol_index.h"

namespace relax::syntax {

struct FrontendResult {
  // Never null. Holds every function that parsed without errors.
  ir::Ref<ir::IRModule> module;
  // True when the file defines an `@I.ir_module` class; false for top-level functions.
  bool is_module_class = false;
  // Functions left out because they had errors, by name.
  std::vector<std::string> failed_functions;
  // The syntax tree the module was built from (spans point into its text).
  std::shared_ptr<const SyntaxTree> tree;
  // Where each name the front end resolved is defined and used. Never null after parse_tree.
  std::shared_ptr<const SymbolIndex> symbols;
};

// Builds the module of a parsed file. Syntax errors (ERROR and MISSING nodes) are reported
// with human messages, then every statement without errors is turned into IR.
FrontendResult parse_tree(std::shared_ptr<const SyntaxTree> tree, ir::DiagnosticBag& diags);

// Registers `text` under `name` in the global SourceManager, parses it and builds the module.
FrontendResult parse_text(std::string text, const std::string& name, ir::DiagnosticBag& diags);

// The names the front end gives a meaning to ("R.Tensor", "R.dataflow", "T.grid", "T.axis.spatial",
// "R.operator.add", ...), sorted: what completion offers besides the ops.
const std::vector<std::string>& builtin_names();

// Reports the syntax errors of a tree (E01xx), one per ERROR/MISSING region. Exposed for the
// formatter and the language server, which need them without building IR.
void report_syntax_errors(const SyntaxTree& tree, ir::DiagnosticBag& diags);

}  // namespace relax::syntax

// State shared by the module, Relax and TIR printers while one text is produced: options,
// the module (for `cls` references and virtual device indices), names, the writer, and which
// dialect headers the text needs.
#pragma once

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "syntax/printer.h"
#include "syntax/printer/text_util.h"

namespace relax::syntax {

namespace relax_printer {
struct FunctionState;
}

struct PrinterContext {
  explicit PrinterContext(const PrintOptions& o, const ir::IRModule* m = nullptr)
      : options(o), module(m) {}

  const PrintOptions& options;
  const ir::IRModule* module;  // null when printing a lone function
  NameTable names;
  Writer writer;
  // Header lines the text needs: `# from tvm.script import ir as I` / tir as T / relax as R.
  bool uses_ir = false;
  bool uses_tir = false;
  bool uses_relax = false;
  // Constants printed as metadata references (`metadata["relax.expr.Constant"][i]`): their
  // index and payload, keyed by the payload (constants that share one share an index) or, for
  // opaque references, by the node. The module printer writes the payloads as TVM's metadata
  // section (show_meta) or ends the text with TVM's "Metadata omitted" comment.
  struct MetadataEntry {
    int index;
    const ir::TensorData* data;  // null for an opaque reference
  };
  std::unordered_map<const void*, MetadataEntry> metadata;
  // Symbolic variables the current profile declares as `n = TypeVar("n")` lines above the
  // module or functions (TEXT_FORMAT.md 2.6), by name, sorted as they are printed.
  std::set<std::string> type_vars;
  // The outermost Relax function being printed (relax_printer::StateGuard installs it), or null.
  relax_printer::FunctionState* relax_function = nullptr;

  bool legacy() const { return options.profile == Profile::kLegacy; }
  // The name a variable, buffer or function was defined with; "<undefined>" marks a bug or a
  // use outside the definition's scope.
  std::string name_of(const ir::Object* node) const {
    if (const std::string* n = names.find(node)) return *n;
    return "";
  }
};

// Expression-level printing of PrimExprs, shared by both dialects. `relax_context` prints
// int64 immediates bare (shapes, prim values); TIR prints every non-int32 immediate typed
// (`T.int64(8)`). Unknown variables print by their name hint.
std::string print_prim_expr(PrinterContext& ctx, const ir::Ref<ir::tir::PrimExpr>& expr,
                            bool relax_context);

// An attribute value (func_attr, op attributes, annotations): boxed Python values bare, strings
// quoted, arrays as lists, maps as dicts (string-keyed ones sorted), PrimExprs as TIR, buffers
// and variables by name.
std::string print_attr_value(PrinterContext& ctx, const ir::ObjectRef& value, bool relax_context);

// A dictionary of attributes `{"a": 1, "b": True}`, sorted by key as TVM prints string-keyed maps.
std::string print_attrs_dict(PrinterContext& ctx, const ir::Attrs& attrs, bool relax_context);

// The printers of each dialect (relax_printer.cc, tir_printer.cc).
void print_relax_function(PrinterContext& ctx, const ir::Function& func, const std::string& name,
                          bool standalone);
void print_extern_func(PrinterContext& ctx, const ir::ExternFunc& func, const std::string& name);
void print_prim_func(PrinterContext& ctx, const ir::tir::PrimFunc& func, const std::string& name,
                     bool standalone);
std::string print_struct_info(PrinterContext& ctx, const ir::Ref<ir::StructInfo>& sinfo);
std::string print_relax_expr(PrinterContext& ctx, const ir::Ref<ir::Expr>& expr);

}  // namespace relax::syntax

// The printer: any IRModule (or function) to canonical TVMScript text, as TVM's printer writes
// it (`mod.script()`), in the legacy profile by default or the current one on request
// (TEXT_FORMAT.md §6). `parse(print(m))` is structurally equal to `m`, and printing is a
// fixpoint.
#pragma once

#include <string>

#include "ir/expr.h"
#include "ir/module.h"
#include "ir/tir.h"

namespace relax::syntax {

enum class Profile { kLegacy, kCurrent };

struct PrintOptions {
  Profile profile = Profile::kLegacy;
  // Print the struct info of every binding (TVM's show_all_struct_info); when false, hide
  // annotations that equal what inference would give.
  bool show_all_struct_info = true;
  // Write the payload of the constants printed as `metadata["relax.expr.Constant"][i]`: the
  // text then starts with TVM's metadata section (`metadata = tvm.ir.load_json(...)`, TVM's
  // show_meta), so that it reads back with its values. When false, or when a constant has no
  // payload (an opaque reference read without its section), the text ends with TVM's
  // "Metadata omitted" comment instead.
  bool show_meta = false;
};

// A module as an `@I.ir_module` class, with the import-comment header.
std::string print_module(const ir::IRModule& module, const PrintOptions& options = {});

// Functions printed alone (TVM's `func.script()`): a Relax function, prim_func or several of
// them from a file of top-level functions, each with the header once at the top.
std::string print_functions(const ir::IRModule& module, const PrintOptions& options = {});

// One-line texts for messages, hovers and tests (no header): "R.Tensor((n, 4), dtype=\"float32\")",
// "n * 2 + 1", "R.add(x, y)".
std::string to_text(const ir::Ref<ir::StructInfo>& sinfo, const PrintOptions& options = {});
std::string to_text(const ir::Ref<ir::tir::PrimExpr>& expr, const PrintOptions& options = {});
std::string to_text(const ir::Ref<ir::Expr>& expr, const PrintOptions& options = {});

}  // namespace relax::syntax

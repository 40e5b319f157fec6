// The TIR verifier: checks that a prim_func is well formed where lowering and code generation
// rely on it. Loops have integer bounds (E0704); every variable is defined before it is used
// and in scope where it is used (E0702); buffer accesses have as many indices as the buffer has
// dimensions and store values of the buffer's element type (E0703); no loop is bound to a thread
// on a CPU target (E0700); once lowered, no block is left (E0705). Run between lowering steps in
// debug builds.
#pragma once

#include <string>

#include "ir/diagnostic.h"
#include "ir/tir.h"

namespace relax::compiler::tir {

struct VerifyOptions {
  // The function must be in loop form: no blocks, no match_buffer.
  bool lowered = false;
  // The function is for a CPU target: thread bindings are errors.
  bool cpu = true;
  // Names the step that produced the function, for messages ("after FlattenBuffer").
  std::string stage;
  // The function's name, for messages.
  std::string func_name;
};

// Appends one diagnostic per problem to `diags`; true when there was none.
bool verify_prim_func(const ir::tir::PrimFunc& func, ir::DiagnosticBag& diags,
                      const VerifyOptions& options = {});

}  // namespace relax::compiler::tir

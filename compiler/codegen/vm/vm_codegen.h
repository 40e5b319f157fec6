// VM codegen: translates the Relax functions of a module that went through the build pipeline
// (compiler/pipeline.cc) into VM bytecode with vm::ExecutableBuilder (SEMANTICS.md §5.2-§5.3).
// Parameters arrive in registers 0..n-1; each binding evaluates into a register (or a constant
// or immediate argument); calls of prim_funcs become kernel calls, calls of extern functions
// extern calls, `vm.builtin.*` packed calls builtin calls, calls of module functions VM calls
// (recursion included), calls of a closure value invoke_closure; `if` becomes read_if_cond, If
// and Goto with a merge register. Run-time checks and symbolic shapes were made explicit builtin
// calls by VMShapeLower (compiler/relax/vm_shape_lower.cc), which must have run: its
// `relax.vm_shape_heap` attribute names the shape heap's slots for messages; a match_cast is
// its value here (checked before), and `R.call_builtin_with_ctx` passes the context register
// first. Closures made by LambdaLift become make_closure / invoke_closure builtin calls.
// `y = x` and `y = R.match_cast(x, ...)` share x's register and `R.vm.kill_object(x)` kills
// that register, so a value is dead after a kill of any of its names (compiler/relax/kills.h).
// A use of a killed value is reported before any code is emitted (E0788), and the executable's
// validation rejects a read of a killed register (E0786 names the function, register and
// variable).
// Not supported (reported, E0780-E0787): ops LegalizeOps has not lowered, nested functions
// (LambdaLift must run first), call_tir_inplace, symbolic values left by a missing
// VMShapeLower, values of unknown kind.
#pragma once

#include <memory>

#include "ir/diagnostic.h"
#include "ir/module.h"
#include "vm/executable.h"

namespace relax::compiler::codegen_vm {

// Emits every Relax function of `module` into `builder` (which must be fresh). Returns false
// when a function cannot be translated; the reasons are in `diags`.
bool generate(const ir::IRModule& module, vm::ExecutableBuilder& builder, ir::DiagnosticBag& diags);

// generate() then finish(): the executable, or null with the reasons in `diags`.
std::shared_ptr<vm::Executable> build_executable(const ir::IRModule& module,
                                                 ir::DiagnosticBag& diags);

}  // namespace relax::compiler::codegen_vm

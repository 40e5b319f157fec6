// The build driver: an IRModule and a target in, an executable and its kernels out.
//   auto result = relax::compiler::build(module, Target::host(), ctx);
//   if (!result.ok()) ... ctx.diagnostics() ...
//   auto vm = relax::vm::Module::from_parts(result.executable, result.kernels);
// Steps: the default pipeline (pipeline.cc) under the context's instruments; VM codegen of the
// Relax functions; the kernel compiler for the prim_funcs left in the module. The kernel
// compiler is a hook: the LLVM code generator installs it (set_kernel_compiler); a test or an
// embedder may pass its own in BuildOptions (for example a vm::KernelTable of C++ kernels).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/pass.h"
#include "compiler/target.h"
#include "ir/module.h"
#include "ir/tir.h"
#include "vm/executable.h"
#include "vm/kernel_library.h"

namespace relax::compiler {

// The prim_funcs of a lowered module, by kernel name.
using PrimFuncList = std::vector<std::pair<std::string, ir::Ref<ir::tir::PrimFunc>>>;

// Compiles prim_funcs into a library resolving each by name; null with diagnostics on failure.
using KernelCompiler = std::function<std::shared_ptr<const vm::KernelLibrary>(
    const PrimFuncList& funcs, const Target& target, ir::DiagnosticBag& diags)>;

// The process-wide kernel compiler (the LLVM JIT once it is linked in); null when none.
void set_kernel_compiler(KernelCompiler compiler);
const KernelCompiler& kernel_compiler();

// Writes one shared library holding the kernels and the serialized executable (`relax build
// -o model.so`); the LLVM code generator installs it. Returns false with diagnostics. `timings`,
// when set, gets the code generator's steps (TIR lowering, LLVM optimization, object emission,
// linking).
using LibraryWriter = std::function<bool(
    const PrimFuncList& funcs, const std::vector<uint8_t>& executable, const Target& target,
    const std::string& path, ir::DiagnosticBag& diags, Timings* timings)>;
void set_library_writer(LibraryWriter writer);
const LibraryWriter& library_writer();

// The kernels as text (`relax build --emit=llvm|asm`): LLVM IR after LLVM's optimization
// pipeline, or the target's assembly. Null with diagnostics on error.
enum class KernelText { kLLVM, kAssembly };
std::optional<std::string> emit_kernels(const PrimFuncList& funcs, const Target& target,
                                        KernelText kind, ir::DiagnosticBag& diags,
                                        Timings* timings = nullptr);

// Each kernel lowered to the loop form code generators take (compiler/tir/lower.h), as
// `relax build --emit=tir` prints them ("TIR lowering" in `timings`). Null on error.
std::optional<PrimFuncList> lower_kernels(const PrimFuncList& funcs, const Target& target,
                                          ir::DiagnosticBag& diags, Timings* timings = nullptr);

struct BuildOptions {
  // Overrides the process-wide kernel compiler.
  KernelCompiler kernel_compiler;
  // Run the pipeline and codegen but do not compile kernels (`relax build --emit=bytecode`).
  bool skip_kernels = false;
  // The Relax pipeline to run instead of default_pipeline(target): for instance the default one
  // with more passes placed in it (place_passes: plugins, a schedule file).
  std::optional<Pass> pipeline;
};

struct BuildResult {
  ir::Ref<ir::IRModule> lowered;                     // the module after the pipeline
  std::shared_ptr<vm::Executable> executable;        // null on failure
  std::shared_ptr<const vm::KernelLibrary> kernels;  // null when no prim_func needs compiling
  PrimFuncList prim_funcs;                           // the kernels the executable calls
  bool ok() const { return executable != nullptr; }
};

// Runs the default pipeline for `target` with `ctx` (instruments, opt level, diagnostics),
// then tir.InstrumentBoundCheckers when ctx.config sets "tir.instrument_bound_checkers"
// (--bounds-check), then VM codegen and the kernel compiler. Errors are reported in
// ctx.diagnostics(): E0788 the input uses a value after its kill (checked first), E0790 no kernel
// compiler is available for a module that has prim_funcs, E0791 the pipeline reported errors.
BuildResult build(ir::Ref<ir::IRModule> module, const Target& target, PassContext& ctx,
                  const BuildOptions& options = {});

}  // namespace relax::compiler

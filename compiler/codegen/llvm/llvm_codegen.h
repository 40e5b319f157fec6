// LLVM code generation for the CPU: lowered prim_funcs to LLVM IR with the kernel calling
// convention of vm/kernel_abi.h (one `relax_kernel_fn` per prim_func, which unpacks and checks
// its tensor arguments, binds symbolic shape variables and runs the loops), compiled for the
// host CPU either in process (ORC LLJIT, a vm::KernelLibrary) or into a shared library that also
// carries the serialized executable. Every function is lowered first (compiler/tir/lower.h),
// which changes nothing on a function that is already lowered.
//
//   ir::DiagnosticBag diags;
//   auto lib = codegen::jit_compile({{"add", add_func}}, Target::host(), diags);
//   relax_kernel_fn add = lib->resolve("add");
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "compiler/target.h"
#include "ir/diagnostic.h"
#include "ir/module.h"
#include "ir/tir.h"
#include "vm/kernel_library.h"

namespace relax::compiler::codegen {

// A prim_func and the symbol its kernel is exported under; `member` is its name in the module,
// by which other prim_funcs call it (empty: the same as `name`).
struct KernelSource {
  std::string name;
  ir::Ref<ir::tir::PrimFunc> func;
  std::string member;
};

// Why LLVM cannot compile for `target` (a triple it has no target for, an unknown -mcpu or
// -mattr feature with close matches, a 32-bit CPU for a 64-bit triple), or "" when it can. The
// code generator reports the same as E0712; `relax build/run --target` as a usage error, before
// anything is compiled.
std::string check_target(const Target& target);

// Every prim_func of a module, named by its "global_symbol" attribute or else its member name.
std::vector<KernelSource> prim_funcs_of(const ir::IRModule& module);

// Compiles the functions in process. Null (with E07xx diagnostics) when a function cannot be
// lowered or compiled. The library owns the generated code; kernels stay valid while it lives.
std::unique_ptr<vm::KernelLibrary> jit_compile(const std::vector<KernelSource>& funcs,
                                               const Target& target, ir::DiagnosticBag& diags);

// The LLVM IR module of the functions as text (`--emit=llvm`), after LLVM's optimization
// pipeline when `optimize` is set. Empty on error. `timings` (when set) gets the steps' times
// ("TIR lowering", "LLVM IR generation", "LLVM optimization"), here and below.
std::string emit_llvm_ir(const std::vector<KernelSource>& funcs, const Target& target,
                         ir::DiagnosticBag& diags, bool optimize = true,
                         Timings* timings = nullptr);

// The optimized kernels as the target's assembly (`--emit=asm`; "assembly emission"). Empty
// with diagnostics on error.
std::string emit_assembly(const std::vector<KernelSource>& funcs, const Target& target,
                          ir::DiagnosticBag& diags, Timings* timings = nullptr);

// Writes a shared library at `path` exporting each kernel under its name and
// relax_executable_blob / relax_executable_blob_size / relax_kernel_abi_version (kernel_abi.h),
// so that vm::SharedLibrary::open(path, true) loads it without LLVM. Emits an object file
// ("object emission") and links it with the system C compiler (`cc -shared`, or $CC; "linking")
// into a temporary file beside `path`, renamed over it once complete. False (with diagnostics)
// on error.
bool write_shared_library(const std::vector<KernelSource>& funcs,
                          std::span<const uint8_t> executable_bytes, const Target& target,
                          const std::string& path, ir::DiagnosticBag& diags,
                          Timings* timings = nullptr);

}  // namespace relax::compiler::codegen

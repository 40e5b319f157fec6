// What the LLVM code generator's files share: the target machine for a Target, generating the
// module of a set of kernels and LLVM's optimization pipeline. Internal to compiler/codegen/llvm.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "compiler/codegen/llvm/llvm_codegen.h"

namespace relax::compiler::codegen {

// The CPU name and feature string a Target means (the host's when the target leaves them empty).
struct CpuDescription {
  std::string triple;
  std::string cpu;
  std::string features;  // "+avx2,+avx512f,..."
  int vector_bits = 0;   // preferred vector width, 0 when LLVM should choose
};
CpuDescription describe_cpu(const Target& target);

// Initializes LLVM's native target once; the target machine for `target` (position-independent
// code, aggressive optimization), or null with E0712.
std::unique_ptr<llvm::TargetMachine> create_target_machine(const Target& target,
                                                           ir::DiagnosticBag& diags);

// Lowers the functions that still have blocks and generates one module holding every kernel
// (data layout and triple of `tm`, verified). Null with diagnostics on error. `timings` (when
// set) gets "TIR lowering" and "LLVM IR generation".
std::unique_ptr<llvm::Module> generate_module(llvm::LLVMContext& context,
                                              const std::vector<KernelSource>& funcs,
                                              const Target& target, llvm::TargetMachine& tm,
                                              ir::DiagnosticBag& diags, Timings* timings = nullptr);

// LLVM's O3 module pipeline for the target machine.
void optimize_module(llvm::Module& module, llvm::TargetMachine& tm);

}  // namespace relax::compiler::codegen

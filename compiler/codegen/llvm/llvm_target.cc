// Target machines for the host CPU (or the CPU a target names) and the optimization pipeline.
#include <mutex>

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>

#include "compiler/codegen/llvm/llvm_internal.h"

namespace relax::compiler::codegen {

namespace {

void initialize_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

}  // namespace

CpuDescription describe_cpu(const Target& target) {
  CpuDescription d;
  d.triple = target.triple.empty() ? llvm::sys::getProcessTriple() : target.triple;
  bool host = target.mcpu.empty() && target.triple.empty();
  d.cpu = target.mcpu.empty() ? std::string(llvm::sys::getHostCPUName()) : target.mcpu;
  bool has_avx512 = false;
  if (host) {
    for (const auto& feature : llvm::sys::getHostCPUFeatures()) {
      if (!d.features.empty()) d.features += ",";
      d.features += (feature.second ? "+" : "-") + feature.first().str();
      if (feature.first() == "avx512f" && feature.second) has_avx512 = true;
    }
  }
  if (!target.mattr.empty()) {
    if (!d.features.empty()) d.features += ",";
    d.features += target.mattr;
  }
  d.vector_bits = target.vector_bits > 0 ? target.vector_bits : (has_avx512 ? 512 : 0);
  return d;
}

std::unique_ptr<llvm::TargetMachine> create_target_machine(const Target& target,
                                                           ir::DiagnosticBag& diags) {
  initialize_llvm();
  if (target.kind != Target::Kind::kLLVM) {
    diags.error("E0712", ir::Span::unknown(),
                "LLVM code generation needs an llvm target, not `" + target.str() + "`");
    return nullptr;
  }
  CpuDescription cpu = describe_cpu(target);
  std::string error;
  const llvm::Target* llvm_target = llvm::TargetRegistry::lookupTarget(cpu.triple, error);
  if (!llvm_target) {
    diags.error("E0712", ir::Span::unknown(),
                "LLVM has no target for triple `" + cpu.triple + "`: " + error);
    return nullptr;
  }
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(llvm_target->createTargetMachine(
      cpu.triple, cpu.cpu, cpu.features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) {
    diags.error(
        "E0712", ir::Span::unknown(),
        "LLVM cannot create a target machine for `" + cpu.triple + "` (cpu `" + cpu.cpu + "`)");
  }
  return tm;
}

void optimize_module(llvm::Module& module, llvm::TargetMachine& tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopUnrolling = true;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}

}  // namespace relax::compiler::codegen

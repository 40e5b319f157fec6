// Target machines for the host CPU (or the CPU a target names), the checks that keep LLVM from
// aborting on a CPU, triple or feature it does not know, and the optimization pipeline.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/Signals.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include "compiler/codegen/llvm/llvm_internal.h"
#include "ir/suggest.h"

namespace relax::compiler::codegen {

namespace {

// The last line of defence: an error LLVM still finds fatal (check_target catches the known
// ones first) ends the process with a message and exit code 1, like a failed build, instead of
// LLVM's abort and crash report.
void on_llvm_fatal_error(void*, const char* reason, bool) {
  std::string message = std::string("error: LLVM cannot compile this module: ") +
                        (reason ? reason : "unknown error") + "\n";
  ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
  (void)ignored;
  llvm::sys::RunInterruptHandlers();  // removes the files registered for removal on a signal
  std::_Exit(1);
}

void initialize_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::install_fatal_error_handler(on_llvm_fatal_error);
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

// Up to three of `candidates` closest to `name` (by edit distance, at most a third of the
// name's length, at least 2), as "`a`, `b`".
std::string close_matches(const std::string& name, const std::vector<std::string>& candidates) {
  size_t limit = std::max<size_t>(2, name.size() / 3);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& c : candidates) {
    size_t d = ir::edit_distance(name, c);
    if (d <= limit) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i)
    out += (out.empty() ? "`" : ", `") + scored[i].second + "`";
  return out;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string m = close_matches(name, candidates);
  return m.empty() ? "" : "; did you mean " + m + "?";
}

}  // namespace

std::string check_target(const Target& target) {
  if (target.kind != Target::Kind::kLLVM) return "";
  initialize_llvm();
  CpuDescription cpu = describe_cpu(target);
  std::string error;
  const llvm::Target* llvm_target = llvm::TargetRegistry::lookupTarget(cpu.triple, error);
  if (!llvm_target) {
    std::string known;
    for (const llvm::Target& t : llvm::TargetRegistry::targets())
      known += (known.empty() ? "" : ", ") + std::string(t.getName());
    return "LLVM has no target for the triple `" + cpu.triple + "` (this relax compiles for " +
           (known.empty() ? std::string("no target") : known) + ", triple " +
           llvm::sys::getProcessTriple() + ")";
  }
  // Described for the generic CPU: LLVM warns on stderr about a CPU it does not know.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      llvm_target->createMCSubtargetInfo(cpu.triple, "", ""));
  if (!info) return "LLVM cannot describe the CPUs of the triple `" + cpu.triple + "`";
  if (!target.mcpu.empty() && !info->isCPUStringValid(target.mcpu)) {
    std::vector<std::string> names;
    for (const auto& kv : info->getAllProcessorDescriptions()) names.emplace_back(kv.Key);
    return "unknown CPU `" + target.mcpu + "` for the triple `" + cpu.triple + "`" +
           did_you_mean(target.mcpu, names) + " (`llc -mcpu=help` lists the CPUs)";
  }
  if (!target.mattr.empty()) {
    std::vector<std::string> names;
    for (const auto& kv : info->getAllProcessorFeatures()) names.emplace_back(kv.Key);
    size_t begin = 0;
    while (begin <= target.mattr.size()) {
      size_t end = target.mattr.find(',', begin);
      if (end == std::string::npos) end = target.mattr.size();
      std::string feature = target.mattr.substr(begin, end - begin);
      begin = end + 1;
      if (feature.size() < 2 || (feature[0] != '+' && feature[0] != '-')) {
        return "the -mattr feature `" + feature +
               "` must be +NAME or -NAME (features separated by commas)";
      }
      std::string name = feature.substr(1);
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        return "unknown CPU feature `" + name + "` for the triple `" + cpu.triple + "`" +
               did_you_mean(name, names) + " (`llc -mattr=help` lists the features)";
      }
    }
  }
  // LLVM aborts when an x86 CPU without 64-bit mode (i386, pentium) meets a 64-bit triple.
  llvm::Triple triple(cpu.triple);
  if (triple.getArch() == llvm::Triple::x86_64) {
    std::unique_ptr<llvm::MCSubtargetInfo> chosen(
        llvm_target->createMCSubtargetInfo(cpu.triple, cpu.cpu, cpu.features));
    if (chosen && !chosen->checkFeatures("+64bit")) {
      return "the CPU `" + cpu.cpu + "` cannot run the 64-bit code of the triple `" + cpu.triple +
             "`; choose a 64-bit CPU (x86-64, x86-64-v3, ...) or leave -mcpu out for the host's";
    }
  }
  return "";
}

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
  if (std::string why = check_target(target); !why.empty()) {
    diags.error("E0712", ir::Span::unknown(), why);
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

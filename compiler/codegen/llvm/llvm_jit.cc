// In-process compilation: the kernels' module, optimized for the host CPU, linked by ORC LLJIT.
// The library keeps the JIT (and so the code) alive; calls into libc and libm resolve against
// the running process.
#include <map>

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Support/Error.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include "compiler/codegen/llvm/llvm_internal.h"

namespace relax::compiler::codegen {

namespace {

class JitLibrary final : public vm::KernelLibrary {
 public:
  JitLibrary(std::unique_ptr<llvm::orc::LLJIT> jit,
             std::map<std::string, relax_kernel_fn, std::less<>> kernels)
      : jit_(std::move(jit)), kernels_(std::move(kernels)) {}

  relax_kernel_fn resolve(std::string_view name) const override {
    auto it = kernels_.find(name);
    return it == kernels_.end() ? nullptr : it->second;
  }
  std::string describe() const override {
    return "LLVM JIT (" + std::to_string(kernels_.size()) + " kernel" +
           (kernels_.size() == 1 ? "" : "s") + ")";
  }

 private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::map<std::string, relax_kernel_fn, std::less<>> kernels_;
};

std::vector<std::string> split_features(const std::string& features) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < features.size()) {
    size_t comma = features.find(',', start);
    if (comma == std::string::npos) comma = features.size();
    if (comma > start) out.push_back(features.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::unique_ptr<vm::KernelLibrary> jit_compile(const std::vector<KernelSource>& funcs,
                                               const Target& target, ir::DiagnosticBag& diags) {
  auto tm = create_target_machine(target, diags);
  if (!tm) return nullptr;
  // The kernels run in this process: code for another architecture (a 32-bit i386 triple on
  // x86-64) would be jumped into and crash.
  llvm::Triple host(llvm::sys::getProcessTriple()), wanted(tm->getTargetTriple());
  if (wanted.getArch() != host.getArch()) {
    diags.error("E0712", ir::Span::unknown(),
                "kernels compiled in process run on this machine (" + host.str() +
                    "), so they cannot be compiled for the triple `" + wanted.str() + "`");
    return nullptr;
  }
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = generate_module(*context, funcs, target, *tm, diags);
  if (!module) return nullptr;
  optimize_module(*module, *tm);

  auto fail = [&](llvm::Error error) -> std::unique_ptr<vm::KernelLibrary> {
    diags.error("E0712", ir::Span::unknown(), "LLVM JIT: " + llvm::toString(std::move(error)));
    return nullptr;
  };
  CpuDescription cpu = describe_cpu(target);
  llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(cpu.triple)};
  jtmb.setCPU(cpu.cpu);
  jtmb.addFeatures(split_features(cpu.features));
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(jtmb)).create();
  if (!jit) return fail(jit.takeError());
  auto generator = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator) return fail(generator.takeError());
  (*jit)->getMainJITDylib().addGenerator(std::move(*generator));
  if (auto error =
          (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    return fail(std::move(error));

  std::map<std::string, relax_kernel_fn, std::less<>> kernels;
  for (const auto& source : funcs) {
    auto address = (*jit)->lookup(source.name);
    if (!address) return fail(address.takeError());
    kernels[source.name] = address->toPtr<relax_kernel_fn>();
  }
  return std::make_unique<JitLibrary>(std::move(*jit), std::move(kernels));
}

}  // namespace relax::compiler::codegen

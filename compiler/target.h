// Compilation targets: the host CPU through LLVM (the default) and, later, CUDA. Passes and
// code generators read what they need from here rather than from target strings.
#pragma once

#include <optional>
#include <string>

namespace relax::compiler {

struct Target {
  enum class Kind { kLLVM, kCUDA };
  Kind kind = Kind::kLLVM;
  std::string triple;   // LLVM target triple ("" = the host's)
  std::string mcpu;     // "" = the host CPU (llvm::sys::getHostCPUName(): znver5 here)
  std::string mattr;    // extra LLVM features
  int num_threads = 0;  // 0 = the runtime's default
  int vector_bits = 0;  // preferred vector width in bits (0 = from the CPU: 512 with AVX-512)
  std::string arch;     // CUDA: "sm_90", ...

  static Target host();
  // Parses "llvm", "llvm -mcpu=znver4", "cuda", "cuda -arch=sm_90"; nullopt when malformed.
  static std::optional<Target> parse(const std::string& text, std::string* error = nullptr);
  std::string str() const;
};

}  // namespace relax::compiler

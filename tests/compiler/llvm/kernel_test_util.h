// Helpers for running compiled kernels in tests: host tensors, a kernel context with a thread
// backed parallel_for, and parsing a prim_func from text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/codegen/llvm/llvm_codegen.h"
#include "vm/kernel_abi.h"

namespace relax::test {

// A host tensor of float32, int32, int64, ... owning its data.
struct HostTensor {
  HostTensor(std::vector<int64_t> shape, DLDataType dtype);
  template <class T>
  T* data() {
    return reinterpret_cast<T*>(storage.data());
  }
  int64_t size() const;
  relax_arg arg();

  std::vector<int64_t> shape;
  std::vector<uint8_t> storage;
  DLTensor tensor{};
};

inline constexpr DLDataType kF32{kDLFloat, 32, 1};
inline constexpr DLDataType kI32{kDLInt, 32, 1};
inline constexpr DLDataType kI64{kDLInt, 64, 1};

// A kernel context: parallel_for runs chunks on std::threads and counts its calls; workspace
// memory comes from the C heap; the last error message is kept.
struct TestKernelContext {
  TestKernelContext();
  relax_kernel_context ctx{};
  std::string error;
  int parallel_calls = 0;
  int threads = 4;
  // Calls `fn` with the arguments; returns its status (and clears `error` first).
  int32_t call(relax_kernel_fn fn, std::vector<relax_arg> args);
};

// The prim_funcs of a .relax text (top-level prim_funcs or a module), for code generation.
std::vector<compiler::codegen::KernelSource> parse_kernels(const std::string& text);

}  // namespace relax::test

// Test kernels written against the kernel ABI, and helpers that build and run executables.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "vm/executable.h"
#include "vm/kernel_library.h"
#include "vm/vm.h"

namespace relax::vm::test {

// add(a, b, out): float32 elementwise; mul2_parallel(x, out) uses ctx->parallel_for;
// scratch(x, out): copies through a workspace buffer; fail(): sets "boom" and fails;
// isub/imul/ile/iadd(a, b) -> int; add16(a, b, out): 16 float adds; status7(): returns 7 with
// no message; ret_tensor(): returns a 2-element tensor it owns; forty_two(...) -> 42.
std::shared_ptr<KernelTable> test_kernels();

// A VM for `exe` over the test kernels.
std::unique_ptr<VirtualMachine> make_vm(std::shared_ptr<Executable> exe, VMOptions options = {});

// Finishes a builder, failing the test on an error.
std::shared_ptr<Executable> finish(ExecutableBuilder& b);

// The message of a failed result (fails the test if it succeeded).
template <class T>
std::string error_of(const Result<T>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

// A float32 tensor's values.
std::vector<float> values(const Value& v);

}  // namespace relax::vm::test

// Hand-written C++ kernels for testing passes and VM codegen without a code generator: they
// stand in for the prim_funcs of the test modules (same names, destination-passing style).
#pragma once

#include <memory>

#include "compiler/build.h"
#include "vm/kernel_library.h"

namespace relax::compiler::test {

// "add": out[i] = a[i] + b[i] over the output's elements (float32).
// "negate": out[i] = -a[i] (float32).
// "add_scaled": out[i] = a[i] + k * b[i], k an int after the output (call_tir with tir_vars).
std::shared_ptr<const vm::KernelTable> test_kernels();
// A kernel compiler that answers every prim_func with test_kernels() (none missing).
KernelCompiler test_kernel_compiler();

}  // namespace relax::compiler::test

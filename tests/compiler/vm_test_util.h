// Helpers of the compiler tests that run modules on the VM: build a module with the default
// pipeline for the host (and bounds checks), call `main`, make tensors from vectors and read
// them back.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "compiler/build.h"
#include "compiler/tir/lower.h"
#include "vm/runtime.h"

namespace relax::test {

// Tests compile kernels with run-time bounds checks (`--bounds-check`): an out-of-bounds index
// in a legalized or scheduled kernel fails the test with the kernel's, buffer's and index's
// names instead of passing by luck or corrupting memory.
inline void enable_bounds_check(compiler::PassContext& ctx) {
  compiler::tir::set_bounds_check(ctx, true);
}

// Builds an already parsed and normalized module (kernels with bounds checks); the test fails
// with the pipeline's errors.
inline vm::Module build_module(const ir::Ref<ir::IRModule>& module) {
  compiler::PassContext ctx;
  enable_bounds_check(ctx);
  auto result = compiler::build(module, compiler::Target::host(), ctx);
  std::string errors;
  for (const auto& d : ctx.diagnostics().items())
    if (d.severity == ir::Severity::kError) errors += d.code + ": " + d.message + "\n";
  INFO(errors);
  REQUIRE(result.ok());
  auto m = vm::Module::from_parts(result.executable, result.kernels);
  INFO((m ? "" : m.error().message));
  REQUIRE(m);
  return std::move(*m);
}

// main(args...), failing the test with the VM's error.
inline vm::Value call_main(vm::Module& m, const std::vector<vm::Value>& args) {
  auto r = m.invoke("main", args);
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  return *r;
}

template <class T>
vm::Value tensor(std::vector<int64_t> shape, const std::vector<T>& data, DLDataType dtype) {
  return vm::Value(vm::tensor_from_bytes(shape, dtype, data.data()));
}

template <class T>
std::vector<T> data_of(const vm::Value& v) {
  const vm::TensorObj* t = v.as_tensor();
  REQUIRE(t);
  const T* p = t->data_as<T>();
  return std::vector<T>(p, p + t->numel());
}

inline std::vector<int64_t> shape_of(const vm::Value& v) {
  const vm::TensorObj* t = v.as_tensor();
  REQUIRE(t);
  return {t->shape().begin(), t->shape().end()};
}

inline const vm::Value& field(const vm::Value& tuple, size_t i) {
  const vm::TupleObj* t = tuple.as_tuple();
  REQUIRE(t);
  REQUIRE(i < t->size());
  return (*t)[i];
}

}  // namespace relax::test

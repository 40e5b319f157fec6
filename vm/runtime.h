// All a deployed program needs: load a model built by `relax build` (one shared library holding
// the kernels and the executable; no compiler, no LLVM), bind weights, set inputs (tensors from
// .npy files or memory), invoke, read outputs, profile.
//
//   auto model = relax::vm::Module::load("model.so");
//   if (!model) { std::cerr << model.error().message << "\n"; return 1; }
//   model->load_params("weights.safetensors");
//   auto x = relax::vm::read_npy("input.npy");
//   auto y = model->invoke("main", {x.value()});
//   relax::vm::write_npy("output.npy", *y->as_tensor());
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vm/executable.h"
#include "vm/io/npy.h"
#include "vm/io/safetensors.h"
#include "vm/io/summary.h"
#include "vm/kernel_library.h"
#include "vm/profiler.h"
#include "vm/tensor.h"
#include "vm/value.h"
#include "vm/vm.h"

namespace relax::vm {

struct ModuleOptions {
  // User libraries of extern functions (R.call_dps_packed), searched after the model.
  std::vector<std::string> libraries;
  VMOptions vm;
};

class Module {
 public:
  // Loads a model library: checks its kernel ABI version, reads its executable, resolves its
  // kernels (in the model, then in `options.libraries`).
  static Result<Module> load(const std::string& path, ModuleOptions options = {});
  // A module from parts already in memory (an executable and its kernels, e.g. from a JIT).
  static Result<Module> from_parts(std::shared_ptr<const Executable> exe,
                                   std::shared_ptr<const KernelLibrary> kernels,
                                   VMOptions options = {});

  // Binds every tensor of a .safetensors file to the parameters of that name.
  Status load_params(const std::string& path);
  void bind_param(const std::string& name, Value value) { vm_->bind_param(name, std::move(value)); }
  // The value bound to parameters called `name` (by load_params or bind_param), or null.
  const Value* bound_param(std::string_view name) const { return vm_->bound_param(name); }

  Result<Value> invoke(std::string_view function, const std::vector<Value>& args);

  // The stateful style: set the inputs, run, then read the outputs (a tuple result counts as
  // several outputs).
  void set_input(std::string_view function, std::vector<Value> inputs);
  Status run(std::string_view function);
  size_t num_outputs() const;
  const Value& output(size_t index = 0) const;

  // Attaches a profiler to the VM (`trace`: also record a Chrome trace) and returns it.
  Profiler& enable_profiling(bool trace = false);
  Profiler* profiler() const { return profiler_.get(); }

  VirtualMachine& vm() { return *vm_; }
  const Executable& executable() const { return vm_->executable(); }

 private:
  Module() = default;
  std::unique_ptr<VirtualMachine> vm_;
  std::unique_ptr<Profiler> profiler_;
  std::vector<std::pair<std::string, std::vector<Value>>> inputs_;
  Value output_;
};

}  // namespace relax::vm

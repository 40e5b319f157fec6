// Module: a loaded model and its VM.
#include "vm/runtime.h"

namespace relax::vm {

Result<Module> Module::load(const std::string& path, ModuleOptions options) {
  auto model = SharedLibrary::open(path, /*require_executable=*/true);
  if (!model) return model.error();
  auto exe = Executable::load((*model)->executable_blob());
  if (!exe) return Error{path + ": " + exe.error().message};
  auto chain = std::make_shared<LibraryChain>();
  chain->add(model.value());
  for (const std::string& lib_path : options.libraries) {
    auto lib = SharedLibrary::open(lib_path);
    if (!lib) return lib.error();
    chain->add(lib.value());
  }
  return from_parts(exe.value(), chain, std::move(options.vm));
}

Result<Module> Module::from_parts(std::shared_ptr<const Executable> exe,
                                  std::shared_ptr<const KernelLibrary> kernels, VMOptions options) {
  auto vm = VirtualMachine::create(std::move(exe), std::move(kernels), std::move(options));
  if (!vm) return vm.error();
  Module m;
  m.vm_ = std::move(vm.value());
  return m;
}

Status Module::load_params(const std::string& path) {
  auto file = read_safetensors(path);
  if (!file) return file.error();
  for (auto& nt : file->tensors) vm_->bind_param(nt.name, Value(nt.tensor));
  return {};
}

Result<Value> Module::invoke(std::string_view function, const std::vector<Value>& args) {
  return vm_->invoke(function, args);
}

void Module::set_input(std::string_view function, std::vector<Value> inputs) {
  for (auto& [name, values] : inputs_) {
    if (name == function) {
      values = std::move(inputs);
      return;
    }
  }
  inputs_.emplace_back(std::string(function), std::move(inputs));
}

Status Module::run(std::string_view function) {
  static const std::vector<Value> kNone;
  const std::vector<Value>* args = &kNone;
  for (auto& [name, values] : inputs_) {
    if (name == function) args = &values;
  }
  auto result = vm_->invoke(function, *args);
  if (!result) return result.error();
  output_ = std::move(result.value());
  return {};
}

size_t Module::num_outputs() const {
  if (const TupleObj* t = output_.as_tuple()) return t->size();
  return output_.is_null() ? 0 : 1;
}

const Value& Module::output(size_t index) const {
  static const Value kNull;
  if (const TupleObj* t = output_.as_tuple()) return index < t->size() ? (*t)[index] : kNull;
  return index == 0 ? output_ : kNull;
}

Profiler& Module::enable_profiling(bool trace) {
  profiler_ = std::make_unique<Profiler>(trace);
  vm_->set_profiler(profiler_.get());
  return *profiler_;
}

}  // namespace relax::vm

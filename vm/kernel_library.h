// Where kernels and extern functions come from: a KernelLibrary resolves a name to a function
// with the kernel ABI (kernel_abi.h). Implementations: a shared library opened with dlopen (a
// model built by `relax build`, which also carries the executable, or a user library of extern
// functions), a chain of libraries searched in order, and an in-memory table (tests, and the
// compiler's JIT can register into one or implement the interface itself).
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vm/kernel_abi.h"
#include "vm/result.h"

namespace relax::vm {

class KernelLibrary {
 public:
  virtual ~KernelLibrary() = default;
  // The function exported under `name`, or null.
  virtual relax_kernel_fn resolve(std::string_view name) const = 0;
  // What the library is, for messages ("model.so", "model.so, libext.so").
  virtual std::string describe() const = 0;
};

class SharedLibrary final : public KernelLibrary {
 public:
  // Opens `path`. If it exports relax_kernel_abi_version, that must equal
  // RELAX_KERNEL_ABI_VERSION; `require_executable` also demands the executable blob (a model).
  static Result<std::shared_ptr<SharedLibrary>> open(const std::string& path,
                                                     bool require_executable = false);
  ~SharedLibrary() override;

  // Only symbols defined in this library itself: a kernel named like a libc or libm function
  // must not resolve to that function through the library's dependencies.
  relax_kernel_fn resolve(std::string_view name) const override;
  std::string describe() const override { return path_; }
  // The serialized executable a model library embeds (empty if there is none).
  std::span<const uint8_t> executable_blob() const { return blob_; }
  const std::string& path() const { return path_; }

 private:
  SharedLibrary() = default;
  void* handle_ = nullptr;
  const void* map_ = nullptr;  // the library's link map, to check symbols belong to it
  std::string path_;
  std::span<const uint8_t> blob_;
};

class LibraryChain final : public KernelLibrary {
 public:
  LibraryChain() = default;
  explicit LibraryChain(std::vector<std::shared_ptr<const KernelLibrary>> libraries)
      : libraries_(std::move(libraries)) {}
  void add(std::shared_ptr<const KernelLibrary> library) {
    libraries_.push_back(std::move(library));
  }
  // The first library that has the name wins.
  relax_kernel_fn resolve(std::string_view name) const override;
  std::string describe() const override;

 private:
  std::vector<std::shared_ptr<const KernelLibrary>> libraries_;
};

class KernelTable final : public KernelLibrary {
 public:
  explicit KernelTable(std::string name = "kernel table") : name_(std::move(name)) {}
  void add(const std::string& name, relax_kernel_fn fn) { table_[name] = fn; }
  relax_kernel_fn resolve(std::string_view name) const override;
  std::string describe() const override { return name_; }

 private:
  std::string name_;
  std::map<std::string, relax_kernel_fn, std::less<>> table_;
};

}  // namespace relax::vm

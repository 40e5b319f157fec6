// Kernel libraries: dlopen'ed shared objects, chains and in-memory tables.
#include "vm/kernel_library.h"

#include <dlfcn.h>
#include <link.h>

namespace relax::vm {

Result<std::shared_ptr<SharedLibrary>> SharedLibrary::open(const std::string& path,
                                                           bool require_executable) {
  dlerror();
  // dlopen searches the library path for a bare name; a file in the current folder needs "./".
  std::string where = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = dlopen(where.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = dlerror();
    return Error{"cannot load " + path + ": " + (err ? err : "unknown error")};
  }
  std::shared_ptr<SharedLibrary> lib(new SharedLibrary);
  lib->handle_ = handle;
  lib->path_ = path;
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0) lib->map_ = map;
  auto version = static_cast<const int32_t*>(dlsym(handle, "relax_kernel_abi_version"));
  auto blob = static_cast<const uint8_t*>(dlsym(handle, "relax_executable_blob"));
  auto blob_size = static_cast<const uint64_t*>(dlsym(handle, "relax_executable_blob_size"));
  if (version && *version != RELAX_KERNEL_ABI_VERSION) {
    return Error{path + " was built for kernel ABI version " + std::to_string(*version) +
                 ", but this runtime implements version " +
                 std::to_string(RELAX_KERNEL_ABI_VERSION) + "; rebuild it with this relax"};
  }
  if (require_executable) {
    if (!version)
      return Error{path + " is not a relax model (it exports no relax_kernel_abi_version)"};
    if (!blob || !blob_size) return Error{path + " is not a relax model (it embeds no executable)"};
  }
  if (blob && blob_size) {
    // The symbol table knows the array's real size: a wrong size word must not make the loader
    // read past it.
    Dl_info info;
    void* entry = nullptr;
    const auto* sym = static_cast<const ElfW(Sym)*>(nullptr);
    if (dladdr1(blob, &info, &entry, RTLD_DL_SYMENT) &&
        (sym = static_cast<const ElfW(Sym)*>(entry)) && sym->st_size != 0 &&
        sym->st_size < *blob_size) {
      return Error{path + ": relax_executable_blob_size (" + std::to_string(*blob_size) +
                   ") exceeds the blob (" + std::to_string(sym->st_size) + " bytes)"};
    }
    lib->blob_ = {blob, static_cast<size_t>(*blob_size)};
  }
  return lib;
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

relax_kernel_fn SharedLibrary::resolve(std::string_view name) const {
  void* sym = dlsym(handle_, std::string(name).c_str());
  if (!sym) return nullptr;
  // dlsym also searches the library's dependencies; keep only symbols of the library itself
  // (the object whose link map holds the symbol must be this one).
  Dl_info info;
  void* owner = nullptr;
  if (map_ && dladdr1(sym, &info, &owner, RTLD_DL_LINKMAP) && owner != map_) return nullptr;
  return reinterpret_cast<relax_kernel_fn>(sym);
}

relax_kernel_fn LibraryChain::resolve(std::string_view name) const {
  for (const auto& lib : libraries_) {
    if (relax_kernel_fn fn = lib->resolve(name)) return fn;
  }
  return nullptr;
}

std::string LibraryChain::describe() const {
  if (libraries_.empty()) return "no library";
  std::string s;
  for (const auto& lib : libraries_) s += (s.empty() ? "" : ", ") + lib->describe();
  return s;
}

relax_kernel_fn KernelTable::resolve(std::string_view name) const {
  auto it = table_.find(name);
  return it == table_.end() ? nullptr : it->second;
}

}  // namespace relax::vm

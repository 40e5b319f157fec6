// Kernel libraries: dlopen'ed shared objects, chains and in-memory tables.
#include "vm/kernel_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace relax::vm {

namespace {

// Whether [offset, offset + size) lies within a file of `file_size` bytes (without wrapping).
bool within(uint64_t offset, uint64_t size, uint64_t file_size) {
  uint64_t end = 0;
  return !__builtin_add_overflow(offset, size, &end) && end <= file_size;
}

// Reads `n` bytes at `offset`; false on a short read.
bool read_at(int fd, void* out, size_t n, uint64_t offset) {
  auto* p = static_cast<char*>(out);
  while (n > 0) {
    ssize_t got = pread(fd, p, n, static_cast<off_t>(offset));
    if (got <= 0) return false;
    p += got;
    n -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return true;
}

// dlopen maps a library's segments without checking them against the file's size, and touching
// a page past the end of the file is SIGBUS, not an error: a truncated or corrupted library is
// checked here first. Checks the ELF header (this machine's class and byte order, a shared
// object), that the program and section header tables lie in the file, and that the file bytes
// of every segment (the loaded code and data, with the embedded executable) do too.
Status check_elf_file(const std::string& path, const std::string& file) {
  auto bad = [&](const std::string& why) { return Error{"cannot load " + path + ": " + why}; };
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return bad(std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0) return bad(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return bad("not a regular file");
  auto file_size = static_cast<uint64_t>(st.st_size);
  ElfW(Ehdr) eh;
  std::memset(&eh, 0, sizeof eh);
  size_t head = static_cast<size_t>(std::min<uint64_t>(file_size, sizeof eh));
  if (!read_at(fd, &eh, head, 0)) return bad("cannot read the ELF header");
  if (head >= SELFMAG && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return bad("not an ELF shared library");
  if (head < sizeof eh) {
    return bad("the file is " + std::to_string(file_size) +
               " bytes long, too short for an ELF header (truncated?)");
  }
#if __WORDSIZE == 64
  constexpr int kClass = ELFCLASS64;
#else
  constexpr int kClass = ELFCLASS32;
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  constexpr int kData = ELFDATA2LSB;
#else
  constexpr int kData = ELFDATA2MSB;
#endif
  if (eh.e_ident[EI_CLASS] != kClass || eh.e_ident[EI_DATA] != kData)
    return bad("an ELF file for another word size or byte order");
  if (eh.e_type != ET_DYN) return bad("an ELF file that is not a shared library");
  if (eh.e_phnum == 0 || eh.e_phentsize != sizeof(ElfW(Phdr)))
    return bad("the ELF header describes no valid program header table (corrupted?)");
  uint64_t ph_bytes = uint64_t{eh.e_phnum} * eh.e_phentsize;
  if (!within(eh.e_phoff, ph_bytes, file_size)) {
    return bad("the program headers (bytes " + std::to_string(eh.e_phoff) + " to " +
               std::to_string(eh.e_phoff + ph_bytes) + ") lie past the end of the file of " +
               std::to_string(file_size) + " bytes (truncated?)");
  }
  if (eh.e_shnum != 0 && (eh.e_shentsize != sizeof(ElfW(Shdr)) ||
                          !within(eh.e_shoff, uint64_t{eh.e_shnum} * eh.e_shentsize, file_size))) {
    return bad("the section headers lie past the end of the file of " + std::to_string(file_size) +
               " bytes (truncated?)");
  }
  std::vector<ElfW(Phdr)> phdrs(eh.e_phnum);
  if (!read_at(fd, phdrs.data(), ph_bytes, eh.e_phoff))
    return bad("cannot read the program headers");
  for (size_t i = 0; i < phdrs.size(); ++i) {
    const ElfW(Phdr)& ph = phdrs[i];
    if (ph.p_filesz == 0) continue;
    if (!within(ph.p_offset, ph.p_filesz, file_size) ||
        (ph.p_type == PT_LOAD && ph.p_memsz < ph.p_filesz)) {
      return bad("segment " + std::to_string(i) + " (bytes " + std::to_string(ph.p_offset) +
                 " to " + std::to_string(ph.p_offset + ph.p_filesz) +
                 ") lies past the end of the file of " + std::to_string(file_size) +
                 " bytes (truncated?)");
    }
  }
  return {};
}

}  // namespace

Result<std::shared_ptr<SharedLibrary>> SharedLibrary::open(const std::string& path,
                                                           bool require_executable) {
  // dlopen searches the library path for a bare name; a file in the current folder needs "./".
  std::string where = path.find('/') == std::string::npos ? "./" + path : path;
  if (Status elf = check_elf_file(path, where); !elf) return elf.error();
  dlerror();
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

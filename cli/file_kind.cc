// Telling files apart by their magic bytes (see file_kind.h).
#include "cli/file_kind.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "cli/common.h"
#include "vm/executable.h"

namespace relax::cli {

FileKind file_kind_of(std::string_view head) {
  if (head.starts_with("\x7f"
                       "ELF"))
    return FileKind::kSharedLibrary;
  if (head.starts_with("\x93NUMPY")) return FileKind::kNpy;
  if (head.size() >= 8) {
    uint64_t magic = 0;
    std::memcpy(&magic, head.data(), 8);
    if (magic == vm::Executable::kMagic) return FileKind::kExecutable;
    // safetensors: a little-endian u64 header size, then the header, a JSON object.
    if (head.size() >= 9 && head[8] == '{' && magic >= 2 && magic < (uint64_t{1} << 32))
      return FileKind::kSafetensors;
  }
  if (head.find('\0') != std::string_view::npos) return FileKind::kBinary;
  return FileKind::kText;
}

std::optional<FileKind> detect_file_kind(const std::string& path) {
  if (path == "-") return FileKind::kText;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    print_error("cannot open '" + path + "': " + std::strerror(errno));
    return std::nullopt;
  }
  char head[64];
  in.read(head, sizeof head);
  return file_kind_of(std::string_view(head, static_cast<size_t>(in.gcount())));
}

const char* describe(FileKind kind) {
  switch (kind) {
    case FileKind::kText:
      return "a text file";
    case FileKind::kSharedLibrary:
      return "a shared library (ELF)";
    case FileKind::kExecutable:
      return "a serialized relax executable";
    case FileKind::kNpy:
      return "a .npy array";
    case FileKind::kSafetensors:
      return "a .safetensors file";
    case FileKind::kBinary:
      return "binary data";
  }
  return "?";
}

bool expect_file_kind(const std::string& path, FileKind expected, const std::string& role) {
  auto kind = detect_file_kind(path);
  if (!kind) return false;
  if (*kind == expected) return true;
  std::string want = expected == FileKind::kText ? "a .relax file" : describe(expected);
  bool weights = expected == FileKind::kNpy && *kind == FileKind::kSafetensors;
  print_error(role + ": " + path + " is " + describe(*kind) + ", not " + want +
              (weights ? " (weights in a .safetensors file are bound with --params)" : ""));
  return false;
}

}  // namespace relax::cli

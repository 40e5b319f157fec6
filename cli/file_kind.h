// What a file given to `relax build` / `relax run` holds, told by its first bytes and never by
// its name: a model library (ELF), a serialized executable, a .npy array, a .safetensors file, or
// text (a .relax module). So `relax build -o model` then `relax run model` works, and a file of
// the wrong kind gets an error saying what it is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace relax::cli {

enum class FileKind {
  kText,           // a .relax module (anything that is not one of the binary kinds below)
  kSharedLibrary,  // ELF: `\x7fELF` (a model library built by `relax build`, or a user library)
  kExecutable,     // a serialized VM executable: vm::Executable::kMagic ("RLXVMEX\x01")
  kNpy,            // `\x93NUMPY`
  kSafetensors,    // u64 header length, then the JSON header's `{`
  kBinary,         // other binary data (a NUL byte near the start)
};

// The kind of a file from its first bytes (at least 16 when the file has them).
FileKind file_kind_of(std::string_view head);

// The kind of `path`'s content ("-", standard input, is text); nullopt with the error printed
// when it cannot be opened.
std::optional<FileKind> detect_file_kind(const std::string& path);

// "a shared library (ELF)", "a serialized relax executable", "a .npy array", ...
const char* describe(FileKind kind);

// Checks that `path` holds `expected`; otherwise prints "<role>: <path> is <what it is>, not
// <expected>" and returns false (also when it cannot be read).
bool expect_file_kind(const std::string& path, FileKind expected, const std::string& role);

}  // namespace relax::cli

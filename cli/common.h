// Shared pieces of the `relax` subcommands: reading inputs, printing diagnostics, exit codes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/diagnostic.h"

namespace relax::cli {

// Exit codes every subcommand uses.
enum ExitCode : int {
  kExitOk = 0,
  kExitInputErrors = 1,  // the input has errors (syntax, names, shapes, ...)
  kExitUsage = 2,        // bad usage or an I/O error
};

enum class ColorMode { kAuto, kAlways, kNever };

struct GlobalOptions {
  ColorMode color = ColorMode::kAuto;
};
GlobalOptions& global_options();

// Reads a file, or standard input for "-". Reports an I/O error on stderr and returns nullopt.
std::optional<std::string> read_input(const std::string& path);
// The name diagnostics use for `path` ("<stdin>" for "-").
std::string display_name(const std::string& path);

// Writes diagnostics to stderr (with colour when stderr is a terminal, per --color).
void print_diagnostics(const ir::DiagnosticBag& diags);

// Prints "relax: error: <message>" to stderr.
void print_error(const std::string& message);

// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so that
// readers never see a partial file; a file it replaces keeps its mode. "-" writes to standard
// output. Reports the error and returns false when it cannot.
bool write_atomically(const std::string& path, std::string_view bytes);

}  // namespace relax::cli

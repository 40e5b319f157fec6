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

// Whether diagnostics on stderr are coloured: --color, else NO_COLOR, else whether it is a
// terminal.
bool stderr_color();

// Writes diagnostics to stderr (with colour when stderr is a terminal, per --color).
void print_diagnostics(const ir::DiagnosticBag& diags);

// Writes `text` to `path` through a temporary file in the same directory and a rename (keeping
// the mode of a file it replaces), so readers never see half a file. Reports and returns false
// on an I/O error. "-" writes to standard output.
bool write_file_atomically(const std::string& path, std::string_view text);

// Prints "relax: error: <message>" to stderr.
void print_error(const std::string& message);
// Prints "relax: note: <message>" to stderr.
void print_note(const std::string& message);

}  // namespace relax::cli

// Shared pieces of the `relax` subcommands: reading inputs, printing diagnostics, exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
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
  // --max-errors: errors reported per file before the command stops (0: no limit); also the
  // most warnings shown per file in the text output (docs/cli.md#limits).
  size_t max_errors = 100;
};
GlobalOptions& global_options();

// Adds --max-errors N to a command that reports diagnostics (sets global_options()).
void add_max_errors_option(CLI::App* cmd, const std::string& help = "");

// A bag for the diagnostics of reading user input (the front end, a schedule file) that stops
// at --max-errors (ir::DiagnosticBag::set_error_limit).
ir::DiagnosticBag input_diagnostics();

// Reads a file, or standard input for "-". Reports an I/O error on stderr and returns nullopt.
std::optional<std::string> read_input(const std::string& path);
// The name diagnostics use for `path` ("<stdin>" for "-").
std::string display_name(const std::string& path);

// Whether diagnostics on stderr are coloured: --color, else NO_COLOR, else whether it is a
// terminal.
bool stderr_color();

// Writes diagnostics to stderr (with colour when stderr is a terminal, per --color), within
// --max-errors: the first N errors (then E0001) and at most N warnings per file.
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

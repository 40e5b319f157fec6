// Shared pieces of the `relax` subcommands: reading inputs, printing diagnostics, exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// Writes `text` to `path` atomically (vm/io/atomic_file.h: a temporary file beside it and a
// rename; a symbolic link's target is replaced, the mode, owner and group of a replaced file are
// kept; on failure the previous file is untouched and no temporary is left). Reports and returns
// false on an I/O error. "-" writes to standard output.
bool write_file_atomically(const std::string& path, std::string_view text);

// Refuses (reports, returns false) an output path that names one of the command's input files
// (compared with std::filesystem::equivalent, so `./a.relax` and symbolic links count). `option`
// names the output in the message ("-o", "--trace"). Empty paths and "-" are skipped.
bool refuse_overwriting_inputs(const std::string& option, const std::string& output,
                               const std::vector<std::string>& inputs);

// A source file that `relax fmt` and `relax check --fix` rewrite in place: the text read past a
// UTF-8 byte order mark, and whether it had one (written back with it).
struct SourceFile {
  std::string text;
  bool bom = false;
};
// Reads `path` ("-": standard input); nullopt with `error` set when it cannot be read.
std::optional<SourceFile> read_source_file(const std::string& path, std::string& error);
// Writes `text` back over `path` (standard output for "-") with the file's byte order mark, the
// way write_file_atomically does: through a symbolic link, keeping mode, owner and group.
bool rewrite_source_file(const std::string& path, const SourceFile& original,
                         std::string_view text);

// Prints "relax: error: <message>" to stderr.
void print_error(const std::string& message);
// Prints "relax: note: <message>" to stderr.
void print_note(const std::string& message);

}  // namespace relax::cli

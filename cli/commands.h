// The subcommands of `relax`, one file each; main.cc registers them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace relax::cli {

// Each adder registers its subcommand on `app` and returns the function that runs it (called
// when the subcommand was chosen); the function returns the process exit code.
using Runner = std::function<int()>;

Runner add_print_command(CLI::App& app);
Runner add_parse_command(CLI::App& app);
Runner add_check_command(CLI::App& app);
Runner add_fmt_command(CLI::App& app);
Runner add_passes_command(CLI::App& app);
Runner add_build_command(CLI::App& app);
Runner add_run_command(CLI::App& app);
Runner add_opt_command(CLI::App& app);
Runner add_explain_command(CLI::App& app);
Runner add_lsp_command(CLI::App& app);

// The transform every integer option takes first: the whole value, in decimal (ir::parse_int64),
// passed on in canonical form. CLI11 alone reads `0x10` as 16 and `010` as 8.
const CLI::Validator& whole_integer();

}  // namespace relax::cli

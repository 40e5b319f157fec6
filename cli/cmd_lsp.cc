// `relax lsp`: the language server on standard input and output (docs/lsp.md).
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "lsp/log.h"
#include "lsp/server.h"

namespace relax::cli {

namespace {

struct LspArgs {
  std::string log_file;
  std::string log_level = "info";
  size_t workers = 0;
};

}  // namespace

Runner add_lsp_command(CLI::App& app) {
  auto args = std::make_shared<LspArgs>();
  CLI::App* cmd = app.add_subcommand(
      "lsp", "Run the language server (LSP 3.17 over standard input and output) for editors");
  cmd->add_option("--log", args->log_file,
                  "Write the server's log to this file (appending) instead of standard error");
  cmd->add_option("--log-level", args->log_level, "How much to log: error, warning, info, debug")
      ->check(CLI::IsMember({"error", "warning", "info", "debug"}));
  cmd->add_option("--workers", args->workers, "Analysis threads (0: one per core, at most 4)")
      ->transform(whole_integer());
  cmd->footer(
      "Editors start this command themselves (editors/vscode, editors/nvim); docs/lsp.md lists\n"
      "its capabilities and settings. Exit codes: 0 after shutdown and exit, 1 otherwise.");
  return [args]() -> int {
    lsp::Log log(*lsp::parse_log_level(args->log_level));
    if (!args->log_file.empty() && !log.open(args->log_file)) {
      print_error("cannot open the log file '" + args->log_file + "'");
      return kExitUsage;
    }
    lsp::ServerOptions options;
    options.workers = args->workers;
    options.log = &log;
    log.info("relax lsp started");
    return lsp::serve(STDIN_FILENO, STDOUT_FILENO, options);
  };
}

}  // namespace relax::cli

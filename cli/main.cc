// `relax`: the command-line entry point. Parses global options, dispatches to a subcommand and
// maps outcomes to exit codes (0 ok, 1 errors in the input, 2 usage or I/O errors).
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/common.h"

#ifndef RELAX_VERSION
#define RELAX_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  using namespace relax::cli;
  CLI::App app{"relax: a toolkit for the Relax IR in its TVMScript text form (.relax files)",
               "relax"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("relax ") + RELAX_VERSION);
  std::string color = "auto";
  app.add_option("--color", color,
                 "Colour diagnostics: auto (when stderr is a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.footer(
      "Exit codes: 0 ok, 1 errors in the input, 2 usage or I/O errors.\n"
      "Run `relax <command> --help` for the options of a command.");

  std::vector<std::pair<CLI::App*, Runner>> commands;
  auto add = [&](Runner (*adder)(CLI::App&)) {
    size_t before = app.get_subcommands({}).size();
    Runner run = adder(app);
    auto subs = app.get_subcommands({});
    commands.emplace_back(subs.size() > before ? subs.back() : nullptr, std::move(run));
  };
  add(add_print_command);
  add(add_parse_command);
  add(add_check_command);
  add(add_fmt_command);
  add(add_passes_command);
  add(add_build_command);
  add(add_run_command);
  add(add_opt_command);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  global_options().color = color == "always"  ? ColorMode::kAlways
                           : color == "never" ? ColorMode::kNever
                                              : ColorMode::kAuto;
  for (auto& [sub, run] : commands) {
    if (sub && sub->parsed()) {
      try {
        return run();
      } catch (const std::exception& e) {
        print_error(std::string("internal error: ") + e.what());
        return kExitUsage;
      }
    }
  }
  return kExitUsage;
}

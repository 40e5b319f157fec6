// `relax print`: parse a file, infer the struct info of every binding (normalize) and print it
// back in canonical TVMScript, each binding annotated as TVM's printer annotates it.
#include <iostream>

#include "analysis/normalize.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"

namespace relax::cli {

Runner add_print_command(CLI::App& app) {
  struct Options {
    std::string input;
    std::string profile = "legacy";
    bool show_meta = true;
  };
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "print", "Parse a .relax file and print it in canonical form (TVM's printer layout)");
  cmd->add_option("file", options->input, "Input file, or - for standard input")->required();
  cmd->add_option(
         "--profile", options->profile,
         "Spelling profile: legacy (TVM v0.20-v0.23, the default) or current (TVM main, 2026)")
      ->check(CLI::IsMember({"legacy", "current"}));
  cmd->add_flag("--show-meta,!--no-show-meta", options->show_meta,
                "Write the values of constants as TVM's metadata section at the top of the text "
                "(default on; --no-show-meta prints TVM's \"Metadata omitted\" comment instead)");
  add_max_errors_option(cmd);
  cmd->footer(
      "Every binding is printed with its inferred struct info (a compatible annotation on a call "
      "is kept).\n"
      "Functions with syntax or name errors are reported on stderr and left out; the rest is "
      "printed.\n"
      "Inference errors are reported on stderr; the binding is printed with what is known.\n"
      "The output ends with a newline when the input does.\n"
      "Exit codes: 0 ok, 1 errors in the input, 2 usage or I/O errors.");
  return [options]() -> int {
    auto text = read_input(options->input);
    if (!text) return kExitUsage;
    bool trailing_newline = !text->empty() && text->back() == '\n';
    ir::DiagnosticBag diags = input_diagnostics();
    syntax::FrontendResult result =
        syntax::parse_text(std::move(*text), display_name(options->input), diags);
    analysis::normalize_module(*result.module, diags);
    syntax::PrintOptions print_options;
    print_options.profile =
        options->profile == "current" ? syntax::Profile::kCurrent : syntax::Profile::kLegacy;
    print_options.show_meta = options->show_meta;
    std::string out = result.is_module_class
                          ? syntax::print_module(*result.module, print_options)
                          : syntax::print_functions(*result.module, print_options);
    print_diagnostics(diags);
    if (!result.module->functions.empty() || result.is_module_class) {
      std::cout << out;
      if (trailing_newline) std::cout << "\n";
      std::cout.flush();
    }
    return diags.has_errors() ? kExitInputErrors : kExitOk;
  };
}

}  // namespace relax::cli

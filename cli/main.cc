// `relax`: the command-line entry point. Parses global options, dispatches to a subcommand and
// maps outcomes to exit codes (0 ok, 1 errors in the input, 2 usage or I/O errors). A misspelt
// command or option gets the closest known one as a suggestion.
#include <pthread.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/common.h"
#include "ir/suggest.h"

#ifndef RELAX_VERSION
#define RELAX_VERSION "0.0.0"
#endif

namespace {

using namespace relax::cli;

// CLI11's help without its internal notation: `--verify,--no-verify{false}` is written
// `--verify,--no-verify`, `--format TEXT:{text,json}` is `--format {text,json}`, `--func TEXT`
// is `--func FUNC`, `--repeat INT:POSITIVE` is `--repeat N`, REQUIRED is `(required)`.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
    std::string out;
    std::string type = opt->get_type_name();
    // Flags have no type name.
    if (opt->get_type_size() != 0 && !type.empty() && !opt->get_positional()) {
      size_t choices = type.find(":{");
      std::string base = type.substr(0, type.find(':'));
      std::string placeholder;
      if (choices != std::string::npos) {
        placeholder = type.substr(choices + 1);
      } else if (base == "INT" || base == "UINT") {
        placeholder = "N";
      } else if (base == "FLOAT") {
        placeholder = "X";
      } else {
        std::string name =
            opt->get_lnames().empty() ? opt->get_single_name() : opt->get_lnames().front();
        for (char c : name)
          placeholder.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(c)));
      }
      out += " " + placeholder;
    }
    if (opt->get_type_size() != 0 &&
        opt->get_expected_max() == CLI::detail::expected_max_vector_size)
      out += " ...";
    if (opt->get_required()) out += " (required)";
    return out;
  }

  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override {
    std::string name = CLI::Formatter::make_option_name(opt, is_positional);
    std::string out;
    int depth = 0;
    for (char c : name) {
      if (c == '{') ++depth;
      if (depth == 0) out.push_back(c);
      if (c == '}' && depth > 0) --depth;
    }
    return out;
  }
};

// The first argument that is not an option (or the value of --color) is the command. Returns
// false, having reported it, when it names no command.
bool check_command_name(int argc, char** argv, const std::vector<std::string>& commands) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") return true;
    if (arg == "--color") {
      ++i;
      continue;
    }
    if (arg.starts_with("--color=")) continue;
    // After an unknown option the next word may be its value: the parse reports the option.
    if (arg.starts_with("-")) {
      if (arg == "-h" || arg == "--help" || arg == "--version") continue;
      return true;
    }
    if (std::find(commands.begin(), commands.end(), arg) != commands.end()) return true;
    std::string best = relax::ir::closest_match(arg, commands);
    print_error("no such command `" + arg + "`" +
                (best.empty() ? "" : "; did you mean `" + best + "`?"));
    std::cerr << "Run `relax --help` for the list of commands.\n";
    return false;
  }
  return true;
}

// Every spelling of the options `app` accepts ("--format", "-o").
void option_names(const CLI::App& app, std::vector<std::string>& out) {
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& l : opt->get_lnames()) out.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) out.push_back("-" + s);
  }
}

// An unknown option left over by the parse, reported with the closest option of the chosen
// command (or of `relax` itself). False when no unknown option is left.
bool report_unknown_option(const CLI::App& app) {
  for (const std::string& extra : app.remaining(true)) {
    if (extra.size() < 2 || extra[0] != '-') continue;
    std::string name = extra.substr(0, extra.find('='));
    std::vector<std::string> known;
    std::string where = "relax";
    for (const CLI::App* sub : app.get_subcommands()) {
      option_names(*sub, known);
      where += " " + sub->get_name();
    }
    option_names(app, known);
    // A one-letter option is one edit from every other: no suggestion.
    std::string best = name.size() > 2 ? relax::ir::closest_match(name, known) : "";
    print_error("unknown option `" + name + "`" +
                (best.empty() ? "" : "; did you mean `" + best + "`?"));
    std::cerr << "Run `" << where << " --help` for the options.\n";
    return true;
  }
  return false;
}

}  // namespace

static int relax_main(int argc, char** argv) {
  CLI::App app{"relax: a toolkit for the Relax IR in its TVMScript text form (.relax files)",
               "relax"};
  app.formatter(std::make_shared<HelpFormatter>());
  // Global options are accepted after the command too (`relax check --color never x.relax`);
  // set before the commands are added, which inherit it.
  app.fallthrough();
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
  add(add_explain_command);
  add(add_lsp_command);

  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  if (!check_command_name(argc, argv, names)) return kExitUsage;

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (!report_unknown_option(app)) app.exit(e);
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

namespace {

// The walks over user input are bounded by depth limits (docs/diagnostics/limits.md) rather
// than by the 8 MiB main-thread stack, whose frames a sanitizer build makes several times
// larger: the command runs on a thread whose stack holds the deepest accepted input with room to
// spare. The memory is reserved, not touched, until a deep input uses it.
constexpr size_t kStackBytes = size_t{256} << 20;

struct MainArgs {
  int argc;
  char** argv;
  int result;
};

void* run_relax_main(void* p) {
  auto* args = static_cast<MainArgs*>(p);
  args->result = relax_main(args->argc, args->argv);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  MainArgs args{argc, argv, kExitUsage};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = false;
  if (pthread_attr_init(&attr) == 0) {
    started = pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
              pthread_create(&thread, &attr, run_relax_main, &args) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) return relax_main(argc, argv);  // no thread (a tight ulimit): the main stack
  pthread_join(thread, nullptr);
  return args.result;
}

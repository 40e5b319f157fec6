// Input reading and diagnostic output for the command line.
#include "cli/common.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "analysis/diagnostics/terminal.h"

namespace relax::cli {

GlobalOptions& global_options() {
  static GlobalOptions options;
  return options;
}

std::optional<std::string> read_input(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    print_error("cannot open '" + path + "': " + std::strerror(errno));
    return std::nullopt;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    print_error("cannot read '" + path + "'");
    return std::nullopt;
  }
  return text;
}

std::string display_name(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
}

namespace {
bool use_color() {
  switch (global_options().color) {
    case ColorMode::kAlways:
      return true;
    case ColorMode::kNever:
      return false;
    case ColorMode::kAuto:
      break;
  }
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDERR_FILENO) != 0;
}
}  // namespace

void print_diagnostics(const ir::DiagnosticBag& diags) {
  analysis::TerminalStyle style;
  style.color = use_color();
  std::cerr << analysis::render_terminal(diags.items(), style);
  std::cerr.flush();
}

void print_error(const std::string& message) {
  std::cerr << "relax: error: " << message << "\n";
}

}  // namespace relax::cli

// Input reading and diagnostic output for the command line.
#include "cli/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

#include "analysis/diagnostics/limits.h"
#include "analysis/diagnostics/terminal.h"
#include "cli/commands.h"
#include "ir/parse_int.h"

namespace relax::cli {

namespace fs = std::filesystem;

GlobalOptions& global_options() {
  static GlobalOptions options;
  return options;
}

void add_max_errors_option(CLI::App* cmd, const std::string& help) {
  cmd->add_option("--max-errors", global_options().max_errors,
                  help.empty() ? "Stop after N errors in a file (default 100; 0: no limit): the "
                                 "rest of the file is not checked and E0001 says so; at most N "
                                 "warnings per file are shown"
                               : help)
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos)
              return "";
            return "expected a number of errors (0: no limit), not `" + value + "`";
          },
          ""));
}

ir::DiagnosticBag input_diagnostics() {
  ir::DiagnosticBag diags;
  diags.set_error_limit(global_options().max_errors);
  return diags;
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

bool stderr_color() {
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

void print_diagnostics(const ir::DiagnosticBag& diags) {
  analysis::TerminalStyle style;
  style.color = stderr_color();
  size_t limit = global_options().max_errors;
  style.max_warnings = limit;
  ir::DiagnosticBag unique = diags;
  unique.remove_duplicates();
  std::vector<ir::Diagnostic> shown = std::move(unique.items());
  ir::Diagnostic notice;
  if (analysis::limit_notice(diags, notice)) shown.push_back(std::move(notice));
  // A bag filled without a limit (the compiler's) is capped here.
  analysis::cap_errors(shown, limit);
  analysis::render_terminal(shown, style, std::cerr);
  std::cerr.flush();
}

bool write_file_atomically(const std::string& path, std::string_view text) {
  if (path == "-") {
    std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
    std::cout.flush();
    if (!std::cout) {
      print_error("cannot write to standard output");
      return false;
    }
    return true;
  }
  // The mode of the file it replaces, or what a plain create would give.
  mode_t mode = 0;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  fs::path p(path);
  std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  std::string tmpl = dir + "/." + p.filename().string() + ".tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    print_error("cannot create a temporary file next to '" + path + "': " + std::strerror(errno));
    return false;
  }
  std::string tmp(name.data());
  size_t written = 0;
  bool ok = true;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    written += static_cast<size_t>(n);
  }
  if (ok && ::fchmod(fd, mode) != 0) ok = false;
  if (ok && ::fsync(fd) != 0) ok = false;
  if (::close(fd) != 0) ok = false;
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) ok = false;
  if (!ok) {
    print_error("cannot write '" + path + "': " + std::strerror(errno));
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

void print_error(const std::string& message) {
  std::cerr << "relax: error: " << message << "\n";
}

void print_note(const std::string& message) {
  std::cerr << "relax: note: " << message << "\n";
}

const CLI::Validator& whole_integer() {
  static const CLI::Validator v(
      [](std::string& text) {
        auto value = ir::parse_int64(text);
        if (!value) return "`" + text + "` is not a whole decimal integer";
        text = std::to_string(*value);  // CLI11 would read a leading 0 as octal
        return std::string();
      },
      "");
  return v;
}

}  // namespace relax::cli

// Input reading and diagnostic output for the command line.
#include "cli/common.h"

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

#include "analysis/check.h"
#include "analysis/diagnostics/limits.h"
#include "analysis/diagnostics/terminal.h"
#include "cli/commands.h"
#include "ir/parse_int.h"
#include "vm/io/atomic_file.h"

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
  vm::Status written = vm::write_file_atomically(path, text);
  if (!written) print_error(written.error().message);
  return written.ok();
}

bool refuse_overwriting_inputs(const std::string& option, const std::string& output,
                               const std::vector<std::string>& inputs) {
  if (output.empty() || output == "-") return true;
  for (const std::string& input : inputs) {
    if (input.empty() || input == "-") continue;
    std::error_code ec;
    if (fs::equivalent(output, input, ec)) {
      print_error("refusing to write " + option + " " + output + ": it is the input " + input +
                  (output == input ? "" : " (the same file)") + "; give another output path");
      return false;
    }
  }
  return true;
}

std::optional<SourceFile> read_source_file(const std::string& path, std::string& error) {
  SourceFile file;
  if (!analysis::read_source(path, file.text, error, &file.bom)) return std::nullopt;
  return file;
}

bool rewrite_source_file(const std::string& path, const SourceFile& original,
                         std::string_view text) {
  if (!original.bom) return write_file_atomically(path, text);
  std::string with_bom("\xEF\xBB\xBF");
  with_bom.append(text);
  return write_file_atomically(path, with_bom);
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

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
#include "analysis/diagnostics/terminal.h"
#include "vm/io/atomic_file.h"

namespace relax::cli {

namespace fs = std::filesystem;

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
  ir::DiagnosticBag unique = diags;
  unique.remove_duplicates();
  std::cerr << analysis::render_terminal(unique.items(), style);
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

}  // namespace relax::cli

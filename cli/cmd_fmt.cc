// `relax fmt`: format .relax files in place (atomically, through symbolic links, keeping mode,
// owner and a byte order mark), to standard output for `-`, or only report with --check /
// --diff. A file that cannot be formatted safely, or written, is reported and left untouched.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/project_settings.h"
#include "syntax/format.h"

namespace relax::cli {

namespace {

namespace fs = std::filesystem;

// The files named on the command line, directories walked for *.relax (sorted).
bool collect(const std::vector<std::string>& inputs, std::vector<std::string>& files) {
  bool ok = true;
  for (const std::string& in : inputs) {
    if (in == "-") {
      files.push_back(in);
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(
               in, fs::directory_options::skip_permission_denied, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && it->path().extension() == ".relax")
          found.push_back(it->path().string());
      }
      if (ec) {
        print_error("cannot read directory '" + in + "': " + ec.message());
        ok = false;
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(in, ec)) {
      files.push_back(in);
    } else {
      print_error("no such file or directory: '" + in + "'");
      ok = false;
    }
  }
  return ok;
}

}  // namespace

Runner add_fmt_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    bool check = false;
    bool diff = false;
    int line_width = 0;  // 0: not given
    std::string profile;
    ConfigChoice config;
  };
  auto options = std::make_shared<Options>();
  CLI::App* cmd =
      app.add_subcommand("fmt", "Format .relax files (the layout of `ruff format`, comments kept)");
  cmd->add_option("files", options->inputs,
                  "Files, directories (searched for *.relax) or - for standard input")
      ->required();
  cmd->add_flag("--check", options->check,
                "Change nothing; list the files that would change (exit 1 if any)");
  cmd->add_flag("--diff", options->diff,
                "Change nothing; print a unified diff of the changes (exit 1 if any)");
  cmd->add_option("--line-width", options->line_width,
                  "Maximum line width (default: the configuration's [format] line-width, else 100)")
      ->transform(whole_integer())
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--profile", options->profile,
                  "Also rewrite spellings to a profile: legacy (TVM v0.20-v0.23) or current (TVM "
                  "main, 2026)")
      ->check(CLI::IsMember({"legacy", "current"}));
  add_config_options(cmd, options->config);
  add_max_errors_option(cmd,
                        "Show at most N errors and N warnings per file (default 100; 0: all); "
                        "E0001 says how many more errors there are");
  cmd->footer(
      "Files are rewritten in place unless --check or --diff is given, atomically (a temporary\n"
      "file and a rename: a symbolic link's target is rewritten and the link kept; mode, owner\n"
      "and a UTF-8 byte order mark are kept); - formats standard input to standard output. A file\n"
      "is only written when its formatted text parses to the same syntax tree (up to layout:\n"
      "parentheses, commas, literal spellings) with the same comments; otherwise it is left\n"
      "untouched and reported. A file that cannot be written is reported and counted as not\n"
      "written.\n"
      "Configuration: each file's nearest relax.toml (or pyproject.toml with [tool.relax]) sets\n"
      "[format] line-width and profile; the flags win (docs/configuration.md).\n"
      "Exit codes: 0 ok, 1 files would change (--check, --diff) or could not be formatted, 2\n"
      "usage or I/O errors (a file that could not be read or written).");
  return [options]() -> int {
    std::vector<std::string> files;
    bool io_ok = collect(options->inputs, files);
    config::Overrides overrides;
    if (options->line_width > 0) overrides.line_width = static_cast<uint32_t>(options->line_width);
    if (options->profile == "legacy") overrides.profile = syntax::Profile::kLegacy;
    if (options->profile == "current") overrides.profile = syntax::Profile::kCurrent;
    ProjectSettings settings(options->config, overrides);
    bool report_only = options->check || options->diff;
    size_t changed = 0, unchanged = 0, failed = 0, unwritten = 0;
    for (const std::string& path : files) {
      std::optional<config::FileSettings> configured = settings.for_file(path);
      if (!configured) {
        io_ok = false;
        continue;
      }
      const syntax::FormatOptions& fo = configured->format;
      std::string error;
      std::optional<SourceFile> source = read_source_file(path, error);
      if (!source) {
        print_error(error);
        io_ok = false;
        continue;
      }
      const std::string& text = source->text;
      ir::DiagnosticBag diags;
      syntax::FormatResult r = syntax::format_text(text, fo, diags, display_name(path));
      print_diagnostics(diags);
      if (!r.ok) {
        ++failed;
        continue;
      }
      if (!r.changed) {
        ++unchanged;
        if (path == "-" && !report_only) rewrite_source_file(path, *source, r.text);
        continue;
      }
      if (options->diff) std::cout << syntax::unified_diff(text, r.text, display_name(path));
      if (options->check && !options->diff)
        std::cout << "would reformat " << display_name(path) << "\n";
      if (!report_only && !rewrite_source_file(path, *source, r.text)) {
        // Reported by the writer; the file is as it was.
        ++unwritten;
        io_ok = false;
        continue;
      }
      ++changed;
    }
    std::cout.flush();
    bool stdin_only = files.size() == 1 && files[0] == "-";
    if (!stdin_only || report_only) {
      std::string verb = report_only ? " would be reformatted" : " reformatted";
      std::cerr << changed << (changed == 1 ? " file" : " files") << verb << ", " << unchanged
                << (unchanged == 1 ? " file" : " files") << " left unchanged";
      if (failed)
        std::cerr << ", " << failed << (failed == 1 ? " file" : " files")
                  << " could not be formatted";
      if (unwritten)
        std::cerr << ", " << unwritten << (unwritten == 1 ? " file" : " files")
                  << " could not be written";
      std::cerr << "\n";
    }
    if (!io_ok) return kExitUsage;
    if (failed) return kExitInputErrors;
    if (report_only && changed) return kExitInputErrors;
    return kExitOk;
  };
}

}  // namespace relax::cli

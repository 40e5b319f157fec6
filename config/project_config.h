// The project configuration: `relax.toml` (or `[tool.relax]` in `pyproject.toml`) in a file's
// directory or the nearest one above it, read by `relax check`, `relax fmt` and `relax lsp`, so
// that CI and the editor agree. docs/configuration.md describes the keys:
//
//   [format]
//   line-width = 100            # relax fmt --line-width
//   profile = "current"         # relax fmt --profile (spellings)
//   [lint]
//   select = ["E", "W"]         # relax check --select
//   extend-select = ["W1012"]   # relax check --extend-select
//   ignore = ["W1001"]          # relax check --ignore
//   [lint.per-file-ignores]
//   "tests/**/*.relax" = ["W1002"]
//
// Settings given on the command line or by the editor (Overrides) win over the file's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/check.h"
#include "syntax/format.h"

namespace relax::config {

// Codes not reported in the files a glob matches: added to `ignore` for them (so, as with
// --ignore, a more specific select still wins: `W1001` selected beats `W10` ignored).
struct PerFileIgnore {
  std::string pattern;             // a glob, relative to the configuration's directory
  std::vector<std::string> codes;  // selectors (W1001, W10, E, ALL)
};

// What one configuration file says; unset values fall back to the defaults.
struct ProjectConfig {
  std::filesystem::path file;  // the file read (empty: no configuration)
  std::filesystem::path root;  // its directory: per-file-ignores patterns are relative to it
  std::optional<uint32_t> line_width;
  std::optional<syntax::Profile> profile;
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  std::vector<PerFileIgnore> per_file_ignores;
};

// A configuration file that cannot be used: "relax.toml:3:1: unknown key 'lnie-width' in [format]".
struct ConfigError {
  std::filesystem::path file;
  uint32_t line = 0, column = 0;  // 1-based; 0 when the error has no position
  std::string message;
  std::string to_string() const;
};

// The configuration or why it cannot be read.
struct LoadResult {
  std::optional<ProjectConfig> config;  // set when `error` is empty
  std::optional<ConfigError> error;
};

// Reads a configuration from text: `pyproject` for a pyproject.toml (the `[tool.relax]` table;
// a file without it yields a configuration with nothing set). Unknown keys and values of the
// wrong type are errors, as ruff has them.
LoadResult parse_config(std::string_view text, const std::filesystem::path& file, bool pyproject);
// Reads a configuration file (relax.toml, .relax.toml or pyproject.toml, by its name).
LoadResult load_config(const std::filesystem::path& file);

// The configuration file that applies to a file in `directory`: the nearest directory at or
// above it holding `relax.toml`, `.relax.toml` or a `pyproject.toml` with a `[tool.relax]` table
// (in that order of preference within a directory). Empty when there is none.
std::filesystem::path find_config_file(const std::filesystem::path& directory);

// Settings from the command line or the editor; they win over the configuration file's.
struct Overrides {
  std::optional<uint32_t> line_width;
  std::optional<syntax::Profile> profile;
  std::optional<std::vector<std::string>> select;  // replaces the file's select
  std::vector<std::string> extend_select;          // added to the file's
  std::vector<std::string> ignore;                 // added to the file's
};

// The settings in force for one file.
struct FileSettings {
  analysis::lint::RuleSelection rules;
  syntax::FormatOptions format;
};
// `config` may be null (no configuration). `file` is the checked file's path (relative paths
// are taken from the working directory); empty for standard input, which no per-file ignore
// matches.
FileSettings settings_for(const ProjectConfig* config, const Overrides& overrides,
                          const std::filesystem::path& file);

// Whether a per-file-ignores glob matches `relative` (a path relative to the configuration's
// directory, `/`-separated): `*` and `?` stay within one path segment, `**/` spans any number
// of them, `[abc]` and `[!abc]` are character classes. A pattern without `/` matches the file
// name alone, wherever the file is.
bool glob_matches(std::string_view pattern, std::string_view relative);

}  // namespace relax::config

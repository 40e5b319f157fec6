// The settings of a document: its project configuration (the nearest relax.toml or pyproject.toml
// with [tool.relax], config/project_config.h) with the editor's settings on top, as `relax check`
// and `relax fmt` have their flags on top. The editor's settings come in `initializationOptions`
// and `workspace/didChangeConfiguration`: {"relax": {"format": {"lineWidth", "profile"},
// "lint": {"select", "extendSelect", "ignore"}}} (the object without the "relax" wrapper too).
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "config/project_config.h"
#include "lsp/protocol.h"

namespace relax::lsp {

// The editor's settings as overrides; unknown keys are ignored, values of the wrong type are
// listed in `problems` ("relax.format.lineWidth must be an integer from 1 to 10000") and left out.
config::Overrides editor_overrides(const json& settings, std::vector<std::string>& problems);

// Configuration files, read once each and again when they change (by modification time and
// size). Used from the loop thread only.
class ProjectConfigs {
 public:
  struct Resolved {
    config::FileSettings settings;
    std::filesystem::path file;                // the configuration used (empty: none)
    std::optional<config::ConfigError> error;  // the configuration could not be used
  };
  // The settings for a document at `path` (empty: not a file; only the overrides apply).
  Resolved resolve(const std::string& path, const config::Overrides& overrides);
  // Whether `path` names a configuration file (relax.toml, .relax.toml, pyproject.toml).
  static bool is_config_file(const std::filesystem::path& path);

 private:
  struct Loaded {
    std::filesystem::file_time_type mtime;
    uintmax_t size = 0;
    config::LoadResult result;
  };
  std::map<std::filesystem::path, Loaded> loaded_;
};

}  // namespace relax::lsp

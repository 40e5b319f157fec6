// The project configuration as the commands see it: `--config FILE` / `--isolated` and the
// nearest relax.toml (or pyproject.toml with [tool.relax]) of each file, with the command's own
// flags on top (config/project_config.h).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "config/project_config.h"

namespace relax::cli {

struct ConfigChoice {
  std::string file;       // --config: this file for every input
  bool isolated = false;  // --isolated: no configuration file at all
};
void add_config_options(CLI::App* cmd, ConfigChoice& choice);

class ProjectSettings {
 public:
  ProjectSettings(ConfigChoice choice, config::Overrides overrides)
      : choice_(std::move(choice)), overrides_(std::move(overrides)) {}
  // The settings for one input ("-": standard input, configured from the working directory);
  // nullopt after printing the error when its configuration file cannot be used.
  std::optional<config::FileSettings> for_file(const std::string& path);

 private:
  // The configuration of a file (null: none), loaded once per configuration file.
  const config::ProjectConfig* config_of(const std::string& path, bool& ok);

  ConfigChoice choice_;
  config::Overrides overrides_;
  std::map<std::string, std::filesystem::path> file_by_directory_;
  std::map<std::filesystem::path, config::LoadResult> loaded_;
};

}  // namespace relax::cli

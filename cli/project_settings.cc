#include "cli/project_settings.h"

#include "cli/common.h"

namespace relax::cli {

namespace fs = std::filesystem;

void add_config_options(CLI::App* cmd, ConfigChoice& choice) {
  cmd->add_option("--config", choice.file,
                  "Read the configuration from this file (relax.toml, or a pyproject.toml with "
                  "[tool.relax]) instead of the nearest one above each input")
      ->option_text("FILE");
  cmd->add_flag("--isolated", choice.isolated, "Ignore every configuration file");
}

const config::ProjectConfig* ProjectSettings::config_of(const std::string& path, bool& ok) {
  ok = true;
  if (choice_.isolated) return nullptr;
  fs::path file;
  if (!choice_.file.empty()) {
    file = choice_.file;
  } else {
    std::error_code ec;
    fs::path dir = path == "-" ? fs::current_path(ec) : fs::absolute(path, ec).parent_path();
    if (ec) return nullptr;
    auto [it, fresh] = file_by_directory_.try_emplace(dir.string());
    if (fresh) it->second = config::find_config_file(dir);
    file = it->second;
  }
  if (file.empty()) return nullptr;
  auto [it, fresh] = loaded_.try_emplace(file);
  if (fresh) {
    it->second = config::load_config(file);
    if (it->second.error) print_error("invalid configuration: " + it->second.error->to_string());
  }
  if (it->second.error) {
    ok = false;
    return nullptr;
  }
  return &*it->second.config;
}

std::optional<config::FileSettings> ProjectSettings::for_file(const std::string& path) {
  bool ok = true;
  const config::ProjectConfig* config = config_of(path, ok);
  if (!ok) return std::nullopt;
  return config::settings_for(config, overrides_, path == "-" ? fs::path() : fs::path(path));
}

}  // namespace relax::cli

#include "lsp/settings.h"

#include "analysis/lint/suppression.h"

namespace relax::lsp {

namespace fs = std::filesystem;

namespace {

std::optional<std::vector<std::string>> selectors(const json& value, const std::string& name,
                                                  std::vector<std::string>& problems) {
  auto bad = [&](const std::string& why) {
    problems.push_back(name + " " + why);
    return std::nullopt;
  };
  if (!value.is_array()) return bad("must be an array of codes such as \"W1001\", \"W10\", \"E\"");
  std::vector<std::string> out;
  for (const json& item : value) {
    std::optional<std::vector<std::string>> parsed;
    if (item.is_string()) parsed = analysis::lint::parse_selectors(item.get<std::string>());
    if (!parsed || parsed->size() != 1)
      return bad("holds " + item.dump() +
                 ", which is not a code or a prefix such as \"W1001\", \"W10\", \"E\" or \"ALL\"");
    out.push_back(parsed->front());
  }
  return out;
}

}  // namespace

config::Overrides editor_overrides(const json& settings, std::vector<std::string>& problems) {
  config::Overrides out;
  if (!settings.is_object()) return out;
  const json* root = &settings;
  if (auto wrapped = settings.find("relax"); wrapped != settings.end() && wrapped->is_object())
    root = &*wrapped;
  if (auto format = root->find("format"); format != root->end() && format->is_object()) {
    if (auto width = format->find("lineWidth"); width != format->end() && !width->is_null()) {
      if (width->is_number_integer() && width->get<int64_t>() >= 1 &&
          width->get<int64_t>() <= 10000)
        out.line_width = static_cast<uint32_t>(width->get<int64_t>());
      else
        problems.push_back("relax.format.lineWidth must be an integer from 1 to 10000");
    }
    if (auto profile = format->find("profile"); profile != format->end() && !profile->is_null()) {
      if (*profile == "legacy")
        out.profile = syntax::Profile::kLegacy;
      else if (*profile == "current")
        out.profile = syntax::Profile::kCurrent;
      else
        problems.push_back("relax.format.profile must be \"legacy\" or \"current\"");
    }
  }
  if (auto lint = root->find("lint"); lint != root->end() && lint->is_object()) {
    // An empty list means "not set" (an editor's default), so the project's configuration holds.
    if (auto v = lint->find("select"); v != lint->end() && !v->is_null())
      if (auto s = selectors(*v, "relax.lint.select", problems); s && !s->empty()) out.select = s;
    if (auto v = lint->find("extendSelect"); v != lint->end() && !v->is_null())
      if (auto s = selectors(*v, "relax.lint.extendSelect", problems)) out.extend_select = *s;
    if (auto v = lint->find("ignore"); v != lint->end() && !v->is_null())
      if (auto s = selectors(*v, "relax.lint.ignore", problems)) out.ignore = *s;
  }
  return out;
}

bool ProjectConfigs::is_config_file(const fs::path& path) {
  fs::path name = path.filename();
  return name == "relax.toml" || name == ".relax.toml" || name == "pyproject.toml";
}

ProjectConfigs::Resolved ProjectConfigs::resolve(const std::string& path,
                                                 const config::Overrides& overrides) {
  Resolved out;
  const config::ProjectConfig* config = nullptr;
  if (!path.empty()) {
    out.file = config::find_config_file(fs::path(path).parent_path());
    if (!out.file.empty()) {
      std::error_code ec;
      auto mtime = fs::last_write_time(out.file, ec);
      uintmax_t size = fs::file_size(out.file, ec);
      auto it = loaded_.find(out.file);
      if (it == loaded_.end() || it->second.mtime != mtime || it->second.size != size)
        it = loaded_.insert_or_assign(out.file, Loaded{mtime, size, config::load_config(out.file)})
                 .first;
      if (it->second.result.error)
        out.error = it->second.result.error;
      else
        config = &*it->second.result.config;
    }
  }
  out.settings = config::settings_for(config, overrides, path);
  return out;
}

}  // namespace relax::lsp

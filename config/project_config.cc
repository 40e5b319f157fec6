#include "config/project_config.h"

#include <toml++/toml.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>

#include "analysis/lint/suppression.h"

namespace relax::config {

namespace fs = std::filesystem;

namespace {

// A configuration larger than this is not one: refused before it is parsed.
constexpr uintmax_t kMaxConfigBytes = 1 << 20;
constexpr int64_t kMaxLineWidth = 10000;  // as `relax fmt --line-width`

// Thrown inside the reader; becomes the LoadResult's error.
struct Invalid {
  toml::source_position at;
  std::string message;
};

toml::source_position position_of(const toml::node& node) {
  return node.source().begin;
}

std::string describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date or time";
  }
}

// Reads one table's keys: each must be known (`on_key` returns false for an unknown one).
void for_each_key(const toml::table& table, const std::string& where,
                  const std::function<bool(const std::string&, const toml::node&)>& on_key) {
  for (auto&& [key, node] : table) {
    std::string name(key.str());
    if (!on_key(name, node)) {
      toml::source_position at = key.source().begin;
      if (!at) at = position_of(node);
      throw Invalid{at, "unknown key '" + name + "' in " + where};
    }
  }
}

std::vector<std::string> selector_list(const toml::node& node, const std::string& key) {
  const toml::array* array = node.as_array();
  if (!array)
    throw Invalid{position_of(node), key + " must be an array of codes, not " + describe(node)};
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    std::optional<std::string> text = item.value_exact<std::string>();
    if (!text) throw Invalid{position_of(item), key + " must hold strings, not " + describe(item)};
    // One code per string, in any case (as the command line takes them).
    auto parsed = analysis::lint::parse_selectors(*text);
    if (!parsed || parsed->size() != 1)
      throw Invalid{position_of(item), "invalid rule selector '" + *text + "' in " + key +
                                           ": expected a code or a prefix such as W1001, W10, "
                                           "E or ALL"};
    out.push_back(parsed->front());
  }
  return out;
}

void read_format(const toml::table& table, const std::string& where, ProjectConfig& out) {
  for_each_key(table, where, [&](const std::string& key, const toml::node& node) {
    if (key == "line-width") {
      std::optional<int64_t> width = node.value_exact<int64_t>();
      if (!width || *width < 1 || *width > kMaxLineWidth)
        throw Invalid{position_of(node),
                      "line-width must be an integer from 1 to " + std::to_string(kMaxLineWidth)};
      out.line_width = static_cast<uint32_t>(*width);
      return true;
    }
    if (key == "profile") {
      std::optional<std::string> name = node.value_exact<std::string>();
      if (name == "legacy")
        out.profile = syntax::Profile::kLegacy;
      else if (name == "current")
        out.profile = syntax::Profile::kCurrent;
      else
        throw Invalid{position_of(node), "profile must be \"legacy\" or \"current\""};
      return true;
    }
    return false;
  });
}

void read_lint(const toml::table& table, const std::string& where, ProjectConfig& out) {
  for_each_key(table, where, [&](const std::string& key, const toml::node& node) {
    if (key == "select") {
      out.select = selector_list(node, key);
      return true;
    }
    if (key == "extend-select") {
      out.extend_select = selector_list(node, key);
      return true;
    }
    if (key == "ignore") {
      out.ignore = selector_list(node, key);
      return true;
    }
    if (key == "per-file-ignores") {
      const toml::table* patterns = node.as_table();
      if (!patterns)
        throw Invalid{
            position_of(node),
            "per-file-ignores must be a table of globs to code lists, not " + describe(node)};
      for (auto&& [glob, codes] : *patterns) {
        std::string pattern(glob.str());
        if (pattern.empty()) throw Invalid{glob.source().begin, "an empty per-file-ignores glob"};
        out.per_file_ignores.push_back(
            {pattern, selector_list(codes, "per-file-ignores \"" + pattern + "\"")});
      }
      return true;
    }
    return false;
  });
}

// The keys of relax.toml (or of [tool.relax]): `prefix` names the table in messages.
void read_root(const toml::table& table, const std::string& prefix, ProjectConfig& out) {
  std::string where = prefix.empty() ? "the configuration" : "[" + prefix + "]";
  auto sub = [&](const char* name) {
    return "[" + (prefix.empty() ? "" : prefix + ".") + name + "]";
  };
  for_each_key(table, where, [&](const std::string& key, const toml::node& node) {
    if (key != "format" && key != "lint") return false;
    const toml::table* t = node.as_table();
    if (!t) throw Invalid{position_of(node), key + " must be a table, not " + describe(node)};
    if (key == "format")
      read_format(*t, sub("format"), out);
    else
      read_lint(*t, sub("lint"), out);
    return true;
  });
}

bool is_pyproject(const fs::path& file) {
  return file.filename() == "pyproject.toml";
}

bool read_file(const fs::path& file, std::string& text, std::string& error) {
  std::error_code ec;
  uintmax_t size = fs::file_size(file, ec);
  if (ec) {
    error = "cannot read: " + ec.message();
    return false;
  }
  if (size > kMaxConfigBytes) {
    error = "larger than 1 MiB: not a configuration file";
    return false;
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (!in && !in.eof()) {
    error = "cannot read";
    return false;
  }
  text = buffer.str();
  return true;
}

// Whether a pyproject.toml has a [tool.relax] table (read without reporting its errors: a
// pyproject.toml that is not ours to judge does not stop the search).
bool has_tool_relax(const fs::path& file) {
  std::string text, error;
  if (!read_file(file, text, error)) return false;
  if (text.find("relax") == std::string::npos) return false;
  try {
    toml::table table = toml::parse(text, file.string());
    return table["tool"]["relax"].is_table();
  } catch (const toml::parse_error&) {
    // A pyproject.toml that mentions relax but does not parse is reported when loaded.
    return true;
  }
}

// The classic wildcard match with one backtracking point (correct when the star matches any
// sequence and every other element exactly one): `np` pattern elements against `ns` subject
// elements. Used twice: characters within a path segment, and segments within a path.
template <class IsStar, class Matches>
bool wildcard(size_t np, size_t ns, IsStar is_star, Matches matches) {
  size_t i = 0, j = 0, star = SIZE_MAX, mark = 0;
  while (j < ns) {
    if (i < np && !is_star(i) && matches(i, j)) {
      ++i, ++j;
    } else if (i < np && is_star(i)) {
      star = i++;
      mark = j;
    } else if (star != SIZE_MAX) {
      i = star + 1;
      j = ++mark;
    } else {
      return false;
    }
  }
  while (i < np && is_star(i)) ++i;
  return i == np;
}

// One element of a segment pattern: a character, `?`, `*` or a class `[a-z]` / `[!a-z]`.
struct Atom {
  enum Kind { kChar, kAny, kStar, kClass } kind = kChar;
  char c = 0;
  std::string_view set;
  bool negate = false;
  bool matches(char x) const {
    switch (kind) {
      case kChar:
        return x == c;
      case kAny:
        return true;
      case kStar:
        return true;
      case kClass: {
        bool in = false;
        for (size_t k = 0; k < set.size(); ++k) {
          if (k + 2 < set.size() && set[k + 1] == '-') {
            in |= x >= set[k] && x <= set[k + 2];
            k += 2;
          } else {
            in |= set[k] == x;
          }
        }
        return in != negate;
      }
    }
    return false;
  }
};

std::vector<Atom> atoms(std::string_view p) {
  std::vector<Atom> out;
  for (size_t i = 0; i < p.size(); ++i) {
    Atom a;
    if (p[i] == '*') {
      a.kind = Atom::kStar;
      while (i + 1 < p.size() && p[i + 1] == '*') ++i;
    } else if (p[i] == '?') {
      a.kind = Atom::kAny;
    } else if (p[i] == '[' && p.find(']', i + 2) != std::string_view::npos) {
      size_t close = p.find(']', i + 2);
      a.kind = Atom::kClass;
      a.set = p.substr(i + 1, close - i - 1);
      if (a.set[0] == '!' || a.set[0] == '^') {
        a.negate = true;
        a.set.remove_prefix(1);
      }
      i = close;
    } else {
      a.c = p[i];
    }
    out.push_back(a);
  }
  return out;
}

bool segment_matches(std::string_view pattern, std::string_view name) {
  std::vector<Atom> a = atoms(pattern);
  return wildcard(
      a.size(), name.size(), [&](size_t i) { return a[i].kind == Atom::kStar; },
      [&](size_t i, size_t j) { return a[i].matches(name[j]); });
}

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  size_t at = 0;
  for (;;) {
    size_t slash = path.find('/', at);
    std::string_view seg = path.substr(at, slash == std::string_view::npos ? slash : slash - at);
    if (!seg.empty()) out.push_back(seg);
    if (slash == std::string_view::npos) return out;
    at = slash + 1;
  }
}

// A whole path against a pattern of segments, `**` matching any number of segments.
bool match_glob(std::string_view pattern, std::string_view path) {
  std::vector<std::string_view> p = segments(pattern), s = segments(path);
  return wildcard(
      p.size(), s.size(), [&](size_t i) { return p[i] == "**"; },
      [&](size_t i, size_t j) { return segment_matches(p[i], s[j]); });
}

}  // namespace

std::string ConfigError::to_string() const {
  std::string out = file.string();
  if (line) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  return out + ": " + message;
}

LoadResult parse_config(std::string_view text, const fs::path& file, bool pyproject) {
  LoadResult result;
  ProjectConfig config;
  std::error_code ec;
  config.file = fs::absolute(file, ec).lexically_normal();
  config.root = config.file.parent_path();
  try {
    toml::table table = toml::parse(text, file.string());
    if (pyproject) {
      toml::node_view<toml::node> tool = table["tool"];
      if (tool && !tool.is_table())
        throw Invalid{position_of(*tool.node()), "tool must be a table"};
      if (toml::node* relax = tool["relax"].node()) {
        const toml::table* t = relax->as_table();
        if (!t) throw Invalid{position_of(*relax), "tool.relax must be a table"};
        read_root(*t, "tool.relax", config);
      }
    } else {
      read_root(table, "", config);
    }
  } catch (const toml::parse_error& e) {
    result.error = ConfigError{file, e.source().begin.line, e.source().begin.column,
                               std::string(e.description())};
    return result;
  } catch (const Invalid& e) {
    result.error = ConfigError{file, e.at.line, e.at.column, e.message};
    return result;
  }
  result.config = std::move(config);
  return result;
}

LoadResult load_config(const fs::path& file) {
  std::string text, error;
  if (!read_file(file, text, error)) {
    LoadResult result;
    result.error = ConfigError{file, 0, 0, error};
    return result;
  }
  return parse_config(text, file, is_pyproject(file));
}

fs::path find_config_file(const fs::path& directory) {
  std::error_code ec;
  fs::path dir = fs::absolute(directory, ec);
  if (ec) return {};
  dir = dir.lexically_normal();
  // Bounded by the path's depth.
  for (;;) {
    for (const char* name : {"relax.toml", ".relax.toml"}) {
      fs::path candidate = dir / name;
      if (fs::is_regular_file(candidate, ec)) return candidate;
    }
    fs::path pyproject = dir / "pyproject.toml";
    if (fs::is_regular_file(pyproject, ec) && has_tool_relax(pyproject)) return pyproject;
    fs::path parent = dir.parent_path();
    if (parent.empty() || parent == dir) return {};
    dir = parent;
  }
}

bool glob_matches(std::string_view pattern, std::string_view relative) {
  if (pattern.find('/') == std::string_view::npos) {
    size_t slash = relative.rfind('/');
    std::string_view name = slash == std::string_view::npos ? relative : relative.substr(slash + 1);
    return match_glob(pattern, name);
  }
  if (pattern.substr(0, 2) == "./") pattern.remove_prefix(2);
  return match_glob(pattern, relative);
}

FileSettings settings_for(const ProjectConfig* config, const Overrides& overrides,
                          const fs::path& file) {
  FileSettings out;
  analysis::lint::RuleSelection& rules = out.rules;
  if (overrides.select)
    rules.select = *overrides.select;
  else if (config && config->select)
    rules.select = *config->select;
  if (config) {
    rules.extend_select = config->extend_select;
    rules.ignore = config->ignore;
  }
  rules.extend_select.insert(rules.extend_select.end(), overrides.extend_select.begin(),
                             overrides.extend_select.end());
  rules.ignore.insert(rules.ignore.end(), overrides.ignore.begin(), overrides.ignore.end());
  if (config && !config->per_file_ignores.empty() && !file.empty()) {
    std::error_code ec;
    fs::path absolute = fs::absolute(file, ec).lexically_normal();
    fs::path relative = absolute.lexically_relative(config->root);
    std::string rel = relative.generic_string();
    if (!ec && !rel.empty() && rel.substr(0, 2) != "..") {
      for (const PerFileIgnore& p : config->per_file_ignores)
        if (glob_matches(p.pattern, rel))
          rules.ignore.insert(rules.ignore.end(), p.codes.begin(), p.codes.end());
    }
  }
  if (overrides.line_width)
    out.format.line_width = *overrides.line_width;
  else if (config && config->line_width)
    out.format.line_width = *config->line_width;
  if (overrides.profile)
    out.format.profile = overrides.profile;
  else if (config)
    out.format.profile = config->profile;
  return out;
}

}  // namespace relax::config

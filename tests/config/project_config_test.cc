// The project configuration: every key of relax.toml and [tool.relax], the errors (with their
// positions) for unknown keys, wrong types and TOML syntax, which file applies to a directory,
// the per-file-ignores globs, and how the flags and the editor's settings go on top.
#include <catch2/catch.hpp>
#include <map>

#include "config/project_config.h"
#include "tests/support/test_util.h"

using namespace relax;
using config::glob_matches;
using config::parse_config;
namespace fs = std::filesystem;

namespace {

config::ProjectConfig parsed(const std::string& text, bool pyproject = false) {
  config::LoadResult r =
      parse_config(text, pyproject ? "/p/pyproject.toml" : "/p/relax.toml", pyproject);
  INFO((r.error ? r.error->to_string() : ""));
  REQUIRE(r.config);
  return *r.config;
}

config::ConfigError error_of(const std::string& text, bool pyproject = false) {
  config::LoadResult r =
      parse_config(text, pyproject ? "/p/pyproject.toml" : "/p/relax.toml", pyproject);
  REQUIRE(r.error);
  REQUIRE_FALSE(r.config);
  return *r.error;
}

}  // namespace

TEST_CASE("config: every key of relax.toml") {
  config::ProjectConfig c = parsed(R"(
[format]
line-width = 88
profile = "current"

[lint]
select = ["E", "W10"]
extend-select = ["W1012"]
ignore = ["w1001"]  # any case, as on the command line

[lint.per-file-ignores]
"tests/**/*.relax" = ["W1002", "W1003"]
"scratch.relax" = ["ALL"]
)");
  CHECK(c.file == "/p/relax.toml");
  CHECK(c.root == "/p");
  CHECK(c.line_width == 88u);
  CHECK(c.profile == syntax::Profile::kCurrent);
  REQUIRE(c.select);
  CHECK(*c.select == std::vector<std::string>{"E", "W10"});
  CHECK(c.extend_select == std::vector<std::string>{"W1012"});
  CHECK(c.ignore == std::vector<std::string>{"W1001"});
  // Every matching pattern applies, so their order does not matter (TOML tables have none).
  REQUIRE(c.per_file_ignores.size() == 2);
  std::map<std::string, std::vector<std::string>> by_pattern;
  for (const auto& p : c.per_file_ignores) by_pattern[p.pattern] = p.codes;
  CHECK(by_pattern["tests/**/*.relax"] == std::vector<std::string>{"W1002", "W1003"});
  CHECK(by_pattern["scratch.relax"] == std::vector<std::string>{"ALL"});
}

TEST_CASE("config: an empty file sets nothing") {
  config::ProjectConfig c = parsed("# nothing yet\n");
  CHECK_FALSE(c.line_width);
  CHECK_FALSE(c.profile);
  CHECK_FALSE(c.select);
  CHECK(c.ignore.empty());
}

TEST_CASE("config: pyproject.toml is read from [tool.relax] only") {
  config::ProjectConfig c = parsed(R"(
[project]
name = "models"
[tool.ruff]
line-length = 120
[tool.relax.format]
line-width = 120
[tool.relax.lint]
ignore = ["W1002"]
)",
                                   true);
  CHECK(c.line_width == 120u);
  CHECK(c.ignore == std::vector<std::string>{"W1002"});
  // Without the table: nothing set, and other tools' keys are not ours to judge.
  config::ProjectConfig none = parsed("[tool.black]\nline-length = 3\n", true);
  CHECK_FALSE(none.line_width);
}

TEST_CASE("config: errors name the file, the line and the column") {
  config::ConfigError unknown = error_of("[format]\nlnie-width = 80\n");
  CHECK(unknown.line == 2);
  CHECK(unknown.column == 1);
  CHECK(unknown.to_string() == "/p/relax.toml:2:1: unknown key 'lnie-width' in [format]");

  config::ConfigError top = error_of("line-width = 80\n");
  CHECK(top.message == "unknown key 'line-width' in the configuration");

  config::ConfigError width = error_of("[format]\nline-width = \"wide\"\n");
  CHECK(width.line == 2);
  CHECK(width.message == "line-width must be an integer from 1 to 10000");
  CHECK(error_of("[format]\nline-width = 0\n").message ==
        "line-width must be an integer from 1 to 10000");
  CHECK(error_of("[format]\nprofile = \"new\"\n").message ==
        "profile must be \"legacy\" or \"current\"");

  config::ConfigError selector = error_of("[lint]\nselect = [\"E\", \"X12\"]\n");
  CHECK(selector.line == 2);
  CHECK(selector.column == 16);
  CHECK(selector.message ==
        "invalid rule selector 'X12' in select: expected a code or a prefix such as W1001, W10, "
        "E or ALL");
  CHECK(error_of("[lint]\nignore = \"W1001\"\n").message ==
        "ignore must be an array of codes, not a string");
  CHECK(error_of("[lint]\nignore = [1]\n").message == "ignore must hold strings, not an integer");
  CHECK(error_of("lint = 3\n").message == "lint must be a table, not an integer");
  CHECK(error_of("[lint.per-file-ignores]\n\"a.relax\" = \"W1\"\n").message ==
        "per-file-ignores \"a.relax\" must be an array of codes, not a string");

  config::ConfigError syntax = error_of("[format\nline-width = 3\n");
  CHECK(syntax.line == 1);
  CHECK(syntax.to_string().rfind("/p/relax.toml:1:", 0) == 0);

  config::ConfigError py = error_of("[tool.relax]\nformat = 1\n", true);
  CHECK(py.message == "format must be a table, not an integer");
  CHECK(error_of("[tool.relax.lint]\nselct = []\n", true).message ==
        "unknown key 'selct' in [tool.relax.lint]");
}

TEST_CASE("config: the nearest directory with a configuration wins") {
  test::TempDir dir("relax_config");
  fs::path a = dir.path() / "a", b = a / "b", c = b / "c";
  fs::create_directories(c);
  CHECK(config::find_config_file(c).empty());

  test::write_file(a / "relax.toml", "[format]\nline-width = 80\n");
  CHECK(config::find_config_file(c) == a / "relax.toml");

  // A pyproject.toml without [tool.relax] does not stop the search.
  test::write_file(b / "pyproject.toml", "[project]\nname = \"x\"\n");
  CHECK(config::find_config_file(c) == a / "relax.toml");
  test::write_file(b / "pyproject.toml", "[tool.relax.format]\nline-width = 90\n");
  CHECK(config::find_config_file(c) == b / "pyproject.toml");
  // relax.toml before pyproject.toml in one directory; .relax.toml counts as relax.toml.
  test::write_file(b / ".relax.toml", "");
  CHECK(config::find_config_file(c) == b / ".relax.toml");
  test::write_file(b / "relax.toml", "");
  CHECK(config::find_config_file(c) == b / "relax.toml");

  config::LoadResult loaded = config::load_config(a / "relax.toml");
  REQUIRE(loaded.config);
  CHECK(loaded.config->line_width == 80u);
  config::LoadResult missing = config::load_config(dir.path() / "none.toml");
  REQUIRE(missing.error);
  CHECK(missing.error->to_string().find("cannot read") != std::string::npos);
}

TEST_CASE("config: per-file-ignores globs") {
  CHECK(glob_matches("scratch.relax", "scratch.relax"));
  CHECK(glob_matches("scratch.relax", "deep/down/scratch.relax"));  // no `/`: the name
  CHECK(glob_matches("*.relax", "a/b.relax"));
  CHECK_FALSE(glob_matches("*.relax", "a/b.py"));
  CHECK(glob_matches("tests/*.relax", "tests/a.relax"));
  CHECK_FALSE(glob_matches("tests/*.relax", "tests/sub/a.relax"));  // `*` stays in a segment
  CHECK(glob_matches("tests/**/*.relax", "tests/a.relax"));         // `**/`: zero segments too
  CHECK(glob_matches("tests/**/*.relax", "tests/x/y/a.relax"));
  CHECK_FALSE(glob_matches("tests/**/*.relax", "src/tests/a.relax"));
  CHECK(glob_matches("**/gen/*.relax", "a/b/gen/c.relax"));
  CHECK(glob_matches("tests/**", "tests/a/b.relax"));
  CHECK(glob_matches("./tests/*.relax", "tests/a.relax"));
  CHECK(glob_matches("model_?.relax", "model_1.relax"));
  CHECK_FALSE(glob_matches("model_?.relax", "model_12.relax"));
  CHECK(glob_matches("model_[0-9].relax", "model_7.relax"));
  CHECK_FALSE(glob_matches("model_[!0-9].relax", "model_7.relax"));
  CHECK(glob_matches("m*l*x", "matmul.relax"));
  // Backtracking stays linear-ish: a pattern of many stars against a long name.
  CHECK_FALSE(glob_matches("*a*a*a*a*a*a*a*a*b", std::string(2000, 'a')));
}

TEST_CASE("config: flags and editor settings go on top of the file") {
  config::ProjectConfig c = parsed(R"(
[format]
line-width = 88
[lint]
select = ["E", "W10"]
extend-select = ["W1012"]
ignore = ["W1001"]
[lint.per-file-ignores]
"tests/**/*.relax" = ["W1002"]
)");
  config::Overrides none;
  config::FileSettings s = config::settings_for(&c, none, "/p/src/model.relax");
  CHECK(s.format.line_width == 88);
  CHECK(s.rules.select == std::vector<std::string>{"E", "W10"});
  CHECK(s.rules.ignore == std::vector<std::string>{"W1001"});
  CHECK_FALSE(s.rules.enabled("W1001", true));
  CHECK(s.rules.enabled("W1002", true));

  // The per-file ignores of a matching file.
  config::FileSettings t = config::settings_for(&c, none, "/p/tests/unit/a.relax");
  CHECK(t.rules.ignore == std::vector<std::string>{"W1001", "W1002"});
  CHECK_FALSE(t.rules.enabled("W1002", true));
  // A file outside the configuration's directory matches none.
  config::FileSettings outside = config::settings_for(&c, none, "/q/tests/a.relax");
  CHECK(outside.rules.ignore == std::vector<std::string>{"W1001"});

  config::Overrides flags;
  flags.line_width = 120;
  flags.select = std::vector<std::string>{"W1001"};
  flags.ignore = {"W1012"};
  config::FileSettings f = config::settings_for(&c, flags, "/p/src/model.relax");
  CHECK(f.format.line_width == 120);
  CHECK(f.rules.select == std::vector<std::string>{"W1001"});
  CHECK(f.rules.ignore == std::vector<std::string>{"W1001", "W1012"});
  // As with the flags alone: the file's ignore of W1001 and the flag's select of W1001 are
  // equally specific, and at equal length ignore wins; a more specific select beats a prefix.
  CHECK_FALSE(f.rules.enabled("W1001", true));
  config::Overrides prefix;
  prefix.ignore = {"W10"};
  prefix.select = std::vector<std::string>{"W1002"};
  CHECK(config::settings_for(&c, prefix, "/p/src/model.relax").rules.enabled("W1002", true));

  // No configuration: the defaults, and the flags.
  config::FileSettings d = config::settings_for(nullptr, none, "");
  CHECK(d.format.line_width == 100);
  CHECK_FALSE(d.format.profile);
  CHECK(d.rules.select.empty());
}

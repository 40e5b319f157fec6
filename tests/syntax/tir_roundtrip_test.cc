// Round trips of TIR over the shared data: every TIR-only conformance file prints back exactly
// (TVM v0.20's own output), reparses to a structurally equal module and is a fixpoint; the
// prim_funcs of the examples round-trip in both profiles. Skips when ../shared is absent.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "tir_test_util.h"

using namespace relax;
using namespace relax::tirtest;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Conformance files without Relax functions (the TIR half can print them completely).
std::vector<fs::path> tir_only_conformance_files() {
  std::vector<fs::path> out;
  fs::path dir = fs::path(RELAX_SHARED_DIR) / "conformance" / "tvm-v0.20";
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".relax") continue;
    std::string text = read_file(entry.path());
    if (text.find("@R.function") == std::string::npos &&
        text.find("@T.prim_func") != std::string::npos) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The text of each prim_func of a printed module (decorator to the end of its body), by name.
std::map<std::string, std::string> prim_func_regions(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    size_t indent = lines[i].find_first_not_of(' ');
    if (indent == std::string::npos || lines[i].compare(indent, 12, "@T.prim_func") != 0) continue;
    size_t j = i + 1;
    std::string name;
    if (j < lines.size()) {
      size_t def = lines[j].find("def ");
      if (def != std::string::npos)
        name = lines[j].substr(def + 4, lines[j].find('(', def) - def - 4);
      ++j;
    }
    size_t last = j;
    for (; j < lines.size(); ++j) {
      size_t ind = lines[j].find_first_not_of(' ');
      if (ind == std::string::npos) continue;
      if (ind <= indent) break;
      last = j + 1;
    }
    std::string region;
    for (size_t k = i; k < last; ++k) region += lines[k] + "\n";
    out[name] = region;
    i = last - 1;
  }
  return out;
}

}  // namespace

TEST_CASE("TIR-only conformance files print back exactly and round-trip") {
  auto files = tir_only_conformance_files();
  if (files.empty()) {
    WARN("skipped: " << RELAX_SHARED_DIR << "/conformance is absent");
    return;
  }
  size_t exact = 0;
  for (const auto& path : files) {
    std::string text = read_file(path);
    INFO(path.filename().string());
    Parsed p = parse(text, path.string());
    REQUIRE_FALSE(p.diags.has_errors());
    std::string printed = print(p);
    CHECK(printed == text);
    exact += printed == text;
    Parsed again = parse(printed);
    REQUIRE_FALSE(again.diags.has_errors());
    auto diff = ir::structural_diff(p.result.module, again.result.module);
    INFO(diff.value_or(""));
    CHECK_FALSE(diff.has_value());
  }
  CHECK(exact == files.size());
}

TEST_CASE("TIR-only conformance files round-trip through the current profile") {
  auto files = tir_only_conformance_files();
  if (files.empty()) {
    WARN("skipped: " << RELAX_SHARED_DIR << "/conformance is absent");
    return;
  }
  for (const auto& path : files) {
    INFO(path.filename().string());
    Parsed legacy = parse(read_file(path), path.string());
    REQUIRE_FALSE(legacy.diags.has_errors());
    std::string current = print(legacy, syntax::Profile::kCurrent);
    Parsed reparsed = parse(current);
    INFO(current << "\n" << diag_text(reparsed.diags));
    REQUIRE_FALSE(reparsed.diags.has_errors());
    auto diff = ir::structural_diff(legacy.result.module, reparsed.result.module);
    INFO(diff.value_or(""));
    CHECK_FALSE(diff.has_value());
    CHECK(print(reparsed, syntax::Profile::kCurrent) == current);
    CHECK(print(reparsed) == print(legacy));
  }
}

TEST_CASE("prim_funcs of the shared examples round-trip in both profiles") {
  fs::path dir = fs::path(RELAX_SHARED_DIR) / "examples";
  if (!fs::exists(dir)) {
    WARN("skipped: " << dir << " is absent");
    return;
  }
  size_t seen = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".relax") continue;
    std::string text = read_file(entry.path());
    if (text.find("@T.prim_func") == std::string::npos) continue;
    INFO(entry.path().filename().string());
    Parsed p = parse(text, entry.path().string());
    // The Relax half may not parse everything yet; the prim_funcs must.
    for (const auto& member : p.result.module->functions) {
      if (!member.func.is<ir::tir::PrimFunc>()) continue;
      ++seen;
      auto module = ir::make<ir::IRModule>();
      module->add(member.gvar, member.func);
      for (auto profile : {syntax::Profile::kLegacy, syntax::Profile::kCurrent}) {
        syntax::PrintOptions options;
        options.profile = profile;
        std::string printed = syntax::print_module(*module, options);
        Parsed again = parse(printed);
        INFO(printed << "\n" << diag_text(again.diags));
        REQUIRE_FALSE(again.diags.has_errors());
        auto diff = ir::structural_diff(module, again.result.module);
        INFO(diff.value_or(""));
        CHECK_FALSE(diff.has_value());
        CHECK(syntax::print_module(*again.result.module, options) == printed);
      }
    }
  }
  CHECK(seen >= 3);
}

TEST_CASE("prim_funcs of mixed conformance files print back exactly and round-trip") {
  fs::path dir = fs::path(RELAX_SHARED_DIR) / "conformance" / "tvm-v0.20";
  if (!fs::exists(dir)) {
    WARN("skipped: " << dir << " is absent");
    return;
  }
  size_t seen = 0, exact = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".relax") continue;
    std::string text = read_file(entry.path());
    if (text.find("@R.function") == std::string::npos ||
        text.find("@T.prim_func") == std::string::npos)
      continue;
    INFO(entry.path().filename().string());
    auto expected = prim_func_regions(text);
    Parsed p = parse(text, entry.path().string());
    for (const auto& member : p.result.module->functions) {
      if (!member.func.is<ir::tir::PrimFunc>()) continue;
      ++seen;
      auto module = ir::make<ir::IRModule>();
      module->name = p.result.module->name;
      module->add(member.gvar, member.func);
      std::string printed = syntax::print_module(*module);
      auto got = prim_func_regions(printed);
      CHECK(got[member.gvar->name] == expected[member.gvar->name]);
      exact += got[member.gvar->name] == expected[member.gvar->name];
      Parsed again = parse(printed);
      REQUIRE_FALSE(again.diags.has_errors());
      CHECK_FALSE(ir::structural_diff(module, again.result.module).has_value());
    }
  }
  CHECK(seen >= 300);
  CHECK(exact == seen);
}

// Round trips of prim_funcs printed alone: each prim_func of a conformance file that also has
// Relax functions, put in a module of its own, prints as TVM printed it inside the whole module
// and reparses to the same function. (Whole files round-trip in conformance_test.cc.) Skips when
// ../shared is absent.
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

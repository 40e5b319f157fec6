// The catalogue of builtins (syntax/builtin_catalog.h): one entry per name the front end gives a
// meaning to, sorted, each with a signature and a one-sentence doc.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/builtin_catalog.h"
#include "syntax/frontend.h"

using relax::syntax::builtin_catalog;
using relax::syntax::builtin_names;
using relax::syntax::BuiltinInfo;
using relax::syntax::find_builtin;

namespace {

// The names the front end uses for Python syntax (operators, attributes, subscripts, method
// calls, metadata kinds): their signatures are the surface form (`a + b`, `A.shape`).
bool is_hook(std::string_view name) {
  for (std::string_view prefix : {"R.operator.", "R.Expr.", "T.Buffer.", "T.PrimExpr.",
                                  "T.GlobalVar.", "R.__op__", "metadata."}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("builtin catalog: names equal builtin_names(), sorted and unique") {
  const std::vector<BuiltinInfo>& catalog = builtin_catalog();
  std::vector<std::string> names;
  for (const BuiltinInfo& e : catalog) names.emplace_back(e.name);
  for (size_t i = 1; i < names.size(); ++i) {
    INFO(names[i - 1] << " then " << names[i]);
    CHECK(names[i - 1] < names[i]);
  }
  std::set<std::string> mine(names.begin(), names.end());
  std::set<std::string> front_end(builtin_names().begin(), builtin_names().end());
  for (const std::string& n : front_end) {
    INFO("builtin without a catalogue entry: " << n);
    CHECK(mine.count(n) == 1);
  }
  for (const std::string& n : mine) {
    INFO("catalogue entry the front end does not define: " << n);
    CHECK(front_end.count(n) == 1);
  }
  CHECK(names == builtin_names());
}

TEST_CASE("builtin catalog: every entry has a signature and a one-sentence doc") {
  for (const BuiltinInfo& e : builtin_catalog()) {
    INFO(e.name << ": `" << e.signature << "` " << e.doc);
    REQUIRE(!e.signature.empty());
    REQUIRE(!e.doc.empty());
    CHECK(e.doc.back() == '.');
    CHECK(e.doc.find('\n') == std::string_view::npos);
    if (is_hook(e.name)) {
      // The surface form, never the internal hook name.
      CHECK(!e.signature.starts_with(e.name));
      CHECK(e.signature.find("__") == std::string_view::npos);
    } else {
      REQUIRE(e.signature.starts_with(e.name));
      std::string_view rest = e.signature.substr(e.name.size());
      CHECK((rest.starts_with("(") || rest.starts_with("[")));
    }
  }
}

TEST_CASE("builtin catalog: find_builtin") {
  const BuiltinInfo* grid = find_builtin("T.grid");
  REQUIRE(grid);
  CHECK(grid->name == "T.grid");
  CHECK(grid->signature.starts_with("T.grid("));
  const BuiltinInfo* tensor = find_builtin("R.Tensor");
  REQUIRE(tensor);
  CHECK(tensor->name == "R.Tensor");
  const BuiltinInfo* plus = find_builtin("R.operator.+");
  REQUIRE(plus);
  CHECK(plus->signature == "a + b");
  const BuiltinInfo* shape = find_builtin("T.Buffer.__getattr__.shape");
  REQUIRE(shape);
  CHECK(shape->signature == "A.shape");
  CHECK(find_builtin("T.nope") == nullptr);
  CHECK(find_builtin("") == nullptr);
  CHECK(find_builtin("T.gri") == nullptr);
  // Every entry is found by its own name, at its own address.
  for (const BuiltinInfo& e : builtin_catalog()) CHECK(find_builtin(e.name) == &e);
}

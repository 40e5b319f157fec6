// The "did you mean" helper: edit distances (swaps count one) and which candidate it picks.
#include <catch2/catch.hpp>

#include "ir/suggest.h"

using relax::ir::closest_match;
using relax::ir::edit_distance;

TEST_CASE("edit distance counts a swap of neighbours as one edit") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("build", "build") == 0);
  CHECK(edit_distance("bulid", "build") == 1);
  CHECK(edit_distance("flaot32", "float32") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("chekc", "check") == 1);
  CHECK(edit_distance("ca", "abc") == 3);  // OSA: no edit of a swapped pair again
}

TEST_CASE("closest_match picks a plausible typo, or nothing") {
  std::vector<std::string> commands = {"print", "parse", "check", "fmt", "passes", "build", "run"};
  CHECK(closest_match("bulid", commands) == "build");
  CHECK(closest_match("chek", commands) == "check");
  CHECK(closest_match("prase", commands) == "parse");
  CHECK(closest_match("frobnicate", commands) == "");
  CHECK(closest_match("xyz", commands) == "");
  // Equal ignoring case beats a nearer spelling.
  CHECK(closest_match("LEGALIZEOPS", {"LegalizeOp", "LegalizeOps"}) == "LegalizeOps");
  // The first of equally close candidates.
  CHECK(closest_match("rum", {"run", "rug"}) == "run");
  // A third of the word's length, at least one edit.
  CHECK(closest_match("ab", {"xy"}) == "");
  CHECK(closest_match("float", {"flaot32"}) == "");
  CHECK(closest_match("VMBuiltinLowr", {"VMBuiltinLower", "VMShapeLower"}) == "VMBuiltinLower");
}

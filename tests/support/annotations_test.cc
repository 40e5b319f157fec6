// The annotated-source markers tests use for positions and ranges.
#include "tests/support/annotations.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using relax::test::Annotations;
using relax::test::ByteRange;

TEST_CASE("annotations: points and ranges, named and unnamed, nested") {
  Annotations a("def $f[[f^]](x):\n    return $use[[x]]$end^\n");
  CHECK(a.code() == "def f(x):\n    return x\n");
  CHECK(a.point() == 5);
  CHECK(a.range("f") == ByteRange{4, 5});
  CHECK(a.range("use") == ByteRange{21, 22});
  CHECK(a.point("end") == 22);
  Annotations nested("[[a $in[[b]] c]] [[d]]");
  CHECK(nested.code() == "a b c d");
  CHECK(nested.ranges() == std::vector<ByteRange>{{0, 5}, {6, 7}});
  CHECK(nested.range("in") == ByteRange{2, 3});
  // Non-ASCII text: offsets are bytes.
  CHECK(Annotations("é^").point() == 2);
}

TEST_CASE("annotations: malformed markers are errors") {
  CHECK_THROWS_AS(Annotations("[[a"), std::invalid_argument);
  CHECK_THROWS_AS(Annotations("$x a"), std::invalid_argument);
  Annotations two("^a^");
  CHECK_THROWS_AS(two.point(), std::out_of_range);
  CHECK(two.points() == std::vector<uint32_t>{0, 1});
  CHECK_THROWS_AS(two.range("none"), std::out_of_range);
}

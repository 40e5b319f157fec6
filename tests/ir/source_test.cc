// Line tables and UTF-16 conversions of source files.
#include <catch2/catch.hpp>

#include "ir/source.h"

using namespace relax::ir;

TEST_CASE("byte offsets map to lines and columns") {
  SourceFile f("a.relax", "ab\ncd\r\n\nx");
  CHECK(f.line_count() == 4);
  CHECK(f.position(0) == Position{0, 0});
  CHECK(f.position(4) == Position{1, 1});
  CHECK(f.position(8) == Position{3, 0});
  CHECK(f.line_text(1) == "cd");
  CHECK(f.line_text(2) == "");
  CHECK(f.offset(Position{1, 1}) == 4);
  CHECK(f.offset(Position{1, 99}) == 5);  // clamped to the line
  CHECK(f.slice(Span{1, 3, 5}) == "cd");
}

TEST_CASE("UTF-16 columns count surrogate pairs") {
  // "é" is 2 bytes / 1 unit; "😀" is 4 bytes / 2 units.
  SourceFile f("u.relax", "\xC3\xA9\xF0\x9F\x98\x80x");
  CHECK(f.utf16_position(2) == Position{0, 1});
  CHECK(f.utf16_position(6) == Position{0, 3});
  CHECK(f.offset_from_utf16(Position{0, 3}) == 6);
  CHECK(f.offset_from_utf16(Position{0, 1}) == 2);
}

TEST_CASE("source manager keeps ids stable across replacement") {
  auto& sm = SourceManager::global();
  uint32_t id = sm.add("doc.relax", "x = 1\n");
  CHECK(id != 0);
  CHECK(sm.get(id)->text() == "x = 1\n");
  sm.replace(id, "y = 2\n");
  CHECK(sm.get(id)->text() == "y = 2\n");
  CHECK(sm.get(id)->name() == "doc.relax");
  CHECK(sm.get(0) == nullptr);
}

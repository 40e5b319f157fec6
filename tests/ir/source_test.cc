// Line tables and position conversions (ir/source.h): bytes, UTF-16 and UTF-32 columns.
#include <catch2/catch.hpp>

#include <string>

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

TEST_CASE("columns in UTF-8, UTF-16 and UTF-32 code units") {
  // "é" is 2 bytes, 1 UTF-16 unit, 1 character; "😀" (outside the BMP) is 4 bytes, 2 units
  // (a surrogate pair), 1 character; "中" is 3 bytes, 1 unit, 1 character.
  SourceFile f("u.relax", "\xC3\xA9\xF0\x9F\x98\x80x\n\xE4\xB8\xAD = 1\r\n");
  CHECK(f.position(2, Encoding::kUtf16) == Position{0, 1});
  CHECK(f.position(6, Encoding::kUtf16) == Position{0, 3});
  CHECK(f.position(6, Encoding::kUtf32) == Position{0, 2});
  CHECK(f.position(6, Encoding::kUtf8) == Position{0, 6});
  CHECK(f.position(7, Encoding::kUtf32) == Position{0, 3});
  CHECK(f.position(11, Encoding::kUtf16) == Position{1, 1});  // after 中
  CHECK(f.offset(Position{0, 3}, Encoding::kUtf16) == 6);
  CHECK(f.offset(Position{0, 1}, Encoding::kUtf16) == 2);
  CHECK(f.offset(Position{0, 2}, Encoding::kUtf32) == 6);
  CHECK(f.offset(Position{1, 1}, Encoding::kUtf32) == 11);
  // A column inside a surrogate pair moves past the pair; one past the line's end is its end
  // (before the \r\n); a line past the last is the text's end.
  CHECK(f.offset(Position{0, 2}, Encoding::kUtf16) == 6);
  CHECK(f.offset(Position{1, 99}, Encoding::kUtf16) == 15);
  CHECK(f.offset(Position{9, 0}, Encoding::kUtf16) == f.text().size());
  // An offset inside a character counts the character.
  CHECK(f.position(1, Encoding::kUtf16) == Position{0, 1});
}

TEST_CASE("invalid UTF-8 counts one unit per byte that starts no valid sequence") {
  // A lone continuation byte, a truncated 3-byte sequence, then "x".
  SourceFile f("bad.relax", "\x80\xE4\xB8x");
  CHECK(f.position(4, Encoding::kUtf16) == Position{0, 4});
  CHECK(f.position(4, Encoding::kUtf32) == Position{0, 4});
  CHECK(f.offset(Position{0, 3}, Encoding::kUtf32) == 3);
}

TEST_CASE("long lines: checkpoints give the same columns as counting from the line start") {
  // Lines far longer than LineIndex::kCheckpointBytes, mixing 1-, 2-, 3- and 4-byte characters.
  std::string text;
  const char* pieces[] = {"a", "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80"};
  for (int line = 0; line < 3; ++line) {
    for (int i = 0; i < 3000; ++i) text += pieces[(i * 7 + line) % 4];
    text += line == 1 ? "\r\n" : "\n";
  }
  LineIndex index(text);
  for (Encoding e : {Encoding::kUtf16, Encoding::kUtf32}) {
    for (uint32_t line = 0; line < 3; ++line) {
      uint32_t start = index.line_start(line), end = index.line_end(line);
      uint32_t units = 0;
      for (uint32_t i = start; i < end;) {
        INFO("line " << line << " byte " << i);
        REQUIRE(index.position(i, e) == Position{line, units});
        REQUIRE(index.offset(Position{line, units}, e) == i);
        uint32_t len = utf8_sequence_length(text, i);
        units += code_units(len, e);
        i += len;
      }
      CHECK(index.position(end, e) == Position{line, units});
    }
  }
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

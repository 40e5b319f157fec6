// Positions in the negotiated encodings (non-BMP text), URIs and diagnostics as LSP JSON.
#include <catch2/catch.hpp>

#include "lsp/protocol.h"

using namespace relax;
using lsp::json;

TEST_CASE("protocol: positions count UTF-16 units or bytes as negotiated") {
  // Two non-BMP characters (4 bytes, 2 UTF-16 units each) before `x`.
  ir::SourceFile file("t.relax", "a = \"\xF0\x9D\x94\x98\xF0\x9D\x94\x98\" + x\nb\n");
  uint32_t x = static_cast<uint32_t>(file.text().find('x'));
  lsp::PositionMap utf16(file, ir::Encoding::kUtf16), utf8(file, ir::Encoding::kUtf8),
      utf32(file, ir::Encoding::kUtf32);
  CHECK(utf16.position(x) == json({{"line", 0}, {"character", 13}}));
  CHECK(utf8.position(x) == json({{"line", 0}, {"character", 17}}));
  CHECK(utf32.position(x) == json({{"line", 0}, {"character", 11}}));
  CHECK(utf16.offset(json({{"line", 0}, {"character", 13}})) == x);
  CHECK(utf8.offset(json({{"line", 0}, {"character", 17}})) == x);
  // Past the end of a line: the line's end; past the last line: the end of the text.
  CHECK(utf16.offset(json({{"line", 1}, {"character", 99}})) == file.text().find("b") + 1);
  CHECK(utf16.offset(json({{"line", 9}, {"character", 0}})) == file.text().size());
  CHECK_THROWS_AS(utf16.offset(json({{"line", -1}, {"character", 0}})), lsp::RequestError);
  CHECK_THROWS_AS(utf16.offset(json({{"line", 0}})), lsp::RequestError);
  CHECK_THROWS_AS(utf16.offset(json("x")), lsp::RequestError);
}

TEST_CASE("protocol: file URIs and paths") {
  CHECK(lsp::uri_to_path("file:///home/u/a%20b.relax") == "/home/u/a b.relax");
  CHECK(lsp::uri_to_path("file://localhost/x.relax") == "/x.relax");
  CHECK(lsp::uri_to_path("untitled:Untitled-1") == "");
  CHECK(lsp::path_to_uri("/home/u/a b.relax") == "file:///home/u/a%20b.relax");
}

TEST_CASE("protocol: a diagnostic carries its code, link, related information and tags") {
  uint32_t id = ir::SourceManager::global().add("d.relax", "x = y\nz = x\n");
  auto file = ir::SourceManager::global().get(id);
  ir::Diagnostic d;
  d.severity = ir::Severity::kWarning;
  d.code = "W1001";
  d.message = "unused binding `z`";
  d.span = {id, 6, 7};
  d.label({id, 0, 1}, "x is bound here");
  d.note("prefix it with `_` to keep it");
  lsp::PositionMap map(*file, ir::Encoding::kUtf16);
  json j = lsp::diagnostic_json(d, map, "file:///d.relax");
  CHECK(j["severity"] == 2);
  CHECK(j["code"] == "W1001");
  CHECK(j["source"] == "relax");
  CHECK(j["range"] == json({{"start", {{"line", 1}, {"character", 0}}},
                            {"end", {{"line", 1}, {"character", 1}}}}));
  CHECK(j["message"] == "unused binding `z`\nnote: prefix it with `_` to keep it");
  CHECK(j["codeDescription"]["href"].get<std::string>().find("docs/diagnostics.md#w1001") !=
        std::string::npos);
  CHECK(j["tags"] == json::array({1}));
  REQUIRE(j["relatedInformation"].size() == 1);
  CHECK(j["relatedInformation"][0]["message"] == "x is bound here");
  CHECK(j["relatedInformation"][0]["location"]["uri"] == "file:///d.relax");
}

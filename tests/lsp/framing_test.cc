// The base protocol's framing: messages split anywhere, several in one read, headers in any
// case, and what cannot be framed (no length, a bad number, over the limit) refused without
// losing the messages after it.
#include <catch2/catch.hpp>

#include "lsp/framing.h"

using relax::lsp::frame;
using relax::lsp::Frame;
using relax::lsp::MessageReader;

namespace {

std::vector<Frame> feed_all(MessageReader& reader, const std::string& bytes, size_t piece) {
  std::vector<Frame> out;
  for (size_t i = 0; i < bytes.size(); i += piece)
    reader.feed(std::string_view(bytes).substr(i, piece), out);
  return out;
}

}  // namespace

TEST_CASE("framing: messages arrive whole however the bytes are split") {
  std::string bytes = frame(R"({"a":1})") + frame(R"({"b":"ü"})") + frame("{}");
  for (size_t piece : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, bytes.size()}) {
    MessageReader reader;
    auto frames = feed_all(reader, bytes, piece);
    REQUIRE(frames.size() == 3);
    CHECK(frames[0].body == R"({"a":1})");
    CHECK(frames[1].body == R"({"b":"ü"})");
    CHECK(frames[2].body == "{}");
    for (auto& f : frames) CHECK(f.error.empty());
    CHECK_FALSE(reader.pending());
  }
}

TEST_CASE("framing: header names in any case, other headers ignored, bare newlines accepted") {
  MessageReader reader;
  std::vector<Frame> out;
  reader.feed(
      "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
      out);
  reader.feed("Content-Length:3\n\n[1]", out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].body == "{}");
  CHECK(out[1].body == "[1]");
}

TEST_CASE("framing: a header without a usable length is an error and the next message is read") {
  MessageReader reader;
  std::vector<Frame> out;
  reader.feed("Content-Type: x\r\n\r\n", out);
  reader.feed("Content-Length: twelve\r\n\r\n", out);
  reader.feed("garbage line\r\n\r\n", out);
  reader.feed(frame("{}"), out);
  REQUIRE(out.size() == 4);
  CHECK(out[0].error == "no Content-Length header");
  CHECK(out[1].error == "Content-Length is not a number");
  CHECK(out[2].error == "malformed header line (no ':')");
  CHECK(out[3].body == "{}");
}

TEST_CASE("framing: a body over 64 MiB is refused and skipped, not held") {
  MessageReader reader;
  std::vector<Frame> out;
  size_t big = relax::lsp::kMaxMessageBytes + 1;
  reader.feed("Content-Length: " + std::to_string(big) + "\r\n\r\n", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].error.find("over 64 MiB") != std::string::npos);
  std::string chunk(1 << 20, 'x');
  for (size_t left = big; left > 0;) {
    size_t n = std::min(left, chunk.size());
    reader.feed(std::string_view(chunk).substr(0, n), out);
    left -= n;
  }
  reader.feed(frame("{}"), out);
  REQUIRE(out.size() == 2);
  CHECK(out[1].body == "{}");
  // A length too large for any integer is refused the same way.
  MessageReader other;
  std::vector<Frame> out2;
  other.feed("Content-Length: 99999999999999999999999999\r\n\r\n", out2);
  REQUIRE(out2.size() == 1);
  CHECK_FALSE(out2[0].error.empty());
}

TEST_CASE("framing: a header over 64 MiB is refused once and reading resumes after it") {
  MessageReader reader;
  std::vector<Frame> out;
  reader.feed("X-Long: ", out);
  std::string chunk(1 << 20, 'y');
  for (int i = 0; i < 65; ++i) reader.feed(chunk, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].error.find("header over 64 MiB") != std::string::npos);
  reader.feed("\r\n\r\n" + frame("{}"), out);
  REQUIRE(out.size() == 2);
  CHECK(out[1].body == "{}");
}

TEST_CASE("framing: blank lines between messages are not messages, an empty body is one") {
  MessageReader reader;
  std::vector<Frame> out;
  reader.feed("\r\n\r\n" + frame("{}") + "Content-Length: 0\r\n\r\n", out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].body == "{}");
  CHECK(out[1].body.empty());
  CHECK(out[1].error.empty());
}

TEST_CASE(
    "framing: a broken message's leftovers before the next header are reported, and the next "
    "message is read") {
  MessageReader reader;
  std::vector<Frame> out;
  // A body shorter than its length swallows the start of the next message.
  reader.feed("Content-Length: 5\r\n\r\n{\"a\"", out);
  reader.feed(frame(R"({"first":1})") + frame(R"({"second":2})"), out);
  REQUIRE(out.size() == 4);
  CHECK(out[0].body == "{\"a\"C");                    // framed as its length says (not JSON)
  CHECK(out[1].error == "no Content-Length header");  // "ontent-Length: 11"
  // `{"first":1}Content-Length: 12` starts the next header where its name does.
  CHECK(out[2].error == "bytes that are not a message before a header");
  CHECK(out[3].body == R"({"second":2})");
}

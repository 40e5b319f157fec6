// The LSP's base protocol: messages framed by a `Content-Length: N` header block and an empty
// line, then N bytes of JSON. MessageReader takes bytes as they arrive (in pieces of any size)
// and hands out whole bodies; what cannot be framed becomes a framing error the server answers
// (-32700) and reading goes on after it. A header block or body over kMaxMessageBytes is refused
// without being held in memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relax::lsp {

inline constexpr size_t kMaxMessageBytes = size_t{64} << 20;

struct Frame {
  std::string body;   // the JSON text (when `error` is empty)
  std::string error;  // why the bytes could not be framed
};

class MessageReader {
 public:
  // Appends every message completed by `bytes` to `out`.
  void feed(std::string_view bytes, std::vector<Frame>& out);
  // Whether bytes of an unfinished message are held (at end of input: a truncated message).
  bool pending() const { return !header_.empty() || state_ != State::kHeader; }

 private:
  enum class State { kHeader, kBody, kSkipBody, kSkipHeader };
  // Reads the finished header block; false with `error` set when it names no valid length.
  bool parse_header(std::string& error);

  State state_ = State::kHeader;
  std::string header_;
  std::string body_;
  size_t length_ = 0;     // the body's length (kBody, kSkipBody: what is left to skip)
  bool garbage_ = false;  // the header block had bytes before its Content-Length
};

// The bytes that carry `body` as one message.
std::string frame(std::string_view body);

}  // namespace relax::lsp

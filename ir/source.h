// Source files and positions: the text a Span points into, and the one place where byte
// offsets become line/column positions and back. Libraries keep byte offsets; a column is
// counted in the code units a consumer asks for: bytes (the terminal, TextEdit), UTF-16 (the
// LSP's default), or Unicode characters (UTF-32: JSON, SARIF, GitHub annotations, LSP's
// "utf-32"). Invalid UTF-8 counts one unit per byte that does not start a valid sequence, as
// editors show it (one U+FFFD each).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ir/span.h"

namespace relax::ir {

enum class Encoding : uint8_t { kUtf8, kUtf16, kUtf32 };

// A 0-based line and a 0-based column counted in the code units of an Encoding.
struct Position {
  uint32_t line = 0;
  uint32_t column = 0;
  bool operator==(const Position&) const = default;
};

// The line table of a text, with checkpoints of UTF-16 and UTF-32 counts every
// kCheckpointBytes inside long lines, so that a conversion costs a binary search and at most
// that many bytes of decoding, however long the line (a generated one-line module). Holds a view
// of the text: the text must outlive it.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);

  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  uint32_t line_start(uint32_t line) const;
  // The end of a line's content: before its `\n` or `\r\n`.
  uint32_t line_end(uint32_t line) const;
  // The position of a byte offset (clamped to the text). An offset inside a multi-byte
  // character counts that character.
  Position position(uint32_t offset, Encoding encoding = Encoding::kUtf8) const;
  // The byte offset of a position: a column past the line's end is its end, a line past the
  // last is the text's end (as the LSP asks).
  uint32_t offset(Position pos, Encoding encoding = Encoding::kUtf8) const;

  static constexpr uint32_t kCheckpointBytes = 1024;

 private:
  struct Checkpoint {
    uint32_t byte;   // a character boundary inside a line
    uint32_t utf16;  // UTF-16 units from the line's start to `byte`
    uint32_t utf32;  // characters from the line's start to `byte`
  };
  // The last checkpoint at or before `offset` on the line starting at `start`, or null.
  const Checkpoint* checkpoint_before(uint32_t start, uint32_t offset) const;

  std::string_view text_;
  std::vector<uint32_t> line_starts_;
  std::vector<Checkpoint> checkpoints_;
};

// The length of the UTF-8 sequence at `text[i]` (1 for a byte that starts no valid sequence)
// and its code units in `encoding`.
uint32_t utf8_sequence_length(std::string_view text, uint32_t i);
uint32_t code_units(uint32_t sequence_length, Encoding encoding);

class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  uint32_t line_count() const { return lines_.line_count(); }

  SourceFile(const SourceFile&) = delete;  // lines_ views text_
  SourceFile& operator=(const SourceFile&) = delete;

  const LineIndex& lines() const { return lines_; }
  // The position of a byte offset (clamped to the text), columns in `encoding`'s units.
  Position position(uint32_t offset, Encoding encoding = Encoding::kUtf8) const {
    return lines_.position(offset, encoding);
  }
  // The byte offset of a position (clamped to the line).
  uint32_t offset(Position pos, Encoding encoding = Encoding::kUtf8) const {
    return lines_.offset(pos, encoding);
  }
  // The text of a 0-based line, without its line ending.
  std::string_view line_text(uint32_t line) const;
  std::string_view slice(Span span) const;

 private:
  std::string name_;
  std::string text_;
  LineIndex lines_;
};

// The files spans refer to, by id (ids start at 1; 0 means no file). Thread-safe. A document
// that changes (in the editor) keeps its id and has its text replaced.
class SourceManager {
 public:
  static SourceManager& global();

  uint32_t add(std::string name, std::string text);
  void replace(uint32_t id, std::string text);
  // The file with that id, or null. The pointer stays valid while the caller holds it.
  std::shared_ptr<const SourceFile> get(uint32_t id) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const SourceFile>> files_;
};

}  // namespace relax::ir

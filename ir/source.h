// Source files and positions: the text a Span points into, and conversions between byte
// offsets and line/column positions (byte columns for the terminal, UTF-16 for the LSP).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ir/span.h"

namespace relax::ir {

// A 0-based line and a 0-based column counted in bytes (or UTF-16 units, where said).
struct Position {
  uint32_t line = 0;
  uint32_t column = 0;
  bool operator==(const Position&) const = default;
};

class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }

  // The line and byte column of a byte offset (clamped to the text).
  Position position(uint32_t offset) const;
  // The byte offset of a line and byte column (clamped to the line).
  uint32_t offset(Position pos) const;
  // UTF-16 columns, for the language server protocol.
  Position utf16_position(uint32_t offset) const;
  uint32_t offset_from_utf16(Position pos) const;
  // The text of a 0-based line, without its line ending.
  std::string_view line_text(uint32_t line) const;
  std::string_view slice(Span span) const;

 private:
  std::string name_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
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

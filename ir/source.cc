// Line tables and position conversions for source files.
#include "ir/source.h"

#include <algorithm>

namespace relax::ir {

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

Position SourceFile::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - line_starts_.begin()) - 1;
  return Position{line, offset - line_starts_[line]};
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line >= line_starts_.size()) return {};
  uint32_t begin = line_starts_[line];
  uint32_t end =
      line + 1 < line_starts_.size() ? line_starts_[line + 1] : static_cast<uint32_t>(text_.size());
  std::string_view view(text_.data() + begin, end - begin);
  while (!view.empty() && (view.back() == '\n' || view.back() == '\r')) view.remove_suffix(1);
  return view;
}

uint32_t SourceFile::offset(Position pos) const {
  if (pos.line >= line_starts_.size()) return static_cast<uint32_t>(text_.size());
  std::string_view line = line_text(pos.line);
  return line_starts_[pos.line] + std::min<uint32_t>(pos.column, line.size());
}

namespace {
// Length of the UTF-8 sequence starting with byte `c` (1 for invalid lead bytes).
uint32_t utf8_length(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xE) return 3;
  if ((c >> 3) == 0x1E) return 4;
  return 1;
}
}  // namespace

Position SourceFile::utf16_position(uint32_t offset) const {
  Position byte_pos = position(offset);
  std::string_view line = line_text(byte_pos.line);
  uint32_t units = 0;
  for (uint32_t i = 0; i < byte_pos.column && i < line.size();) {
    uint32_t len = utf8_length(static_cast<unsigned char>(line[i]));
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return Position{byte_pos.line, units};
}

uint32_t SourceFile::offset_from_utf16(Position pos) const {
  if (pos.line >= line_starts_.size()) return static_cast<uint32_t>(text_.size());
  std::string_view line = line_text(pos.line);
  uint32_t units = 0, i = 0;
  while (i < line.size() && units < pos.column) {
    uint32_t len = utf8_length(static_cast<unsigned char>(line[i]));
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return line_starts_[pos.line] + std::min<uint32_t>(i, line.size());
}

std::string_view SourceFile::slice(Span span) const {
  uint32_t begin = std::min<uint32_t>(span.begin, text_.size());
  uint32_t end = std::min<uint32_t>(std::max(span.end, begin), text_.size());
  return std::string_view(text_).substr(begin, end - begin);
}

SourceManager& SourceManager::global() {
  static SourceManager manager;
  return manager;
}

uint32_t SourceManager::add(std::string name, std::string text) {
  auto file = std::make_shared<const SourceFile>(std::move(name), std::move(text));
  std::lock_guard<std::mutex> lock(mutex_);
  files_.push_back(std::move(file));
  return static_cast<uint32_t>(files_.size());
}

void SourceManager::replace(uint32_t id, std::string text) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (id == 0 || id > files_.size()) return;
  auto name = files_[id - 1]->name();
  files_[id - 1] = std::make_shared<const SourceFile>(std::move(name), std::move(text));
}

std::shared_ptr<const SourceFile> SourceManager::get(uint32_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (id == 0 || id > files_.size()) return nullptr;
  return files_[id - 1];
}

}  // namespace relax::ir

// Line tables and position conversions for source files.
#include "ir/source.h"

#include <algorithm>

namespace relax::ir {

uint32_t utf8_sequence_length(std::string_view text, uint32_t i) {
  auto byte = [&](uint32_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  uint32_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
  if (len <= 1) return 1;
  if (i + len > text.size()) return 1;
  for (uint32_t k = 1; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 1;
  return len;
}

uint32_t code_units(uint32_t sequence_length, Encoding encoding) {
  switch (encoding) {
    case Encoding::kUtf8:
      return sequence_length;
    case Encoding::kUtf16:
      return sequence_length == 4 ? 2 : 1;
    case Encoding::kUtf32:
      return 1;
  }
  return 1;
}

LineIndex::LineIndex(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  auto size = static_cast<uint32_t>(text.size());
  uint32_t utf16 = 0, utf32 = 0, last_checkpoint = 0;
  for (uint32_t i = 0; i < size;) {
    if (text[i] == '\n') {
      ++i;
      line_starts_.push_back(i);
      last_checkpoint = i;
      utf16 = utf32 = 0;
      continue;
    }
    if (i - last_checkpoint >= kCheckpointBytes) {
      checkpoints_.push_back({i, utf16, utf32});
      last_checkpoint = i;
    }
    uint32_t len = utf8_sequence_length(text, i);
    utf16 += code_units(len, Encoding::kUtf16);
    ++utf32;
    i += len;
  }
}

uint32_t LineIndex::line_start(uint32_t line) const {
  return line < line_starts_.size() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
}

uint32_t LineIndex::line_end(uint32_t line) const {
  if (line >= line_starts_.size()) return static_cast<uint32_t>(text_.size());
  uint32_t end =
      line + 1 < line_starts_.size() ? line_starts_[line + 1] : static_cast<uint32_t>(text_.size());
  uint32_t begin = line_starts_[line];
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return end;
}

const LineIndex::Checkpoint* LineIndex::checkpoint_before(uint32_t start, uint32_t offset) const {
  auto it = std::upper_bound(checkpoints_.begin(), checkpoints_.end(), offset,
                             [](uint32_t off, const Checkpoint& c) { return off < c.byte; });
  if (it == checkpoints_.begin()) return nullptr;
  --it;
  return it->byte >= start ? &*it : nullptr;
}

Position LineIndex::position(uint32_t offset, Encoding encoding) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  auto line = static_cast<uint32_t>(it - line_starts_.begin()) - 1;
  uint32_t start = line_starts_[line];
  if (encoding == Encoding::kUtf8) return Position{line, offset - start};
  uint32_t i = start, units = 0;
  if (const Checkpoint* c = checkpoint_before(start, offset)) {
    i = c->byte;
    units = encoding == Encoding::kUtf16 ? c->utf16 : c->utf32;
  }
  while (i < offset) {
    uint32_t len = utf8_sequence_length(text_, i);
    units += code_units(len, encoding);
    i += len;
  }
  return Position{line, units};
}

uint32_t LineIndex::offset(Position pos, Encoding encoding) const {
  if (pos.line >= line_starts_.size()) return static_cast<uint32_t>(text_.size());
  uint32_t start = line_starts_[pos.line], end = line_end(pos.line);
  if (encoding == Encoding::kUtf8) return start + std::min<uint32_t>(pos.column, end - start);
  // The last checkpoint of the line whose count does not pass the column.
  uint32_t i = start, units = 0;
  auto first = std::lower_bound(checkpoints_.begin(), checkpoints_.end(), start,
                                [](const Checkpoint& c, uint32_t off) { return c.byte < off; });
  auto last = std::lower_bound(first, checkpoints_.end(), end,
                               [](const Checkpoint& c, uint32_t off) { return c.byte < off; });
  auto count = [&](const Checkpoint& c) {
    return encoding == Encoding::kUtf16 ? c.utf16 : c.utf32;
  };
  auto after = std::upper_bound(first, last, pos.column, [&](uint32_t column, const Checkpoint& c) {
    return column < count(c);
  });
  if (after != first) {
    i = (after - 1)->byte;
    units = count(*(after - 1));
  }
  while (i < end && units < pos.column) {
    uint32_t len = utf8_sequence_length(text_, i);
    units += code_units(len, encoding);
    i += len;
  }
  return std::min(i, end);
}

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)), lines_(text_) {}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line >= lines_.line_count()) return {};
  uint32_t begin = lines_.line_start(line);
  return std::string_view(text_).substr(begin, lines_.line_end(line) - begin);
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

// Span: where a node or a diagnostic sits in the source, as a byte range of one source file.
#pragma once

#include <cstdint>

namespace relax::ir {

// A half-open byte range [begin, end) in the source file `file` (an id from SourceManager).
// File id 0 is "no source": nodes built by passes carry Span::unknown().
struct Span {
  uint32_t file = 0;
  uint32_t begin = 0;
  uint32_t end = 0;

  static Span unknown() { return Span{}; }
  bool is_known() const { return file != 0; }
  uint32_t size() const { return end - begin; }
  // The smallest span covering both (unknown if either is unknown or they are in other files).
  Span merge(const Span& other) const {
    if (!is_known()) return other;
    if (!other.is_known() || other.file != file) return *this;
    return Span{file, begin < other.begin ? begin : other.begin, end > other.end ? end : other.end};
  }
  bool operator==(const Span&) const = default;
};

}  // namespace relax::ir

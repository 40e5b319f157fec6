// What every fuzz harness shares: the input size cap, the failure report (a harness that finds a
// broken property prints why and traps, so libFuzzer saves the input and the replay test fails),
// and a scope that gives back the texts a run registered in the global SourceManager.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "ir/source.h"

namespace relax::fuzz {

// Larger inputs are skipped: they only make each run slower, and nesting or super-linear costs
// show up well below this size.
inline constexpr size_t kMaxInputBytes = 64 * 1024;

[[noreturn]] inline void fail(const char* harness, const std::string& what) {
  std::fprintf(stderr, "%s: property broken: %s\n", harness, what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// The front end and the formatter register every text they parse in the global SourceManager,
// which keeps it for the life of the process; a fuzzing process runs millions of inputs, so the
// files a run added are emptied when it ends (their ids stay valid; only the text goes).
class SourceScope {
 public:
  SourceScope() : first_(mark()) {}
  ~SourceScope() {
    uint32_t last = mark();
    for (uint32_t id = first_; id <= last; ++id) ir::SourceManager::global().replace(id, "");
  }
  SourceScope(const SourceScope&) = delete;
  SourceScope& operator=(const SourceScope&) = delete;

 private:
  static uint32_t mark() { return ir::SourceManager::global().add("<fuzz mark>", ""); }
  uint32_t first_;
};

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace relax::fuzz

// The nesting limits of the walks over user input that recurse, in one place, and the guard each
// such walk takes before it goes one level deeper. docs/diagnostics/limits.md lists every limit
// with its code (the scanner's block limit, E0106, is in syntax/src/scanner_limits.h: C code).
#pragma once

#include <cstdint>

namespace relax::ir {

// How deep one kind of walk may nest, and the diagnostic reported beyond that.
struct DepthLimit {
  uint32_t max;
  const char* code;
};

// Expressions the front end reads: parentheses, calls, subscripts, brackets, unary operators,
// annotations (`R.Tuple(R.Tuple(...))`). Operator chains (`a + b + ...`) are read in a loop and
// do not count. CPython's parser stops at 200 too.
inline constexpr DepthLimit kExprNesting{200, "E0242"};

// The formatter's tree: expressions and blocks, where a chain of N terms is N - 1 levels (its
// layout and checks recurse along the tree). tree-sitter's CST, which has about two levels per
// level of the formatter's tree, is measured against twice this.
inline constexpr DepthLimit kFormatNesting{1500, "F0007"};

// Counts the levels of one recursive walk. A walk keeps one counter and takes a guard at each
// level before recursing; when the guard is not `entered()`, the walk is at its limit and must
// not go deeper (it reports the limit's code, or stops where another stage reports it).
class DepthGuard {
 public:
  DepthGuard(uint32_t& depth, const DepthLimit& limit)
      : depth_(depth), entered_(depth < limit.max) {
    if (entered_) ++depth_;
  }
  ~DepthGuard() {
    if (entered_) --depth_;
  }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

  bool entered() const { return entered_; }

 private:
  uint32_t& depth_;
  bool entered_;
};

}  // namespace relax::ir

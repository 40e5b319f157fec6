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

// PrimExprs the front end builds from an operator chain (`a + b + ...` in a prim_func or a
// symbolic shape): each term nests the expression one level deeper, and the checks, the
// printer's and the compiler's TIR visitors recurse along it. Relax chains are bound to
// variables term by term (A-normal form) and have no limit.
inline constexpr DepthLimit kPrimExprChain{50000, "E0243"};

// The formatter's tree: expressions and blocks, where a chain of N terms is N - 1 levels (its
// layout and checks recurse along the tree). tree-sitter's CST, which has about two levels per
// level of the formatter's tree, is measured against twice this.
inline constexpr DepthLimit kFormatNesting{1500, "F0007"};

// Statements of a prim_func, as the TIR front end builds them: every block, loop, `if`/`elif`
// and every concise-scoping statement (a let binding, `T.attr`, an allocation covers the rest
// of its body) is one level. The printer and the compiler's passes recurse along them.
inline constexpr DepthLimit kTirStmtNesting{1000, "E0616"};

// `if` statements of a Relax function, nested or chained with `elif` (each `elif` is an `if`
// in the `else` of the one before): the front end, the checks and the passes recurse along
// them.
inline constexpr DepthLimit kRelaxIfNesting{1000, "E0518"};

// Struct info of a Relax value, annotated or inferred: each `R.Tuple` and `R.Callable` is a
// level, and so is the tensor, shape or value at the bottom. Bindings can nest it without
// bound (`t1 = (t0,)`, `t2 = (t1,)`, ...), and inference, the checks, the printer and the
// passes recurse along it. 64 levels print as annotations the front end reads back (within
// kExprNesting: an `R.Callable` parameter costs two expression levels).
inline constexpr DepthLimit kStructInfoNesting{64, "E0358"};

// PrimExprs TIR lowering accepts (the longest path of nested expressions, where a chain of N
// terms is N levels): its passes and the code generator's visitors recurse along them. The
// front end, the checks and the printer read longer chains (in loops).
inline constexpr DepthLimit kTirCompileNesting{10000, "E0708"};

// The height of the deepest PrimExpr under `root` (any node: a function, a statement, an
// expression): the most PrimExpr nodes on one path, a buffer's or a variable's fields starting a
// new count. Measured in a loop, each shared node once. `deepest`, when given, is set to the
// root of that deepest expression. (ir/depth_limit.cc)
class Object;
uint32_t prim_expr_height(const Object& root, const Object** deepest = nullptr);

// The height of a struct info (kStructInfoNesting's levels: 1 for one without fields), measured
// in a loop, each shared field once. (ir/depth_limit.cc)
class StructInfo;
uint32_t struct_info_height(const StructInfo& root);

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

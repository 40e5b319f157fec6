// The fusion pattern of a PrimFunc (TVM's OpPatternKind), found from its blocks' loads and stores
// as TVM's AnnotateTIROpPattern does (SEMANTICS.md §4.3). FuseOps reads it from the function's
// `op_pattern` attribute; AnnotateTIROpPattern (compiler/relax) writes it.
#pragma once

#include <string_view>

#include "ir/tir.h"

namespace relax::compiler::tir {

// The values are TVM's (they are printed in `T.func_attr({"op_pattern": N})`).
enum class OpPattern : int {
  kElemWise = 0,         // out[i, j] = f(a[i, j], b[i, j])
  kBroadcast = 1,        // out[i, j] = f(a[i, j], b[j])
  kInjective = 2,        // out[i, j] = a[j, i] (every load uses only the output's indices)
  kCommReduce = 3,       // out[i] = sum over k of a[i, k]
  kOutEWiseFusable = 4,  // matmul, conv, pooling, softmax: elementwise ops fuse after them
  kTuple = 7,
  kOpaque = 8,
};

// Classifies `func` block by block: each block must have one store (else opaque); its loads are
// compared with the store's indices (elementwise, broadcast, injective or opaque); a block with
// a reduce axis is a reduction (a multiply-accumulate or an index that mixes a reduce variable
// into an expression, like pooling, makes it OutEWiseFusable); an injective block after a
// reduction makes the function OutEWiseFusable (softmax). The function's pattern is the largest.
// A function without blocks is opaque.
OpPattern classify_op_pattern(const ir::tir::PrimFunc& func);

std::string_view op_pattern_name(OpPattern p);

}  // namespace relax::compiler::tir

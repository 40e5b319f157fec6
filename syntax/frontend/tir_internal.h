// Internals of the TIR front end shared by its files: value conversions (shapes, regions,
// dtypes), buffer construction with TVMScript's defaults, the region analysis used to complete
// blocks, and the statement parser's frames.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/tir.h"
#include "syntax/frontend/context.h"

namespace relax::syntax::tirfe {

// Diagnostic codes of the TIR front end:
//   E0601 a statement-level builtin (T.reads, T.grid, ...) used inside an expression
//   E0602 a parameter or let annotation that is not a TIR type
//   E0603 Python TVMScript has no meaning for (del, try, break, comprehensions, bad `with`)
//   E0604 an assignment or loop target that does not fit the value (unpacking, chained `=`)
//   E0605 a block-level builtin outside `with T.block(...)` (T.reads, T.axis.*, T.init, ...)
//   E0606 a buffer access with the wrong number of indices, or a store into a non-buffer
//   E0607 a region that is not a buffer region, or regions TVM cannot detect automatically
//   E0608 an argument of the wrong kind or type (dtype mismatch, non-bool predicate, ...)
//   E0609 an unknown or non-literal @T.prim_func argument
//   E0610 T.launch_thread of something that is not a thread
//   E0611 T.axis.remap of a non-loop variable or an unknown axis kind
//   E0612 a bad return annotation or `return` without a value
//   E0613 a block or function item given twice (T.reads, T.where, T.init, T.block_attr, ...)
//   E0614 a `for` over something other than range/T.serial/.../T.grid
//   E0615 a non-boolean `if` condition
//   W0601 an unknown buffer keyword argument (ignored)

using ir::DataType;
using ir::Ref;
using namespace ir::tir;

// --- Value conversions -------------------------------------------------------------------------

// One dimension of a shape: ints become int32 immediates (int64 when too large), strings are
// embedded expressions whose unknown names become int32 vars of the current scope, TypeVars
// become int64 vars of the current function. Reports and returns null on failure.
Ref<PrimExpr> to_dim(Frontend& fe, const Value& v);
// A shape: a tuple or list of dims, or a single dim.
std::optional<std::vector<Ref<PrimExpr>>> to_shape(Frontend& fe, const Value& v);
// A PrimExpr for an index or value position (Python ints are int32, floats float32).
Ref<PrimExpr> to_expr(Frontend& fe, const Value& v);
// A buffer region from `A[i, 0:4]` (a BufferRegion, or a BufferLoad whose scalar indices have
// extent 1 and whose ramps give their lanes). Reports and returns null otherwise.
Ref<BufferRegion> to_region(Frontend& fe, const Value& v);
// Names a buffer (and its data pointer and stride vars) as TVMScript's assignment does.
void name_buffer(const Ref<Buffer>& buffer, const std::string& name);

// Keyword arguments of buffer declarations, in the order TVM's builders take them after
// `shape` and `dtype`.
struct BufferSpec {
  std::vector<Ref<PrimExpr>> shape;
  DataType dtype = DataType::Float32();
  Ref<Var> data;
  std::vector<Ref<PrimExpr>> strides;
  Ref<PrimExpr> elem_offset;
  std::string scope = "global";
  int64_t align = 0;
  int64_t offset_factor = 0;
  std::string buffer_type;
  std::vector<int64_t> axis_separators;
};
// Reads the buffer arguments of `call` bound by `args` (parameter names as in TVMScript:
// shape, dtype, data, strides, elem_offset, scope, align, offset_factor, buffer_type,
// axis_separators). False after reporting.
bool read_buffer_spec(Frontend& fe, const ArgBinder& args, BufferSpec& spec,
                      bool shape_required = true);
// A buffer as TVM's BufferDecl builds it (data var, elem_offset var for offset_factor != 0).
Ref<Buffer> make_buffer(const BufferSpec& spec, const std::string& name = "");

// The dtype of a BufferLoad of `buffer` at `indices` (lanes from the last index).
DataType load_dtype(const Ref<Buffer>& buffer, const std::vector<Ref<PrimExpr>>& indices);
// Buffer indices from subscript values: slices become ramps (or their start when one lane).
std::optional<std::vector<Ref<PrimExpr>>> to_indices(Frontend& fe, const Ref<Buffer>& buffer,
                                                     const std::vector<Value>& values,
                                                     const std::vector<Node>& nodes);

// --- Arithmetic helpers (tir_arith.cc) ----------------------------------------------------------

// `stop - start` simplified as TVM's analyzer does in the cases the text format produces:
// constants fold, `(a + x) - a` is `x`, equal linear forms cancel.
// `overflow` (when given) is set when stop - start of two constants leaves the dtype.
Ref<PrimExpr> simplify_extent(const Ref<PrimExpr>& start, const Ref<PrimExpr>& stop,
                              bool* overflow = nullptr);
// `e` rebuilt from its linear form when that is simpler (`n - 1 + 1` is `n`, `(a + 3) - a` is 3);
// `e` itself otherwise.
Ref<PrimExpr> simplify_sum(const Ref<PrimExpr>& e);
// The constant difference a - b when both are the same linear form up to a constant.
std::optional<int64_t> const_difference(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);
// Structural equality of expressions (variables by identity).
bool expr_equal(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b);
// Replaces variables per `map` (node identity) and refolds constants.
Ref<PrimExpr> substitute(const Ref<PrimExpr>& e,
                         const std::unordered_map<const Var*, Ref<PrimExpr>>& map);

// --- Block completion (tir_complete.cc) ---------------------------------------------------------

// Which regions of a block the script left out (TVM's script_parsing_detect_access mask).
struct DetectMask {
  bool reads = false;
  bool writes = false;
};

// TVM's ScriptComplete: detects the read/write regions of blocks that omitted them (bottom-up,
// over the buffers visible to each block), then wraps a body that contains blocks (or has root
// allocations) in an implicit root block. Reports regions that cannot be detected.
Ref<Stmt> complete_prim_func(Frontend& fe, const Ref<PrimFunc>& func, Ref<Stmt> body,
                             const std::vector<Ref<Buffer>>& root_allocs,
                             const std::unordered_map<const Block*, DetectMask>& masks,
                             ir::Span span);

}  // namespace relax::syntax::tirfe

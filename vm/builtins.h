// The builtins compiled code calls by name (vm.builtin.*), all listed in one table in
// builtins.cc. Each takes its arguments as Values and writes at most one result. Signatures
// (ctx is the context register %ctx; `err` is a string constant naming what is checked, e.g.
// "argument `x` (parameter 0)"; messages are prefixed with the running function's name):
//
//   vm.builtin.alloc_shape_heap(ctx, size: int) -> tensor     int64[size] on the host
//   vm.builtin.match_shape(value: tensor|shape, heap, n, code0, r0, ..., err) -> null
//       for dimension i: code 0 assert shape[i] == r; 1 heap[r] = shape[i];
//       2 no-op (a compound expression, checked in a later round); 3 assert shape[i] == heap[r]
//   vm.builtin.match_prim_value(value: int, heap, code, r, err) -> null    codes as above
//   vm.builtin.make_shape(heap, n, code0, r0, ...) -> shape    code 0 use r; 1 heap[r]
//   vm.builtin.make_prim_value(heap, code, r) -> int           codes as make_shape
//   vm.builtin.shape_compute(heap, dst, code0, v0, ...) -> null
//       heap[dst] = a postfix program of (code, v) pairs (vm/shape_program.h): 0 push v, 1 push
//       heap[v], then operators on the two top values 2 add, 3 sub, 4 mul, 5 floordiv,
//       6 floormod, 7 min, 8 max, 9 truncdiv, 10 truncmod, and comparisons giving 0/1: 11 ==,
//       12 !=, 13 <, 14 <=, 15 >, 16 >=, and 17 select (c ? t : f of the three top values) (the
//       compound symbolic expressions TVM computes with a host shape function, evaluated without
//       generated code)
//   vm.builtin.check_tensor_info(value, ndim: int (-1 any), dtype|null, err) -> null
//   vm.builtin.check_shape_info(value, ndim: int (-1 any), err) -> null
//   vm.builtin.check_prim_value_info(value, dtype|null, err) -> null
//   vm.builtin.check_tuple_info(value, size: int (-1 any), err) -> null
//   vm.builtin.check_func_info(value, err) -> null
//   vm.builtin.alloc_storage(ctx, size: shape [nbytes], device_index: int, dtype_hint,
//                            scope: string) -> storage        pooled; device_index -1 = host
//   vm.builtin.alloc_tensor(storage, offset: int, shape, dtype[, scope]) -> tensor  a view
//   vm.builtin.null_value() -> null
//   vm.builtin.kill() -> null        `%r = kill()` releases register %r after its last use
//   vm.builtin.copy(value) -> value                             a register move
//   vm.builtin.reshape(tensor, shape) -> tensor                 a view, same element count
//   vm.builtin.shape_of(tensor) -> shape
//   vm.builtin.tensor_view(tensor, shape|(), dtype|(), relative_byte_offset|()) -> tensor
//       a view of the same storage (R.memory.view); () or null keeps the tensor's own
//   vm.builtin.shape_to_tensor(shape) -> tensor                 1-d int64
//   vm.builtin.tensor_to_shape(tensor) -> shape                 1-d int16/32/64 tensor
//   vm.builtin.make_tuple(values...) -> tuple
//   vm.builtin.tuple_getitem(tuple, index: int) -> value
//   vm.builtin.read_if_cond(value) -> int          int, or a bool/int 0-d tensor; 0 or 1
//   vm.builtin.make_closure(func, captured...) -> closure      captured values bind last
//   vm.builtin.invoke_closure(ctx, closure, args...) -> value  calls func(args..., captured...)
//   vm.builtin.call_tir_dyn(kernel: func, tensors..., shape) -> null
//       calls the kernel with the tensors followed by the shape's dims as int arguments
//   vm.builtin.print(format: string, values...) -> null   "{}" placeholders, else space-separated
//   vm.builtin.assert(cond, format: string, values...) -> null     fails when cond is 0/false
// Ops without a TIR legalization (builtins_ops.cc; LegalizeOps emits these calls; host tensors;
// sorting is stable, ties keep their input order also when descending):
//   vm.builtin.sort(x, axis: int, descending: int, out) -> null        out: x's shape and dtype
//   vm.builtin.argsort(x, axis: int, descending: int, out) -> null     out: the indices (any int)
//   vm.builtin.topk(x, k: int, axis: int, ret_type: string, largest: int, out...) -> null
//       ret_type "both" takes the outputs values, indices; "values" / "indices" one; k < 1 or
//       past the axis length keeps the whole axis
//   vm.builtin.unique(x, sorted, return_index, return_inverse, return_counts: int[, axis: int])
//       -> tensor | tuple      numpy's np.unique (flattened without axis; int64 index, inverse
//       and counts in the tuple when asked for); sorted 0: in the order of first occurrence
//   vm.builtin.nonzero(x) -> int64[max(ndim, 1), count]     coordinates of the non-zero elements
//   vm.builtin.dynamic_strided_slice(x, begin, end, strides: 1-d int tensors) -> tensor
//       numpy slicing of the first len(begin) axes (negative bounds count from the end, clamped)
//   vm.builtin.ccl_allreduce(x, op_type: string, out) -> null      one worker: out = x
//   vm.builtin.ccl_allgather(x, num_workers: int, out) -> null     fails unless num_workers == 1
//   vm.builtin.ccl_broadcast_from_worker0(x, out) -> null
//   vm.builtin.ccl_scatter_from_worker0(x, num_workers: int, axis: int, out) -> null
//       fails unless num_workers == 1 ("... needs N workers, this runtime runs 1")
#pragma once

#include <span>
#include <string_view>

#include "vm/value.h"

namespace relax::vm {

class VirtualMachine;

// A builtin's arguments: pointers to registers, constants or decoded immediates, valid only
// during the call.
class ArgList {
 public:
  ArgList(const Value* const* args, int64_t size) : args_(args), size_(size) {}
  int64_t size() const { return size_; }
  const Value& operator[](int64_t i) const { return *args_[i]; }

 private:
  const Value* const* args_;
  int64_t size_;
};

using BuiltinFn = void (*)(VirtualMachine& vm, ArgList args, Value* result);

struct BuiltinInfo {
  std::string_view name;
  BuiltinFn fn;
  int min_args;
  int max_args;        // -1: any number
  bool takes_context;  // the first argument is %ctx
  std::string_view signature;
};

std::span<const BuiltinInfo> builtin_table();
const BuiltinInfo* find_builtin(std::string_view name);

// The MatchShapeCode and MakeShapeCode values of SEMANTICS.md §5.3.
enum class MatchShapeCode : int64_t {
  kAssertEqualToImm = 0,
  kStoreToHeap = 1,
  kNoOp = 2,
  kAssertEqualToLoad = 3,
};
enum class MakeShapeCode : int64_t { kUseImm = 0, kLoadShape = 1 };

}  // namespace relax::vm

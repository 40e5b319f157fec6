// Helpers shared by the builtin implementations (builtins.cc, builtins_shape.cc, builtins_ops.cc);
// not part of the runtime's API.
#pragma once

#include <string>

#include "vm/builtins.h"
#include "vm/vm.h"

namespace relax::vm::builtin {

// Argument accessors: each throws VMError naming the argument when its kind is wrong.
int64_t int_arg(ArgList args, int64_t i, const char* what);
const TensorObj& tensor_arg(ArgList args, int64_t i, const char* what);
const ShapeObj& shape_arg(ArgList args, int64_t i, const char* what);
const std::string& string_arg(ArgList args, int64_t i, const char* what);

// Throws a located error: "<function>: <err context>: <what>".
[[noreturn]] void fail_checked(VirtualMachine& vm, const Value& err, const std::string& what);

// Shape heap and type checks (builtins_shape.cc).
void alloc_shape_heap(VirtualMachine& vm, ArgList args, Value* result);
void match_shape(VirtualMachine& vm, ArgList args, Value* result);
void match_prim_value(VirtualMachine& vm, ArgList args, Value* result);
void make_shape(VirtualMachine& vm, ArgList args, Value* result);
void make_prim_value(VirtualMachine& vm, ArgList args, Value* result);
void shape_compute(VirtualMachine& vm, ArgList args, Value* result);
void check_tensor_info(VirtualMachine& vm, ArgList args, Value* result);
void check_shape_info(VirtualMachine& vm, ArgList args, Value* result);
void check_prim_value_info(VirtualMachine& vm, ArgList args, Value* result);
void check_tuple_info(VirtualMachine& vm, ArgList args, Value* result);
void check_func_info(VirtualMachine& vm, ArgList args, Value* result);

// Ops without a TIR legalization (builtins_ops.cc).
void sort(VirtualMachine& vm, ArgList args, Value* result);
void argsort(VirtualMachine& vm, ArgList args, Value* result);
void topk(VirtualMachine& vm, ArgList args, Value* result);
void unique(VirtualMachine& vm, ArgList args, Value* result);
void nonzero(VirtualMachine& vm, ArgList args, Value* result);
void dynamic_strided_slice(VirtualMachine& vm, ArgList args, Value* result);
void ccl_allreduce(VirtualMachine& vm, ArgList args, Value* result);
void ccl_allgather(VirtualMachine& vm, ArgList args, Value* result);
void ccl_broadcast_from_worker0(VirtualMachine& vm, ArgList args, Value* result);
void ccl_scatter_from_worker0(VirtualMachine& vm, ArgList args, Value* result);

}  // namespace relax::vm::builtin

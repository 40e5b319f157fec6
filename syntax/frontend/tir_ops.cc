// The TIR intrinsic table: TVM's builtin ops as the text format writes them.
#include "syntax/frontend/tir_ops.h"

#include <unordered_map>

namespace relax::syntax {

namespace {

using R = TirDtypeRule;
constexpr int kAny = -1;

// Script name, op name, dtype rule, argument count range (after a leading dtype string).
constexpr TirOpInfo kOps[] = {
    // Unary math: the result has the argument's type.
    {"exp", "tir.exp", R::kFirstArg, 1, 1},
    {"exp2", "tir.exp2", R::kFirstArg, 1, 1},
    {"exp10", "tir.exp10", R::kFirstArg, 1, 1},
    {"erf", "tir.erf", R::kFirstArg, 1, 1},
    {"tanh", "tir.tanh", R::kFirstArg, 1, 1},
    {"sigmoid", "tir.sigmoid", R::kFirstArg, 1, 1},
    {"sqrt", "tir.sqrt", R::kFirstArg, 1, 1},
    {"rsqrt", "tir.rsqrt", R::kFirstArg, 1, 1},
    {"log", "tir.log", R::kFirstArg, 1, 1},
    {"log2", "tir.log2", R::kFirstArg, 1, 1},
    {"log10", "tir.log10", R::kFirstArg, 1, 1},
    {"log1p", "tir.log1p", R::kFirstArg, 1, 1},
    {"floor", "tir.floor", R::kFirstArg, 1, 1},
    {"ceil", "tir.ceil", R::kFirstArg, 1, 1},
    {"round", "tir.round", R::kFirstArg, 1, 1},
    {"nearbyint", "tir.nearbyint", R::kFirstArg, 1, 1},
    {"trunc", "tir.trunc", R::kFirstArg, 1, 1},
    {"fabs", "tir.fabs", R::kFirstArg, 1, 1},
    {"tan", "tir.tan", R::kFirstArg, 1, 1},
    {"cos", "tir.cos", R::kFirstArg, 1, 1},
    {"cosh", "tir.cosh", R::kFirstArg, 1, 1},
    {"sin", "tir.sin", R::kFirstArg, 1, 1},
    {"sinh", "tir.sinh", R::kFirstArg, 1, 1},
    {"asin", "tir.asin", R::kFirstArg, 1, 1},
    {"acos", "tir.acos", R::kFirstArg, 1, 1},
    {"atan", "tir.atan", R::kFirstArg, 1, 1},
    {"asinh", "tir.asinh", R::kFirstArg, 1, 1},
    {"acosh", "tir.acosh", R::kFirstArg, 1, 1},
    {"atanh", "tir.atanh", R::kFirstArg, 1, 1},
    {"popcount", "tir.popcount", R::kFirstArg, 1, 1},
    {"clz", "tir.clz", R::kFirstArg, 1, 1},
    {"isnan", "tir.isnan", R::kBool, 1, 1},
    {"isinf", "tir.isinf", R::kBool, 1, 1},
    {"isfinite", "tir.isfinite", R::kBool, 1, 1},
    // Binary math.
    {"pow", "tir.pow", R::kFirstArg, 2, 2},
    {"fmod", "tir.fmod", R::kFirstArg, 2, 2},
    {"atan2", "tir.atan2", R::kFirstArg, 2, 2},
    {"nextafter", "tir.nextafter", R::kFirstArg, 2, 2},
    {"hypot", "tir.hypot", R::kFirstArg, 2, 2},
    {"copysign", "tir.copysign", R::kFirstArg, 2, 2},
    {"ldexp", "tir.ldexp", R::kFirstArg, 2, 2},
    {"q_multiply_shift", "tir.q_multiply_shift", R::kFirstArg, 4, 4},
    // Bitwise operators.
    {"bitwise_and", "tir.bitwise_and", R::kFirstArg, 2, 2},
    {"bitwise_or", "tir.bitwise_or", R::kFirstArg, 2, 2},
    {"bitwise_xor", "tir.bitwise_xor", R::kFirstArg, 2, 2},
    {"bitwise_not", "tir.bitwise_not", R::kFirstArg, 1, 1},
    {"shift_left", "tir.shift_left", R::kFirstArg, 2, 2},
    {"shift_right", "tir.shift_right", R::kFirstArg, 2, 2},
    // Hints and control.
    {"likely", "tir.likely", R::kFirstArg, 1, 1},
    {"assume", "tir.assume", R::kBool, 1, 1},
    {"tvm_thread_invariant", "tir.tvm_thread_invariant", R::kFirstArg, 1, 1},
    {"ret", "tir.ret", R::kFirstArg, 1, 1},
    {"undef", "tir.undef", R::kInt32, 0, 0},
    {"vscale", "tir.vscale", R::kInt32, 0, 0},
    {"reinterpret", "tir.reinterpret", R::kDtypeFirst, 1, 1},
    {"type_annotation", "tir.type_annotation", R::kDtypeFirst, 0, 0},
    {"get_active_lane_mask", "tir.get_active_lane_mask", R::kDtypeFirst, 2, 2},
    // External and packed calls.
    {"call_extern", "tir.call_extern", R::kDtypeFirst, 1, kAny},
    {"call_pure_extern", "tir.call_pure_extern", R::kDtypeFirst, 1, kAny},
    {"call_llvm_intrin", "tir.call_llvm_intrin", R::kDtypeFirst, 1, kAny},
    {"call_llvm_pure_intrin", "tir.call_llvm_pure_intrin", R::kDtypeFirst, 1, kAny},
    {"call_spirv_pure_glsl450", "tir.call_spirv_pure_glsl450", R::kDtypeFirst, 1, kAny},
    {"call_packed", "tir.tvm_call_packed", R::kInt32, 1, kAny},
    {"call_cpacked", "tir.tvm_call_cpacked", R::kInt32, 1, kAny},
    {"call_packed_lowered", "tir.tvm_call_packed_lowered", R::kInt32, 1, kAny},
    {"call_cpacked_lowered", "tir.tvm_call_cpacked_lowered", R::kInt32, 1, kAny},
    {"call_trace_packed", "tir.tvm_call_trace_packed", R::kInt32, 1, kAny},
    {"tvm_check_return", "tir.tvm_check_return", R::kInt32, 3, 3},
    // Runtime structures and the stack.
    {"tvm_access_ptr", "tir.tvm_access_ptr", R::kHandle, 5, 5},
    {"tvm_tuple", "tir.tvm_tuple", R::kHandle, 0, kAny},
    {"tvm_struct_get", "tir.tvm_struct_get", R::kDtypeLast, 3, 3},
    {"tvm_struct_set", "tir.tvm_struct_set", R::kInt32, 4, 4},
    {"tvm_stack_alloca", "tir.tvm_stack_alloca", R::kHandle, 2, 2},
    {"tvm_stack_make_shape", "tir.tvm_stack_make_shape", R::kHandle, 0, kAny},
    {"tvm_stack_make_array", "tir.tvm_stack_make_array", R::kHandle, 6, 6},
    {"address_of", "tir.address_of", R::kHandle, 1, 1},
    {"lookup_param", "tir.lookup_param", R::kHandle, 1, 1},
    {"isnullptr", "tir.isnullptr", R::kBool, 1, 1},
    {"handle_add_byte_offset", "tir.handle_add_byte_offset", R::kHandle, 2, 2},
    {"anylist_getitem", "tir.anylist_getitem", R::kHandle, 2, 2},
    {"anylist_resetitem", "tir.anylist_resetitem", R::kInt32, 2, 2},
    {"anylist_setitem_call_packed", "tir.anylist_setitem_call_packed", R::kInt32, 3, kAny},
    {"anylist_setitem_call_cpacked", "tir.anylist_setitem_call_cpacked", R::kInt32, 3, kAny},
    {"start_profile_intrinsic", "tir.start_profile_intrinsic", R::kHandle, 1, 1},
    {"end_profile_intrinsic", "tir.end_profile_intrinsic", R::kHandle, 1, 1},
    // Threads, warps and tensor cores.
    {"tvm_thread_allreduce", "tir.tvm_thread_allreduce", R::kHandle, 0, kAny},
    {"tvm_storage_sync", "tir.tvm_storage_sync", R::kInt32, 1, kAny},
    {"tvm_warp_shuffle", "tir.tvm_warp_shuffle", R::kFirstArg, 5, 5},
    {"tvm_warp_shuffle_up", "tir.tvm_warp_shuffle_up", R::kFirstArg, 5, 5},
    {"tvm_warp_shuffle_down", "tir.tvm_warp_shuffle_down", R::kFirstArg, 5, 5},
    {"tvm_warp_activemask", "tir.tvm_warp_activemask", R::kInt32, 0, 0},
    {"tvm_load_matrix_sync", "tir.tvm_load_matrix_sync", R::kHandle, 8, 8},
    {"tvm_store_matrix_sync", "tir.tvm_store_matrix_sync", R::kHandle, 8, 8},
    {"tvm_mma_sync", "tir.tvm_mma_sync", R::kHandle, 8, 8},
    {"tvm_bmma_sync", "tir.tvm_bmma_sync", R::kHandle, 8, 8},
    {"tvm_fill_fragment", "tir.tvm_fill_fragment", R::kHandle, 6, 6},
    {"ptx_mma", "tir.ptx_mma", R::kDtypeFirst, 0, kAny},
    {"ptx_mma_sp", "tir.ptx_mma_sp", R::kDtypeFirst, 0, kAny},
    {"ptx_ldmatrix", "tir.ptx_ldmatrix", R::kDtypeFirst, 0, kAny},
    {"ptx_cp_async", "tir.ptx_cp_async", R::kDtypeFirst, 0, kAny},
    {"ptx_commit_group", "tir.ptx_commit_group", R::kVoid, 0, 0},
    {"ptx_wait_group", "tir.ptx_wait_group", R::kVoid, 1, 1},
    {"mma_store", "tir.mma_store", R::kDtypeFirst, 0, kAny},
    {"mma_fill", "tir.mma_fill", R::kDtypeFirst, 0, kAny},
};

struct Index {
  std::unordered_map<std::string_view, const TirOpInfo*> by_script;
  std::unordered_map<std::string_view, const TirOpInfo*> by_op;
  Index() {
    for (const TirOpInfo& op : kOps) {
      by_script.emplace(op.script_name, &op);
      by_op.emplace(op.op_name, &op);
    }
  }
};

const Index& index() {
  static const Index kIndex;
  return kIndex;
}

}  // namespace

const TirOpInfo* find_tir_op_by_script_name(std::string_view script_name) {
  auto it = index().by_script.find(script_name);
  return it == index().by_script.end() ? nullptr : it->second;
}

const TirOpInfo* find_tir_op_by_op_name(std::string_view op_name) {
  auto it = index().by_op.find(op_name);
  return it == index().by_op.end() ? nullptr : it->second;
}

std::string tir_script_name(std::string_view op_name) {
  if (const TirOpInfo* op = find_tir_op_by_op_name(op_name)) return op->script_name;
  if (op_name.starts_with("tir.")) op_name.remove_prefix(4);
  return std::string(op_name);
}

TirDtypeLocation tir_dtype_location(std::string_view op_name) {
  const TirOpInfo* op = find_tir_op_by_op_name(op_name);
  if (!op) return TirDtypeLocation::kNone;
  if (op->rule == TirDtypeRule::kDtypeFirst) return TirDtypeLocation::kFirst;
  if (op->rule == TirDtypeRule::kDtypeLast) return TirDtypeLocation::kLast;
  return TirDtypeLocation::kNone;
}

}  // namespace relax::syntax

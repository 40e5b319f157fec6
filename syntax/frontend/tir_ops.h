// The table of TIR intrinsics the text format names (`T.exp`, `T.call_extern`, ...): how the
// front end types a call (its result dtype rule) and how the printer spells it (script name,
// where the result dtype is written). Shared by the TIR front end and the TIR printer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace relax::syntax {

// How an intrinsic call gets its result dtype when parsed.
enum class TirDtypeRule : uint8_t {
  kFirstArg,    // the dtype of the first argument (math, bitwise ops, likely)
  kBool,        // a bool (isnan, assume)
  kHandle,      // a handle (tvm_tuple, tvm_access_ptr, address_of)
  kInt32,       // an int32 (call_packed, tvm_struct_set, anylist_setitem_*)
  kDtypeFirst,  // written first as a string: T.call_extern("float32", "f", x)
  kDtypeLast,   // written last as a string: T.tvm_struct_get(x, 0, 1, "int32")
  kVoid,        // no value
};

// Where the printer writes the result dtype of a call (TVM's TScriptDtypePrintLocation).
enum class TirDtypeLocation : uint8_t { kNone, kFirst, kLast };

struct TirOpInfo {
  const char* script_name;  // after "T.": "exp", "call_packed"
  const char* op_name;      // TVM's op: "tir.exp", "tir.tvm_call_packed"
  TirDtypeRule rule;
  int min_args;  // arguments after a dtype string, if any; -1: any number
  int max_args;
};

// The intrinsic written `T.<script_name>`, or null.
const TirOpInfo* find_tir_op_by_script_name(std::string_view script_name);
// The intrinsic of a TVM op name ("tir.exp"), or null.
const TirOpInfo* find_tir_op_by_op_name(std::string_view op_name);

// The name the printer writes after "T." for a call of `op_name`: the table's script name, or
// the op name without its "tir." prefix.
std::string tir_script_name(std::string_view op_name);
TirDtypeLocation tir_dtype_location(std::string_view op_name);

}  // namespace relax::syntax

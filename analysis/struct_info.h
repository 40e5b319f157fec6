// Struct-info algebra (SEMANTICS.md §1): the base check (is one struct info a superset of
// another, with TVM's four levels), the join used at if/else (least common ancestor), erasure
// of symbolic values out of scope, the static (value-free) form, the symbolic variables a
// struct info uses or defines, and the derivation of a call's result from a function's struct
// info (binding the callee's symbolic parameters to the arguments).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/arith/analyzer.h"
#include "ir/expr.h"

namespace relax::analysis {

using ir::Ref;
using ir::StructInfo;

// How `derived` relates to `base` (SEMANTICS.md §1.4), worst first.
enum class BaseCheck {
  kFailL0,  // provably disjoint: a static contradiction
  kFailL1,  // not a superset by static info (kind, ndim, dtype, vdevice), sets may intersect
  kFailL2,  // static info fine, symbolic values not provably equal
  kPass,    // base ⊇ derived
};

BaseCheck struct_info_base_check(const Ref<StructInfo>& base, const Ref<StructInfo>& derived,
                                 arith::Analyzer& analyzer);
inline bool is_base_of(const Ref<StructInfo>& base, const Ref<StructInfo>& derived,
                       arith::Analyzer& analyzer) {
  return struct_info_base_check(base, derived, analyzer) == BaseCheck::kPass;
}

// The most specific struct info containing both (SEMANTICS.md §1.5).
Ref<StructInfo> struct_info_lca(const Ref<StructInfo>& lhs, const Ref<StructInfo>& rhs,
                                arith::Analyzer& analyzer);

// Rewrites the symbolic values of `sinfo` through `var_map`; a Shape/Tensor whose values use a
// variable that is neither mapped nor accepted by `is_defined` loses its values (keeping ndim,
// dtype and vdevice) (SEMANTICS.md §1.6).
Ref<StructInfo> erase_to_well_defined(
    const Ref<StructInfo>& sinfo,
    const std::unordered_map<const ir::tir::Var*, Ref<ir::tir::PrimExpr>>& var_map,
    const std::function<bool(const ir::tir::Var*)>& is_defined, arith::Analyzer& analyzer);

// Drops all value information (SEMANTICS.md §1.3).
Ref<StructInfo> static_struct_info(const Ref<StructInfo>& sinfo);

// Symbolic variables used anywhere in `sinfo`, in first-use order.
std::vector<Ref<ir::tir::Var>> tir_vars_in(const Ref<StructInfo>& sinfo);
// Symbolic variables `sinfo` can define: those that occur bare as a Shape/Tensor dim or a Prim
// value (SEMANTICS.md §1.7), in first-use order.
std::vector<Ref<ir::tir::Var>> definable_tir_vars(const Ref<StructInfo>& sinfo);

// The struct info of a value: the expression's own when inference has set it.
Ref<StructInfo> struct_info_of(const Ref<ir::Expr>& expr);

// Result of calling a function of struct info `func` with arguments of the given struct infos:
// the callee's symbolic parameters are bound to the arguments' values on first sight, later
// occurrences must not provably differ; the return struct info is erased through that binding.
struct CallDerivation {
  Ref<StructInfo> ret;    // null on error
  int bad_argument = -1;  // the argument whose struct info does not fit (L0/L1)
  BaseCheck bad_argument_check = BaseCheck::kPass;
  std::string error;  // "expects 2 arguments, got 3", ...
  // Every argument that does not fit, with its level, in argument order (the first is
  // bad_argument), so that a caller can report all of them.
  std::vector<std::pair<int, BaseCheck>> mismatches;
};
// `sinfo_args` are the call's struct-info arguments, which an opaque callee whose derive_func is
// kInferBySinfoArgs (extern functions) returns.
CallDerivation derive_call_ret_struct_info(
    const ir::FuncStructInfo& func, const std::vector<Ref<StructInfo>>& args,
    arith::Analyzer& analyzer, const std::vector<Ref<StructInfo>>* sinfo_args = nullptr);

// The derivation function of extern functions: the call's single struct-info argument, a tuple
// of several, or R.Object for none.
inline constexpr const char* kInferBySinfoArgs = "tvm.relax.struct_info.infer_by_sinfo_args";
Ref<StructInfo> struct_info_from_sinfo_args(const std::vector<Ref<StructInfo>>& sinfo_args);
// The default struct info of an extern function: opaque, impure, derived from sinfo_args.
Ref<ir::FuncStructInfo> extern_func_struct_info();

// The struct info of a prim_func as a Relax value (TVM's InferStructInfo of a PrimFunc): a
// buffer parameter is a tensor of the buffer's shape (dims as int64) and dtype, a handle without
// buffer is R.Object, a scalar is R.Prim of its dtype; the result is void (R.Tuple) or the prim
// return type; pure when it has a body.
Ref<ir::FuncStructInfo> prim_func_struct_info(const ir::tir::PrimFunc& func);

// A one-line rendering for messages, in the legacy TVMScript spelling:
// `R.Tensor((n, 4), dtype="float32")`, `R.Shape(ndim=2)`, `R.Prim(value=n)`, `R.Object`.
std::string struct_info_text(const Ref<StructInfo>& sinfo);

}  // namespace relax::analysis

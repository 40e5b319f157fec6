// LegalizeOps (SEMANTICS.md §4): replaces calls of Relax ops by `R.call_tir` of TIR PrimFuncs
// built with the tensor-expression builder (compiler/te/te.h), one legalization per op keyed by
// op name; the ops TVM runs as runtime functions (sort, unique, nonzero, ccl.*) become calls of
// VM builtins instead (legalize_packed). Names of PrimFuncs and their buffers follow TVM's
// legalization (topi names: `add` with block `T_add`, `exp` with `compute`, `sum` with `A_red`,
// ...); identical PrimFuncs are shared and names are deduplicated as TVM does (`add`, `add1`, ...).
// A call is left alone (as TVM leaves it) when an argument's or the result's shape is not known
// as a list of dims, or when no legalization exists for its op (`unlegalized_ops()` lists those).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "ir/diagnostic.h"
#include "ir/expr.h"
#include "ir/module.h"

namespace relax::compiler::legalize {

// The legalization of one call: a PrimFunc (named by `name_hint`, before deduplication) and the
// call_tir arguments, in the PrimFunc's parameter order (the output buffer comes last).
struct Legalized {
  std::string name_hint;
  ir::Ref<ir::tir::PrimFunc> func;
  std::vector<ir::Ref<ir::Expr>> args;
  ir::Ref<ir::StructInfo> out_sinfo;
  // Symbolic vars the buffers' shapes use but do not define (a dim `n + 1` alone): trailing
  // int64 parameters of the PrimFunc, passed as `tir_vars=R.shape([...])` (relax-side values).
  std::vector<ir::Ref<ir::tir::PrimExpr>> tir_vars;
};

// Legalizes a normalized op call (arguments and the call carry struct info). nullopt when the
// op has no legalization or a shape is unknown (nothing is reported), or when its attributes are
// not supported (an error E0742 is reported into `diags`).
std::optional<Legalized> legalize(const ir::Call& call, ir::DiagnosticBag& diags);

// Legalizes a normalized call of an op that runs as a VM runtime builtin (sort, unique,
// nonzero, the ccl collectives, ...: ops_runtime.cc) into the replacement expression: an
// R.call_dps_packed("vm.builtin.X", ...) for ops whose output shapes follow from the input
// shapes, R.call_pure_packed for those whose result shapes depend on the data (unique, nonzero,
// dynamic_strided_slice). nullopt when the op has no such legalization or cannot be legalized
// (a destination-passing op whose output shapes are not known as dims).
std::optional<ir::Ref<ir::Expr>> legalize_packed(const ir::Call& call, ir::DiagnosticBag& diags);

// Whether `op_name` ("relax.add") has a legalization (to a PrimFunc or to a builtin call).
bool has_legalization(const std::string& op_name);
// Op names of the registry that have one / that do not, in registry order.
std::vector<std::string> legalized_ops();
std::vector<std::string> unlegalized_ops();

// Legalizes every op call of every Relax function of a module (in place on a copy): the PrimFuncs
// are added to the module and calls become `R.call_tir(cls.name, (args...), out_sinfo=...)`.
// Reports E0740 (warning) for calls of ops without legalization that are left alone.
// Ops named in `keep` are left as calls, without a warning (the build keeps R.reshape, which the
// VM runs as a zero-copy view: the effect TVM gets from RewriteDataflowReshape after legalizing).
ir::Ref<ir::IRModule> legalize_module(const ir::IRModule& module, ir::DiagnosticBag& diags,
                                      const std::vector<std::string>& keep = {});

// The pass "LegalizeOps" (opt level 0).
Pass legalize_ops_pass(std::vector<std::string> keep = {});

}  // namespace relax::compiler::legalize

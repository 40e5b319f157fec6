// Helpers shared by the Relax passes: rebuilding a module function by function, re-running
// struct-info inference on the result, building op calls and reading struct info.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/pass.h"
#include "ir/expr.h"
#include "ir/module.h"

namespace relax::compiler::relax_passes {

// A new module with the same name, attributes and members, each Relax function replaced by
// `fn(function)`; prim_funcs and extern functions are shared. Struct info is then inferred
// again for the new module (normalize_module), diagnostics going to the context.
ir::Ref<ir::IRModule> map_relax_functions(
    const ir::Ref<ir::IRModule>& module, PassContext& ctx,
    const std::function<ir::Ref<ir::Function>(const ir::Ref<ir::Function>&)>& fn);

// A call of the op `name` ("relax.builtin.alloc_tensor") with positional arguments.
ir::Ref<ir::Call> op_call(const std::string& name, std::vector<ir::Ref<ir::Expr>> args,
                          std::vector<ir::Ref<ir::StructInfo>> sinfo_args = {});
bool is_op_call(const ir::Ref<ir::Expr>& e, const std::string& name);

// The size in bytes of one element of `t` (bits rounded up to bytes, times lanes).
int64_t element_bytes(ir::DataType t);
// The dims of a tensor struct info when its shape is known as a list of dims.
std::optional<std::vector<ir::Ref<ir::tir::PrimExpr>>> known_dims(
    const ir::Ref<ir::StructInfo>& sinfo);
// The product of constant dims, or nullopt when a dim is symbolic (or negative, or the product
// does not fit int64: then the size is left to the run time, which checks it).
std::optional<int64_t> static_elements(const std::vector<ir::Ref<ir::tir::PrimExpr>>& dims);
// The bytes of a tensor of constant `dims` whose elements have `element_bytes` each, under the
// same conditions.
std::optional<int64_t> static_bytes(const std::vector<ir::Ref<ir::tir::PrimExpr>>& dims,
                                    int64_t element_bytes);

// Every Var used (read) inside `e`, nested functions and branches included.
void collect_used_vars(const ir::Ref<ir::Expr>& e, std::vector<const ir::Var*>& out);

// A fresh variable name unique within a function: the first of "alloc", "alloc1", "alloc2", ...
// not taken. Names are only ever added, so each base remembers where its search stopped: a
// function's worth of fresh names costs time linear in their number.
class NameSupply {
 public:
  explicit NameSupply(const ir::Ref<ir::Function>& func);
  std::string fresh(const std::string& base);

 private:
  std::unordered_set<std::string> used_;
  // Per base, the number to try next: every one below it is taken (names are only added), so a
  // function that needs thousands of fresh names does not retry them all each time.
  std::unordered_map<std::string, unsigned> next_;
};

}  // namespace relax::compiler::relax_passes

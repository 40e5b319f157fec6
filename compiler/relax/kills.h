// What a kill means, for every pass and for VM codegen (one home): `R.memory.kill_tensor(x)`,
// `R.memory.kill_storage(x)` and `R.vm.kill_object(x)` end the life of x's value, so that x and
// every alias of x are dead after the kill. An alias is a variable bound to the same value: `y =
// x`, `y = R.match_cast(x, ...)`, `y = t[i]` where t is bound to a tuple literal whose field i is
// x, and `y = op(x)` for the identity ops LowerRuntimeBuiltin turns into their argument
// (hint_on_device, checkpoints, ...). A dead variable may still be aliased (the alias is dead
// too; a match_cast, which checks the value, is a use) or killed again, never used.
#pragma once

#include <string>
#include <unordered_map>

#include "ir/diagnostic.h"
#include "ir/expr.h"
#include "ir/module.h"

namespace relax::compiler::relax_passes {

// The variable a kill call kills, or null when `value` is not a kill of a variable.
const ir::Var* kill_target(const ir::Ref<ir::Expr>& value);

// Ops whose result is their first argument on the VM (LowerRuntimeBuiltin lowers them to it).
bool is_identity_op(const std::string& op_name);

// Each variable's alias root within one function: the first variable of its value. Variables
// that alias nothing are their own root (parameters, results of calls, match_cast results).
class AliasRoots {
 public:
  explicit AliasRoots(const ir::Ref<ir::Function>& func);
  const ir::Var* root(const ir::Var* v) const;
  // The variable `binding` aliases (already resolved to its root), or null.
  const ir::Var* alias_of(const ir::Ref<ir::Binding>& binding) const;

 private:
  friend class AliasCollector;
  std::unordered_map<const ir::Var*, const ir::Var*> root_;
  std::unordered_map<const ir::Var*, ir::Ref<ir::Tuple>> tuples_;  // root -> its tuple literal
};

// Reports E0788 for every variable of a Relax function of `module` that is used after it (or an
// alias) was killed, along the function's bindings and both branches of each if.
void check_kills(const ir::IRModule& module, ir::DiagnosticBag& diags);

}  // namespace relax::compiler::relax_passes

// The one place that lists every op family; each family registers its ops from its own file.
#include "analysis/ops/op_registry.h"

namespace relax::analysis {

void register_binary_ops(OpRegistry& registry);
void register_structural_ops(OpRegistry& registry);

void register_builtin_ops(OpRegistry& registry) {
  register_binary_ops(registry);
  register_structural_ops(registry);
}

}  // namespace relax::analysis

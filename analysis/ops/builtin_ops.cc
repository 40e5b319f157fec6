// The one place that lists every op family; each family registers its ops from its own file.
#include "analysis/ops/op_registry.h"

namespace relax::analysis {

void register_binary_ops(OpRegistry& registry);
void register_unary_ops(OpRegistry& registry);
void register_nn_activation_ops(OpRegistry& registry);
void register_search_ops(OpRegistry& registry);
void register_statistical_ops(OpRegistry& registry);
void register_linear_algebra_ops(OpRegistry& registry);
void register_convolution_ops(OpRegistry& registry);
void register_pooling_ops(OpRegistry& registry);
void register_normalization_ops(OpRegistry& registry);
void register_attention_ops(OpRegistry& registry);
void register_nn_misc_ops(OpRegistry& registry);
void register_manipulate_ops(OpRegistry& registry);
void register_manipulate_index_ops(OpRegistry& registry);
void register_index_ops(OpRegistry& registry);
void register_create_ops(OpRegistry& registry);
void register_image_ops(OpRegistry& registry);
void register_quantize_ops(OpRegistry& registry);
void register_grad_ops(OpRegistry& registry);
void register_distributed_ops(OpRegistry& registry);
void register_structural_ops(OpRegistry& registry);

void register_builtin_ops(OpRegistry& registry) {
  register_binary_ops(registry);
  register_unary_ops(registry);
  register_nn_activation_ops(registry);
  register_search_ops(registry);
  register_statistical_ops(registry);
  register_linear_algebra_ops(registry);
  register_convolution_ops(registry);
  register_pooling_ops(registry);
  register_normalization_ops(registry);
  register_attention_ops(registry);
  register_nn_misc_ops(registry);
  register_manipulate_ops(registry);
  register_manipulate_index_ops(registry);
  register_index_ops(registry);
  register_create_ops(registry);
  register_image_ops(registry);
  register_quantize_ops(registry);
  register_grad_ops(registry);
  register_distributed_ops(registry);
  register_structural_ops(registry);
}

}  // namespace relax::analysis

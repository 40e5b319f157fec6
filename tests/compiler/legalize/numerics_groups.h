// The case groups of the legalization numerics tests, one function per op family; each is run by
// its own TEST_CASE and all of them by the coverage test in legalize_numerics_test.cc. A new
// group is declared here and added to all_numerics_groups().
#pragma once

namespace relax::legalize_test {

void unary_cases();
void binary_cases();
void reduction_cases();
void matmul_cases();
void softmax_norm_cases();
void manipulation_cases();
void creation_cases();
void conv_pool_cases();
void layout_cases();
void misc_cases();
void tuple_gather_cases();
void conv_transpose_pool3d_cases();
void attention_loss_resize_cases();
void scatter_index_cases();
void einsum_quantize_layout_cases();
void runtime_op_cases();

// Every group, in order.
inline void all_numerics_groups() {
  unary_cases();
  binary_cases();
  reduction_cases();
  matmul_cases();
  softmax_norm_cases();
  manipulation_cases();
  creation_cases();
  conv_pool_cases();
  layout_cases();
  misc_cases();
  tuple_gather_cases();
  conv_transpose_pool3d_cases();
  attention_loss_resize_cases();
  scatter_index_cases();
  einsum_quantize_layout_cases();
  runtime_op_cases();
}

}  // namespace relax::legalize_test

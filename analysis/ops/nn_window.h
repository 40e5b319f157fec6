// Window attributes shared by convolution, pooling and their gradients: the canonical forms TVM's
// constructors give them (one padding value for every side, one stride for every axis, the output
// layout defaulting to the input's) and the checks on them.
#pragma once

#include <string>

#include "analysis/ops/common.h"

namespace relax::analysis {

// Expands the int-array attribute `name` of `call` for `dims` spatial axes: a window attribute
// (strides, dilation, pool_size, output_padding) takes 1 or `dims` values; padding takes 1,
// `dims` or 2*`dims` (begin values then end values). Reports E0316 for another length or a
// negative value (`positive`: a value < 1). Returns false after reporting.
bool expand_window_attr(InferContext& ctx, ir::Ref<ir::Call>& call, const std::string& name,
                        int dims, bool is_padding, bool positive);
// Sets `out_attr` to the value of `from_attr` when it is None.
void default_out_layout(ir::Ref<ir::Call>& call, const std::string& out_attr,
                        const std::string& from_attr);

// floordiv(in + pad_begin + pad_end - dilation * (kernel - 1) - 1, stride) + 1, unsimplified.
ExprRef window_output_length(const ExprRef& in, int64_t pad_begin, int64_t pad_end,
                             int64_t dilation, const ExprRef& kernel, int64_t stride);

// Pooling, shared with the pooling gradients (pooling.cc): the canonical call, the output of the
// window over argument `data_arg`, and the attributes in declaration and positional order.
ir::Ref<ir::Call> normalize_pool(InferContext& ctx, int dims);
ir::Ref<ir::StructInfo> infer_pool(InferContext& ctx, int dims, size_t data_arg);
std::vector<AttrSpec> pool_attrs(int dims, bool count_include_pad);
std::vector<std::string> pool_attr_positions();

}  // namespace relax::analysis

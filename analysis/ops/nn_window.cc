// Window attribute normalization and the output-length formula of sliding windows.
#include "analysis/ops/nn_window.h"

namespace relax::analysis {

bool expand_window_attr(InferContext& ctx, ir::Ref<ir::Call>& call, const std::string& name,
                        int dims, bool is_padding, bool positive) {
  ir::ObjectRef raw = call->attrs.find(name);
  auto arr = raw.as_ptr<ir::ArrayValue>();
  if (!arr) return true;  // None (an optional attribute) stays as it is
  std::vector<int64_t> values;
  for (const auto& item : arr->items) {
    if (auto i = item.as_ptr<ir::IntValue>()) values.push_back(i->value);
  }
  size_t n = values.size();
  size_t d = static_cast<size_t>(dims);
  std::vector<int64_t> out;
  if (n == 1) {
    out.assign(is_padding ? 2 * d : d, values[0]);
  } else if (n == d) {
    out = values;
    if (is_padding) out.insert(out.end(), values.begin(), values.end());
  } else if (is_padding && n == 2 * d) {
    out = values;
  } else {
    std::string allowed =
        is_padding
            ? (d == 1 ? "1 or 2" : "1, " + std::to_string(d) + " or " + std::to_string(2 * d))
            : (d == 1 ? "1" : "1 or " + std::to_string(d));
    ctx.error_at_attr(name, "E0316",
                      ctx.op_name() + ": `" + name + "` must have " + allowed + " values, got " +
                          std::to_string(n));
    return false;
  }
  for (int64_t v : out) {
    if (positive ? v < 1 : v < 0) {
      ctx.error_at_attr(name, "E0316",
                        ctx.op_name() + ": `" + name + "` values must be " +
                            (positive ? "positive" : "non-negative") + ", got " +
                            std::to_string(v));
      return false;
    }
  }
  if (out != values) call = with_attr(call, name, int_array_value(out, raw->span));
  return true;
}

void default_out_layout(ir::Ref<ir::Call>& call, const std::string& out_attr,
                        const std::string& from_attr) {
  if (call->attrs.find(out_attr)) return;
  auto from = call->attrs.find(from_attr).as_ptr<ir::StringValue>();
  if (!from) return;
  call = with_attr(call, out_attr, ir::make<ir::StringValue>(from->value));
}

ExprRef window_output_length(const ExprRef& in, int64_t pad_begin, int64_t pad_end,
                             int64_t dilation, const ExprRef& kernel, int64_t stride) {
  // Checked arithmetic throughout: attribute values come from the user and may be huge.
  ExprRef padded = dim_add(dim_add(in, dim_const(pad_begin)), dim_const(pad_end));
  ExprRef numerator = dim_sub(
      dim_sub(padded, dim_mul(dim_const(dilation), dim_sub(kernel, dim_const(1)))), dim_const(1));
  return dim_add(dim_floordiv(numerator, dim_const(stride)), dim_const(1));
}

}  // namespace relax::analysis

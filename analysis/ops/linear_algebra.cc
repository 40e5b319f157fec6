// Linear algebra (SEMANTICS.md §3.5): matmul with numpy's rules (batch dims broadcast, a 1-D
// operand gains and then loses a unit axis), einsum by its subscripts, and outer products.
#include <cctype>
#include <map>

#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::DataType;
using ir::make;
using ir::Ref;

namespace {

Ref<ir::StructInfo> infer_matmul(InferContext& ctx) {
  auto a = ctx.tensor_arg(0);
  auto b = a ? ctx.tensor_arg(1) : nullptr;
  if (!a || !b) return nullptr;
  DataType dtype;
  if (auto out = ctx.attr_dtype("out_dtype")) {
    dtype = *out;
  } else {
    auto d = binary_arith_dtype(ctx, a->dtype, b->dtype, 0, 1);
    if (!d) return nullptr;
    dtype = *d;
  }
  Ref<ir::VDevice> vdevice = ctx.common_vdevice({0, 1});
  if (a->is_unknown_ndim() || b->is_unknown_ndim())
    return tensor_with_ndim(ir::kUnknownNDim, dtype, vdevice);
  for (size_t i = 0; i < 2; ++i) {
    int ndim = i == 0 ? a->ndim : b->ndim;
    if (ndim == 0) {
      ctx.error_at_arg(
             i, "E0312",
             ctx.op_name() + " does not take scalars, but " + arg_name(ctx, i) + " has rank 0")
          .note("multiply a scalar with R.multiply");
      return nullptr;
    }
  }
  bool lhs_1d = a->ndim == 1, rhs_1d = b->ndim == 1;
  int lhs_ndim = lhs_1d ? 2 : a->ndim, rhs_ndim = rhs_1d ? 2 : b->ndim;
  int out_ndim = std::max(lhs_ndim, rhs_ndim) - (lhs_1d ? 1 : 0) - (rhs_1d ? 1 : 0);
  const PrimExprs* ad = known_shape(*a);
  const PrimExprs* bd = known_shape(*b);
  if (!ad || !bd) return tensor_with_ndim(out_ndim, dtype, vdevice);
  PrimExprs lhs = *ad, rhs = *bd;
  if (lhs_1d) lhs.insert(lhs.begin(), dim_const(1));
  if (rhs_1d) rhs.push_back(dim_const(1));
  PrimExprs lhs_batch(lhs.begin(), lhs.end() - 2), rhs_batch(rhs.begin(), rhs.end() - 2), batch;
  switch (broadcast_shapes(ctx, lhs_batch, rhs_batch, batch, 0, 1)) {
    case BroadcastResult::kError:
      return nullptr;
    case BroadcastResult::kUnknown:
      return tensor_with_ndim(out_ndim, dtype, vdevice);
    case BroadcastResult::kOk:
      break;
  }
  const ExprRef& k_lhs = lhs[lhs.size() - 1];
  const ExprRef& k_rhs = rhs[rhs.size() - 2];
  if (compare_dims(ctx, k_lhs, k_rhs) == DimRelation::kUnequal) {
    ctx.error_at_arg(1, "E0313",
                     ctx.op_name() + ": the reduction lengths differ: " + arg_name(ctx, 0) + " " +
                         shape_text(*ad) + " has " + dim_text(k_lhs) + " columns, " +
                         arg_name(ctx, 1) + " " + shape_text(*bd) + " has " + dim_text(k_rhs) +
                         " rows");
    return nullptr;
  }
  PrimExprs out = batch;
  if (!lhs_1d) out.push_back(lhs[lhs.size() - 2]);
  if (!rhs_1d) out.push_back(rhs[rhs.size() - 1]);
  return tensor_with_shape(std::move(out), dtype, vdevice);
}

Ref<ir::StructInfo> infer_outer(InferContext& ctx) {
  auto a = ctx.tensor_arg(0);
  auto b = a ? ctx.tensor_arg(1) : nullptr;
  if (!a || !b) return nullptr;
  for (size_t i = 0; i < 2; ++i) {
    const auto* t = i == 0 ? a : b;
    if (!t->is_unknown_ndim() && t->ndim != 1) {
      ctx.error_at_arg(i, "E0312",
                       ctx.op_name() + " takes 1-D tensors, but " + arg_name(ctx, i) +
                           " has rank " + std::to_string(t->ndim));
      return nullptr;
    }
  }
  auto dtype = binary_arith_dtype(ctx, a->dtype, b->dtype, 0, 1);
  if (!dtype) return nullptr;
  Ref<ir::VDevice> vdevice = ctx.common_vdevice({0, 1});
  const PrimExprs* ad = shape_expr_dims(*a);
  const PrimExprs* bd = shape_expr_dims(*b);
  if (!ad || !bd) return tensor_with_ndim(2, *dtype, vdevice);
  return tensor_with_shape({(*ad)[0], (*bd)[0]}, *dtype, vdevice);
}

// ---- einsum
// ---------------------------------------------------------------------------------------

// One operand's subscript: letters, with '.' standing for the axes of an ellipsis.
struct Subscript {
  std::string letters;
  bool ellipsis = false;
  size_t ellipsis_at = 0;  // position of "..." among the letters
};

std::optional<Subscript> parse_subscript(const std::string& text) {
  Subscript s;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (s.ellipsis || text.compare(i, 3, "...") != 0) return std::nullopt;
      s.ellipsis = true;
      s.ellipsis_at = s.letters.size();
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      s.letters.push_back(c);
    } else {
      return std::nullopt;
    }
  }
  return s;
}

Ref<ir::StructInfo> infer_einsum(InferContext& ctx) {
  auto t = tuple_tensor_args(ctx, 0);
  if (!t) return nullptr;
  if (t->empty()) {
    ctx.error_at_arg(0, "E0317",
                     ctx.op_name() + " needs at least one operand, but the tuple is empty");
    return nullptr;
  }
  DataType dtype;
  for (size_t i = 0; i < t->size(); ++i) {
    DataType dt = (*t)[i]->dtype;
    if (dt.is_void()) continue;
    if (dtype.is_void()) {
      dtype = dt;
    } else if (dt != dtype) {
      ctx.error_at_arg(0, "E0307",
                       ctx.op_name() + " requires one dtype, but operand " + std::to_string(i) +
                           " is " + dt.str() + " while the ones before are " + dtype.str());
      return nullptr;
    }
  }
  for (const auto* x : *t) {
    if (x->dtype.is_void()) dtype = DataType::Void();
  }
  Ref<ir::VDevice> vdevice = shared_vdevice(*t);
  std::string text;
  for (char c : ctx.attr_string("subscripts").value_or("")) {
    if (c != ' ') text.push_back(c);
  }
  auto bad = [&](const std::string& why) {
    ctx.error_at_attr("subscripts", "E0321",
                      ctx.op_name() + ": invalid subscripts \"" + text + "\": " + why);
    return nullptr;
  };
  std::string inputs = text, output;
  bool explicit_output = false;
  if (auto arrow = text.find("->"); arrow != std::string::npos) {
    inputs = text.substr(0, arrow);
    output = text.substr(arrow + 2);
    explicit_output = true;
  }
  std::vector<Subscript> subs;
  size_t start = 0;
  while (true) {
    size_t comma = inputs.find(',', start);
    auto s = parse_subscript(
        inputs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!s) return bad("subscripts are letters and at most one \"...\" per operand");
    subs.push_back(*s);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (subs.size() != t->size()) {
    return bad(std::to_string(subs.size()) + " operand subscripts for " +
               std::to_string(t->size()) + " operands");
  }
  std::optional<Subscript> out_sub;
  if (explicit_output) {
    out_sub = parse_subscript(output);
    if (!out_sub) return bad("the output subscript is not letters and \"...\"");
  }
  // Ranks: each operand has its letters plus the ellipsis axes.
  int ellipsis_ndim = 0;
  bool ranks_known = true;
  for (size_t i = 0; i < subs.size(); ++i) {
    const auto* x = (*t)[i];
    if (x->is_unknown_ndim()) {
      ranks_known = false;
      continue;
    }
    int named = static_cast<int>(subs[i].letters.size());
    if (!subs[i].ellipsis && x->ndim != named) {
      return bad("operand " + std::to_string(i) + " has rank " + std::to_string(x->ndim) +
                 " but its subscript names " + std::to_string(named) + " axes");
    }
    if (subs[i].ellipsis) {
      if (x->ndim < named)
        return bad("operand " + std::to_string(i) + " has fewer axes than its subscript names");
      ellipsis_ndim = std::max(ellipsis_ndim, x->ndim - named);
    }
  }
  // The output letters: given, or those that appear once, in alphabetical order.
  std::string out_letters;
  bool out_ellipsis = false;
  if (out_sub) {
    out_letters = out_sub->letters;
    out_ellipsis = out_sub->ellipsis;
    for (char c : out_letters) {
      bool found = false;
      for (const auto& s : subs) found |= s.letters.find(c) != std::string::npos;
      if (!found) return bad(std::string("the output names '") + c + "', which no operand has");
    }
  } else {
    std::map<char, int> count;
    for (const auto& s : subs) {
      for (char c : s.letters) ++count[c];
      out_ellipsis |= s.ellipsis;
    }
    for (const auto& [c, n] : count) {
      if (n == 1) out_letters.push_back(c);
    }
  }
  int out_ndim = static_cast<int>(out_letters.size()) + (out_ellipsis ? ellipsis_ndim : 0);
  if (!ranks_known)
    return tensor_with_ndim(out_sub && !out_ellipsis ? out_ndim : ir::kUnknownNDim, dtype, vdevice);
  // Extents of the letters (1 broadcasts) and of the ellipsis axes (right-aligned broadcast).
  std::map<char, ExprRef> extent;
  PrimExprs ellipsis_dims(static_cast<size_t>(ellipsis_ndim), dim_const(1));
  bool shapes_known = true;
  for (size_t i = 0; i < subs.size(); ++i) {
    const PrimExprs* dims = shape_expr_dims(*(*t)[i]);
    if (!dims) {
      shapes_known = false;
      continue;
    }
    const Subscript& s = subs[i];
    size_t n_ell = dims->size() - s.letters.size();
    for (size_t j = 0, axis = 0; j < s.letters.size(); ++j, ++axis) {
      if (s.ellipsis && j == s.ellipsis_at) axis += n_ell;
      const ExprRef& d = (*dims)[axis];
      auto it = extent.find(s.letters[j]);
      if (it == extent.end() || ir::tir::is_const_int(it->second, 1)) {
        extent[s.letters[j]] = d;
      } else if (!ir::tir::is_const_int(d, 1) &&
                 compare_dims(ctx, it->second, d) == DimRelation::kUnequal) {
        ctx.error_at_arg(0, "E0313",
                         ctx.op_name() + ": axis '" + std::string(1, s.letters[j]) +
                             "' has length " + dim_text(it->second) + " in one place and " +
                             dim_text(d) + " in operand " + std::to_string(i));
        return nullptr;
      }
    }
    for (size_t e = 0; e < n_ell; ++e) {
      const ExprRef& d = (*dims)[s.ellipsis_at + e];
      size_t slot = static_cast<size_t>(ellipsis_ndim) - n_ell + e;
      if (ir::tir::is_const_int(ellipsis_dims[slot], 1)) ellipsis_dims[slot] = d;
    }
  }
  if (!shapes_known) return tensor_with_ndim(out_ndim, dtype, vdevice);
  PrimExprs out;
  size_t ell_at = out_sub ? out_sub->ellipsis_at : 0;
  for (size_t j = 0; j <= out_letters.size(); ++j) {
    if (out_ellipsis && j == ell_at)
      out.insert(out.end(), ellipsis_dims.begin(), ellipsis_dims.end());
    if (j < out_letters.size()) out.push_back(extent[out_letters[j]]);
  }
  return tensor_with_shape(std::move(out), dtype, vdevice);
}

}  // namespace

void register_linear_algebra_ops(OpRegistry& r) {
  using namespace spec;
  OpInfo matmul;
  matmul.name = "relax.matmul";
  matmul.doc = "Matrix product with numpy's rules: batch axes broadcast, 1-D operands are vectors";
  matmul.args = {arg("x1", "the left operand"), arg("x2", "the right operand")};
  matmul.attrs = {dtype_attr("out_dtype", "void", "the output dtype (None: the operands')")};
  matmul.infer = infer_matmul;
  matmul.pattern = OpPattern::kOutEWiseFusable;
  add_op(r, std::move(matmul));

  OpInfo einsum;
  einsum.name = "relax.einsum";
  einsum.doc = "Einstein summation of a tuple of operands by `subscripts` (\"ij,jk->ik\")";
  einsum.args = {arg("operands", "the tuple of tensors")};
  einsum.attrs = {required_attr("subscripts", AttrKind::kString, "the summation subscripts")};
  einsum.infer = infer_einsum;
  einsum.pattern = OpPattern::kOpaque;
  add_op(r, std::move(einsum));

  OpInfo outer;
  outer.name = "relax.outer";
  outer.doc = "Outer product of two 1-D tensors";
  outer.args = {arg("x1", "the first vector"), arg("x2", "the second vector")};
  outer.infer = infer_outer;
  outer.pattern = OpPattern::kBroadcast;
  add_op(r, std::move(outer));
}

}  // namespace relax::analysis

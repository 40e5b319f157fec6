// Fused multi-head attention (SEMANTICS.md §3.9): query (B, Sq, N, H), key (B, Sk, Nk, H) and
// value (B, Sk, Nv, Hv) in BSNH layout give (B, Sq, N, Hv). With a bias the canonical op is
// nn.attention_bias (the name TVM's constructor gives it), the bias broadcasting to
// (B, N, Sq, Sk).
#include "analysis/ops/common.h"
#include "analysis/ops/op_specs.h"

namespace relax::analysis {

using ir::Ref;

namespace {

Ref<ir::Call> normalize_attention(InferContext& ctx) {
  Ref<ir::Call> call = ctx.call();
  bool has_bias = call->args.size() >= 4;
  std::string want = has_bias ? "relax.nn.attention_bias" : "relax.nn.attention";
  if (call->op_name() == want) return call;
  auto out = ir::make<ir::Call>(ir::Op::get(want), call->args, call->attrs, call->sinfo_args);
  out->span = call->span;
  return out;
}

Ref<ir::StructInfo> infer_attention(InferContext& ctx) {
  const char* names[] = {"query", "key", "value", "bias"};
  std::vector<const ir::TensorStructInfo*> t;
  for (size_t i = 0; i < ctx.num_args() && i < 4; ++i) {
    auto x = ctx.tensor_arg(i);
    if (!x) return nullptr;
    t.push_back(x);
  }
  if (auto mask = ctx.attr_string("causal_mask");
      mask && *mask != "TopLeft" && *mask != "BottomRight") {
    ctx.error_at_attr("causal_mask", "E0316",
                      ctx.op_name() +
                          ": `causal_mask` must be None, \"TopLeft\" or \"BottomRight\", got \"" +
                          *mask + "\"");
    return nullptr;
  }
  if (t.size() < 3) {
    ctx.error("E0304", ctx.op_name() + " needs query, key and value");
    return nullptr;
  }
  for (size_t i = 0; i < 3; ++i) {
    if (!t[i]->is_unknown_ndim() && t[i]->ndim != 4) {
      ctx.error_at_arg(
          i, "E0312",
          ctx.op_name() + ": the " + names[i] +
              " must have rank 4 (batch, sequence, heads, head dim), but it has rank " +
              std::to_string(t[i]->ndim));
      return nullptr;
    }
  }
  if (t.size() == 4 && !t[3]->is_unknown_ndim() && (t[3]->ndim < 2 || t[3]->ndim > 4)) {
    ctx.error_at_arg(3, "E0312",
                     ctx.op_name() +
                         ": the bias must have rank 2 to 4 (broadcasting to (batch, heads, query "
                         "length, key length)), but it has rank " +
                         std::to_string(t[3]->ndim));
    return nullptr;
  }
  const PrimExprs* q = shape_expr_dims(*t[0]);
  const PrimExprs* k = shape_expr_dims(*t[1]);
  const PrimExprs* v = shape_expr_dims(*t[2]);
  if (!q || !k || !v) return tensor_with_ndim(4, t[0]->dtype, t[0]->vdevice);
  auto equal = [&](size_t arg, const ExprRef& a, const ExprRef& b, const std::string& what,
                   const char* other) {
    if (compare_dims(ctx, a, b) != DimRelation::kUnequal) return true;
    ctx.error_at_arg(arg, "E0313",
                     ctx.op_name() + ": the " + what + " of the " + other + " is " + dim_text(a) +
                         " but the " + what + " of the " + names[arg] + " is " + dim_text(b));
    return false;
  };
  auto multiple = [&](size_t arg, const ExprRef& heads, const ExprRef& kv_heads) {
    if (ctx.analyzer().prove(ir::tir::binary(ir::ObjectKind::kNE, dim_floormod(heads, kv_heads),
                                             dim_const(0))) != arith::Proof::kYes) {
      return true;
    }
    ctx.error_at_arg(arg, "E0320",
                     ctx.op_name() + ": the query's " + dim_text(heads) +
                         " heads are not a multiple of the " + names[arg] + "'s " +
                         dim_text(kv_heads) + " heads");
    return false;
  };
  if (!equal(1, (*q)[0], (*k)[0], "batch size", "query") ||
      !equal(2, (*q)[0], (*v)[0], "batch size", "query") ||
      !equal(2, (*k)[1], (*v)[1], "sequence length", "key") ||
      !equal(1, (*q)[3], (*k)[3], "head dimension", "query") || !multiple(1, (*q)[2], (*k)[2]) ||
      !multiple(2, (*q)[2], (*v)[2])) {
    return nullptr;
  }
  if (t.size() == 4) {
    if (const PrimExprs* b = shape_expr_dims(*t[3])) {
      // Right-aligned against (batch, heads, query length, key length); 1 broadcasts.
      PrimExprs full{(*q)[0], (*q)[2], (*q)[1], (*k)[1]};
      const char* what[] = {"batch size", "number of heads", "query length", "key length"};
      size_t offset = 4 - b->size();
      for (size_t i = 0; i < b->size(); ++i) {
        const ExprRef& dim = (*b)[i];
        bool last = i + 1 == b->size();
        if (!last && ir::tir::is_const_int(dim, 1)) continue;
        if (compare_dims(ctx, full[offset + i], dim) == DimRelation::kUnequal) {
          ctx.error_at_arg(3, "E0313",
                           ctx.op_name() + ": the bias has " + dim_text(dim) + " where the " +
                               what[offset + i] + " " + dim_text(full[offset + i]) +
                               " is expected" + (last ? "" : " (or 1)"));
          return nullptr;
        }
      }
    }
  }
  return tensor_with_shape({(*q)[0], (*q)[1], (*q)[2], (*v)[3]}, t[0]->dtype, t[0]->vdevice);
}

}  // namespace

void register_attention_ops(OpRegistry& r) {
  using namespace spec;
  for (bool with_bias : {false, true}) {
    OpInfo op;
    op.name = with_bias ? "relax.nn.attention_bias" : "relax.nn.attention";
    op.doc = with_bias ? "Fused multi-head attention softmax(scale * Q K^T + bias) V in BSNH layout"
                       : "Fused multi-head attention softmax(scale * Q K^T) V in BSNH layout";
    op.args = {
        arg("query", "(batch, query length, heads, head dim)"),
        arg("key", "(batch, key length, key heads, head dim)"),
        arg("value", "(batch, key length, value heads, value head dim)"),
        with_bias
            ? arg("bias",
                  "added to the scores, broadcasting to (batch, heads, query length, key length)")
            : optional_arg(
                  "bias",
                  "added to the scores, broadcasting to (batch, heads, query length, key length)")};
    op.attrs = {
        optional_attr("scale", AttrKind::kPrimExpr, "the score scale (None: 1/sqrt(head dim))"),
        optional_attr("causal_mask", AttrKind::kString, "None, \"TopLeft\" or \"BottomRight\""),
        optional_attr("window_size", AttrKind::kInt, "the window of sliding-window attention")};
    op.infer = infer_attention;
    op.normalize = normalize_attention;
    op.pattern = OpPattern::kOpaque;
    add_op(r, std::move(op));
  }
}

}  // namespace relax::analysis

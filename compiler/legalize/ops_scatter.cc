// Legalizations of the scatters and of advanced indexing: scatter_elements and scatter_nd (as
// TVM's topi builds them: the output starts as a copy of the data, then the updates are applied
// one after another in row-major order of the indices, so for duplicate indices the last update
// wins, or the reduction combines them in order), written as one hand-written stage with serial
// loops; index_tensor (numpy advanced indexing by broadcast index tensors) as a compute.
#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using ir::Ref;
using namespace te;  // NOLINT

namespace {

// The combination of the output's current value and an update for a scatter reduction; null
// for an unknown reduction.
Expr scatter_combine(const std::string& reduction, const Expr& cur, const Expr& upd) {
  if (reduction == "update") return upd;
  if (reduction == "add") return add(cur, upd);
  if (reduction == "mul") return mul(cur, upd);
  if (reduction == "min") return min(cur, upd);
  if (reduction == "max") return max(cur, upd);
  if (reduction == "mean") return div(add(cur, upd), const_of(cur->dtype, 2));
  return nullptr;
}

// A negative index counts from the end of an axis of extent `n`.
Expr wrap_index(const Expr& k, const Expr& n) {
  return select(cmp(ObjectKind::kLT, k, i64(0)), add(k, n), k);
}

// out = copy of `data`, then the statement `apply(out)` (the updates, in order).
Tensor copy_then(Ctx& c, const Tensor& data, const std::vector<Tensor>& reads,
                 const std::string& name,
                 const std::function<Ref<ir::tir::Stmt>(const Tensor&)>& apply) {
  return c.b.opaque(data.shape(), data.dtype(), name, reads, [&](const Tensor& out) {
    auto copy = loop_nest(data.shape(), [&](const Exprs& i) { return store(out, i, data(i)); });
    return seq({copy, apply(out)});
  });
}

bool scatter_elements(Ctx& c) {
  auto x = c.input(0), ind = c.input(1), upd = c.input(2);
  if (!x || !ind || !upd) return false;
  Tensor xt = *x, it = *ind, ut = *upd;
  std::string reduction = c.str_attr("reduction", "update");
  if (!scatter_combine(reduction, i64(0), i64(0)))
    return c.unsupported("reduction \"" + reduction +
                         "\" is not one of update, add, mul, mean, "
                         "min, max");
  size_t axis =
      static_cast<size_t>(norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(xt.ndim())));
  it = checked_indices(
      c, it, [&](const Exprs&) { return xt.shape()[axis]; }, true, "index");
  c.name = "scatter_elements";
  c.out = copy_then(c, xt, {xt, it, ut}, "T_scatter_elements", [&](const Tensor& out) {
    return loop_nest(
        it.shape(),
        [&](const Exprs& i) {
          Exprs idx = i;
          idx[axis] = wrap_index(cast(DataType::Int64(), it(i)), xt.shape()[axis]);
          return store(out, idx, scatter_combine(reduction, out(idx), ut(i)));
        },
        "j");
  });
  return true;
}

bool scatter_nd(Ctx& c) {
  auto x = c.input(0), ind = c.input(1), upd = c.input(2);
  if (!x || !ind || !upd) return false;
  Tensor xt = *x, it = *ind, ut = *upd;
  std::string reduction = c.str_attr("reduction", "update");
  if (reduction == "mean" || !scatter_combine(reduction, i64(0), i64(0)))
    return c.unsupported("reduction \"" + reduction +
                         "\" is not one of update, add, mul, min, "
                         "max");
  auto k = ir::tir::as_const_int(it.shape().back());
  if (!k || *k < 1 || *k > static_cast<int64_t>(xt.ndim()))
    return c.unsupported("the last dim of indices must be static and at most the data's rank");
  size_t kk = static_cast<size_t>(*k);
  // Entry m of an index row addresses dim m of the data.
  it = checked_indices(
      c, it,
      [&](const Exprs& i) {
        Expr extent = i64(0);
        for (size_t m = 0; m < kk; ++m) {
          extent = select(cmp(ObjectKind::kEQ, i.back(), i64(static_cast<int64_t>(m))),
                          xt.shape()[m], extent);
        }
        return extent;
      },
      true, "index");
  // Loops: the index positions (indices.shape[:-1]), then the data's trailing dims.
  Exprs lead(it.shape().begin(), it.shape().end() - 1);
  Exprs extents = lead;
  for (size_t d = kk; d < xt.ndim(); ++d) extents.push_back(xt.shape()[d]);
  c.name = "scatter_nd";
  c.out = copy_then(c, xt, {xt, it, ut}, "T_scatter_nd", [&](const Tensor& out) {
    return loop_nest(
        extents,
        [&](const Exprs& i) {
          Exprs head(i.begin(), i.begin() + static_cast<std::ptrdiff_t>(lead.size()));
          Exprs idx;
          for (size_t m = 0; m < kk; ++m) {
            Exprs ii = head;
            ii.push_back(i64(static_cast<int64_t>(m)));
            idx.push_back(wrap_index(cast(DataType::Int64(), it(ii)), xt.shape()[m]));
          }
          for (size_t d = lead.size(); d < i.size(); ++d) idx.push_back(i[d]);
          return store(out, idx, scatter_combine(reduction, out(idx), ut(i)));
        },
        "j");
  });
  return true;
}

bool index_tensor(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  auto inputs = c.tuple_inputs(1);
  if (!inputs) return false;
  Tensor xt = *x;
  if (inputs->size() > xt.ndim()) return c.unsupported("more index tensors than data dims");
  std::vector<Tensor> idx_t;
  for (const Tensor& t : *inputs) {
    const Expr& extent = xt.shape()[idx_t.size()];
    idx_t.push_back(checked_indices(
        c, t, [&](const Exprs&) { return extent; }, true, "index"));
  }
  size_t n = idx_t.size();
  size_t bnd = shape->size() - (xt.ndim() - n);  // rank of the broadcast index shape
  Exprs bshape(shape->begin(), shape->begin() + static_cast<std::ptrdiff_t>(bnd));
  c.name = "index_tensor";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_index_tensor",
      [&](const Exprs& i) {
        Exprs bi(i.begin(), i.begin() + static_cast<std::ptrdiff_t>(bnd));
        Exprs idx;
        for (size_t k = 0; k < n; ++k) {
          Expr v = cast(DataType::Int64(), broadcast_load(idx_t[k], bi, bshape));
          idx.push_back(wrap_index(v, xt.shape()[k]));
        }
        for (size_t d = bnd; d < i.size(); ++d) idx.push_back(i[d]);
        return xt(idx);
      },
      "ax");
  return true;
}

}  // namespace

void register_scatter(Table& t) {
  t["relax.scatter_elements"] = scatter_elements;
  t["relax.scatter_nd"] = scatter_nd;
  t["relax.index_tensor"] = index_tensor;
}

}  // namespace relax::compiler::legalize

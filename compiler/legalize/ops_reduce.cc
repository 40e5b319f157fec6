// Legalizations of reductions (sum, mean, max, min, prod, variance, std), matmul (batched, with
// NumPy's 1-D rules), softmax / log_softmax and the normalizations layer_norm, rms_norm,
// group_norm, instance_norm and batch_norm.
#include <algorithm>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using namespace te;  // NOLINT

namespace {

// The reduced axes of a reduction call (all when `axis` is None), sorted.
std::vector<int64_t> reduce_axes(Ctx& c, int64_t ndim, const std::string& key = "axis") {
  std::vector<int64_t> axes;
  if (auto given = c.ints(key)) {
    for (int64_t a : *given) axes.push_back(norm_axis(a, ndim));
  } else {
    for (int64_t a = 0; a < ndim; ++a) axes.push_back(a);
  }
  std::sort(axes.begin(), axes.end());
  return axes;
}

bool contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// A reduction of `x` over `axes` (keepdims: reduced dims stay as 1) with `f` applied to each
// element, into a stage named `name`.
Tensor reduce_stage(Builder& b, const Tensor& x, const std::vector<int64_t>& axes, bool keepdims,
                    ReduceKind kind, DataType dtype, const std::string& name,
                    const std::function<Expr(const Expr&)>& f) {
  int64_t nd = static_cast<int64_t>(x.ndim());
  Exprs shape, rext;
  std::vector<std::string> rnames;
  for (int64_t d = 0; d < nd; ++d) {
    if (contains(axes, d)) {
      rext.push_back(x.shape()[d]);
      rnames.push_back("k" + std::to_string(d));
      if (keepdims) shape.push_back(i64(1));
    } else {
      shape.push_back(x.shape()[d]);
    }
  }
  return b.reduce(
      shape, rext, kind, dtype, name,
      [&](const Exprs& sp, const Exprs& rd) {
        Exprs idx;
        size_t s = 0, r = 0;
        for (int64_t d = 0; d < nd; ++d) {
          if (contains(axes, d)) {
            idx.push_back(rd[r++]);
            if (keepdims) ++s;
          } else {
            idx.push_back(sp[s++]);
          }
        }
        return f(x(idx));
      },
      {}, rnames);
}

Expr count_of(const Tensor& x, const std::vector<int64_t>& axes, DataType dtype) {
  Expr n = i64(1);
  for (int64_t a : axes) n = ir::tir::is_const_int(n, 1) ? x.shape()[a] : mul(n, x.shape()[a]);
  if (auto k = ir::tir::as_const_int(n)) return const_of(dtype, static_cast<double>(*k));
  return cast(dtype, n);
}

LegalizeFn simple_reduce(std::string name, ReduceKind kind) {
  return [name, kind](Ctx& c) {
    auto x = c.input(0);
    if (!x) return false;
    auto axes = reduce_axes(c, static_cast<int64_t>(x->ndim()));
    c.name = name;
    c.out = reduce_stage(c.b, *x, axes, c.bool_attr("keepdims", false), kind, c.out_dtype(),
                         x->name() + "_red", [](const Expr& e) { return e; });
    return true;
  };
}

// Loads `t` (of the reduced shape) at the indices of the full shape `idx`, dropping (or zeroing,
// with keepdims) the reduced axes.
Expr load_reduced(const Tensor& t, const Exprs& idx, const std::vector<int64_t>& axes,
                  bool keepdims) {
  Exprs r;
  for (size_t d = 0; d < idx.size(); ++d) {
    if (contains(axes, static_cast<int64_t>(d))) {
      if (keepdims) r.push_back(i64(0));
    } else {
      r.push_back(idx[d]);
    }
  }
  return t(r);
}

// Mean over `axes` (a sum, then a division).
Tensor mean_stages(Builder& b, const Tensor& x, const std::vector<int64_t>& axes, bool keepdims,
                   DataType dtype) {
  Tensor s = reduce_stage(b, x, axes, keepdims, ReduceKind::kSum, dtype, x.name() + "_red",
                          [](const Expr& e) { return e; });
  Expr n = count_of(x, axes, dtype);
  return b.compute(
      s.shape(), dtype, "T_divide", [&](const Exprs& i) { return div(s(i), n); }, "ax");
}

LegalizeFn variance_op(bool is_std) {
  return [is_std](Ctx& c) {
    auto x = c.input(0);
    if (!x) return false;
    Tensor xt = *x;
    DataType dt = c.out_dtype();
    auto axes = reduce_axes(c, static_cast<int64_t>(xt.ndim()));
    bool keep = c.bool_attr("keepdims", false);
    Tensor mean = mean_stages(c.b, xt, axes, true, dt);
    Tensor diff = c.b.compute(
        xt.shape(), dt, "T_subtract",
        [&](const Exprs& i) { return sub(xt(i), load_reduced(mean, i, axes, true)); }, "ax");
    Tensor sq = reduce_stage(c.b, diff, axes, keep, ReduceKind::kSum, dt, "T_multiply_red",
                             [](const Expr& e) { return mul(e, e); });
    Expr n = count_of(xt, axes, dt);
    c.name = is_std ? "std" : "variance";
    c.out = c.b.compute(
        sq.shape(), dt, is_std ? "compute" : "T_divide",
        [&](const Exprs& i) {
          Expr v = div(sq(i), n);
          return is_std ? call1("tir.sqrt", v) : v;
        },
        is_std ? "i" : "ax");
    return true;
  };
}

bool matmul(Ctx& c) {
  auto a = c.input(0);
  auto b = c.input(1);
  auto shape = c.out_shape();
  if (!a || !b || !shape) return false;
  Tensor at = *a, bt = *b;
  DataType dt = c.out_dtype();
  size_t ra = at.ndim(), rb = bt.ndim(), ro = shape->size();
  if (ra == 0 || rb == 0) return c.unsupported("matmul of a 0-d tensor");
  Expr kext = at.shape()[ra - 1];
  std::vector<std::string> names;
  for (size_t d = 0; d < ro; ++d) names.push_back("i" + std::to_string(d));
  c.name = "matmul";
  c.out = c.b.reduce(*shape, {kext}, ReduceKind::kSum, dt, "matmul",
                     [&](const Exprs& i, const Exprs& k) {
                       // Output dims: batch..., [n if ra > 1], [m if rb > 1].
                       size_t nbatch = ro - (ra > 1 ? 1 : 0) - (rb > 1 ? 1 : 0);
                       Exprs ia, ib;
                       if (ra > 1) {
                         size_t abatch = ra - 2;
                         for (size_t d = 0; d < abatch; ++d) {
                           size_t od = nbatch - abatch + d;
                           bool one = ir::tir::is_const_int(at.shape()[d], 1) &&
                                      !ir::tir::is_const_int((*shape)[od], 1);
                           ia.push_back(one ? i64(0) : i[od]);
                         }
                         ia.push_back(i[nbatch]);
                       }
                       ia.push_back(k[0]);
                       if (rb > 1) {
                         size_t bbatch = rb - 2;
                         for (size_t d = 0; d < bbatch; ++d) {
                           size_t od = nbatch - bbatch + d;
                           bool one = ir::tir::is_const_int(bt.shape()[d], 1) &&
                                      !ir::tir::is_const_int((*shape)[od], 1);
                           ib.push_back(one ? i64(0) : i[od]);
                         }
                         ib.push_back(k[0]);
                         ib.push_back(i[ro - 1]);
                       } else {
                         ib.push_back(k[0]);
                       }
                       return mul(cast(dt, at(ia)), cast(dt, bt(ib)));
                     },
                     names, {"k"});
  return true;
}

// Shape of `x` without `axis`, and index helpers for softmax-style ops.
Exprs drop_axis(const Exprs& s, int64_t axis) {
  Exprs out;
  for (size_t d = 0; d < s.size(); ++d)
    if (static_cast<int64_t>(d) != axis) out.push_back(s[d]);
  return out;
}

Exprs insert_axis(const Exprs& i, int64_t axis, const Expr& v) {
  Exprs out = i;
  out.insert(out.begin() + axis, v);
  return out;
}

LegalizeFn softmax_op(bool log) {
  return [log](Ctx& c) {
    auto x = c.input(0);
    if (!x) return false;
    Tensor xt = *x;
    DataType dt = c.out_dtype();
    int64_t axis = norm_axis(c.int_attr("axis", -1), static_cast<int64_t>(xt.ndim()));
    Exprs rshape = drop_axis(xt.shape(), axis);
    Exprs ext{xt.shape()[axis]};
    Tensor mx = c.b.reduce(
        rshape, ext, ReduceKind::kMax, dt, "T_softmax_maxelem",
        [&](const Exprs& i, const Exprs& k) { return xt(insert_axis(i, axis, k[0])); }, {}, {"k"});
    c.name = log ? "log_softmax" : "softmax";
    if (log) {
      Tensor es = c.b.reduce(rshape, ext, ReduceKind::kSum, dt, "compute",
                             [&](const Exprs& i, const Exprs& k) {
                               return call1("tir.exp", sub(xt(insert_axis(i, axis, k[0])), mx(i)));
                             },
                             {}, {"k"});
      c.out = c.b.compute(xt.shape(), dt, "compute_1", [&](const Exprs& i) {
        Exprs r = drop_axis(i, axis);
        return sub(sub(xt(i), mx(r)), call1("tir.log", es(r)));
      });
      return true;
    }
    Tensor ex = c.b.compute(xt.shape(), dt, "T_softmax_exp", [&](const Exprs& i) {
      return call1("tir.exp", sub(xt(i), mx(drop_axis(i, axis))));
    });
    Tensor es = c.b.reduce(
        rshape, ext, ReduceKind::kSum, dt, "T_softmax_expsum",
        [&](const Exprs& i, const Exprs& k) { return ex(insert_axis(i, axis, k[0])); }, {}, {"k"});
    c.out = c.b.compute(xt.shape(), dt, "T_softmax_norm",
                        [&](const Exprs& i) { return div(ex(i), es(drop_axis(i, axis))); });
    return true;
  };
}

bool layer_norm(Ctx& c) {
  auto x = c.input(0);
  auto gamma = c.input(1);
  auto beta = c.input(2);
  if (!x || !gamma || !beta) return false;
  Tensor xt = *x, gt = *gamma, bt = *beta;
  DataType dt = c.out_dtype();
  auto axes = reduce_axes(c, static_cast<int64_t>(xt.ndim()), "axes");
  double eps = c.float_attr("epsilon", 1e-5);
  bool center = c.bool_attr("center", true), scale = c.bool_attr("scale", true);
  Tensor s = reduce_stage(c.b, xt, axes, false, ReduceKind::kSum, dt, "T_layer_norm_sum",
                          [](const Expr& e) { return e; });
  Tensor s2 = reduce_stage(c.b, xt, axes, false, ReduceKind::kSum, dt, "T_layer_norm_sqsum",
                           [](const Expr& e) { return mul(e, e); });
  Expr inv_n = div(const_of(dt, 1), count_of(xt, axes, dt));
  c.name = "layer_norm";
  c.out = c.b.compute(
      xt.shape(), dt, "T_layer_norm",
      [&](const Exprs& i) {
        Expr mean = mul(load_reduced(s, i, axes, false), inv_n);
        Expr var = sub(mul(load_reduced(s2, i, axes, false), inv_n), mul(mean, mean));
        Expr y = mul(sub(xt(i), mean), call1("tir.rsqrt", add(var, const_of(dt, eps))));
        Exprs gi;
        for (int64_t a : axes) gi.push_back(i[a]);
        if (scale) y = mul(y, gt(gi));
        if (center) y = add(y, bt(gi));
        return y;
      },
      "ax");
  return true;
}

bool rms_norm(Ctx& c) {
  auto x = c.input(0);
  auto w = c.input(1);
  if (!x || !w) return false;
  Tensor xt = *x, wt = *w;
  DataType dt = c.out_dtype();
  auto axes = reduce_axes(c, static_cast<int64_t>(xt.ndim()), "axes");
  double eps = c.float_attr("epsilon", 1e-5);
  Tensor s2 = reduce_stage(c.b, xt, axes, false, ReduceKind::kSum, dt, "T_multiply_red",
                           [](const Expr& e) { return mul(e, e); });
  Expr n = count_of(xt, axes, dt);
  c.name = "rms_norm";
  c.out = c.b.compute(
      xt.shape(), dt, "T_rms_norm",
      [&](const Exprs& i) {
        Exprs wi;
        for (int64_t a : axes) wi.push_back(i[a]);
        Expr r =
            call1("tir.rsqrt", add(div(load_reduced(s2, i, axes, false), n), const_of(dt, eps)));
        return mul(mul(xt(i), r), wt(wi));
      },
      "ax");
  return true;
}

// group_norm / instance_norm: statistics per (batch..., group) over the group's channels and
// `axes`; gamma and beta are indexed by channel. instance_norm is the case of one channel per
// group.
bool group_norm(Ctx& c, bool instance) {
  auto x = c.input(0);
  auto gamma = c.input(1);
  auto beta = c.input(2);
  if (!x || !gamma || !beta) return false;
  Tensor xt = *x, gt = *gamma, bt = *beta;
  DataType dt = c.out_dtype();
  int64_t nd = static_cast<int64_t>(xt.ndim());
  size_t ch = static_cast<size_t>(norm_axis(c.int_attr("channel_axis", 1), nd));
  auto axes = reduce_axes(c, nd, "axes");
  axes.erase(std::remove(axes.begin(), axes.end(), static_cast<int64_t>(ch)), axes.end());
  Expr cpg = i64(1);  // channels per group
  Expr groups = xt.shape()[ch];
  if (!instance) {
    int64_t g = c.int_attr("num_groups", 1);
    auto cn = ir::tir::as_const_int(xt.shape()[ch]);
    if (!cn || g <= 0 || *cn % g != 0)
      return c.unsupported("num_groups must divide a static channel count");
    cpg = i64(*cn / g);
    groups = i64(g);
  }
  bool one = ir::tir::is_const_int(cpg, 1);
  double eps = c.float_attr("epsilon", 1e-5);
  bool center = c.bool_attr("center", true), scale = c.bool_attr("scale", true);
  // Stats shape: the dims kept (channel replaced by the group).
  Exprs sshape, rext;
  if (!one) rext.push_back(cpg);
  for (int64_t d = 0; d < nd; ++d) {
    if (static_cast<size_t>(d) == ch)
      sshape.push_back(groups);
    else if (contains(axes, d))
      rext.push_back(xt.shape()[static_cast<size_t>(d)]);
    else
      sshape.push_back(xt.shape()[static_cast<size_t>(d)]);
  }
  auto x_index = [&](const Exprs& sp, const Exprs& rd) {
    Exprs idx;
    size_t s = 0, r = one ? 0 : 1;
    for (int64_t d = 0; d < nd; ++d) {
      if (static_cast<size_t>(d) == ch)
        idx.push_back(one ? sp[s++] : add(mul(sp[s++], cpg), rd[0]));
      else if (contains(axes, d))
        idx.push_back(rd[r++]);
      else
        idx.push_back(sp[s++]);
    }
    return idx;
  };
  std::string base = instance ? "T_instance_norm" : "T_group_norm";
  Tensor s1 =
      c.b.reduce(sshape, rext, ReduceKind::kSum, dt, base + "_sum",
                 [&](const Exprs& sp, const Exprs& rd) { return cast(dt, xt(x_index(sp, rd))); });
  Tensor s2 = c.b.reduce(sshape, rext, ReduceKind::kSum, dt, base + "_sqsum",
                         [&](const Exprs& sp, const Exprs& rd) {
                           Expr v = cast(dt, xt(x_index(sp, rd)));
                           return mul(v, v);
                         });
  Expr n = const_of(dt, 1);
  for (const auto& e : rext) n = mul(n, cast(dt, e));
  c.name = instance ? "instance_norm" : "group_norm";
  c.out = c.b.compute(
      xt.shape(), dt, base,
      [&](const Exprs& i) {
        Exprs si;
        for (int64_t d = 0; d < nd; ++d) {
          if (static_cast<size_t>(d) == ch)
            si.push_back(one ? i[ch] : floordiv(i[ch], cpg));
          else if (!contains(axes, d))
            si.push_back(i[static_cast<size_t>(d)]);
        }
        Expr mean = div(s1(si), n);
        Expr var = sub(div(s2(si), n), mul(mean, mean));
        Expr y = mul(sub(cast(dt, xt(i)), mean), call1("tir.rsqrt", add(var, const_of(dt, eps))));
        if (scale) y = mul(y, gt({i[ch]}));
        if (center) y = add(y, bt({i[ch]}));
        return y;
      },
      "ax");
  return true;
}

// batch_norm: (normalized data, new moving mean, new moving var). Training uses the batch
// statistics (biased variance) and updates the moving ones with `momentum`; inference uses
// the moving statistics and returns them unchanged.
bool batch_norm(Ctx& c) {
  auto fields = c.out_fields();
  auto x = c.input(0), gamma = c.input(1), beta = c.input(2), mmean = c.input(3), mvar = c.input(4);
  if (!fields || fields->size() != 3 || !x || !gamma || !beta || !mmean || !mvar) return false;
  Tensor xt = *x, gt = *gamma, bt = *beta, mt = *mmean, vt = *mvar;
  DataType dt = (*fields)[0].second;
  int64_t nd = static_cast<int64_t>(xt.ndim());
  size_t ch = static_cast<size_t>(norm_axis(c.int_attr("axis", 1), nd));
  double eps = c.float_attr("epsilon", 1e-5), momentum = c.float_attr("momentum", 0.1);
  bool center = c.bool_attr("center", true), scale = c.bool_attr("scale", true);
  bool training = c.bool_attr("training", true);
  c.name = "batch_norm";
  std::function<Expr(const Expr&)> mean_of, var_of;
  if (training) {
    std::vector<int64_t> axes;
    for (int64_t d = 0; d < nd; ++d)
      if (static_cast<size_t>(d) != ch) axes.push_back(d);
    Tensor s1 = reduce_stage(c.b, xt, axes, false, ReduceKind::kSum, dt, "T_batch_norm_sum",
                             [](const Expr& e) { return e; });
    Tensor s2 = reduce_stage(c.b, xt, axes, false, ReduceKind::kSum, dt, "T_batch_norm_sqsum",
                             [](const Expr& e) { return mul(e, e); });
    Expr n = count_of(xt, axes, dt);
    mean_of = [s1, n](const Expr& k) { return div(s1({k}), n); };
    var_of = [s1, s2, n](const Expr& k) {
      Expr m = div(s1({k}), n);
      return sub(div(s2({k}), n), mul(m, m));
    };
  } else {
    mean_of = [mt](const Expr& k) { return mt({k}); };
    var_of = [vt](const Expr& k) { return vt({k}); };
  }
  c.outs.push_back(c.b.compute(
      xt.shape(), dt, "T_batch_norm",
      [&](const Exprs& i) {
        Expr y = mul(sub(xt(i), mean_of(i[ch])),
                     call1("tir.rsqrt", add(var_of(i[ch]), const_of(dt, eps))));
        if (scale) y = mul(y, gt({i[ch]}));
        if (center) y = add(y, bt({i[ch]}));
        return y;
      },
      "ax"));
  auto update = [&](const Tensor& moving, const std::function<Expr(const Expr&)>& batch,
                    const std::string& name) {
    return c.b.compute(
        moving.shape(), moving.dtype(), name,
        [&](const Exprs& i) {
          if (!training) return moving(i);
          return add(mul(const_of(dt, 1 - momentum), moving(i)),
                     mul(const_of(dt, momentum), batch(i[0])));
        },
        "ax");
  };
  c.outs.push_back(update(mt, mean_of, "T_batch_norm_mean"));
  c.outs.push_back(update(vt, var_of, "T_batch_norm_var"));
  return true;
}

}  // namespace

void register_reduce(Table& t) {
  t["relax.nn.group_norm"] = [](Ctx& c) { return group_norm(c, false); };
  t["relax.nn.instance_norm"] = [](Ctx& c) { return group_norm(c, true); };
  t["relax.nn.batch_norm"] = batch_norm;
  t["relax.sum"] = simple_reduce("sum", ReduceKind::kSum);
  t["relax.max"] = simple_reduce("max", ReduceKind::kMax);
  t["relax.min"] = simple_reduce("min", ReduceKind::kMin);
  t["relax.prod"] = simple_reduce("prod", ReduceKind::kProd);
  t["relax.mean"] = [](Ctx& c) {
    auto x = c.input(0);
    if (!x) return false;
    auto axes = reduce_axes(c, static_cast<int64_t>(x->ndim()));
    c.name = "mean";
    c.out = mean_stages(c.b, *x, axes, c.bool_attr("keepdims", false), c.out_dtype());
    return true;
  };
  t["relax.variance"] = variance_op(false);
  t["relax.std"] = variance_op(true);
  t["relax.matmul"] = matmul;
  t["relax.nn.softmax"] = softmax_op(false);
  t["relax.nn.log_softmax"] = softmax_op(true);
  t["relax.nn.layer_norm"] = layer_norm;
  t["relax.nn.rms_norm"] = rms_norm;
}

}  // namespace relax::compiler::legalize

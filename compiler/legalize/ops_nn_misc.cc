// Legalizations of attention (BSNH query/key/value, optional bias, scale and causal mask, as
// TVM's _te_attention: scores, scale, bias, [masked] softmax, weighted sum of the values),
// image.resize2d (NCHW; nearest_neighbor, linear and cubic with topi's coordinate
// transformations, tf_crop_and_resize included, and rounding), the losses nll_loss and
// cross_entropy_with_logits (topi's nll_loss and TVM's -sum(x * y) / N) and the gradients
// nll_loss_backward and take_backward (a scatter-add written as a masked reduction over the
// indices). Unsupported attribute values are reported (E0742).
#include <cmath>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using namespace te;  // NOLINT

namespace {

Expr neg(const Expr& v, DataType dt) {
  return sub(const_of(dt, 0), v);
}

bool attention(Ctx& c) {
  if (c.call.attrs.find("window_size")) return c.unsupported("window_size");
  std::optional<double> scale;
  if (c.call.attrs.find("scale")) {
    double v = c.float_attr("scale", std::nan(""));
    if (std::isnan(v)) return c.unsupported("a non-constant scale");
    scale = v;
  }
  std::string mask = c.str_attr("causal_mask", "");
  if (!mask.empty() && mask != "TopLeft" && mask != "BottomRight")
    return c.unsupported("causal_mask \"" + mask + "\"");
  auto q = c.input(0);
  auto k = c.input(1);
  auto v = c.input(2);
  std::optional<Tensor> bias;
  if (c.call.args.size() >= 4) {
    bias = c.input(3);
    if (!bias) return false;
  }
  auto shape = c.out_shape();
  if (!q || !k || !v || !shape) return false;
  Tensor qt = *q, kt = *k, vt = *v;
  DataType dt = c.out_dtype();
  const Exprs &qs = qt.shape(), &ks = kt.shape(), &vs = vt.shape();
  for (const Exprs* s : {&ks, &vs}) {
    // As TVM's _te_attention, which reshapes K and V with the query's head count.
    auto a = ir::tir::as_const_int(qs[2]), b = ir::tir::as_const_int((*s)[2]);
    bool same = a && b ? *a == *b : qs[2].get() == (*s)[2].get();
    if (!same) return c.unsupported("key/value head counts other than the query's");
  }
  Exprs sshape{qs[0], qs[2], qs[1], ks[1]};  // (B, N, Sq, Sk)
  c.name = bias ? "attention_bias" : "attention";
  Tensor score = c.b.reduce(
      sshape, {qs[3]}, ReduceKind::kSum, dt, "T_batch_matmul_NT",
      [&](const Exprs& i, const Exprs& r) {
        return mul(cast(dt, qt({i[0], i[2], i[1], r[0]})), cast(dt, kt({i[0], i[3], i[1], r[0]})));
      });
  Expr offset = i64(0);
  if (mask == "BottomRight") offset = max(sub(qs[1], ks[1]), sub(ks[1], qs[1]));
  auto keep = [&](const Exprs& i) { return cmp(ObjectKind::kLE, i[3], add(i[2], offset)); };
  Tensor p = c.b.compute(
      sshape, dt, "T_scaled",
      [&](const Exprs& i) {
        Expr s = score(i);
        s = scale ? mul(s, const_of(dt, *scale)) : div(s, call1("tir.sqrt", cast(dt, qs[3])));
        if (bias) s = add(s, cast(dt, broadcast_load(*bias, i, sshape)));
        if (!mask.empty()) s = select(keep(i), s, const_of(dt, 0));
        return s;
      },
      "ax");
  auto drop_last = [](const Exprs& i) { return Exprs{i[0], i[1], i[2]}; };
  Exprs rows{qs[0], qs[2], qs[1]};
  Tensor mx = c.b.reduce(rows, {ks[1]}, ReduceKind::kMax, dt, "T_softmax_maxelem",
                         [&](const Exprs& i, const Exprs& r) {
                           return p({i[0], i[1], i[2], r[0]});
                         });
  Tensor e = c.b.compute(
      sshape, dt, "T_softmax_exp",
      [&](const Exprs& i) {
        Expr ex = call1("tir.exp", sub(p(i), mx(drop_last(i))));
        return mask.empty() ? ex : select(keep(i), ex, const_of(dt, 0));
      },
      "ax");
  Tensor sum = c.b.reduce(rows, {ks[1]}, ReduceKind::kSum, dt, "T_softmax_expsum",
                          [&](const Exprs& i, const Exprs& r) {
                            return e({i[0], i[1], i[2], r[0]});
                          });
  Tensor a = c.b.compute(
      sshape, dt, "T_softmax_norm", [&](const Exprs& i) { return div(e(i), sum(drop_last(i))); },
      "ax");
  c.out = c.b.reduce(
      *shape, {ks[1]}, ReduceKind::kSum, dt, "T_attention", [&](const Exprs& i, const Exprs& r) {
        return mul(a({i[0], i[2], i[1], r[0]}), cast(dt, vt({i[0], r[0], i[2], i[3]})));
      });
  return true;
}

bool resize2d(Ctx& c) {
  if (c.str_attr("layout", "NCHW") != "NCHW") return c.unsupported("only NCHW is supported");
  std::string method = c.str_attr("method", "linear");
  std::string mode = c.str_attr("coordinate_transformation_mode", "half_pixel");
  std::string rounding = c.str_attr("rounding_method", "round");
  if (method != "nearest_neighbor" && method != "linear" && method != "cubic")
    return c.unsupported("method \"" + method + "\"");
  double alpha = c.float_attr("cubic_alpha", -0.5);
  bool exclude = c.int_attr("cubic_exclude", 0) != 0;
  if (mode != "half_pixel" && mode != "align_corners" && mode != "asymmetric" &&
      mode != "pytorch_half_pixel" && mode != "tf_half_pixel_for_nn" &&
      mode != "tf_crop_and_resize")
    return c.unsupported("coordinate_transformation_mode \"" + mode + "\"");
  if (rounding.empty()) rounding = mode == "align_corners" ? "round" : "floor";
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  DataType dt = c.out_dtype();
  const DataType f = DataType::Float32();
  const Exprs& xs = xt.shape();
  // topi's get_inx, in float32.
  // roi (start_h, start_w, end_h, end_w) of tf_crop_and_resize.
  std::vector<double> roi(4, 0.0);
  if (auto arr = c.call.attrs.find("roi").as_ptr<ir::ArrayValue>(); arr && arr->items.size() == 4) {
    for (size_t k = 0; k < 4; ++k) {
      if (auto v = arr->items[k].as_ptr<ir::tir::FloatImm>())
        roi[k] = v->value;
      else if (auto fv = arr->items[k].as_ptr<ir::FloatValue>())
        roi[k] = fv->value;
    }
  }
  double extrapolation = c.float_attr("extrapolation_value", 0.0);
  auto in_coord = [&](const Expr& o, const Expr& in, const Expr& out, size_t axis) {
    Expr scale = div(cast(f, in), cast(f, out));
    Expr ox = cast(f, o);
    Expr half = const_of(f, 0.5);
    if (mode == "half_pixel") return sub(mul(add(ox, half), scale), half);
    if (mode == "tf_crop_and_resize") {
      Expr start = const_of(f, roi[axis]), end = const_of(f, roi[axis + 2]);
      Expr in1 = cast(f, sub(in, i64(1)));
      Expr inside =
          add(mul(start, in1), div(mul(mul(ox, sub(end, start)), in1), cast(f, sub(out, i64(1)))));
      Expr single = mul(mul(const_of(f, 0.5), add(start, end)), in1);
      if (auto n = ir::tir::as_const_int(out)) return *n > 1 ? inside : single;
      return select(cmp(ObjectKind::kGT, out, i64(1)), inside, single);
    }
    if (mode == "pytorch_half_pixel")
      return select(cmp(ObjectKind::kGT, out, i64(1)), sub(mul(add(ox, half), scale), half),
                    const_of(f, 0));
    if (mode == "tf_half_pixel_for_nn") return mul(add(ox, half), scale);
    if (mode == "align_corners") {
      if (ir::tir::is_const_int(out, 1)) return const_of(f, 0);
      return mul(div(cast(f, sub(in, i64(1))), cast(f, sub(out, i64(1)))), ox);
    }
    return mul(scale, ox);  // asymmetric
  };
  auto clamp = [](const Expr& i, const Expr& extent) {
    return max(min(i, sub(extent, i64(1))), i64(0));
  };
  auto to_index = [](const Expr& v) { return cast(DataType::Int64(), v); };
  c.name = "resize2d";
  c.out = c.b.compute(
      *shape, dt, "resize",
      [&](const Exprs& i) {
        Expr iy = in_coord(i[2], xs[2], (*shape)[2], 0);
        Expr ix = in_coord(i[3], xs[3], (*shape)[3], 1);
        // tf_crop_and_resize: extrapolation_value outside the image.
        auto finish = [&](const Expr& v) {
          if (mode != "tf_crop_and_resize") return cast(dt, v);
          auto beyond = [&](const Expr& coord, const Expr& extent) {
            return logical_or(cmp(ObjectKind::kLT, coord, const_of(f, 0)),
                              cmp(ObjectKind::kGT, coord, cast(f, sub(extent, i64(1)))));
          };
          return cast(dt, select(logical_or(beyond(ix, xs[3]), beyond(iy, xs[2])),
                                 const_of(f, extrapolation), v));
        };
        if (method == "nearest_neighbor") {
          auto closest = [&](const Expr& v) {
            if (rounding == "round") return to_index(call1("tir.round", v));
            if (rounding == "round_prefer_floor")
              return to_index(call1("tir.ceil", sub(v, const_of(f, 0.5))));
            if (rounding == "round_prefer_ceil")
              return to_index(call1("tir.floor", add(v, const_of(f, 0.5))));
            if (rounding == "ceil") return to_index(call1("tir.ceil", sub(v, const_of(f, 1e-5))));
            return to_index(call1("tir.floor", add(v, const_of(f, 1e-5))));  // floor
          };
          // topi: asymmetric nearest with a static integer upscale factor divides the output
          // index by it (whatever the rounding method).
          auto index = [&](const Expr& o, const Expr& v, const Expr& in, const Expr& out) {
            auto a = ir::tir::as_const_int(in), b = ir::tir::as_const_int(out);
            if (mode == "asymmetric" && a && b && *a > 0 && *b % *a == 0 &&
                static_cast<double>(*b / *a) <= 1.0 / (1e-5 * static_cast<double>(*a) + 1e-5))
              return floordiv(o, i64(*b / *a));
            return closest(v);
          };
          Expr y = index(i[2], iy, xs[2], (*shape)[2]);
          Expr x = index(i[3], ix, xs[3], (*shape)[3]);
          return finish(cast(f, xt({i[0], i[1], clamp(y, xs[2]), clamp(x, xs[3])})));
        }
        if (method == "cubic") {
          // topi: 4x4 neighbours weighted by the cubic spline of the fractional parts; with
          // cubic_exclude, weights of neighbours outside the image are dropped and the rest
          // renormalized.
          auto weights = [&](const Expr& v, const Expr& base, const Expr& extent) {
            Expr t = sub(v, call1("tir.floor", v));
            Expr t2 = mul(t, t), t3 = mul(mul(t, t), t);
            auto k = [&](double v) { return const_of(f, v); };
            std::vector<Expr> w = {
                mul(k(alpha), add(sub(t3, mul(k(2), t2)), t)),
                add(sub(mul(k(alpha + 2), t3), mul(k(3 + alpha), t2)), k(1)),
                sub(add(neg(mul(k(alpha + 2), t3), f), mul(k(3 + 2 * alpha), t2)),
                    mul(k(alpha), t)),
                add(mul(k(-alpha), t3), mul(k(alpha), t2))};
            if (exclude) {
              for (int64_t j = 0; j < 4; ++j) {
                Expr outside = logical_or(cmp(ObjectKind::kLT, add_const(base, j - 1), i64(0)),
                                          cmp(ObjectKind::kGT, add_const(base, j), extent));
                w[static_cast<size_t>(j)] = select(outside, k(0), w[static_cast<size_t>(j)]);
              }
              Expr sum = add(add(add(w[0], w[1]), w[2]), w[3]);
              for (auto& e : w) e = div(e, sum);
            }
            return w;
          };
          Expr y0 = to_index(call1("tir.floor", iy));
          Expr x0 = to_index(call1("tir.floor", ix));
          auto wy = weights(iy, y0, xs[2]);
          auto wx = weights(ix, x0, xs[3]);
          Expr value;
          for (int64_t dy = 0; dy < 4; ++dy) {
            Expr row;
            for (int64_t dx = 0; dx < 4; ++dx) {
              Expr p = cast(f, xt({i[0], i[1], clamp(add_const(y0, dy - 1), xs[2]),
                                   clamp(add_const(x0, dx - 1), xs[3])}));
              Expr term = mul(p, wx[static_cast<size_t>(dx)]);
              row = row ? add(row, term) : term;
            }
            Expr term = mul(row, wy[static_cast<size_t>(dy)]);
            value = value ? add(value, term) : term;
          }
          return finish(value);
        }
        Expr y0 = to_index(call1("tir.floor", iy));
        Expr x0 = to_index(call1("tir.floor", ix));
        Expr yl = sub(iy, cast(f, y0));
        Expr xl = sub(ix, cast(f, x0));
        auto px = [&](int64_t dy, int64_t dx) {
          return cast(f, xt({i[0], i[1], clamp(add_const(y0, dy), xs[2]),
                             clamp(add_const(x0, dx), xs[3])}));
        };
        auto lerp = [&](const Expr& a, const Expr& b, const Expr& t) {
          return add(mul(a, sub(const_of(f, 1), t)), mul(b, t));
        };
        Expr top = lerp(px(0, 0), px(0, 1), xl);
        Expr bottom = lerp(px(1, 0), px(1, 1), xl);
        return finish(lerp(top, bottom, yl));
      },
      "i");
  return true;
}

// The class a target index selects, and whether it counts (not ignore_index).
struct Targets {
  Tensor t;
  int64_t ignore;
  Expr cls(const Exprs& i) const { return cast(DataType::Int64(), t(i)); }
  Expr valid(const Exprs& i) const { return cmp(ObjectKind::kNE, cls(i), i64(ignore)); }
};

// The prediction index of class `cls` at target index `i`: (n, cls, d1, ...) or (cls).
Exprs pred_index(const Exprs& i, const Expr& cls) {
  Exprs p;
  if (i.empty()) return {cls};
  p.push_back(i[0]);
  p.push_back(cls);
  p.insert(p.end(), i.begin() + 1, i.end());
  return p;
}

bool nll_loss(Ctx& c) {
  std::string reduction = c.str_attr("reduction", "mean");
  if (reduction != "mean" && reduction != "sum" && reduction != "none")
    return c.unsupported("reduction \"" + reduction + "\"");
  auto pred = c.input(0);
  auto tgt = c.input(1);
  std::optional<Tensor> w;
  if (c.call.args.size() >= 3) {
    w = c.input(2);
    if (!w) return false;
  }
  auto shape = c.out_shape();
  if (!pred || !tgt || !shape) return false;
  DataType dt = c.out_dtype();
  Targets t{*tgt, c.int_attr("ignore_index", -100)};
  auto weight = [&](const Exprs& i) { return w ? cast(dt, (*w)({t.cls(i)})) : const_of(dt, 1); };
  auto term = [&](const Exprs& i) {
    return if_then_else(t.valid(i),
                        mul(neg(cast(dt, (*pred)(pred_index(i, t.cls(i)))), dt), weight(i)),
                        const_of(dt, 0));
  };
  auto wterm = [&](const Exprs& i) { return if_then_else(t.valid(i), weight(i), const_of(dt, 0)); };
  const Exprs& ts = tgt->shape();
  c.name = "nll_loss";
  if (reduction == "none" || ts.empty()) {
    if (reduction == "mean" && ts.empty()) {
      c.out =
          c.b.compute({}, dt, "nll_loss", [&](const Exprs& i) { return div(term(i), wterm(i)); });
    } else {
      c.out = c.b.compute(ts, dt, "nll_loss", term);
    }
    return true;
  }
  Tensor num = c.b.reduce({}, ts, ReduceKind::kSum, dt, "nll_loss_sum",
                          [&](const Exprs&, const Exprs& r) { return term(r); });
  if (reduction == "sum") {
    c.out = num;
    return true;
  }
  Tensor den = c.b.reduce({}, ts, ReduceKind::kSum, dt, "nll_loss_weight_sum",
                          [&](const Exprs&, const Exprs& r) { return wterm(r); });
  c.out = c.b.compute({}, dt, "T_divide", [&](const Exprs&) { return div(num({}), den({})); });
  return true;
}

bool cross_entropy_with_logits(Ctx& c) {
  auto x = c.input(0);
  auto y = c.input(1);
  if (!x || !y) return false;
  DataType dt = c.out_dtype();
  const Exprs& xs = x->shape();
  c.name = "cross_entropy_with_logits";
  Tensor s =
      c.b.reduce({}, xs, ReduceKind::kSum, dt, "T_multiply_red", [&](const Exprs&, const Exprs& r) {
        return mul(cast(dt, (*x)(r)), cast(dt, broadcast_load(*y, r, xs)));
      });
  c.out = c.b.compute({}, dt, "T_divide", [&](const Exprs&) {
    Expr v = neg(s({}), dt);
    return xs.size() == 1 ? v : div(v, cast(dt, xs[0]));
  });
  return true;
}

// nll_loss_backward(output_grad, predictions, targets[, weights]): at the target class,
// -output_grad * weight (output_grad over the summed weights for "mean"); 0 elsewhere.
bool nll_loss_backward(Ctx& c) {
  std::string reduction = c.str_attr("reduction", "mean");
  if (reduction != "mean" && reduction != "sum" && reduction != "none")
    return c.unsupported("reduction \"" + reduction + "\"");
  auto og = c.input(0);
  auto pred = c.input(1);
  auto tgt = c.input(2);
  std::optional<Tensor> w;
  if (c.call.args.size() >= 4) {
    w = c.input(3);
    if (!w) return false;
  }
  auto shape = c.out_shape();
  if (!og || !pred || !tgt || !shape) return false;
  DataType dt = c.out_dtype();
  Targets t{*tgt, c.int_attr("ignore_index", -100)};
  auto wterm = [&](const Exprs& i) {
    return if_then_else(t.valid(i), w ? cast(dt, (*w)({t.cls(i)})) : const_of(dt, 1),
                        const_of(dt, 0));
  };
  const Exprs& ts = tgt->shape();
  if (og->ndim() > ts.size())
    return c.unsupported("an output_grad of higher rank than the targets");
  std::optional<Tensor> den;
  if (reduction == "mean" && !ts.empty())
    den = c.b.reduce({}, ts, ReduceKind::kSum, dt, "T_weight_sum",
                     [&](const Exprs&, const Exprs& r) { return wterm(r); });
  c.name = "nll_loss_backward";
  c.out = c.b.compute(
      *shape, dt, "pred_grad",
      [&](const Exprs& i) {
        // The target index of prediction index i: (n, d1, ...) or ().
        Exprs ti;
        if (i.size() > 1) {
          ti.push_back(i[0]);
          ti.insert(ti.end(), i.begin() + 2, i.end());
        }
        Expr cls = i.size() > 1 ? i[1] : i[0];
        // output_grad broadcasts to the targets' shape (a scalar for "sum" and "mean").
        Expr g = cast(dt, broadcast_load(*og, ti, ts));
        Expr wt = wterm(ti);
        if (reduction == "mean") g = div(g, den ? (*den)({}) : wt);
        return if_then_else(cmp(ObjectKind::kEQ, t.cls(ti), cls), neg(mul(g, wt), dt),
                            const_of(dt, 0));
      },
      "ax");
  return true;
}

// take_backward(output_grad, x, indices[, axis]): out[.., a, ..] = sum over index positions j
// with indices[j] == a of output_grad[.., j, ..] (x flattened when axis is None).
bool take_backward(Ctx& c) {
  auto og = c.input(0);
  auto x = c.input(1);
  auto idx = c.input(2);
  auto shape = c.out_shape();
  if (!og || !x || !idx || !shape) return false;
  DataType dt = c.out_dtype();
  bool has_axis = c.call.attrs.find("axis").defined();
  int64_t axis = norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(shape->size()));
  const Exprs& is = idx->shape();
  const Exprs& xs = *shape;
  auto pos = [&](const Exprs& i) {
    if (has_axis) return i[static_cast<size_t>(axis)];
    Expr flat = i64(0);
    for (size_t d = 0; d < i.size(); ++d) flat = add(mul(flat, xs[d]), i[d]);
    return flat;
  };
  auto term = [&](const Exprs& i, const Exprs& r) {
    Exprs gi;
    if (has_axis) {
      gi.assign(i.begin(), i.begin() + axis);
      gi.insert(gi.end(), r.begin(), r.end());
      gi.insert(gi.end(), i.begin() + axis + 1, i.end());
    } else {
      gi = r;
    }
    return if_then_else(cmp(ObjectKind::kEQ, cast(DataType::Int64(), (*idx)(r)), pos(i)),
                        cast(dt, (*og)(gi)), const_of(dt, 0));
  };
  c.name = "take_backward";
  if (is.empty()) {
    c.out = c.b.compute(
        xs, dt, "T_take_grad", [&](const Exprs& i) { return term(i, {}); }, "ax");
  } else {
    c.out = c.b.reduce(xs, is, ReduceKind::kSum, dt, "T_take_grad", term);
  }
  return true;
}

}  // namespace

void register_nn_misc(Table& t) {
  t["relax.nn.attention"] = attention;
  t["relax.nn.attention_bias"] = attention;
  t["relax.image.resize2d"] = resize2d;
  t["relax.nn.nll_loss"] = nll_loss;
  t["relax.nn.cross_entropy_with_logits"] = cross_entropy_with_logits;
  t["relax.grad.nll_loss_backward"] = nll_loss_backward;
  t["relax.grad.take_backward"] = take_backward;
}

}  // namespace relax::compiler::legalize

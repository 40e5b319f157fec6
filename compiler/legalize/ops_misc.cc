// Legalizations of the remaining creation, search, scan and indexing ops: ewise_fma, outer, tril,
// triu, arange, eye, prelu, nn.pad (constant), stack, one_hot, argmax, argmin, cumsum, cumprod,
// collapse_sum_like / collapse_sum_to. Scans are written as masked reductions (quadratic, exact).
#include <algorithm>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using ir::Ref;
using namespace te;  // NOLINT

namespace {

// The PrimExpr of a PrimValue argument (null when absent or not a PrimValue).
Expr prim_arg(Ctx& c, size_t i) {
  if (i >= c.call.args.size()) return nullptr;
  auto pv = c.call.args[i].as_ptr<ir::PrimValue>();
  return pv ? c.remap(pv->value) : nullptr;
}

bool ewise_fma(Ctx& c) {
  auto a = c.input(0), b = c.input(1), d = c.input(2);
  auto shape = c.out_shape();
  if (!a || !b || !d || !shape) return false;
  Tensor at = *a, bt = *b, dt = *d;
  c.name = "ewise_fma";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_ewise_fma",
      [&](const Exprs& i) { return add(mul(at(i), bt(i)), dt(i)); }, "ax");
  return true;
}

bool outer(Ctx& c) {
  auto a = c.input(0), b = c.input(1);
  auto shape = c.out_shape();
  if (!a || !b || !shape) return false;
  Tensor at = *a, bt = *b;
  c.name = "outer";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_outer", [&](const Exprs& i) { return mul(at({i[0]}), bt({i[1]})); },
      "ax");
  return true;
}

LegalizeFn trilu(bool upper) {
  return [upper](Ctx& c) {
    Expr k = prim_arg(c, 1);
    auto x = c.input(0);
    if (!x) return false;
    Tensor xt = *x;
    if (!k) k = i64(0);
    k = cast(DataType::Int64(), k);
    size_t nd = xt.ndim();
    c.name = upper ? "triu" : "tril";
    c.out = c.b.compute(xt.shape(), c.out_dtype(), "trilu", [&](const Exprs& i) {
      Expr row = i[nd - 2], col = i[nd - 1];
      // tril keeps col <= row + k, triu keeps col >= row + k.
      Expr keep =
          upper ? cmp(ObjectKind::kLE, add(row, k), col) : cmp(ObjectKind::kLE, col, add(row, k));
      return select(keep, xt(i), const_of(xt.dtype(), 0));
    });
    return true;
  };
}

bool arange(Ctx& c) {
  auto shape = c.out_shape();
  if (!shape) return false;
  Expr start = prim_arg(c, 0), end = prim_arg(c, 1), step = prim_arg(c, 2);
  if (!start) return c.unsupported("start must be a prim value");
  if (!end) start = nullptr;  // one argument: it is the end
  DataType t = c.out_dtype();
  c.name = "arange";
  c.out = c.b.compute(
      *shape, t, "T_arange",
      [&](const Exprs& i) {
        Expr s = start ? cast(t, start) : const_of(t, 0);
        Expr st = step ? cast(t, step) : const_of(t, 1);
        return add(s, mul(cast(t, i[0]), st));
      },
      "ax");
  return true;
}

bool eye(Ctx& c) {
  auto shape = c.out_shape();
  if (!shape) return false;
  Expr k;
  if (c.call.op_name() == "relax.eye_like") {
    k = prim_arg(c, 1);
  } else {
    k = prim_arg(c, 2);
  }
  if (!k) k = i64(0);
  k = cast(DataType::Int64(), k);
  DataType t = c.out_dtype();
  c.name = "eye";
  c.out = c.b.compute(
      *shape, t, "T_eye",
      [&](const Exprs& i) {
        return select(cmp(ObjectKind::kEQ, add(i[0], k), i[1]), const_of(t, 1), const_of(t, 0));
      },
      "ax");
  return true;
}

bool prelu(Ctx& c) {
  auto x = c.input(0), a = c.input(1);
  if (!x || !a) return false;
  Tensor xt = *x, at = *a;
  size_t axis =
      static_cast<size_t>(norm_axis(c.int_attr("axis", 1), static_cast<int64_t>(xt.ndim())));
  c.name = "prelu";
  c.out = c.b.compute(xt.shape(), c.out_dtype(), "compute", [&](const Exprs& i) {
    Expr v = xt(i);
    return select(cmp(ObjectKind::kLT, const_of(v->dtype, 0), v), v, mul(v, at({i[axis]})));
  });
  return true;
}

bool pad(Ctx& c) {
  if (c.str_attr("pad_mode", "constant") != "constant")
    return c.unsupported("only constant padding is supported");
  auto widths = c.ints("pad_width");
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape || !widths) return false;
  Tensor xt = *x;
  if (widths->size() != 2 * xt.ndim())
    return c.unsupported("pad_width must hold (before, after) for every axis");
  double value = c.float_attr("pad_value", 0.0);
  c.name = "pad";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "PadInput",
      [&](const Exprs& i) {
        Expr cond;
        Exprs idx;
        for (size_t d = 0; d < xt.ndim(); ++d) {
          int64_t before = (*widths)[2 * d];
          idx.push_back(before == 0 ? i[d] : sub(i[d], i64(before)));
          Expr in = logical_and(cmp(ObjectKind::kLE, i64(before), i[d]),
                                cmp(ObjectKind::kLT, i[d], add(xt.shape()[d], i64(before))));
          cond = cond ? logical_and(cond, in) : in;
        }
        if (!cond) return xt(idx);
        return if_then_else(cond, xt(idx), const_of(xt.dtype(), value));
      },
      "i");
  return true;
}

bool stack(Ctx& c) {
  auto shape = c.out_shape();
  if (!shape) return false;
  auto inputs = c.tuple_inputs(0);
  if (!inputs || inputs->empty()) return false;
  std::vector<Tensor> parts = std::move(*inputs);
  size_t axis =
      static_cast<size_t>(norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(shape->size())));
  c.name = "stack";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_stack",
      [&](const Exprs& i) {
        Exprs idx = i;
        idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(axis));
        Expr v = parts.back()(idx);
        for (size_t k = parts.size() - 1; k-- > 0;)
          v = if_then_else(cmp(ObjectKind::kEQ, i[axis], i64(static_cast<int64_t>(k))),
                           parts[k](idx), v);
        return v;
      },
      "ax");
  return true;
}

bool one_hot(Ctx& c) {
  auto ind = c.input(0);
  Expr on = prim_arg(c, 1), off = prim_arg(c, 2);
  auto shape = c.out_shape();
  if (!ind || !shape) return false;
  if (!on || !off) return c.unsupported("on_value and off_value must be prim values");
  Tensor it = *ind;
  size_t axis =
      static_cast<size_t>(norm_axis(c.int_attr("axis", -1), static_cast<int64_t>(shape->size())));
  DataType t = c.out_dtype();
  c.name = "one_hot";
  c.out = c.b.compute(
      *shape, t, "T_one_hot",
      [&](const Exprs& i) {
        Exprs idx = i;
        idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(axis));
        return select(cmp(ObjectKind::kEQ, cast(DataType::Int64(), it(idx)), i[axis]), cast(t, on),
                      cast(t, off));
      },
      "ax");
  return true;
}

// argmax / argmin: the extreme value, then the first index holding it.
LegalizeFn arg_extreme(bool is_max) {
  return [is_max](Ctx& c) {
    auto x = c.input(0);
    auto shape = c.out_shape();
    if (!x || !shape) return false;
    Tensor xt = *x;
    int64_t nd = static_cast<int64_t>(xt.ndim());
    bool keep = c.bool_attr("keepdims", false);
    auto axis_attr = c.call.attrs.find("axis");
    std::vector<int64_t> axes;
    if (axis_attr) {
      axes.push_back(norm_axis(c.int_attr("axis", 0), nd));
    } else {
      for (int64_t d = 0; d < nd; ++d) axes.push_back(d);
    }
    auto is_red = [&](int64_t d) { return std::find(axes.begin(), axes.end(), d) != axes.end(); };
    Exprs rext, vshape;
    for (int64_t d = 0; d < nd; ++d) {
      if (is_red(d)) {
        rext.push_back(xt.shape()[static_cast<size_t>(d)]);
        if (keep) vshape.push_back(i64(1));
      } else {
        vshape.push_back(xt.shape()[static_cast<size_t>(d)]);
      }
    }
    auto full_index = [&](const Exprs& sp, const Exprs& rd) {
      Exprs idx;
      size_t s = 0, r = 0;
      for (int64_t d = 0; d < nd; ++d) {
        if (is_red(d)) {
          idx.push_back(rd[r++]);
          if (keep) ++s;
        } else {
          idx.push_back(sp[s++]);
        }
      }
      return idx;
    };
    // The flat position of the reduce indices, to find the first occurrence.
    auto flat = [&](const Exprs& rd) {
      Expr f;
      for (size_t r = 0; r < rd.size(); ++r) f = f ? add(mul(f, rext[r]), rd[r]) : rd[r];
      return f;
    };
    ReduceKind kind = is_max ? ReduceKind::kMax : ReduceKind::kMin;
    Tensor val =
        c.b.reduce(vshape, rext, kind, xt.dtype(), xt.name() + "_red",
                   [&](const Exprs& sp, const Exprs& rd) { return xt(full_index(sp, rd)); });
    DataType it = c.out_dtype();
    c.name = is_max ? "argmax" : "argmin";
    Tensor pos =
        c.b.reduce(vshape, rext, ReduceKind::kMin, DataType::Int64(), xt.name() + "_red_index",
                   [&](const Exprs& sp, const Exprs& rd) {
                     return select(cmp(ObjectKind::kEQ, xt(full_index(sp, rd)), val(sp)), flat(rd),
                                   reduce_identity(ReduceKind::kMin, DataType::Int64()));
                   });
    // Unravel the flat position along the reduced axis when there is one; else it is the index.
    c.out = c.b.compute(
        vshape, it, "T_" + c.name, [&](const Exprs& i) { return cast(it, pos(i)); }, "ax");
    return true;
  };
}

// cumsum / cumprod along `axis` (None: the flattened tensor).
LegalizeFn scan(bool is_sum) {
  return [is_sum](Ctx& c) {
    auto x = c.input(0);
    auto shape = c.out_shape();
    if (!x || !shape) return false;
    Tensor xt = *x;
    bool exclusive = c.bool_attr("exclusive", false);
    DataType t = c.out_dtype();
    ReduceKind kind = is_sum ? ReduceKind::kSum : ReduceKind::kProd;
    c.name = is_sum ? "cumsum" : "cumprod";
    auto cmp_kind = exclusive ? ObjectKind::kLT : ObjectKind::kLE;
    if (!c.call.attrs.find("axis")) {
      Exprs xs = xt.shape();
      Expr n = (*shape)[0];
      c.out = c.b.reduce(*shape, {n}, kind, t, "T_" + c.name, [&](const Exprs& i, const Exprs& k) {
        Exprs idx;
        Expr rest = k[0];
        Exprs rev(xs.size());
        for (size_t d = xs.size(); d-- > 0;) {
          rev[d] = d == 0 ? rest : floormod(rest, xs[d]);
          if (d > 0) rest = floordiv(rest, xs[d]);
        }
        Expr v = cast(t, xt(rev));
        return select(cmp(cmp_kind, k[0], i[0]), v, reduce_identity(kind, t));
      });
      return true;
    }
    size_t axis =
        static_cast<size_t>(norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(xt.ndim())));
    c.out = c.b.reduce(
        *shape, {xt.shape()[axis]}, kind, t, "T_" + c.name, [&](const Exprs& i, const Exprs& k) {
          Exprs idx = i;
          idx[axis] = k[0];
          return select(cmp(cmp_kind, k[0], i[axis]), cast(t, xt(idx)), reduce_identity(kind, t));
        });
    return true;
  };
}

// collapse_sum_like / collapse_sum_to: sums the axes broadcasting added (or widened from 1).
bool collapse_sum(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  size_t nd = xt.ndim(), off = nd - shape->size();
  Exprs rext;
  std::vector<size_t> raxes;
  for (size_t d = 0; d < nd; ++d) {
    bool lead = d < off;
    if (lead ||
        (ir::tir::is_const_int((*shape)[d - off], 1) && !ir::tir::is_const_int(xt.shape()[d], 1))) {
      rext.push_back(xt.shape()[d]);
      raxes.push_back(d);
    }
  }
  c.name = "collapse_sum";
  auto body = [&](const Exprs& i, const Exprs& k) {
    Exprs idx;
    size_t r = 0;
    for (size_t d = 0; d < nd; ++d) {
      if (r < raxes.size() && raxes[r] == d)
        idx.push_back(k[r++]);
      else
        idx.push_back(i[d - off]);
    }
    return xt(idx);
  };
  if (rext.empty()) {
    c.out = c.b.compute(
        *shape, c.out_dtype(), "T_collapse_sum", [&](const Exprs& i) { return body(i, {}); }, "ax");
  } else {
    c.out = c.b.reduce(*shape, rext, ReduceKind::kSum, c.out_dtype(), xt.name() + "_red", body);
  }
  return true;
}

// split into sections or at indices along an axis: one output stage per piece.
bool split(Ctx& c) {
  auto fields = c.out_fields();
  auto x = c.input(0);
  if (!x || !fields) return false;
  Tensor xt = *x;
  size_t axis =
      static_cast<size_t>(norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(xt.ndim())));
  // The start of each piece along the axis: the running sum of the pieces' extents.
  Expr start = i64(0);
  c.name = "split";
  for (size_t k = 0; k < fields->size(); ++k) {
    const auto& [shape, dtype] = (*fields)[k];
    std::string name = k == 0 ? "T_split" : "T_split_" + std::to_string(k);
    Expr s0 = start;
    c.outs.push_back(c.b.compute(
        shape, dtype, name,
        [&](const Exprs& i) {
          Exprs idx = i;
          if (!ir::tir::is_const_int(s0, 0)) idx[axis] = add(i[axis], s0);
          return xt(idx);
        },
        "ax"));
    if (auto a = ir::tir::as_const_int(start), b = ir::tir::as_const_int(shape[axis]); a && b)
      start = i64(*a + *b);
    else
      start = add(start, shape[axis]);
  }
  return true;
}

// dropout at inference: the input unchanged and an all-ones mask.
bool dropout(Ctx& c) {
  auto fields = c.out_fields();
  auto x = c.input(0);
  if (!x || !fields || fields->size() != 2) return false;
  Tensor xt = *x;
  c.name = "dropout";
  c.outs.push_back(c.b.compute((*fields)[0].first, (*fields)[0].second, "T_dropout",
                               [&](const Exprs& i) { return xt(i); }, "ax"));
  c.outs.push_back(c.b.compute((*fields)[1].first, (*fields)[1].second, "T_dropout_mask",
                               [&](const Exprs&) { return const_of((*fields)[1].second, 1); },
                               "ax"));
  return true;
}

bool gather_elements(Ctx& c) {
  auto x = c.input(0), ind = c.input(1);
  auto shape = c.out_shape();
  if (!x || !ind || !shape) return false;
  Tensor xt = *x, it = *ind;
  size_t axis =
      static_cast<size_t>(norm_axis(c.int_attr("axis", 0), static_cast<int64_t>(xt.ndim())));
  it = checked_indices(
      c, it, [&](const Exprs&) { return xt.shape()[axis]; }, true, "index");
  c.name = "gather_elements";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_gather_elements",
      [&](const Exprs& i) {
        Exprs idx = i;
        Expr k = cast(DataType::Int64(), it(i));
        // Negative indices count from the end.
        idx[axis] = select(cmp(ObjectKind::kLT, k, i64(0)), add(k, xt.shape()[axis]), k);
        return xt(idx);
      },
      "ax");
  return true;
}

bool gather_nd(Ctx& c) {
  auto x = c.input(0), ind = c.input(1);
  auto shape = c.out_shape();
  if (!x || !ind || !shape) return false;
  Tensor xt = *x, it = *ind;
  int64_t batch = c.int_attr("batch_dims", 0);
  auto m = ir::tir::as_const_int(it.shape().back());
  if (!m) return c.unsupported("the last dim of indices must be static");
  size_t b = static_cast<size_t>(batch), mi = it.ndim() - 1;
  // Entry k of an index row addresses dim b + k of the data.
  it = checked_indices(
      c, it,
      [&](const Exprs& i) {
        Expr extent = i64(0);
        for (int64_t k = 0; k < *m && b + static_cast<size_t>(k) < xt.ndim(); ++k) {
          extent = select(cmp(ObjectKind::kEQ, i.back(), i64(k)),
                          xt.shape()[b + static_cast<size_t>(k)], extent);
        }
        return extent;
      },
      false, "index");
  c.name = "gather_nd";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "T_gather_nd",
      [&](const Exprs& i) {
        // Output dims: batch dims, the index dims of `indices` (after batch), then x's trailing
        // dims.
        Exprs head(i.begin(), i.begin() + static_cast<std::ptrdiff_t>(mi));
        Exprs idx(i.begin(), i.begin() + static_cast<std::ptrdiff_t>(b));
        for (int64_t k = 0; k < *m; ++k) {
          Exprs ii = head;
          ii.push_back(i64(k));
          idx.push_back(cast(DataType::Int64(), it(ii)));
        }
        for (size_t d = mi; d < i.size(); ++d) idx.push_back(i[d]);
        return xt(idx);
      },
      "ax");
  return true;
}

bool pixel_shuffle(Ctx& c) {
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  int64_t r = c.int_attr("upscale_factor", 1);
  size_t nd = xt.ndim();
  if (nd < 3) return c.unsupported("pixel_shuffle needs a rank of at least 3");
  c.name = "pixel_shuffle";
  c.out = c.b.compute(
      *shape, c.out_dtype(), "PixelShuffle",
      [&](const Exprs& i) {
        // out[..., c, h, w] = x[..., c * r * r + (h % r) * r + (w % r), h // r, w // r]
        Exprs idx(i.begin(), i.end() - 3);
        Expr ch = i[nd - 3], h = i[nd - 2], w = i[nd - 1];
        idx.push_back(
            add(add(mul(ch, i64(r * r)), mul(floormod(h, i64(r)), i64(r))), floormod(w, i64(r))));
        idx.push_back(floordiv(h, i64(r)));
        idx.push_back(floordiv(w, i64(r)));
        return xt(idx);
      },
      "i");
  return true;
}

}  // namespace

void register_misc(Table& t) {
  t["relax.split"] = split;
  t["relax.nn.dropout"] = dropout;
  t["relax.gather_elements"] = gather_elements;
  t["relax.gather_nd"] = gather_nd;
  t["relax.nn.pixel_shuffle"] = pixel_shuffle;
  t["relax.ewise_fma"] = ewise_fma;
  t["relax.outer"] = outer;
  t["relax.tril"] = trilu(false);
  t["relax.triu"] = trilu(true);
  t["relax.arange"] = arange;
  t["relax.eye"] = eye;
  t["relax.eye_like"] = eye;
  t["relax.nn.prelu"] = prelu;
  t["relax.nn.pad"] = pad;
  t["relax.stack"] = stack;
  t["relax.one_hot"] = one_hot;
  t["relax.argmax"] = arg_extreme(true);
  t["relax.argmin"] = arg_extreme(false);
  t["relax.cumsum"] = scan(true);
  t["relax.cumprod"] = scan(false);
  t["relax.collapse_sum_like"] = collapse_sum;
  t["relax.collapse_sum_to"] = collapse_sum;
}

}  // namespace relax::compiler::legalize

// Legalizations of the 3-D poolings (max_pool3d, avg_pool3d on NCDHW data: `pad_temp`, then
// `pool_max` or `pool_sum` + `pool_avg` with topi's element counts), adaptive_avg_pool1d/3d with
// static sizes, and the pool2d gradients max_pool2d_backward (the window's first maximum, found
// as a max and a min-index reduction, receives the output gradient) and avg_pool2d_backward (each
// window spreads its gradient over its element count), as topi's pool_grad. Other layouts and
// dilated gradients are reported as unsupported (E0742).
#include <algorithm>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using namespace te;  // NOLINT

// The padded extent a window needs: (out - 1) * stride + (k - 1) * dilation + 1.
Expr window_extent(const Expr& out, int64_t stride, int64_t k, int64_t dil) {
  if (auto o = ir::tir::as_const_int(out)) return i64((*o - 1) * stride + (k - 1) * dil + 1);
  return add(mul(sub(out, i64(1)), i64(stride)), i64((k - 1) * dil + 1));
}

namespace {

const char* kLayout[] = {"", "NCW", "NCHW", "NCDHW"};

Expr scaled(const Expr& e, int64_t s) {
  return s == 1 ? e : mul(e, i64(s));
}

LegalizeFn pool_nd(bool is_max, size_t dims) {
  return [is_max, dims](Ctx& c) {
    std::string layout = kLayout[dims];
    if (c.str_attr("layout", layout) != layout || c.str_attr("out_layout", layout) != layout)
      return c.unsupported("only the " + layout + " layout is supported");
    auto size = spatial_ints(c, "pool_size", dims, 1);
    auto strides = spatial_ints(c, "strides", dims, 1);
    auto dil = spatial_ints(c, "dilation", dims, 1);
    auto pad = spatial_padding(c, dims);
    if (!size || !strides || !dil || !pad)
      return c.unsupported("pool_size, strides, dilation or padding of an unexpected length");
    bool include_pad = c.bool_attr("count_include_pad", dims != 2);
    auto x = c.input(0);
    auto shape = c.out_shape();
    if (!x || !shape) return false;
    Tensor xt = *x;
    DataType dt = c.out_dtype();
    const Exprs& xs = xt.shape();
    Exprs extents, kext;
    for (size_t d = 0; d < dims; ++d) {
      extents.push_back(window_extent((*shape)[2 + d], (*strides)[d], (*size)[d], (*dil)[d]));
      kext.push_back(i64((*size)[d]));
    }
    Expr padv = is_max ? reduce_identity(ReduceKind::kMax, xt.dtype()) : const_of(xt.dtype(), 0);
    // The window may reach past the data at the end (ceil_mode): guard the upper bound always.
    Tensor padded = pad_spatial(c.b, xt, pad->first, pad->second, extents, padv, true);
    auto window = [&](const Exprs& i, const Exprs& r) {
      Exprs idx{i[0], i[1]};
      for (size_t d = 0; d < dims; ++d)
        idx.push_back(add(scaled(i[2 + d], (*strides)[d]), scaled(r[d], (*dil)[d])));
      return padded(idx);
    };
    std::string nd = std::to_string(dims) + "d";
    c.name = (is_max ? "max_pool" : "avg_pool") + nd;
    if (is_max) {
      c.out = c.b.reduce(*shape, kext, ReduceKind::kMax, dt, "pool_max", window);
      return true;
    }
    Tensor sum = c.b.reduce(*shape, kext, ReduceKind::kSum, dt, "pool_sum", window);
    c.out = c.b.compute(
        *shape, dt, "pool_avg",
        [&](const Exprs& i) {
          // topi: per axis, ((last - first) / dilation + 1) taps, where the window
          // [start, start + (k - 1) * dilation] is cut to the padded data (count_include_pad) or
          // to the data.
          Expr count;
          for (size_t d = 0; d < dims; ++d) {
            int64_t s = (*strides)[d], k = (*size)[d], dl = (*dil)[d];
            Expr start = sub(scaled(i[2 + d], s), i64(pad->first[d]));
            Expr end = add(start, i64((k - 1) * dl));
            Expr n;
            if (include_pad) {
              end = min(end, add_const(xs[2 + d], pad->second[d] - 1));
              n = add(floordiv(sub(end, start), i64(dl)), i64(1));
            } else {
              end = min(end, add_const(xs[2 + d], -1));
              Expr jumps = max(floordiv(sub(i64(dl - 1), start), i64(dl)), i64(0));
              Expr first = add(start, mul(jumps, i64(dl)));
              n = add(floordiv(sub(end, first), i64(dl)), i64(1));
            }
            count = count ? mul(count, n) : n;
          }
          if (!include_pad) count = max(count, i64(1));
          return div(sum(i), cast(dt, count));
        },
        "ax");
    return true;
  };
}

// adaptive_avg_pool of `dims` spatial axes: output cell i averages floor(i*in/out) ..
// ceil((i+1)*in/out) - 1 per axis; the reduction runs over the widest window, masking the rest.
LegalizeFn adaptive_avg_pool_nd(size_t dims) {
  return [dims](Ctx& c) {
    std::string layout = kLayout[dims];
    if (c.str_attr("layout", layout) != layout || c.str_attr("out_layout", layout) != layout)
      return c.unsupported("only the " + layout + " layout is supported");
    auto x = c.input(0);
    auto shape = c.out_shape();
    if (!x || !shape) return false;
    Tensor xt = *x;
    DataType dt = c.out_dtype();
    std::vector<int64_t> in, out, widest;
    for (size_t d = 0; d < dims; ++d) {
      auto a = ir::tir::as_const_int(xt.shape()[2 + d]);
      auto o = ir::tir::as_const_int((*shape)[2 + d]);
      if (!a || !o || *o <= 0) return c.unsupported("adaptive pooling needs static spatial sizes");
      in.push_back(*a);
      out.push_back(*o);
      int64_t m = 0;
      for (int64_t k = 0; k < *o; ++k)
        m = std::max(m, ((k + 1) * *a + *o - 1) / *o - (k * *a) / *o);
      widest.push_back(m);
    }
    auto start = [&](const Expr& i, size_t d) { return floordiv(mul(i, i64(in[d])), i64(out[d])); };
    auto end = [&](const Expr& i, size_t d) {
      return floordiv(add(mul(add(i, i64(1)), i64(in[d])), i64(out[d] - 1)), i64(out[d]));
    };
    Exprs kext;
    for (int64_t m : widest) kext.push_back(i64(m));
    c.name = "adaptive_avg_pool" + std::to_string(dims) + "d";
    Tensor sum = c.b.reduce(*shape, kext, ReduceKind::kSum, dt, "adaptive_pool_sum",
                            [&](const Exprs& i, const Exprs& r) {
                              Exprs idx{i[0], i[1]};
                              Expr inside;
                              for (size_t d = 0; d < dims; ++d) {
                                Expr p = add(start(i[2 + d], d), r[d]);
                                Expr lt = cmp(ObjectKind::kLT, p, end(i[2 + d], d));
                                inside = inside ? logical_and(inside, lt) : lt;
                                idx.push_back(p);
                              }
                              return if_then_else(inside, cast(dt, xt(idx)), const_of(dt, 0));
                            });
    c.out = c.b.compute(
        *shape, dt, "adaptive_pool_avg",
        [&](const Exprs& i) {
          Expr count;
          for (size_t d = 0; d < dims; ++d) {
            Expr n = sub(end(i[2 + d], d), start(i[2 + d], d));
            count = count ? mul(count, n) : n;
          }
          return div(sum(i), cast(dt, count));
        },
        "ax");
    return true;
  };
}

// max_pool2d_backward / avg_pool2d_backward (output_grad, data) -> a gradient shaped like data.
// Element (y, x) receives from each window (oy, ox) that covers it: for max, the output gradient
// when it is the window's first maximum; for avg, the output gradient over kh * kw.
LegalizeFn pool2d_backward(bool is_max) {
  return [is_max](Ctx& c) {
    if (c.str_attr("layout", "NCHW") != "NCHW" || c.str_attr("out_layout", "NCHW") != "NCHW")
      return c.unsupported("only the NCHW layout is supported");
    auto size = spatial_ints(c, "pool_size", 2, 1);
    auto strides = spatial_ints(c, "strides", 2, 1);
    auto dil = spatial_ints(c, "dilation", 2, 1);
    auto pad = spatial_padding(c, 2);
    if (!size || !strides || !dil || !pad)
      return c.unsupported("pool_size, strides, dilation or padding of an unexpected length");
    if ((*dil)[0] != 1 || (*dil)[1] != 1) return c.unsupported("dilation (as topi's pool_grad)");
    // As TVM, whose legalization calls topi.nn.pool_grad without count_include_pad (topi's
    // default True): avg windows always divide by kh * kw.
    auto og = c.input(0);
    auto x = c.input(1);
    auto shape = c.out_shape();
    if (!og || !x || !shape) return false;
    Tensor gt = *og, xt = *x;
    DataType dt = c.out_dtype();
    const Exprs& os = gt.shape();
    int64_t kh = (*size)[0], kw = (*size)[1], sh = (*strides)[0], sw = (*strides)[1];
    int64_t pt = pad->first[0], pl = pad->first[1];
    Tensor argidx;
    if (is_max) {
      Exprs extents{window_extent(os[2], sh, kh, 1), window_extent(os[3], sw, kw, 1)};
      Tensor padded = pad_spatial(c.b, xt, pad->first, pad->second, extents,
                                  reduce_identity(ReduceKind::kMax, xt.dtype()), true);
      auto window = [&](const Exprs& i, const Exprs& r) {
        return padded({i[0], i[1], add(scaled(i[2], sh), r[0]), add(scaled(i[3], sw), r[1])});
      };
      Tensor mx =
          c.b.reduce(os, {i64(kh), i64(kw)}, ReduceKind::kMax, xt.dtype(), "pool_max", window);
      argidx = c.b.reduce(os, {i64(kh), i64(kw)}, ReduceKind::kMin, DataType::Int64(),
                          "pool_argmax", [&](const Exprs& i, const Exprs& r) {
                            return select(cmp(ObjectKind::kEQ, window(i, r), mx(i)),
                                          add(mul(r[0], i64(kw)), r[1]), i64(kh * kw));
                          });
    }
    c.name = is_max ? "max_pool2d_backward" : "avg_pool2d_backward";
    c.out = c.b.reduce(
        *shape, {i64(kh), i64(kw)}, ReduceKind::kSum, dt, "T_pool_grad",
        [&](const Exprs& i, const Exprs& r) {
          Expr ty = sub(add_const(i[2], pt), r[0]);
          Expr tx = sub(add_const(i[3], pl), r[1]);
          Expr oy = sh == 1 ? ty : floordiv(ty, i64(sh));
          Expr ox = sw == 1 ? tx : floordiv(tx, i64(sw));
          Expr cond =
              logical_and(cmp(ObjectKind::kLE, i64(0), ty), cmp(ObjectKind::kLE, i64(0), tx));
          if (sh != 1)
            cond = logical_and(cond, cmp(ObjectKind::kEQ, floormod(ty, i64(sh)), i64(0)));
          if (sw != 1)
            cond = logical_and(cond, cmp(ObjectKind::kEQ, floormod(tx, i64(sw)), i64(0)));
          cond = logical_and(
              cond, logical_and(cmp(ObjectKind::kLT, oy, os[2]), cmp(ObjectKind::kLT, ox, os[3])));
          Exprs o{i[0], i[1], oy, ox};
          Expr g = cast(dt, gt(o));
          if (is_max) {
            // Nested: the argmax is loaded only for a window inside the output.
            g = if_then_else(cmp(ObjectKind::kEQ, argidx(o), add(mul(r[0], i64(kw)), r[1])), g,
                             const_of(dt, 0));
          } else {
            g = div(g, cast(dt, i64(kh * kw)));
          }
          return if_then_else(cond, g, const_of(dt, 0));
        });
    return true;
  };
}

}  // namespace

void register_pool(Table& t) {
  t["relax.nn.max_pool3d"] = pool_nd(true, 3);
  t["relax.nn.avg_pool3d"] = pool_nd(false, 3);
  t["relax.nn.adaptive_avg_pool1d"] = adaptive_avg_pool_nd(1);
  t["relax.nn.adaptive_avg_pool3d"] = adaptive_avg_pool_nd(3);
  t["relax.grad.max_pool2d_backward"] = pool2d_backward(true);
  t["relax.grad.avg_pool2d_backward"] = pool2d_backward(false);
}

}  // namespace relax::compiler::legalize

// Legalizations of 1-D and 2-D pooling: max/avg_pool1d (NCW); max_pool2d / avg_pool2d as
// `pad_temp` and `pool_max` / `pool_sum` + `pool_avg`; adaptive_avg_pool2d with static sizes.
// (Convolutions of every rank are in ops_conv.cc.) Other layouts are computed through transposing
// stages (layouts.cc) or reported as unsupported (E0742).
#include <algorithm>

#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using namespace te;  // NOLINT

namespace {

// (top, left, bottom, right) from a 1-, 2- or 4-element padding.
std::optional<std::vector<int64_t>> pad4(const std::vector<int64_t>& p) {
  if (p.size() == 1) return std::vector<int64_t>{p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return std::vector<int64_t>{p[0], p[1], p[0], p[1]};
  if (p.size() == 4) return p;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> pair(const std::vector<int64_t>& p) {
  if (p.size() == 1) return std::vector<int64_t>{p[0], p[0]};
  if (p.size() == 2) return p;
  return std::nullopt;
}

LegalizeFn pool2d(bool is_max) {
  return [is_max](Ctx& c) {
    if (c.str_attr("layout", "NCHW") != "NCHW" || c.str_attr("out_layout", "NCHW") != "NCHW")
      return c.unsupported("only the NCHW layout is supported");
    auto size = pair(c.ints("pool_size").value_or(std::vector<int64_t>{1, 1}));
    auto strides = pair(c.ints("strides").value_or(std::vector<int64_t>{1, 1}));
    auto dil = pair(c.ints("dilation").value_or(std::vector<int64_t>{1, 1}));
    auto pad = pad4(c.ints("padding").value_or(std::vector<int64_t>{0, 0}));
    if (!size || !strides || !dil || !pad)
      return c.unsupported("pool_size, strides, dilation or padding of an unexpected length");
    bool include_pad = c.bool_attr("count_include_pad", false);
    if (!is_max && !include_pad && ((*dil)[0] != 1 || (*dil)[1] != 1))
      return c.unsupported("avg_pool2d with dilation and count_include_pad=False");
    auto x = c.input(0);
    auto shape = c.out_shape();
    if (!x || !shape) return false;
    Tensor xt = *x;
    DataType dt = c.out_dtype();
    int64_t kh = (*size)[0], kw = (*size)[1], sh = (*strides)[0], sw = (*strides)[1],
            dh = (*dil)[0], dw = (*dil)[1];
    Expr hp = window_extent((*shape)[2], sh, kh, dh);
    Expr wp = window_extent((*shape)[3], sw, kw, dw);
    Expr padv = is_max ? reduce_identity(ReduceKind::kMax, xt.dtype()) : const_of(xt.dtype(), 0);
    // The window may reach past the data on the bottom/right (ceil_mode): guard both sides then.
    Tensor padded =
        pad_spatial(c.b, xt, {(*pad)[0], (*pad)[1]}, {(*pad)[2], (*pad)[3]}, {hp, wp}, padv, true);
    auto window = [&](const Exprs& i, const Exprs& r) {
      Expr y = add(sh == 1 ? i[2] : mul(i[2], i64(sh)), dh == 1 ? r[0] : mul(r[0], i64(dh)));
      Expr xx = add(sw == 1 ? i[3] : mul(i[3], i64(sw)), dw == 1 ? r[1] : mul(r[1], i64(dw)));
      return padded({i[0], i[1], y, xx});
    };
    c.name = is_max ? "max_pool2d" : "avg_pool2d";
    if (is_max) {
      c.out = c.b.reduce(*shape, {i64(kh), i64(kw)}, ReduceKind::kMax, dt, "pool_max", window,
                         {"ax0", "ax1", "ax2", "ax3"}, {"rv0", "rv1"});
      return true;
    }
    Tensor sum = c.b.reduce(*shape, {i64(kh), i64(kw)}, ReduceKind::kSum, dt, "pool_sum", window,
                            {"ax0", "ax1", "ax2", "ax3"}, {"rv0", "rv1"});
    int64_t pt = (*pad)[0], pl = (*pad)[1];
    const Exprs& s = xt.shape();
    c.out = c.b.compute(
        *shape, dt, "pool_avg",
        [&](const Exprs& i) {
          Expr count;
          if (include_pad) {
            count = i64(kh * kw);
          } else {
            Expr hs = sub(mul(i[2], i64(sh)), i64(pt));
            Expr ws = sub(mul(i[3], i64(sw)), i64(pl));
            Expr hcount = sub(min(add(hs, i64(kh)), s[2]), max(hs, i64(0)));
            Expr wcount = sub(min(add(ws, i64(kw)), s[3]), max(ws, i64(0)));
            count = mul(hcount, wcount);
          }
          return div(sum(i), cast(dt, count));
        },
        "ax");
    return true;
  };
}

// adaptive_avg_pool2d: output cell (i, j) averages rows floor(i*H/OH) .. ceil((i+1)*H/OH) - 1 and
// the same for columns; the reduction runs over the widest window, masking the rest.
bool adaptive_avg_pool2d(Ctx& c) {
  if (c.str_attr("layout", "NCHW") != "NCHW" || c.str_attr("out_layout", "NCHW") != "NCHW")
    return c.unsupported("only the NCHW layout is supported");
  auto x = c.input(0);
  auto shape = c.out_shape();
  if (!x || !shape) return false;
  Tensor xt = *x;
  DataType dt = c.out_dtype();
  auto h = ir::tir::as_const_int(xt.shape()[2]), w = ir::tir::as_const_int(xt.shape()[3]);
  auto oh = ir::tir::as_const_int((*shape)[2]), ow = ir::tir::as_const_int((*shape)[3]);
  if (!h || !w || !oh || !ow || *oh <= 0 || *ow <= 0)
    return c.unsupported("adaptive pooling needs static spatial sizes");
  auto widest = [](int64_t in, int64_t out) {
    int64_t m = 0;
    for (int64_t i = 0; i < out; ++i)
      m = std::max(m, ((i + 1) * in + out - 1) / out - (i * in) / out);
    return m;
  };
  auto start = [](const Expr& i, int64_t in, int64_t out) {
    return floordiv(mul(i, i64(in)), i64(out));
  };
  auto end = [](const Expr& i, int64_t in, int64_t out) {
    return floordiv(add(mul(add(i, i64(1)), i64(in)), i64(out - 1)), i64(out));
  };
  int64_t kh = widest(*h, *oh), kw = widest(*w, *ow);
  c.name = "adaptive_avg_pool2d";
  Tensor sum =
      c.b.reduce(*shape, {i64(kh), i64(kw)}, ReduceKind::kSum, dt, "adaptive_pool_sum",
                 [&](const Exprs& i, const Exprs& r) {
                   Expr y = add(start(i[2], *h, *oh), r[0]);
                   Expr xx = add(start(i[3], *w, *ow), r[1]);
                   Expr inside = logical_and(cmp(ObjectKind::kLT, y, end(i[2], *h, *oh)),
                                             cmp(ObjectKind::kLT, xx, end(i[3], *w, *ow)));
                   return if_then_else(inside, cast(dt, xt({i[0], i[1], y, xx})), const_of(dt, 0));
                 },
                 {"ax0", "ax1", "ax2", "ax3"}, {"rv0", "rv1"});
  c.out = c.b.compute(
      *shape, dt, "adaptive_pool_avg",
      [&](const Exprs& i) {
        Expr count = mul(sub(end(i[2], *h, *oh), start(i[2], *h, *oh)),
                         sub(end(i[3], *w, *ow), start(i[3], *w, *ow)));
        return div(sum(i), cast(dt, count));
      },
      "ax");
  return true;
}

// max_pool1d / avg_pool1d on NCW data: `pad_temp`, then `pool_max` or `pool_sum` + `pool_avg`.
LegalizeFn pool1d(bool is_max) {
  return [is_max](Ctx& c) {
    if (c.str_attr("layout", "NCW") != "NCW" || c.str_attr("out_layout", "NCW") != "NCW")
      return c.unsupported("only the NCW layout is supported");
    auto size = c.ints("pool_size").value_or(std::vector<int64_t>{1});
    auto strides = c.ints("strides").value_or(std::vector<int64_t>{1});
    auto dil = c.ints("dilation").value_or(std::vector<int64_t>{1});
    auto pad = c.ints("padding").value_or(std::vector<int64_t>{0});
    if (size.size() != 1 || strides.size() != 1 || dil.size() != 1 ||
        (pad.size() != 1 && pad.size() != 2))
      return c.unsupported("pool_size, strides, dilation or padding of an unexpected length");
    bool include_pad = c.bool_attr("count_include_pad", !is_max);
    if (!is_max && !include_pad && dil[0] != 1)
      return c.unsupported("avg_pool1d with dilation and count_include_pad=False");
    auto x = c.input(0);
    auto shape = c.out_shape();
    if (!x || !shape) return false;
    Tensor xt = *x;
    DataType dt = c.out_dtype();
    int64_t k = size[0], s = strides[0], d = dil[0], pl = pad[0];
    const Exprs& xs = xt.shape();
    Expr wp = window_extent((*shape)[2], s, k, d);
    Expr padv = is_max ? reduce_identity(ReduceKind::kMax, xt.dtype()) : const_of(xt.dtype(), 0);
    int64_t pr = pad.size() == 2 ? pad[1] : pad[0];
    Tensor padded = pad_spatial(c.b, xt, {pl}, {pr}, {wp}, padv, true);
    auto window = [&](const Exprs& i, const Exprs& r) {
      return padded(
          {i[0], i[1], add(s == 1 ? i[2] : mul(i[2], i64(s)), d == 1 ? r[0] : mul(r[0], i64(d)))});
    };
    c.name = is_max ? "max_pool1d" : "avg_pool1d";
    if (is_max) {
      c.out = c.b.reduce(*shape, {i64(k)}, ReduceKind::kMax, dt, "pool_max", window,
                         {"ax0", "ax1", "ax2"}, {"rv0"});
      return true;
    }
    Tensor sum = c.b.reduce(*shape, {i64(k)}, ReduceKind::kSum, dt, "pool_sum", window,
                            {"ax0", "ax1", "ax2"}, {"rv0"});
    c.out = c.b.compute(
        *shape, dt, "pool_avg",
        [&](const Exprs& i) {
          Expr count = i64(k);
          if (!include_pad) {
            Expr ws = sub(mul(i[2], i64(s)), i64(pl));
            count = sub(min(add(ws, i64(k)), xs[2]), max(ws, i64(0)));
          }
          return div(sum(i), cast(dt, count));
        },
        "ax");
    return true;
  };
}

}  // namespace

void register_nn(Table& t) {
  t["relax.nn.max_pool1d"] = pool1d(true);
  t["relax.nn.avg_pool1d"] = pool1d(false);
  t["relax.nn.adaptive_avg_pool2d"] = adaptive_avg_pool2d;
  t["relax.nn.max_pool2d"] = pool2d(true);
  t["relax.nn.avg_pool2d"] = pool2d(false);
}

}  // namespace relax::compiler::legalize

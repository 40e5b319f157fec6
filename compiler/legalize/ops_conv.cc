// Legalizations of N-d convolutions: conv1d/2d/3d (NCW/NCHW/NCDHW data, OIW/OIHW/OIDHW weights,
// any groups) as a `pad_temp` stage and a `conv1d_ncw` / `conv2d_nchw` / `conv3d_ncdhw` reduction,
// and conv1d/2d/3d_transpose (IOW / IOHW / IODHW weights, any groups, output_padding) as one
// reduction gathering, for each output position, the input positions whose strided window reaches
// it. This is the same sum as topi's conv*_transpose (dilate the data by the strides, pad it by k -
// 1 - padding, convolve with the flipped kernel) without materializing the dilated data. Other
// layouts are unsupported (E0742).
#include "compiler/legalize/legalize_impl.h"

namespace relax::compiler::legalize {

using ir::DataType;
using ir::ObjectKind;
using namespace te;  // NOLINT

Expr add_const(const Expr& e, int64_t v) {
  if (v == 0) return e;
  if (auto c = ir::tir::as_const_int(e)) return i64(*c + v);
  return add(e, i64(v));
}

std::optional<std::vector<int64_t>> spatial_ints(const Ctx& c, const std::string& key, size_t dims,
                                                 int64_t fallback) {
  auto v = c.ints(key).value_or(std::vector<int64_t>(dims, fallback));
  if (v.size() == 1) v.assign(dims, v[0]);
  if (v.size() != dims) return std::nullopt;
  return v;
}

std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> spatial_padding(const Ctx& c,
                                                                                     size_t dims) {
  auto p = c.ints("padding").value_or(std::vector<int64_t>(dims, 0));
  if (p.size() == 1) p.assign(dims, p[0]);
  if (p.size() == dims) {
    std::vector<int64_t> same = p;  // the same padding after as before
    p.insert(p.end(), same.begin(), same.end());
  }
  if (p.size() != 2 * dims) return std::nullopt;
  return std::make_pair(std::vector<int64_t>(p.begin(), p.begin() + static_cast<long>(dims)),
                        std::vector<int64_t>(p.begin() + static_cast<long>(dims), p.end()));
}

Tensor pad_spatial(Builder& b, const Tensor& x, const std::vector<int64_t>& before,
                   const std::vector<int64_t>& after, const Exprs& extents, const Expr& pad,
                   bool guard_upper) {
  const Exprs& s = x.shape();
  size_t lead = s.size() - before.size();
  Exprs shape(s.begin(), s.begin() + static_cast<long>(lead));
  shape.insert(shape.end(), extents.begin(), extents.end());
  return b.compute(
      shape, x.dtype(), "pad_temp",
      [&](const Exprs& i) {
        Exprs in(i.begin(), i.begin() + static_cast<long>(lead));
        Expr cond;
        auto both = [&](const Expr& e) { cond = cond ? logical_and(cond, e) : e; };
        for (size_t d = 0; d < before.size(); ++d) {
          const Expr& ix = i[lead + d];
          in.push_back(before[d] == 0 ? ix : sub(ix, i64(before[d])));
          if (before[d] != 0) both(cmp(ObjectKind::kLE, i64(before[d]), ix));
          if (after[d] != 0 || guard_upper)
            both(cmp(ObjectKind::kLT, ix, add_const(s[lead + d], before[d])));
        }
        Expr v = x(in);
        return cond ? if_then_else(cond, v, pad) : v;
      },
      "i");
}

namespace {

const char* kSpatial[] = {"", "W", "HW", "DHW"};
const char* kData[] = {"", "NCW", "NCHW", "NCDHW"};
const char* kStageLayout[] = {"", "ncw", "nchw", "ncdhw"};  // conv2d_nchw, as topi
// Loop names of the convolution stage as topi names them (conv3d: the builder's defaults).
const std::vector<std::string> kAxes[] = {{}, {"b", "c", "w"}, {"nn", "ff", "yy", "xx"}, {}};
const std::vector<std::string> kReduceAxes[] = {{}, {"rc", "rw"}, {"rc", "ry", "rx"}, {}};

bool conv_layouts_ok(Ctx& c, size_t dims, bool transpose) {
  std::string data = kData[dims];
  std::string kernel = std::string(transpose ? "IO" : "OI") + kSpatial[dims];
  if (c.str_attr("data_layout", data) != data || c.str_attr("kernel_layout", kernel) != kernel ||
      c.str_attr("out_layout", data) != data)
    return c.unsupported("only " + data + " data with " + kernel + " weights is supported");
  return true;
}

// conv of N-d data (`dims` spatial axes) in the canonical layouts.
LegalizeFn conv_nd(size_t dims) {
  return [dims](Ctx& c) {
    if (!conv_layouts_ok(c, dims, false)) return false;
    auto strides = spatial_ints(c, "strides", dims, 1);
    auto dil = spatial_ints(c, "dilation", dims, 1);
    auto pad = spatial_padding(c, dims);
    if (!strides || !dil || !pad)
      return c.unsupported("strides, dilation or padding of an unexpected length");
    int64_t groups = c.int_attr("groups", 1);
    auto x = c.input(0);
    auto w = c.input(1);
    auto shape = c.out_shape();
    if (!x || !w || !shape) return false;
    Tensor xt = *x, wt = *w;
    DataType dt = c.out_dtype();
    const Exprs& ws = wt.shape();
    Tensor padded = xt;
    bool any_pad = false;
    Exprs extents;
    for (size_t d = 0; d < dims; ++d) {
      any_pad |= pad->first[d] != 0 || pad->second[d] != 0;
      extents.push_back(add_const(xt.shape()[2 + d], pad->first[d] + pad->second[d]));
    }
    // topi's conv2d always has its pad_temp stage; the other ranks only when padded.
    if (any_pad || dims == 2)
      padded =
          pad_spatial(c.b, xt, pad->first, pad->second, extents, const_of(xt.dtype(), 0), false);
    Expr out_per_group;
    if (groups > 1) {
      auto k = ir::tir::as_const_int(ws[0]);
      if (!k) return c.unsupported("grouped convolution with a symbolic channel count");
      out_per_group = i64(*k / groups);
    }
    Exprs rext(ws.begin() + 1, ws.end());
    std::string nd = std::to_string(dims) + "d";
    c.name = "conv" + nd;
    c.out = c.b.reduce(
        *shape, rext, ReduceKind::kSum, dt,
        std::string(groups > 1 ? "group_conv" : "conv") + nd + "_" + kStageLayout[dims],
        [&](const Exprs& i, const Exprs& r) {
          Expr ch = r[0];
          if (groups > 1) ch = add(mul(floordiv(i[1], out_per_group), ws[1]), r[0]);
          Exprs xi{i[0], ch};
          Exprs wi{i[1], r[0]};
          for (size_t d = 0; d < dims; ++d) {
            int64_t s = (*strides)[d], dl = (*dil)[d];
            xi.push_back(add(s == 1 ? i[2 + d] : mul(i[2 + d], i64(s)),
                             dl == 1 ? r[1 + d] : mul(r[1 + d], i64(dl))));
            wi.push_back(r[1 + d]);
          }
          return mul(cast(dt, padded(xi)), cast(dt, wt(wi)));
        },
        kAxes[dims], kReduceAxes[dims]);
    return true;
  };
}

// conv*_transpose: out[n, o, y] = sum over the group's input channels ic and kernel taps k of
// x[n, ic, (y + pad_before - k * dilation) / stride] * w[ic, o % (O / groups), k], where the
// division is exact and lands inside the data.
LegalizeFn conv_transpose_nd(size_t dims) {
  return [dims](Ctx& c) {
    if (!conv_layouts_ok(c, dims, true)) return false;
    auto strides = spatial_ints(c, "strides", dims, 1);
    auto dil = spatial_ints(c, "dilation", dims, 1);
    auto pad = spatial_padding(c, dims);
    if (!strides || !dil || !pad)
      return c.unsupported("strides, dilation or padding of an unexpected length");
    int64_t groups = c.int_attr("groups", 1);
    auto x = c.input(0);
    auto w = c.input(1);
    auto shape = c.out_shape();
    if (!x || !w || !shape) return false;
    Tensor xt = *x, wt = *w;
    DataType dt = c.out_dtype();
    const Exprs& ws = wt.shape();
    const Exprs& xs = xt.shape();
    Expr in_per_group = ws[0];
    if (groups > 1) {
      auto k = ir::tir::as_const_int(ws[0]);
      if (!k) return c.unsupported("grouped convolution with a symbolic channel count");
      in_per_group = i64(*k / groups);
    }
    Exprs rext{in_per_group};
    rext.insert(rext.end(), ws.begin() + 2, ws.end());
    std::string nd = std::to_string(dims) + "d";
    c.name = "conv" + nd + "_transpose";
    c.out = c.b.reduce(
        *shape, rext, ReduceKind::kSum, dt, "conv" + nd + "_transpose_" + kData[dims],
        [&](const Exprs& i, const Exprs& r) {
          Expr ic = r[0];
          Expr oc = i[1];
          if (groups > 1) {
            ic = add(mul(floordiv(i[1], ws[1]), in_per_group), r[0]);
            oc = floormod(i[1], ws[1]);
          }
          Exprs xi{i[0], ic};
          Exprs wi{ic, oc};
          Expr cond;
          auto both = [&](const Expr& e) { cond = cond ? logical_and(cond, e) : e; };
          for (size_t d = 0; d < dims; ++d) {
            int64_t s = (*strides)[d], dl = (*dil)[d];
            Expr t = sub(add_const(i[2 + d], pad->first[d]),
                         dl == 1 ? r[1 + d] : mul(r[1 + d], i64(dl)));
            both(cmp(ObjectKind::kLE, i64(0), t));
            if (s != 1) both(cmp(ObjectKind::kEQ, floormod(t, i64(s)), i64(0)));
            Expr q = s == 1 ? t : floordiv(t, i64(s));
            both(cmp(ObjectKind::kLT, q, xs[2 + d]));
            xi.push_back(q);
            wi.push_back(r[1 + d]);
          }
          return if_then_else(cond, mul(cast(dt, xt(xi)), cast(dt, wt(wi))), const_of(dt, 0));
        });
    return true;
  };
}

}  // namespace

void register_conv(Table& t) {
  t["relax.nn.conv1d"] = conv_nd(1);
  t["relax.nn.conv2d"] = conv_nd(2);
  t["relax.nn.conv3d"] = conv_nd(3);
  t["relax.nn.conv1d_transpose"] = conv_transpose_nd(1);
  t["relax.nn.conv2d_transpose"] = conv_transpose_nd(2);
  t["relax.nn.conv3d_transpose"] = conv_transpose_nd(3);
}

}  // namespace relax::compiler::legalize

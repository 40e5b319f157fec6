// Numerics of the legalized N-d convolutions and transposed convolutions, 3-D and adaptive
// poolings, pool gradients, attention, resize2d, the losses and their gradients: each PrimFunc
// runs in the TIR interpreter and is compared with a plain C++ reference (double precision)
// written here, independently of the legalizations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "tests/compiler/legalize/numerics_groups.h"
#include "tests/compiler/legalize/numerics_util.h"

using namespace relax;
using namespace relax::legalize_test;

namespace relax::legalize_test {

namespace {

using Ints = std::vector<int64_t>;

// Iterates over every index of `s` (row-major).
void for_each(const Shape& s, const std::function<void(const Shape&)>& f) {
  for (int64_t k = 0; k < numel(s); ++k) f(unravel(k, s));
}

Shape spatial(const Shape& s) {
  return Shape(s.begin() + 2, s.end());
}

// conv (NC + spatial data, OI + spatial weights), as a direct sum over the window.
Values ref_conv(const HostArray& x, const HostArray& w, const Shape& out, const Ints& s,
                const Ints& pb, const Ints& d, int64_t groups) {
  size_t n = s.size();
  int64_t K = w.shape[0], Cg = w.shape[1];
  Shape kshape = spatial(w.shape);
  Values v;
  for_each(out, [&](const Shape& o) {
    int64_t g = o[1] / (K / groups);
    double acc = 0;
    for (int64_t c = 0; c < Cg; ++c)
      for_each(kshape, [&](const Shape& k) {
        Shape xi{o[0], g * Cg + c};
        for (size_t a = 0; a < n; ++a) {
          int64_t p = o[2 + a] * s[a] + k[a] * d[a] - pb[a];
          if (p < 0 || p >= x.shape[2 + a]) return;
          xi.push_back(p);
        }
        Shape wi{o[1], c};
        wi.insert(wi.end(), k.begin(), k.end());
        acc += x.get(ravel(xi, x.shape)) * w.get(ravel(wi, w.shape));
      });
    v.push_back(acc);
  });
  return v;
}

// conv transpose (IO + spatial weights): every input element scatters x * w over its window.
Values ref_conv_transpose(const HostArray& x, const HostArray& w, const Shape& out, const Ints& s,
                          const Ints& pb, const Ints& d, int64_t groups) {
  size_t n = s.size();
  int64_t C = x.shape[1], Cg = C / groups, Og = w.shape[1];
  Shape kshape = spatial(w.shape);
  Values v(static_cast<size_t>(numel(out)), 0.0);
  for_each(x.shape, [&](const Shape& xi) {
    int64_t g = xi[1] / Cg;
    for (int64_t oc = 0; oc < Og; ++oc)
      for_each(kshape, [&](const Shape& k) {
        Shape oi{xi[0], g * Og + oc};
        for (size_t a = 0; a < n; ++a) {
          int64_t p = xi[2 + a] * s[a] - pb[a] + k[a] * d[a];
          if (p < 0 || p >= out[2 + a]) return;
          oi.push_back(p);
        }
        Shape wi{xi[1], oc};
        wi.insert(wi.end(), k.begin(), k.end());
        v[static_cast<size_t>(ravel(oi, out))] +=
            x.get(ravel(xi, x.shape)) * w.get(ravel(wi, w.shape));
      });
  });
  return v;
}

// Max / avg pooling over NC + spatial data; avg counts the taps inside the data, or inside the
// padded data (count_include_pad).
Values ref_pool(const HostArray& x, const Shape& out, const Ints& k, const Ints& s, const Ints& pb,
                const Ints& pe, const Ints& d, bool is_max, bool include_pad) {
  size_t n = k.size();
  Values v;
  for_each(out, [&](const Shape& o) {
    double acc = is_max ? -1e300 : 0;
    int64_t inb = 0, inpad = 0;
    for_each(Shape(k.begin(), k.end()), [&](const Shape& t) {
      Shape xi{o[0], o[1]};
      bool data = true, padded = true;
      for (size_t a = 0; a < n; ++a) {
        int64_t p = o[2 + a] * s[a] - pb[a] + t[a] * d[a];
        data &= p >= 0 && p < x.shape[2 + a];
        padded &= p >= -pb[a] && p < x.shape[2 + a] + pe[a];
        xi.push_back(p);
      }
      inpad += padded;
      if (!data) return;
      ++inb;
      double val = x.get(ravel(xi, x.shape));
      acc = is_max ? std::max(acc, val) : acc + val;
    });
    v.push_back(is_max ? acc : acc / double(include_pad ? inpad : inb));
  });
  return v;
}

Values ref_adaptive(const HostArray& x, const Shape& out) {
  size_t n = out.size() - 2;
  Values v;
  for_each(out, [&](const Shape& o) {
    Shape lo, ext;
    for (size_t a = 0; a < n; ++a) {
      int64_t in = x.shape[2 + a], os = out[2 + a];
      int64_t b = o[2 + a] * in / os;
      int64_t e = ((o[2 + a] + 1) * in + os - 1) / os;
      lo.push_back(b);
      ext.push_back(e - b);
    }
    double acc = 0;
    for_each(ext, [&](const Shape& t) {
      Shape xi{o[0], o[1]};
      for (size_t a = 0; a < n; ++a) xi.push_back(lo[a] + t[a]);
      acc += x.get(ravel(xi, x.shape));
    });
    v.push_back(acc / double(numel(ext)));
  });
  return v;
}

// Gradient of 2-D pooling w.r.t. the data: each output window sends its gradient to its first
// maximum (max) or spreads it over its count (avg).
Values ref_pool2d_grad(const HostArray& g, const HostArray& x, const Ints& k, const Ints& s,
                       const Ints& p, bool is_max, bool include_pad) {
  Values v(static_cast<size_t>(x.size()), 0.0);
  int64_t H = x.shape[2], W = x.shape[3];
  for_each(g.shape, [&](const Shape& o) {
    double gv = g.get(ravel(o, g.shape));
    int64_t best = -1, inb = 0;
    double bv = -1e300;
    for (int64_t a = 0; a < k[0]; ++a)
      for (int64_t b = 0; b < k[1]; ++b) {
        int64_t y = o[2] * s[0] - p[0] + a, xx = o[3] * s[1] - p[1] + b;
        if (y < 0 || y >= H || xx < 0 || xx >= W) continue;
        ++inb;
        int64_t flat = ravel({o[0], o[1], y, xx}, x.shape);
        if (x.get(flat) > bv) bv = x.get(flat), best = flat;
      }
    if (is_max) {
      if (best >= 0) v[static_cast<size_t>(best)] += gv;
      return;
    }
    double count = include_pad ? double(k[0] * k[1]) : double(std::max<int64_t>(inb, 1));
    for (int64_t a = 0; a < k[0]; ++a)
      for (int64_t b = 0; b < k[1]; ++b) {
        int64_t y = o[2] * s[0] - p[0] + a, xx = o[3] * s[1] - p[1] + b;
        if (y < 0 || y >= H || xx < 0 || xx >= W) continue;
        v[static_cast<size_t>(ravel({o[0], o[1], y, xx}, x.shape))] += gv / count;
      }
  });
  return v;
}

Shape conv_t_out(const Shape& x, const Shape& w, int64_t groups, const Ints& s, const Ints& pb,
                 const Ints& pe, const Ints& d, const Ints& op) {
  Shape out{x[0], w[1] * groups};
  for (size_t a = 0; a < s.size(); ++a)
    out.push_back((x[2 + a] - 1) * s[a] - pb[a] - pe[a] + d[a] * (w[2 + a] - 1) + op[a] + 1);
  return out;
}

}  // namespace

// legalize numerics: conv3d, conv1d/2d/3d_transpose, 3-D and adaptive pools, pool2d gradients
void conv_transpose_pool3d_cases() {
  // conv3d
  check({"relax.nn.conv3d",
         "R.nn.conv3d(x0, x1)",
         {rnd({1, 2, 4, 4, 4}, 900), rnd({3, 2, 2, 2, 2}, 901)},
         F32,
         {1, 3, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_conv(in[0], in[1], {1, 3, 3, 3, 3}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 1);
         },
         1e-5,
         1e-5});
  check({"relax.nn.conv3d",
         "R.nn.conv3d(x0, x1, strides=[2, 1, 2], padding=[1, 0, 1, 1, 1, 0], dilation=[1, 2, 1], "
         "groups=2)",
         {rnd({1, 4, 5, 5, 4}, 902), rnd({4, 2, 2, 2, 3}, 903)},
         F32,
         {1, 4, 3, 4, 2},
         [](const std::vector<HostArray>& in) {
           return ref_conv(in[0], in[1], {1, 4, 3, 4, 2}, {2, 1, 2}, {1, 0, 1}, {1, 2, 1}, 2);
         },
         1e-5,
         1e-5});
  // Transposed convolutions.
  struct T {
    const char* op;
    std::string call;
    Shape x, w;
    int64_t groups;
    Ints s, pb, pe, d, op_pad;
  };
  std::vector<T> ts = {
      {"relax.nn.conv1d_transpose",
       "R.nn.conv1d_transpose(x0, x1)",
       {2, 3, 5},
       {3, 2, 3},
       1,
       {1},
       {0},
       {0},
       {1},
       {0}},
      {"relax.nn.conv1d_transpose",
       "R.nn.conv1d_transpose(x0, x1, strides=[2], padding=[1, 2], output_padding=[1], "
       "dilation=[2], groups=2)",
       {1, 4, 5},
       {4, 3, 3},
       2,
       {2},
       {1},
       {2},
       {2},
       {1}},
      {"relax.nn.conv2d_transpose",
       "R.nn.conv2d_transpose(x0, x1)",
       {1, 2, 3, 4},
       {2, 3, 3, 2},
       1,
       {1, 1},
       {0, 0},
       {0, 0},
       {1, 1},
       {0, 0}},
      {"relax.nn.conv2d_transpose",
       "R.nn.conv2d_transpose(x0, x1, strides=[2, 3], padding=[1, 0, 0, 1], output_padding=[1, "
       "2])",
       {1, 3, 3, 3},
       {3, 2, 3, 3},
       1,
       {2, 3},
       {1, 0},
       {0, 1},
       {1, 1},
       {1, 2}},
      {"relax.nn.conv2d_transpose",
       "R.nn.conv2d_transpose(x0, x1, strides=[2, 2], padding=[1, 1], groups=2)",
       {2, 4, 3, 3},
       {4, 1, 3, 3},
       2,
       {2, 2},
       {1, 1},
       {1, 1},
       {1, 1},
       {0, 0}},
      {"relax.nn.conv3d_transpose",
       "R.nn.conv3d_transpose(x0, x1)",
       {1, 2, 2, 3, 2},
       {2, 2, 2, 2, 2},
       1,
       {1, 1, 1},
       {0, 0, 0},
       {0, 0, 0},
       {1, 1, 1},
       {0, 0, 0}},
      {"relax.nn.conv3d_transpose",
       "R.nn.conv3d_transpose(x0, x1, strides=[2, 1, 2], padding=[0, 1, 1], output_padding=[1, "
       "0, 0])",
       {1, 2, 2, 3, 3},
       {2, 1, 2, 3, 2},
       1,
       {2, 1, 2},
       {0, 1, 1},
       {0, 1, 1},
       {1, 1, 1},
       {1, 0, 0}},
  };
  uint32_t seed = 910;
  for (const auto& t : ts) {
    Shape out = conv_t_out(t.x, t.w, t.groups, t.s, t.pb, t.pe, t.d, t.op_pad);
    check({t.op,
           t.call,
           {rnd(t.x, seed++), rnd(t.w, seed++)},
           F32,
           out,
           [t, out](const std::vector<HostArray>& in) {
             return ref_conv_transpose(in[0], in[1], out, t.s, t.pb, t.d, t.groups);
           },
           1e-5,
           1e-5});
  }
  // 3-D pools.
  HostArray x3 = rnd({1, 2, 5, 4, 5}, 930);
  check({"relax.nn.max_pool3d",
         "R.nn.max_pool3d(x0, pool_size=[2, 2, 2], strides=[2, 2, 2])",
         {x3},
         F32,
         {1, 2, 2, 2, 2},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 2, 2, 2, 2}, {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {0, 0, 0},
                           {1, 1, 1}, true, false);
         }});
  check({"relax.nn.max_pool3d",
         "R.nn.max_pool3d(x0, pool_size=[3, 2, 2], strides=[2, 1, 2], padding=[1, 0, 1, 1, 1, "
         "0], dilation=[1, 2, 1], ceil_mode=True)",
         {x3},
         F32,
         {1, 2, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 2, 3, 3, 3}, {3, 2, 2}, {2, 1, 2}, {1, 0, 1}, {1, 1, 0},
                           {1, 2, 1}, true, false);
         }});
  check({"relax.nn.avg_pool3d",
         "R.nn.avg_pool3d(x0, pool_size=[3, 3, 3], strides=[2, 2, 2], padding=[1, 1, 1], "
         "count_include_pad=False)",
         {x3},
         F32,
         {1, 2, 3, 2, 3},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 2, 3, 2, 3}, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1},
                           {1, 1, 1}, false, false);
         }});
  check({"relax.nn.avg_pool3d",
         "R.nn.avg_pool3d(x0, pool_size=[2, 2, 3], strides=[2, 2, 2], padding=[0, 1, 1, 0, 0, "
         "1], ceil_mode=True, count_include_pad=True)",
         {x3},
         F32,
         {1, 2, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 2, 3, 3, 3}, {2, 2, 3}, {2, 2, 2}, {0, 1, 1}, {0, 0, 1},
                           {1, 1, 1}, false, true);
         }});
  check({"relax.nn.avg_pool3d",
         "R.nn.avg_pool3d(x0, pool_size=[2, 2, 2], padding=[1, 1, 1], dilation=[2, 1, 2], "
         "count_include_pad=False)",
         {x3},
         F32,
         {1, 2, 5, 5, 5},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 2, 5, 5, 5}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1},
                           {2, 1, 2}, false, false);
         }});
  // Adaptive pools.
  check({"relax.nn.adaptive_avg_pool1d",
         "R.nn.adaptive_avg_pool1d(x0, output_size=[3])",
         {rnd({2, 3, 7}, 940)},
         F32,
         {2, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_adaptive(in[0], {2, 3, 3});
         }});
  check({"relax.nn.adaptive_avg_pool3d",
         "R.nn.adaptive_avg_pool3d(x0, output_size=[2, 3, 2])",
         {x3},
         F32,
         {1, 2, 2, 3, 2},
         [](const std::vector<HostArray>& in) {
           return ref_adaptive(in[0], {1, 2, 2, 3, 2});
         }});
  check({"relax.nn.adaptive_avg_pool3d",
         "R.nn.adaptive_avg_pool3d(x0)",
         {rnd({1, 2, 2, 3, 2}, 941)},
         F32,
         {1, 2, 2, 3, 2},
         [](const std::vector<HostArray>& in) {
           return ref_adaptive(in[0], {1, 2, 2, 3, 2});
         }});
  // Pool gradients. As TVM (topi.nn.pool_grad called without count_include_pad), the avg
  // gradient divides by the window size whatever count_include_pad says.
  HostArray x2 = rnd({1, 2, 6, 5}, 950);
  struct G {
    const char* op;
    std::string call;
    Shape g;
    Ints k, s, p;
    bool is_max, incl;
  };
  std::vector<G> gs = {
      {"relax.grad.max_pool2d_backward",
       "R.grad.max_pool2d_backward(x0, x1, pool_size=[2, 2], strides=[2, 2])",
       {1, 2, 3, 2},
       {2, 2},
       {2, 2},
       {0, 0},
       true,
       false},
      {"relax.grad.max_pool2d_backward",
       "R.grad.max_pool2d_backward(x0, x1, pool_size=[3, 3], strides=[1, 2], padding=[1, 1])",
       {1, 2, 6, 3},
       {3, 3},
       {1, 2},
       {1, 1},
       true,
       false},
      {"relax.grad.avg_pool2d_backward",
       "R.grad.avg_pool2d_backward(x0, x1, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])",
       {1, 2, 3, 3},
       {3, 3},
       {2, 2},
       {1, 1},
       false,
       true},
      {"relax.grad.avg_pool2d_backward",
       "R.grad.avg_pool2d_backward(x0, x1, pool_size=[2, 3], strides=[1, 2], padding=[1, 1], "
       "count_include_pad=True)",
       {1, 2, 7, 3},
       {2, 3},
       {1, 2},
       {1, 1},
       false,
       true},
  };
  for (const auto& g : gs) {
    check({g.op,
           g.call,
           {rnd(g.g, seed++), x2},
           F32,
           x2.shape,
           [g](const std::vector<HostArray>& in) {
             return ref_pool2d_grad(in[0], in[1], g.k, g.s, g.p, g.is_max, g.incl);
           },
           1e-5,
           1e-5});
  }
}

namespace {

// softmax(scale * Q K^T + bias, masked) V for BSNH tensors; `offset` < 0: no mask.
Values ref_attention(const HostArray& q, const HostArray& k, const HostArray& v,
                     const HostArray* bias, double scale, int64_t offset) {
  int64_t B = q.shape[0], Sq = q.shape[1], N = q.shape[2], H = q.shape[3];
  int64_t Sk = k.shape[1], Hv = v.shape[3];
  Values out(static_cast<size_t>(B * Sq * N * Hv), 0.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < N; ++h)
      for (int64_t i = 0; i < Sq; ++i) {
        std::vector<double> sc(static_cast<size_t>(Sk));
        double mx = -1e300;
        for (int64_t j = 0; j < Sk; ++j) {
          double s = 0;
          for (int64_t d = 0; d < H; ++d)
            s += q.get(ravel({b, i, h, d}, q.shape)) * k.get(ravel({b, j, h, d}, k.shape));
          s *= scale;
          if (bias) s += bget(*bias, {b, h, i, j});
          sc[static_cast<size_t>(j)] = s;
          if (offset < 0 || j <= i + offset) mx = std::max(mx, s);
        }
        double sum = 0;
        for (int64_t j = 0; j < Sk; ++j) {
          double e = offset >= 0 && j > i + offset ? 0 : std::exp(sc[static_cast<size_t>(j)] - mx);
          sc[static_cast<size_t>(j)] = e;
          sum += e;
        }
        for (int64_t j = 0; j < Sk; ++j)
          for (int64_t e = 0; e < Hv; ++e)
            out[static_cast<size_t>(ravel({b, i, h, e}, {B, Sq, N, Hv}))] +=
                sc[static_cast<size_t>(j)] / sum * v.get(ravel({b, j, h, e}, v.shape));
      }
  return out;
}

// topi's resize2d of NCHW data (nearest_neighbor / linear) in double precision.
Values ref_resize(const HostArray& x, int64_t OH, int64_t OW, const std::string& method,
                  const std::string& mode, std::string rounding, double alpha = -0.5,
                  bool exclude = false, std::vector<double> roi = {}, double extrapolation = 0) {
  int64_t H = x.shape[2], W = x.shape[3];
  if (rounding.empty()) rounding = mode == "align_corners" ? "round" : "floor";
  auto coord = [&](int64_t o, int64_t in, int64_t out, size_t axis) {
    double scale = double(in) / double(out);
    if (mode == "tf_crop_and_resize") {
      double s = roi[axis], e = roi[axis + 2];
      return out > 1 ? s * (in - 1) + o * (e - s) * (in - 1) / double(out - 1)
                     : 0.5 * (s + e) * (in - 1);
    }
    if (mode == "half_pixel") return (o + 0.5) * scale - 0.5;
    if (mode == "align_corners") return out > 1 ? double(in - 1) / double(out - 1) * o : 0.0;
    return scale * o;
  };
  auto at = [&](int64_t n, int64_t c, int64_t y, int64_t xx) {
    y = std::clamp<int64_t>(y, 0, H - 1);
    xx = std::clamp<int64_t>(xx, 0, W - 1);
    return x.get(ravel({n, c, y, xx}, x.shape));
  };
  Values v;
  for_each({x.shape[0], x.shape[1], OH, OW}, [&](const Shape& o) {
    double iy = coord(o[2], H, OH, 0), ix = coord(o[3], W, OW, 1);
    if (mode == "tf_crop_and_resize" && (iy < 0 || iy > H - 1 || ix < 0 || ix > W - 1)) {
      v.push_back(extrapolation);
      return;
    }
    if (method == "nearest_neighbor") {
      // topi divides by a static integer upscale factor for asymmetric nearest.
      if (mode == "asymmetric" && OH % H == 0 && OW % W == 0) {
        v.push_back(at(o[0], o[1], o[2] / (OH / H), o[3] / (OW / W)));
        return;
      }
      auto r = [&](double c) {
        return int64_t(rounding == "round" ? std::nearbyint(c) : std::floor(c + 1e-5));
      };
      v.push_back(at(o[0], o[1], r(iy), r(ix)));
      return;
    }
    int64_t y0 = int64_t(std::floor(iy)), x0 = int64_t(std::floor(ix));
    if (method == "cubic") {
      auto w = [&](double c, int64_t base, int64_t extent) {
        double t = c - std::floor(c), a = alpha;
        std::vector<double> r = {
            a * (t * t * t - 2 * t * t + t), (a + 2) * t * t * t - (3 + a) * t * t + 1,
            -(a + 2) * t * t * t + (3 + 2 * a) * t * t - a * t, -a * t * t * t + a * t * t};
        if (exclude) {
          double s = 0;
          for (int64_t j = 0; j < 4; ++j) {
            if (base + j - 1 < 0 || base + j - 1 >= extent) r[static_cast<size_t>(j)] = 0;
            s += r[static_cast<size_t>(j)];
          }
          for (auto& e : r) e /= s;
        }
        return r;
      };
      auto wy = w(iy, y0, H), wx = w(ix, x0, W);
      double acc = 0;
      for (int64_t a = 0; a < 4; ++a)
        for (int64_t b = 0; b < 4; ++b)
          acc += wy[static_cast<size_t>(a)] * wx[static_cast<size_t>(b)] *
                 at(o[0], o[1], y0 + a - 1, x0 + b - 1);
      v.push_back(acc);
      return;
    }
    double yl = iy - y0, xl = ix - x0;
    double top = at(o[0], o[1], y0, x0) * (1 - xl) + at(o[0], o[1], y0, x0 + 1) * xl;
    double bot = at(o[0], o[1], y0 + 1, x0) * (1 - xl) + at(o[0], o[1], y0 + 1, x0 + 1) * xl;
    v.push_back(top * (1 - yl) + bot * yl);
  });
  return v;
}

HostArray ints(Shape s, std::vector<int64_t> v, DataType t = DataType::Int64()) {
  HostArray a(t, std::move(s));
  a.i = std::move(v);
  return a;
}

// nll_loss reference: per target element, -pred[n, t, ...] * w[t] unless t == ignore.
Values ref_nll(const HostArray& p, const HostArray& t, const HostArray* w,
               const std::string& reduction, int64_t ignore) {
  Values terms;
  double num = 0, den = 0;
  for_each(t.shape, [&](const Shape& ti) {
    int64_t c = t.i[static_cast<size_t>(ravel(ti, t.shape))];
    if (c == ignore) {
      terms.push_back(0);
      return;
    }
    Shape pi;
    if (ti.empty()) {
      pi = {c};
    } else {
      pi = {ti[0], c};
      pi.insert(pi.end(), ti.begin() + 1, ti.end());
    }
    double wt = w ? w->get(c) : 1.0;
    double term = -p.get(ravel(pi, p.shape)) * wt;
    terms.push_back(term);
    num += term;
    den += wt;
  });
  if (reduction == "none") return terms;
  if (reduction == "sum") return {num};
  return {num / den};
}

// d nll_loss / d pred.
Values ref_nll_grad(const HostArray& g, const HostArray& p, const HostArray& t, const HostArray* w,
                    const std::string& reduction, int64_t ignore) {
  Values out(static_cast<size_t>(p.size()), 0.0);
  double den = 0;
  auto weight = [&](int64_t c) { return c == ignore ? 0.0 : (w ? w->get(c) : 1.0); };
  for (int64_t k = 0; k < t.size(); ++k) den += weight(t.i[static_cast<size_t>(k)]);
  for_each(t.shape, [&](const Shape& ti) {
    int64_t flat = ravel(ti, t.shape);
    int64_t c = t.i[static_cast<size_t>(flat)];
    if (c == ignore) return;
    Shape pi;
    if (ti.empty()) {
      pi = {c};
    } else {
      pi = {ti[0], c};
      pi.insert(pi.end(), ti.begin() + 1, ti.end());
    }
    double gv = reduction == "none" ? g.get(flat) : g.get(0);
    if (reduction == "mean") gv /= den;
    out[static_cast<size_t>(ravel(pi, p.shape))] = -gv * weight(c);
  });
  return out;
}

}  // namespace

// legalize numerics: attention, resize2d, nll_loss, cross_entropy_with_logits, loss/take grads
void attention_loss_resize_cases() {
  HostArray q = rnd({2, 3, 2, 4}, 960), k = rnd({2, 5, 2, 4}, 961), v = rnd({2, 5, 2, 3}, 962);
  check({"relax.nn.attention",
         "R.nn.attention(x0, x1, x2)",
         {q, k, v},
         F32,
         {2, 3, 2, 3},
         [](const std::vector<HostArray>& in) {
           return ref_attention(in[0], in[1], in[2], nullptr, 0.5, -1);
         }});
  check({"relax.nn.attention",
         "R.nn.attention(x0, x1, x2, scale=0.3, causal_mask=\"TopLeft\")",
         {q, k, v},
         F32,
         {2, 3, 2, 3},
         [](const std::vector<HostArray>& in) {
           return ref_attention(in[0], in[1], in[2], nullptr, 0.3, 0);
         }});
  check({"relax.nn.attention",
         "R.nn.attention(x0, x1, x2, causal_mask=\"BottomRight\")",
         {q, k, v},
         F32,
         {2, 3, 2, 3},
         [](const std::vector<HostArray>& in) {
           return ref_attention(in[0], in[1], in[2], nullptr, 0.5, 2);
         }});
  check({"relax.nn.attention_bias",
         "R.nn.attention(x0, x1, x2, x3)",
         {q, k, v, rnd({2, 2, 3, 5}, 963)},
         F32,
         {2, 3, 2, 3},
         [](const std::vector<HostArray>& in) {
           return ref_attention(in[0], in[1], in[2], &in[3], 0.5, -1);
         }});
  check({"relax.nn.attention_bias",
         "R.nn.attention(x0, x1, x2, x3, scale=0.7, causal_mask=\"BottomRight\")",
         {q, k, v, rnd({1, 3, 5}, 964)},
         F32,
         {2, 3, 2, 3},
         [](const std::vector<HostArray>& in) {
           return ref_attention(in[0], in[1], in[2], &in[3], 0.7, 2);
         }});
  // resize2d
  HostArray img = rnd({1, 2, 4, 5}, 970);
  struct R {
    std::string method, mode, rounding;
    int64_t oh, ow;
  };
  std::vector<R> rs = {
      {"linear", "half_pixel", "", 6, 3},
      {"linear", "align_corners", "", 7, 8},
      {"linear", "asymmetric", "", 3, 7},
      {"nearest_neighbor", "half_pixel", "", 7, 3},
      {"nearest_neighbor", "asymmetric", "floor", 6, 8},
      {"nearest_neighbor", "asymmetric", "round", 8, 10},
      {"nearest_neighbor", "align_corners", "round", 6, 7},
      {"nearest_neighbor", "align_corners", "", 3, 3},
  };
  for (bool exclude : {false, true}) {
    std::string call = std::string("R.image.resize2d(x0, R.shape([7, 3]), method=\"cubic\", ") +
                       "cubic_alpha=-0.75, cubic_exclude=" + (exclude ? "1" : "0") + ")";
    check({"relax.image.resize2d",
           call,
           {img},
           F32,
           {1, 2, 7, 3},
           [exclude](const std::vector<HostArray>& in) {
             return ref_resize(in[0], 7, 3, "cubic", "half_pixel", "", -0.75, exclude);
           },
           1e-4,
           1e-5});
  }
  for (std::string method : {"linear", "nearest_neighbor"}) {
    // roi (start_h, start_w, end_h, end_w) as float32 values, as the normalized attribute.
    std::vector<double> roi = {double(0.1f), double(0.2f), double(0.9f), double(1.1f)};
    check({"relax.image.resize2d",
           "R.image.resize2d(x0, R.shape([5, 4]), roi=[0.1, 0.2, 0.9, 1.1], method=\"" + method +
               "\", coordinate_transformation_mode=\"tf_crop_and_resize\", rounding_method=\"\", "
               "extrapolation_value=-3.0)",
           {img},
           F32,
           {1, 2, 5, 4},
           [method, roi](const std::vector<HostArray>& in) {
             return ref_resize(in[0], 5, 4, method, "tf_crop_and_resize", "", -0.5, false, roi,
                               -3.0);
           },
           1e-5,
           1e-5});
  }
  for (const auto& r : rs) {
    std::string call = "R.image.resize2d(x0, R.shape([" + std::to_string(r.oh) + ", " +
                       std::to_string(r.ow) + "]), method=\"" + r.method +
                       "\", coordinate_transformation_mode=\"" + r.mode + "\", rounding_method=\"" +
                       r.rounding + "\")";
    check({"relax.image.resize2d",
           call,
           {img},
           F32,
           {1, 2, r.oh, r.ow},
           [r](const std::vector<HostArray>& in) {
             return ref_resize(in[0], r.oh, r.ow, r.method, r.mode, r.rounding);
           },
           1e-5,
           1e-5});
  }
  // nll_loss
  HostArray p = rnd({3, 4, 2}, 980), t = ints({3, 2}, {0, 3, 1, 1, 2, 0});
  HostArray w = rnd({4}, 981, 0.5, 2);
  for (std::string red : {"mean", "sum", "none"}) {
    Shape out = red == "none" ? Shape{3, 2} : Shape{};
    check({"relax.nn.nll_loss",
           "R.nn.nll_loss(x0, x1, x2, reduction=\"" + red + "\", ignore_index=1)",
           {p, t, w},
           F32,
           out,
           [red](const std::vector<HostArray>& in) {
             return ref_nll(in[0], in[1], &in[2], red, 1);
           }});
  }
  check({"relax.nn.nll_loss",
         "R.nn.nll_loss(x0, x1)",
         {rnd({4, 3}, 982), ints({4}, {2, 0, 1, 2}, DataType::Int32())},
         F32,
         {},
         [](const std::vector<HostArray>& in) {
           return ref_nll(in[0], in[1], nullptr, "mean", -100);
         }});
  check({"relax.nn.nll_loss",
         "R.nn.nll_loss(x0, x1, x2, reduction=\"mean\")",
         {rnd({4}, 983), ints({}, {2}), w},
         F32,
         {},
         [](const std::vector<HostArray>& in) {
           return ref_nll(in[0], in[1], &in[2], "mean", -100);
         }});
  // cross_entropy_with_logits
  check({"relax.nn.cross_entropy_with_logits",
         "R.nn.cross_entropy_with_logits(x0, x1)",
         {rnd({3, 4}, 984), rnd({3, 4}, 985)},
         F32,
         {},
         [](const std::vector<HostArray>& in) {
           double s = 0;
           for (int64_t i = 0; i < in[0].size(); ++i) s += in[0].get(i) * in[1].get(i);
           return Values{-s / 3};
         }});
  check({"relax.nn.cross_entropy_with_logits",
         "R.nn.cross_entropy_with_logits(x0, x1)",
         {rnd({5}, 986), rnd({5}, 987)},
         F32,
         {},
         [](const std::vector<HostArray>& in) {
           double s = 0;
           for (int64_t i = 0; i < in[0].size(); ++i) s += in[0].get(i) * in[1].get(i);
           return Values{-s};
         }});
  // nll_loss_backward
  for (std::string red : {"mean", "sum", "none"}) {
    Shape gshape = red == "none" ? Shape{3, 2} : Shape{};
    check({"relax.grad.nll_loss_backward",
           "R.grad.nll_loss_backward(x0, x1, x2, x3, reduction=\"" + red + "\", ignore_index=1)",
           {rnd(gshape, 988), p, t, w},
           F32,
           p.shape,
           [red](const std::vector<HostArray>& in) {
             return ref_nll_grad(in[0], in[1], in[2], &in[3], red, 1);
           }});
  }
  check({"relax.grad.nll_loss_backward",
         "R.grad.nll_loss_backward(x0, x1, x2)",
         {rnd({}, 989), rnd({4, 3}, 990), ints({4}, {2, 0, 1, 2})},
         F32,
         {4, 3},
         [](const std::vector<HostArray>& in) {
           return ref_nll_grad(in[0], in[1], in[2], nullptr, "mean", -100);
         }});
  // take_backward
  check({"relax.grad.take_backward",
         "R.grad.take_backward(x0, x1, x2, axis=1)",
         {rnd({2, 2, 2, 3}, 991), rnd({2, 4, 3}, 992), ints({2, 2}, {3, 0, 3, 1})},
         F32,
         {2, 4, 3},
         [](const std::vector<HostArray>& in) {
           Values out(24, 0.0);
           for_each(in[0].shape, [&](const Shape& o) {
             int64_t a = in[2].i[static_cast<size_t>(o[1] * 2 + o[2])];
             out[static_cast<size_t>(ravel({o[0], a, o[3]}, {2, 4, 3}))] +=
                 in[0].get(ravel(o, in[0].shape));
           });
           return out;
         }});
  check({"relax.grad.take_backward",
         "R.grad.take_backward(x0, x1, x2)",
         {rnd({4}, 993), rnd({2, 3}, 994), ints({4}, {5, 0, 5, 2}, DataType::Int32())},
         F32,
         {2, 3},
         [](const std::vector<HostArray>& in) {
           Values out(6, 0.0);
           for (size_t j = 0; j < 4; ++j)
             out[static_cast<size_t>(in[2].i[j])] += in[0].get(static_cast<int64_t>(j));
           return out;
         }});
}

}  // namespace relax::legalize_test

TEST_CASE("legalize numerics: conv3d, transposed convolutions, 3-D/adaptive pools, pool grads") {
  conv_transpose_pool3d_cases();
}

TEST_CASE("legalize numerics: attention, resize2d, nll_loss, cross entropy, loss/take grads") {
  attention_loss_resize_cases();
}

TEST_CASE("legalize nn: attribute values without a legalization are reported as E0742") {
  auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), "float32"), w: R.Tensor((2, 2, 3, 3), "float32"), q: R.Tensor((1, 3, 4, 8), "float32"), k: R.Tensor((1, 3, 2, 8), "float32"), xh: R.Tensor((1, 4, 4, 2), "float32")):
        a = R.image.resize2d(x, R.shape([6, 6]), layout="NHWC")
        b = R.nn.avg_pool2d(x, pool_size=[2, 2], dilation=[2, 2])
        c = R.nn.conv2d_transpose(xh, w, data_layout="NHWC")
        d = R.nn.attention(q, k, k)
        e = R.grad.max_pool2d_backward(x, x, pool_size=[1, 1], dilation=[2, 2])
        f = R.image.resize2d(x, R.shape([6, 6]), method="nearest_neighbor")
        return (a, b, c, d, e, f)
)");
  INFO(r.text);
  std::vector<std::string> codes;
  for (const auto& d : r.diags.items()) codes.push_back(d.code);
  // b, d and e; resize2d and the transposed convolution in NHWC go through transposing stages.
  CHECK(std::count(codes.begin(), codes.end(), "E0742") == 3);
  CHECK(r.text.find("R.call_tir(cls.resize2d, (x,)") != std::string::npos);
  CHECK(r.text.find("R.call_tir(cls.conv2d_transpose, (xh, w)") != std::string::npos);
}

TEST_CASE("legalize nn: symbolic batch and spatial sizes legalize") {
  auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 2, "hh", "ww"), "float32"), w: R.Tensor((2, 3, 3, 3), "float32"), v: R.Tensor(("n", 2, 4, "hh", "ww"), "float32"), q: R.Tensor(("n", "s", 2, 8), "float32"), p: R.Tensor(("n", 5), "float32"), t: R.Tensor(("n",), "int64"), qh: R.Tensor(("n", "s", "nh", 8), "float32")):
        a = R.nn.conv2d_transpose(x, w, strides=[2, 2], padding=[1, 1])
        b = R.nn.max_pool3d(v, pool_size=[2, 2, 2], strides=[2, 2, 2], ceil_mode=True)
        c = R.nn.avg_pool3d(v, pool_size=[2, 2, 2], padding=[1, 1, 1])
        d = R.nn.attention(q, q, q, causal_mask="BottomRight")
        e = R.image.resize2d(x, R.shape([6, 6]))
        f = R.nn.nll_loss(p, t)
        h = R.nn.attention(qh, qh, qh)
        m = R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2])
        g = R.grad.max_pool2d_backward(m, x, pool_size=[2, 2], strides=[2, 2])
        return (a, b, c, d, e, f, g, h)
)");
  INFO(r.text);
  CHECK(r.diags.empty());
  for (const char* name : {"conv2d_transpose", "max_pool3d", "avg_pool3d", "attention", "resize2d",
                           "nll_loss", "max_pool2d_backward", "attention1"})
    CHECK(r.text.find(std::string("R.call_tir(cls.") + name) != std::string::npos);
}

TEST_CASE("legalize nn: symbolic-shape PrimFuncs compute what the static ones do") {
  auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 2, "hh", "ww"), "float32"), w: R.Tensor((2, 3, 3, 3), "float32"), v: R.Tensor(("n", 2, "dd", "hh", "ww"), "float32"), q: R.Tensor(("n", "s", 2, 4), "float32"), k: R.Tensor(("n", "t", 2, 4), "float32")):
        a = R.nn.conv2d_transpose(x, w, strides=[2, 2], padding=[1, 1], output_padding=[1, 0])
        b = R.nn.max_pool3d(v, pool_size=[2, 2, 2], strides=[2, 2, 2], ceil_mode=True)
        c = R.nn.attention(q, k, k, causal_mask="BottomRight")
        return (a, b, c)
)");
  INFO(r.text);
  REQUIRE(r.diags.empty());
  HostArray x = rnd({1, 2, 3, 4}, 1001), w = rnd({2, 3, 3, 3}, 1002);
  HostArray v = rnd({1, 2, 3, 5, 4}, 1003);
  HostArray q = rnd({1, 3, 2, 4}, 1004), k = rnd({1, 5, 2, 4}, 1005);
  auto a = run_func(*called_prim_func(*r.module, "main", 0), {x, w}, F32, {1, 3, 6, 7});
  CHECK(compare(a, ref_conv_transpose(x, w, {1, 3, 6, 7}, {2, 2}, {1, 1}, {1, 1}, 1), 1e-5, 1e-5) ==
        "");
  auto b = run_func(*called_prim_func(*r.module, "main", 1), {v}, F32, {1, 2, 2, 3, 2});
  CHECK(compare(b, ref_pool(v, {1, 2, 2, 3, 2}, {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {0, 0, 0},
                            {1, 1, 1}, true, false)) == "");
  auto c = run_func(*called_prim_func(*r.module, "main", 2), {q, k, k}, F32, {1, 3, 2, 4});
  CHECK(compare(c, ref_attention(q, k, k, nullptr, 0.5, 2)) == "");
}

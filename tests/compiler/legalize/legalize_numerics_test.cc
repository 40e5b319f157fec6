// Numerics of every legalized op: each op's PrimFunc runs in the TIR interpreter on small random
// inputs and is compared with an independent C++ reference computed here in double precision.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>

#include "analysis/ops/op_registry.h"
#include "compiler/legalize/legalize.h"
#include "compiler/tir_eval/tir_eval.h"
#include "tests/compiler/legalize/numerics_groups.h"
#include "tests/compiler/legalize/numerics_util.h"

using namespace relax;
using namespace relax::legalize_test;

namespace relax::legalize_test {

// legalize numerics: unary math and activations
void unary_cases() {
  struct U {
    const char* op;
    std::function<double(double)> f;
    double lo, hi;
  };
  std::vector<U> ops = {
      {"exp", [](double v) { return std::exp(v); }, -2, 2},
      {"log", [](double v) { return std::log(v); }, 0.1, 4},
      {"sqrt", [](double v) { return std::sqrt(v); }, 0.1, 4},
      {"rsqrt", [](double v) { return 1 / std::sqrt(v); }, 0.1, 4},
      {"tanh", [](double v) { return std::tanh(v); }, -2, 2},
      {"sigmoid", sigmoid, -4, 4},
      {"erf", [](double v) { return std::erf(v); }, -2, 2},
      {"sin", [](double v) { return std::sin(v); }, -2, 2},
      {"cos", [](double v) { return std::cos(v); }, -2, 2},
      {"tan", [](double v) { return std::tan(v); }, -1, 1},
      {"sinh", [](double v) { return std::sinh(v); }, -2, 2},
      {"cosh", [](double v) { return std::cosh(v); }, -2, 2},
      {"asin", [](double v) { return std::asin(v); }, -0.9, 0.9},
      {"acos", [](double v) { return std::acos(v); }, -0.9, 0.9},
      {"atan", [](double v) { return std::atan(v); }, -2, 2},
      {"asinh", [](double v) { return std::asinh(v); }, -2, 2},
      {"acosh", [](double v) { return std::acosh(v); }, 1.1, 4},
      {"atanh", [](double v) { return std::atanh(v); }, -0.9, 0.9},
      {"floor", [](double v) { return std::floor(v); }, -3, 3},
      {"ceil", [](double v) { return std::ceil(v); }, -3, 3},
      {"round", [](double v) { return std::nearbyint(v); }, -3, 3},
      {"trunc", [](double v) { return std::trunc(v); }, -3, 3},
      {"abs", [](double v) { return std::fabs(v); }, -3, 3},
      {"negative", [](double v) { return -v; }, -3, 3},
      {"square", [](double v) { return v * v; }, -3, 3},
      {"sign", [](double v) { return v > 0   ? 1.0
                                     : v < 0 ? -1.0
                                             : 0.0; }, -3, 3},
      {"nn.relu", [](double v) { return std::max(v, 0.0); }, -3, 3},
      {"nn.gelu", [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }, -3, 3},
      {"nn.gelu_tanh",
       [](double v) {
         return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
       },
       -3, 3},
      {"nn.silu", [](double v) { return v * sigmoid(v); }, -3, 3},
      {"nn.selu",
       [](double v) {
         return 1.0507009873554805 * (v > 0 ? v : 1.6732632423543772 * (std::exp(v) - 1));
       },
       -3, 3},
      {"nn.leakyrelu", [](double v) { return v > 0 ? v : 0.01 * v; }, -3, 3},
      {"nn.softplus", [](double v) { return std::log1p(std::exp(v)); }, -3, 3},
  };
  uint32_t seed = 1;
  for (const auto& u : ops) {
    Case c;
    c.op = std::string("relax.") + u.op;
    c.call = std::string("R.") + u.op + "(x0)";
    c.inputs = {rnd({2, 3, 4}, seed++, u.lo, u.hi)};
    c.out_shape = {2, 3, 4};
    auto f = u.f;
    c.ref = [f](const std::vector<HostArray>& in) { return map1(in[0], f); };
    c.atol = 1e-6;
    check(c);
  }
  Case clip{"relax.clip",
            "R.clip(x0, R.prim_value(-1), R.prim_value(1))",
            {rnd({5, 3}, 77)},
            F32,
            {5, 3},
            [](const std::vector<HostArray>& in) {
              return map1(in[0], [](double v) { return std::clamp(v, -1.0, 1.0); });
            }};
  check(clip);
  Case cast{"relax.astype",
            "R.astype(x0, \"int32\")",
            {rnd({4, 3}, 78, -5, 5)},
            DataType::Int32(),
            {4, 3},
            [](const std::vector<HostArray>& in) {
              return map1(in[0], [](double v) { return std::trunc(v); });
            }};
  check(cast);
  check({"relax.wrap_param",
         "R.wrap_param(x0, dtype=\"float16\")",
         {rnd({3}, 79, -2, 2, DataType::Float32())},
         DataType::Float(16),
         {3},
         [](const std::vector<HostArray>& in) { return map1(in[0], [](double v) { return v; }); },
         1e-3,
         1e-3});
  Case isnan{
      "relax.isnan",
      "R.isnan(x0)",
      {rnd({4}, 79)},
      DataType::Bool(),
      {4},
      [](const std::vector<HostArray>& in) { return map1(in[0], [](double) { return 0.0; }); }};
  check(isnan);
  HostArray special(F32, {4});
  special.f = {1.0, INFINITY, -INFINITY, NAN};
  Case isinf{"relax.isinf", "R.isinf(x0)",
             {special},     DataType::Bool(),
             {4},           [](const std::vector<HostArray>&) { return Values{0, 1, 1, 0}; }};
  check(isinf);
  Case isfinite{"relax.isfinite",
                "R.isfinite(x0)",
                {special},
                DataType::Bool(),
                {4},
                [](const std::vector<HostArray>&) {
                  return Values{1, 0, 0, 0};
                }};
  check(isfinite);
  Case isnan2{"relax.isnan", "R.isnan(x0)",
              {special},     DataType::Bool(),
              {4},           [](const std::vector<HostArray>&) { return Values{0, 0, 0, 1}; }};
  check(isnan2);
  Case bnot{"relax.bitwise_not",
            "R.bitwise_not(x0)",
            {rnd({5}, 81, -9, 9, DataType::Int32())},
            DataType::Int32(),
            {5},
            [](const std::vector<HostArray>& in) {
              return map1(in[0], [](double v) { return double(~int64_t(v)); });
            }};
  check(bnot);
  Case lnot{"relax.logical_not",
            "R.logical_not(x0)",
            {rnd({6}, 80, 0, 2, DataType::Bool())},
            DataType::Bool(),
            {6},
            [](const std::vector<HostArray>& in) {
              return map1(in[0], [](double v) { return v == 0 ? 1.0 : 0.0; });
            }};
  check(lnot);
}

// legalize numerics: binary arithmetic and comparisons with broadcasting
void binary_cases() {
  struct B {
    const char* op;
    std::function<double(double, double)> f;
    DataType out;
    double lo = -3, hi = 3;
  };
  const DataType BOOL = DataType::Bool();
  std::vector<B> ops = {
      {"add", [](double a, double b) { return a + b; }, F32},
      {"subtract", [](double a, double b) { return a - b; }, F32},
      {"multiply", [](double a, double b) { return a * b; }, F32},
      {"divide", [](double a, double b) { return a / b; }, F32, 0.5, 3},
      {"floor_divide", [](double a, double b) { return std::floor(a / b); }, F32, 0.5, 3},
      {"power", [](double a, double b) { return std::pow(a, b); }, F32, 0.5, 2},
      {"floor_mod", [](double a, double b) { return a - std::floor(a / b) * b; }, F32, 0.5, 3},
      {"minimum", [](double a, double b) { return std::min(a, b); }, F32},
      {"maximum", [](double a, double b) { return std::max(a, b); }, F32},
      {"atan2", [](double a, double b) { return std::atan2(a, b); }, F32},
      {"log_add_exp", [](double a, double b) { return std::log(std::exp(a) + std::exp(b)); }, F32},
      {"equal", [](double a, double b) { return a == b ? 1.0 : 0.0; }, BOOL},
      {"not_equal", [](double a, double b) { return a != b ? 1.0 : 0.0; }, BOOL},
      {"less", [](double a, double b) { return a < b ? 1.0 : 0.0; }, BOOL},
      {"less_equal", [](double a, double b) { return a <= b ? 1.0 : 0.0; }, BOOL},
      {"greater", [](double a, double b) { return a > b ? 1.0 : 0.0; }, BOOL},
      {"greater_equal", [](double a, double b) { return a >= b ? 1.0 : 0.0; }, BOOL},
  };
  uint32_t seed = 100;
  for (const auto& o : ops) {
    Case c;
    c.op = std::string("relax.") + o.op;
    c.call = std::string("R.") + o.op + "(x0, x1)";
    c.inputs = {rnd({2, 1, 4}, seed++, o.lo, o.hi), rnd({3, 1}, seed++, o.lo, o.hi)};
    c.out_dtype = o.out;
    c.out_shape = {2, 3, 4};
    auto f = o.f;
    c.ref = [f](const std::vector<HostArray>& in) { return map2(in[0], in[1], {2, 3, 4}, f); };
    check(c);
  }
  // Integer ops on int32.
  const DataType I32 = DataType::Int32();
  struct I {
    const char* op;
    std::function<double(double, double)> f;
    DataType out;
  };
  std::vector<I> iops = {
      {"mod", [](double a, double b) { return std::fmod(a, b); }, I32},
      {"floor_divide", [](double a, double b) { return std::floor(a / b); }, I32},
      {"floor_mod", [](double a, double b) { return a - std::floor(a / b) * b; }, I32},
      {"bitwise_and", [](double a, double b) { return double(int64_t(a) & int64_t(b)); }, I32},
      {"bitwise_or", [](double a, double b) { return double(int64_t(a) | int64_t(b)); }, I32},
      {"bitwise_xor", [](double a, double b) { return double(int64_t(a) ^ int64_t(b)); }, I32},
      {"logical_and", [](double a, double b) { return (a != 0 && b != 0) ? 1.0 : 0.0; }, BOOL},
      {"logical_or", [](double a, double b) { return (a != 0 || b != 0) ? 1.0 : 0.0; }, BOOL},
      {"logical_xor", [](double a, double b) { return ((a != 0) != (b != 0)) ? 1.0 : 0.0; }, BOOL},
  };
  for (const auto& o : iops) {
    Case c;
    c.op = std::string("relax.") + o.op;
    c.call = std::string("R.") + o.op + "(x0, x1)";
    bool logical = std::string(o.op).rfind("logical", 0) == 0;
    DataType in_t = logical ? BOOL : I32;
    c.inputs = {rnd({3, 4}, seed++, -9, 9, in_t), rnd({4}, seed++, 1, 5, in_t)};
    c.out_dtype = o.out;
    c.out_shape = {3, 4};
    auto f = o.f;
    c.ref = [f](const std::vector<HostArray>& in) { return map2(in[0], in[1], {3, 4}, f); };
    check(c);
  }
  Case shl{"relax.left_shift",
           "R.left_shift(x0, x1)",
           {rnd({4}, 200, 0, 9, I32), rnd({4}, 201, 0, 4, I32)},
           I32,
           {4},
           [](const std::vector<HostArray>& in) {
             return map2(in[0], in[1], {4},
                         [](double a, double b) { return double(int64_t(a) << int64_t(b)); });
           }};
  check(shl);
  Case shr{"relax.right_shift",
           "R.right_shift(x0, x1)",
           {rnd({4}, 202, 0, 99, I32), rnd({4}, 203, 0, 4, I32)},
           I32,
           {4},
           [](const std::vector<HostArray>& in) {
             return map2(in[0], in[1], {4},
                         [](double a, double b) { return double(int64_t(a) >> int64_t(b)); });
           }};
  check(shr);
  {
    // An R.Prim operand: a scalar parameter of the PrimFunc.
    auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), "float32"), s: R.Prim("float32")):
        y = R.multiply(x, s)
        z = R.add(x, R.prim_value(T.float32(1.5)))
        return (y, z)
)");
    INFO(r.text);
    auto mul = called_prim_func(*r.module, "main", 0);
    REQUIRE(mul->params.size() == 3);
    CHECK(!mul->buffer_of(mul->params[1]));
    HostArray x3 = rnd({3}, 210);
    HostArray out(F32, {3});
    compiler::tir_eval::run(*mul, {&x3, compiler::tir_eval::Scalar::of_float(F32, -2.0), &out});
    CHECK(compare(out, map1(x3, [](double v) { return -2 * v; })) == "");
    auto addc = called_prim_func(*r.module, "main", 1);
    REQUIRE(addc->params.size() == 2);
    CHECK(r.text.find("y = R.call_tir(cls.multiply, (x, s),") != std::string::npos);
    HostArray out2(F32, {3});
    compiler::tir_eval::run(*addc, {&x3, &out2});
    CHECK(compare(out2, map1(x3, [](double v) { return v + 1.5; })) == "");
  }
  Case where{"relax.where",
             "R.where(x0, x1, x2)",
             {rnd({2, 3}, 204, 0, 2, BOOL), rnd({3}, 205), rnd({2, 1}, 206)},
             F32,
             {2, 3},
             [](const std::vector<HostArray>& in) {
               Values v;
               for (int64_t k = 0; k < 6; ++k) {
                 Shape oi = unravel(k, {2, 3});
                 v.push_back(bget(in[0], oi) != 0 ? bget(in[1], oi) : bget(in[2], oi));
               }
               return v;
             }};
  check(where);
}

namespace {

// Reference reduction of `x` over `axes` with keepdims=false.
Values ref_reduce(const HostArray& x, const std::vector<int64_t>& axes, double init,
                  const std::function<double(double, double)>& f, Shape* out_shape = nullptr) {
  Shape os;
  for (size_t d = 0; d < x.shape.size(); ++d)
    if (std::find(axes.begin(), axes.end(), int64_t(d)) == axes.end()) os.push_back(x.shape[d]);
  Values out(static_cast<size_t>(numel(os)), init);
  for (int64_t k = 0; k < x.size(); ++k) {
    Shape idx = unravel(k, x.shape), oi;
    for (size_t d = 0; d < idx.size(); ++d)
      if (std::find(axes.begin(), axes.end(), int64_t(d)) == axes.end()) oi.push_back(idx[d]);
    double& o = out[static_cast<size_t>(ravel(oi, os))];
    o = f(o, x.get(k));
  }
  if (out_shape) *out_shape = os;
  return out;
}

}  // namespace

// legalize numerics: reductions
void reduction_cases() {
  auto add = [](double a, double b) { return a + b; };
  HostArray x = rnd({2, 3, 4}, 300, 0.5, 1.5);
  struct R {
    const char* op;
    double init;
    std::function<double(double, double)> f;
  };
  std::vector<R> ops = {{"sum", 0, add},
                        {"prod", 1, [](double a, double b) { return a * b; }},
                        {"max", -1e300, [](double a, double b) { return std::max(a, b); }},
                        {"min", 1e300, [](double a, double b) { return std::min(a, b); }}};
  for (const auto& o : ops) {
    for (bool keep : {false, true}) {
      Case c;
      c.op = std::string("relax.") + o.op;
      c.call = std::string("R.") + o.op +
               "(x0, axis=[0, 2], keepdims=" + (keep ? "True" : "False") + ")";
      c.inputs = {x};
      c.out_shape = keep ? Shape{1, 3, 1} : Shape{3};
      auto oo = o;
      c.ref = [oo](const std::vector<HostArray>& in) {
        return ref_reduce(in[0], {0, 2}, oo.init, oo.f);
      };
      check(c);
    }
    Case all;
    all.op = std::string("relax.") + o.op;
    all.call = std::string("R.") + o.op + "(x0)";
    all.inputs = {x};
    all.out_shape = {};
    auto oo = o;
    all.ref = [oo](const std::vector<HostArray>& in) {
      return ref_reduce(in[0], {0, 1, 2}, oo.init, oo.f);
    };
    check(all);
  }
  Case mean{"relax.mean",
            "R.mean(x0, axis=[1])",
            {x},
            F32,
            {2, 4},
            [add](const std::vector<HostArray>& in) {
              Values s = ref_reduce(in[0], {1}, 0, add);
              for (double& v : s) v /= 3;
              return s;
            }};
  check(mean);
  auto var_ref = [add](const HostArray& in, bool is_std) {
    Values mean = ref_reduce(in, {2}, 0, add);
    for (double& v : mean) v /= 4;
    Values out(mean.size(), 0);
    for (int64_t k = 0; k < in.size(); ++k) {
      Shape idx = unravel(k, in.shape);
      size_t o = static_cast<size_t>(idx[0] * 3 + idx[1]);
      double d = in.get(k) - mean[o];
      out[o] += d * d;
    }
    for (double& v : out) v = is_std ? std::sqrt(v / 4) : v / 4;
    return out;
  };
  Case var{"relax.variance",
           "R.variance(x0, axis=[2])",
           {x},
           F32,
           {2, 3},
           [var_ref](const std::vector<HostArray>& in) { return var_ref(in[0], false); },
           1e-4,
           1e-6};
  check(var);
  Case sd{"relax.std", "R.std(x0, axis=[2])",
          {x},         F32,
          {2, 3},      [var_ref](const std::vector<HostArray>& in) { return var_ref(in[0], true); },
          1e-4,        1e-6};
  check(sd);
}

namespace {

// Batched matmul reference: a (..., n, k) @ b (..., k, m) with broadcast batch dims (rank >= 2).
Values ref_matmul(const HostArray& a, const HostArray& b, const Shape& out) {
  size_t ro = out.size();
  int64_t n = out[ro - 2], m = out[ro - 1], kk = a.shape.back();
  Values v;
  for (int64_t f = 0; f < numel(out); ++f) {
    Shape oi = unravel(f, out);
    double s = 0;
    for (int64_t k = 0; k < kk; ++k) {
      Shape ai = oi, bi = oi;
      ai[ro - 1] = k;
      bi[ro - 2] = k;
      (void)n;
      (void)m;
      s += bget(a, ai) * bget(b, bi);
    }
    v.push_back(s);
  }
  return v;
}

}  // namespace

// legalize numerics: matmul, batched and 1-D
void matmul_cases() {
  Case m2{"relax.matmul",
          "R.matmul(x0, x1)",
          {rnd({3, 5}, 400), rnd({5, 4}, 401)},
          F32,
          {3, 4},
          [](const std::vector<HostArray>& in) {
            return ref_matmul(in[0], in[1], {3, 4});
          },
          1e-5,
          1e-5};
  check(m2);
  Case mb{"relax.matmul",
          "R.matmul(x0, x1)",
          {rnd({2, 1, 3, 5}, 402), rnd({3, 5, 2}, 403)},
          F32,
          {2, 3, 3, 2},
          [](const std::vector<HostArray>& in) {
            return ref_matmul(in[0], in[1], {2, 3, 3, 2});
          },
          1e-5,
          1e-5};
  check(mb);
  Case mv{"relax.matmul",
          "R.matmul(x0, x1)",
          {rnd({3, 5}, 404), rnd({5}, 405)},
          F32,
          {3},
          [](const std::vector<HostArray>& in) {
            HostArray b = in[1];
            b.shape = {5, 1};
            return ref_matmul(in[0], b, {3, 1});
          },
          1e-5,
          1e-5};
  check(mv);
  Case vm{"relax.matmul",
          "R.matmul(x0, x1)",
          {rnd({5}, 406), rnd({2, 5, 3}, 407)},
          F32,
          {2, 3},
          [](const std::vector<HostArray>& in) {
            HostArray a = in[0];
            a.shape = {1, 5};
            return ref_matmul(a, in[1], {2, 1, 3});
          },
          1e-5,
          1e-5};
  check(vm);
  Case vv{"relax.matmul",
          "R.matmul(x0, x1)",
          {rnd({5}, 408), rnd({5}, 409)},
          F32,
          {},
          [](const std::vector<HostArray>& in) {
            double s = 0;
            for (int64_t k = 0; k < 5; ++k) s += in[0].get(k) * in[1].get(k);
            return Values{s};
          },
          1e-5,
          1e-5};
  check(vv);
}

// legalize numerics: softmax, log_softmax, layer_norm, rms_norm
void softmax_norm_cases() {
  HostArray x = rnd({2, 3, 4}, 500, -3, 3);
  auto softmax_ref = [](const HostArray& in, int axis, bool log) {
    Values out(static_cast<size_t>(in.size()));
    for (int64_t k = 0; k < in.size(); ++k) {
      Shape idx = unravel(k, in.shape);
      double mx = -1e300, s = 0;
      for (int64_t j = 0; j < in.shape[axis]; ++j) {
        Shape o = idx;
        o[axis] = j;
        mx = std::max(mx, in.get(ravel(o, in.shape)));
      }
      for (int64_t j = 0; j < in.shape[axis]; ++j) {
        Shape o = idx;
        o[axis] = j;
        s += std::exp(in.get(ravel(o, in.shape)) - mx);
      }
      double v = in.get(k) - mx;
      out[static_cast<size_t>(k)] = log ? v - std::log(s) : std::exp(v) / s;
    }
    return out;
  };
  Case sm{"relax.nn.softmax",
          "R.nn.softmax(x0, axis=1)",
          {x},
          F32,
          {2, 3, 4},
          [softmax_ref](const std::vector<HostArray>& in) { return softmax_ref(in[0], 1, false); }};
  check(sm);
  Case lsm{"relax.nn.log_softmax",
           "R.nn.log_softmax(x0)",
           {x},
           F32,
           {2, 3, 4},
           [softmax_ref](const std::vector<HostArray>& in) { return softmax_ref(in[0], 2, true); },
           1e-5,
           1e-5};
  check(lsm);
  Case ln{"relax.nn.layer_norm",
          "R.nn.layer_norm(x0, x1, x2, axes=[-1], epsilon=1e-5)",
          {x, rnd({4}, 501), rnd({4}, 502)},
          F32,
          {2, 3, 4},
          [](const std::vector<HostArray>& in) {
            Values out;
            for (int64_t k = 0; k < in[0].size(); ++k) {
              int64_t row = k / 4, col = k % 4;
              double mean = 0, var = 0;
              for (int j = 0; j < 4; ++j) mean += in[0].get(row * 4 + j) / 4;
              for (int j = 0; j < 4; ++j) var += std::pow(in[0].get(row * 4 + j) - mean, 2) / 4;
              out.push_back((in[0].get(k) - mean) / std::sqrt(var + 1e-5) * in[1].get(col) +
                            in[2].get(col));
            }
            return out;
          },
          1e-4,
          1e-5};
  check(ln);
  Case rms{"relax.nn.rms_norm",
           "R.nn.rms_norm(x0, x1, axes=[-1])",
           {x, rnd({4}, 503)},
           F32,
           {2, 3, 4},
           [](const std::vector<HostArray>& in) {
             Values out;
             for (int64_t k = 0; k < in[0].size(); ++k) {
               int64_t row = k / 4, col = k % 4;
               double ms = 0;
               for (int j = 0; j < 4; ++j) ms += std::pow(in[0].get(row * 4 + j), 2) / 4;
               out.push_back(in[0].get(k) / std::sqrt(ms + 1e-5) * in[1].get(col));
             }
             return out;
           },
           1e-5,
           1e-6};
  check(rms);
}

namespace {

// out[oi] = x[src(oi)] for index-permuting ops.
Values gather(const HostArray& x, const Shape& out, const std::function<Shape(const Shape&)>& src) {
  Values v;
  for (int64_t k = 0; k < numel(out); ++k) v.push_back(x.get(ravel(src(unravel(k, out)), x.shape)));
  return v;
}

}  // namespace

// legalize numerics: manipulation and indexing
void manipulation_cases() {
  HostArray x = rnd({2, 3, 4}, 600);
  auto same_flat = [](const std::vector<HostArray>& in) {
    return map1(in[0], [](double v) { return v; });
  };
  check({"relax.reshape", "R.reshape(x0, R.shape([4, 6]))", {x}, F32, {4, 6}, same_flat});
  check({"relax.flatten", "R.flatten(x0)", {x}, F32, {24}, same_flat});
  check({"relax.nn.batch_flatten", "R.nn.batch_flatten(x0)", {x}, F32, {2, 12}, same_flat});
  check({"relax.expand_dims",
         "R.expand_dims(x0, axis=[1, -1])",
         {x},
         F32,
         {2, 1, 3, 4, 1},
         same_flat});
  check({"relax.squeeze", "R.squeeze(x0)", {rnd({1, 3, 1, 2}, 601)}, F32, {3, 2}, same_flat});
  check({"relax.squeeze",
         "R.squeeze(x0, axis=[2])",
         {rnd({1, 3, 1, 2}, 602)},
         F32,
         {1, 3, 2},
         same_flat});
  check({"relax.permute_dims",
         "R.permute_dims(x0, axes=[2, 0, 1])",
         {x},
         F32,
         {4, 2, 3},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {4, 2, 3}, [](const Shape& o) { return Shape{o[1], o[2], o[0]}; });
         }});
  check({"relax.permute_dims",
         "R.permute_dims(x0)",
         {x},
         F32,
         {4, 3, 2},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {4, 3, 2}, [](const Shape& o) { return Shape{o[2], o[1], o[0]}; });
         }});
  check({"relax.broadcast_to",
         "R.broadcast_to(x0, R.shape([2, 3, 4]))",
         {rnd({3, 1}, 603)},
         F32,
         {2, 3, 4},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {2, 3, 4}, [](const Shape& o) { return Shape{o[1], 0}; });
         }});
  check({"relax.flip",
         "R.flip(x0, axis=1)",
         {x},
         F32,
         {2, 3, 4},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {2, 3, 4}, [](const Shape& o) {
             return Shape{o[0], 2 - o[1], o[2]};
           });
         }});
  check({"relax.tile",
         "R.tile(x0, repeats=[2, 1])",
         {rnd({2, 3}, 604)},
         F32,
         {4, 3},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {4, 3}, [](const Shape& o) { return Shape{o[0] % 2, o[1]}; });
         }});
  check({"relax.repeat",
         "R.repeat(x0, repeats=2, axis=1)",
         {rnd({2, 3}, 605)},
         F32,
         {2, 6},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {2, 6}, [](const Shape& o) { return Shape{o[0], o[1] / 2}; });
         }});
  check({"relax.repeat",
         "R.repeat(x0, repeats=2)",
         {rnd({2, 3}, 606)},
         F32,
         {12},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {12}, [](const Shape& o) {
             return Shape{o[0] / 2 / 3, (o[0] / 2) % 3};
           });
         }});
  check({"relax.concat",
         "R.concat((x0, x1, x2), axis=1)",
         {rnd({2, 1}, 607), rnd({2, 3}, 608), rnd({2, 2}, 609)},
         F32,
         {2, 6},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t i = 0; i < 2; ++i)
             for (int64_t j = 0; j < 6; ++j)
               v.push_back(j < 1   ? in[0].get(i)
                           : j < 4 ? in[1].get(i * 3 + j - 1)
                                   : in[2].get(i * 2 + j - 4));
           return v;
         }});
  HostArray idx(DataType::Int64(), {2, 2});
  idx.i = {2, 0, 1, 2};
  check({"relax.take",
         "R.take(x0, x1, axis=1)",
         {x, idx},
         F32,
         {2, 2, 2, 4},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {2, 2, 2, 4}, [&](const Shape& o) {
             return Shape{o[0], in[1].i[static_cast<size_t>(o[1] * 2 + o[2])], o[3]};
           });
         }});
  HostArray idx1(DataType::Int32(), {3});
  idx1.i = {3, 0, 3};
  check({"relax.take",
         "R.take(x0, x1)",
         {rnd({5}, 610), idx1},
         F32,
         {3},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {3},
                         [&](const Shape& o) { return Shape{in[1].i[static_cast<size_t>(o[0])]}; });
         }});
  check({"relax.strided_slice",
         "R.strided_slice(x0, axes=[1, 2], begin=[1, -1], end=[3, 0], strides=[1, -2])",
         {x},
         F32,
         {2, 2, 2},
         [](const std::vector<HostArray>& in) {
           return gather(in[0], {2, 2, 2}, [](const Shape& o) {
             return Shape{o[0], 1 + o[1], 3 - 2 * o[2]};
           });
         }});
}

// legalize numerics: creation ops
void creation_cases() {
  auto constant = [](double c, int64_t n) {
    return [c, n](const std::vector<HostArray>&) { return Values(size_t(n), c); };
  };
  check({"relax.zeros", "R.zeros(R.shape([2, 3]), \"float32\")", {}, F32, {2, 3}, constant(0, 6)});
  check({"relax.ones",
         "R.ones(R.shape([2, 3]), \"int32\")",
         {},
         DataType::Int32(),
         {2, 3},
         constant(1, 6)});
  check({"relax.full",
         "R.full(R.shape([4]), R.const(2.5, \"float32\"))",
         {},
         F32,
         {4},
         constant(2.5, 4)});
  check({"relax.zeros_like", "R.zeros_like(x0)", {rnd({3}, 700)}, F32, {3}, constant(0, 3)});
  check({"relax.ones_like", "R.ones_like(x0)", {rnd({3}, 701)}, F32, {3}, constant(1, 3)});
  check({"relax.full_like",
         "R.full_like(x0, R.const(-1.0, \"float32\"))",
         {rnd({3}, 702)},
         F32,
         {3},
         constant(-1, 3)});
}

namespace {

Values ref_conv2d(const HostArray& x, const HostArray& w, Shape out, int64_t s, int64_t p,
                  int64_t d, int64_t groups) {
  Values v;
  int64_t C = x.shape[1], H = x.shape[2], W = x.shape[3], K = w.shape[0], Cg = w.shape[1],
          KH = w.shape[2], KW = w.shape[3];
  (void)C;
  for (int64_t f = 0; f < numel(out); ++f) {
    Shape o = unravel(f, out);
    int64_t g = o[1] / (K / groups);
    double acc = 0;
    for (int64_t c = 0; c < Cg; ++c)
      for (int64_t ky = 0; ky < KH; ++ky)
        for (int64_t kx = 0; kx < KW; ++kx) {
          int64_t y = o[2] * s + ky * d - p, xx = o[3] * s + kx * d - p;
          if (y < 0 || y >= H || xx < 0 || xx >= W) continue;
          acc += x.get(ravel({o[0], g * Cg + c, y, xx}, x.shape)) *
                 w.get(ravel({o[1], c, ky, kx}, w.shape));
        }
    v.push_back(acc);
  }
  return v;
}

Values ref_pool(const HostArray& x, Shape out, int64_t k, int64_t s, int64_t p, bool is_max,
                bool include_pad) {
  Values v;
  int64_t H = x.shape[2], W = x.shape[3];
  for (int64_t f = 0; f < numel(out); ++f) {
    Shape o = unravel(f, out);
    double acc = is_max ? -1e300 : 0;
    int64_t n = 0;
    for (int64_t ky = 0; ky < k; ++ky)
      for (int64_t kx = 0; kx < k; ++kx) {
        int64_t y = o[2] * s + ky - p, xx = o[3] * s + kx - p;
        if (y < 0 || y >= H || xx < 0 || xx >= W) continue;
        double e = x.get(ravel({o[0], o[1], y, xx}, x.shape));
        acc = is_max ? std::max(acc, e) : acc + e;
        ++n;
      }
    v.push_back(is_max ? acc : acc / double(include_pad ? k * k : n));
  }
  return v;
}

// `x` with its axes reordered: dim d of the result is dim perm[d] of x.
HostArray transposed(const HostArray& x, const Shape& perm) {
  Shape shape;
  for (int64_t p : perm) shape.push_back(x.shape[static_cast<size_t>(p)]);
  HostArray out(x.dtype, shape);
  for (int64_t f = 0; f < numel(shape); ++f) {
    Shape o = unravel(f, shape), src(perm.size());
    for (size_t d = 0; d < perm.size(); ++d) src[static_cast<size_t>(perm[d])] = o[d];
    out.set(f, x.at(ravel(src, x.shape)));
  }
  return out;
}

Values values_of(const HostArray& a) {
  Values v;
  for (int64_t k = 0; k < a.size(); ++k) v.push_back(a.get(k));
  return v;
}

HostArray array_of(const Values& v, const Shape& shape) {
  HostArray out(F32, shape);
  for (int64_t k = 0; k < out.size(); ++k)
    out.set(k, compiler::tir_eval::Scalar::of_float(F32, v[static_cast<size_t>(k)]));
  return out;
}

}  // namespace

// Other layouts than NCHW / OIHW: the same computation through transposing stages.
void layout_cases() {
  HostArray x = rnd({1, 6, 6, 3}, 900);  // NHWC
  HostArray w = rnd({3, 3, 3, 4}, 901);  // HWIO
  check({"relax.nn.conv2d",
         "R.nn.conv2d(x0, x1, padding=[1, 1], data_layout=\"NHWC\", kernel_layout=\"HWIO\")",
         {x, w},
         F32,
         {1, 6, 6, 4},
         [](const std::vector<HostArray>& in) {
           HostArray xc = transposed(in[0], {0, 3, 1, 2}), wc = transposed(in[1], {3, 2, 0, 1});
           HostArray yc = array_of(ref_conv2d(xc, wc, {1, 4, 6, 6}, 1, 1, 1, 1), {1, 4, 6, 6});
           return values_of(transposed(yc, {0, 2, 3, 1}));
         },
         1e-5,
         1e-5});
  // NCHW in, NHWC out.
  check(
      {"relax.nn.conv2d",
       "R.nn.conv2d(x0, x1, out_layout=\"NHWC\")",
       {rnd({1, 3, 5, 5}, 902), rnd({2, 3, 3, 3}, 903)},
       F32,
       {1, 3, 3, 2},
       [](const std::vector<HostArray>& in) {
         HostArray yc = array_of(ref_conv2d(in[0], in[1], {1, 2, 3, 3}, 1, 0, 1, 1), {1, 2, 3, 3});
         return values_of(transposed(yc, {0, 2, 3, 1}));
       },
       1e-5,
       1e-5});
  check({"relax.nn.max_pool2d",
         "R.nn.max_pool2d(x0, pool_size=[2, 2], strides=[2, 2], layout=\"NHWC\")",
         {x},
         F32,
         {1, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           HostArray xc = transposed(in[0], {0, 3, 1, 2});
           HostArray yc = array_of(ref_pool(xc, {1, 3, 3, 3}, 2, 2, 0, true, false), {1, 3, 3, 3});
           return values_of(transposed(yc, {0, 2, 3, 1}));
         }});
}

// legalize numerics: conv2d and pooling (NCHW)
void conv_pool_cases() {
  HostArray x = rnd({1, 3, 6, 6}, 800);
  check({"relax.nn.conv2d",
         "R.nn.conv2d(x0, x1)",
         {x, rnd({4, 3, 3, 3}, 801)},
         F32,
         {1, 4, 4, 4},
         [](const std::vector<HostArray>& in) {
           return ref_conv2d(in[0], in[1], {1, 4, 4, 4}, 1, 0, 1, 1);
         },
         1e-5,
         1e-5});
  check({"relax.nn.conv2d",
         "R.nn.conv2d(x0, x1, strides=[2, 2], padding=[1, 1], dilation=[1, 1])",
         {x, rnd({2, 3, 3, 3}, 802)},
         F32,
         {1, 2, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_conv2d(in[0], in[1], {1, 2, 3, 3}, 2, 1, 1, 1);
         },
         1e-5,
         1e-5});
  check({"relax.nn.conv2d",
         "R.nn.conv2d(x0, x1, padding=[2, 2], dilation=[2, 2])",
         {x, rnd({2, 3, 3, 3}, 803)},
         F32,
         {1, 2, 6, 6},
         [](const std::vector<HostArray>& in) {
           return ref_conv2d(in[0], in[1], {1, 2, 6, 6}, 1, 2, 2, 1);
         },
         1e-5,
         1e-5});
  check({"relax.nn.conv2d",
         "R.nn.conv2d(x0, x1, groups=2)",
         {rnd({2, 4, 5, 5}, 804), rnd({6, 2, 3, 3}, 805)},
         F32,
         {2, 6, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_conv2d(in[0], in[1], {2, 6, 3, 3}, 1, 0, 1, 2);
         },
         1e-5,
         1e-5});
  check({"relax.nn.max_pool2d",
         "R.nn.max_pool2d(x0, pool_size=[2, 2], strides=[2, 2])",
         {x},
         F32,
         {1, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 3, 3, 3}, 2, 2, 0, true, false);
         }});
  check({"relax.nn.max_pool2d",
         "R.nn.max_pool2d(x0, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])",
         {x},
         F32,
         {1, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 3, 3, 3}, 3, 2, 1, true, false);
         }});
  check({"relax.nn.avg_pool2d",
         "R.nn.avg_pool2d(x0, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])",
         {x},
         F32,
         {1, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 3, 3, 3}, 3, 2, 1, false, false);
         }});
  check({"relax.nn.avg_pool2d",
         "R.nn.avg_pool2d(x0, pool_size=[3, 3], strides=[2, 2], padding=[1, 1], "
         "count_include_pad=True)",
         {x},
         F32,
         {1, 3, 3, 3},
         [](const std::vector<HostArray>& in) {
           return ref_pool(in[0], {1, 3, 3, 3}, 3, 2, 1, false, true);
         }});
  auto conv1d_ref = [](const std::vector<HostArray>& in, Shape out, int64_t s, int64_t p, int64_t d,
                       int64_t groups) {
    const HostArray &x = in[0], &w = in[1];
    int64_t W = x.shape[2], K = w.shape[0], Cg = w.shape[1], KW = w.shape[2];
    Values v;
    for (int64_t f = 0; f < numel(out); ++f) {
      Shape o = unravel(f, out);
      int64_t g = o[1] / (K / groups);
      double acc = 0;
      for (int64_t c = 0; c < Cg; ++c)
        for (int64_t k = 0; k < KW; ++k) {
          int64_t pos = o[2] * s + k * d - p;
          if (pos < 0 || pos >= W) continue;
          acc +=
              x.get(ravel({o[0], g * Cg + c, pos}, x.shape)) * w.get(ravel({o[1], c, k}, w.shape));
        }
      v.push_back(acc);
    }
    return v;
  };
  check({"relax.nn.conv1d",
         "R.nn.conv1d(x0, x1)",
         {rnd({2, 3, 7}, 808), rnd({4, 3, 3}, 809)},
         F32,
         {2, 4, 5},
         [conv1d_ref](const std::vector<HostArray>& in) {
           return conv1d_ref(in, {2, 4, 5}, 1, 0, 1, 1);
         },
         1e-5,
         1e-5});
  check({"relax.nn.conv1d",
         "R.nn.conv1d(x0, x1, strides=[2], padding=[2], dilation=[2], groups=2)",
         {rnd({1, 4, 9}, 810), rnd({6, 2, 3}, 811)},
         F32,
         {1, 6, 5},
         [conv1d_ref](const std::vector<HostArray>& in) {
           return conv1d_ref(in, {1, 6, 5}, 2, 2, 2, 2);
         },
         1e-5,
         1e-5});
  auto pool1d_ref = [](const HostArray& a, int64_t ow, int64_t k, int64_t s, int64_t p, bool is_max,
                       bool incl) {
    Values v;
    int64_t W = a.shape[2];
    for (int64_t c = 0; c < a.shape[0] * a.shape[1]; ++c)
      for (int64_t o = 0; o < ow; ++o) {
        double acc = is_max ? -1e300 : 0;
        int64_t n = 0;
        for (int64_t j = 0; j < k; ++j) {
          int64_t pos = o * s + j - p;
          if (pos < 0 || pos >= W) continue;
          acc = is_max ? std::max(acc, a.get(c * W + pos)) : acc + a.get(c * W + pos);
          ++n;
        }
        v.push_back(is_max ? acc : acc / double(incl ? k : n));
      }
    return v;
  };
  HostArray x1 = rnd({2, 3, 7}, 812);
  check({"relax.nn.max_pool1d",
         "R.nn.max_pool1d(x0, pool_size=[3], strides=[2], padding=[1])",
         {x1},
         F32,
         {2, 3, 4},
         [pool1d_ref](const std::vector<HostArray>& in) {
           return pool1d_ref(in[0], 4, 3, 2, 1, true, false);
         }});
  check({"relax.nn.avg_pool1d",
         "R.nn.avg_pool1d(x0, pool_size=[3], strides=[2], padding=[1])",
         {x1},
         F32,
         {2, 3, 4},
         [pool1d_ref](const std::vector<HostArray>& in) {
           return pool1d_ref(in[0], 4, 3, 2, 1, false, true);
         }});
  check({"relax.nn.avg_pool1d",
         "R.nn.avg_pool1d(x0, pool_size=[3], strides=[2], padding=[1], count_include_pad=False)",
         {x1},
         F32,
         {2, 3, 4},
         [pool1d_ref](const std::vector<HostArray>& in) {
           return pool1d_ref(in[0], 4, 3, 2, 1, false, false);
         }});
  // Adaptive average pooling with uneven windows (7 rows into 3, 5 columns into 2) and global.
  auto adaptive = [](const HostArray& in, int64_t oh, int64_t ow) {
    int64_t H = in.shape[2], W = in.shape[3];
    Values v;
    for (int64_t c = 0; c < in.shape[1]; ++c)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          int64_t y0 = i * H / oh, y1 = ((i + 1) * H + oh - 1) / oh, x0 = j * W / ow,
                  x1 = ((j + 1) * W + ow - 1) / ow;
          double s = 0;
          for (int64_t y = y0; y < y1; ++y)
            for (int64_t xx = x0; xx < x1; ++xx) s += in.get((c * H + y) * W + xx);
          v.push_back(s / double((y1 - y0) * (x1 - x0)));
        }
    return v;
  };
  check({"relax.nn.adaptive_avg_pool2d",
         "R.nn.adaptive_avg_pool2d(x0, output_size=[3, 2])",
         {rnd({1, 2, 7, 5}, 806)},
         F32,
         {1, 2, 3, 2},
         [adaptive](const std::vector<HostArray>& in) { return adaptive(in[0], 3, 2); }});
  check({"relax.nn.adaptive_avg_pool2d",
         "R.nn.adaptive_avg_pool2d(x0, output_size=[1, 1])",
         {rnd({1, 3, 4, 4}, 807)},
         F32,
         {1, 3, 1, 1},
         [adaptive](const std::vector<HostArray>& in) { return adaptive(in[0], 1, 1); },
         1e-5,
         1e-6});
}

// legalize numerics: remaining creation, search, scan and indexing ops
void misc_cases() {
  const DataType I64 = DataType::Int64();
  HostArray x = rnd({3, 4}, 900);
  check({"relax.ewise_fma",
         "R.ewise_fma(x0, x1, x2)",
         {x, rnd({3, 4}, 901), rnd({3, 4}, 902)},
         F32,
         {3, 4},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t k = 0; k < 12; ++k) v.push_back(in[0].get(k) * in[1].get(k) + in[2].get(k));
           return v;
         }});
  check({"relax.outer",
         "R.outer(x0, x1)",
         {rnd({3}, 903), rnd({2}, 904)},
         F32,
         {3, 2},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t i = 0; i < 3; ++i)
             for (int64_t j = 0; j < 2; ++j) v.push_back(in[0].get(i) * in[1].get(j));
           return v;
         }});
  for (int k : {-1, 0, 2}) {
    for (bool upper : {false, true}) {
      std::string op = upper ? "triu" : "tril";
      check({"relax." + op,
             "R." + op + "(x0, " + std::to_string(k) + ")",
             {x},
             F32,
             {3, 4},
             [k, upper](const std::vector<HostArray>& in) {
               Values v;
               for (int64_t i = 0; i < 3; ++i)
                 for (int64_t j = 0; j < 4; ++j) {
                   bool keep = upper ? j >= i + k : j <= i + k;
                   v.push_back(keep ? in[0].get(i * 4 + j) : 0.0);
                 }
               return v;
             }});
    }
  }
  check({"relax.arange", "R.arange(1, 10, 2)", {}, I64, {5}, [](const std::vector<HostArray>&) {
           return Values{1, 3, 5, 7, 9};
         }});
  check({"relax.arange", "R.arange(4)", {}, I64, {4}, [](const std::vector<HostArray>&) {
           return Values{0, 1, 2, 3};
         }});
  check({"relax.arange",
         "R.arange(0.5, 2.0, 0.5, \"float32\")",
         {},
         F32,
         {3},
         [](const std::vector<HostArray>&) {
           return Values{0.5, 1.0, 1.5};
         }});
  check({"relax.eye", "R.eye(2, 3, 1)", {}, F32, {2, 3}, [](const std::vector<HostArray>&) {
           return Values{0, 1, 0, 0, 0, 1};
         }});
  check({"relax.eye_like",
         "R.eye_like(x0)",
         {rnd({2, 2}, 905)},
         F32,
         {2, 2},
         [](const std::vector<HostArray>&) {
           return Values{1, 0, 0, 1};
         }});
  check({"relax.nn.prelu",
         "R.nn.prelu(x0, x1)",
         {rnd({2, 3, 2}, 906), rnd({3}, 907, 0, 1)},
         F32,
         {2, 3, 2},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t k = 0; k < 12; ++k) {
             double e = in[0].get(k);
             v.push_back(e > 0 ? e : e * in[1].get((k / 2) % 3));
           }
           return v;
         }});
  check({"relax.nn.pad",
         "R.nn.pad(x0, pad_width=[1, 0, 0, 2], pad_value=7.0)",
         {rnd({2, 2}, 908)},
         F32,
         {3, 4},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t i = 0; i < 3; ++i)
             for (int64_t j = 0; j < 4; ++j)
               v.push_back(i >= 1 && j < 2 ? in[0].get((i - 1) * 2 + j) : 7.0);
           return v;
         }});
  check({"relax.stack",
         "R.stack((x0, x1), axis=1)",
         {rnd({2, 3}, 909), rnd({2, 3}, 910)},
         F32,
         {2, 2, 3},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t i = 0; i < 2; ++i)
             for (int64_t s = 0; s < 2; ++s)
               for (int64_t j = 0; j < 3; ++j)
                 v.push_back(in[static_cast<size_t>(s)].get(i * 3 + j));
           return v;
         }});
  HostArray ind(DataType::Int32(), {3});
  ind.i = {2, 0, 1};
  check({"relax.one_hot",
         "R.one_hot(x0, R.prim_value(T.float32(5.0)), R.prim_value(T.float32(-1.0)), depth=3, "
         "axis=0)",
         {ind},
         F32,
         {3, 3},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t d = 0; d < 3; ++d)
             for (int64_t k = 0; k < 3; ++k)
               v.push_back(in[0].i[static_cast<size_t>(k)] == d ? 5.0 : -1.0);
           return v;
         }});
  HostArray ties(F32, {2, 4});
  ties.f = {1, 3, 3, 0, -2, -2, 5, -2};
  check(
      {"relax.argmax", "R.argmax(x0, axis=1)", {ties}, I64, {2}, [](const std::vector<HostArray>&) {
         return Values{1, 2};
       }});
  check({"relax.argmin",
         "R.argmin(x0, axis=1, keepdims=True)",
         {ties},
         I64,
         {2, 1},
         [](const std::vector<HostArray>&) {
           return Values{3, 0};
         }});
  check({"relax.argmax", "R.argmax(x0)", {ties}, I64, {}, [](const std::vector<HostArray>&) {
           return Values{6};
         }});
  auto scan_ref = [](const HostArray& in, bool sum, bool exclusive) {
    Values v;
    for (int64_t i = 0; i < 3; ++i) {
      double acc = sum ? 0 : 1;
      for (int64_t j = 0; j < 4; ++j) {
        double e = in.get(i * 4 + j);
        if (exclusive) v.push_back(acc);
        acc = sum ? acc + e : acc * e;
        if (!exclusive) v.push_back(acc);
      }
    }
    return v;
  };
  check({"relax.cumsum",
         "R.cumsum(x0, axis=1)",
         {x},
         F32,
         {3, 4},
         [scan_ref](const std::vector<HostArray>& in) { return scan_ref(in[0], true, false); },
         1e-5,
         1e-5});
  check({"relax.cumsum",
         "R.cumsum(x0, axis=1, exclusive=True)",
         {x},
         F32,
         {3, 4},
         [scan_ref](const std::vector<HostArray>& in) { return scan_ref(in[0], true, true); },
         1e-5,
         1e-5});
  check({"relax.cumprod",
         "R.cumprod(x0, axis=1)",
         {x},
         F32,
         {3, 4},
         [scan_ref](const std::vector<HostArray>& in) { return scan_ref(in[0], false, false); },
         1e-5,
         1e-6});
  check({"relax.cumsum",
         "R.cumsum(x0)",
         {x},
         F32,
         {12},
         [](const std::vector<HostArray>& in) {
           Values v;
           double acc = 0;
           for (int64_t k = 0; k < 12; ++k) v.push_back(acc += in[0].get(k));
           return v;
         },
         1e-5,
         1e-5});
  auto collapse_ref = [](const HostArray& in) {
    Values v(3, 0);
    for (int64_t a = 0; a < 2; ++a)
      for (int64_t b = 0; b < 3; ++b)
        for (int64_t c = 0; c < 4; ++c) v[static_cast<size_t>(b)] += in.get((a * 3 + b) * 4 + c);
    return v;
  };
  check({"relax.collapse_sum_to",
         "R.collapse_sum_to(x0, R.shape([3, 1]))",
         {rnd({2, 3, 4}, 911)},
         F32,
         {3, 1},
         [collapse_ref](const std::vector<HostArray>& in) { return collapse_ref(in[0]); },
         1e-5,
         1e-5});
  check({"relax.collapse_sum_like",
         "R.collapse_sum_like(x0, x1)",
         {rnd({2, 3, 4}, 912), rnd({3, 1}, 913)},
         F32,
         {3, 1},
         [collapse_ref](const std::vector<HostArray>& in) { return collapse_ref(in[0]); },
         1e-5,
         1e-5});
}

// legalize numerics: tuple results (split, dropout) and gathers
void tuple_gather_cases() {
  // Runs the PrimFunc of `call` on `inputs` with one output array per field of `outs`.
  auto run_multi = [](const std::string& params, const std::string& call,
                      std::vector<HostArray> inputs, std::vector<HostArray> outs) {
    auto r = legalize_text("@I.ir_module\nclass Module:\n    @R.function\n    def main(" + params +
                           "):\n        y = " + call + "\n        return y\n");
    INFO(r.text);
    auto f = called_prim_func(*r.module);
    std::vector<compiler::tir_eval::Arg> args;
    for (auto& a : inputs) args.emplace_back(&a);
    for (auto& o : outs) args.emplace_back(&o);
    compiler::tir_eval::run(*f, args);
    return outs;
  };
  HostArray x = rnd({2, 5}, 950);
  auto cols = [&](const HostArray& o, int64_t from) {
    Values v;
    int64_t w = o.shape[1];
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < w; ++j) v.push_back(x.get(i * 5 + from + j));
    return v;
  };
  auto parts =
      run_multi("x: " + tensor({2, 5}), "R.split(x, indices_or_sections=[1, 3], axis=1)", {x},
                {HostArray(F32, {2, 1}), HostArray(F32, {2, 2}), HostArray(F32, {2, 2})});
  CHECK(compare(parts[0], cols(parts[0], 0)) == "");
  CHECK(compare(parts[1], cols(parts[1], 1)) == "");
  CHECK(compare(parts[2], cols(parts[2], 3)) == "");
  HostArray x6 = rnd({6, 2}, 951);
  auto thirds = run_multi("x: " + tensor({6, 2}), "R.split(x, indices_or_sections=3)", {x6},
                          {HostArray(F32, {2, 2}), HostArray(F32, {2, 2}), HostArray(F32, {2, 2})});
  for (int64_t k = 0; k < 3; ++k) {
    Values want(x6.f.begin() + k * 4, x6.f.begin() + k * 4 + 4);
    CHECK(compare(thirds[static_cast<size_t>(k)], want) == "");
  }
  tested_ops().insert("relax.split");
  auto drop = run_multi("x: " + tensor({2, 5}), "R.nn.dropout(x, rate=0.5)", {x},
                        {HostArray(F32, {2, 5}), HostArray(F32, {2, 5})});
  CHECK(compare(drop[0], x.f) == "");
  CHECK(compare(drop[1], Values(10, 1.0)) == "");
  tested_ops().insert("relax.nn.dropout");

  HostArray gi(DataType::Int64(), {2, 3});
  gi.i = {4, 0, -1, 1, 1, 2};
  check({"relax.gather_elements",
         "R.gather_elements(x0, x1, axis=1)",
         {x, gi},
         F32,
         {2, 3},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t i = 0; i < 2; ++i)
             for (int64_t j = 0; j < 3; ++j) {
               int64_t k = in[1].i[static_cast<size_t>(i * 3 + j)];
               v.push_back(in[0].get(i * 5 + (k < 0 ? k + 5 : k)));
             }
           return v;
         }});
  HostArray nd(DataType::Int64(), {3, 2});
  nd.i = {1, 4, 0, 0, 1, 2};
  check({"relax.gather_nd",
         "R.gather_nd(x0, x1)",
         {x, nd},
         F32,
         {3},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t k = 0; k < 3; ++k)
             v.push_back(in[0].get(in[1].i[static_cast<size_t>(2 * k)] * 5 +
                                   in[1].i[static_cast<size_t>(2 * k + 1)]));
           return v;
         }});
  HostArray rows(DataType::Int64(), {2, 1});
  rows.i = {1, 0};
  check({"relax.gather_nd",
         "R.gather_nd(x0, x1)",
         {x, rows},
         F32,
         {2, 5},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t k = 0; k < 2; ++k)
             for (int64_t j = 0; j < 5; ++j)
               v.push_back(in[0].get(in[1].i[static_cast<size_t>(k)] * 5 + j));
           return v;
         }});
  // group_norm over (2 channels per group) x axis 2; instance_norm per channel over axis 2.
  auto group_ref = [](const std::vector<HostArray>& in, int64_t cpg) {
    const HostArray& a = in[0];
    int64_t N = a.shape[0], C = a.shape[1], L = a.shape[2];
    Values v(static_cast<size_t>(a.size()));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t g = 0; g < C / cpg; ++g) {
        double mean = 0, var = 0, cnt = double(cpg * L);
        for (int64_t c = g * cpg; c < (g + 1) * cpg; ++c)
          for (int64_t l = 0; l < L; ++l) mean += a.get((n * C + c) * L + l) / cnt;
        for (int64_t c = g * cpg; c < (g + 1) * cpg; ++c)
          for (int64_t l = 0; l < L; ++l)
            var += std::pow(a.get((n * C + c) * L + l) - mean, 2) / cnt;
        for (int64_t c = g * cpg; c < (g + 1) * cpg; ++c)
          for (int64_t l = 0; l < L; ++l) {
            int64_t k = (n * C + c) * L + l;
            v[static_cast<size_t>(k)] =
                (a.get(k) - mean) / std::sqrt(var + 1e-5) * in[1].get(c) + in[2].get(c);
          }
      }
    return v;
  };
  check({"relax.nn.group_norm",
         "R.nn.group_norm(x0, x1, x2, num_groups=2, channel_axis=1, axes=[2])",
         {rnd({2, 4, 3}, 953), rnd({4}, 954), rnd({4}, 955)},
         F32,
         {2, 4, 3},
         [group_ref](const std::vector<HostArray>& in) { return group_ref(in, 2); },
         1e-4,
         1e-5});
  check({"relax.nn.instance_norm",
         "R.nn.instance_norm(x0, x1, x2, channel_axis=1, axes=[2])",
         {rnd({2, 3, 4}, 956), rnd({3}, 957), rnd({3}, 958)},
         F32,
         {2, 3, 4},
         [group_ref](const std::vector<HostArray>& in) { return group_ref(in, 1); },
         1e-4,
         1e-5});
  for (bool training : {true, false}) {
    HostArray bx = rnd({2, 3, 2}, 959), g = rnd({3}, 960), b = rnd({3}, 961), mm = rnd({3}, 962),
              mv = rnd({3}, 963, 0.5, 2);
    std::string t3 = tensor({3});
    auto outs = run_multi(
        "x: " + tensor({2, 3, 2}) + ", g: " + t3 + ", b: " + t3 + ", mm: " + t3 + ", mv: " + t3,
        std::string("R.nn.batch_norm(x, g, b, mm, mv, axis=1, momentum=0.25, training=") +
            (training ? "True" : "False") + ")",
        {bx, g, b, mm, mv}, {HostArray(F32, {2, 3, 2}), HostArray(F32, {3}), HostArray(F32, {3})});
    Values y, nm, nv;
    for (int64_t c = 0; c < 3; ++c) {
      double mean = 0, var = 0;
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t l = 0; l < 2; ++l) mean += bx.get((n * 3 + c) * 2 + l) / 4;
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t l = 0; l < 2; ++l) var += std::pow(bx.get((n * 3 + c) * 2 + l) - mean, 2) / 4;
      nm.push_back(training ? 0.75 * mm.get(c) + 0.25 * mean : mm.get(c));
      nv.push_back(training ? 0.75 * mv.get(c) + 0.25 * var : mv.get(c));
    }
    for (int64_t k = 0; k < 12; ++k) {
      int64_t c = (k / 2) % 3;
      double mean = training ? (nm[static_cast<size_t>(c)] - 0.75 * mm.get(c)) / 0.25 : mm.get(c);
      double var = training ? (nv[static_cast<size_t>(c)] - 0.75 * mv.get(c)) / 0.25 : mv.get(c);
      y.push_back((bx.get(k) - mean) / std::sqrt(var + 1e-5) * g.get(c) + b.get(c));
    }
    CHECK(compare(outs[0], y, 1e-4, 1e-5) == "");
    CHECK(compare(outs[1], nm, 1e-5, 1e-6) == "");
    CHECK(compare(outs[2], nv, 1e-4, 1e-6) == "");
  }
  tested_ops().insert("relax.nn.batch_norm");
  check({"relax.nn.pixel_shuffle",
         "R.nn.pixel_shuffle(x0, upscale_factor=2)",
         {rnd({1, 8, 2, 3}, 952)},
         F32,
         {1, 2, 4, 6},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t c = 0; c < 2; ++c)
             for (int64_t h = 0; h < 4; ++h)
               for (int64_t w = 0; w < 6; ++w)
                 v.push_back(in[0].get(((c * 4 + (h % 2) * 2 + (w % 2)) * 2 + h / 2) * 3 + w / 2));
           return v;
         }});
}

}  // namespace relax::legalize_test

TEST_CASE("legalize numerics: tuple results and gathers") {
  tuple_gather_cases();
}

TEST_CASE("legalize numerics: remaining creation, search, scan and indexing ops") {
  misc_cases();
}

TEST_CASE("legalize numerics: unary math and activations") {
  unary_cases();
}

TEST_CASE("legalize numerics: binary arithmetic and comparisons with broadcasting") {
  binary_cases();
}

TEST_CASE("legalize numerics: reductions") {
  reduction_cases();
}

TEST_CASE("legalize numerics: matmul, batched and 1-D") {
  matmul_cases();
}

TEST_CASE("legalize numerics: softmax, log_softmax, layer_norm, rms_norm") {
  softmax_norm_cases();
}

TEST_CASE("legalize numerics: manipulation and indexing") {
  manipulation_cases();
}

TEST_CASE("legalize numerics: creation ops") {
  creation_cases();
}

TEST_CASE("legalize numerics: conv2d and pooling (NCHW)") {
  conv_pool_cases();
}

TEST_CASE("legalize numerics: NHWC and HWIO layouts through transposing stages") {
  layout_cases();
}

TEST_CASE("legalize numerics: every legalized op has a numerics check") {
  tested_ops().clear();
  all_numerics_groups();
  std::vector<std::string> missing;
  for (const auto& op : compiler::legalize::legalized_ops())
    if (!tested_ops().count(op)) missing.push_back(op);
  std::string list;
  for (const auto& m : missing) list += " " + m;
  INFO("legalized ops without a numerics case:" << list);
  CHECK(missing.empty());
}

TEST_CASE("legalize coverage: ops of the registry without a legalization") {
  // Every compute op has a legalization: what is left are the structural, memory and VM ops
  // that later passes lower.
  std::vector<std::string> expected = {
      // Structural, memory and VM ops: not computations to legalize.
      "relax.call_tir",
      "relax.call_tir_inplace",
      "relax.call_tir_with_grad",
      "relax.call_dps_packed",
      "relax.call_pure_packed",
      "relax.call_inplace_packed",
      "relax.call_builtin_with_ctx",
      "relax.make_closure",
      "relax.invoke_closure",
      "relax.invoke_pure_closure",
      "relax.shape_of",
      "relax.tensor_to_shape",
      "relax.shape_to_tensor",
      "relax.null_value",
      "relax.print",
      "relax.assert_op",
      "relax.hint_on_device",
      "relax.to_vdevice",
      "relax.grad.start_checkpoint",
      "relax.grad.end_checkpoint",
      "relax.builtin.alloc_tensor",
      "relax.memory.alloc_storage",
      "relax.memory.alloc_tensor",
      "relax.memory.kill_storage",
      "relax.memory.kill_tensor",
      "relax.memory.view",
      "relax.memory.ensure_zero_offset",
      "relax.vm.alloc_storage",
      "relax.vm.alloc_tensor",
      "relax.vm.kill_object",
      "relax.vm.call_tir_dyn",
      "relax.builtin.stop_lift_params"};
  auto missing = compiler::legalize::unlegalized_ops();
  std::string list;
  for (const auto& m : missing) list += " " + m;
  INFO("not legalized:" << list);
  CHECK(missing == expected);
  CHECK(compiler::legalize::legalized_ops().size() + missing.size() ==
        analysis::OpRegistry::global().all().size());
}

TEST_CASE("legalize numerics: every case compiled with the default pipeline and LLVM") {
  // The same cases, built as whole modules (LegalizeOps, FoldConstant, the default CPU schedule,
  // memory planning, LLVM) and run on the VM: what the interpreter checked must hold for the
  // generated code too.
  compile_cases() = true;
  tested_ops().clear();
  all_numerics_groups();
  compile_cases() = false;
}

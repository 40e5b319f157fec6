// A small CNN (conv2d NCHW + bias + relu + max_pool2d + flatten + linear, as the seed's SimpleCNN)
// legalized as a whole module, then run binding by binding through the TIR interpreter and
// compared with a direct C++ computation.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <unordered_map>

#include "tests/compiler/legalize/legalize_test_util.h"
#include "tests/support/test_util.h"

using namespace relax;
using namespace relax::legalize_test;
using ir::DataType;

namespace {

// Runs a legalized function whose bindings are all call_tir (static shapes) and returns the
// array its body names.
HostArray run_legalized(const ir::IRModule& m, const std::string& fn,
                        const std::vector<HostArray>& inputs) {
  auto f = ir::as_relax_function(m.lookup(fn));
  REQUIRE(f);
  std::unordered_map<const ir::Var*, HostArray> env;
  REQUIRE(f->params.size() == inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) env[f->params[k].get()] = inputs[k];
  for (const auto& block : f->body->blocks) {
    for (const auto& b : block->bindings) {
      auto call = b->value.as_ptr<ir::Call>();
      if (auto v = b->value.as_ptr<ir::Var>()) {
        env[b->var.get()] = env.at(v);
        continue;
      }
      INFO("binding " + b->var->name);
      REQUIRE(call);
      REQUIRE(call->op_name() == "relax.call_tir");
      auto pf = ir::as_prim_func(m.lookup(call->args[0].as_ptr<ir::GlobalVar>()->name));
      REQUIRE(pf);
      std::vector<HostArray> args;
      for (const auto& a : call->args[1].as_ptr<ir::Tuple>()->fields)
        args.push_back(env.at(a.as_ptr<ir::Var>()));
      auto out = call->sinfo_args[0].as_ptr<ir::TensorStructInfo>();
      std::vector<int64_t> shape;
      for (const auto& d : *out->shape_values()) shape.push_back(*ir::tir::as_const_int(d));
      env[b->var.get()] = run_func(*pf, args, out->dtype, shape);
    }
  }
  return env.at(f->body->body.as_ptr<ir::Var>());
}

}  // namespace

TEST_CASE("legalize model: SimpleCNN legalizes fully and computes what a direct C++ model does") {
  auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 1, 8, 8), "float32"), w1: R.Tensor((4, 1, 3, 3), "float32"), b1: R.Tensor((4,), "float32"), w2: R.Tensor((10, 64), "float32"), b2: R.Tensor((10,), "float32")):
        with R.dataflow():
            c = R.nn.conv2d(x, w1, padding=[1, 1])
            bb = R.reshape(b1, R.shape([1, 4, 1, 1]))
            c1 = R.add(c, bb)
            h = R.nn.relu(c1)
            p = R.nn.max_pool2d(h, pool_size=[2, 2], strides=[2, 2])
            f = R.reshape(p, R.shape([2, 64]))
            wt = R.permute_dims(w2)
            m = R.matmul(f, wt)
            y = R.add(m, b2)
            R.output(y)
        return y
)");
  INFO(r.text);
  CHECK(r.diags.empty());
  // Every op call became a call_tir.
  CHECK(r.text.find("R.nn.") == std::string::npos);
  for (const char* name :
       {"def conv2d(", "def add(", "def relu(", "def max_pool2d(", "def reshape(", "def reshape1(",
        "def transpose(", "def matmul(", "def add1("})
    CHECK(r.text.find(name) != std::string::npos);

  HostArray x = random_array(DataType::Float32(), {2, 1, 8, 8}, -1, 1, 11);
  HostArray w1 = random_array(DataType::Float32(), {4, 1, 3, 3}, -1, 1, 12);
  HostArray b1 = random_array(DataType::Float32(), {4}, -1, 1, 13);
  HostArray w2 = random_array(DataType::Float32(), {10, 64}, -1, 1, 14);
  HostArray b2 = random_array(DataType::Float32(), {10}, -1, 1, 15);
  HostArray got = run_legalized(*r.module, "main", {x, w1, b1, w2, b2});

  std::vector<double> want;
  for (int n = 0; n < 2; ++n) {
    std::vector<double> flat;
    for (int c = 0; c < 4; ++c)
      for (int py = 0; py < 4; ++py)
        for (int px = 0; px < 4; ++px) {
          double best = -1e300;
          for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx) {
              int oy = py * 2 + dy, ox = px * 2 + dx;
              double acc = b1.f[c];
              for (int ky = 0; ky < 3; ++ky)
                for (int kx = 0; kx < 3; ++kx) {
                  int iy = oy + ky - 1, ix = ox + kx - 1;
                  if (iy < 0 || iy >= 8 || ix < 0 || ix >= 8) continue;
                  acc += x.f[static_cast<size_t>(n * 64 + iy * 8 + ix)] *
                         w1.f[static_cast<size_t>(c * 9 + ky * 3 + kx)];
                }
              best = std::max(best, std::max(acc, 0.0));
            }
          flat.push_back(best);
        }
    for (int o = 0; o < 10; ++o) {
      double s = b2.f[o];
      for (int k = 0; k < 64; ++k)
        s += flat[static_cast<size_t>(k)] * w2.f[static_cast<size_t>(o * 64 + k)];
      want.push_back(s);
    }
  }
  CHECK(compare(got, want, 1e-5, 1e-5) == "");
}

TEST_CASE("legalize model: the shared SimpleCNN example legalizes and runs") {
  auto shared = test::shared_dir();
  if (!shared) return;  // no shared data folder: nothing to read
  auto path = *shared / "examples" / "09_simple_cnn.relax";
  REQUIRE(std::filesystem::exists(path));
  auto r = legalize_text(test::read_file(path));
  INFO(r.text);
  CHECK(r.diags.empty());
  CHECK(r.text.find("def adaptive_avg_pool2d(") != std::string::npos);
  HostArray x = random_array(DataType::Float32(), {1, 3, 32, 32}, -1, 1, 21);
  HostArray w = random_array(DataType::Float32(), {16, 3, 3, 3}, -1, 1, 22);
  HostArray b = random_array(DataType::Float32(), {16}, -1, 1, 23);
  HostArray fw = random_array(DataType::Float32(), {10, 16}, -1, 1, 24);
  HostArray fb = random_array(DataType::Float32(), {10}, -1, 1, 25);
  HostArray got = run_legalized(*r.module, "main", {x, w, b, fw, fb});
  std::vector<double> pooled(16, 0.0);
  for (int c = 0; c < 16; ++c) {
    for (int y = 0; y < 32; ++y)
      for (int xx = 0; xx < 32; ++xx) {
        double acc = b.f[static_cast<size_t>(c)];
        for (int ci = 0; ci < 3; ++ci)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              int iy = y + ky - 1, ix = xx + kx - 1;
              if (iy < 0 || iy >= 32 || ix < 0 || ix >= 32) continue;
              acc += x.f[static_cast<size_t>((ci * 32 + iy) * 32 + ix)] *
                     w.f[static_cast<size_t>(((c * 3 + ci) * 3 + ky) * 3 + kx)];
            }
        pooled[static_cast<size_t>(c)] += std::max(acc, 0.0) / 1024.0;
      }
  }
  std::vector<double> want;
  for (int o = 0; o < 10; ++o) {
    double s = fb.f[static_cast<size_t>(o)];
    for (int k = 0; k < 16; ++k)
      s += pooled[static_cast<size_t>(k)] * fw.f[static_cast<size_t>(o * 16 + k)];
    want.push_back(s);
  }
  CHECK(compare(got, want, 1e-4, 1e-5) == "");
}

TEST_CASE("legalize model: a transposed-conv decoder with resize and nll_loss legalizes and runs") {
  auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 3, 3), "float32"), w: R.Tensor((2, 3, 3, 3), "float32"), t: R.Tensor((1,), "int64")):
        with R.dataflow():
            c = R.nn.conv2d_transpose(x, w, strides=[2, 2], padding=[1, 1], output_padding=[1, 1])
            h = R.nn.relu(c)
            u = R.image.resize2d(h, R.shape([4, 4]), method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor")
            m = R.mean(u, axis=[2, 3])
            s = R.nn.log_softmax(m, axis=1)
            y = R.nn.nll_loss(s, t)
            R.output(y)
        return y
)");
  INFO(r.text);
  CHECK(r.diags.empty());
  CHECK(r.text.find("R.nn.") == std::string::npos);
  CHECK(r.text.find("R.image.") == std::string::npos);
  HostArray x = random_array(DataType::Float32(), {1, 2, 3, 3}, -1, 1, 31);
  HostArray w = random_array(DataType::Float32(), {2, 3, 3, 3}, -1, 1, 32);
  HostArray t(DataType::Int64(), {1});
  t.i = {2};
  HostArray got = run_legalized(*r.module, "main", {x, w, t});
  // conv2d_transpose (stride 2, padding 1, output_padding 1): (1, 3, 6, 6), by scattering.
  std::vector<double> c(3 * 36, 0.0);
  for (int ci = 0; ci < 2; ++ci)
    for (int iy = 0; iy < 3; ++iy)
      for (int ix = 0; ix < 3; ++ix)
        for (int co = 0; co < 3; ++co)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              int oy = iy * 2 - 1 + ky, ox = ix * 2 - 1 + kx;
              if (oy < 0 || oy >= 6 || ox < 0 || ox >= 6) continue;
              c[static_cast<size_t>(co * 36 + oy * 6 + ox)] +=
                  x.f[static_cast<size_t>(ci * 9 + iy * 3 + ix)] *
                  w.f[static_cast<size_t>(((ci * 3 + co) * 3 + ky) * 3 + kx)];
            }
  // relu, nearest (asymmetric, floor) 6 -> 4 picks rows/columns 0, 1, 3, 4; mean; log_softmax.
  const int pick[] = {0, 1, 3, 4};
  std::vector<double> m(3, 0.0);
  for (int co = 0; co < 3; ++co)
    for (int a : pick)
      for (int b : pick)
        m[static_cast<size_t>(co)] +=
            std::max(c[static_cast<size_t>(co * 36 + a * 6 + b)], 0.0) / 16;
  double mx = std::max({m[0], m[1], m[2]});
  double lse = mx + std::log(std::exp(m[0] - mx) + std::exp(m[1] - mx) + std::exp(m[2] - mx));
  CHECK(compare(got, {-(m[2] - lse)}, 1e-5, 1e-6) == "");
}

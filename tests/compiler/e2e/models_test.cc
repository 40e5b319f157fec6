// The examples/ models built by the default CPU pipeline (LegalizeOps, the default schedule, the
// Relax passes, LLVM code generation) and run on the VM, against direct C++ computations in
// double precision (rtol 1e-4), with random inputs from a fixed seed. The modules and inputs
// are the run cases of run_cases.cc.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "analysis/normalize.h"
#include "compiler/build.h"
#include "compiler/relax/bind_params.h"
#include "syntax/frontend.h"
#include "tests/compiler/e2e/run_cases.h"
#include "tests/compiler/vm_test_util.h"
#include "tests/support/test_util.h"
#include "vm/runtime.h"

using namespace relax;
using namespace relax::compiler;

namespace {

using test::e2e::case_named;
using test::e2e::random_tensor;

vm::Module build_text(const std::string& text, const std::string& name) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(text, name + ".relax", diags);
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  return test::build_module(parsed.module);
}

vm::Module build_case(const std::string& name) {
  return build_text(case_named(name).text, name);
}

// A float32 tensor's shape and data, for the references.
struct Array {
  std::vector<int64_t> shape;
  std::vector<float> data;
  explicit Array(const vm::Value& v) : shape(test::shape_of(v)), data(test::data_of<float>(v)) {}
  vm::Value value() const {
    return vm::Value(vm::tensor_from_bytes(shape, vm::kFloat32, data.data()));
  }
};

Array random_array(std::vector<int64_t> shape, std::mt19937& rng) {
  return Array(random_tensor(shape, rng));
}

void check_close(const vm::Value& got, const std::vector<int64_t>& shape,
                 const std::vector<double>& want) {
  const vm::TensorObj* t = got.as_tensor();
  REQUIRE(t != nullptr);
  REQUIRE(t->dtype() == vm::kFloat32);
  REQUIRE(static_cast<size_t>(t->numel()) == want.size());
  std::vector<int64_t> got_shape(t->shape().begin(), t->shape().end());
  CHECK(got_shape == shape);
  const float* p = t->data_as<float>();
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i << ": got " << p[i] << ", want " << want[i]);
    REQUIRE(std::abs(p[i] - want[i]) <= 1e-4 * std::abs(want[i]) + 1e-5);
  }
}

// y[b, o] = sum_k x[b, k] * w[k, o] + bias[o], optionally ReLU.
std::vector<double> dense(const std::vector<double>& x, int64_t batch, int64_t in, const Array& w,
                          const Array& bias, bool relu) {
  int64_t out = w.shape[1];
  std::vector<double> y(static_cast<size_t>(batch * out));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t o = 0; o < out; ++o) {
      double s = bias.data[static_cast<size_t>(o)];
      for (int64_t k = 0; k < in; ++k)
        s += x[static_cast<size_t>(b * in + k)] * w.data[static_cast<size_t>(k * out + o)];
      y[static_cast<size_t>(b * out + o)] = relu ? std::max(s, 0.0) : s;
    }
  return y;
}

}  // namespace

// The seed's SimpleCNN in double precision: conv 3->16 (3x3, pad 1), bias, ReLU, global
// average pool, linear 16->10.
std::vector<double> simple_cnn_reference(const Array& x, const Array& w, const Array& b,
                                         const Array& fw, const Array& fb) {
  std::vector<double> pooled(16, 0.0);
  for (int c = 0; c < 16; ++c)
    for (int y = 0; y < 32; ++y)
      for (int xx = 0; xx < 32; ++xx) {
        double acc = b.data[static_cast<size_t>(c)];
        for (int ci = 0; ci < 3; ++ci)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              int iy = y + ky - 1, ix = xx + kx - 1;
              if (iy < 0 || iy >= 32 || ix < 0 || ix >= 32) continue;
              acc += x.data[static_cast<size_t>((ci * 32 + iy) * 32 + ix)] *
                     w.data[static_cast<size_t>(((c * 3 + ci) * 3 + ky) * 3 + kx)];
            }
        pooled[static_cast<size_t>(c)] += std::max(acc, 0.0) / 1024.0;
      }
  std::vector<double> want;
  for (int o = 0; o < 10; ++o) {
    double s = fb.data[static_cast<size_t>(o)];
    for (int k = 0; k < 16; ++k)
      s += pooled[static_cast<size_t>(k)] * fw.data[static_cast<size_t>(o * 16 + k)];
    want.push_back(s);
  }
  return want;
}

TEST_CASE("e2e: the SimpleCNN example computes what a direct C++ model does") {
  vm::Module m = build_case("simple_cnn");
  for (const auto& call : case_named("simple_cnn").calls()) {
    const auto& a = call.args;
    vm::Value r = test::call_main(m, a);
    check_close(
        r, {1, 10},
        simple_cnn_reference(Array(a[0]), Array(a[1]), Array(a[2]), Array(a[3]), Array(a[4])));
  }
}

TEST_CASE("e2e: the SimpleCNN with its weights bound from a .safetensors file") {
  // The seed's section 5.3: weights become constants of the module (BindParams), the transpose
  // of fc_weight is computed at compile time (FoldConstant), the input is the only argument.
  // Not a run case (run_cases.cc): the module is made by BindParams, not read from text.
  std::mt19937 rng(11);
  Array x = random_array({1, 3, 32, 32}, rng), w = random_array({16, 3, 3, 3}, rng),
        b = random_array({16}, rng), fw = random_array({10, 16}, rng), fb = random_array({10}, rng);
  auto path = std::filesystem::temp_directory_path() /
              ("relax_e2e_cnn_" + std::to_string(::getpid()) + ".safetensors");
  REQUIRE(vm::write_safetensors(
              path.string(),
              {{"conv_weight", vm::tensor_from_bytes(w.shape, vm::kFloat32, w.data.data())},
               {"conv_bias", vm::tensor_from_bytes(b.shape, vm::kFloat32, b.data.data())},
               {"fc_weight", vm::tensor_from_bytes(fw.shape, vm::kFloat32, fw.data.data())},
               {"fc_bias", vm::tensor_from_bytes(fb.shape, vm::kFloat32, fb.data.data())}})
              .ok());
  relax_passes::ParamMap params;
  std::string error;
  bool read = relax_passes::read_params(path.string(), params, error);
  std::filesystem::remove(path);
  INFO(error);
  REQUIRE(read);
  REQUIRE(params.size() == 4);

  ir::DiagnosticBag diags;
  auto file = test::source_dir() / "examples" / "simple_cnn.relax";
  auto parsed = syntax::parse_text(test::read_file(file), file.string(), diags);
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  PassContext ctx;
  test::enable_bounds_check(ctx);
  auto module = run_pass(relax_passes::bind_params_pass("main", params), parsed.module, ctx);
  auto result = build(module, Target::host(), ctx);
  REQUIRE(result.ok());
  // No kernel transposes the bound fc_weight at run time.
  for (const auto& [name, func] : result.prim_funcs)
    CHECK(name.find("transpose") == std::string::npos);
  auto m = vm::Module::from_parts(result.executable, result.kernels);
  REQUIRE(m);
  auto r = m->invoke("main", {x.value()});
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  check_close(*r, {1, 10}, simple_cnn_reference(x, w, b, fw, fb));
}

TEST_CASE("e2e: the MLP example runs for several batch sizes (symbolic shapes)") {
  vm::Module m = build_case("mlp");
  auto calls = case_named("mlp").calls();
  REQUIRE(calls.size() == 4);
  for (size_t i = 0; i < 3; ++i) {
    const auto& a = calls[i].args;
    Array x(a[0]);
    int64_t batch = x.shape[0];
    auto r = m.invoke("main", a);
    INFO("batch " << batch << ": " << (r ? "" : r.error().message));
    REQUIRE(r);
    std::vector<double> xs(x.data.begin(), x.data.end());
    auto h1 = dense(xs, batch, 784, Array(a[1]), Array(a[2]), true);
    auto h2 = dense(h1, batch, 512, Array(a[3]), Array(a[4]), true);
    check_close(*r, {batch, 10}, dense(h2, batch, 512, Array(a[5]), Array(a[6]), false));
  }
  // A wrong input shape (2, 783) is a clear run-time error, not a crash.
  auto r = m.invoke("main", calls[3].args);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("783") != std::string::npos);
}

TEST_CASE("e2e: matmul with the default schedule matches a C++ loop") {
  vm::Module m = build_case("matmul96");
  for (const auto& call : case_named("matmul96").calls()) {
    Array a(call.args[0]), b(call.args[1]);
    vm::Value r = test::call_main(m, call.args);
    std::vector<double> want(96 * 96);
    for (int i = 0; i < 96; ++i)
      for (int j = 0; j < 96; ++j) {
        double s = 0;
        for (int k = 0; k < 96; ++k)
          s += static_cast<double>(a.data[static_cast<size_t>(i * 96 + k)]) *
               b.data[static_cast<size_t>(k * 96 + j)];
        want[static_cast<size_t>(i * 96 + j)] = s;
      }
    check_close(r, {96, 96}, want);
  }
}

TEST_CASE("e2e: scatters (duplicate indices) and layout_transform through the CPU pipeline") {
  vm::Module m = build_case("scatter_layout");
  auto calls = case_named("scatter_layout").calls();
  REQUIRE(calls.size() == 1);
  const auto& args = calls[0].args;
  vm::Value r = test::call_main(m, args);
  Array x(args[0]), u(args[2]);
  std::vector<int64_t> idx = test::data_of<int64_t>(args[1]);
  std::vector<double> b(x.data.begin(), x.data.end());
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t row = 0; row < 3; ++row)
      for (int64_t j = 0; j < 4; ++j) {
        int64_t k = idx[static_cast<size_t>(row * 4 + j)];
        if (k < 0) k += 8;
        double upd = u.data[static_cast<size_t>(row * 4 + j)];
        double& o = b[static_cast<size_t>(row * 8 + k)];
        o = pass == 0 ? o + upd : upd;
      }
  // c[p, q, s] = b[q, p * 3 + s] (padded with -1 past column 8), flattened.
  std::vector<double> want;
  for (int64_t p = 0; p < 3; ++p)
    for (int64_t q = 0; q < 3; ++q)
      for (int64_t s = 0; s < 3; ++s) {
        int64_t k = p * 3 + s;
        want.push_back(k < 8 ? b[static_cast<size_t>(q * 8 + k)] : -1.0);
      }
  check_close(r, {27}, want);
}

TEST_CASE("e2e: a loop written as a recursive local function (examples/while_loop.relax)") {
  vm::Module m = build_case("while_loop");
  auto calls = case_named("while_loop").calls();
  REQUIRE(calls.size() == 3);
  for (const auto& call : calls) {
    Array x(call.args[0]);
    int32_t n = test::data_of<int32_t>(call.args[1])[0];
    vm::Value r = test::call_main(m, call.args);
    std::vector<double> want;
    for (float v : x.data) want.push_back(static_cast<double>(v) * n);
    check_close(r, {2, 3}, want);
  }
}

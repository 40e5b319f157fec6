// Shared by the legalization numerics tests (numerics_util.h).
#include "tests/compiler/legalize/numerics_util.h"

#include "analysis/normalize.h"
#include "compiler/build.h"
#include "syntax/frontend.h"
#include "tests/compiler/vm_test_util.h"
#include "vm/dtype.h"
#include "vm/runtime.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace relax::legalize_test {

bool& compile_cases() {
  static bool on = false;
  return on;
}

namespace {

// The module of `source` built for the host and run on the VM with `inputs`; nullopt when an
// input or output dtype has no byte conversion here (float16).
std::optional<HostArray> run_compiled(const std::string& source,
                                      const std::vector<HostArray>& inputs) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(source, "case.relax", diags);
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  vm::Module m = test::build_module(parsed.module);
  std::vector<vm::Value> args;
  try {
    for (const auto& in : inputs) {
      auto data = compiler::tir_eval::to_tensor_data(in);
      auto dtype = vm::parse_dtype(in.dtype.str());
      if (!dtype) return std::nullopt;
      args.emplace_back(vm::tensor_from_bytes(data.shape, *dtype, data.bytes.data()));
    }
  } catch (const compiler::tir_eval::EvalError&) {
    return std::nullopt;
  }
  auto r = m.invoke("main", args);
  INFO((r ? "" : r.error().message));
  REQUIRE(r);
  const vm::TensorObj* t = r->as_tensor();
  REQUIRE(t != nullptr);
  ir::TensorData out;
  auto dtype = ir::DataType::parse(vm::dtype_name(t->dtype()));
  if (!dtype) return std::nullopt;
  out.dtype = *dtype;
  out.shape.assign(t->shape().begin(), t->shape().end());
  const auto* bytes = static_cast<const uint8_t*>(t->data());
  out.bytes.assign(bytes, bytes + t->nbytes());
  try {
    return compiler::tir_eval::from_tensor_data(out);
  } catch (const compiler::tir_eval::EvalError&) {
    return std::nullopt;
  }
}

}  // namespace

std::set<std::string>& tested_ops() {
  static std::set<std::string> ops;
  return ops;
}

int64_t numel(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>());
}

Shape unravel(int64_t flat, const Shape& s) {
  Shape idx(s.size());
  for (size_t d = s.size(); d-- > 0;) {
    idx[d] = flat % s[d];
    flat /= s[d];
  }
  return idx;
}

int64_t ravel(const Shape& idx, const Shape& s) {
  int64_t f = 0;
  for (size_t d = 0; d < s.size(); ++d) f = f * s[d] + idx[d];
  return f;
}

// The element of `a` that numpy broadcasting maps to output index `oi`.
double bget(const HostArray& a, const Shape& oi) {
  Shape idx;
  size_t off = oi.size() - a.shape.size();
  for (size_t d = 0; d < a.shape.size(); ++d) idx.push_back(a.shape[d] == 1 ? 0 : oi[d + off]);
  return a.get(ravel(idx, a.shape));
}

std::string dims(const Shape& s) {
  std::string t = "(";
  for (size_t k = 0; k < s.size(); ++k) t += (k ? ", " : "") + std::to_string(s[k]);
  return t + (s.size() == 1 ? ",)" : ")");
}

std::string tensor(const Shape& s, DataType t) {
  return "R.Tensor(" + dims(s) + ", \"" + t.str() + "\")";
}

void check(const Case& c) {
  std::string params;
  for (size_t k = 0; k < c.inputs.size(); ++k)
    params += (k ? ", " : "") + std::string("x") + std::to_string(k) + ": " +
              tensor(c.inputs[k].shape, c.inputs[k].dtype);
  std::string src = "@I.ir_module\nclass Module:\n    @R.function\n    def main(" + params +
                    "):\n        y = " + c.call + "\n        return y\n";
  INFO(src);
  auto r = legalize_text(src);
  INFO(r.text);
  auto func = called_prim_func(*r.module);
  // Ops like zeros_like take no tensor argument in their PrimFunc.
  std::vector<HostArray> inputs(
      c.inputs.begin(), c.inputs.begin() + static_cast<std::ptrdiff_t>(func->params.size() - 1));
  auto got = run_func(*func, inputs, c.out_dtype, c.out_shape);
  std::string diff = compare(got, c.ref(c.inputs), c.rtol, c.atol);
  CHECK(diff == "");
  if (compile_cases()) {
    // Compiled float32 code may contract or reorder what the interpreter rounds step by step.
    if (auto compiled = run_compiled(src, c.inputs)) {
      INFO("compiled with the default pipeline and LLVM");
      CHECK(compiled->shape == c.out_shape);
      CHECK(compare(*compiled, c.ref(c.inputs), std::max(c.rtol, 1e-4), std::max(c.atol, 1e-5)) ==
            "");
    }
  }
  tested_ops().insert(c.op);
}

HostArray rnd(Shape s, uint32_t seed, double lo, double hi, DataType t) {
  return random_array(t, std::move(s), lo, hi, seed);
}

Values map1(const HostArray& x, const std::function<double(double)>& f) {
  Values out;
  for (int64_t k = 0; k < x.size(); ++k) out.push_back(f(x.get(k)));
  return out;
}

Values map2(const HostArray& a, const HostArray& b, const Shape& out,
            const std::function<double(double, double)>& f) {
  Values v;
  for (int64_t k = 0; k < numel(out); ++k) {
    Shape oi = unravel(k, out);
    v.push_back(f(bget(a, oi), bget(b, oi)));
  }
  return v;
}

double sigmoid(double v) {
  return 1 / (1 + std::exp(-v));
}

}  // namespace relax::legalize_test

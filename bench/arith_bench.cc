// Throughput of the symbolic arithmetic on the expressions shape inference produces: simplify,
// prove_equal and prove_less on conv/pool/reshape-like shape formulas. Prints ns per call.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "analysis/arith/analyzer.h"
#include "ir/tir.h"

namespace {

using relax::ir::DataType;
using relax::ir::ObjectKind;
using relax::ir::Ref;
namespace tir = relax::ir::tir;
using E = Ref<tir::PrimExpr>;

E v(const std::string& name) {
  return relax::ir::make<tir::Var>(name, DataType::Int64());
}
E c(int64_t x) {
  return tir::int64(x);
}
E add(E a, E b) {
  return tir::binary(ObjectKind::kAdd, a, b);
}
E sub(E a, E b) {
  return tir::binary(ObjectKind::kSub, a, b);
}
E mul(E a, E b) {
  return tir::binary(ObjectKind::kMul, a, b);
}
E fdiv(E a, E b) {
  return tir::binary(ObjectKind::kFloorDiv, a, b);
}
E fmod(E a, E b) {
  return tir::binary(ObjectKind::kFloorMod, a, b);
}
E min(E a, E b) {
  return tir::binary(ObjectKind::kMin, a, b);
}

double time_ns(int iterations, const std::function<void()>& body) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) body();
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(end - start).count() / iterations;
}

}  // namespace

int main() {
  E n = v("n"), m = v("m"), h = v("h"), w = v("w"), k = v("k");
  // Shape formulas as inference builds them (conv output size, reshape products, ceildiv, ...).
  std::vector<E> shapes = {
      n,
      c(4),
      mul(n, c(2)),
      add(mul(n, c(2)), c(2)),
      mul(mul(n, m), c(4)),
      add(fdiv(sub(add(h, mul(c(2), c(1))), mul(c(1), sub(k, c(1)))), c(1)), c(1)),
      add(fdiv(sub(sub(add(w, c(2)), k), c(0)), c(2)), c(1)),
      fdiv(add(n, c(3)), c(4)),
      min(fdiv(n, c(4)), n),
      sub(mul(fdiv(n, c(8)), c(8)), sub(n, fmod(n, c(8)))),
  };
  relax::analysis::arith::Analyzer az({.non_negative_int64_vars = true});
  const int kIterations = 200000;
  std::printf("%-40s %10s\n", "operation", "ns/call");
  double total = 0;
  for (const E& s : shapes) total += time_ns(kIterations / 10, [&] { az.simplify(s); });
  std::printf("%-40s %10.0f\n", "simplify (mix of shape formulas)", total / shapes.size());
  std::printf("%-40s %10.0f\n", "simplify(n * 2 + 2)",
              time_ns(kIterations, [&] { az.simplify(shapes[3]); }));
  std::printf("%-40s %10.0f\n", "simplify(conv output size)",
              time_ns(kIterations, [&] { az.simplify(shapes[5]); }));
  std::printf("%-40s %10.0f\n", "prove_equal(n, n)",
              time_ns(kIterations, [&] { az.prove_equal(n, n); }));
  std::printf("%-40s %10.0f\n", "prove_equal(4, 4)",
              time_ns(kIterations, [&] { az.prove_equal(c(4), c(4)); }));
  std::printf("%-40s %10.0f\n", "prove_equal(n, m)",
              time_ns(kIterations, [&] { az.prove_equal(n, m); }));
  E a = mul(add(n, c(1)), c(2)), b = add(mul(c(2), n), c(2));
  std::printf("%-40s %10.0f\n", "prove_equal((n+1)*2, 2*n+2)",
              time_ns(kIterations, [&] { az.prove_equal(a, b); }));
  E p = mul(fdiv(n, c(4)), c(4));
  std::printf("%-40s %10.0f\n", "prove_less_equal(n//4*4, n)",
              time_ns(kIterations, [&] { az.prove_less_equal(p, n); }));
  E q = mul(n, c(2)), r = add(mul(m, c(2)), c(1));
  std::printf("%-40s %10.0f\n", "prove_equal(2n, 2m+1) (modular)",
              time_ns(kIterations, [&] { az.prove_equal(q, r); }));
  return 0;
}

// The ops LegalizeOps turns into calls of VM builtins (sort, argsort, topk, unique, nonzero,
// dynamic_strided_slice, ccl.*) compiled through the default pipeline with TIR ops around them
// and run on the VM, against independent C++ references (exact values). The modules and inputs
// are the run cases of run_cases.cc.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "analysis/normalize.h"
#include "compiler/build.h"
#include "syntax/frontend.h"
#include "tests/compiler/e2e/run_cases.h"
#include "tests/compiler/vm_test_util.h"
#include "vm/runtime.h"

using namespace relax;
using namespace relax::compiler;

namespace {

using test::e2e::case_named;

vm::Module build_text(const std::string& text, const std::string& name = "test") {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(text, name + ".relax", diags);
  std::string parse_errors;
  for (const auto& d : diags.items()) parse_errors += d.code + ": " + d.message + "\n";
  INFO(parse_errors);
  REQUIRE(parsed.module);
  analysis::normalize_module(*parsed.module, diags);
  REQUIRE_FALSE(diags.has_errors());
  return test::build_module(parsed.module);
}

vm::Module build_case(const std::string& name) {
  return build_text(case_named(name).text, name);
}

// The arguments of each call of the case `name`.
std::vector<std::vector<vm::Value>> case_args(const std::string& name) {
  std::vector<std::vector<vm::Value>> out;
  for (auto& call : case_named(name).calls()) out.push_back(std::move(call.args));
  return out;
}

using test::data_of;
using test::field;
using test::shape_of;
using test::tensor;

vm::Value run(vm::Module& m, const std::vector<vm::Value>& args) {
  return test::call_main(m, args);
}

// Reference: for each line of a (rows, cols) matrix along `axis`, the stable order of its
// elements (ascending, or descending with ties in input order).
std::vector<std::vector<int64_t>> line_orders(const std::vector<float>& x, int64_t rows,
                                              int64_t cols, int64_t axis, bool descending) {
  int64_t lines = axis == 1 ? rows : cols, len = axis == 1 ? cols : rows;
  std::vector<std::vector<int64_t>> out;
  for (int64_t l = 0; l < lines; ++l) {
    auto at = [&](int64_t j) {
      return axis == 1 ? x[static_cast<size_t>(l * cols + j)]
                       : x[static_cast<size_t>(j * cols + l)];
    };
    // Selection of the next best by a linear scan (earliest index wins ties): independent of
    // std::stable_sort.
    std::vector<bool> used(static_cast<size_t>(len), false);
    std::vector<int64_t> order;
    for (int64_t k = 0; k < len; ++k) {
      int64_t best = -1;
      for (int64_t j = 0; j < len; ++j) {
        if (used[static_cast<size_t>(j)]) continue;
        if (best < 0 || (descending ? at(j) > at(best) : at(j) < at(best))) best = j;
      }
      used[static_cast<size_t>(best)] = true;
      order.push_back(best);
    }
    out.push_back(order);
  }
  return out;
}

}  // namespace

TEST_CASE("e2e runtime ops: sort, argsort and topk between TIR ops, with ties") {
  vm::Module m = build_case("sort_argsort_topk");
  const int64_t rows = 4, cols = 9;
  for (const auto& args : case_args("sort_argsort_topk")) {
    std::vector<float> x = data_of<float>(args[0]);
    vm::Value r = run(m, args);
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] + x[i];
    // sort along axis 1, descending.
    auto desc = line_orders(y, rows, cols, 1, true);
    std::vector<float> want_s;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j : desc[static_cast<size_t>(i)])
        want_s.push_back(y[static_cast<size_t>(i * cols + j)]);
    CHECK(data_of<float>(field(r, 0)) == want_s);
    // argsort along axis 0, ascending, int64.
    auto asc0 = line_orders(y, rows, cols, 0, false);
    std::vector<int64_t> want_a(static_cast<size_t>(rows * cols));
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i)
        want_a[static_cast<size_t>(i * cols + j)] =
            asc0[static_cast<size_t>(j)][static_cast<size_t>(i)];
    CHECK(data_of<int64_t>(field(r, 1)) == want_a);
    // topk: the 3 smallest of each row, halved, and their int32 indices.
    auto asc1 = line_orders(y, rows, cols, 1, false);
    std::vector<float> want_v;
    std::vector<int32_t> want_i;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t k = 0; k < 3; ++k) {
        int64_t j = asc1[static_cast<size_t>(i)][static_cast<size_t>(k)];
        want_v.push_back(y[static_cast<size_t>(i * cols + j)] * 0.5f);
        want_i.push_back(static_cast<int32_t>(j));
      }
    CHECK(shape_of(field(r, 2)) == std::vector<int64_t>{rows, 3});
    CHECK(data_of<float>(field(r, 2)) == want_v);
    CHECK(data_of<int32_t>(field(r, 3)) == want_i);
  }
}

TEST_CASE("e2e runtime ops: sort of a symbolic shape") {
  vm::Module m = build_case("sort_symbolic");
  vm::Value r = run(m, case_args("sort_symbolic").at(0));  // x = [5, -2, 9, 0, 5, 1, -8]
  CHECK(data_of<int32_t>(field(r, 0)) == std::vector<int32_t>{-8, -2, 0, 1, 5, 5, 9});
  CHECK(data_of<int32_t>(field(r, 1)) == std::vector<int32_t>{9, 5});
}

TEST_CASE("e2e runtime ops: unique with every flag, sorted and in order of first occurrence") {
  for (int sorted : {1, 0}) {
    std::string name = sorted ? "unique_sorted" : "unique_unsorted";
    vm::Module m = build_case(name);
    auto args = case_args(name).at(0);
    std::vector<int64_t> x = data_of<int64_t>(args[0]);
    vm::Value r = run(m, args);
    // Reference: a std::map of value -> (first index, count) for the sorted order; the order of
    // first occurrence by scanning x.
    std::map<int64_t, std::pair<int64_t, int64_t>> seen;
    std::vector<int64_t> first_order;
    for (size_t i = 0; i < x.size(); ++i) {
      auto it = seen.find(x[i]);
      if (it == seen.end()) {
        seen[x[i]] = {static_cast<int64_t>(i), 1};
        first_order.push_back(x[i]);
      } else {
        ++it->second.second;
      }
    }
    std::vector<int64_t> values;
    if (sorted)
      for (const auto& [v, info] : seen) values.push_back(v);
    else
      values = first_order;
    std::vector<int64_t> index, counts, inverse;
    for (int64_t v : values) {
      index.push_back(seen[v].first);
      counts.push_back(seen[v].second);
    }
    for (int64_t v : x)
      inverse.push_back(std::find(values.begin(), values.end(), v) - values.begin());
    const vm::Value& u = field(r, 0);
    CHECK(data_of<int64_t>(field(u, 0)) == values);
    CHECK(data_of<int64_t>(field(u, 1)) == index);
    CHECK(data_of<int64_t>(field(u, 2)) == inverse);
    CHECK(data_of<int64_t>(field(u, 3)) == counts);
    CHECK(data_of<int64_t>(field(r, 1)) == values);
  }
}

TEST_CASE("e2e runtime ops: nonzero gives (ndim, count) int64 coordinates") {
  vm::Module m = build_case("nonzero");
  auto args = case_args("nonzero").at(0);
  std::vector<float> x = data_of<float>(args[0]);
  vm::Value r = run(m, args);
  std::vector<std::vector<int64_t>> coords(3);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 5; ++k)
        if (x[static_cast<size_t>((i * 4 + j) * 5 + k)] > 0) {
          coords[0].push_back(i);
          coords[1].push_back(j);
          coords[2].push_back(k);
        }
  int64_t count = static_cast<int64_t>(coords[0].size());
  REQUIRE(count > 0);
  CHECK(shape_of(r) == std::vector<int64_t>{3, count});
  std::vector<int64_t> want;
  for (const auto& row : coords) want.insert(want.end(), row.begin(), row.end());
  CHECK(data_of<int64_t>(r) == want);
}

TEST_CASE("e2e runtime ops: dynamic_strided_slice with negative begins and strides") {
  vm::Module m = build_case("dynamic_strided_slice");
  // numpy x[b0:e0:s0, b1:e1:s1], computed with the explicit range rules of Python slices.
  auto range = [](int64_t b, int64_t e, int64_t s, int64_t n) {
    std::vector<int64_t> out;
    if (b < 0) b = std::max<int64_t>(b + n, s > 0 ? 0 : -1);
    if (e < 0) e = std::max<int64_t>(e + n, s > 0 ? 0 : -1);
    b = std::min(b, s > 0 ? n : n - 1);
    e = std::min(e, s > 0 ? n : n - 1);
    for (int64_t i = b; s > 0 ? i < e : i > e; i += s) out.push_back(i);
    return out;
  };
  auto calls = case_args("dynamic_strided_slice");
  REQUIRE(calls.size() == 6);
  for (const auto& args : calls) {
    std::vector<float> x = data_of<float>(args[0]);
    auto b = data_of<int64_t>(args[1]), e = data_of<int64_t>(args[2]),
         st = data_of<int64_t>(args[3]);
    vm::Value r = run(m, args);
    auto rows = range(b[0], e[0], st[0], 6), cols = range(b[1], e[1], st[1], 7);
    std::vector<float> want;
    for (int64_t i : rows)
      for (int64_t j : cols) want.push_back(x[static_cast<size_t>(i * 7 + j)]);
    INFO("slice " << b[0] << ":" << e[0] << ":" << st[0] << ", " << b[1] << ":" << e[1] << ":"
                  << st[1]);
    CHECK(shape_of(r) == std::vector<int64_t>{static_cast<int64_t>(rows.size()),
                                              static_cast<int64_t>(cols.size())});
    CHECK(data_of<float>(r) == want);
  }
}

TEST_CASE("e2e runtime ops: the ccl collectives on a single worker") {
  vm::Module m = build_case("ccl");
  auto args = case_args("ccl").at(0);
  std::vector<float> x = data_of<float>(args[0]);
  vm::Value r = run(m, args);
  std::vector<float> want;
  for (float v : x) want.push_back(v + v);
  CHECK(data_of<float>(r) == want);

  vm::Module two = build_case("ccl_two_workers");
  auto bad = two.invoke("main", case_args("ccl_two_workers").at(0));
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("ccl.scatter_from_worker0 needs 2 workers, this runtime runs 1") !=
        std::string::npos);
}

TEST_CASE("e2e runtime ops: unique rows and columns along an axis") {
  vm::Module m = build_case("unique_axis");
  // x = [[1, 5, 1], [0, 2, 0], [1, 5, 1], [7, -1, 7]]: rows 0 and 2 are equal, columns 0 and 2.
  vm::Value r = run(m, case_args("unique_axis").at(0));
  const vm::Value& rows = field(r, 0);
  CHECK(shape_of(field(rows, 0)) == std::vector<int64_t>{3, 3});
  CHECK(data_of<float>(field(rows, 0)) == std::vector<float>{0, 2, 0, 1, 5, 1, 7, -1, 7});
  CHECK(data_of<int64_t>(field(rows, 1)) == std::vector<int64_t>{1, 0, 1, 2});
  CHECK(data_of<int64_t>(field(rows, 2)) == std::vector<int64_t>{1, 2, 1});
  // Columns in the order of first occurrence: column 0, then column 1.
  const vm::Value& cols = field(r, 1);
  CHECK(shape_of(field(cols, 0)) == std::vector<int64_t>{4, 2});
  CHECK(data_of<float>(field(cols, 0)) == std::vector<float>{1, 5, 0, 2, 1, 5, 7, -1});
  CHECK(data_of<int64_t>(field(cols, 1)) == std::vector<int64_t>{0, 1});
}

TEST_CASE("e2e: strided_slice with a symbolic begin, clamped or assumed in bounds") {
  // The slice a worker takes by its rank (TVM's sharding tests): begin `k`, end `k + 3`.
  vm::Module m = build_case("strided_slice_symbolic");
  // x[i] = i * i; k = 2, then k = 3.
  auto calls = case_args("strided_slice_symbolic");
  REQUIRE(calls.size() == 2);
  auto r = run(m, calls[0]);
  CHECK(data_of<float>((*r.as_tuple())[0]) == std::vector<float>{4, 9, 16});
  CHECK(data_of<float>((*r.as_tuple())[1]) == std::vector<float>{16, 25});
  r = run(m, calls[1]);
  CHECK(data_of<float>((*r.as_tuple())[0]) == std::vector<float>{9, 16, 25});
  CHECK(data_of<float>((*r.as_tuple())[1]) == std::vector<float>{36, 49});
}

TEST_CASE("e2e: print and assert, memory views, shape_to_tensor and marker ops run on the VM") {
  vm::Module m = build_case("print_assert_views");
  auto calls = case_args("print_assert_views");  // ok = true, then ok = false
  REQUIRE(calls.size() == 2);
  std::vector<float> x = data_of<float>(calls[0][0]);
  REQUIRE(x == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7});
  auto r = run(m, calls[0]);
  CHECK(data_of<float>((*r.as_tuple())[0]) == std::vector<float>{4, 5, 6, 7});  // bytes 16..31
  CHECK(data_of<int64_t>((*r.as_tuple())[1]) == std::vector<int64_t>{2, 4});
  CHECK(data_of<float>((*r.as_tuple())[2]) == x);
  auto failed = m.invoke("main", calls[1]);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().message.find("main: assertion failed: not ok:") != std::string::npos);
}

TEST_CASE("e2e: call_tir_inplace writes into its input, call_tir_with_grad runs as call_tir") {
  vm::Module m = build_case("inplace");
  auto args = case_args("inplace").at(0);  // x = [1, 2, 3, 4], y = [10, 20, 30, 40]
  vm::Value xv = args[0];
  auto r = run(m, args);
  CHECK(data_of<float>(r) == std::vector<float>{110, 440, 990, 1760});  // (x + y) * y
  CHECK(data_of<float>(xv) == std::vector<float>{11, 22, 33, 44});      // x was written in place
}

TEST_CASE("e2e: float16 math (erf, exp) is computed in float32 and rounded back") {
  vm::Module half = build_case("softmax_gelu_float16");
  vm::Module single = build_case("softmax_gelu_float32");
  // The same values: the float32 inputs are the float16 ones widened.
  auto h = run(half, case_args("softmax_gelu_float16").at(0));
  auto f = run(single, case_args("softmax_gelu_float32").at(0));
  auto hv = data_of<uint16_t>(h);
  auto fv = data_of<float>(f);
  REQUIRE(hv.size() == fv.size());
  for (size_t i = 0; i < fv.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(vm::half_to_float(hv[i]) - fv[i]) <= 2e-3f + 2e-3f * std::abs(fv[i]));
  }
}

TEST_CASE("e2e: the test modules are built with bounds checks: a take past the end fails") {
  vm::Module m = build_text(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), i: R.Tensor((2,), "int64")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            y = R.take(x, i, axis=0, mode="fast")
            R.output(y)
        return y
)");
  // mode="fast" has no index check of its own: the bounds checks catch the index.
  auto x = tensor<float>({4}, {10, 11, 12, 13}, vm::kFloat32);
  CHECK(data_of<float>(run(m, {x, tensor<int64_t>({2}, {3, 0}, vm::kInt64)})) ==
        std::vector<float>{13, 10});
  auto r = m.invoke("main", {x, tensor<int64_t>({2}, {1, 4}, vm::kInt64)});
  REQUIRE_FALSE(r);
  CHECK(r.error().message ==
        "main: kernel `take` failed: kernel `take`: buffer `A` (shape [4]) is accessed out of "
        "bounds: the index `B[ax0]` of dimension 0 is not in [0, 4) (it is 4)");
}

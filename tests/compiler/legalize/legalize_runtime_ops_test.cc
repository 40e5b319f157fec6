// The ops legalized into calls of VM builtins (compiler/legalize/ops_runtime.cc): each case
// legalizes a small module, checks the printed call (call_dps_packed when the output shapes are
// known, else call_pure_packed, with the attributes as R.prim_value / R.str arguments), builds
// the legalized module with compiler::build, runs it on the VM against a C++ reference, and
// records the op in tested_ops().
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "compiler/build.h"
#include "tests/compiler/legalize/legalize_test_util.h"
#include "tests/compiler/legalize/numerics_groups.h"
#include "tests/compiler/legalize/numerics_util.h"
#include "tests/compiler/vm_test_util.h"
#include "vm/runtime.h"

namespace relax::legalize_test {

namespace {

// main(params) with the body `body` (lines of the dataflow-free function body, ending in
// `return gv`).
std::string module_text(const std::string& params, const std::string& body) {
  return "@I.ir_module\nclass Module:\n    @R.function\n    def main(" + params + "):\n" + body;
}

// Legalizes `text`, checks that the printed module contains each of `expected` and no other
// op call than the builtin's, builds and returns the VM module.
vm::Module legalize_build(const std::string& op, const std::string& text,
                          const std::vector<std::string>& expected) {
  Legalized l = legalize_text(text);
  INFO(op << " legalized to:\n" << l.text);
  for (const auto& e : expected) CHECK(l.text.find(e) != std::string::npos);
  CHECK(l.text.find("R." + op.substr(6) + "(") == std::string::npos);
  CHECK_FALSE(l.diags.has_errors());
  vm::Module m = test::build_module(l.module);
  tested_ops().insert(op);
  return m;
}

using test::data_of;
using test::field;
using test::shape_of;
using test::tensor;

vm::Value run(vm::Module& m, const std::vector<vm::Value>& args) {
  return test::call_main(m, args);
}

// 1-D reference orders: stable ascending / descending by insertion.
std::vector<int64_t> stable_order(const std::vector<float>& x, bool descending) {
  std::vector<int64_t> order;
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    auto pos = order.begin();
    while (pos != order.end() &&
           (descending ? x[static_cast<size_t>(*pos)] >= x[static_cast<size_t>(i)]
                       : x[static_cast<size_t>(*pos)] <= x[static_cast<size_t>(i)]))
      ++pos;
    order.insert(pos, i);
  }
  return order;
}

}  // namespace

// legalize numerics: ops run as VM builtins
void runtime_op_cases() {
  const std::vector<float> x{2, -1, 2, 7, 0, -1, 3, 2};
  const std::string p8 = "x: R.Tensor((8,), \"float32\")";
  {
    vm::Module m = legalize_build(
        "relax.sort",
        module_text(p8, "        gv = R.sort(x, axis=0, descending=True)\n        return gv\n"),
        {"R.call_dps_packed(\"vm.builtin.sort\", (x, R.prim_value(0), R.prim_value(1)), "
         "out_sinfo=R.Tensor((8,), dtype=\"float32\"))"});
    std::vector<float> want;
    for (int64_t i : stable_order(x, true)) want.push_back(x[static_cast<size_t>(i)]);
    CHECK(data_of<float>(run(m, {tensor<float>({8}, x, vm::kFloat32)})) == want);
  }
  {
    vm::Module m = legalize_build(
        "relax.argsort",
        module_text(p8, "        gv = R.argsort(x, dtype=\"int64\")\n        return gv\n"),
        {"R.call_dps_packed(\"vm.builtin.argsort\", (x, R.prim_value(-1), R.prim_value(0)), "
         "out_sinfo=R.Tensor((8,), dtype=\"int64\"))"});
    CHECK(data_of<int64_t>(run(m, {tensor<float>({8}, x, vm::kFloat32)})) ==
          stable_order(x, false));
  }
  {
    vm::Module m = legalize_build(
        "relax.topk",
        module_text(p8, "        gv = R.topk(x, k=3, largest=True)\n        return gv\n"),
        {"R.call_dps_packed(\"vm.builtin.topk\", (x, R.prim_value(3), R.prim_value(-1), "
         "R.str(\"both\"), R.prim_value(1)), out_sinfo=[R.Tensor((3,), dtype=\"float32\"), "
         "R.Tensor((3,), dtype=\"int32\")])"});
    vm::Value r = run(m, {tensor<float>({8}, x, vm::kFloat32)});
    auto order = stable_order(x, true);
    std::vector<float> want_v;
    std::vector<int32_t> want_i;
    for (size_t k = 0; k < 3; ++k) {
      want_v.push_back(x[static_cast<size_t>(order[k])]);
      want_i.push_back(static_cast<int32_t>(order[k]));
    }
    CHECK(data_of<float>(field(r, 0)) == want_v);
    CHECK(data_of<int32_t>(field(r, 1)) == want_i);
  }
  {
    vm::Module m = legalize_build(
        "relax.unique",
        module_text(p8,
                    "        gv = R.unique(x, R.prim_value(True), R.prim_value(False), "
                    "R.prim_value(False), R.prim_value(True))\n        return gv\n"),
        {"R.call_pure_packed(\"vm.builtin.unique\", x, R.prim_value(1), R.prim_value(0), "
         "R.prim_value(0), R.prim_value(1), sinfo_args="});
    vm::Value r = run(m, {tensor<float>({8}, x, vm::kFloat32)});
    std::map<float, int64_t> counts;
    for (float v : x) ++counts[v];
    std::vector<float> want_v;
    std::vector<int64_t> want_c;
    for (const auto& [v, c] : counts) {
      want_v.push_back(v);
      want_c.push_back(c);
    }
    CHECK(data_of<float>(field(r, 0)) == want_v);
    CHECK(data_of<int64_t>(field(r, 1)) == want_c);
  }
  {
    vm::Module m = legalize_build("relax.nonzero",
                                  module_text(p8, "        gv = R.nonzero(x)\n        return gv\n"),
                                  {"R.call_pure_packed(\"vm.builtin.nonzero\", x, sinfo_args="});
    vm::Value r = run(m, {tensor<float>({8}, x, vm::kFloat32)});
    std::vector<int64_t> want;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i] != 0) want.push_back(static_cast<int64_t>(i));
    CHECK(shape_of(r) == std::vector<int64_t>{1, static_cast<int64_t>(want.size())});
    CHECK(data_of<int64_t>(r) == want);
  }
  {
    vm::Module m = legalize_build(
        "relax.dynamic_strided_slice",
        module_text(p8 + ", b: R.Tensor((1,), \"int64\"), e: R.Tensor((1,), \"int64\"), "
                         "s: R.Tensor((1,), \"int64\")",
                    "        gv = R.dynamic_strided_slice(x, b, e, s)\n        return gv\n"),
        {"R.call_pure_packed(\"vm.builtin.dynamic_strided_slice\", x, b, e, s, sinfo_args="});
    // x[-2:0:-3] = x[6], x[3]
    vm::Value r =
        run(m, {tensor<float>({8}, x, vm::kFloat32), tensor<int64_t>({1}, {-2}, vm::kInt64),
                tensor<int64_t>({1}, {0}, vm::kInt64), tensor<int64_t>({1}, {-3}, vm::kInt64)});
    CHECK(data_of<float>(r) == std::vector<float>{x[6], x[3]});
  }
  struct Ccl {
    const char* op;
    const char* call;
    const char* expected;
  };
  for (const Ccl& c : {
           Ccl{"relax.ccl.allreduce", "R.ccl.allreduce(x, op_type=\"max\")",
               "R.call_dps_packed(\"vm.builtin.ccl_allreduce\", (x, R.str(\"max\")), "},
           Ccl{"relax.ccl.allgather", "R.ccl.allgather(x, num_workers=1)",
               "R.call_dps_packed(\"vm.builtin.ccl_allgather\", (x, R.prim_value(1)), "},
           Ccl{"relax.ccl.broadcast_from_worker0", "R.ccl.broadcast_from_worker0(x)",
               "R.call_dps_packed(\"vm.builtin.ccl_broadcast_from_worker0\", (x,), "},
           Ccl{"relax.ccl.scatter_from_worker0",
               "R.ccl.scatter_from_worker0(x, num_workers=1, axis=0)",
               "R.call_dps_packed(\"vm.builtin.ccl_scatter_from_worker0\", (x, R.prim_value(1), "
               "R.prim_value(0)), "},
       }) {
    vm::Module m = legalize_build(
        c.op, module_text(p8, std::string("        gv = ") + c.call + "\n        return gv\n"),
        {c.expected});
    CHECK(data_of<float>(run(m, {tensor<float>({8}, x, vm::kFloat32)})) == x);
  }
}

TEST_CASE("legalize numerics: ops run as VM builtins") {
  runtime_op_cases();
}

TEST_CASE("legalize runtime ops: outputs of unknown shape to allocate leave the call alone") {
  // sort needs its output allocated; with only the rank known it stays (note E0741), while
  // nonzero allocates its own result.
  Legalized l = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor("float32", ndim=2)):
        s = R.sort(x)
        n = R.nonzero(x)
        return (s, n)
)");
  INFO(l.text);
  CHECK(l.text.find("R.sort(x") != std::string::npos);
  CHECK(l.text.find("R.call_pure_packed(\"vm.builtin.nonzero\", x, sinfo_args=") !=
        std::string::npos);
  std::vector<std::string> codes;
  for (const auto& d : l.diags.items()) codes.push_back(d.code);
  CHECK(codes == std::vector<std::string>{"E0741"});
}

}  // namespace relax::legalize_test

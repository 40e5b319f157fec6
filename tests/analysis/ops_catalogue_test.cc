// The op catalogue as a whole: every entry is documented and well formed, every non-structural
// op the conformance files use is registered, those files' op calls are already canonical
// (binding them changes nothing), and inference from the operands' annotations agrees with the
// struct info TVM printed. The conformance parts skip themselves when ../shared is absent.
#include <catch2/catch.hpp>

#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>

#include "analysis/ops/op_registry.h"
#include "syntax/frontend.h"
#include "syntax/printer.h"
#include "tests/analysis/ops_test_util.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

// Ops that belong to the structural part of the catalogue (call_tir and packed calls, closures,
// shape/tensor conversions, printing and assertions, memory and VM lowering, devices, gradient
// checkpoints, parameter wrapping): registered by the inference core, not by the op families.
bool is_structural(const std::string& name) {
  static const std::set<std::string> kNames = {"call_tir",
                                               "call_tir_inplace",
                                               "call_tir_with_grad",
                                               "call_dps_packed",
                                               "call_packed",
                                               "call_pure_packed",
                                               "call_inplace_packed",
                                               "call_builtin_with_ctx",
                                               "make_closure",
                                               "invoke_closure",
                                               "invoke_pure_closure",
                                               "shape_of",
                                               "tensor_to_shape",
                                               "shape_to_tensor",
                                               "null_value",
                                               "print",
                                               "assert_op",
                                               "hint_on_device",
                                               "to_vdevice",
                                               "grad.start_checkpoint",
                                               "grad.end_checkpoint",
                                               "wrap_param"};
  return kNames.count(name) || name.starts_with("memory.") || name.starts_with("vm.") ||
         name.starts_with("builtin.");
}

std::optional<std::filesystem::path> conformance_dir() {
  auto shared = test::shared_dir();
  if (!shared || !std::filesystem::exists(*shared / "conformance" / "tvm-v0.20"))
    return std::nullopt;
  return *shared / "conformance" / "tvm-v0.20";
}

// Bindings of the conformance files where our op inference gives TVM's printed struct info.
constexpr size_t kMinimumAgreement = 2169;

}  // namespace

TEST_CASE("catalogue: every op is documented and its specs are well formed") {
  const auto& ops = analysis::OpRegistry::global().all();
  std::cout << "catalogue: " << ops.size() << " ops registered\n";
  CHECK(ops.size() >= 120);
  for (const analysis::OpInfo* op : ops) {
    INFO(op->name);
    CHECK(op->name.starts_with("relax."));
    CHECK_FALSE(op->doc.empty());
    CHECK(op->signature.starts_with("R." + op->name.substr(6) + "("));
    CHECK(op->infer);
    std::set<std::string> names;
    for (const auto& a : op->args) CHECK(names.insert(a.name).second);
    for (const auto& a : op->attrs) CHECK(names.insert(a.name).second);
    for (const auto& p : op->attr_positions) {
      bool found = false;
      for (const auto& a : op->attrs) found |= a.name == p;
      CHECK(found);
    }
    for (size_t i = 0; i + 1 < op->args.size(); ++i) CHECK_FALSE(op->args[i].variadic);
    // Tensor ops are pure; only structural ops with side effects are not (SEMANTICS.md §1.9).
    static const std::set<std::string> kImpure{
        "relax.print",          "relax.assert_op",           "relax.call_builtin_with_ctx",
        "relax.invoke_closure", "relax.memory.kill_storage", "relax.memory.kill_tensor",
        "relax.vm.kill_object", "relax.vm.call_tir_dyn"};
    CHECK(op->pure == (kImpure.count(op->name) == 0));
  }
}

TEST_CASE("catalogue: signatures show arguments, then attributes with their defaults") {
  const auto* conv = analysis::OpRegistry::global().find("relax.nn.conv2d");
  REQUIRE(conv);
  CHECK(conv->signature ==
        "R.nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0], dilation=[1, 1], groups=1, "
        "data_layout=\"NCHW\", "
        "kernel_layout=\"OIHW\", out_layout=None, out_dtype=None)");
  const auto* pool = analysis::OpRegistry::global().find("relax.nn.max_pool2d");
  REQUIRE(pool);
  CHECK(pool->signature ==
        "R.nn.max_pool2d(data, pool_size=[1, 1], strides=[1, 1], padding=[0, 0], dilation=[1, 1], "
        "ceil_mode=False, "
        "count_include_pad=False, layout=\"NCHW\", out_layout=None)");
  CHECK(analysis::OpRegistry::global().find("relax.nn.layer_norm")->signature ==
        "R.nn.layer_norm(data, gamma, beta, axes, epsilon=1e-05, center=True, scale=True)");
  CHECK(analysis::OpRegistry::global().find("relax.sum")->signature ==
        "R.sum(x, axis=None, keepdims=False)");
}

TEST_CASE("catalogue: every non-structural op of the conformance files is registered") {
  auto dir = conformance_dir();
  if (!dir) {
    WARN("../shared/conformance/tvm-v0.20 is absent: skipping");
    return;
  }
  std::regex call_re(R"(R\.([a-z_][a-z_0-9.]*)\()");
  std::set<std::string> skip = {"function",   "output",     "dataflow", "func_attr", "shape",
                                "const",      "prim_value", "str",      "dtype",     "tuple",
                                "match_cast", "device",     "Tensor",   "Tuple",     "Shape",
                                "Prim",       "Object",     "Callable"};
  std::set<std::string> missing;
  size_t used = 0;
  std::set<std::string> seen;
  for (const auto& path : test::list_files(*dir, ".relax")) {
    std::string text = test::read_file(path);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), call_re);
         it != std::sregex_iterator(); ++it) {
      std::string name = (*it)[1];
      if (skip.count(name) || is_structural(name) || !seen.insert(name).second) continue;
      ++used;
      if (!analysis::OpRegistry::global().find("relax." + name)) missing.insert(name);
    }
  }
  for (const auto& m : missing) std::cout << "  not registered: R." << m << "\n";
  std::cout << "conformance ops: " << used - missing.size() << " / " << used
            << " non-structural ops registered\n";
  CHECK(missing.empty());
}

TEST_CASE("catalogue: conformance op calls are canonical and their struct info agrees with TVM's") {
  auto dir = conformance_dir();
  if (!dir) {
    WARN("../shared/conformance/tvm-v0.20 is absent: skipping");
    return;
  }
  size_t calls = 0, canonical = 0, inferred = 0, agree = 0;
  std::map<std::string, std::vector<std::string>> call_diffs, sinfo_diffs;
  for (const auto& path : test::list_files(*dir, ".relax")) {
    ir::DiagnosticBag diags;
    auto parsed = syntax::parse_text(test::read_file(path), path.string(), diags);
    for (const auto& member : parsed.module->functions) {
      auto fn = member.func.as<ir::Function>();
      if (!fn || !fn->body) continue;
      for (const auto& block : fn->body->blocks) {
        for (const auto& binding : block->bindings) {
          auto call = binding->value.as<ir::Call>();
          auto op = call ? call->op.as_ptr<ir::Op>() : nullptr;
          if (!op || !analysis::OpRegistry::global().find(op->name) ||
              is_structural(op->name.substr(6)))
            continue;
          ++calls;
          ir::DiagnosticBag op_diags;
          ir::Ref<ir::Call> canon;
          auto sinfo = test::infer_call(call, op_diags, canon);
          std::string written = syntax::to_text(ir::Ref<ir::Expr>(call));
          std::string mine = canon ? syntax::to_text(ir::Ref<ir::Expr>(canon)) : "<binding failed>";
          if (mine == written)
            ++canonical;
          else
            call_diffs[op->name].push_back(path.filename().string() + "\n      TVM:  " + written +
                                           "\n      ours: " + mine);
          if (!binding->var->struct_info || binding.is<ir::MatchCast>()) continue;
          ++inferred;
          std::string expected = syntax::to_text(binding->var->struct_info);
          std::string got =
              sinfo ? syntax::to_text(sinfo)
                    : "<error> " +
                          (op_diags.items().empty() ? std::string() : op_diags.items()[0].message);
          if (got == expected)
            ++agree;
          else
            sinfo_diffs[op->name].push_back(path.filename().string() + " " + binding->var->name +
                                            "\n      TVM:  " + expected + "\n      ours: " + got);
        }
      }
    }
  }
  auto report = [](const char* what, const std::map<std::string, std::vector<std::string>>& diffs) {
    for (const auto& [op, list] : diffs) {
      std::cout << "  " << what << " " << op << ": " << list.size() << "\n";
      for (size_t i = 0; i < list.size() && i < 3; ++i) std::cout << "    " << list[i] << "\n";
    }
  };
  report("call differs", call_diffs);
  report("struct info differs", sinfo_diffs);
  std::cout << "conformance op calls: " << canonical << " / " << calls
            << " already canonical; struct info agrees on " << agree << " / " << inferred << "\n";
  CHECK(canonical == calls);
  // The differences left are of two kinds: bindings whose annotation the test author wrote
  // (TVM installs a written annotation on a call without inferring it: R.add results in the
  // well-formedness tests, vdevices in the multi-device test, an unknown-dtype reshape in the
  // exported-program test), and strided_slice extents our analyzer simplifies further than
  // TVM's (N // 4 where TVM prints T.min(N // 4, N)). Raise the floor as inference improves.
  CHECK(agree >= kMinimumAgreement);
}

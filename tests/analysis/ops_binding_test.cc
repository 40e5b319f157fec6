// Binding written op calls to their schema (analysis/ops/call_binding.h): positional and keyword
// attributes, keywords naming tensor arguments, defaults, the positional order of ops whose
// Python signature differs from the printed order, and every binding error with its code.
#include <catch2/catch.hpp>

#include "analysis/ops/call_binding.h"
#include "analysis/ops/op_registry.h"
#include "syntax/frontend.h"
#include "tests/analysis/ops_test_util.h"

using relax::test::infer_op;
using Strings = std::vector<std::string>;

TEST_CASE("binding: positional attributes take the declaration order") {
  const char* x = R"(x: R.Tensor((2, 3, 4), "float32"))";
  CHECK(infer_op(x, "R.sum(x, [1], True)").call == "R.sum(x, axis=[1], keepdims=True)");
  CHECK(infer_op(x, "R.sum(x, 1)").call == "R.sum(x, axis=[1], keepdims=False)");
  CHECK(infer_op(x, "R.nn.softmax(x, 0)").call == "R.nn.softmax(x, axis=0)");
  CHECK(infer_op(x, "R.permute_dims(x, [2, 0, 1])").call == "R.permute_dims(x, axes=[2, 0, 1])");
}

TEST_CASE(
    "binding: positional attributes follow the Python signature where it differs from the printed "
    "order") {
  const char* x = R"(x: R.Tensor((1, 3, 32, 32), "float32"))";
  // max_pool2d(data, pool_size, strides, padding, dilation, ...) prints dilation before padding.
  auto r = infer_op(x, "R.nn.max_pool2d(x, 3, 1, 2, 2)");
  CHECK(
      r.call ==
      R"(R.nn.max_pool2d(x, pool_size=[3, 3], strides=[1, 1], dilation=[2, 2], padding=[2, 2, 2, 2], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW"))");
  CHECK(r.sinfo == R"(R.Tensor((1, 3, 32, 32), dtype="float32"))");
  // pad(data, pad_width, pad_mode, pad_value) prints pad_value before pad_mode.
  CHECK(
      infer_op(R"(x: R.Tensor((2, 2), "float32"))", R"(R.nn.pad(x, [0, 0, 1, 1], "constant", 1.5))")
          .call == R"(R.nn.pad(x, pad_width=[0, 0, 1, 1], pad_value=1.5, pad_mode="constant"))");
}

TEST_CASE("binding: keywords may name tensor arguments") {
  const char* p = R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"))";
  auto r = infer_op(p, "R.nn.conv2d(data=x, weight=w, padding=1)");
  CHECK(r.call.starts_with("R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1]"));
  CHECK(r.sinfo == R"(R.Tensor((2, 4, 28, 28), dtype="float32"))");
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((3, 4), "float32"))",
                 "R.matmul(x2=b, x1=a)")
            .call == R"(R.matmul(a, b, out_dtype="void"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.reshape(x, shape=[6])").call ==
        "R.reshape(x, R.shape([6]))");
}

TEST_CASE("binding: defaults, None and dtype None") {
  const char* x = R"(x: R.Tensor((2, 3), "float32"))";
  CHECK(infer_op(x, "R.sum(x, axis=None)").call == "R.sum(x, axis=None, keepdims=False)");
  CHECK(infer_op(x, "R.zeros_like(x, dtype=None)").call == R"(R.zeros_like(x, dtype="void"))");
  CHECK(infer_op(x, "R.nn.leakyrelu(x, alpha=1)").call == "R.nn.leakyrelu(x, alpha=1.0)");
  CHECK(infer_op(x, "R.sum(x, keepdims=1)").call == "R.sum(x, axis=None, keepdims=True)");
}

TEST_CASE("binding errors: unknown keywords, repeated values, wrong kinds, arity") {
  const char* x = R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32"))";
  auto unknown = infer_op(x, "R.sum(x, axes=[1])");
  CHECK(unknown.errors == Strings{"E0303@[1]"});
  CHECK(unknown.messages.find("R.sum got an unexpected keyword argument `axes`") !=
        std::string::npos);
  CHECK(unknown.messages.find("note: R.sum takes: axis, keepdims") != std::string::npos);
  CHECK(unknown.call.empty());
  CHECK(infer_op(x, "R.add(x, y, x1=x)").errors == Strings{"E0303@x"});
  CHECK(infer_op(x, "R.sum(x, [1], axis=[0])").errors == Strings{"E0303@[0]"});
  auto kind = infer_op(x, R"(R.sum(x, axis="a"))");
  CHECK(kind.errors == Strings{"E0305@\"a\""});
  CHECK(kind.messages.find("`axis` must be a list of integers or None") != std::string::npos);
  CHECK(infer_op(x, "R.nn.softmax(x, axis=1.5)").errors == Strings{"E0305@1.5"});
  CHECK(infer_op(x, "R.nn.softmax(x, axis=True)").errors == Strings{"E0305@True"});
  CHECK(infer_op(x, R"(R.nn.leakyrelu(x, alpha="big"))").errors == Strings{"E0305@\"big\""});
  CHECK(infer_op(x, "R.sum(x, keepdims=2)").errors == Strings{"E0305@2"});
  CHECK(infer_op(x, R"(R.astype(x, 5))").errors == Strings{"E0305@5"});
  auto many = infer_op(x, "R.exp(x, 1)");
  CHECK(many.errors == Strings{"E0302@1"});
  CHECK(many.messages.find("R.exp takes at most 1 positional arguments, got 2") !=
        std::string::npos);
  CHECK(infer_op(x, "R.add(x)").errors == Strings{"E0304@R.add(x)"});
  CHECK(infer_op(x, "R.astype(x)").errors == Strings{"E0304@R.astype(x)"});
  CHECK(infer_op(x, "R.astype(x)").messages.find("R.astype is missing the attribute `dtype`") !=
        std::string::npos);
}

TEST_CASE("binding: dtype arguments take strings, None keeps the default, a bad name is E0305") {
  const char* s = R"(s: R.Object, x: R.Tensor((2, 3), "float32"))";
  auto alloc = infer_op(s, R"(R.memory.alloc_tensor(s, 0, R.shape([2, 3]), "float16"))");
  CHECK(alloc.errors.empty());
  CHECK(alloc.call ==
        R"(R.memory.alloc_tensor(s, R.prim_value(0), R.shape([2, 3]), R.dtype("float16")))");
  CHECK(alloc.sinfo == R"(R.Tensor((2, 3), dtype="float16"))");
  CHECK(infer_op(s, R"(R.builtin.alloc_tensor(R.shape([4]), dtype="int8", runtime_device_index=0))")
            .sinfo == R"(R.Tensor((4,), dtype="int8"))");
  // TVM's wrapper defaults the VM's storage scope.
  CHECK(infer_op(s, R"(R.vm.alloc_storage(R.shape([8]), 0, "uint8"))").call ==
        R"(R.vm.alloc_storage(R.shape([8]), R.prim_value(0), R.dtype("uint8"), R.str("global")))");
  CHECK(infer_op(s, "R.memory.view(x, dtype=None)").call ==
        "R.memory.view(x, R.tuple(), R.tuple(), R.tuple())");
  auto bad = infer_op(s, R"(R.memory.alloc_tensor(s, 0, R.shape([2]), "floaty"))");
  CHECK(bad.errors == Strings{"E0305@\"floaty\""});
  CHECK(bad.messages.find("`dtype` must be a dtype, got \"floaty\"") != std::string::npos);
}

TEST_CASE("binding: a canonical call is returned unchanged") {
  relax::ir::DiagnosticBag diags;
  auto parsed = relax::syntax::parse_text(R"(@R.function
def f(x: R.Tensor((2, 3), "float32")):
    gv = R.sum(x, axis=[1], keepdims=False)
    return gv
)",
                                          "canonical.relax", diags);
  REQUIRE_FALSE(diags.has_errors());
  auto fn = parsed.module->functions.front().func.as<relax::ir::Function>();
  auto call = fn->body->blocks[0]->bindings[0]->value.as<relax::ir::Call>();
  const auto* op = relax::analysis::OpRegistry::global().find("relax.sum");
  REQUIRE(op);
  auto bound = relax::analysis::bind_op_call(*op, call, diags);
  CHECK(bound.same_as(call));
  CHECK(diags.empty());
}

// Inference of the elementwise unary ops and the activations (SEMANTICS.md §3.1-3.2; TVM's
// test_op_unary.py and test_op_nn.py): static, symbolic and unknown shapes, dtype requirements.
#include <catch2/catch.hpp>

#include "tests/analysis/ops_test_util.h"

using relax::test::infer_op;
using Strings = std::vector<std::string>;

TEST_CASE("unary: the input's struct info is kept, for every shape form") {
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.exp(x)").sinfo ==
        R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", 3), "float16"))", "R.tanh(x)").sinfo ==
        R"(R.Tensor((n, 3), dtype="float16"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=3))", "R.sqrt(x)").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=3))");
  CHECK(infer_op(R"(x: R.Tensor("float32"))", "R.sin(x)").sinfo == R"(R.Tensor(dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3)))", "R.log(x)").sinfo == R"(R.Tensor((2, 3)))");
  CHECK(infer_op(R"(x: R.Tensor(ndim=2))", "R.erf(x)").sinfo == R"(R.Tensor(ndim=2))");
  CHECK(infer_op(R"(x: R.Tensor((4,), "int32"))", "R.abs(x)").sinfo ==
        R"(R.Tensor((4,), dtype="int32"))");
  CHECK(infer_op(R"(x: R.Tensor((4,), "int8"))", "R.negative(x)").sinfo ==
        R"(R.Tensor((4,), dtype="int8"))");
  CHECK(infer_op(R"(x: R.Tensor((4,), "bool"))", "R.logical_not(x)").sinfo ==
        R"(R.Tensor((4,), dtype="bool"))");
  CHECK(infer_op(R"(x: R.Tensor((4,), "bfloat16"))", "R.rsqrt(x)").sinfo ==
        R"(R.Tensor((4,), dtype="bfloat16"))");
}

TEST_CASE(
    "unary: float-only ops reject integer input "
    "(test_unary_arith_infer_struct_info_invalid_input_dtype)") {
  for (const char* op : {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
                         "log", "rsqrt", "sigmoid", "sin", "sinh", "sqrt", "tan", "tanh", "erf"}) {
    INFO(op);
    auto r = infer_op(R"(x: R.Tensor((2, 3), "int64"))", std::string("R.") + op + "(x)");
    CHECK(r.sinfo.empty());
    CHECK(r.errors == Strings{"E0311@x"});
    CHECK(r.messages.find("to have a float dtype, got int64") != std::string::npos);
  }
  // Ops that take any dtype accept it.
  for (const char* op : {"abs", "bitwise_not", "ceil", "floor", "logical_not", "negative", "round",
                         "sign", "square", "trunc"}) {
    INFO(op);
    CHECK(infer_op(R"(x: R.Tensor((2, 3), "int64"))", std::string("R.") + op + "(x)").sinfo ==
          R"(R.Tensor((2, 3), dtype="int64"))");
  }
  // Unknown dtypes are not rejected.
  CHECK(infer_op(R"(x: R.Tensor((2, 3)))", "R.exp(x)").errors.empty());
}

TEST_CASE("unary: non-tensor arguments are rejected at the argument") {
  auto r = infer_op(R"(s: R.Shape([2, 3]))", "R.exp(s)");
  CHECK(r.errors == Strings{"E0306@s"});
  CHECK(infer_op(R"(x: R.Prim("float32"))", "R.sqrt(x)").errors == Strings{"E0306@x"});
}

TEST_CASE("unary checks: isfinite, isinf, isnan give bool") {
  for (const char* op : {"isfinite", "isinf", "isnan"}) {
    INFO(op);
    CHECK(infer_op(R"(x: R.Tensor(("n", 3), "float32"))", std::string("R.") + op + "(x)").sinfo ==
          R"(R.Tensor((n, 3), dtype="bool"))");
    CHECK(infer_op(R"(x: R.Tensor("float16", ndim=2))", std::string("R.") + op + "(x)").sinfo ==
          R"(R.Tensor(dtype="bool", ndim=2))");
  }
}

TEST_CASE("clip: bounds are prim values, the result is the input's") {
  auto r = infer_op(R"(x: R.Tensor((1, 3, 10, 10), "float32"))", "R.clip(x, 0, 6)");
  CHECK(r.sinfo == R"(R.Tensor((1, 3, 10, 10), dtype="float32"))");
  CHECK(r.call == "R.clip(x, R.prim_value(0), R.prim_value(6))");
  CHECK(infer_op(R"(x: R.Tensor((2,), "float32"))", "R.clip(x, 0.5, 1.5)").call ==
        "R.clip(x, R.prim_value(T.float64(0.5)), R.prim_value(T.float64(1.5)))");
  auto bad =
      infer_op(R"(x: R.Tensor((2,), "float32"), lo: R.Tensor((), "float32"))", "R.clip(x, lo, 6)");
  CHECK(bad.errors == Strings{"E0317@lo"});
  CHECK(infer_op(R"(x: R.Tensor((2,), "float32"))", "R.clip(x, 0)").errors ==
        Strings{"E0304@R.clip(x, 0)"});
}

TEST_CASE("activations: relu takes any dtype, the others need floats") {
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "int32"))", "R.nn.relu(x)").sinfo ==
        R"(R.Tensor((2, 3), dtype="int32"))");
  for (const char* op : {"gelu", "gelu_tanh", "selu", "silu", "leakyrelu", "softplus"}) {
    INFO(op);
    CHECK(infer_op(R"(x: R.Tensor(("m", "n"), "float32"))", std::string("R.nn.") + op + "(x)")
              .sinfo == R"(R.Tensor((m, n), dtype="float32"))");
    CHECK(infer_op(R"(x: R.Tensor((2, 3), "int8"))", std::string("R.nn.") + op + "(x)").errors ==
          Strings{"E0311@x"});
  }
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.nn.leakyrelu(x)").call ==
        "R.nn.leakyrelu(x, alpha=0.01)");
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.nn.leakyrelu(x, 0.2)").call ==
        "R.nn.leakyrelu(x, alpha=0.20000000000000001)");
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.nn.softplus(x, threshold=10)").call ==
        "R.nn.softplus(x, beta=1.0, threshold=10.0)");
}

TEST_CASE("softmax and log_softmax (test_softmax_log_softmax_infer_struct_info)") {
  for (const char* op : {"softmax", "log_softmax"}) {
    INFO(op);
    std::string call = std::string("R.nn.") + op;
    auto r = infer_op(R"(x: R.Tensor((2, 3), "float32"))", call + "(x)");
    CHECK(r.sinfo == R"(R.Tensor((2, 3), dtype="float32"))");
    CHECK(r.call == call + "(x, axis=-1)");
    CHECK(infer_op(R"(x: R.Tensor(("m", "n"), "float32"))", call + "(x, axis=0)").sinfo ==
          R"(R.Tensor((m, n), dtype="float32"))");
    CHECK(infer_op(R"(x: R.Tensor("float32", ndim=3))", call + "(x, axis=1)").sinfo ==
          R"(R.Tensor(dtype="float32", ndim=3))");
    // Unknown rank: the axis cannot be checked.
    CHECK(infer_op(R"(x: R.Tensor("float32"))", call + "(x, axis=7)").sinfo ==
          R"(R.Tensor(dtype="float32"))");
    CHECK(infer_op(R"(x: R.Tensor((2, 3), "bfloat16"))", call + "(x)").errors.empty());
    auto bad_axis = infer_op(R"(x: R.Tensor((2, 3), "float32"))", call + "(x, axis=2)");
    CHECK(bad_axis.errors == Strings{"E0309@2"});
    CHECK(bad_axis.messages.find("axis 2 is out of range for a tensor of rank 2") !=
          std::string::npos);
    CHECK(infer_op(R"(x: R.Tensor((2, 3), "int32"))", call + "(x)").errors == Strings{"E0311@x"});
  }
}

TEST_CASE("prelu: float only (no bfloat), the channel axis is checked") {
  auto r = infer_op(R"(x: R.Tensor((1, 3, 4, 4), "float32"), a: R.Tensor((3,), "float32"))",
                    "R.nn.prelu(x, a)");
  CHECK(r.sinfo == R"(R.Tensor((1, 3, 4, 4), dtype="float32"))");
  CHECK(r.call == "R.nn.prelu(x, a, axis=1)");
  CHECK(infer_op(R"(x: R.Tensor((1, 3), "bfloat16"), a: R.Tensor((3,), "bfloat16"))",
                 "R.nn.prelu(x, a)")
            .errors == Strings{"E0311@x"});
  CHECK(infer_op(R"(x: R.Tensor((1, 3), "float32"), a: R.Tensor((3,), "float32"))",
                 "R.nn.prelu(x, a, axis=4)")
            .errors == Strings{"E0309@4"});
  CHECK(infer_op(R"(x: R.Tensor((1, 3), "float32"), a: R.Shape([3]))", "R.nn.prelu(x, a)").errors ==
        Strings{"E0306@a"});
}

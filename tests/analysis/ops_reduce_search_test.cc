// Inference of binary broadcasting ops, where, reductions, scans, argmax/argmin, sorting and
// ewise_fma (SEMANTICS.md §3.3-3.4; TVM's test_op_binary.py, test_op_statistical.py and
// test_op_search.py).
#include <catch2/catch.hpp>

#include "tests/analysis/ops_test_util.h"

using relax::test::infer_op;
using Strings = std::vector<std::string>;

TEST_CASE("binary: broadcasting of static shapes (test_binary_arith_infer_struct_info)") {
  const char* p =
      R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((1, 3), "float32"), z: R.Tensor((4, 1, 3), "float32"))";
  CHECK(infer_op(p, "R.add(x, y)").sinfo == R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(infer_op(p, "R.multiply(x, z)").sinfo == R"(R.Tensor((4, 2, 3), dtype="float32"))");
  CHECK(infer_op(p, "R.subtract(z, y)").sinfo == R"(R.Tensor((4, 1, 3), dtype="float32"))");
  CHECK(infer_op(p, "R.less(x, z)").sinfo == R"(R.Tensor((4, 2, 3), dtype="bool"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=2), y: R.Tensor((1, 3), "float32"))", "R.add(x, y)")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(
      infer_op(R"(x: R.Tensor("float32"), y: R.Tensor((1, 3), "float32"))", "R.add(x, y)").sinfo ==
      R"(R.Tensor(dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3)), y: R.Tensor((2, 3), "float32"))", "R.add(x, y)").sinfo ==
        R"(R.Tensor((2, 3)))");
}

TEST_CASE("binary: symbolic shapes (test_binary_infer_struct_info_shape_symbolic)") {
  CHECK(infer_op(R"(x: R.Tensor(("m", "n"), "float32"), y: R.Tensor(("m", "n"), "float32"))",
                 "R.add(x, y)")
            .sinfo == R"(R.Tensor((m, n), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("m", "n"), "float32"), y: R.Tensor(("m", "n + 2"), "float32"))",
                 "R.add(x, y)")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(R"(x: R.Tensor((1, "n"), "float32"), y: R.Tensor((4, "k", "m", 1), "float32"))",
                 "R.add(x, y)")
            .sinfo == R"(R.Tensor((4, k, m, n), dtype="float32"))");
  CHECK(infer_op(
            R"(x: R.Tensor(("k", "n", "m"), "float32"), y: R.Tensor((4, "k", "m", 1), "float32"))",
            "R.add(x, y)")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=4))");
}

TEST_CASE("binary: unequal constant dims and dtype mismatches are errors at the rhs") {
  auto r =
      infer_op(R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 4), "float32"))", "R.add(x, y)");
  CHECK(r.errors == Strings{"E0308@y"});
  CHECK(r.messages.find("lhs dimension 1 is 3, rhs dimension 1 is 4") != std::string::npos);
  auto d = infer_op(R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "int32"))",
                    "R.multiply(x, y)");
  CHECK(d.errors == Strings{"E0307@y"});
  CHECK(d.messages.find("lhs is float32, rhs is int32") != std::string::npos);
  // A bool operand takes the lhs dtype (TVM's quirk); comparisons never check dtypes.
  CHECK(
      infer_op(R"(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "bool"))", "R.add(x, y)").sinfo ==
      R"(R.Tensor((2,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "int32"))", "R.equal(x, y)")
            .sinfo == R"(R.Tensor((2,), dtype="bool"))");
}

TEST_CASE("binary: prim operands") {
  CHECK(infer_op(R"(x: R.Prim("float32"), y: R.Prim("float32"))", "R.add(x, y)").sinfo ==
        R"(R.Prim("float32"))");
  CHECK(infer_op(R"(x: R.Tensor((), "float32"), y: R.Prim("float32"))", "R.add(x, y)").sinfo ==
        R"(R.Tensor((1,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2,), "float32"), s: R.Shape([2]))", "R.add(x, s)").errors ==
        Strings{"E0306@s"});
}

TEST_CASE("where (test_where_infer_struct_info)") {
  const char* p =
      R"(c: R.Tensor((6, 5, 1, 3, 1), "bool"), x: R.Tensor((5, 1, 3, 2), "float32"), y: R.Tensor((4, 3, 1), "float32"))";
  CHECK(infer_op(p, "R.where(c, x, y)").sinfo == R"(R.Tensor((6, 5, 4, 3, 2), dtype="float32"))");
  CHECK(
      infer_op(
          R"(c: R.Tensor(("a", "b"), "bool"), x: R.Tensor(("a", 1), "float32"), y: R.Tensor((1, "b"), "float32"))",
          "R.where(c, x, y)")
          .sinfo == R"(R.Tensor((a, b), dtype="float32"))");
  CHECK(
      infer_op(
          R"(c: R.Tensor("bool", ndim=2), x: R.Tensor((5, 1, 3), "float32"), y: R.Tensor((3,), "float32"))",
          "R.where(c, x, y)")
          .sinfo == R"(R.Tensor(dtype="float32", ndim=3))");
  CHECK(
      infer_op(R"(c: R.Tensor((2,), "bool"), x: R.Tensor("float32"), y: R.Tensor((2,), "float32"))",
               "R.where(c, x, y)")
          .sinfo == R"(R.Tensor(dtype="float32"))");
  CHECK(
      infer_op(
          R"(c: R.Tensor((2,), "int32"), x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32"))",
          "R.where(c, x, y)")
          .errors == Strings{"E0311@c"});
  CHECK(
      infer_op(
          R"(c: R.Tensor((2,), "bool"), x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float16"))",
          "R.where(c, x, y)")
          .errors == Strings{"E0307@y"});
  CHECK(
      infer_op(
          R"(c: R.Tensor((3,), "bool"), x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32"))",
          "R.where(c, x, y)")
          .errors == Strings{"E0308@c"});
}

TEST_CASE("reductions (test_statistical_infer_struct_info)") {
  const char* x = R"(x: R.Tensor((2, 3, 4, 5), "float32"))";
  for (const char* op : {"sum", "mean", "max", "min", "prod", "std", "variance"}) {
    INFO(op);
    std::string f = std::string("R.") + op;
    auto r = infer_op(x, f + "(x, axis=[1, 2])");
    CHECK(r.sinfo == R"(R.Tensor((2, 5), dtype="float32"))");
    CHECK(r.call == f + "(x, axis=[1, 2], keepdims=False)");
    CHECK(infer_op(x, f + "(x, axis=[1, 2], keepdims=True)").sinfo ==
          R"(R.Tensor((2, 1, 1, 5), dtype="float32"))");
    CHECK(infer_op(x, f + "(x)").sinfo == R"(R.Tensor((), dtype="float32"))");
    CHECK(infer_op(x, f + "(x, keepdims=True)").sinfo ==
          R"(R.Tensor((1, 1, 1, 1), dtype="float32"))");
    CHECK(infer_op(x, f + "(x, -1)").sinfo == R"(R.Tensor((2, 3, 4), dtype="float32"))");
  }
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=4))", "R.sum(x, axis=[1, 2])").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(
      infer_op(R"(x: R.Tensor("float32", ndim=4))", "R.sum(x, axis=[1, 2], keepdims=True)").sinfo ==
      R"(R.Tensor(dtype="float32", ndim=4))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=4))", "R.sum(x, keepdims=True)").sinfo ==
        R"(R.Tensor((1, 1, 1, 1), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32"))", "R.sum(x, axis=[1, 2])").sinfo ==
        R"(R.Tensor(dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32"))", "R.sum(x)").sinfo ==
        R"(R.Tensor((), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("a", "b", "c"), "int32"))", "R.mean(x, axis=[0])").sinfo ==
        R"(R.Tensor((b, c), dtype="int32"))");
}

TEST_CASE(
    "reductions: axis out of range or repeated "
    "(test_statistical_infer_struct_info_axis_out_of_range_repetitive)") {
  const char* x = R"(x: R.Tensor((2, 3, 4, 5), "float32"))";
  CHECK(infer_op(x, "R.sum(x, axis=[4])").errors == Strings{"E0309@[4]"});
  CHECK(infer_op(x, "R.mean(x, axis=[-5])").errors == Strings{"E0309@[-5]"});
  auto r = infer_op(x, "R.max(x, axis=[1, -3])");
  CHECK(r.errors == Strings{"E0310@[1, -3]"});
  CHECK(r.messages.find("axis 1 appears more than once") != std::string::npos);
  CHECK(infer_op(R"(x: R.Shape([2]))", "R.sum(x)").errors == Strings{"E0306@x"});
}

TEST_CASE("argmax and argmin (test_argmax_argmin_infer_struct_info)") {
  const char* x = R"(x: R.Tensor((2, 3, 4, 5), "float32"))";
  for (const char* op : {"argmax", "argmin"}) {
    INFO(op);
    std::string f = std::string("R.") + op;
    auto r = infer_op(x, f + "(x, axis=1)");
    CHECK(r.sinfo == R"(R.Tensor((2, 4, 5), dtype="int64"))");
    CHECK(r.call == f + "(x, axis=1, keepdims=False)");
    CHECK(infer_op(x, f + "(x, axis=1, keepdims=True)").sinfo ==
          R"(R.Tensor((2, 1, 4, 5), dtype="int64"))");
    CHECK(infer_op(x, f + "(x)").sinfo == R"(R.Tensor((), dtype="int64"))");
    CHECK(infer_op(x, f + "(x, keepdims=True)").sinfo ==
          R"(R.Tensor((1, 1, 1, 1), dtype="int64"))");
    CHECK(infer_op(R"(x: R.Tensor(("n", "m"), "float32"))", f + "(x, axis=-1)").sinfo ==
          R"(R.Tensor((n,), dtype="int64"))");
    CHECK(infer_op(R"(x: R.Tensor("float32", ndim=3))", f + "(x, axis=1)").sinfo ==
          R"(R.Tensor(dtype="int64", ndim=2))");
    CHECK(infer_op(R"(x: R.Tensor("float32"))", f + "(x, axis=1)").sinfo ==
          R"(R.Tensor(dtype="int64"))");
    CHECK(infer_op(x, f + "(x, axis=4)").errors == Strings{"E0309@4"});
  }
}

TEST_CASE("cumsum and cumprod") {
  const char* x = R"(x: R.Tensor((2, 3, 4), "float32"))";
  auto r = infer_op(x, "R.cumsum(x, axis=1)");
  CHECK(r.sinfo == R"(R.Tensor((2, 3, 4), dtype="float32"))");
  CHECK(r.call == R"(R.cumsum(x, axis=1, dtype="void", exclusive=False))");
  CHECK(infer_op(x, "R.cumsum(x)").sinfo == R"(R.Tensor((24,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", 4), "float32"))", "R.cumprod(x)").sinfo ==
        R"(R.Tensor((n * 4,), dtype="float32"))");
  CHECK(infer_op(x, R"(R.cumprod(x, axis=-1, dtype="float64"))").sinfo ==
        R"(R.Tensor((2, 3, 4), dtype="float64"))");
  CHECK(infer_op(R"(x: R.Tensor("int32", ndim=2))", "R.cumsum(x)").sinfo ==
        R"(R.Tensor(dtype="int32", ndim=1))");
  CHECK(infer_op(x, "R.cumsum(x, axis=3)").errors == Strings{"E0309@3"});
}

TEST_CASE("sort, argsort and topk") {
  const char* x = R"(x: R.Tensor((5, 10), "float32"))";
  CHECK(infer_op(x, "R.sort(x, axis=1, descending=True)").sinfo ==
        R"(R.Tensor((5, 10), dtype="float32"))");
  auto a = infer_op(x, "R.argsort(x)");
  CHECK(a.sinfo == R"(R.Tensor((5, 10), dtype="int32"))");
  CHECK(a.call == R"(R.argsort(x, axis=-1, descending=False, dtype="int32"))");
  auto t = infer_op(x, "R.topk(x, 2)");
  CHECK(t.sinfo ==
        R"(R.Tuple(R.Tensor((5, 2), dtype="float32"), R.Tensor((5, 2), dtype="int32")))");
  CHECK(t.call == R"(R.topk(x, k=2, axis=-1, ret_type="both", largest=True, dtype="int32"))");
  CHECK(infer_op(x, R"(R.topk(x, k=3, axis=0, ret_type="values"))").sinfo ==
        R"(R.Tensor((3, 10), dtype="float32"))");
  CHECK(infer_op(x, R"(R.topk(x, k=3, ret_type="indices", dtype="int64"))").sinfo ==
        R"(R.Tensor((5, 3), dtype="int64"))");
  // k beyond the axis (or < 1) keeps the axis.
  CHECK(infer_op(x, R"(R.topk(x, k=20, ret_type="values"))").sinfo ==
        R"(R.Tensor((5, 10), dtype="float32"))");
  CHECK(
      infer_op(R"(x: R.Tensor("float32", ndim=2))", R"(R.topk(x, k=3, ret_type="values"))").sinfo ==
      R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(x, R"(R.topk(x, k=3, ret_type="all"))").errors == Strings{"E0316@\"all\""});
  CHECK(infer_op(x, "R.sort(x, axis=2)").errors == Strings{"E0309@2"});
}

TEST_CASE("ewise_fma: three tensors of one shape") {
  const char* p =
      R"(a: R.Tensor((2, "n"), "float32"), b: R.Tensor((2, "n"), "float32"), c: R.Tensor((2, "n"), "float32"))";
  CHECK(infer_op(p, "R.ewise_fma(a, b, c)").sinfo == R"(R.Tensor((2, n), dtype="float32"))");
  CHECK(
      infer_op(
          R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 3), "float32"), c: R.Tensor((2, 4), "float32"))",
          "R.ewise_fma(a, b, c)")
          .errors == Strings{"E0313@c"});
  CHECK(
      infer_op(
          R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 3), "int32"), c: R.Tensor((2, 3), "float32"))",
          "R.ewise_fma(a, b, c)")
          .errors == Strings{"E0307@b"});
  CHECK(
      infer_op(
          R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((3,), "float32"), c: R.Tensor((2, 3), "float32"))",
          "R.ewise_fma(a, b, c)")
          .errors == Strings{"E0312@b"});
  CHECK(
      infer_op(
          R"(a: R.Tensor("float32", ndim=2), b: R.Tensor((2, 3), "float32"), c: R.Tensor((2, 3), "float32"))",
          "R.ewise_fma(a, b, c)")
          .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
}

TEST_CASE("nonzero: int64 indices of rank 2") {
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"))", "R.nonzero(x)").sinfo ==
        R"(R.Tensor(dtype="int64", ndim=2))");
}

TEST_CASE("unique: values alone, along an axis, and with index outputs") {
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"))",
                 "R.unique(x, R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(0))")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=1))");
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"))",
                 "R.unique(x, R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(0), "
                 "R.prim_value(-1))")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(
      infer_op(R"(x: R.Tensor((3, 4), "int32"))",
               "R.unique(x, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.prim_value(1))")
          .sinfo ==
      R"(R.Tuple(R.Tensor(dtype="int32", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)))");
  CHECK(infer_op(R"(x: R.Tensor((), "float32"))",
                 "R.unique(x, R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(0))")
            .sinfo == R"(R.Tensor((1,), dtype="float32"))");
}

TEST_CASE("unique: an axis out of range is an error") {
  auto r = infer_op(R"(x: R.Tensor((3, 4), "float32"))",
                    "R.unique(x, R.prim_value(1), R.prim_value(0), R.prim_value(0), "
                    "R.prim_value(0), R.prim_value(2))");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].rfind("E0309@", 0) == 0);
}

// Inference of the indexing and creation ops (SEMANTICS.md §3.11-3.12; TVM's test_op_index.py
// and test_op_create.py).
#include <catch2/catch.hpp>

#include "tests/analysis/ops_test_util.h"

using relax::test::infer_op;
using Strings = std::vector<std::string>;

TEST_CASE("take (test_take_infer_struct_info)") {
  const char* p = R"(x: R.Tensor((4, 10), "float32"), i: R.Tensor((6,), "int64"))";
  auto r = infer_op(p, "R.take(x, i, axis=1)");
  CHECK(r.sinfo == R"(R.Tensor((4, 6), dtype="float32"))");
  CHECK(r.call == "R.take(x, i, axis=1)");
  CHECK(infer_op(p, "R.take(x, i, 0)").sinfo == R"(R.Tensor((6, 10), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((4, 10), "float32"), i: R.Tensor((2, 3), "int32"))",
                 "R.take(x, i, axis=1)")
            .sinfo == R"(R.Tensor((4, 2, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((10,), "float32"), i: R.Tensor((6,), "int64"))", "R.take(x, i)")
            .sinfo == R"(R.Tensor((6,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 4), "float32"))", "R.take(x, R.prim_value(1), axis=1)")
            .sinfo == R"(R.Tensor((2, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", "m"), "float32"), i: R.Tensor(("k",), "int64"))",
                 "R.take(x, i, axis=0)")
            .sinfo == R"(R.Tensor((k, m), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=2), i: R.Tensor((6,), "int64"))",
                 "R.take(x, i, axis=1)")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(R"(x: R.Tensor("float32"), i: R.Tensor((6,), "int64"))", "R.take(x, i, axis=1)")
            .sinfo == R"(R.Tensor(dtype="float32"))");
  // test_take_infer_struct_info_multi_dimensional_without_axis
  auto multi = infer_op(p, "R.take(x, i)");
  CHECK(multi.errors == Strings{"E0312@x"});
  CHECK(infer_op(R"(x: R.Tensor("float32"), i: R.Tensor((6,), "int64"))", "R.take(x, i)").errors ==
        Strings{"E0312@x"});
  CHECK(infer_op(R"(x: R.Tensor((4, 10), "float32"), i: R.Tensor((6,), "float32"))",
                 "R.take(x, i, axis=1)")
            .errors == Strings{"E0311@i"});
  CHECK(infer_op(p, "R.take(x, i, axis=2)").errors == Strings{"E0309@2"});
  CHECK(infer_op(R"(x: R.Tensor((4, 10), "float32"), s: R.Shape([1]))", "R.take(x, s, axis=1)")
            .errors == Strings{"E0306@s"});
}

TEST_CASE("strided_slice (test_strided_slice_infer_struct_info)") {
  const char* x = R"(x: R.Tensor((8, 9, 10, 10), "float32"))";
  auto r = infer_op(x, "R.strided_slice(x, [0, 1, 3], [1, 0, 8], [8, 9, 0], [2, 1, -3])");
  CHECK(r.sinfo == R"(R.Tensor((4, 9, 10, 3), dtype="float32"))");
  CHECK(r.call ==
        "R.strided_slice(x, (R.prim_value(0), R.prim_value(1), R.prim_value(3)), (R.prim_value(1), "
        "R.prim_value(0), R.prim_value(8)), (R.prim_value(8), R.prim_value(9), R.prim_value(0)), "
        "(R.prim_value(2), R.prim_value(1), R.prim_value(-3)), assume_inbound=False)");
  CHECK(infer_op(x, "R.strided_slice(x, axes=[0], begin=[1], end=[3])").sinfo ==
        R"(R.Tensor((2, 9, 10, 10), dtype="float32"))");
  CHECK(infer_op(x, "R.strided_slice(x, [0], [-3], [100])").sinfo ==
        R"(R.Tensor((3, 9, 10, 10), dtype="float32"))");
  CHECK(infer_op(x, "R.strided_slice(x, [1], [5], [2])").sinfo ==
        R"(R.Tensor((8, 0, 10, 10), dtype="float32"))");
  auto sym = relax::test::infer_bindings(R"(@R.function
def f(x: R.Tensor(("m", "n"), "float32")):
    m = T.int64()
    a = R.strided_slice(x, [0], [1], [m], assume_inbound=True)
    b = R.strided_slice(x, [0], [0], [m - 1])
    return b
)");
  REQUIRE(sym.size() == 2);
  CHECK(sym[0].sinfo == R"(R.Tensor((m - 1, n), dtype="float32"))");
  CHECK(sym[0].call ==
        "R.strided_slice(x, (R.prim_value(0),), (R.prim_value(1),), (R.prim_value(m),), "
        "assume_inbound=True)");
  CHECK(sym[1].errors.empty());
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=4))", "R.strided_slice(x, [0], [1], [3])").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=4))");
  CHECK(infer_op(R"(x: R.Tensor((8, 9), "float32"), a: R.Tuple(R.Prim("int64")))",
                 "R.strided_slice(x, a, [1], [3])")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(x, "R.strided_slice(x, [0, 1], [1], [3, 4])").errors == Strings{"E0316@[1]"});
  CHECK(infer_op(x, "R.strided_slice(x, [4], [1], [3])").errors == Strings{"E0309@[4]"});
  CHECK(infer_op(x, "R.strided_slice(x, [0], [1], [3], [0])").errors == Strings{"E0316@[0]"});
  CHECK(infer_op(R"(x: R.Tensor((8, 9), "float32"), t: R.Tensor((1,), "int64"))",
                 "R.strided_slice(x, [0], t, [3])")
            .errors == Strings{"E0317@t"});
  auto d = infer_op(
      R"(x: R.Tensor((8, 9), "float32"), b: R.Tensor((2,), "int64"), e: R.Tensor((2,), "int64"), s: R.Tensor((2,), "int64"))",
      "R.dynamic_strided_slice(x, b, e, s)");
  CHECK(d.sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(
      infer_op(
          R"(x: R.Tensor((8, 9), "float32"), b: R.Tensor((2, 1), "int64"), e: R.Tensor((2,), "int64"), s: R.Tensor((2,), "int64"))",
          "R.dynamic_strided_slice(x, b, e, s)")
          .errors == Strings{"E0312@b"});
}

TEST_CASE("full, zeros, ones and the *_like ops (test_full_infer_struct_info)") {
  auto f = infer_op(R"(v: R.Tensor((), "float32"))", "R.full((2, 3), v)");
  CHECK(f.sinfo == R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(f.call == R"(R.full(R.shape([2, 3]), v, dtype="void"))");
  CHECK(infer_op(R"(v: R.Tensor((), "float32"))", R"(R.full((2, 3), v, "int32"))").sinfo ==
        R"(R.Tensor((2, 3), dtype="int32"))");
  CHECK(infer_op(R"(v: R.Tensor((), "float32"), s: R.Shape(["m", "n"]))", "R.full(s, v)").sinfo ==
        R"(R.Tensor(s, dtype="float32"))");
  CHECK(
      infer_op(R"(v: R.Tensor((), "int32"))", R"(R.full(R.shape(["m", "n"]), v))").errors.size() <=
      1);
  CHECK(infer_op(R"(v: R.Tensor((1,), "float32"))", "R.full((2, 3), v)").errors ==
        Strings{"E0312@v"});
  CHECK(infer_op(R"(v: R.Tensor((), "float32"), t: R.Tensor((2,), "int64"))", "R.full(t, v)")
            .errors == Strings{"E0317@t"});
  auto z = infer_op(R"(n: R.Shape(["n"]))", R"(R.zeros((2, 3), "float16"))");
  CHECK(z.sinfo == R"(R.Tensor((2, 3), dtype="float16"))");
  CHECK(z.call == R"(R.zeros(R.shape([2, 3]), dtype="float16"))");
  CHECK(infer_op(R"(s: R.Shape(["m"]))", R"(R.ones(s, dtype="int32"))").sinfo ==
        R"(R.Tensor(s, dtype="int32"))");
  CHECK(infer_op(R"(s: R.Shape(["m"]))", "R.ones(s)").errors == Strings{"E0304@R.ones(s)"});
  const char* x = R"(x: R.Tensor((2, 3), "float32"))";
  CHECK(infer_op(x, "R.zeros_like(x)").sinfo == R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(infer_op(x, "R.zeros_like(x)").call == R"(R.zeros_like(x, dtype="void"))");
  CHECK(infer_op(x, R"(R.ones_like(x, "int32"))").sinfo == R"(R.Tensor((2, 3), dtype="int32"))");
  CHECK(
      infer_op(R"(x: R.Tensor((2, 3), "float32"), v: R.Tensor((), "float16"))", "R.full_like(x, v)")
          .sinfo == R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"), v: R.Tensor((2,), "float16"))",
                 "R.full_like(x, v)")
            .errors == Strings{"E0312@v"});
}

TEST_CASE("arange (test_arange_infer_struct_info)") {
  auto a = infer_op("", "R.arange(10)");
  CHECK(a.sinfo == R"(R.Tensor((10,), dtype="int64"))");
  CHECK(a.call == R"(R.arange(R.prim_value(0), R.prim_value(10), R.prim_value(1), dtype="int64"))");
  CHECK(infer_op("", "R.arange(1, 10)").sinfo == R"(R.Tensor((9,), dtype="int64"))");
  CHECK(infer_op("", "R.arange(1, 10, 2)").sinfo == R"(R.Tensor((5,), dtype="int64"))");
  CHECK(infer_op("", R"(R.arange(0, 20, 1, dtype="int32"))").sinfo ==
        R"(R.Tensor((20,), dtype="int32"))");
  auto f = infer_op("", "R.arange(1.0, 10.0, 2.0)");
  CHECK(f.sinfo == R"(R.Tensor((5,), dtype="float32"))");
  CHECK(infer_op("", "R.arange(0, 2.5, 0.5)").sinfo == R"(R.Tensor((5,), dtype="float32"))");
  CHECK(
      infer_op(R"(x: R.Tensor(("n",), "float32"))", "R.arange(1, R.prim_value(T.int64(0)) + 10, 2)")
          .errors.size() <= 1);
  CHECK(infer_op(R"(x: R.Tensor(("n",), "float32"))", R"(R.arange(1, "n", 2))").sinfo.empty());
  CHECK(infer_op("", "R.arange(0, 10, 0)").errors == Strings{"E0316@0"});
  CHECK(infer_op(R"(t: R.Tensor((), "int64"))", "R.arange(t)").errors == Strings{"E0317@t"});
}

TEST_CASE("arange with symbolic bounds") {
  auto r = relax::test::infer_bindings(R"(@R.function
def f(x: R.Tensor(("n",), "float32")):
    n = T.int64()
    gv = R.arange(1, n, 2)
    return gv
)");
  REQUIRE(r.size() == 1);
  CHECK(r[0].sinfo == R"(R.Tensor((n // 2,), dtype="int64"))");
}

TEST_CASE("tril, triu, eye, eye_like (test_tril_triu_infer_struct_info_less_than_two_ndim)") {
  for (const char* op : {"tril", "triu"}) {
    INFO(op);
    std::string f = std::string("R.") + op;
    auto r = infer_op(R"(x: R.Tensor((2, 3, 4), "float32"))", f + "(x, 1)");
    CHECK(r.sinfo == R"(R.Tensor((2, 3, 4), dtype="float32"))");
    CHECK(r.call == f + "(x, R.prim_value(1))");
    CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", f + "(x)").call ==
          f + "(x, R.prim_value(0))");
    CHECK(infer_op(R"(x: R.Tensor("float32"))", f + "(x)").sinfo == R"(R.Tensor(dtype="float32"))");
    CHECK(infer_op(R"(x: R.Tensor((3,), "float32"))", f + "(x)").errors == Strings{"E0312@x"});
    CHECK(infer_op(R"(x: R.Tensor((3, 3), "float32"), k: R.Tensor((), "int64"))", f + "(x, k)")
              .errors == Strings{"E0317@k"});
  }
  auto e = infer_op("", "R.eye(3)");
  CHECK(e.sinfo == R"(R.Tensor((3, 3), dtype="float32"))");
  CHECK(e.call == R"(R.eye(R.prim_value(3), R.prim_value(3), R.prim_value(0), dtype="float32"))");
  CHECK(infer_op("", R"(R.eye(3, 4, 1, "int32"))").sinfo == R"(R.Tensor((3, 4), dtype="int32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float16"))", "R.eye_like(x)").sinfo ==
        R"(R.Tensor((3, 4), dtype="float16"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 4, 5), "float16"))", "R.eye_like(x)").errors ==
        Strings{"E0312@x"});
}

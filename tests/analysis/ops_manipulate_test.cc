// Inference of the manipulation ops (SEMANTICS.md §3.10; TVM's test_op_manipulate.py): reshape
// with -1 and 0 resolved into the canonical call, permutes, squeezes, concat/split/stack,
// broadcasts, tiling, layout_transform, gathers and scatters.
#include <catch2/catch.hpp>

#include "tests/analysis/ops_test_util.h"

using relax::test::infer_op;
using Strings = std::vector<std::string>;

TEST_CASE("reshape (test_reshape_infer_struct_info)") {
  const char* x = R"(x: R.Tensor((2, 3, 4, 5), "float32"))";
  auto r = infer_op(x, "R.reshape(x, (6, 20))");
  CHECK(r.sinfo == R"(R.Tensor((6, 20), dtype="float32"))");
  CHECK(r.call == "R.reshape(x, R.shape([6, 20]))");
  auto m = infer_op(x, "R.reshape(x, (6, -1))");
  CHECK(m.sinfo == R"(R.Tensor((6, 20), dtype="float32"))");
  CHECK(m.call == "R.reshape(x, R.shape([6, 20]))");
  CHECK(infer_op(x, "R.reshape(x, [-1])").call == "R.reshape(x, R.shape([120]))");
  CHECK(infer_op(x, "R.reshape(x, (2, 0, -1))").call == "R.reshape(x, R.shape([2, 3, 20]))");
  CHECK(infer_op(x, "R.reshape(x, R.shape([0, 0, 20]))").sinfo ==
        R"(R.Tensor((2, 3, 20), dtype="float32"))");
  CHECK(infer_op(x, "R.reshape(x, shape=(120,))").call == "R.reshape(x, R.shape([120]))");
  CHECK(infer_op(R"(x: R.Tensor(("n", 4), "float32"))", "R.reshape(x, (-1,))").sinfo ==
        R"(R.Tensor((n * 4,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", 4), "float32"))", "R.reshape(x, (2, -1))").sinfo ==
        R"(R.Tensor((2, n * 2), dtype="float32"))");
  // Shape vars: known values are inlined, unknown ones kept.
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 4, 5), "float32"), s: R.Shape([6, 20]))", "R.reshape(x, s)")
            .sinfo == R"(R.Tensor((6, 20), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 4, 5), "float32"), s: R.Shape(ndim=2))", "R.reshape(x, s)")
            .sinfo == R"(R.Tensor(s, dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=4))", "R.reshape(x, (6, 20))").sinfo ==
        R"(R.Tensor((6, 20), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 4, 5)))", "R.reshape(x, (6, 20))").sinfo ==
        R"(R.Tensor((6, 20)))");
}

TEST_CASE(
    "reshape errors (test_reshape_infer_struct_info_inference_not_deducible, "
    "_unequal_shape_prod)") {
  auto nd = infer_op(R"(x: R.Tensor("float32", ndim=4))", "R.reshape(x, (-1,))");
  CHECK(nd.errors == Strings{"E0318@(-1,)"});
  CHECK(nd.messages.find("needs the input's shape") != std::string::npos);
  auto prod = infer_op(R"(x: R.Tensor((2, 3, 4, 5), "float32"))", "R.reshape(x, (6, 21))");
  CHECK(prod.errors == Strings{"E0314@(6, 21)"});
  CHECK(
      prod.messages.find("cannot reshape (2, 3, 4, 5) (120 elements) to (6, 21) (126 elements)") !=
      std::string::npos);
  auto sym = relax::test::infer_bindings(R"(@R.function
def f(x: R.Tensor(("n", 4), "float32")):
    n = T.int64()
    a = R.reshape(x, (4, n))
    b = R.reshape(x, (n + 1, 4))
    return b
)");
  REQUIRE(sym.size() == 2);
  CHECK(sym[0].sinfo == R"(R.Tensor((4, n), dtype="float32"))");
  CHECK(sym[1].errors == Strings{"E0314@(n + 1, 4)"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.reshape(x, (-1, -1))").errors ==
        Strings{"E0318@(-1, -1)"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.reshape(x, (-2, 3))").errors ==
        Strings{"E0318@(-2, 3)"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((6,), "int64"))", "R.reshape(x, y)")
            .errors == Strings{"E0317@y"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", "R.reshape(x)").errors ==
        Strings{"E0304@R.reshape(x)"});
}

TEST_CASE("permute_dims, expand_dims, squeeze, flatten") {
  const char* x = R"(x: R.Tensor((1, 2, 3, 4), "float32"))";
  auto p = infer_op(x, "R.permute_dims(x, [0, 2, 1, 3])");
  CHECK(p.sinfo == R"(R.Tensor((1, 3, 2, 4), dtype="float32"))");
  CHECK(p.call == "R.permute_dims(x, axes=[0, 2, 1, 3])");
  CHECK(infer_op(x, "R.permute_dims(x)").sinfo == R"(R.Tensor((4, 3, 2, 1), dtype="float32"))");
  CHECK(infer_op(x, "R.permute_dims(x)").call == "R.permute_dims(x, axes=None)");
  CHECK(infer_op(x, "R.permute_dims(x, [-4, -3, -2, -1])").sinfo ==
        R"(R.Tensor((1, 2, 3, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=3))", "R.permute_dims(x, [2, 0, 1])").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=3))");
  CHECK(infer_op(R"(x: R.Tensor("float32"))", "R.permute_dims(x)").sinfo ==
        R"(R.Tensor(dtype="float32"))");
  CHECK(infer_op(x, "R.permute_dims(x, [0, 1, 2])").errors == Strings{"E0316@[0, 1, 2]"});
  CHECK(infer_op(x, "R.permute_dims(x, [0, 1, 2, 1])").errors == Strings{"E0310@[0, 1, 2, 1]"});
  CHECK(infer_op(x, "R.permute_dims(x, [0, 1, 2, 4])").errors == Strings{"E0309@[0, 1, 2, 4]"});

  const char* y = R"(x: R.Tensor((2, 3, 4), "float32"))";
  CHECK(infer_op(y, "R.expand_dims(x, [1, -1])").sinfo ==
        R"(R.Tensor((2, 1, 3, 4, 1), dtype="float32"))");
  CHECK(infer_op(y, "R.expand_dims(x, 0)").call == "R.expand_dims(x, axis=[0])");
  CHECK(infer_op(y, "R.expand_dims(x, [])").sinfo == R"(R.Tensor((2, 3, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=3))", "R.expand_dims(x, [0])").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=4))");
  CHECK(infer_op(y, "R.expand_dims(x, [5])").errors == Strings{"E0309@[5]"});

  CHECK(infer_op(R"(x: R.Tensor((1, 3, 1), "float32"))", "R.squeeze(x)").sinfo ==
        R"(R.Tensor((3,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((1, 3, 1), "float32"))", "R.squeeze(x, [2])").sinfo ==
        R"(R.Tensor((1, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 1, 3, 1, 1, 4), "float32"))", "R.squeeze(x, axis=[3, -5])")
            .sinfo == R"(R.Tensor((2, 3, 1, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", 3), "float32"))", "R.squeeze(x, [0])").sinfo ==
        R"(R.Tensor((3,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", 1), "float32"))", "R.squeeze(x)").sinfo ==
        R"(R.Tensor(dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=3))", "R.squeeze(x, [0])").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=2))");
  // test_squeeze_infer_struct_info_axis_length_not_one: TVM keeps the axis; we warn.
  auto keep = infer_op(R"(x: R.Tensor((2, 3, 4), "float32"))", "R.squeeze(x, [1])");
  CHECK(keep.sinfo == R"(R.Tensor((2, 3, 4), dtype="float32"))");
  CHECK(keep.errors.empty());
  CHECK(keep.warnings == Strings{"W0301@R.squeeze(x, [1])"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 4), "float32"))", "R.squeeze(x, [3])").errors ==
        Strings{"E0309@[3]"});

  CHECK(infer_op(y, "R.flatten(x)").sinfo == R"(R.Tensor((24,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((), "float32"))", "R.flatten(x)").sinfo ==
        R"(R.Tensor((1,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", 4), "float32"))", "R.flatten(x)").sinfo ==
        R"(R.Tensor((n * 4,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32"))", "R.flatten(x)").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=1))");
}

TEST_CASE("concat (test_concat_infer_struct_info_with_axis, _unequal_shape)") {
  const char* p =
      R"(a: R.Tensor((2, 3, 4), "float32"), b: R.Tensor((2, 4, 4), "float32"), c: R.Tensor((2, 5, 4), "float32"))";
  auto r = infer_op(p, "R.concat((a, b, c), axis=1)");
  CHECK(r.sinfo == R"(R.Tensor((2, 12, 4), dtype="float32"))");
  CHECK(r.call == "R.concat((a, b, c), axis=1)");
  CHECK(infer_op(p, "R.concat((a, b, c), -2)").sinfo == R"(R.Tensor((2, 12, 4), dtype="float32"))");
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"))", "R.concat((a, a))").sinfo ==
        R"(R.Tensor((4, 3), dtype="float32"))");
  CHECK(infer_op(R"(a: R.Tensor(("n", 4), "float32"), b: R.Tensor(("m", 4), "float32"))",
                 "R.concat((a, b))")
            .sinfo == R"(R.Tensor((n + m, 4), dtype="float32"))");
  CHECK(infer_op(R"(a: R.Tensor((3,), "float32"), b: R.Tensor((4,), "float32"))",
                 "R.concat((a, b), axis=None)")
            .sinfo == R"(R.Tensor((7,), dtype="float32"))");
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor("float32", ndim=2))",
                 "R.concat((a, b))")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(R"(a: R.Tensor(("n", 3), "float32"), b: R.Tensor((2, "m"), "float32"))",
                 "R.concat((a, b))")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"))", "R.concat((a,))").sinfo ==
        R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(infer_op(R"(t: R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((1, 3), "float32")))",
                 "R.concat(t)")
            .sinfo == R"(R.Tensor((3, 3), dtype="float32"))");
  auto bad = infer_op(R"(a: R.Tensor((2, 3, 4), "float32"), b: R.Tensor((3, 3, 4), "float32"))",
                      "R.concat((a, b), axis=1)");
  CHECK(bad.errors == Strings{"E0313@(a, b)"});
  CHECK(bad.messages.find("dimension 0 is 2 in tensor 0 and 3 in tensor 1") != std::string::npos);
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 3), "int32"))",
                 "R.concat((a, b))")
            .errors == Strings{"E0307@(a, b)"});
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 3, 1), "float32"))",
                 "R.concat((a, b))")
            .errors == Strings{"E0312@(a, b)"});
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"))", "R.concat((a, a), axis=2)").errors ==
        Strings{"E0309@2"});
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"))", "R.concat(a)").errors == Strings{"E0317@a"});
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"), s: R.Shape([2]))", "R.concat((a, s))").errors ==
        Strings{"E0306@(a, s)"});
}

TEST_CASE("split (test_split_infer_struct_info_by_indices, _by_n_section)") {
  const char* x = R"(x: R.Tensor((10, 4), "float32"))";
  auto idx = infer_op(x, "R.split(x, [3, 7])");
  CHECK(
      idx.sinfo ==
      R"(R.Tuple(R.Tensor((3, 4), dtype="float32"), R.Tensor((4, 4), dtype="float32"), R.Tensor((3, 4), dtype="float32")))");
  CHECK(idx.call == "R.split(x, indices_or_sections=[3, 7], axis=0)");
  auto sec = infer_op(x, "R.split(x, 3)");
  CHECK(
      sec.sinfo ==
      R"(R.Tuple(R.Tensor((4, 4), dtype="float32"), R.Tensor((4, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")))");
  CHECK(sec.call == "R.split(x, indices_or_sections=3, axis=0)");
  CHECK(infer_op(x, "R.split(x, indices_or_sections=2, axis=1)").sinfo ==
        R"(R.Tuple(R.Tensor((10, 2), dtype="float32"), R.Tensor((10, 2), dtype="float32")))");
  CHECK(infer_op(x, "R.split(x, 1)").sinfo == R"(R.Tensor((10, 4), dtype="float32"))");
  CHECK(infer_op(x, "R.split(x, [])").sinfo == R"(R.Tensor((10, 4), dtype="float32"))");
  CHECK(
      infer_op(x, "R.split(x, [2, 20])").sinfo ==
      R"(R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((8, 4), dtype="float32"), R.Tensor((0, 4), dtype="float32")))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=2))", "R.split(x, 2)").sinfo ==
        R"(R.Tuple(R.Tensor(dtype="float32", ndim=2), R.Tensor(dtype="float32", ndim=2)))");
  CHECK(
      infer_op(R"(x: R.Tensor(("n", 4), "float32"))", "R.split(x, 2)").sinfo ==
      R"(R.Tuple(R.Tensor(((n + 1) // 2, 4), dtype="float32"), R.Tensor((n - (n + 1) // 2, 4), dtype="float32")))");
  CHECK(infer_op(x, "R.split(x, 0)").errors == Strings{"E0316@0"});
  CHECK(infer_op(x, "R.split(x, 2, axis=2)").errors == Strings{"E0309@2"});
  CHECK(infer_op(x, R"(R.split(x, "a"))").errors == Strings{"E0305@\"a\""});
}

TEST_CASE("stack, broadcast_to, tile, repeat, flip, astype") {
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 3), "float32"))",
                 "R.stack((a, b), axis=1)")
            .sinfo == R"(R.Tensor((2, 2, 3), dtype="float32"))");
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 4), "float32"))",
                 "R.stack((a, b))")
            .errors == Strings{"E0313@(a, b)"});
  CHECK(infer_op(R"(a: R.Tensor((2, 3), "float32"))", "R.stack((a, a), axis=3)").errors ==
        Strings{"E0309@3"});

  auto b = infer_op(R"(x: R.Tensor((3, 1), "float32"))", "R.broadcast_to(x, (2, 3, 4))");
  CHECK(b.sinfo == R"(R.Tensor((2, 3, 4), dtype="float32"))");
  CHECK(b.call == "R.broadcast_to(x, R.shape([2, 3, 4]))");
  auto sym = relax::test::infer_bindings(R"(@R.function
def f(x: R.Tensor(("n", 1), "float32")):
    n = T.int64()
    gv = R.broadcast_to(x, (n, 4))
    return gv
)");
  REQUIRE(sym.size() == 1);
  CHECK(sym[0].sinfo == R"(R.Tensor((n, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 2), "float32"))", "R.broadcast_to(x, (3, 4))").errors ==
        Strings{"E0314@(3, 4)"});
  CHECK(infer_op(R"(x: R.Tensor((3, 2), "float32"))", "R.broadcast_to(x, (2,))").errors ==
        Strings{"E0314@(2,)"});

  const char* x = R"(x: R.Tensor((2, 3), "float32"))";
  CHECK(infer_op(x, "R.tile(x, [2])").sinfo == R"(R.Tensor((2, 6), dtype="float32"))");
  CHECK(infer_op(x, "R.tile(x, 2)").call == "R.tile(x, repeats=[2])");
  CHECK(infer_op(x, "R.tile(x, [2, 1, 2])").sinfo == R"(R.Tensor((2, 2, 6), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=2))", "R.tile(x, [1, 1])").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=2))", "R.tile(x, [1, 1, 1])").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=3))");
  CHECK(infer_op(x, "R.repeat(x, 2, axis=1)").sinfo == R"(R.Tensor((2, 6), dtype="float32"))");
  CHECK(infer_op(x, "R.repeat(x, 3)").sinfo == R"(R.Tensor((18,), dtype="float32"))");
  CHECK(infer_op(x, "R.repeat(x, 3)").call == "R.repeat(x, repeats=3, axis=None)");
  CHECK(infer_op(x, "R.repeat(x, 2, axis=2)").errors == Strings{"E0309@2"});
  CHECK(infer_op(x, "R.flip(x, 1)").sinfo == R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(infer_op(x, "R.flip(x, axis=-3)").errors == Strings{"E0309@-3"});
  auto a = infer_op(x, R"(R.astype(x, "float16"))");
  CHECK(a.sinfo == R"(R.Tensor((2, 3), dtype="float16"))");
  CHECK(a.call == R"(R.astype(x, dtype="float16"))");
  CHECK(infer_op(x, R"(R.astype(x, "floaty"))").errors == Strings{"E0305@\"floaty\""});
}

TEST_CASE("collapse_sum_like and collapse_sum_to") {
  CHECK(infer_op(R"(x: R.Tensor((3, 2, 3), "float32"), y: R.Tensor((2, 1), "float32"))",
                 "R.collapse_sum_like(x, y)")
            .sinfo == R"(R.Tensor((2, 1), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 2, 3), "float32"))", "R.collapse_sum_to(x, (2, 1))").sinfo ==
        R"(R.Tensor((2, 1), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 2, 3), "float32"))", "R.collapse_sum_to(x, (4, 1))").errors ==
        Strings{"E0314@(4, 1)"});
  CHECK(infer_op(R"(x: R.Tensor((3, 2, 3), "float32"), y: R.Tensor((3, 3), "float32"))",
                 "R.collapse_sum_like(x, y)")
            .errors == Strings{"E0314@y"});
}

TEST_CASE("layout_transform: the index map applied to the shape") {
  auto r = infer_op(R"(x: R.Tensor((16,), "float32"))",
                    "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)))");
  CHECK(r.sinfo == R"(R.Tensor((4, 4), dtype="float32"))");
  CHECK(r.call ==
        "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)), pad_value=None, "
        "axis_separators=[], input_axis_separators=[])");
  CHECK(infer_op(R"(x: R.Tensor((4, 4), "float32"))",
                 "R.layout_transform(x, index_map=T.index_map(lambda a, b: (a * 4 + b,)))")
            .sinfo == R"(R.Tensor((16,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))",
                 "R.layout_transform(x, index_map=T.index_map(lambda a, b: (b, a)))")
            .sinfo == R"(R.Tensor((3, 2), dtype="float32"))");
  CHECK(infer_op(
            R"(x: R.Tensor((14,), "float32"))",
            "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)), pad_value=0)")
            .sinfo == R"(R.Tensor((4, 4), dtype="float32"))");
  CHECK(infer_op(
            R"(x: R.Tensor((14,), "float32"))",
            "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)), pad_value=0)")
            .call.find("pad_value=R.prim_value(T.float32(0.0))") != std::string::npos);
  CHECK(infer_op(R"(x: R.Tensor(("n",), "float32"))",
                 "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)))")
            .sinfo == R"(R.Tensor(((n + 3) // 4, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32"))",
                 "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)))")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(R"(x: R.Tensor((4, 4), "float32"))",
                 "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4)))")
            .errors == Strings{"E0322@T.index_map(lambda i: (i // 4, i % 4))"});
}

TEST_CASE("gather, scatter, one_hot, meshgrid, index_tensor") {
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"), i: R.Tensor((2, 4), "int64"))",
                 "R.gather_elements(x, i)")
            .sinfo == R"(R.Tensor((2, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"), i: R.Tensor((2, 4), "float32"))",
                 "R.gather_elements(x, i)")
            .errors == Strings{"E0311@i"});
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"), i: R.Tensor((2,), "int64"))",
                 "R.gather_elements(x, i)")
            .errors == Strings{"E0312@i"});
  CHECK(infer_op(R"(x: R.Tensor((3, 4, 5), "float32"), i: R.Tensor((6, 2), "int64"))",
                 "R.gather_nd(x, i)")
            .sinfo == R"(R.Tensor((6, 5), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 4, 5), "float32"), i: R.Tensor((3, 1), "int64"))",
                 "R.gather_nd(x, i, 1)")
            .sinfo == R"(R.Tensor((3, 5), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"), i: R.Tensor((6, 3), "int64"))",
                 "R.gather_nd(x, i)")
            .errors == Strings{"E0313@i"});
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"), i: R.Tensor((6, 2), "int32"))",
                 "R.gather_nd(x, i)")
            .errors == Strings{"E0311@i"});

  const char* sc =
      R"(x: R.Tensor((20, 20), "float32"), i: R.Tensor((2, 20), "int64"), u: R.Tensor((2, 20), "float32"))";
  auto s = infer_op(sc, "R.scatter_elements(x, i, u)");
  CHECK(s.sinfo == R"(R.Tensor((20, 20), dtype="float32"))");
  CHECK(s.call == R"(R.scatter_elements(x, i, u, axis=0, reduction="update"))");
  CHECK(
      infer_op(
          R"(x: R.Tensor((20, 20), "float32"), i: R.Tensor((2, 20), "int64"), u: R.Tensor((2, 21), "float32"))",
          "R.scatter_elements(x, i, u)")
          .errors == Strings{"E0313@u"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((20, 20), "float32"), i: R.Tensor((2, 20), "int64"), u: R.Tensor((2, 20), "float16"))",
          "R.scatter_elements(x, i, u)")
          .errors == Strings{"E0307@u"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((4, 5), "float32"), i: R.Tensor((3, 1), "int64"), u: R.Tensor((3, 5), "float32"))",
          "R.scatter_nd(x, i, u)")
          .sinfo == R"(R.Tensor((4, 5), dtype="float32"))");
  CHECK(
      infer_op(
          R"(x: R.Tensor((4, 5), "float32"), i: R.Tensor((3, 1), "int64"), u: R.Tensor((3, 6), "float32"))",
          "R.scatter_nd(x, i, u)")
          .errors == Strings{"E0313@u"});

  auto oh = infer_op(R"(i: R.Tensor((5,), "int64"))",
                     "R.one_hot(i, R.prim_value(1), R.prim_value(0), depth=10)");
  CHECK(oh.sinfo == R"(R.Tensor((5, 10), dtype="int64"))");
  CHECK(oh.call == "R.one_hot(i, R.prim_value(1), R.prim_value(0), depth=10, axis=-1)");
  CHECK(infer_op(R"(i: R.Tensor((5, 3), "int32"))", "R.one_hot(i, 1.0, 0.0, 4, 1)").sinfo ==
        R"(R.Tensor((5, 4, 3), dtype="float64"))");
  CHECK(infer_op(R"(i: R.Tensor((5,), "int64"))", "R.one_hot(i, 1.0, 0, 4)").errors ==
        Strings{"E0307@0"});
  CHECK(infer_op(R"(i: R.Tensor((5,), "float32"))", "R.one_hot(i, 1, 0, 4)").errors ==
        Strings{"E0311@i"});
  CHECK(infer_op(R"(i: R.Tensor((5,), "int64"))", "R.one_hot(i, 1, 0, 0)").errors ==
        Strings{"E0316@0"});

  CHECK(infer_op(R"(a: R.Tensor((3,), "float32"), b: R.Tensor((4,), "float32"))",
                 "R.meshgrid((a, b))")
            .sinfo ==
        R"(R.Tuple(R.Tensor((3, 4), dtype="float32"), R.Tensor((3, 4), dtype="float32")))");
  CHECK(infer_op(R"(a: R.Tensor((3,), "float32"), b: R.Tensor((4,), "float32"))",
                 R"(R.meshgrid((a, b), indexing="xy"))")
            .sinfo ==
        R"(R.Tuple(R.Tensor((4, 3), dtype="float32"), R.Tensor((4, 3), dtype="float32")))");
  CHECK(infer_op(R"(a: R.Tensor((3, 2), "float32"), b: R.Tensor((4,), "float32"))",
                 "R.meshgrid((a, b))")
            .errors == Strings{"E0312@(a, b)"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((5, 6, 7), "float32"), i: R.Tensor((2, 1), "int64"), j: R.Tensor((3,), "int64"))",
          "R.index_tensor(x, (i, j))")
          .sinfo == R"(R.Tensor((2, 3, 7), dtype="float32"))");
}

// Inference of matmul, einsum, convolutions, pooling, normalization, attention and the other nn
// ops (SEMANTICS.md §3.5-3.9; TVM's test_op_linear_algebra.py, test_op_nn_convolution.py,
// test_op_nn_pooling.py, test_op_nn.py).
#include <catch2/catch.hpp>

#include "tests/analysis/ops_test_util.h"

using relax::test::infer_op;
using Strings = std::vector<std::string>;

TEST_CASE("matmul (test_matmul_infer_struct_info)") {
  auto mm = [](const std::string& a, const std::string& b, const std::string& extra = "") {
    return infer_op("x: R.Tensor(" + a + "), y: R.Tensor(" + b + ")",
                    "R.matmul(x, y" + extra + ")");
  };
  CHECK(mm(R"((3, 4), "float32")", R"((4, 5), "float32")").sinfo ==
        R"(R.Tensor((3, 5), dtype="float32"))");
  CHECK(mm(R"((4,), "float32")", R"((4, 5), "float32")").sinfo ==
        R"(R.Tensor((5,), dtype="float32"))");
  CHECK(mm(R"((2, 3, 4), "float32")", R"((4,), "float32")").sinfo ==
        R"(R.Tensor((2, 3), dtype="float32"))");
  CHECK(mm(R"((1, 3, 4), "float32")", R"((5, 4, 6), "float32")").sinfo ==
        R"(R.Tensor((5, 3, 6), dtype="float32"))");
  CHECK(mm(R"((4,), "float32")", R"((4,), "float32")").sinfo == R"(R.Tensor((), dtype="float32"))");
  CHECK(mm(R"((3, 4), "float16")", R"((4, 5), "float16")", R"(, out_dtype="float32")").sinfo ==
        R"(R.Tensor((3, 5), dtype="float32"))");
  CHECK(mm(R"((3, 4), "float32")", R"((4, 5), "float32")").call ==
        R"(R.matmul(x, y, out_dtype="void"))");
  CHECK(mm(R"("float32", ndim=3)", R"((4, 5), "float32")").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=3))");
  // Rank 0 without dims (TVM builds TensorStructInfo(dtype, ndim=0) here).
  CHECK(mm(R"("float32", ndim=1)", R"("float32", ndim=1)").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=0))");
  CHECK(mm(R"("float32")", R"((4, 5), "float32")").sinfo == R"(R.Tensor(dtype="float32"))");
  CHECK(mm(R"((3, 4))", R"((4, 5), "float32")").sinfo == R"(R.Tensor((3, 5)))");
  // Symbolic (test_matmul_infer_struct_info_shape_symbolic).
  CHECK(mm(R"(("b", "m", "k"), "float32")", R"(("k", "n"), "float32")").sinfo ==
        R"(R.Tensor((b, m, n), dtype="float32"))");
  CHECK(mm(R"(("m", "k"), "float32")", R"(("k2", "n"), "float32")").sinfo ==
        R"(R.Tensor((m, n), dtype="float32"))");
  CHECK(mm(R"(("a", "m", "k"), "float32")", R"(("b", "k", "n"), "float32")").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=3))");
}

TEST_CASE("matmul errors (zero rank, reduction length, batch broadcast, dtype)") {
  auto zero =
      infer_op(R"(x: R.Tensor((), "float32"), y: R.Tensor((4, 5), "float32"))", "R.matmul(x, y)");
  CHECK(zero.errors == Strings{"E0312@x"});
  auto red = infer_op(R"(x: R.Tensor((3, 4), "float32"), y: R.Tensor((5, 6), "float32"))",
                      "R.matmul(x, y)");
  CHECK(red.errors == Strings{"E0313@y"});
  CHECK(red.messages.find("`x1` (3, 4) has 4 columns, `x2` (5, 6) has 5 rows") !=
        std::string::npos);
  CHECK(infer_op(R"(x: R.Tensor(("m", "k"), "float32"), y: R.Tensor(("k + 1", "n"), "float32"))",
                 "R.matmul(x, y)")
            .errors == Strings{"E0313@y"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 4), "float32"), y: R.Tensor((5, 4, 6), "float32"))",
                 "R.matmul(x, y)")
            .errors == Strings{"E0308@y"});
  CHECK(infer_op(R"(x: R.Tensor((3, 4), "float32"), y: R.Tensor((4, 5), "int8"))", "R.matmul(x, y)")
            .errors == Strings{"E0307@y"});
}

TEST_CASE("einsum and outer") {
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3, 4), "float32"))",
                 R"(R.einsum((x, y), "ij,jk->ik"))")
            .sinfo == R"(R.Tensor((2, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((3, 3), "float32"))", R"(R.einsum((x,), subscripts="ii"))").sinfo ==
        R"(R.Tensor((), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 5), "float32"), y: R.Tensor((2, 5), "float32"))",
                 R"(R.einsum((x, y), "ij, ij -> i"))")
            .sinfo == R"(R.Tensor((2,), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((7, 2, 3), "float32"), y: R.Tensor((7, 3, 4), "float32"))",
                 R"(R.einsum((x, y), "...ij,...jk->...ik"))")
            .sinfo == R"(R.Tensor((7, 2, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3, 4), "float32"))",
                 R"(R.einsum((x, y), "ij,jk"))")
            .sinfo == R"(R.Tensor((2, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=2), y: R.Tensor((3, 4), "float32"))",
                 R"(R.einsum((x, y), "ij,jk->ik"))")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", R"(R.einsum((x,), "ij,jk->ik"))").errors ==
        Strings{"E0321@\"ij,jk->ik\""});
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"))", R"(R.einsum((x,), "ijk->i"))").errors ==
        Strings{"E0321@\"ijk->i\""});
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((4, 4), "float32"))",
                 R"(R.einsum((x, y), "ij,jk->ik"))")
            .errors == Strings{"E0313@(x, y)"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3, 4), "int32"))",
                 R"(R.einsum((x, y), "ij,jk->ik"))")
            .errors == Strings{"E0307@(x, y)"});
  CHECK(infer_op(R"(x: R.Tensor(("n",), "float32"), y: R.Tensor((4,), "float32"))", "R.outer(x, y)")
            .sinfo == R"(R.Tensor((n, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 2), "float32"), y: R.Tensor((4,), "float32"))", "R.outer(x, y)")
            .errors == Strings{"E0312@x"});
}

TEST_CASE("conv2d (test_conv2d_infer_struct_info)") {
  const char* p = R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"))";
  auto r = infer_op(p, "R.nn.conv2d(x, w)");
  CHECK(r.sinfo == R"(R.Tensor((2, 4, 26, 26), dtype="float32"))");
  CHECK(
      r.call ==
      R"(R.nn.conv2d(x, w, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void"))");
  CHECK(infer_op(p, "R.nn.conv2d(x, w, padding=1)").sinfo ==
        R"(R.Tensor((2, 4, 28, 28), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d(x, w, padding=[1, 2])").sinfo ==
        R"(R.Tensor((2, 4, 28, 30), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d(x, w, padding=[1, 2])").call.find("padding=[1, 2, 1, 2]") !=
        std::string::npos);
  CHECK(infer_op(p, "R.nn.conv2d(x, w, padding=[1, 2, 3, 4])").sinfo ==
        R"(R.Tensor((2, 4, 30, 32), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d(x, w, strides=(2, 3))").sinfo ==
        R"(R.Tensor((2, 4, 13, 9), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d(x, w, strides=2)").call.find("strides=[2, 2]") !=
        std::string::npos);
  CHECK(infer_op(p, "R.nn.conv2d(x, w, dilation=2)").sinfo ==
        R"(R.Tensor((2, 4, 24, 24), dtype="float32"))");
  CHECK(infer_op(p, R"(R.nn.conv2d(x, w, out_dtype="float16"))").sinfo ==
        R"(R.Tensor((2, 4, 26, 26), dtype="float16"))");
  CHECK(infer_op(p, R"(R.nn.conv2d(x, w, out_layout="NHWC"))").sinfo ==
        R"(R.Tensor((2, 26, 26, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 28, 28, 3), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"))",
                 R"(R.nn.conv2d(x, w, data_layout="NHWC"))")
            .sinfo == R"(R.Tensor((2, 26, 26, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 28, 28, 3), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"))",
                 R"(R.nn.conv2d(x, w, data_layout="NHWC"))")
            .call.find(R"(out_layout="NHWC")") != std::string::npos);
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"))",
                 R"(R.nn.conv2d(x, w, kernel_layout="OHWI"))")
            .sinfo == R"(R.Tensor((2, 4, 26, 26), dtype="float32"))");
  // Packed layouts: NCHW16c data with OIHW weights.
  CHECK(infer_op(
            R"(x: R.Tensor((2, 4, 28, 28, 16), "float32"), w: R.Tensor((8, 64, 3, 3), "float32"))",
            R"(R.nn.conv2d(x, w, data_layout="NCHW16c"))")
            .sinfo == R"(R.Tensor((2, 0, 26, 26, 16), dtype="float32"))");
  // Unknown shapes keep the output layout's rank.
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=4), w: R.Tensor((4, 3, 3, 3), "float32"))",
                 "R.nn.conv2d(x, w)")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=4))");
  CHECK(infer_op(R"(x: R.Tensor("float32"), w: R.Tensor("float32"))", "R.nn.conv2d(x, w)").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=4))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 28, 28)), w: R.Tensor((4, 3, 3, 3), "float32"))",
                 "R.nn.conv2d(x, w)")
            .sinfo == R"(R.Tensor((2, 4, 26, 26)))");
}

TEST_CASE("conv2d: symbolic shapes (test_conv2d_infer_struct_info_shape_symbolic)") {
  auto r = infer_op(
      R"(x: R.Tensor(("n", "c", "h", "w"), "float32"), k: R.Tensor(("o", "c", "kh", "kw"), "float32"))",
      "R.nn.conv2d(x, k)");
  CHECK(r.sinfo == R"(R.Tensor((n, o, h - kh + 1, w - kw + 1), dtype="float32"))");
  auto s = infer_op(
      R"(x: R.Tensor(("n", 4, "h", "w"), "float32"), k: R.Tensor((8, 2, 3, 3), "float32"))",
      "R.nn.conv2d(x, k, strides=2, padding=1, groups=2)");
  // TVM prints (h - 1) // 2 + 1: the same value in the analyzer's canonical form.
  CHECK(s.sinfo == R"(R.Tensor((n, 8, (h + 1) // 2, (w + 1) // 2), dtype="float32"))");
}

TEST_CASE("conv2d errors: channels and groups, layouts, ranks, attribute lengths") {
  const char* p =
      R"(x: R.Tensor((2, 128, 28, 28), "float32"), w: R.Tensor((48, 16, 3, 3), "float32"))";
  CHECK(infer_op(p, "R.nn.conv2d(x, w, groups=8)").sinfo ==
        R"(R.Tensor((2, 48, 26, 26), dtype="float32"))");
  auto channels = infer_op(p, "R.nn.conv2d(x, w, groups=7)");
  CHECK(channels.errors == Strings{"E0313@w"});
  CHECK(
      channels.messages.find(
          "the data has 128 input channels but the weight expects 112 (16 per group x 7 groups)") !=
      std::string::npos);
  CHECK(infer_op(
            R"(x: R.Tensor((2, 128, 28, 28), "float32"), w: R.Tensor((50, 16, 3, 3), "float32"))",
            "R.nn.conv2d(x, w, groups=8)")
            .errors == Strings{"E0320@w"});
  CHECK(infer_op(p, "R.nn.conv2d(x, w, groups=0)").errors == Strings{"E0316@0"});
  CHECK(infer_op(p, "R.nn.conv2d(x, w, padding=[1, 2, 3])").errors == Strings{"E0316@[1, 2, 3]"});
  CHECK(infer_op(p, "R.nn.conv2d(x, w, strides=[1, 2, 3])").errors == Strings{"E0316@[1, 2, 3]"});
  CHECK(infer_op(p, "R.nn.conv2d(x, w, strides=0)").errors == Strings{"E0316@0"});
  CHECK(infer_op(p, R"(R.nn.conv2d(x, w, data_layout="NCW"))").errors == Strings{"E0319@\"NCW\""});
  CHECK(infer_op(p, R"(R.nn.conv2d(x, w, kernel_layout="OIHH"))").errors ==
        Strings{"E0319@\"OIHH\""});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"))",
                 "R.nn.conv2d(x, w)")
            .errors == Strings{"E0312@x"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 3, 3, 3), "float16"))",
                 "R.nn.conv2d(x, w)")
            .errors == Strings{"E0307@w"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Shape([4, 3, 3, 3]))",
                 "R.nn.conv2d(x, w)")
            .errors == Strings{"E0306@w"});
}

TEST_CASE("conv1d and conv3d") {
  auto c1 = infer_op(R"(x: R.Tensor((2, 3, 28), "float32"), w: R.Tensor((4, 3, 3), "float32"))",
                     "R.nn.conv1d(x, w, padding=1)");
  CHECK(c1.sinfo == R"(R.Tensor((2, 4, 28), dtype="float32"))");
  CHECK(
      c1.call ==
      R"(R.nn.conv1d(x, w, strides=[1], padding=[1, 1], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="void"))");
  auto c3 = infer_op(
      R"(x: R.Tensor((2, 3, 8, 8, 8), "float32"), w: R.Tensor((4, 3, 3, 3, 3), "float32"))",
      "R.nn.conv3d(x, w, padding=[1, 0, 1])");
  CHECK(c3.sinfo == R"(R.Tensor((2, 4, 8, 6, 8), dtype="float32"))");
  CHECK(c3.call.find("padding=[1, 0, 1, 1, 0, 1]") != std::string::npos);
}

TEST_CASE("conv transpose (test_conv2d_transpose_infer_struct_info)") {
  const char* p = R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((3, 4, 3, 3), "float32"))";
  auto r = infer_op(p, "R.nn.conv2d_transpose(x, w)");
  CHECK(r.sinfo == R"(R.Tensor((2, 4, 30, 30), dtype="float32"))");
  CHECK(
      r.call ==
      R"(R.nn.conv2d_transpose(x, w, strides=[1, 1], padding=[0, 0, 0, 0], output_padding=[0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype="void"))");
  CHECK(infer_op(p, "R.nn.conv2d_transpose(x, w, strides=(2, 3))").sinfo ==
        R"(R.Tensor((2, 4, 57, 84), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d_transpose(x, w, padding=1)").sinfo ==
        R"(R.Tensor((2, 4, 28, 28), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d_transpose(x, w, strides=(2, 3), output_padding=(1, 2))").sinfo ==
        R"(R.Tensor((2, 4, 58, 86), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d_transpose(x, w, dilation=2)").sinfo ==
        R"(R.Tensor((2, 4, 32, 32), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d_transpose(x, w, groups=3)").sinfo ==
        R"(R.Tensor((2, 12, 30, 30), dtype="float32"))");
  CHECK(infer_op(p, "R.nn.conv2d_transpose(x, w, output_padding=1)").errors == Strings{"E0316@1"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 28, 28), "float32"), w: R.Tensor((4, 4, 3, 3), "float32"))",
                 "R.nn.conv2d_transpose(x, w)")
            .errors == Strings{"E0313@w"});
  CHECK(infer_op(p, "R.nn.conv2d_transpose(x, w, groups=2)").errors == Strings{"E0320@w"});
  CHECK(infer_op(R"(x: R.Tensor((1, 6, 4), "float32"), w: R.Tensor((6, 6, 3), "float32"))",
                 "R.nn.conv1d_transpose(x, w)")
            .sinfo == R"(R.Tensor((1, 6, 6), dtype="float32"))");
}

TEST_CASE("max_pool2d and avg_pool2d (test_max_pool2d_infer_struct_info)") {
  const char* x = R"(x: R.Tensor((2, 3, 32, 32), "float32"))";
  auto r = infer_op(x, "R.nn.max_pool2d(x)");
  CHECK(r.sinfo == R"(R.Tensor((2, 3, 32, 32), dtype="float32"))");
  CHECK(
      r.call ==
      R"(R.nn.max_pool2d(x, pool_size=[1, 1], strides=[1, 1], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW"))");
  CHECK(infer_op(x, "R.nn.max_pool2d(x, pool_size=3)").sinfo ==
        R"(R.Tensor((2, 3, 30, 30), dtype="float32"))");
  CHECK(infer_op(x, "R.nn.max_pool2d(x, 3, 2)").sinfo ==
        R"(R.Tensor((2, 3, 15, 15), dtype="float32"))");
  CHECK(infer_op(x, "R.nn.max_pool2d(x, 3, 1, 1)").sinfo ==
        R"(R.Tensor((2, 3, 32, 32), dtype="float32"))");
  CHECK(infer_op(x, "R.nn.max_pool2d(x, 3, 1, 1)")
            .call.find("dilation=[1, 1], padding=[1, 1, 1, 1]") != std::string::npos);
  CHECK(infer_op(x, "R.nn.max_pool2d(x, 3, dilation=2)").sinfo ==
        R"(R.Tensor((2, 3, 28, 28), dtype="float32"))");
  CHECK(infer_op(x, R"(R.nn.max_pool2d(x, 3, out_layout="NHWC"))").sinfo ==
        R"(R.Tensor((2, 30, 30, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 32, 32, 3), "float32"))",
                 R"(R.nn.max_pool2d(x, 3, layout="NHWC"))")
            .sinfo == R"(R.Tensor((2, 30, 30, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor(("n", "c", "h", "w"), "float32"))", "R.nn.max_pool2d(x, 3, 2)")
            .sinfo == R"(R.Tensor((n, c, (h + 1) // 2 - 1, (w + 1) // 2 - 1), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor("float32", ndim=4))", "R.nn.max_pool2d(x)").sinfo ==
        R"(R.Tensor(dtype="float32", ndim=4))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32), "float32"))", "R.nn.max_pool2d(x)").errors ==
        Strings{"E0312@x"});
  CHECK(infer_op(x, R"(R.nn.max_pool2d(x, layout="NCDHW"))").errors == Strings{"E0319@\"NCDHW\""});
  CHECK(infer_op(x, "R.nn.max_pool2d(x, pool_size=[1, 2, 3])").errors ==
        Strings{"E0316@[1, 2, 3]"});
  auto avg = infer_op(x, "R.nn.avg_pool2d(x, 2, 2)");
  CHECK(avg.sinfo == R"(R.Tensor((2, 3, 16, 16), dtype="float32"))");
  CHECK(avg.call.find("count_include_pad=False") != std::string::npos);
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32), "float32"))", "R.nn.avg_pool1d(x, 2, 2)")
            .call.find("count_include_pad=True") != std::string::npos);
}

TEST_CASE("pooling with ceil_mode (test_max_pool2d_infer_struct_info_ceil_mode)") {
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32, 32), "float32"))",
                 "R.nn.max_pool2d(x, 3, 2, ceil_mode=True)")
            .sinfo == R"(R.Tensor((2, 3, 16, 16), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32, 32), "float32"))",
                 "R.nn.max_pool2d(x, 3, 2, 1, ceil_mode=True)")
            .sinfo == R"(R.Tensor((2, 3, 17, 17), dtype="float32"))");
  // The last window would start in the padding: it is dropped.
  CHECK(infer_op(R"(x: R.Tensor((1, 1, 5, 5), "float32"))",
                 "R.nn.max_pool2d(x, 2, 2, 1, ceil_mode=True)")
            .sinfo == R"(R.Tensor((1, 1, 3, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((4, 6, 112, 112), "float32"))",
                 "R.nn.avg_pool2d(x, 3, 3, 1, ceil_mode=True)")
            .sinfo == R"(R.Tensor((4, 6, 38, 38), dtype="float32"))");
}

TEST_CASE("pool1d, pool3d and adaptive pooling (test_adaptive_avg_pool2d_infer_struct_info)") {
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32), "float32"))", "R.nn.max_pool1d(x, 3)").sinfo ==
        R"(R.Tensor((2, 3, 30), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 8, 8, 8), "float32"))", "R.nn.avg_pool3d(x, 2, 2)").sinfo ==
        R"(R.Tensor((2, 3, 4, 4, 4), dtype="float32"))");
  const char* x = R"(x: R.Tensor((2, 3, 32, 32), "float32"))";
  auto a = infer_op(x, "R.nn.adaptive_avg_pool2d(x, 7)");
  CHECK(a.sinfo == R"(R.Tensor((2, 3, 7, 7), dtype="float32"))");
  CHECK(a.call ==
        R"(R.nn.adaptive_avg_pool2d(x, output_size=[7, 7], layout="NCHW", out_layout="NCHW"))");
  CHECK(infer_op(x, "R.nn.adaptive_avg_pool2d(x)").sinfo ==
        R"(R.Tensor((2, 3, 32, 32), dtype="float32"))");
  CHECK(infer_op(x, "R.nn.adaptive_avg_pool2d(x)").call.find("output_size=None") !=
        std::string::npos);
  CHECK(infer_op(x, R"(R.nn.adaptive_avg_pool2d(x, (5, 6), out_layout="NHWC"))").sinfo ==
        R"(R.Tensor((2, 5, 6, 3), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 4, 7, 7, 16), "float32"))",
                 R"(R.nn.adaptive_avg_pool2d(x, 1, layout="NCHW16c"))")
            .sinfo == R"(R.Tensor((2, 4, 1, 1, 16), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32), "float32"))", "R.nn.adaptive_avg_pool1d(x, 4)").sinfo ==
        R"(R.Tensor((2, 3, 4), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 8, 8, 8), "float32"))",
                 "R.nn.adaptive_avg_pool3d(x, [2, 3, 4])")
            .sinfo == R"(R.Tensor((2, 3, 2, 3, 4), dtype="float32"))");
  CHECK(infer_op(x, "R.nn.adaptive_avg_pool2d(x, [1, 2, 3])").errors == Strings{"E0316@[1, 2, 3]"});
}

TEST_CASE("layer_norm (test_layer_norm_infer_struct_info, _shape_mismatch)") {
  const char* p =
      R"(x: R.Tensor((2, 3, 4, 5), "float32"), g: R.Tensor((4, 5), "float32"), b: R.Tensor((4, 5), "float32"))";
  auto r = infer_op(p, "R.nn.layer_norm(x, g, b, axes=[-2, -1])");
  CHECK(r.sinfo == R"(R.Tensor((2, 3, 4, 5), dtype="float32"))");
  CHECK(r.call ==
        "R.nn.layer_norm(x, g, b, axes=[-2, -1], epsilon=1.0000000000000001e-05, center=True, "
        "scale=True)");
  CHECK(
      infer_op(
          R"(x: R.Tensor(("n", "m"), "float32"), g: R.Tensor(("m",), "float32"), b: R.Tensor(("m",), "float32"))",
          "R.nn.layer_norm(x, g, b, -1)")
          .sinfo == R"(R.Tensor((n, m), dtype="float32"))");
  CHECK(
      infer_op(
          R"(x: R.Tensor(("n", "m"), "float32"), g: R.Tensor(("k",), "float32"), b: R.Tensor(("m",), "float32"))",
          "R.nn.layer_norm(x, g, b, -1)")
          .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  CHECK(
      infer_op(
          R"(x: R.Tensor("float32", ndim=2), g: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32"))",
          "R.nn.layer_norm(x, g, b, -1)")
          .sinfo == R"(R.Tensor(dtype="float32", ndim=2))");
  auto mismatch = infer_op(
      R"(x: R.Tensor((2, 3, 4, 5), "float32"), g: R.Tensor((4, 6), "float32"), b: R.Tensor((4, 5), "float32"))",
      "R.nn.layer_norm(x, g, b, axes=[-2, -1])");
  CHECK(mismatch.errors == Strings{"E0313@g"});
  CHECK(mismatch.messages.find("`gamma` has length 6 on dimension 1, but `data` has length 5 on "
                               "the normalized axis 3") != std::string::npos);
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 3, 4, 5), "float32"), g: R.Tensor((5,), "float32"), b: R.Tensor((4, 5), "float32"))",
          "R.nn.layer_norm(x, g, b, axes=[-2, -1])")
          .errors == Strings{"E0312@g"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 5), "float32"), g: R.Tensor((5,), "float16"), b: R.Tensor((5,), "float32"))",
          "R.nn.layer_norm(x, g, b, axes=[-1])")
          .errors == Strings{"E0307@g"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 5), "int32"), g: R.Tensor((5,), "int32"), b: R.Tensor((5,), "int32"))",
          "R.nn.layer_norm(x, g, b, axes=[-1])")
          .errors == Strings{"E0311@x"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 5), "float32"), g: R.Tensor((5,), "float32"), b: R.Tensor((5,), "float32"))",
          "R.nn.layer_norm(x, g, b, axes=[2])")
          .errors == Strings{"E0309@[2]"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 5), "float32"), g: R.Tensor((5,), "float32"), b: R.Tensor((5,), "float32"))",
          "R.nn.layer_norm(x, g, b)")
          .errors == Strings{"E0304@R.nn.layer_norm(x, g, b)"});
}

TEST_CASE("rms_norm, batch_norm (test_batch_norm_infer_struct_info), instance_norm, dropout") {
  auto rms = infer_op(R"(x: R.Tensor((2, 3, 4), "float32"), w: R.Tensor((4,), "float32"))",
                      "R.nn.rms_norm(x, w)");
  CHECK(rms.sinfo == R"(R.Tensor((2, 3, 4), dtype="float32"))");
  CHECK(rms.call == "R.nn.rms_norm(x, w, axes=[-1], epsilon=1.0000000000000001e-05)");
  const char* bn =
      R"(x: R.Tensor((2, 3, 28, 28), "float32"), g: R.Tensor((3,), "float32"), b: R.Tensor((3,), "float32"), m: R.Tensor((3,), "float32"), v: R.Tensor((3,), "float32"))";
  auto r = infer_op(bn, "R.nn.batch_norm(x, g, b, m, v, axis=1)");
  CHECK(
      r.sinfo ==
      R"(R.Tuple(R.Tensor((2, 3, 28, 28), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")))");
  CHECK(r.call ==
        "R.nn.batch_norm(x, g, b, m, v, axis=1, epsilon=1.0000000000000001e-05, center=True, "
        "scale=True, momentum=0.10000000000000001, training=True)");
  CHECK(
      infer_op(
          R"(x: R.Tensor(("n", "c", "h", "w"), "float32"), g: R.Tensor(("c",), "float32"), b: R.Tensor(("c",), "float32"), m: R.Tensor(("c",), "float32"), v: R.Tensor(("c",), "float32"))",
          "R.nn.batch_norm(x, g, b, m, v, axis=1)")
          .sinfo ==
      R"(R.Tuple(R.Tensor((n, c, h, w), dtype="float32"), R.Tensor((c,), dtype="float32"), R.Tensor((c,), dtype="float32")))");
  CHECK(
      infer_op(
          R"(x: R.Tensor("float32", ndim=4), g: R.Tensor((3,), "float32"), b: R.Tensor((3,), "float32"), m: R.Tensor((3,), "float32"), v: R.Tensor((3,), "float32"))",
          "R.nn.batch_norm(x, g, b, m, v, axis=1)")
          .sinfo ==
      R"(R.Tuple(R.Tensor(dtype="float32", ndim=4), R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="float32", ndim=1)))");
  CHECK(infer_op(bn, "R.nn.batch_norm(x, g, b, m, v, axis=2)").errors == Strings{"E0313@g"});
  CHECK(infer_op(bn, "R.nn.batch_norm(x, g, b, m, v)").errors ==
        Strings{"E0304@R.nn.batch_norm(x, g, b, m, v)"});
  auto in = infer_op(
      R"(x: R.Tensor((2, 3, 8, 8), "float32"), g: R.Tensor((3,), "float32"), b: R.Tensor((3,), "float32"))",
      "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2, 3])");
  CHECK(in.sinfo == R"(R.Tensor((2, 3, 8, 8), dtype="float32"))");
  auto d = infer_op(R"(x: R.Tensor(("n", 4), "float32"))", "R.nn.dropout(x)");
  CHECK(d.sinfo ==
        R"(R.Tuple(R.Tensor((n, 4), dtype="float32"), R.Tensor((n, 4), dtype="float32")))");
  CHECK(d.call == "R.nn.dropout(x, rate=0.5)");
}

TEST_CASE("group_norm (test_group_norm_infer_struct_info)") {
  const char* p =
      R"(x: R.Tensor((2, 4, 4, 4), "float32"), g: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32"))";
  auto r = infer_op(p, "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])");
  CHECK(r.sinfo == R"(R.Tensor((2, 4, 4, 4), dtype="float32"))");
  CHECK(r.call ==
        "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3], "
        "epsilon=1.0000000000000001e-05, center=True, scale=True)");
  CHECK(infer_op(p, "R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2, 3])").errors ==
        Strings{"E0320@3"});
  CHECK(infer_op(p, "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[1, 2])").errors ==
        Strings{"E0316@[1, 2]"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 4, 4, 4), "float32"), g: R.Tensor((4, 1), "float32"), b: R.Tensor((4,), "float32"))",
          "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])")
          .errors == Strings{"E0312@g"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 4, 4, 4), "float32"), g: R.Tensor((4,), "float32"), b: R.Tensor((5,), "float32"))",
          "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])")
          .errors == Strings{"E0313@b"});
  CHECK(
      infer_op(
          R"(x: R.Tensor((2, 4, 4, 4), "bfloat16"), g: R.Tensor((4,), "bfloat16"), b: R.Tensor((4,), "bfloat16"))",
          "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])")
          .errors == Strings{"E0311@x"});
}

TEST_CASE("attention") {
  const char* p =
      R"(q: R.Tensor((4, 16, 32, 8), "float16"), k: R.Tensor((4, 8, 32, 8), "float16"), v: R.Tensor((4, 8, 32, 16), "float16"))";
  auto r = infer_op(p, "R.nn.attention(q, k, v)");
  CHECK(r.sinfo == R"(R.Tensor((4, 16, 32, 16), dtype="float16"))");
  CHECK(r.call == "R.nn.attention(q, k, v, scale=None, causal_mask=None, window_size=None)");
  CHECK(
      infer_op(p, R"(R.nn.attention(q, k, v, scale=0.5, causal_mask="TopLeft"))").call ==
      R"(R.nn.attention(q, k, v, scale=T.float32(0.5), causal_mask="TopLeft", window_size=None))");
  // With a bias the canonical op is nn.attention_bias.
  std::string pb = std::string(p) + R"(, bias: R.Tensor((4, 32, 16, 8), "float16"))";
  auto b = infer_op(pb, "R.nn.attention(q, k, v, bias)");
  CHECK(b.sinfo == R"(R.Tensor((4, 16, 32, 16), dtype="float16"))");
  CHECK(b.call ==
        "R.nn.attention_bias(q, k, v, bias, scale=None, causal_mask=None, window_size=None)");
  CHECK(infer_op(std::string(p) + R"(, bias: R.Tensor((1, 1, 16, 8), "float16"))",
                 "R.nn.attention(q, k, v, bias)")
            .errors.empty());
  CHECK(infer_op(std::string(p) + R"(, bias: R.Tensor((4, 32, 16, 9), "float16"))",
                 "R.nn.attention(q, k, v, bias)")
            .errors == Strings{"E0313@bias"});
  CHECK(
      infer_op(
          R"(q: R.Tensor(("b", "s", 8, 64), "float16"), k: R.Tensor(("b", "t", 8, 64), "float16"), v: R.Tensor(("b", "t", 8, 64), "float16"))",
          "R.nn.attention(q, k, v)")
          .sinfo == R"(R.Tensor((b, s, 8, 64), dtype="float16"))");
  CHECK(
      infer_op(
          R"(q: R.Tensor("float16", ndim=4), k: R.Tensor((4, 8, 32, 8), "float16"), v: R.Tensor((4, 8, 32, 16), "float16"))",
          "R.nn.attention(q, k, v)")
          .sinfo == R"(R.Tensor(dtype="float16", ndim=4))");
  CHECK(
      infer_op(
          R"(q: R.Tensor((16, 32, 8), "float16"), k: R.Tensor((4, 8, 32, 8), "float16"), v: R.Tensor((4, 8, 32, 16), "float16"))",
          "R.nn.attention(q, k, v)")
          .errors == Strings{"E0312@q"});
  CHECK(
      infer_op(
          R"(q: R.Tensor((4, 16, 32, 8), "float16"), k: R.Tensor((3, 8, 32, 8), "float16"), v: R.Tensor((4, 8, 32, 16), "float16"))",
          "R.nn.attention(q, k, v)")
          .errors == Strings{"E0313@k"});
  CHECK(
      infer_op(
          R"(q: R.Tensor((4, 16, 32, 8), "float16"), k: R.Tensor((4, 8, 32, 4), "float16"), v: R.Tensor((4, 8, 32, 16), "float16"))",
          "R.nn.attention(q, k, v)")
          .errors == Strings{"E0313@k"});
  CHECK(
      infer_op(
          R"(q: R.Tensor((4, 16, 32, 8), "float16"), k: R.Tensor((4, 8, 32, 8), "float16"), v: R.Tensor((4, 9, 32, 16), "float16"))",
          "R.nn.attention(q, k, v)")
          .errors == Strings{"E0313@v"});
  CHECK(
      infer_op(
          R"(q: R.Tensor((4, 16, 32, 8), "float16"), k: R.Tensor((4, 8, 5, 8), "float16"), v: R.Tensor((4, 8, 32, 16), "float16"))",
          "R.nn.attention(q, k, v)")
          .errors == Strings{"E0320@k"});
  CHECK(infer_op(p, R"(R.nn.attention(q, k, v, causal_mask="Diagonal"))").errors ==
        Strings{"E0316@\"Diagonal\""});
}

TEST_CASE("pad, losses, batch_flatten, pixel_shuffle") {
  auto pad = infer_op(R"(x: R.Tensor((2, 128, 28), "float32"))", "R.nn.pad(x, [0, 0, 1, 1, 1, 1])");
  CHECK(pad.sinfo == R"(R.Tensor((2, 130, 30), dtype="float32"))");
  CHECK(pad.call ==
        R"(R.nn.pad(x, pad_width=[0, 0, 1, 1, 1, 1], pad_value=0.0, pad_mode="constant"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 8), "float32"))", R"(R.nn.pad(x, [0, 0, 1, 1], "reflect"))")
            .call == R"(R.nn.pad(x, pad_width=[0, 0, 1, 1], pad_value=0.0, pad_mode="reflect"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 8), "float32"))", "R.nn.pad(x, [1, 1])").errors ==
        Strings{"E0316@[1, 1]"});
  CHECK(infer_op(R"(x: R.Tensor((2, 8), "float32"))", R"(R.nn.pad(x, [0, 0, 1, 1], "wrap"))")
            .errors == Strings{"E0316@\"wrap\""});

  const char* nll =
      R"(p: R.Tensor((3, 5, 8), "float32"), t: R.Tensor((3, 8), "int64"), w: R.Tensor((5,), "float32"))";
  auto l = infer_op(nll, "R.nn.nll_loss(p, t, w)");
  CHECK(l.sinfo == R"(R.Tensor((), dtype="float32"))");
  CHECK(l.call == R"(R.nn.nll_loss(p, t, w, reduction="mean", ignore_index=-100))");
  CHECK(infer_op(nll, R"(R.nn.nll_loss(p, t, reduction="none"))").sinfo ==
        R"(R.Tensor((3, 8), dtype="float32"))");
  CHECK(infer_op(nll, R"(R.nn.nll_loss(p, t, w, "sum"))").call ==
        R"(R.nn.nll_loss(p, t, w, reduction="sum", ignore_index=-100))");
  CHECK(infer_op(R"(p: R.Tensor((3, 5), "float32"), t: R.Tensor((4,), "int64"))",
                 "R.nn.nll_loss(p, t)")
            .errors == Strings{"E0313@t"});
  CHECK(infer_op(R"(p: R.Tensor((3, 5), "float32"), t: R.Tensor((3, 5), "int64"))",
                 "R.nn.nll_loss(p, t)")
            .errors == Strings{"E0312@t"});
  CHECK(infer_op(R"(p: R.Tensor((3, 5), "float32"), t: R.Tensor((3,), "float32"))",
                 "R.nn.nll_loss(p, t)")
            .errors == Strings{"E0311@t"});
  CHECK(
      infer_op(
          R"(p: R.Tensor((3, 5), "float32"), t: R.Tensor((3,), "int64"), w: R.Tensor((4,), "float32"))",
          "R.nn.nll_loss(p, t, w)")
          .errors == Strings{"E0313@w"});
  CHECK(infer_op(R"(p: R.Tensor((3, 5), "float32"), t: R.Tensor((3,), "int64"))",
                 R"(R.nn.nll_loss(p, t, reduction="avg"))")
            .errors == Strings{"E0316@\"avg\""});

  CHECK(infer_op(R"(p: R.Tensor((3, 5), "float32"), l: R.Tensor((3, 5), "float32"))",
                 "R.nn.cross_entropy_with_logits(p, l)")
            .sinfo == R"(R.Tensor((), dtype="float32"))");
  CHECK(infer_op(R"(p: R.Tensor((3, 5), "float32"), l: R.Tensor((3, 4), "float32"))",
                 "R.nn.cross_entropy_with_logits(p, l)")
            .errors == Strings{"E0313@l"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 4), "float32"))", "R.nn.batch_flatten(x)").sinfo ==
        R"(R.Tensor((2, 12), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 8, 3, 4), "float32"))", "R.nn.pixel_shuffle(x, 2)").sinfo ==
        R"(R.Tensor((2, 2, 6, 8), dtype="float32"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 6, 3, 4), "float32"))", "R.nn.pixel_shuffle(x, 2)").errors ==
        Strings{"E0320@x"});
}

TEST_CASE("image.resize2d") {
  auto r = infer_op(R"(x: R.Tensor((2, 3, 32, 32), "float32"))", "R.image.resize2d(x, (52, 52))");
  CHECK(r.sinfo == R"(R.Tensor((2, 3, 52, 52), dtype="float32"))");
  CHECK(
      r.call ==
      R"(R.image.resize2d(x, R.shape([52, 52]), roi=[T.float32(0.0), T.float32(0.0), T.float32(0.0), T.float32(0.0)], layout="NCHW", method="linear", coordinate_transformation_mode="half_pixel", rounding_method="round", cubic_alpha=-0.5, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void"))");
  CHECK(infer_op(R"(x: R.Tensor((2, 32, 32, 3), "float32"))",
                 R"(R.image.resize2d(x, 16, layout="NHWC", out_dtype="float16"))")
            .sinfo == R"(R.Tensor((2, 16, 16, 3), dtype="float16"))");
  CHECK(
      infer_op(R"(x: R.Tensor((2, 3, 32, 32), "float32"))", "R.image.resize2d(x, (8, 8), roi=0.5)")
          .call.find("roi=[T.float32(0.5), T.float32(0.5), T.float32(0.5), T.float32(0.5)]") !=
      std::string::npos);
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32, 32), "float32"), s: R.Shape(ndim=2))",
                 "R.image.resize2d(x, s)")
            .sinfo == R"(R.Tensor(dtype="float32", ndim=4))");
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32, 32), "float32"))", "R.image.resize2d(x, (8, 8, 8))")
            .errors == Strings{"E0312@(8, 8, 8)"});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32, 32), "float32"))",
                 R"(R.image.resize2d(x, (8, 8), method="bilinear"))")
            .errors == Strings{"E0316@\"bilinear\""});
  CHECK(infer_op(R"(x: R.Tensor((2, 3, 32), "float32"))", "R.image.resize2d(x, (8, 8))").errors ==
        Strings{"E0312@x"});
}

TEST_CASE("quantize and dequantize") {
  const char* p =
      R"(x: R.Tensor((2, 4), "float32"), s: R.Tensor((2,), "float32"), z: R.Tensor((2,), "int8"))";
  auto q = infer_op(p, "R.quantize(x, s, z, 0)");
  CHECK(q.sinfo == R"(R.Tensor((2, 4), dtype="int8"))");
  CHECK(q.call == R"(R.quantize(x, s, z, out_dtype="int8", axis=0))");
  CHECK(infer_op(p, R"(R.quantize(x, s, z, 0, "uint8"))").sinfo ==
        R"(R.Tensor((2, 4), dtype="uint8"))");
  CHECK(infer_op(p, "R.quantize(x, s, z)").errors == Strings{"E0313@s"});
  CHECK(infer_op(p, R"(R.quantize(x, s, z, 0, "float32"))").errors == Strings{"E0316@\"float32\""});
  auto d = infer_op(
      R"(x: R.Tensor((2, 4), "int8"), s: R.Tensor((), "float32"), z: R.Tensor((), "int8"))",
      "R.dequantize(x, s, z)");
  CHECK(d.sinfo == R"(R.Tensor((2, 4), dtype="float32"))");
  CHECK(d.call == R"(R.dequantize(x, s, z, out_dtype="float32", axis=-1))");
}

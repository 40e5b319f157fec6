// Legalization numerics of the scatters, advanced indexing, einsum, quantization, layout
// transforms, meshgrid and multinomial sampling, against plain C++ loops in double precision.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "tests/compiler/legalize/numerics_groups.h"
#include "tests/compiler/legalize/numerics_util.h"

namespace relax::legalize_test {

namespace {

const DataType I64 = DataType::Int64();

HostArray ints(DataType t, Shape s, std::vector<int64_t> v) {
  HostArray a(t, std::move(s));
  a.i = std::move(v);
  return a;
}

HostArray floats(Shape s, std::vector<double> v, DataType t = F32) {
  HostArray a(t, std::move(s));
  a.f = std::move(v);
  return a;
}

double combine(const std::string& r, double cur, double upd) {
  if (r == "add") return cur + upd;
  if (r == "mul") return cur * upd;
  if (r == "mean") return (cur + upd) / 2;
  if (r == "min") return std::min(cur, upd);
  if (r == "max") return std::max(cur, upd);
  return upd;
}

// Runs the PrimFunc of `call` on `inputs` with one output array per field of `outs`.
std::vector<HostArray> run_multi(const std::string& params, const std::string& call,
                                 std::vector<HostArray> inputs, std::vector<HostArray> outs) {
  auto r = legalize_text("@I.ir_module\nclass Module:\n    @R.function\n    def main(" + params +
                         "):\n        y = " + call + "\n        return y\n");
  INFO(r.text);
  auto f = called_prim_func(*r.module);
  std::vector<compiler::tir_eval::Arg> args;
  for (auto& a : inputs) args.emplace_back(&a);
  for (auto& o : outs) args.emplace_back(&o);
  compiler::tir_eval::run(*f, args);
  return outs;
}

// numpy's einsum over labelled operands: `labels[k]` names the axes of operand k, `out` the
// output's; every other label is summed.
Values ref_einsum(const std::vector<HostArray>& in, const std::vector<std::string>& labels,
                  const std::string& out) {
  std::map<char, int64_t> ext;
  for (size_t k = 0; k < in.size(); ++k)
    for (size_t d = 0; d < labels[k].size(); ++d)
      ext[labels[k][d]] = std::max(ext[labels[k][d]], in[k].shape[d]);
  std::string all;
  for (const auto& [l, e] : ext) all.push_back(l);
  Shape out_shape, all_shape;
  for (char l : out) out_shape.push_back(ext[l]);
  for (char l : all) all_shape.push_back(ext[l]);
  Values v(static_cast<size_t>(numel(out_shape)), 0.0);
  for (int64_t f = 0; f < numel(all_shape); ++f) {
    Shape idx = unravel(f, all_shape);
    std::map<char, int64_t> at;
    for (size_t d = 0; d < all.size(); ++d) at[all[d]] = idx[d];
    double p = 1;
    for (size_t k = 0; k < in.size(); ++k) {
      Shape ii;
      for (size_t d = 0; d < labels[k].size(); ++d)
        ii.push_back(in[k].shape[d] == 1 ? 0 : at[labels[k][d]]);  // broadcast
      p *= in[k].get(ravel(ii, in[k].shape));
    }
    Shape oi;
    for (char l : out) oi.push_back(at[l]);
    v[static_cast<size_t>(ravel(oi, out_shape))] += p;
  }
  return v;
}

}  // namespace

// legalize numerics: scatter_elements, scatter_nd, index_tensor
void scatter_index_cases() {
  HostArray data = rnd({3, 4}, 1001);
  // Duplicates within a row (the later update wins for "update") and a negative index.
  HostArray ind = ints(I64, {2, 3}, {1, 1, -1, 0, 2, 0});
  HostArray upd = rnd({2, 3}, 1002);
  for (std::string r : {"update", "add", "mul", "mean", "min", "max"}) {
    check({"relax.scatter_elements",
           "R.scatter_elements(x0, x1, x2, axis=1, reduction=\"" + r + "\")",
           {data, ind, upd},
           F32,
           {3, 4},
           [r](const std::vector<HostArray>& in) {
             Values v = in[0].f;
             for (int64_t i = 0; i < 2; ++i)
               for (int64_t j = 0; j < 3; ++j) {
                 int64_t k = in[1].i[static_cast<size_t>(i * 3 + j)];
                 if (k < 0) k += 4;
                 double& o = v[static_cast<size_t>(i * 4 + k)];
                 o = combine(r, o, in[2].get(i * 3 + j));
               }
             return v;
           }});
  }
  // Along axis 0, int32 indices.
  HostArray ind0 = ints(DataType::Int32(), {2, 2}, {2, 0, 2, 1});
  check({"relax.scatter_elements",
         "R.scatter_elements(x0, x1, x2)",
         {data, ind0, rnd({2, 2}, 1003)},
         F32,
         {3, 4},
         [](const std::vector<HostArray>& in) {
           Values v = in[0].f;
           for (int64_t i = 0; i < 2; ++i)
             for (int64_t j = 0; j < 2; ++j)
               v[static_cast<size_t>(in[1].i[static_cast<size_t>(i * 2 + j)] * 4 + j)] =
                   in[2].get(i * 2 + j);
           return v;
         }});
  // scatter_nd: whole rows at duplicate row indices, then single elements.
  HostArray rows = ints(I64, {3, 1}, {1, 3, 1});
  for (std::string r : {"update", "add", "mul", "min", "max"}) {
    check({"relax.scatter_nd",
           "R.scatter_nd(x0, x1, x2, reduction=\"" + r + "\")",
           {rnd({4, 3}, 1004), rows, rnd({3, 3}, 1005)},
           F32,
           {4, 3},
           [r](const std::vector<HostArray>& in) {
             Values v = in[0].f;
             for (int64_t m = 0; m < 3; ++m)
               for (int64_t j = 0; j < 3; ++j) {
                 double& o = v[static_cast<size_t>(in[1].i[static_cast<size_t>(m)] * 3 + j)];
                 o = combine(r, o, in[2].get(m * 3 + j));
               }
             return v;
           }});
  }
  HostArray pts = ints(I64, {2, 2, 2}, {0, 1, 3, 2, 0, 1, 2, 0});
  check({"relax.scatter_nd",
         "R.scatter_nd(x0, x1, x2)",
         {rnd({4, 3}, 1006), pts, rnd({2, 2}, 1007)},
         F32,
         {4, 3},
         [](const std::vector<HostArray>& in) {
           Values v = in[0].f;
           for (int64_t m = 0; m < 4; ++m) {
             int64_t a = in[1].i[static_cast<size_t>(2 * m)],
                     b = in[1].i[static_cast<size_t>(2 * m + 1)];
             v[static_cast<size_t>(a * 3 + b)] = in[2].get(m);
           }
           return v;
         }});
  // index_tensor: indices (2, 1) and (3,) broadcast to (2, 3); the last axis is kept.
  HostArray i0 = ints(I64, {2, 1}, {3, -4});
  HostArray i1 = ints(DataType::Int32(), {3}, {2, 0, 2});
  check({"relax.index_tensor",
         "R.index_tensor(x0, (x1, x2))",
         {rnd({4, 3, 2}, 1008), i0, i1},
         F32,
         {2, 3, 2},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t a = 0; a < 2; ++a)
             for (int64_t b = 0; b < 3; ++b)
               for (int64_t c = 0; c < 2; ++c) {
                 int64_t r = in[1].i[static_cast<size_t>(a)];
                 if (r < 0) r += 4;
                 v.push_back(in[0].get((r * 3 + in[2].i[static_cast<size_t>(b)]) * 2 + c));
               }
           return v;
         }});
  HostArray i2 = ints(I64, {4}, {0, 2, 1, 2});
  check({"relax.index_tensor",
         "R.index_tensor(x0, (x1, x2))",
         {rnd({3, 3}, 1009), i2, ints(I64, {4}, {1, 1, 0, 2})},
         F32,
         {4},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (size_t k = 0; k < 4; ++k) v.push_back(in[0].get(in[1].i[k] * 3 + in[2].i[k]));
           return v;
         }});
}

// legalize numerics: einsum, quantize, dequantize, layout_transform, meshgrid,
// multinomial_from_uniform
void einsum_quantize_layout_cases() {
  struct E {
    std::string eq;
    std::vector<Shape> shapes;
    std::vector<std::string> labels;
    std::string out;
    Shape out_shape;
  };
  std::vector<E> eqs = {
      {"ij,jk->ik", {{2, 3}, {3, 4}}, {"ij", "jk"}, "ik", {2, 4}},
      {"ij,jk", {{2, 3}, {3, 4}}, {"ij", "jk"}, "ik", {2, 4}},
      {"ii->i", {{3, 3}}, {"ii"}, "i", {3}},
      {"ii", {{3, 3}}, {"ii"}, "", {}},
      {"ij->ji", {{2, 3}}, {"ij"}, "ji", {3, 2}},
      {"i,j", {{2}, {3}}, {"i", "j"}, "ij", {2, 3}},
      {"bij,bjk->bik", {{2, 2, 3}, {2, 3, 2}}, {"bij", "bjk"}, "bik", {2, 2, 2}},
      {"ij,ij->", {{2, 3}, {2, 3}}, {"ij", "ij"}, "", {}},
      {"...ij,jk->...ik", {{2, 2, 3}, {3, 2}}, {"bij", "jk"}, "bik", {2, 2, 2}},
      {"...ij,...jk", {{1, 2, 3}, {2, 3, 2}}, {"bij", "bjk"}, "bik", {2, 2, 2}},
  };
  uint32_t seed = 1100;
  for (const auto& e : eqs) {
    std::vector<HostArray> ins;
    std::string args;
    for (size_t k = 0; k < e.shapes.size(); ++k) {
      ins.push_back(rnd(e.shapes[k], seed++));
      args += (k ? ", " : "") + std::string("x") + std::to_string(k);
    }
    if (e.shapes.size() == 1) args += ",";
    check({"relax.einsum", "R.einsum((" + args + "), \"" + e.eq + "\")", ins, F32, e.out_shape,
           [e](const std::vector<HostArray>& in) { return ref_einsum(in, e.labels, e.out); }, 1e-5,
           1e-5});
  }

  // quantize: ties round to even, values beyond the range clip; scale / zero point scalars.
  HostArray q = floats({2, 4}, {0.5, 1.5, 2.5, -0.5, -2.5, 300, -300, 3.25});
  auto quant_ref = [](const HostArray& x, const HostArray& s, const HostArray& z, int64_t axis,
                      double lo, double hi) {
    Values v;
    for (int64_t k = 0; k < x.size(); ++k) {
      int64_t a = axis == 0 ? k / x.shape[1] : k % x.shape[1];
      double sc = s.get(s.size() == 1 ? 0 : a), zp = z.get(z.size() == 1 ? 0 : a);
      double r = std::nearbyint(x.get(k) / sc) + zp;
      v.push_back(std::min(std::max(r, lo), hi));
    }
    return v;
  };
  HostArray s1 = floats({1}, {1.0}), z1 = ints(DataType::Int(8), {1}, {0});
  check({"relax.quantize",
         "R.quantize(x0, x1, x2, axis=1, out_dtype=\"int8\")",
         {q, s1, z1},
         DataType::Int(8),
         {2, 4},
         [quant_ref](const std::vector<HostArray>& in) {
           return quant_ref(in[0], in[1], in[2], 1, -128, 127);
         }});
  // Per-slice scale and zero point along axis 1, uint8.
  HostArray s4 = floats({4}, {0.5, 1, 2, 0.25}), z4 = ints(DataType::UInt(8), {4}, {10, 0, 3, 128});
  check({"relax.quantize",
         "R.quantize(x0, x1, x2, axis=1, out_dtype=\"uint8\")",
         {q, s4, z4},
         DataType::UInt(8),
         {2, 4},
         [quant_ref](const std::vector<HostArray>& in) {
           return quant_ref(in[0], in[1], in[2], 1, 0, 255);
         }});
  // Per-slice along axis 0 (scalar zero point as a 0-d tensor).
  HostArray s2 = floats({2}, {0.5, 4}), z0 = ints(DataType::Int(8), {}, {-3});
  check({"relax.quantize",
         "R.quantize(x0, x1, x2, axis=0, out_dtype=\"int8\")",
         {q, s2, z0},
         DataType::Int(8),
         {2, 4},
         [quant_ref](const std::vector<HostArray>& in) {
           return quant_ref(in[0], in[1], in[2], 0, -128, 127);
         }});
  // dequantize: (x - zp) * scale, per slice along axis 1.
  HostArray dq = ints(DataType::Int(8), {2, 4}, {-128, -1, 0, 1, 5, 127, -7, 64});
  auto deq_ref = [](const std::vector<HostArray>& in) {
    Values v;
    for (int64_t k = 0; k < 8; ++k) {
      int64_t a = k % 4;
      double sc = in[1].get(in[1].size() == 1 ? 0 : a), zp = in[2].get(in[2].size() == 1 ? 0 : a);
      v.push_back((in[0].get(k) - zp) * sc);
    }
    return v;
  };
  check({"relax.dequantize",
         "R.dequantize(x0, x1, x2, axis=1)",
         {dq, floats({4}, {0.5, 0.125, 2, 0.1}), ints(DataType::Int(8), {4}, {1, 0, -2, 3})},
         F32,
         {2, 4},
         deq_ref});
  check({"relax.dequantize",
         "R.dequantize(x0, x1, x2, axis=-1, out_dtype=\"float16\")",
         {dq, floats({1}, {0.25}), ints(DataType::Int(8), {1}, {2})},
         DataType::Float(16),
         {2, 4},
         deq_ref});

  // layout_transform: NCHW -> NCHW4c, exact and padded (6 channels into 2 blocks of 4).
  auto nchw4c = [](const HostArray& x, int64_t blocks, double pad) {
    int64_t C = x.shape[1], H = x.shape[2], W = x.shape[3];
    Values v;
    for (int64_t cb = 0; cb < blocks; ++cb)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w)
          for (int64_t ci = 0; ci < 4; ++ci) {
            int64_t c = cb * 4 + ci;
            v.push_back(c < C ? x.get((c * H + h) * W + w) : pad);
          }
    return v;
  };
  const std::string map4c = "index_map=T.index_map(lambda n, c, h, w: (n, c // 4, h, w, c % 4))";
  check({"relax.layout_transform",
         "R.layout_transform(x0, " + map4c + ")",
         {rnd({1, 8, 2, 3}, 1200)},
         F32,
         {1, 2, 2, 3, 4},
         [nchw4c](const std::vector<HostArray>& in) { return nchw4c(in[0], 2, 0); }});
  check({"relax.layout_transform",
         "R.layout_transform(x0, " + map4c + ", pad_value=1.5)",
         {rnd({1, 6, 2, 2}, 1201)},
         F32,
         {1, 2, 2, 2, 4},
         [nchw4c](const std::vector<HostArray>& in) { return nchw4c(in[0], 2, 1.5); }});
  check({"relax.layout_transform",
         "R.layout_transform(x0, index_map=T.index_map(lambda a, b: (b, a)))",
         {rnd({2, 3}, 1202)},
         F32,
         {3, 2},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t b = 0; b < 3; ++b)
             for (int64_t a = 0; a < 2; ++a) v.push_back(in[0].get(a * 3 + b));
           return v;
         }});
  check({"relax.layout_transform",
         "R.layout_transform(x0, index_map=T.index_map(lambda a, b: (a * 4 + b,)))",
         {rnd({3, 4}, 1203)},
         F32,
         {12},
         [](const std::vector<HostArray>& in) { return in[0].f; }});

  // Splits and permutations read the input at the inverse map (a spatial compute, padded by
  // T.if_then_else); a fusion is stored through the map in serial loops.
  auto lt_text = [](const std::string& shape, const std::string& map) {
    return legalize_text("@I.ir_module\nclass Module:\n    @R.function\n    def main(x: R.Tensor(" +
                         shape + ", \"float32\")):\n        y = R.layout_transform(x, " + map +
                         ")\n        return y\n")
        .text;
  };
  std::string split_text = lt_text("(1, 6, 2, 2)", map4c + ", pad_value=1.5");
  CHECK(split_text.find("T.axis.remap(\"SSSSS\"") != std::string::npos);
  CHECK(split_text.find("T.if_then_else(") != std::string::npos);
  std::string exact_text = lt_text("(1, 8, 2, 2)", map4c);
  CHECK(exact_text.find("T.axis.remap(\"SSSSS\"") != std::string::npos);
  CHECK(exact_text.find("T.if_then_else(") == std::string::npos);
  std::string fuse_text = lt_text("(3, 4)", "index_map=T.index_map(lambda a, b: (a * 4 + b,))");
  CHECK(fuse_text.find("T.axis.remap") == std::string::npos);

  // meshgrid, "ij" and "xy".
  HostArray a = rnd({2}, 1210), b = rnd({3}, 1211), c = rnd({2}, 1212);
  std::string p3 = "a: " + tensor({2}) + ", b: " + tensor({3}) + ", c: " + tensor({2});
  auto ij =
      run_multi(p3, "R.meshgrid((a, b, c), indexing=\"ij\")", {a, b, c},
                {HostArray(F32, {2, 3, 2}), HostArray(F32, {2, 3, 2}), HostArray(F32, {2, 3, 2})});
  auto xy =
      run_multi(p3, "R.meshgrid((a, b, c), indexing=\"xy\")", {a, b, c},
                {HostArray(F32, {3, 2, 2}), HostArray(F32, {3, 2, 2}), HostArray(F32, {3, 2, 2})});
  Values w_ij[3], w_xy[3];
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 2; ++k) {
        w_ij[0].push_back(a.get(i));
        w_ij[1].push_back(b.get(j));
        w_ij[2].push_back(c.get(k));
      }
  for (int64_t j = 0; j < 3; ++j)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t k = 0; k < 2; ++k) {
        w_xy[0].push_back(a.get(i));
        w_xy[1].push_back(b.get(j));
        w_xy[2].push_back(c.get(k));
      }
  for (size_t k = 0; k < 3; ++k) {
    CHECK(compare(ij[k], w_ij[k]) == "");
    CHECK(compare(xy[k], w_xy[k]) == "");
  }
  tested_ops().insert("relax.meshgrid");

  // multinomial_from_uniform: the first index whose cumulative probability exceeds u (the last
  // index when rounding leaves u above the total).
  HostArray prob = floats({2, 4}, {0.1, 0.2, 0.3, 0.4, 0.25, 0.25, 0.5, 0.0});
  HostArray us = floats({5, 1}, {0.05, 0.35, 0.999, 0.5, 0.75});
  HostArray si = ints(I64, {5, 1}, {0, 0, 0, 1, 1});
  check({"relax.multinomial_from_uniform",
         "R.multinomial_from_uniform(x0, x1, x2, dtype=\"int64\")",
         {prob, us, si},
         I64,
         {5, 1},
         [](const std::vector<HostArray>& in) {
           Values v;
           for (int64_t s = 0; s < 5; ++s) {
             int64_t row = in[2].i[static_cast<size_t>(s)];
             double u = in[1].get(s), acc = 0;
             int64_t pick = 3;
             for (int64_t j = 0; j < 4; ++j) {
               acc += in[0].get(row * 4 + j);
               if (u < acc) {
                 pick = j;
                 break;
               }
             }
             v.push_back(double(pick));
           }
           return v;
         }});
}

}  // namespace relax::legalize_test

TEST_CASE("legalize numerics: scatter_elements, scatter_nd and index_tensor") {
  relax::legalize_test::scatter_index_cases();
}

TEST_CASE("legalize misc: unsupported attribute values are reported (E0742) and the call stays") {
  using namespace relax::legalize_test;
  auto r = legalize_text(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 3), "float32"), i: R.Tensor((2, 1), "int64"), u: R.Tensor((2, 3), "float32"), s: R.Tensor((1,), "float32"), z: R.Tensor((1,), "int8"), q: R.Tensor((4, 3), "int8")):
        a = R.scatter_nd(x, i, u, reduction="mean")
        b = R.dequantize(q, s, z, axis=0, out_dtype="bfloat16")
        return (a, b)
)");
  INFO(r.text);
  CHECK(r.text.find("R.scatter_nd(x, i, u") != std::string::npos);
  CHECK(r.text.find("R.dequantize(q, s, z") != std::string::npos);
  std::vector<std::string> codes;
  for (const auto& d : r.diags.items()) codes.push_back(d.code);
  CHECK(std::count(codes.begin(), codes.end(), "E0742") == 2);
}

TEST_CASE("legalize numerics: einsum, quantize, layout_transform, meshgrid, multinomial") {
  relax::legalize_test::einsum_quantize_layout_cases();
}

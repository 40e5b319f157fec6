// The end-to-end run cases (see run_cases.h): examples/ models and modules written here, with the
// inputs of each call.
#include "tests/compiler/e2e/run_cases.h"

#include <catch2/catch.hpp>

#include <cstdlib>

#include "tests/support/test_util.h"
#include "vm/runtime.h"

namespace relax::test::e2e {

namespace {

template <class T>
vm::Value tensor(std::vector<int64_t> shape, const std::vector<T>& data, DLDataType dtype) {
  return vm::Value(vm::tensor_from_bytes(shape, dtype, data.data()));
}

std::string example(const std::string& file) {
  return read_file(source_dir() / "examples" / file);
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

std::vector<RunCall> one_call(std::vector<vm::Value> args) {
  return {RunCall{"main", std::move(args)}};
}

std::vector<RunCase> make_cases() {
  std::vector<RunCase> cases;
  auto add = [&](std::string name, std::string text, std::function<std::vector<RunCall>()> calls) {
    cases.push_back({std::move(name), std::move(text), std::move(calls)});
  };

  // ---- models_test.cc ------------------------------------------------------------------------
  add("simple_cnn", example("simple_cnn.relax"), [] {
    std::mt19937 rng(7);
    std::vector<vm::Value> args;
    for (auto shape :
         std::vector<std::vector<int64_t>>{{1, 3, 32, 32}, {16, 3, 3, 3}, {16}, {10, 16}, {10}})
      args.push_back(random_tensor(shape, rng));
    return one_call(std::move(args));
  });
  add("mlp", example("mlp.relax"), [] {
    std::mt19937 rng(11);
    std::vector<vm::Value> weights;
    for (auto shape :
         std::vector<std::vector<int64_t>>{{784, 512}, {512}, {512, 512}, {512}, {512, 10}, {10}})
      weights.push_back(random_tensor(shape, rng));
    std::vector<RunCall> calls;
    // Batches 1, 3 and 8, then a wrong input shape (a run-time error).
    for (std::vector<int64_t> x : {std::vector<int64_t>{1, 784}, {3, 784}, {8, 784}, {2, 783}}) {
      std::vector<vm::Value> args{random_tensor(x, rng)};
      args.insert(args.end(), weights.begin(), weights.end());
      calls.push_back({"main", std::move(args)});
    }
    return calls;
  });
  // The 1024^3 example's kernel shape at a size a test can afford.
  add("matmul96", replace_all(example("matmul.relax"), "1024", "96"), [] {
    std::mt19937 rng(5);
    vm::Value a = random_tensor({96, 96}, rng);
    return one_call({a, random_tensor({96, 96}, rng)});
  });
  // The scatters' serial update loops and layout_transform's two forms (a spatial compute for a
  // split, serial stores for a fusion).
  add("scatter_layout", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 8), "float32"), i: R.Tensor((3, 4), "int64"), u: R.Tensor((3, 4), "float32")):
        a = R.scatter_elements(x, i, u, axis=1, reduction="add")
        b = R.scatter_elements(a, i, u, axis=1)
        c = R.layout_transform(b, index_map=T.index_map(lambda r, k: (k // 3, r, k % 3)), pad_value=-1.0)
        d = R.layout_transform(c, index_map=T.index_map(lambda p, q, s: (p * 9 + q * 3 + s,)))
        return d
)",
      [] {
        std::mt19937 rng(11);
        vm::Value x = random_tensor({3, 8}, rng), u = random_tensor({3, 4}, rng);
        std::vector<int64_t> idx = {1, 1, 7, 1, 0, -1, 0, 3, 5, 5, 5, 2};
        return one_call({x, tensor<int64_t>({3, 4}, idx, vm::kInt64), u});
      });
  add("while_loop", example("while_loop.relax"), [] {
    std::mt19937 rng(5);
    vm::Value x = random_tensor({2, 3}, rng);
    std::vector<RunCall> calls;
    for (int32_t n : {0, 1, 7})
      calls.push_back({"main", {x, tensor<int32_t>({}, {n}, vm::kInt32)}});
    return calls;
  });

  // ---- runtime_ops_test.cc -------------------------------------------------------------------
  add("sort_argsort_topk", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 9), "float32")):
        with R.dataflow():
            y = R.add(x, x)
            s = R.sort(y, axis=1, descending=True)
            a = R.argsort(y, axis=0, dtype="int64")
            t = R.topk(y, k=3, axis=-1, ret_type="both", largest=False, dtype="int32")
            v = R.multiply(t[0], R.const(0.5, "float32"))
            gv = (s, a, v, t[1])
            R.output(gv)
        return gv
)",
      [] {
        std::vector<RunCall> calls;
        for (uint32_t seed : {1u, 2u, 3u})
          calls.push_back({"main", {tensor<float>({4, 9}, random_ties(36, seed), vm::kFloat32)}});
        return calls;
      });
  add("sort_symbolic", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "int32")):
        with R.dataflow():
            s = R.sort(x)
            t = R.topk(s, k=2, ret_type="values")
            gv = (s, t)
            R.output(gv)
        return gv
)",
      [] {
        return one_call({tensor<int32_t>({7}, {5, -2, 9, 0, 5, 1, -8}, vm::kInt32)});
      });
  for (int sorted : {1, 0}) {
    std::string s = std::to_string(sorted);
    add(sorted ? "unique_sorted" : "unique_unsorted",
        R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5, 8), "int64")):
        with R.dataflow():
            u = R.unique(x, R.prim_value()" +
            s +
            R"(), R.prim_value(1), R.prim_value(1), R.prim_value(1))
            only = R.unique(x, R.prim_value()" +
            s +
            R"(), R.prim_value(0), R.prim_value(0), R.prim_value(0))
            gv = (u, only)
            R.output(gv)
        return gv
)",
        [] {
          std::vector<int64_t> x;
          std::mt19937 rng(11);
          std::uniform_int_distribution<int64_t> dist(-4, 6);
          for (int i = 0; i < 40; ++i) x.push_back(dist(rng));
          return one_call({tensor<int64_t>({5, 8}, x, vm::kInt64)});
        });
  }
  add("nonzero", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), "float32")):
        with R.dataflow():
            y = R.nn.relu(x)
            gv = R.nonzero(y)
            R.output(gv)
        return gv
)",
      [] {
        return one_call({tensor<float>({3, 4, 5}, random_ties(60, 5), vm::kFloat32)});
      });
  add("dynamic_strided_slice", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((6, 7), "float32"), b: R.Tensor((2,), "int64"), e: R.Tensor((2,), "int64"), s: R.Tensor((2,), "int64")):
        gv = R.dynamic_strided_slice(x, b, e, s)
        return gv
)",
      [] {
        std::vector<float> x(42);
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
        // (begin, end, stride) of axis 0, then of axis 1.
        std::vector<std::vector<int64_t>> slices = {
            {0, 6, 1, 0, 7, 1},      {-1, -7, -1, 1, 6, 2}, {5, 0, -2, -2, -100, -3},
            {-3, 100, 1, 6, -8, -1}, {4, 2, 1, 0, 7, 3},    {-100, 100, 4, -1, 0, -2}};
        std::vector<RunCall> calls;
        for (const auto& c : slices) {
          calls.push_back({"main",
                           {tensor<float>({6, 7}, x, vm::kFloat32),
                            tensor<int64_t>({2}, {c[0], c[3]}, vm::kInt64),
                            tensor<int64_t>({2}, {c[1], c[4]}, vm::kInt64),
                            tensor<int64_t>({2}, {c[2], c[5]}, vm::kInt64)}});
        }
        return calls;
      });
  add("ccl", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 3), "float32")):
        with R.dataflow():
            a = R.ccl.allreduce(x, op_type="sum")
            g = R.ccl.allgather(a, num_workers=1)
            b = R.ccl.broadcast_from_worker0(g)
            s = R.ccl.scatter_from_worker0(b, num_workers=1, axis=1)
            gv = R.add(s, x)
            R.output(gv)
        return gv
)",
      [] {
        return one_call({tensor<float>({4, 3}, random_ties(12, 9), vm::kFloat32)});
      });
  add("ccl_two_workers", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 2), "float32")):
        gv = R.ccl.scatter_from_worker0(x, num_workers=2, axis=0)
        return gv
)",
      [] {
        return one_call({tensor<float>({4, 2}, std::vector<float>(8, 1.0f), vm::kFloat32)});
      });
  add("unique_axis", R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 3), "float32")):
        with R.dataflow():
            rows = R.unique(x, R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.prim_value(0))
            cols = R.unique(x, R.prim_value(0), R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(-1))
            gv = (rows, cols)
            R.output(gv)
        return gv
)",
      [] {
        // Rows 0 and 2 are equal; columns 0 and 2 are equal.
        return one_call(
            {tensor<float>({4, 3}, {1, 5, 1, 0, 2, 0, 1, 5, 1, 7, -1, 7}, vm::kFloat32)});
      });
  // The slice a worker takes by its rank (TVM's sharding tests): begin `k`, end `k + 3`.
  add("strided_slice_symbolic", R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((10,), "float32"), p: R.Prim(value="k")) -> R.Tuple(R.Tensor((3,), "float32"), R.Tensor((2,), "float32")):
        k = T.int64()
        y = R.strided_slice(x, (R.prim_value(0),), (R.prim_value(k),), (R.prim_value(k + 3),))
        z: R.Tensor((3,), "float32") = R.match_cast(y, R.Tensor((3,), "float32"))
        w: R.Tensor((2,), "float32") = R.strided_slice(x, (R.prim_value(0),), (R.prim_value(k * 2),), (R.prim_value(k * 2 + 2),), assume_inbound=True)
        return (z, w)
)",
      [] {
        std::vector<float> x(10);
        for (int i = 0; i < 10; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i * i);
        std::vector<RunCall> calls;
        for (int64_t k : {2, 3})
          calls.push_back({"main", {tensor<float>({10}, x, vm::kFloat32), vm::Value(k)}});
        return calls;
      });
  add("print_assert_views", R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 4), "float32"), ok: R.Tensor((), "bool")) -> R.Tuple(R.Tensor((4,), "float32"), R.Tensor((2,), "int64"), R.Tensor((2, 4), "float32")):
        R.print(x, format="x = {}")
        R.assert_op(ok, x, format="not ok: {}")
        v = R.memory.view(x, R.shape([4]), R.dtype("float32"), R.prim_value(16))
        s = R.shape_to_tensor(R.shape([2, 4]))
        c = R.grad.start_checkpoint(x)
        d = R.grad.end_checkpoint(c)
        return (v, s, d)
)",
      [] {
        std::vector<float> x{0, 1, 2, 3, 4, 5, 6, 7};
        std::vector<RunCall> calls;
        for (uint8_t ok : {1, 0})  // bool tensors hold one byte per element; 0 fails the assert
          calls.push_back(
              {"main",
               {tensor<float>({2, 4}, x, vm::kFloat32), tensor<uint8_t>({}, {ok}, vm::kBool)}});
        return calls;
      });
  add("inplace", R"(@I.ir_module
class Module:
    @T.prim_func
    def add_inplace(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("add"):
                vi = T.axis.spatial(4, i)
                A[vi] = A[vi] + B[vi]

    @T.prim_func
    def scale(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("scale"):
                vi = T.axis.spatial(4, i)
                C[vi] = A[vi] * B[vi]

    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        z = R.call_tir_inplace(cls.add_inplace, (x, y), inplace_indices=[0], out_sinfo=R.Tensor((4,), "float32"))
        w = R.call_tir_with_grad(cls.scale, (z, y), out_sinfo=R.Tensor((4,), "float32"), te_grad_name="scale_grad")
        return w
)",
      [] {
        return one_call({tensor<float>({4}, {1, 2, 3, 4}, vm::kFloat32),
                         tensor<float>({4}, {10, 20, 30, 40}, vm::kFloat32)});
      });
  for (const std::string dtype : {"float16", "float32"}) {
    add("softmax_gelu_" + dtype,
        R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 8), ")" +
            dtype + R"(")):
        with R.dataflow():
            z = R.nn.softmax(x, axis=-1)
            s = R.nn.gelu(z)
            R.output(s)
        return s
)",
        [dtype] {
          std::vector<float> x(32);
          std::vector<uint16_t> xh(32);
          for (size_t i = 0; i < x.size(); ++i) {
            xh[i] = vm::float_to_half(static_cast<float>(i % 7) * 0.5f - 1.5f);
            x[i] = vm::half_to_float(xh[i]);
          }
          if (dtype == "float16") return one_call({tensor<uint16_t>({4, 8}, xh, vm::kFloat16)});
          return one_call({tensor<float>({4, 8}, x, vm::kFloat32)});
        });
  }
  return cases;
}

}  // namespace

vm::Value random_tensor(const std::vector<int64_t>& shape, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> data(static_cast<size_t>(n));
  for (float& v : data) v = dist(rng);
  return tensor<float>(shape, data, vm::kFloat32);
}

std::vector<float> random_ties(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-3, 3);
  std::vector<float> v(n);
  for (float& f : v) f = static_cast<float>(dist(rng));
  return v;
}

const std::vector<RunCase>& run_cases() {
  static const std::vector<RunCase> cases = make_cases();
  return cases;
}

const RunCase& case_named(const std::string& name) {
  for (const RunCase& c : run_cases())
    if (c.name == name) return c;
  FAIL("no e2e run case named " << name);
  std::abort();  // not reached: FAIL throws
}

}  // namespace relax::test::e2e

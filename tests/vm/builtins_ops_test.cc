// The builtins of ops without a TIR legalization (vm/builtins_ops.cc): sort, argsort, topk
// (stable, destination-passing), unique, nonzero, dynamic_strided_slice (allocating) and the
// single-worker collectives, called with every argument as a parameter of a one-call function.
#include <cstring>

#include "tests/vm/vm_test_util.h"
#include "vm/builtins.h"

namespace relax::vm::test {
namespace {

// Calls builtin `name` with `args`; returns its result.
Result<Value> call(const std::string& name, std::vector<Value> args) {
  ExecutableBuilder b;
  std::vector<std::string> params;
  for (size_t i = 0; i < args.size(); ++i) params.push_back("p" + std::to_string(i));
  b.declare_function("f", params);
  b.begin_function("f");
  int64_t out = b.new_register();
  std::vector<Arg> call_args;
  for (size_t i = 0; i < args.size(); ++i) call_args.push_back(Arg::reg(static_cast<int64_t>(i)));
  b.emit_call(b.declare_builtin(name), std::span<const Arg>(call_args), out);
  b.emit_ret(out);
  b.end_function();
  auto vm = make_vm(finish(b));
  return vm->invoke("f", args);
}

template <class T>
Value tensor_of(std::vector<int64_t> shape, std::vector<T> data, DLDataType dtype) {
  return Value(tensor_from_bytes(shape, dtype, data.data()));
}

template <class T>
std::vector<T> data_of(const Value& v) {
  const TensorObj* t = v.as_tensor();
  REQUIRE(t);
  const T* p = t->data_as<T>();
  return std::vector<T>(p, p + t->numel());
}

std::vector<int64_t> shape_of(const Value& v) {
  const TensorObj* t = v.as_tensor();
  REQUIRE(t);
  return std::vector<int64_t>(t->shape().begin(), t->shape().end());
}

TEST_CASE("vm.builtin.sort and argsort sort each line along the axis, stably", "[vm][ops]") {
  // [[3, 1, 2, 1], [0, 5, 5, -1]] along axis 1 and axis 0.
  Value x = tensor_of<float>({2, 4}, {3, 1, 2, 1, 0, 5, 5, -1}, kFloat32);
  Value out(empty_tensor({2, 4}, kFloat32));
  REQUIRE(call("vm.builtin.sort", {x, Value(int64_t{-1}), Value(int64_t{0}), out}).ok());
  CHECK(data_of<float>(out) == std::vector<float>{1, 1, 2, 3, -1, 0, 5, 5});
  REQUIRE(call("vm.builtin.sort", {x, Value(int64_t{0}), Value(int64_t{1}), out}).ok());
  CHECK(data_of<float>(out) == std::vector<float>{3, 5, 5, 1, 0, 1, 2, -1});

  Value idx(empty_tensor({2, 4}, kInt32));
  REQUIRE(call("vm.builtin.argsort", {x, Value(int64_t{1}), Value(int64_t{0}), idx}).ok());
  CHECK(data_of<int32_t>(idx) == std::vector<int32_t>{1, 3, 2, 0, 3, 0, 1, 2});
  // Descending keeps ties in input order.
  REQUIRE(call("vm.builtin.argsort", {x, Value(int64_t{1}), Value(int64_t{1}), idx}).ok());
  CHECK(data_of<int32_t>(idx) == std::vector<int32_t>{0, 2, 1, 3, 1, 2, 0, 3});
  Value idx64(empty_tensor({2, 4}, kInt64));
  REQUIRE(call("vm.builtin.argsort", {x, Value(int64_t{0}), Value(int64_t{0}), idx64}).ok());
  CHECK(data_of<int64_t>(idx64) == std::vector<int64_t>{1, 0, 0, 1, 0, 1, 1, 0});

  // Integer and bool dtypes.
  Value xi = tensor_of<int64_t>({5}, {4, -7, 4, 0, 9}, kInt64);
  Value oi(empty_tensor({5}, kInt64));
  REQUIRE(call("vm.builtin.sort", {xi, Value(int64_t{0}), Value(int64_t{0}), oi}).ok());
  CHECK(data_of<int64_t>(oi) == std::vector<int64_t>{-7, 0, 4, 4, 9});
  Value xb = tensor_of<uint8_t>({4}, {1, 0, 1, 0}, kBool);
  Value ob(empty_tensor({4}, kInt32));
  REQUIRE(call("vm.builtin.argsort", {xb, Value(int64_t{0}), Value(int64_t{0}), ob}).ok());
  CHECK(data_of<int32_t>(ob) == std::vector<int32_t>{1, 3, 0, 2});
  Value xh = tensor_of<uint16_t>(
      {3}, {float_to_half(2.5f), float_to_half(-1.0f), float_to_half(0.5f)}, kFloat16);
  Value oh(empty_tensor({3}, kFloat16));
  REQUIRE(call("vm.builtin.sort", {xh, Value(int64_t{0}), Value(int64_t{0}), oh}).ok());
  auto h = data_of<uint16_t>(oh);
  CHECK(half_to_float(h[0]) == -1.0f);
  CHECK(half_to_float(h[2]) == 2.5f);

  // A wrong output or axis is an error.
  Value bad(empty_tensor({4, 2}, kFloat32));
  CHECK(error_of(call("vm.builtin.sort", {x, Value(int64_t{-1}), Value(int64_t{0}), bad})) ==
        "f: vm.builtin.sort: sort: the values output must be float32[2, 4], but is float32[4, "
        "2]");
  CHECK(error_of(call("vm.builtin.sort", {x, Value(int64_t{2}), Value(int64_t{0}), out}))
            .find("axis 2 is out of range for a tensor of rank 2") != std::string::npos);
}

TEST_CASE("vm.builtin.topk keeps the k largest or smallest of each line", "[vm][ops]") {
  Value x = tensor_of<float>({2, 4}, {3, 1, 2, 3, 0, 5, 5, -1}, kFloat32);
  Value v(empty_tensor({2, 2}, kFloat32)), i(empty_tensor({2, 2}, kInt64));
  REQUIRE(call("vm.builtin.topk",
               {x, Value(int64_t{2}), Value(int64_t{-1}), Value("both"), Value(int64_t{1}), v, i})
              .ok());
  CHECK(data_of<float>(v) == std::vector<float>{3, 3, 5, 5});
  CHECK(data_of<int64_t>(i) == std::vector<int64_t>{0, 3, 1, 2});
  REQUIRE(call("vm.builtin.topk",
               {x, Value(int64_t{2}), Value(int64_t{-1}), Value("values"), Value(int64_t{0}), v})
              .ok());
  CHECK(data_of<float>(v) == std::vector<float>{1, 2, -1, 0});
  Value i32(empty_tensor({1, 4}, kInt32));
  REQUIRE(call("vm.builtin.topk",
               {x, Value(int64_t{1}), Value(int64_t{0}), Value("indices"), Value(int64_t{1}), i32})
              .ok());
  CHECK(data_of<int32_t>(i32) == std::vector<int32_t>{0, 1, 1, 0});
  // k < 1 keeps the whole axis.
  Value all(empty_tensor({2, 4}, kFloat32));
  REQUIRE(call("vm.builtin.topk",
               {x, Value(int64_t{0}), Value(int64_t{1}), Value("values"), Value(int64_t{1}), all})
              .ok());
  CHECK(data_of<float>(all) == std::vector<float>{3, 3, 2, 1, 5, 5, 0, -1});
  CHECK(error_of(call("vm.builtin.topk", {x, Value(int64_t{2}), Value(int64_t{-1}), Value("both"),
                                          Value(int64_t{1}), v}))
            .find("takes 2 output(s), got 1") != std::string::npos);
}

TEST_CASE("vm.builtin.unique follows np.unique, or the order of first occurrence", "[vm][ops]") {
  Value x = tensor_of<int32_t>({7}, {3, 1, 3, 2, 1, 3, 0}, kInt32);
  auto flags = [](int64_t s, int64_t i, int64_t inv, int64_t c) {
    return std::vector<Value>{Value(s), Value(i), Value(inv), Value(c)};
  };
  auto with = [&](std::vector<Value> f) {
    f.insert(f.begin(), x);
    return f;
  };
  auto r = call("vm.builtin.unique", with(flags(1, 0, 0, 0)));
  REQUIRE(r.ok());
  CHECK(data_of<int32_t>(*r) == std::vector<int32_t>{0, 1, 2, 3});
  r = call("vm.builtin.unique", with(flags(1, 1, 1, 1)));
  REQUIRE(r.ok());
  const TupleObj* t = r->as_tuple();
  REQUIRE(t);
  REQUIRE(t->size() == 4);
  CHECK(data_of<int32_t>((*t)[0]) == std::vector<int32_t>{0, 1, 2, 3});
  CHECK(data_of<int64_t>((*t)[1]) == std::vector<int64_t>{6, 1, 3, 0});
  CHECK(data_of<int64_t>((*t)[2]) == std::vector<int64_t>{3, 1, 3, 2, 1, 3, 0});
  CHECK(data_of<int64_t>((*t)[3]) == std::vector<int64_t>{1, 2, 1, 3});
  r = call("vm.builtin.unique", with(flags(0, 1, 1, 1)));
  REQUIRE(r.ok());
  t = r->as_tuple();
  REQUIRE(t);
  CHECK(data_of<int32_t>((*t)[0]) == std::vector<int32_t>{3, 1, 2, 0});
  CHECK(data_of<int64_t>((*t)[1]) == std::vector<int64_t>{0, 1, 3, 6});
  CHECK(data_of<int64_t>((*t)[2]) == std::vector<int64_t>{0, 1, 0, 2, 1, 0, 3});
  CHECK(data_of<int64_t>((*t)[3]) == std::vector<int64_t>{3, 2, 1, 1});
  // Along an axis: unique rows.
  Value m = tensor_of<float>({3, 2}, {1, 2, 0, 5, 1, 2}, kFloat32);
  r = call("vm.builtin.unique", {m, Value(int64_t{1}), Value(int64_t{0}), Value(int64_t{1}),
                                 Value(int64_t{0}), Value(int64_t{0})});
  REQUIRE(r.ok());
  t = r->as_tuple();
  REQUIRE(t);
  CHECK(shape_of((*t)[0]) == std::vector<int64_t>{2, 2});
  CHECK(data_of<float>((*t)[0]) == std::vector<float>{0, 5, 1, 2});
  CHECK(data_of<int64_t>((*t)[1]) == std::vector<int64_t>{1, 0, 1});
  // Unique columns (axis -1).
  r = call("vm.builtin.unique", {m, Value(int64_t{1}), Value(int64_t{0}), Value(int64_t{0}),
                                 Value(int64_t{0}), Value(int64_t{-1})});
  REQUIRE(r.ok());
  CHECK(shape_of(*r) == std::vector<int64_t>{3, 2});
  CHECK(data_of<float>(*r) == std::vector<float>{1, 2, 0, 5, 1, 2});
}

TEST_CASE("vm.builtin.nonzero gives int64 coordinates, one row per dimension", "[vm][ops]") {
  Value x = tensor_of<float>({2, 3}, {0, 1.5f, 0, -2, 0, 3}, kFloat32);
  auto r = call("vm.builtin.nonzero", {x});
  REQUIRE(r.ok());
  CHECK(shape_of(*r) == std::vector<int64_t>{2, 3});
  CHECK(data_of<int64_t>(*r) == std::vector<int64_t>{0, 1, 1, 1, 0, 2});
  Value z = tensor_of<int8_t>({3}, {0, 0, 0}, kInt8);
  r = call("vm.builtin.nonzero", {z});
  REQUIRE(r.ok());
  CHECK(shape_of(*r) == std::vector<int64_t>{1, 0});
}

TEST_CASE("vm.builtin.dynamic_strided_slice slices like numpy, negative strides included",
          "[vm][ops]") {
  std::vector<float> data(12);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
  Value x = tensor_of<float>({3, 4}, data, kFloat32);
  auto i64 = [](std::vector<int64_t> v) {
    return tensor_of<int64_t>({static_cast<int64_t>(v.size())}, v, kInt64);
  };
  // x[-1::-2, 1:10:2]
  auto r =
      call("vm.builtin.dynamic_strided_slice", {x, i64({-1, 1}), i64({-100, 10}), i64({-2, 2})});
  REQUIRE(r.ok());
  CHECK(shape_of(*r) == std::vector<int64_t>{2, 2});
  CHECK(data_of<float>(*r) == std::vector<float>{9, 11, 1, 3});
  // Only axis 0: x[1:2]; an empty slice.
  r = call("vm.builtin.dynamic_strided_slice", {x, i64({1}), i64({2}), i64({1})});
  REQUIRE(r.ok());
  CHECK(data_of<float>(*r) == std::vector<float>{4, 5, 6, 7});
  r = call("vm.builtin.dynamic_strided_slice", {x, i64({2}), i64({1}), i64({1})});
  REQUIRE(r.ok());
  CHECK(shape_of(*r) == std::vector<int64_t>{0, 4});
  CHECK(error_of(call("vm.builtin.dynamic_strided_slice", {x, i64({0}), i64({1}), i64({0})}))
            .find("the stride of axis 0 is 0") != std::string::npos);
}

TEST_CASE("vm.builtin.dynamic_strided_slice takes strides near the ends of int64", "[vm][ops]") {
  Value x = tensor_of<float>({4}, {0, 1, 2, 3}, kFloat32);
  auto i64 = [](std::vector<int64_t> v) {
    return tensor_of<int64_t>({static_cast<int64_t>(v.size())}, v, kInt64);
  };
  // ceil(len / stride) used to form len + stride - 1, which wrapped around.
  auto r = call("vm.builtin.dynamic_strided_slice", {x, i64({1}), i64({4}), i64({INT64_MAX})});
  REQUIRE(r.ok());
  CHECK(data_of<float>(*r) == std::vector<float>{1});
  r = call("vm.builtin.dynamic_strided_slice", {x, i64({3}), i64({-5}), i64({INT64_MIN})});
  REQUIRE(r.ok());
  CHECK(data_of<float>(*r) == std::vector<float>{3});
}

TEST_CASE("vm.builtin.tensor_view checks offsets and sizes without overflow", "[vm][memory]") {
  std::vector<float> data(16);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
  Value x = tensor_of<float>({16}, data, kFloat32);
  Value four(make_ref<ShapeObj>(std::vector<int64_t>{4}));
  auto r = call("vm.builtin.tensor_view", {x, four, Value(), Value(int64_t{48})});
  REQUIRE(r.ok());
  CHECK(data_of<float>(*r) == std::vector<float>{12, 13, 14, 15});
  // An offset near 2^63 wrapped the end of the view around to a negative number that fit.
  for (int64_t offset : {INT64_MAX, INT64_MAX - 8, int64_t{52}}) {
    CAPTURE(offset);
    CHECK_THAT(error_of(call("vm.builtin.tensor_view", {x, four, Value(), Value(offset)})),
               Catch::Contains("do not fit in the tensor's storage of 64 bytes"));
  }
  Value huge(make_ref<ShapeObj>(std::vector<int64_t>{int64_t{1} << 62, 4}));
  CHECK_THAT(error_of(call("vm.builtin.tensor_view", {x, huge, Value(), Value()})),
             Catch::Contains("has more bytes than an int64 counts"));
}

TEST_CASE("allocators refuse sizes whose rounding would wrap around", "[vm][memory]") {
  PooledAllocator pool;
  for (size_t n : {SIZE_MAX, SIZE_MAX - 63, Allocator::kMaxBytes + 1}) {
    CAPTURE(n);
    CHECK_THROWS_WITH(pool.allocate(n), Catch::Contains("cannot allocate"));
  }
  CHECK_THROWS_WITH(empty_tensor({(int64_t{1} << 60) + 1}, kFloat32),
                    Catch::Contains("cannot allocate"));
}

TEST_CASE("vm.builtin.ccl_* run a single worker", "[vm][ops]") {
  Value x = tensor_of<float>({4}, {1, 2, 3, 4}, kFloat32);
  Value out(empty_tensor({4}, kFloat32));
  REQUIRE(call("vm.builtin.ccl_allreduce", {x, Value("sum"), out}).ok());
  CHECK(data_of<float>(out) == std::vector<float>{1, 2, 3, 4});
  Value out2(empty_tensor({4}, kFloat32));
  REQUIRE(call("vm.builtin.ccl_broadcast_from_worker0", {x, out2}).ok());
  CHECK(data_of<float>(out2) == std::vector<float>{1, 2, 3, 4});
  Value out3(empty_tensor({4}, kFloat32));
  REQUIRE(call("vm.builtin.ccl_allgather", {x, Value(int64_t{1}), out3}).ok());
  CHECK(data_of<float>(out3) == std::vector<float>{1, 2, 3, 4});
  Value out4(empty_tensor({4}, kFloat32));
  REQUIRE(
      call("vm.builtin.ccl_scatter_from_worker0", {x, Value(int64_t{1}), Value(int64_t{0}), out4})
          .ok());
  CHECK(data_of<float>(out4) == std::vector<float>{1, 2, 3, 4});
  Value half(empty_tensor({2}, kFloat32));
  CHECK(error_of(call("vm.builtin.ccl_scatter_from_worker0",
                      {x, Value(int64_t{2}), Value(int64_t{0}), half}))
            .find("ccl.scatter_from_worker0 needs 2 workers, this runtime runs 1") !=
        std::string::npos);
  CHECK(error_of(call("vm.builtin.ccl_allreduce", {x, Value("mean"), out}))
            .find("unknown op_type \"mean\"") != std::string::npos);
}

}  // namespace
}  // namespace relax::vm::test

// Builtins: the shape heap (matching symbolic dims, every error message), struct-info checks,
// storage and views, and the pooled allocator's reuse across calls.
#include <limits>
#include <set>

#include "tests/vm/vm_test_util.h"

namespace relax::vm::test {
namespace {

// SEMANTICS.md §5.3's worked example: main(x: R.Tensor(["n", "m"], "float32"),
// y: R.Tensor(ndim=3)) with z = R.match_cast(y, R.Tensor([k, m, k + 1])), returning
// R.shape([k + 1, m, 2]). Slots {n: 0, m: 1, k: 2, k + 1: 3}.
std::shared_ptr<Executable> symbolic_program() {
  ExecutableBuilder b;
  b.declare_function("main", {"x", "y"});
  int64_t shape_func = b.declare_kernel("shape_func");
  b.begin_function("main");
  b.set_shape_slot_names({"n", "m", "k", "k + 1"});
  int64_t heap = b.new_register(), out = b.new_register();
  Arg x_err = b.string_arg("argument `x` (parameter 0)");
  Arg y_err = b.string_arg("argument `y` (parameter 1)");
  Arg z_err = b.string_arg("match_cast of `y` to `z`");
  auto i = [&](int64_t v) { return b.int_arg(v); };
  b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), i(4)}, heap);
  b.emit_call("vm.builtin.check_tensor_info", {Arg::reg(0), i(2), b.dtype_arg(kFloat32), x_err});
  b.emit_call("vm.builtin.check_tensor_info", {Arg::reg(1), i(3), Arg::void_reg(), y_err});
  b.emit_call("vm.builtin.match_shape",
              {Arg::reg(0), Arg::reg(heap), i(2), i(1), i(0), i(1), i(1), x_err});
  b.emit_call("vm.builtin.match_shape",
              {Arg::reg(1), Arg::reg(heap), i(3), i(1), i(2), i(3), i(1), i(2), i(0), z_err});
  b.emit_call(shape_func, {Arg::reg(heap)});
  b.emit_call("vm.builtin.match_shape",
              {Arg::reg(1), Arg::reg(heap), i(3), i(3), i(2), i(3), i(1), i(3), i(3), z_err});
  b.emit_call("vm.builtin.make_shape", {Arg::reg(heap), i(3), i(1), i(3), i(1), i(1), i(0), i(2)},
              out);
  b.emit_ret(out);
  b.end_function();
  return finish(b);
}

TEST_CASE("match_shape stores and checks symbolic dims, make_shape builds the result",
          "[vm][shape]") {
  auto vm = make_vm(symbolic_program());
  Value x(empty_tensor({2, 3}, kFloat32));
  auto r = vm->invoke("main", {x, Value(empty_tensor({5, 3, 6}, kInt8))});
  REQUIRE(r.ok());
  REQUIRE(r->as_shape());
  CHECK(value_to_string(*r) == "(6, 3, 2)");
}

TEST_CASE("shape mismatches name the function, the argument, the dimension and both values",
          "[vm][shape]") {
  auto vm = make_vm(symbolic_program());
  Value x(empty_tensor({2, 3}, kFloat32));
  CHECK(error_of(vm->invoke("main", {x, Value(empty_tensor({5, 4, 6}, kInt8))})) ==
        "main: match_cast of `y` to `z`: dimension 1 is 4 but the function expects m = 3 from an "
        "earlier dimension");
  CHECK(error_of(vm->invoke("main", {x, Value(empty_tensor({5, 3, 7}, kInt8))})) ==
        "main: match_cast of `y` to `z`: dimension 2 is 7 but the function expects k + 1 = 6 "
        "from earlier dimensions");
  CHECK(error_of(vm->invoke("main", {Value(empty_tensor({2, 3}, kInt32)), x})) ==
        "main: argument `x` (parameter 0): expected dtype float32 but got int32");
  CHECK(error_of(vm->invoke("main", {Value(empty_tensor({1, 2, 3}, kFloat32)), x})) ==
        "main: argument `x` (parameter 0): expected a tensor of 2 dimensions but got 3 (shape "
        "[1, 2, 3])");
  CHECK(error_of(vm->invoke("main", {x, x})) ==
        "main: argument `y` (parameter 1): expected a tensor of 3 dimensions but got 2 (shape "
        "[2, 3])");
  CHECK(error_of(vm->invoke("main", {Value::shape({2, 3}), x})) ==
        "main: argument `x` (parameter 0): expected a tensor but got a shape (2, 3)");
}

TEST_CASE("static dims, prim values and slots matched across arguments", "[vm][shape]") {
  ExecutableBuilder b;
  b.declare_function("f", {"x"});
  b.declare_function("g", {"n", "x"});
  auto i = [&](int64_t v) { return b.int_arg(v); };
  b.begin_function("f");  // f(x: R.Tensor((2, 4)))
  b.emit_call("vm.builtin.match_shape", {Arg::reg(0), Arg::void_reg(), i(2), i(0), i(2), i(0), i(4),
                                         b.string_arg("argument `x` (parameter 0)")});
  b.emit_ret(0);
  b.end_function();
  b.begin_function("g");  // g(n: R.Prim(value="n"), x: R.Tensor(("n",))) -> R.Prim(value="n")
  b.set_shape_slot_names({"n"});
  int64_t heap = b.new_register(), out = b.new_register();
  b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), i(1)}, heap);
  b.emit_call("vm.builtin.check_prim_value_info",
              {Arg::reg(0), b.dtype_arg(kInt64), b.string_arg("argument `n` (parameter 0)")});
  b.emit_call("vm.builtin.match_prim_value", {Arg::reg(0), Arg::reg(heap), i(1), i(0),
                                              b.string_arg("argument `n` (parameter 0)")});
  b.emit_call("vm.builtin.match_shape", {Arg::reg(1), Arg::reg(heap), i(1), i(3), i(0),
                                         b.string_arg("argument `x` (parameter 1)")});
  b.emit_call("vm.builtin.match_prim_value",
              {Arg::reg(0), Arg::reg(heap), i(0), i(3), b.string_arg("argument `n` again")});
  b.emit_call("vm.builtin.make_prim_value", {Arg::reg(heap), i(1), i(0)}, out);
  b.emit_ret(out);
  b.end_function();
  auto vm = make_vm(finish(b));

  CHECK(vm->invoke("f", {Value(empty_tensor({2, 4}, kFloat32))}).ok());
  CHECK(error_of(vm->invoke("f", {Value(empty_tensor({2, 5}, kFloat32))})) ==
        "f: argument `x` (parameter 0): dimension 1 is 5 but the function expects 4");
  CHECK(error_of(vm->invoke("f", {Value(empty_tensor({2}, kFloat32))})) ==
        "f: argument `x` (parameter 0): has 1 dimension (shape [2]) but the function expects 2");

  CHECK(vm->invoke("g", {Value(int64_t{3}), Value(empty_tensor({3}, kFloat32))})->as_int() == 3);
  CHECK(error_of(vm->invoke("g", {Value(int64_t{3}), Value(empty_tensor({4}, kFloat32))})) ==
        "g: argument `x` (parameter 1): dimension 0 is 4 but the function expects n = 3 from an "
        "earlier dimension");
  CHECK(error_of(vm->invoke("g", {Value(int64_t{5}), Value(empty_tensor({5}, kFloat32))})) ==
        "g: argument `n` again: value is 5 but the function expects 3");
  CHECK(error_of(vm->invoke("g", {Value(1.5), Value(empty_tensor({5}, kFloat32))})) ==
        "g: argument `n` (parameter 0): expected a value of dtype int64 but got a float 1.5");
}

TEST_CASE("shape_compute selects with code 17 (T.if_then_else of integers)", "[vm][shape]") {
  ExecutableBuilder b;
  b.declare_function("f", {"n"});
  auto i = [&](int64_t v) { return b.int_arg(v); };
  b.begin_function("f");  // f(n) = n < 0 ? n + 16 : n
  int64_t heap = b.new_register(), out = b.new_register();
  b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), i(2)}, heap);
  b.emit_call("vm.builtin.match_prim_value",
              {Arg::reg(0), Arg::reg(heap), i(1), i(0), b.string_arg("argument `n`")});
  b.emit_call("vm.builtin.shape_compute",
              {Arg::reg(heap), i(1), i(1), i(0), i(0), i(0), i(13), i(0), i(1), i(0), i(0), i(16),
               i(2), i(0), i(1), i(0), i(17), i(0)});
  b.emit_call("vm.builtin.make_prim_value", {Arg::reg(heap), i(1), i(1)}, out);
  b.emit_ret(out);
  b.end_function();
  auto vm = make_vm(finish(b));
  CHECK(vm->invoke("f", {Value(int64_t{-3})})->as_int() == 13);
  CHECK(vm->invoke("f", {Value(int64_t{5})})->as_int() == 5);
}

TEST_CASE("shape_compute evaluates compound symbolic expressions into a slot", "[vm][shape]") {
  ExecutableBuilder b;
  b.declare_function("f", {"n"});
  auto i = [&](int64_t v) { return b.int_arg(v); };
  b.begin_function("f");  // f(n) = ((n + 1) * 3 floordiv -2, n >= 4)
  int64_t heap = b.new_register(), out = b.new_register(), cmp = b.new_register(),
          tup = b.new_register();
  b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), i(3)}, heap);
  b.emit_call("vm.builtin.match_prim_value",
              {Arg::reg(0), Arg::reg(heap), i(1), i(0), b.string_arg("argument `n`")});
  b.emit_call("vm.builtin.shape_compute", {Arg::reg(heap), i(1), i(1), i(0), i(0), i(1), i(2), i(0),
                                           i(0), i(3), i(4), i(0), i(0), i(-2), i(5), i(0)});
  b.emit_call("vm.builtin.shape_compute",
              {Arg::reg(heap), i(2), i(1), i(0), i(0), i(4), i(16), i(0)});
  b.emit_call("vm.builtin.make_prim_value", {Arg::reg(heap), i(1), i(1)}, out);
  b.emit_call("vm.builtin.make_prim_value", {Arg::reg(heap), i(1), i(2)}, cmp);
  b.emit_call("vm.builtin.make_tuple", {Arg::reg(out), Arg::reg(cmp)}, tup);
  b.emit_ret(tup);
  b.end_function();
  b.declare_function("bad", {"n"});
  b.begin_function("bad");  // n floordiv 0
  int64_t h2 = b.new_register();
  b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), i(1)}, h2);
  b.emit_call("vm.builtin.shape_compute", {Arg::reg(h2), i(0), i(0), i(7), i(0), i(0), i(5), i(0)});
  b.emit_ret(0);
  b.end_function();
  auto vm = make_vm(finish(b));
  auto r = vm->invoke("f", {Value(int64_t{4})});
  REQUIRE(r.ok());
  CHECK((*r->as_tuple())[0].as_int() == -8);  // 15 floordiv -2 = -8
  CHECK((*r->as_tuple())[1].as_int() == 1);
  auto r2 = vm->invoke("f", {Value(int64_t{3})});
  REQUIRE(r2.ok());
  CHECK((*r2->as_tuple())[0].as_int() == -6);
  CHECK((*r2->as_tuple())[1].as_int() == 0);
  CHECK(error_of(vm->invoke("bad", {Value(int64_t{1})})).find("division by zero") !=
        std::string::npos);
}

TEST_CASE("shape_compute fails on int64 overflow instead of wrapping", "[vm][shape]") {
  ExecutableBuilder b;
  auto i = [&](int64_t v) { return b.int_arg(v); };
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  // f(n) = op(n, k) for each (op code, k).
  std::vector<std::pair<int64_t, int64_t>> ops = {
      {4, int64_t{1} << 62}, {2, INT64_MAX}, {3, INT64_MAX}, {5, -1}, {9, -1}, {6, -1}};
  for (size_t k = 0; k < ops.size(); ++k) {
    std::string name = "f" + std::to_string(k);
    b.declare_function(name, {"n"});
    b.begin_function(name);
    int64_t heap = b.new_register(), out = b.new_register();
    b.emit_call("vm.builtin.alloc_shape_heap", {Arg::context(), i(2)}, heap);
    b.emit_call("vm.builtin.match_prim_value",
                {Arg::reg(0), Arg::reg(heap), i(1), i(0), b.string_arg("argument `n`")});
    b.emit_call("vm.builtin.shape_compute",
                {Arg::reg(heap), i(1), i(1), i(0), i(0), i(ops[k].second), i(ops[k].first), i(0)});
    b.emit_call("vm.builtin.make_prim_value", {Arg::reg(heap), i(1), i(1)}, out);
    b.emit_ret(out);
    b.end_function();
  }
  auto vm = make_vm(finish(b));
  CHECK(vm->invoke("f0", {Value(int64_t{1})})->as_int() == int64_t{1} << 62);
  CHECK(error_of(vm->invoke("f0", {Value(int64_t{2})})) ==
        "f0: integer overflow in a symbolic shape expression: 2 * 4611686018427387904 does not "
        "fit in int64");
  CHECK(error_of(vm->invoke("f1", {Value(int64_t{1})})).find("expression: 1 + ") !=
        std::string::npos);
  CHECK(vm->invoke("f2", {Value(int64_t{-1})})->as_int() == kMin);
  CHECK(error_of(vm->invoke("f2", {Value(int64_t{-2})})).find("does not fit in int64") !=
        std::string::npos);
  CHECK(error_of(vm->invoke("f3", {Value(kMin)})).find("does not fit in int64") !=
        std::string::npos);
  CHECK(error_of(vm->invoke("f4", {Value(kMin)})).find("does not fit in int64") !=
        std::string::npos);
  CHECK(error_of(vm->invoke("f5", {Value(kMin)})).find("does not fit in int64") !=
        std::string::npos);
  CHECK(vm->invoke("f3", {Value(kMin + 1)})->as_int() == INT64_MAX);
}

// A function applying one check builtin to its argument.
std::unique_ptr<VirtualMachine> checker(const std::string& builtin, std::vector<Arg> extra,
                                        ExecutableBuilder& b) {
  b.declare_function("check", {"v"});
  b.begin_function("check");
  std::vector<Arg> args{Arg::reg(0)};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(b.string_arg("argument `v` (parameter 0)"));
  b.emit_call(b.declare_builtin(builtin), args);
  b.emit_ret(0);
  b.end_function();
  return make_vm(finish(b));
}

TEST_CASE("struct-info checks of shapes, prim values, tuples and functions", "[vm][shape]") {
  Value tup = Value::tuple({Value(int64_t{1}), Value(int64_t{2}), Value(int64_t{3})});
  {
    ExecutableBuilder b;
    auto vm = checker("vm.builtin.check_shape_info", {b.int_arg(2)}, b);
    CHECK(vm->invoke("check", {Value::shape({1, 2})}).ok());
    CHECK(error_of(vm->invoke("check", {Value::shape({1, 2, 3})})) ==
          "check: argument `v` (parameter 0): expected a shape of 2 dimensions but got a shape "
          "(1, 2, 3)");
    CHECK(error_of(vm->invoke("check", {Value(int64_t{3})})) ==
          "check: argument `v` (parameter 0): expected a shape but got an int 3");
  }
  {
    ExecutableBuilder b;
    auto vm = checker("vm.builtin.check_tuple_info", {b.int_arg(2)}, b);
    CHECK(error_of(vm->invoke("check", {tup})) ==
          "check: argument `v` (parameter 0): expected a tuple of 2 fields but got 3");
    CHECK(error_of(vm->invoke("check", {Value("s")})) ==
          "check: argument `v` (parameter 0): expected a tuple but got a string");
  }
  {
    ExecutableBuilder b;
    auto vm = checker("vm.builtin.check_func_info", {}, b);
    CHECK(vm->invoke("check", {Value::function(0)}).ok());
    CHECK(error_of(vm->invoke("check", {tup})) ==
          "check: argument `v` (parameter 0): expected a function but got a tuple of 3");
  }
  {
    ExecutableBuilder b;
    auto vm = checker("vm.builtin.check_prim_value_info", {Arg::void_reg()}, b);
    CHECK(vm->invoke("check", {Value(2.0)}).ok());
    CHECK(error_of(vm->invoke("check", {tup})) ==
          "check: argument `v` (parameter 0): expected a prim value but got a tuple of 3");
  }
  {
    ExecutableBuilder b;
    auto vm = checker("vm.builtin.check_tensor_info", {b.int_arg(-1), Arg::void_reg()}, b);
    CHECK(vm->invoke("check", {Value(empty_tensor({1, 2, 3, 4}, kInt8))}).ok());
  }
}

// main(a) = add(a, a) into storage planned as the compiler does; `temp` also allocates and
// kills a scratch storage of the same size before the output's.
std::shared_ptr<Executable> storage_program(int64_t n, bool temp) {
  ExecutableBuilder b;
  b.declare_function("main", {"a"});
  int64_t add = b.declare_kernel("add");
  b.begin_function("main");
  auto alloc = [&](int64_t storage, int64_t tensor) {
    b.emit_call("vm.builtin.alloc_storage",
                {Arg::context(), b.shape_arg({n * 4}), b.int_arg(-1), b.dtype_arg(kFloat32),
                 b.string_arg("global")},
                storage);
    b.emit_call("vm.builtin.alloc_tensor",
                {Arg::reg(storage), b.int_arg(0), b.shape_arg({n}), b.dtype_arg(kFloat32)}, tensor);
  };
  if (temp) {
    int64_t s = b.new_register(), t = b.new_register();
    alloc(s, t);
    b.emit_call(add, {Arg::reg(0), Arg::reg(0), Arg::reg(t)});
    b.emit_call("vm.builtin.kill", {}, t);
    b.emit_call("vm.builtin.kill", {}, s);
  }
  int64_t s = b.new_register(), out = b.new_register();
  alloc(s, out);
  b.emit_call(add, {Arg::reg(0), Arg::reg(0), Arg::reg(out)});
  b.emit_ret(out);
  b.end_function();
  return finish(b);
}

TEST_CASE("storage comes from the pool and is reused across calls and after kill", "[vm][memory]") {
  auto pool = std::make_shared<PooledAllocator>();
  VMOptions options;
  options.allocator = pool;
  auto vm = make_vm(storage_program(100, false), options);
  Value a(make_tensor({2}, {1, 2}));
  Value big(empty_tensor({100}, kFloat32));
  {
    auto r = vm->invoke("main", {big});
    REQUIRE(r.ok());
    CHECK(pool->stats().system_allocs == 1);
    CHECK(pool->stats().bytes_in_use == 448);  // 400 bytes rounded to the 448-byte class
  }
  for (int i = 0; i < 5; ++i) REQUIRE(vm->invoke("main", {big}).ok());
  AllocatorStats s = pool->stats();
  CHECK(s.system_allocs == 1);
  CHECK(s.reuses == 5);
  CHECK(s.releases == 6);
  CHECK(s.bytes_in_use == 0);
  CHECK(s.bytes_cached == 448);

  auto pool2 = std::make_shared<PooledAllocator>();
  options.allocator = pool2;
  auto vm2 = make_vm(storage_program(100, true), options);
  auto r = vm2->invoke("main", {big});
  REQUIRE(r.ok());
  CHECK(pool2->stats().system_allocs == 1);  // the killed scratch block served the output
  CHECK(pool2->stats().reuses == 1);
}

TEST_CASE("storage allocated and killed inside branches is reused across calls", "[vm][memory]") {
  // main(c, a) = c ? a + a : (a + a) + a, each branch with its own planned storage.
  ExecutableBuilder b;
  b.declare_function("main", {"c", "a"});
  int64_t add = b.declare_kernel("add");
  b.begin_function("main");
  int64_t cond = b.new_register(), merged = b.new_register();
  auto alloc = [&](int64_t storage, int64_t tensor) {
    b.emit_call("vm.builtin.alloc_storage",
                {Arg::context(), b.shape_arg({16}), b.int_arg(-1), b.dtype_arg(kFloat32),
                 b.string_arg("global")},
                storage);
    b.emit_call("vm.builtin.alloc_tensor",
                {Arg::reg(storage), b.int_arg(0), b.shape_arg({4}), b.dtype_arg(kFloat32)}, tensor);
  };
  b.emit_call("vm.builtin.read_if_cond", {Arg::reg(0)}, cond);
  int64_t branch = b.emit_if(cond);
  int64_t s1 = b.new_register(), t1 = b.new_register();
  alloc(s1, t1);
  b.emit_call(add, {Arg::reg(1), Arg::reg(1), Arg::reg(t1)});
  b.emit_call("vm.builtin.copy", {Arg::reg(t1)}, merged);
  b.emit_call("vm.builtin.kill", {}, t1);
  b.emit_call("vm.builtin.kill", {}, s1);
  int64_t done = b.emit_goto();
  b.patch_target(branch, b.next_instr());
  int64_t s2 = b.new_register(), t2 = b.new_register(), s3 = b.new_register(),
          t3 = b.new_register();
  alloc(s2, t2);
  b.emit_call(add, {Arg::reg(1), Arg::reg(1), Arg::reg(t2)});
  alloc(s3, t3);
  b.emit_call(add, {Arg::reg(t2), Arg::reg(1), Arg::reg(t3)});
  b.emit_call("vm.builtin.kill", {}, t2);
  b.emit_call("vm.builtin.kill", {}, s2);
  b.emit_call("vm.builtin.copy", {Arg::reg(t3)}, merged);
  b.patch_target(done, b.next_instr());
  b.emit_ret(merged);
  b.end_function();
  auto pool = std::make_shared<PooledAllocator>();
  VMOptions options;
  options.allocator = pool;
  auto vm = make_vm(finish(b), options);
  Value a(make_tensor({4}, {1, 2, 3, 4}));
  for (int i = 0; i < 6; ++i) {
    auto r = vm->invoke("main", {Value(int64_t{i % 2}), a});
    REQUIRE(r.ok());
    if (i % 2) {
      CHECK(values(*r) == std::vector<float>{2, 4, 6, 8});
    } else {
      CHECK(values(*r) == std::vector<float>{3, 6, 9, 12});
    }
  }
  // The false branch needs two blocks at once; nothing more is ever allocated.
  CHECK(pool->stats().system_allocs == 2);
  CHECK(pool->stats().bytes_in_use == 0);
}

TEST_CASE("alloc_tensor views storage at offsets and checks the bounds", "[vm][memory]") {
  ExecutableBuilder b;
  b.declare_function("main", {"offset"});
  b.begin_function("main");
  int64_t s = b.new_register(), t0 = b.new_register(), t1 = b.new_register(),
          out = b.new_register();
  b.emit_call("vm.builtin.alloc_storage",
              {Arg::context(), b.shape_arg({64}), b.int_arg(0), b.dtype_arg(kUInt8),
               b.string_arg("global")},
              s);
  b.emit_call("vm.builtin.alloc_tensor",
              {Arg::reg(s), b.int_arg(0), b.shape_arg({8}), b.dtype_arg(kFloat32)}, t0);
  b.emit_call("vm.builtin.alloc_tensor",
              {Arg::reg(s), Arg::reg(0), b.shape_arg({2, 4}), b.dtype_arg(kFloat32),
               b.string_arg("global")},
              t1);
  b.emit_call("vm.builtin.make_tuple", {Arg::reg(t0), Arg::reg(t1)}, out);
  b.emit_ret(out);
  b.end_function();
  auto vm = make_vm(finish(b));
  auto r = vm->invoke("main", {Value(int64_t{32})});
  REQUIRE(r.ok());
  const TensorObj* a = (*r->as_tuple())[0].as_tensor();
  const TensorObj* c = (*r->as_tuple())[1].as_tensor();
  CHECK(a->storage() == c->storage());
  CHECK(static_cast<char*>(c->data()) - static_cast<char*>(a->data()) == 32);
  CHECK(reinterpret_cast<uintptr_t>(a->data()) % 64 == 0);
  CHECK(error_of(vm->invoke("main", {Value(int64_t{40})})) ==
        "main: vm.builtin.alloc_tensor: a tensor float32[2, 4] (32 bytes) at offset 40 does not "
        "fit in a storage of 64 bytes");
  CHECK(error_of(vm->invoke("main", {Value(int64_t{-8})})) ==
        "main: vm.builtin.alloc_tensor: a tensor float32[2, 4] (32 bytes) at offset -8 does not "
        "fit in a storage of 64 bytes");
}

TEST_CASE("reshape views, shape_of and tensor_to_shape", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"t", "dims"});
  b.begin_function("main");
  int64_t shape = b.new_register(), view = b.new_register(), of = b.new_register(),
          out = b.new_register();
  b.emit_call("vm.builtin.tensor_to_shape", {Arg::reg(1)}, shape);
  b.emit_call("vm.builtin.reshape", {Arg::reg(0), Arg::reg(shape)}, view);
  b.emit_call("vm.builtin.shape_of", {Arg::reg(view)}, of);
  b.emit_call("vm.builtin.make_tuple", {Arg::reg(view), Arg::reg(of)}, out);
  b.emit_ret(out);
  b.end_function();
  auto vm = make_vm(finish(b));
  Tensor t = make_tensor({6}, {1, 2, 3, 4, 5, 6});
  Tensor dims = empty_tensor({2}, kInt32);
  dims->data_as<int32_t>()[0] = 3;
  dims->data_as<int32_t>()[1] = 2;
  auto r = vm->invoke("main", {Value(t), Value(dims)});
  REQUIRE(r.ok());
  CHECK((*r->as_tuple())[0].as_tensor()->data() == t->data());
  CHECK(value_to_string((*r->as_tuple())[1]) == "(3, 2)");
  CHECK(error_of(vm->invoke("main", {Value(t), Value(t)})) ==
        "main: vm.builtin.tensor_to_shape: expected a 1-d int16/int32/int64 tensor, got a tensor "
        "float32[6]");
}

TEST_CASE("the builtin table lists every builtin once with a signature", "[vm]") {
  std::set<std::string_view> names;
  for (const BuiltinInfo& b : builtin_table()) {
    CHECK(b.name.starts_with("vm.builtin."));
    CHECK(names.insert(b.name).second);
    CHECK(b.fn != nullptr);
    CHECK(b.signature.starts_with("("));
    CHECK(find_builtin(b.name) == &b);
  }
  CHECK(names.size() == 39);
  CHECK(find_builtin("vm.builtin.nope") == nullptr);
}

}  // namespace
}  // namespace relax::vm::test

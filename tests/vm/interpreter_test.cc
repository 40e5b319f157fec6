// The interpreter: kernel calls, recursion, closures, tuples, control flow, errors.
#include <sstream>

#include "tests/vm/vm_test_util.h"

namespace relax::vm::test {
namespace {

// main(a, b) = add(a, b) into a fresh float32[n] tensor.
std::shared_ptr<Executable> add_program(int64_t n) {
  ExecutableBuilder b;
  b.declare_function("main", {"a", "b"});
  int64_t add = b.declare_kernel("add");
  b.begin_function("main");
  int64_t storage = b.new_register(), out = b.new_register();
  b.emit_call("vm.builtin.alloc_storage",
              {Arg::context(), b.shape_arg({n * 4}), b.int_arg(-1), b.dtype_arg(kFloat32),
               b.string_arg("global")},
              storage);
  b.emit_call("vm.builtin.alloc_tensor",
              {Arg::reg(storage), b.int_arg(0), b.shape_arg({n}), b.dtype_arg(kFloat32)}, out);
  b.emit_call(add, {Arg::reg(0), Arg::reg(1), Arg::reg(out)});
  b.emit_ret(out);
  b.end_function();
  return finish(b);
}

// fact(n) = n <= 1 ? 1 : n * fact(n - 1), with If/Goto and a self-call.
std::shared_ptr<Executable> fact_program() {
  ExecutableBuilder b;
  int64_t fact = b.declare_function("fact", {"n"});
  int64_t le = b.declare_extern("ile"), sub = b.declare_extern("isub"),
          mul = b.declare_extern("imul");
  b.begin_function("fact");
  int64_t c = b.new_register(), r = b.new_register(), m = b.new_register(), rec = b.new_register();
  b.emit_call(le, {Arg::reg(0), b.int_arg(1)}, c);
  int64_t branch = b.emit_if(c);
  b.emit_call("vm.builtin.copy", {b.int_arg(1)}, r);
  int64_t skip = b.emit_goto();
  b.patch_target(branch, b.next_instr());
  b.emit_call(sub, {Arg::reg(0), b.int_arg(1)}, m);
  b.emit_call(fact, {Arg::reg(m)}, rec);
  b.emit_call(mul, {Arg::reg(0), Arg::reg(rec)}, r);
  b.patch_target(skip, b.next_instr());
  b.emit_ret(r);
  b.end_function();
  return finish(b);
}

TEST_CASE("a kernel call adds two tensors", "[vm]") {
  auto vm = make_vm(add_program(3));
  Tensor a = make_tensor({3}, {1, 2, 3}), b = make_tensor({3}, {10, 20, 30});
  auto r = vm->invoke("main", {Value(a), Value(b)});
  REQUIRE(r.ok());
  CHECK(values(*r) == std::vector<float>{11, 22, 33});
  CHECK(r->as_tensor()->shape()[0] == 3);
}

TEST_CASE("recursion through If, Goto and self-calls", "[vm]") {
  auto vm = make_vm(fact_program());
  CHECK(vm->invoke("fact", {Value(int64_t{1})})->as_int() == 1);
  CHECK(vm->invoke("fact", {Value(int64_t{5})})->as_int() == 120);
  CHECK(vm->invoke("fact", {Value(int64_t{20})})->as_int() == 2432902008176640000);
}

// count(n) = n <= 0 ? 0 : count(n - 1) (or forever, with `forever`).
std::shared_ptr<Executable> countdown_program(bool forever) {
  ExecutableBuilder b;
  int64_t count = b.declare_function("count", {"n"});
  int64_t le = b.declare_extern("ile"), sub = b.declare_extern("isub");
  b.begin_function("count");
  int64_t c = b.new_register(), m = b.new_register(), r = b.new_register();
  b.emit_call(le, {Arg::reg(0), b.int_arg(forever ? -1000000000 : 0)}, c);
  int64_t branch = b.emit_if(c);
  b.emit_ret(0);
  b.patch_target(branch, b.next_instr());
  b.emit_call(sub, {Arg::reg(0), b.int_arg(1)}, m);
  b.emit_call(count, {Arg::reg(m)}, r);
  b.emit_ret(r);
  b.end_function();
  return finish(b);
}

TEST_CASE("deep recursion runs without C++ recursion, unbounded recursion is an error", "[vm]") {
  auto vm = make_vm(countdown_program(false));
  CHECK(vm->invoke("count", {Value(int64_t{50000})})->as_int() == 0);

  VMOptions options;
  options.max_frames = 1000;
  auto bounded = make_vm(countdown_program(true), options);
  CHECK(error_of(bounded->invoke("count", {Value(int64_t{5})})) ==
        "call depth exceeds 1000 frames calling `count` (unbounded recursion?)");
  // The VM is clean afterwards.
  auto ok = make_vm(countdown_program(false), options);
  CHECK(ok->invoke("count", {Value(int64_t{10})})->as_int() == 0);

  auto unbounded = make_vm(countdown_program(true));
  CHECK(error_of(unbounded->invoke("count", {Value(int64_t{5})})) ==
        "call depth exceeds 100000 frames calling `count` (unbounded recursion?)");
}

TEST_CASE("closures capture values, bind them last and can be returned", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"x"});
  b.declare_function("make", {"k"});
  int64_t adder = b.declare_function("adder", {"x", "k"});
  int64_t iadd = b.declare_extern("iadd");
  int64_t isub = b.declare_extern("isub");

  b.begin_function("adder");  // adder(x, k) = x - k (order matters)
  int64_t r = b.new_register();
  b.emit_call(isub, {Arg::reg(0), Arg::reg(1)}, r);
  b.emit_ret(r);
  b.end_function();

  b.begin_function("make");  // make(k) = closure adder(_, k)
  int64_t clo = b.new_register();
  b.emit_call("vm.builtin.make_closure", {Arg::func(adder), Arg::reg(0)}, clo);
  b.emit_ret(clo);
  b.end_function();

  b.begin_function("main");  // main(x) = make(10)(x) + closure iadd(_, 3)(x)
  int64_t c1 = b.new_register(), v1 = b.new_register(), c2 = b.new_register(),
          v2 = b.new_register(), sum = b.new_register();
  b.emit_call("make", {b.int_arg(10)}, c1);
  b.emit_call("vm.builtin.invoke_closure", {Arg::context(), Arg::reg(c1), Arg::reg(0)}, v1);
  b.emit_call("vm.builtin.make_closure", {Arg::func(iadd), b.int_arg(3)}, c2);
  b.emit_call("vm.builtin.invoke_closure", {Arg::context(), Arg::reg(c2), Arg::reg(0)}, v2);
  b.emit_call(iadd, {Arg::reg(v1), Arg::reg(v2)}, sum);
  b.emit_ret(sum);
  b.end_function();
  auto vm = make_vm(finish(b));

  CHECK(vm->invoke("main", {Value(int64_t{100})})->as_int() == (100 - 10) + (100 + 3));
  auto made = vm->invoke("make", {Value(int64_t{7})});
  REQUIRE(made.ok());
  REQUIRE(made->kind() == ValueKind::kClosure);
  Value arg(int64_t{50});
  CHECK(vm->call(*made, std::span<const Value>(&arg, 1))->as_int() == 43);
  CHECK(error_of(vm->call(Value(int64_t{1}), {})) == "cannot call an int 1");
}

TEST_CASE("tuples are built, indexed and returned", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"a", "b"});
  b.begin_function("main");
  int64_t t = b.new_register(), x = b.new_register(), out = b.new_register();
  b.emit_call("vm.builtin.make_tuple", {Arg::reg(0), Arg::reg(1), b.int_arg(3)}, t);
  b.emit_call("vm.builtin.tuple_getitem", {Arg::reg(t), b.int_arg(2)}, x);
  b.emit_call("vm.builtin.make_tuple", {Arg::reg(x), Arg::reg(t)}, out);
  b.emit_ret(out);
  b.end_function();
  auto vm = make_vm(finish(b));
  auto r = vm->invoke("main", {Value(int64_t{1}), Value(2.5)});
  REQUIRE(r.ok());
  const TupleObj* tup = r->as_tuple();
  REQUIRE(tup);
  REQUIRE(tup->size() == 2);
  CHECK((*tup)[0].as_int() == 3);
  const TupleObj* inner = (*tup)[1].as_tuple();
  REQUIRE(inner);
  CHECK((*inner)[0].as_int() == 1);
  CHECK((*inner)[1].as_float() == 2.5);
  CHECK(value_to_string(*r) == "(3, (1, 2.5, 3))");
}

// main(c, a, b) = c ? a : b, with read_if_cond and a merge register.
std::shared_ptr<Executable> select_program() {
  ExecutableBuilder b;
  b.declare_function("main", {"c", "a", "b"});
  b.begin_function("main");
  int64_t cond = b.new_register(), merged = b.new_register();
  b.emit_call("vm.builtin.read_if_cond", {Arg::reg(0)}, cond);
  int64_t branch = b.emit_if(cond);
  b.emit_call("vm.builtin.copy", {Arg::reg(1)}, merged);
  int64_t done = b.emit_goto();
  b.patch_target(branch, b.next_instr());
  b.emit_call("vm.builtin.copy", {Arg::reg(2)}, merged);
  b.patch_target(done, b.next_instr());
  b.emit_ret(merged);
  b.end_function();
  return finish(b);
}

TEST_CASE("If reads conditions from ints and one-element bool tensors", "[vm]") {
  auto vm = make_vm(select_program());
  Value a(int64_t{1}), b(int64_t{2});
  CHECK(vm->invoke("main", {Value(int64_t{5}), a, b})->as_int() == 1);
  CHECK(vm->invoke("main", {Value(int64_t{0}), a, b})->as_int() == 2);
  Tensor t = empty_tensor({}, kBool);
  *t->data_as<uint8_t>() = 1;
  CHECK(vm->invoke("main", {Value(t), a, b})->as_int() == 1);
  *t->data_as<uint8_t>() = 0;
  CHECK(vm->invoke("main", {Value(t), a, b})->as_int() == 2);
  CHECK(error_of(vm->invoke("main", {Value(1.5), a, b})) ==
        "main: vm.builtin.read_if_cond: the condition must be an int or a one-element bool/int "
        "tensor, but is a float 1.5");
}

TEST_CASE("an If on a non-int condition is an error", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"c"});
  b.begin_function("main");
  b.emit_if(0, 1);
  b.emit_ret(0);
  b.end_function();
  auto vm = make_vm(finish(b));
  CHECK(error_of(vm->invoke("main", {Value(2.0)})) ==
        "main: instruction 0: the condition of `if` is a float 2, not an int (see "
        "vm.builtin.read_if_cond)");
}

TEST_CASE("kernel failures name the function and the kernel", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"which"});
  int64_t fail = b.declare_kernel("fail"), status7 = b.declare_extern("status7");
  b.begin_function("main");
  int64_t c = b.new_register();
  b.emit_call("vm.builtin.read_if_cond", {Arg::reg(0)}, c);
  int64_t branch = b.emit_if(c);
  b.emit_call(fail, {});
  b.emit_ret(0);
  b.patch_target(branch, b.next_instr());
  b.emit_call(status7, {});
  b.emit_ret(0);
  b.end_function();
  auto vm = make_vm(finish(b));
  CHECK(error_of(vm->invoke("main", {Value(int64_t{1})})) == "main: kernel `fail` failed: boom");
  CHECK(error_of(vm->invoke("main", {Value(int64_t{0})})) ==
        "main: extern function `status7` failed: returned status 7");
  // The error state does not leak into the next call.
  CHECK(error_of(vm->invoke("main", {Value(int64_t{0})})) ==
        "main: extern function `status7` failed: returned status 7");
}

TEST_CASE("values the kernel ABI cannot pass are rejected", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"s"});
  int64_t add = b.declare_kernel("add");
  b.begin_function("main");
  b.emit_call(add, {Arg::reg(0)});
  b.emit_ret(0);
  b.end_function();
  auto vm = make_vm(finish(b));
  CHECK(error_of(vm->invoke("main", {Value::shape({2, 3})})) ==
        "main: kernel `add`: argument 0 is a shape (2, 3), which the kernel ABI cannot pass "
        "(tensors, ints, floats, strings, handles and null)");
}

TEST_CASE("kernels return ints and tensors, returned tensors are copied", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {});
  int64_t ret_tensor = b.declare_extern("ret_tensor"), k42 = b.declare_extern("forty_two");
  b.begin_function("main");
  int64_t t = b.new_register(), i = b.new_register(), out = b.new_register();
  b.emit_call(ret_tensor, {}, t);
  b.emit_call(k42, {b.string_arg("ignored"), b.float_arg(0.5), Arg::void_reg()}, i);
  b.emit_call("vm.builtin.make_tuple", {Arg::reg(t), Arg::reg(i)}, out);
  b.emit_ret(out);
  b.end_function();
  auto vm = make_vm(finish(b));
  auto r = vm->invoke("main", {});
  REQUIRE(r.ok());
  CHECK(values((*r->as_tuple())[0]) == std::vector<float>{1.5f, 2.5f});
  CHECK((*r->as_tuple())[1].as_int() == 42);
}

TEST_CASE("invoke checks the argument count and fills bound parameters", "[vm]") {
  auto vm = make_vm(add_program(2));
  Value a(make_tensor({2}, {1, 2})), w(make_tensor({2}, {5, 5}));
  CHECK(error_of(vm->invoke("", {})) == "the executable has no function ``");  // a fresh VM
  CHECK(error_of(vm->invoke("main", {a, a, a})) == "main: expected 2 arguments (a, b) but got 3");
  CHECK(error_of(vm->invoke("main", {a})) ==
        "main: expected 2 arguments (a, b) but got 1; `b` is not bound to a parameter value "
        "either");
  CHECK(error_of(vm->invoke("nope", {})) == "the executable has no function `nope`");
  CHECK(error_of(vm->invoke("add", {})) == "`add` is a kernel, not a function of the executable");
  vm->bind_param("b", w);
  auto r = vm->invoke("main", {a});
  REQUIRE(r.ok());
  CHECK(values(*r) == std::vector<float>{6, 7});
}

TEST_CASE("creating a VM resolves every kernel and checks builtin calls", "[vm]") {
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    b.declare_kernel("nokernel");
    b.declare_extern("noextern");
    b.begin_function("main");
    b.emit_ret(kVoidRegister);
    b.end_function();
    auto vm = VirtualMachine::create(finish(b), test_kernels());
    CHECK(error_of(vm) ==
          "cannot find kernel `nokernel`, extern function `noextern` in test kernels");
  }
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    b.begin_function("main");
    b.emit_call("vm.builtin.make_shape", {b.int_arg(0)});
    b.emit_call("vm.builtin.alloc_shape_heap", {b.int_arg(1), b.int_arg(1)});
    b.emit_ret(kVoidRegister);
    b.end_function();
    auto exe = finish(b);
    CHECK(error_of(VirtualMachine::create(exe, nullptr)) ==
          "function `main`, instruction 0: vm.builtin.make_shape takes at least 2 arguments "
          "(heap, n, code0, r0, ...) but the call passes 1");
    exe->instr_data[exe->instr_offset[0] + 3] = 2;  // make the first call well-formed
    exe->instr_data.insert(exe->instr_data.begin() + exe->instr_offset[0] + 5,
                           Arg::imm(0).encode());
    REQUIRE(exe->finalize().ok());
    CHECK(error_of(VirtualMachine::create(exe, nullptr)) ==
          "function `main`, instruction 1: vm.builtin.alloc_shape_heap takes the context "
          "register %ctx as its first argument");
  }
  {
    ExecutableBuilder b;
    b.declare_function("main", {});
    b.begin_function("main");
    b.emit_call("vm.builtin.frobnicate", {});
    b.emit_ret(kVoidRegister);
    b.end_function();
    CHECK(error_of(VirtualMachine::create(finish(b), nullptr)) ==
          "unknown builtin `vm.builtin.frobnicate`");
  }
}

TEST_CASE("kernels run parallel loops and use workspace memory through the context", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"x", "out1", "out2"});
  int64_t par = b.declare_kernel("mul2_parallel"), scratch = b.declare_kernel("scratch");
  b.begin_function("main");
  b.emit_call(par, {Arg::reg(0), Arg::reg(1)});
  b.emit_call(scratch, {Arg::reg(0), Arg::reg(2)});
  b.emit_ret(kVoidRegister);
  b.end_function();
  ThreadPool pool(4);
  VMOptions options;
  options.thread_pool = &pool;
  auto vm = make_vm(finish(b), options);
  const int64_t n = 1001;
  Tensor x = empty_tensor({n}, kFloat32), o1 = empty_tensor({n}, kFloat32),
         o2 = empty_tensor({n}, kFloat32);
  for (int64_t i = 0; i < n; ++i) x->data_as<float>()[i] = static_cast<float>(i);
  REQUIRE(vm->invoke("main", {Value(x), Value(o1), Value(o2)}).ok());
  for (int64_t i = 0; i < n; ++i) {
    REQUIRE(o1->data_as<float>()[i] == 2.0f * static_cast<float>(i));
    REQUIRE(o2->data_as<float>()[i] == static_cast<float>(i) + 1);
  }
}

TEST_CASE("print formats values and assert fails with its message", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"x", "ok"});
  b.begin_function("main");
  b.emit_call("vm.builtin.print", {b.string_arg("x = {}, n = {}"), Arg::reg(0), b.int_arg(3)});
  b.emit_call("vm.builtin.print", {b.string_arg(""), b.int_arg(1), b.float_arg(0.5)});
  b.emit_call("vm.builtin.assert", {Arg::reg(1), b.string_arg("x must be {}"), b.string_arg("ok")});
  b.emit_ret(kVoidRegister);
  b.end_function();
  std::ostringstream out;
  VMOptions options;
  options.out = &out;
  auto vm = make_vm(finish(b), options);
  REQUIRE(vm->invoke("main", {Value(make_tensor({2}, {1, 2.5})), Value(int64_t{1})}).ok());
  CHECK(out.str() == "x = float32[2]\n[1, 2.5]\nmin 1, max 2.5, mean 1.75, n = 3\n1 0.5\n");
  CHECK(error_of(vm->invoke("main", {Value(int64_t{0}), Value(int64_t{0})})) ==
        "main: assertion failed: x must be ok");
}

TEST_CASE("call_tir_dyn passes a shape's dims as trailing int arguments", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {});
  int64_t iadd = b.declare_kernel("iadd");
  b.begin_function("main");
  int64_t r = b.new_register();
  b.emit_call("vm.builtin.call_tir_dyn", {Arg::func(iadd), b.shape_arg({30, 12})}, r);
  b.emit_ret(r);
  b.end_function();
  auto vm = make_vm(finish(b));
  CHECK(vm->invoke("main", {})->as_int() == 42);
}

TEST_CASE("errors inside nested frames unwind them and leave the VM usable", "[vm]") {
  ExecutableBuilder b;
  b.declare_function("main", {"t"});
  b.declare_function("inner", {"t"});
  b.begin_function("inner");
  int64_t v = b.new_register();
  b.emit_call("vm.builtin.reshape", {Arg::reg(0), b.shape_arg({4, 2})}, v);
  b.emit_ret(v);
  b.end_function();
  b.begin_function("main");
  int64_t r = b.new_register();
  b.emit_call("inner", {Arg::reg(0)}, r);
  b.emit_ret(r);
  b.end_function();
  auto vm = make_vm(finish(b));
  Tensor t = make_tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(error_of(vm->invoke("main", {Value(t)})) ==
        "inner: vm.builtin.reshape: cannot view a tensor of shape [2, 3] as [4, 2]");
  CHECK(t->use_count() == 1);  // registers of both frames were released
  Tensor t8 = make_tensor({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto ok = vm->invoke("main", {Value(t8)});
  REQUIRE(ok.ok());
  CHECK(ok->as_tensor()->shape()[0] == 4);
  CHECK(ok->as_tensor()->data() == t8->data());  // a view
}

}  // namespace
}  // namespace relax::vm::test

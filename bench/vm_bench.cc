// Overhead of the VM: the time of one call of a tiny function (a kernel doing 16 float adds),
// bare and as the compiler emits it (argument checks, shape matching, a planned output
// allocation), with the profiler attached, and the cost of single instructions (a builtin call,
// a kernel call, a goto). Printed next to TVM's 1.7 µs per call of a tiny function
// (PERFORMANCE.md). Medians of 15 batches.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "vm/runtime.h"

namespace {

using namespace relax::vm;

int32_t add16(relax_kernel_context*, const relax_arg* args, int32_t, relax_arg*) {
  auto a = static_cast<const float*>(args[0].value.tensor->data);
  auto b = static_cast<const float*>(args[1].value.tensor->data);
  auto out = static_cast<float*>(args[2].value.tensor->data);
  for (int i = 0; i < 16; ++i) out[i] = a[i] + b[i];
  return 0;
}

int32_t noop(relax_kernel_context*, const relax_arg*, int32_t, relax_arg*) {
  return 0;
}

// Nanoseconds per iteration of `fn` (median of batches of `iters`).
double measure(int64_t iters, const std::function<void()>& fn) {
  for (int64_t i = 0; i < iters / 10; ++i) fn();  // warm up
  std::vector<double> batches;
  for (int b = 0; b < 15; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < iters; ++i) fn();
    auto t1 = std::chrono::steady_clock::now();
    batches.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() /
                      static_cast<double>(iters));
  }
  std::sort(batches.begin(), batches.end());
  return batches[batches.size() / 2];
}

std::shared_ptr<Executable> build(const std::function<void(ExecutableBuilder&)>& body) {
  ExecutableBuilder b;
  body(b);
  auto exe = b.finish();
  if (!exe) {
    std::fprintf(stderr, "build failed: %s\n", exe.error().message.c_str());
    std::exit(1);
  }
  return exe.value();
}

}  // namespace

int main() {
  auto kernels = std::make_shared<KernelTable>();
  kernels->add("add16", add16);
  kernels->add("noop", noop);

  // bare(a, b, out) = add16(a, b, out)
  auto bare = build([](ExecutableBuilder& b) {
    b.declare_function("main", {"a", "b", "out"});
    int64_t k = b.declare_kernel("add16");
    b.begin_function("main");
    b.emit_call(k, {Arg::reg(0), Arg::reg(1), Arg::reg(2)});
    b.emit_ret(2);
    b.end_function();
  });
  // compiled(a: R.Tensor((16,), "float32"), b: ...) as the compiler lowers it.
  auto compiled = build([](ExecutableBuilder& b) {
    b.declare_function("main", {"a", "b"});
    int64_t k = b.declare_kernel("add16");
    b.begin_function("main");
    for (int p = 0; p < 2; ++p) {
      Arg err = b.string_arg(p ? "argument `b` (parameter 1)" : "argument `a` (parameter 0)");
      b.emit_call("vm.builtin.check_tensor_info",
                  {Arg::reg(p), b.int_arg(1), b.dtype_arg(kFloat32), err});
      b.emit_call("vm.builtin.match_shape",
                  {Arg::reg(p), Arg::void_reg(), b.int_arg(1), b.int_arg(0), b.int_arg(16), err});
    }
    int64_t s = b.new_register(), out = b.new_register();
    b.emit_call("vm.builtin.alloc_storage",
                {Arg::context(), b.shape_arg({64}), b.int_arg(-1), b.dtype_arg(kFloat32),
                 b.string_arg("global")},
                s);
    b.emit_call("vm.builtin.alloc_tensor",
                {Arg::reg(s), b.int_arg(0), b.shape_arg({16}), b.dtype_arg(kFloat32)}, out);
    b.emit_call(k, {Arg::reg(0), Arg::reg(1), Arg::reg(out)});
    b.emit_ret(out);
    b.end_function();
  });
  constexpr int kChain = 1000;
  auto copies = build([](ExecutableBuilder& b) {  // 1000 register moves through a builtin
    b.declare_function("main", {"x"});
    b.begin_function("main");
    for (int i = 0; i < kChain; ++i) b.emit_call("vm.builtin.copy", {Arg::reg(i % 2)}, (i + 1) % 2);
    b.emit_ret(0);
    b.end_function();
  });
  auto kernel_calls = build([](ExecutableBuilder& b) {  // 1000 kernel calls with 3 tensors
    b.declare_function("main", {"a", "b", "c"});
    int64_t k = b.declare_kernel("noop");
    b.begin_function("main");
    for (int i = 0; i < kChain; ++i) b.emit_call(k, {Arg::reg(0), Arg::reg(1), Arg::reg(2)});
    b.emit_ret(0);
    b.end_function();
  });
  auto gotos = build([](ExecutableBuilder& b) {  // 1000 gotos
    b.declare_function("main", {"x"});
    b.begin_function("main");
    for (int i = 0; i < kChain; ++i) b.emit_goto(1);
    b.emit_ret(0);
    b.end_function();
  });

  auto vm = [&](std::shared_ptr<Executable> exe) {
    auto v = VirtualMachine::create(exe, kernels);
    if (!v) std::exit(1);
    return std::move(v.value());
  };
  Value a(empty_tensor({16}, kFloat32)), b(empty_tensor({16}, kFloat32)),
      out(empty_tensor({16}, kFloat32));
  std::vector<Value> bare_args{a, b, out}, compiled_args{a, b}, one{a};

  auto bare_vm = vm(bare), compiled_vm = vm(compiled), copy_vm = vm(copies),
       kernel_vm = vm(kernel_calls), goto_vm = vm(gotos);
  double direct = measure(1000000, [&] {
    relax_arg args[3];
    for (int i = 0; i < 3; ++i) {
      args[i].kind = kRelaxArgTensor;
      args[i].value.tensor = bare_args[static_cast<size_t>(i)].as_tensor()->dl_mutable();
    }
    add16(nullptr, args, 3, nullptr);
  });
  double bare_ns = measure(200000, [&] { (void)bare_vm->invoke("main", bare_args); });
  double compiled_ns = measure(200000, [&] { (void)compiled_vm->invoke("main", compiled_args); });
  Profiler profiler;
  auto profiled_vm = vm(compiled);
  profiled_vm->set_profiler(&profiler);
  double profiled_ns = measure(100000, [&] { (void)profiled_vm->invoke("main", compiled_args); });
  double copy_ns = measure(2000, [&] { (void)copy_vm->invoke("main", one); }) / kChain;
  double kernel_ns = measure(2000, [&] { (void)kernel_vm->invoke("main", bare_args); }) / kChain;
  double goto_ns = measure(2000, [&] { (void)goto_vm->invoke("main", one); }) / kChain;

  std::printf("VM overhead (median of 15 batches)                         ours      TVM\n");
  std::printf("  call of a tiny function (16 adds), bare: 1 kernel call  %6.3f us  1.7 us\n",
              bare_ns / 1e3);
  std::printf("  ... as compiled: checks, shape match, alloc, kernel     %6.3f us  1.7 us\n",
              compiled_ns / 1e3);
  std::printf("  ... as compiled, with the profiler attached             %6.3f us\n",
              profiled_ns / 1e3);
  std::printf("  the kernel called directly, no VM                       %6.3f us\n", direct / 1e3);
  std::printf("  per instruction: builtin call (vm.builtin.copy)         %6.1f ns\n", copy_ns);
  std::printf("  per instruction: kernel call with 3 tensors             %6.1f ns\n", kernel_ns);
  std::printf("  per instruction: goto                                   %6.1f ns\n", goto_ns);
  return 0;
}

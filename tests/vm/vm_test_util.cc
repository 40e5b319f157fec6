// Test kernels and helpers.
#include "tests/vm/vm_test_util.h"

#include <cstring>

namespace relax::vm::test {

namespace {

int64_t numel(const DLTensor* t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; ++i) n *= t->shape[i];
  return n;
}

int32_t k_add(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg*) {
  if (n != 3) {
    ctx->set_error(ctx, "expects 3 arguments");
    return 1;
  }
  for (int i = 0; i < 3; ++i) {
    if (args[i].kind != kRelaxArgTensor) {
      ctx->set_error(ctx, "expects tensors");
      return 1;
    }
  }
  auto a = static_cast<const float*>(args[0].value.tensor->data);
  auto b = static_cast<const float*>(args[1].value.tensor->data);
  auto out = static_cast<float*>(args[2].value.tensor->data);
  for (int64_t i = 0, e = numel(args[2].value.tensor); i < e; ++i) out[i] = a[i] + b[i];
  return 0;
}

int32_t k_add16(relax_kernel_context*, const relax_arg* args, int32_t, relax_arg*) {
  auto a = static_cast<const float*>(args[0].value.tensor->data);
  auto b = static_cast<const float*>(args[1].value.tensor->data);
  auto out = static_cast<float*>(args[2].value.tensor->data);
  for (int i = 0; i < 16; ++i) out[i] = a[i] + b[i];
  return 0;
}

struct ScaleJob {
  const float* x;
  float* out;
};

int32_t scale_body(int64_t begin, int64_t end, void* closure) {
  auto* job = static_cast<ScaleJob*>(closure);
  for (int64_t i = begin; i < end; ++i) job->out[i] = job->x[i] * 2;
  return 0;
}

int32_t k_mul2_parallel(relax_kernel_context* ctx, const relax_arg* args, int32_t, relax_arg*) {
  ScaleJob job{static_cast<const float*>(args[0].value.tensor->data),
               static_cast<float*>(args[1].value.tensor->data)};
  return ctx->parallel_for(ctx, numel(args[1].value.tensor), scale_body, &job);
}

int32_t k_scratch(relax_kernel_context* ctx, const relax_arg* args, int32_t, relax_arg*) {
  int64_t n = numel(args[0].value.tensor);
  auto* tmp = static_cast<float*>(ctx->workspace_alloc(ctx, static_cast<uint64_t>(n) * 4));
  if (!tmp || reinterpret_cast<uintptr_t>(tmp) % 64 != 0) {
    ctx->set_error(ctx, "bad workspace");
    return 1;
  }
  std::memcpy(tmp, args[0].value.tensor->data, static_cast<size_t>(n) * 4);
  for (int64_t i = 0; i < n; ++i) tmp[i] += 1;
  std::memcpy(args[1].value.tensor->data, tmp, static_cast<size_t>(n) * 4);
  ctx->workspace_free(ctx, tmp);
  return 0;
}

int32_t k_fail(relax_kernel_context* ctx, const relax_arg*, int32_t, relax_arg*) {
  ctx->set_error(ctx, "boom");
  return 1;
}

int32_t k_status7(relax_kernel_context*, const relax_arg*, int32_t, relax_arg*) {
  return 7;
}

template <int kOp>
int32_t k_int(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg* ret) {
  if (n != 2 || args[0].kind != kRelaxArgInt || args[1].kind != kRelaxArgInt) {
    ctx->set_error(ctx, "expects two ints");
    return 1;
  }
  int64_t a = args[0].value.i, b = args[1].value.i;
  ret->kind = kRelaxArgInt;
  ret->value.i = kOp == 0 ? a - b : kOp == 1 ? a * b : kOp == 2 ? (a <= b) : a + b;
  return 0;
}

int32_t k_ret_tensor(relax_kernel_context*, const relax_arg*, int32_t, relax_arg* ret) {
  static float data[2] = {1.5f, 2.5f};
  static int64_t shape[1] = {2};
  static DLTensor t{data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, nullptr, 0};
  ret->kind = kRelaxArgTensor;
  ret->value.tensor = &t;
  return 0;
}

int32_t k_forty_two(relax_kernel_context*, const relax_arg*, int32_t, relax_arg* ret) {
  ret->kind = kRelaxArgInt;
  ret->value.i = 42;
  return 0;
}

// The host shape function of SEMANTICS.md §5.3's worked example: H[3] = H[2] + 1.
int32_t k_shape_func(relax_kernel_context*, const relax_arg* args, int32_t, relax_arg*) {
  auto* heap = static_cast<int64_t*>(args[0].value.tensor->data);
  heap[3] = heap[2] + 1;
  return 0;
}

}  // namespace

std::shared_ptr<KernelTable> test_kernels() {
  auto t = std::make_shared<KernelTable>("test kernels");
  t->add("add", k_add);
  t->add("add16", k_add16);
  t->add("mul2_parallel", k_mul2_parallel);
  t->add("scratch", k_scratch);
  t->add("fail", k_fail);
  t->add("status7", k_status7);
  t->add("isub", k_int<0>);
  t->add("imul", k_int<1>);
  t->add("ile", k_int<2>);
  t->add("iadd", k_int<3>);
  t->add("ret_tensor", k_ret_tensor);
  t->add("forty_two", k_forty_two);
  t->add("shape_func", k_shape_func);
  return t;
}

std::unique_ptr<VirtualMachine> make_vm(std::shared_ptr<Executable> exe, VMOptions options) {
  auto vm = VirtualMachine::create(std::move(exe), test_kernels(), std::move(options));
  INFO((vm ? std::string() : vm.error().message));
  REQUIRE(vm.ok());
  return std::move(vm.value());
}

std::shared_ptr<Executable> finish(ExecutableBuilder& b) {
  auto exe = b.finish();
  INFO((exe ? std::string() : exe.error().message));
  REQUIRE(exe.ok());
  return exe.value();
}

std::vector<float> values(const Value& v) {
  const TensorObj* t = v.as_tensor();
  REQUIRE(t != nullptr);
  REQUIRE(t->dtype() == kFloat32);
  return std::vector<float>(t->data_as<float>(), t->data_as<float>() + t->numel());
}

}  // namespace relax::vm::test

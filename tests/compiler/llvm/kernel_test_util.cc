// Host tensors and a kernel context for code generation tests.
#include "tests/compiler/llvm/kernel_test_util.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <mutex>
#include <thread>

#include "ir/diagnostic.h"
#include "syntax/frontend.h"

namespace relax::test {

HostTensor::HostTensor(std::vector<int64_t> s, DLDataType dtype) : shape(std::move(s)) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  storage.assign(static_cast<size_t>(n) * (dtype.bits / 8 * dtype.lanes), 0);
  tensor.device = {kDLCPU, 0};
  tensor.ndim = static_cast<int32_t>(shape.size());
  tensor.dtype = dtype;
}

int64_t HostTensor::size() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

relax_arg HostTensor::arg() {
  tensor.data = storage.data();
  tensor.shape = shape.data();
  relax_arg a{};
  a.kind = kRelaxArgTensor;
  a.value.tensor = &tensor;
  return a;
}

namespace {

TestKernelContext* self(relax_kernel_context* ctx) {
  return static_cast<TestKernelContext*>(ctx->runtime);
}

int32_t parallel_for(relax_kernel_context* ctx, int64_t extent, relax_parallel_body body,
                     void* closure) {
  TestKernelContext* t = self(ctx);
  ++t->parallel_calls;
  int64_t chunks = std::min<int64_t>(t->threads, extent);
  std::vector<std::thread> workers;
  std::vector<int32_t> status(static_cast<size_t>(std::max<int64_t>(chunks, 0)), 0);
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t begin = extent * c / chunks, end = extent * (c + 1) / chunks;
    workers.emplace_back(
        [&, c, begin, end] { status[static_cast<size_t>(c)] = body(begin, end, closure); });
  }
  for (auto& w : workers) w.join();
  for (int32_t s : status)
    if (s != 0) return s;
  return 0;
}

void* workspace_alloc(relax_kernel_context*, uint64_t nbytes) {
  return std::aligned_alloc(64, (nbytes + 63) / 64 * 64);
}
void workspace_free(relax_kernel_context*, void* p) {
  std::free(p);
}

std::mutex error_mu;
void set_error(relax_kernel_context* ctx, const char* message) {
  std::lock_guard lock(error_mu);
  self(ctx)->error = message;
}

}  // namespace

TestKernelContext::TestKernelContext() {
  ctx.abi_version = RELAX_KERNEL_ABI_VERSION;
  ctx.parallel_for = &parallel_for;
  ctx.workspace_alloc = &workspace_alloc;
  ctx.workspace_free = &workspace_free;
  ctx.set_error = &set_error;
  ctx.runtime = this;
}

int32_t TestKernelContext::call(relax_kernel_fn fn, std::vector<relax_arg> args) {
  error.clear();
  return fn(&ctx, args.data(), static_cast<int32_t>(args.size()), nullptr);
}

std::vector<compiler::codegen::KernelSource> parse_kernels(const std::string& text) {
  ir::DiagnosticBag diags;
  auto parsed = syntax::parse_text(text, "kernel_test.relax", diags);
  REQUIRE(diags.empty());
  return compiler::codegen::prim_funcs_of(*parsed.module);
}

}  // namespace relax::test

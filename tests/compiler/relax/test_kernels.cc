// Test kernels (see test_kernels.h).
#include "tests/compiler/relax/test_kernels.h"

namespace relax::compiler::test {

namespace {

int64_t numel(const DLTensor* t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; ++i) n *= t->shape[i];
  return n;
}

bool tensors(relax_kernel_context* ctx, const relax_arg* args, int32_t n, int32_t want) {
  if (n != want) {
    ctx->set_error(ctx, "wrong number of arguments");
    return false;
  }
  for (int32_t i = 0; i < n; ++i) {
    if (args[i].kind != kRelaxArgTensor) {
      ctx->set_error(ctx, "expects tensors");
      return false;
    }
  }
  return true;
}

int32_t k_add(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg*) {
  if (!tensors(ctx, args, n, 3)) return 1;
  auto a = static_cast<const float*>(args[0].value.tensor->data);
  auto b = static_cast<const float*>(args[1].value.tensor->data);
  auto out = static_cast<float*>(args[2].value.tensor->data);
  if (numel(args[0].value.tensor) != numel(args[2].value.tensor) ||
      numel(args[1].value.tensor) != numel(args[2].value.tensor)) {
    ctx->set_error(ctx, "add: element counts differ");
    return 1;
  }
  for (int64_t i = 0, e = numel(args[2].value.tensor); i < e; ++i) out[i] = a[i] + b[i];
  return 0;
}

int32_t k_negate(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg*) {
  if (!tensors(ctx, args, n, 2)) return 1;
  auto a = static_cast<const float*>(args[0].value.tensor->data);
  auto out = static_cast<float*>(args[1].value.tensor->data);
  for (int64_t i = 0, e = numel(args[1].value.tensor); i < e; ++i) out[i] = -a[i];
  return 0;
}

// "add_scaled": out[i] = a[i] + k * b[i] with k an int argument after the output.
int32_t k_add_scaled(relax_kernel_context* ctx, const relax_arg* args, int32_t n, relax_arg*) {
  if (n != 4 || args[3].kind != kRelaxArgInt) {
    ctx->set_error(ctx, "add_scaled expects (a, b, out, k: int)");
    return 1;
  }
  auto a = static_cast<const float*>(args[0].value.tensor->data);
  auto b = static_cast<const float*>(args[1].value.tensor->data);
  auto out = static_cast<float*>(args[2].value.tensor->data);
  auto k = static_cast<float>(args[3].value.i);
  for (int64_t i = 0, e = numel(args[2].value.tensor); i < e; ++i) out[i] = a[i] + k * b[i];
  return 0;
}

}  // namespace

std::shared_ptr<const vm::KernelTable> test_kernels() {
  auto t = std::make_shared<vm::KernelTable>("test kernels");
  t->add("add", k_add);
  t->add("negate", k_negate);
  t->add("add_scaled", k_add_scaled);
  return t;
}

KernelCompiler test_kernel_compiler() {
  return [](const PrimFuncList& funcs, const Target&,
            ir::DiagnosticBag& diags) -> std::shared_ptr<const vm::KernelLibrary> {
    auto table = test_kernels();
    for (const auto& [name, f] : funcs) {
      if (!table->resolve(name)) {
        diags.error("E0790", ir::Span::unknown(), "test kernels have no `" + name + "`");
        return nullptr;
      }
    }
    return table;
  };
}

}  // namespace relax::compiler::test

// The build driver (see build.h).
#include "compiler/build.h"

#include "compiler/codegen/llvm/llvm_codegen.h"
#include "compiler/codegen/vm/vm_codegen.h"
#include "compiler/pipeline.h"
#include "compiler/relax/kills.h"
#include "compiler/tir/lower.h"

namespace relax::compiler {

namespace {
std::vector<codegen::KernelSource> kernel_sources(const PrimFuncList& funcs) {
  std::vector<codegen::KernelSource> sources;
  sources.reserve(funcs.size());
  for (const auto& [name, func] : funcs) sources.push_back({name, func, name});
  return sources;
}

// The CPU default: LLVM code generation (ORC JIT in process, `cc -shared` for libraries).
KernelCompiler& global_compiler() {
  static KernelCompiler compiler =
      [](const PrimFuncList& funcs, const Target& target,
         ir::DiagnosticBag& diags) -> std::shared_ptr<const vm::KernelLibrary> {
    return codegen::jit_compile(kernel_sources(funcs), target, diags);
  };
  return compiler;
}
LibraryWriter& global_writer() {
  static LibraryWriter writer = [](const PrimFuncList& funcs, const std::vector<uint8_t>& exe,
                                   const Target& target, const std::string& path,
                                   ir::DiagnosticBag& diags, Timings* timings) {
    return codegen::write_shared_library(kernel_sources(funcs), exe, target, path, diags, timings);
  };
  return writer;
}
}  // namespace

void set_library_writer(LibraryWriter writer) {
  global_writer() = std::move(writer);
}
const LibraryWriter& library_writer() {
  return global_writer();
}

void set_kernel_compiler(KernelCompiler compiler) {
  global_compiler() = std::move(compiler);
}
const KernelCompiler& kernel_compiler() {
  return global_compiler();
}

std::optional<std::string> emit_kernels(const PrimFuncList& funcs, const Target& target,
                                        KernelText kind, ir::DiagnosticBag& diags,
                                        Timings* timings) {
  size_t errors = diags.error_count();
  std::string text =
      kind == KernelText::kLLVM
          ? codegen::emit_llvm_ir(kernel_sources(funcs), target, diags, true, timings)
          : codegen::emit_assembly(kernel_sources(funcs), target, diags, timings);
  if (diags.error_count() > errors) return std::nullopt;
  return text;
}

std::optional<PrimFuncList> lower_kernels(const PrimFuncList& funcs, const Target& target,
                                          ir::DiagnosticBag& diags, Timings* timings) {
  StepTimer timer(timings, "TIR lowering");
  PrimFuncList lowered;
  bool ok = true;
  for (const auto& [name, func] : funcs) {
    auto low = tir::lower_prim_func(func, target, diags, {}, name);
    if (!low) {
      ok = false;
      continue;
    }
    lowered.emplace_back(name, low);
  }
  if (!ok) return std::nullopt;
  return lowered;
}

BuildResult build(ir::Ref<ir::IRModule> module, const Target& target, PassContext& ctx,
                  const BuildOptions& options) {
  BuildResult result;
  ir::DiagnosticBag& diags = ctx.diagnostics();
  size_t errors_before = 0;
  for (const auto& d : diags.items()) errors_before += d.severity == ir::Severity::kError;
  auto count_errors = [&] {
    size_t n = 0;
    for (const auto& d : diags.items()) n += d.severity == ir::Severity::kError;
    return n;
  };
  // A use of a killed value (an already lowered input) is reported in the input's own names,
  // before the passes fold aliases.
  relax_passes::check_kills(*module, diags);
  if (count_errors() > errors_before) return result;
  ir::Ref<ir::IRModule> lowered =
      run_pass(options.pipeline ? *options.pipeline : default_pipeline(target), module, ctx);
  // Bounds checks go in last, after every pass that changes prim_funcs (--bounds-check).
  if (lowered && tir::bounds_check_enabled(ctx))
    lowered = run_pass(tir::instrument_bound_checkers_pass(target), lowered, ctx);
  if (!lowered || count_errors() > errors_before) {
    diags.error("E0791", ir::Span::unknown(),
                "the build pipeline reported errors; no executable was produced");
    return result;
  }
  result.lowered = lowered;
  for (const auto& m : lowered->functions) {
    if (auto pf = ir::as_prim_func(m.func)) result.prim_funcs.emplace_back(m.gvar->name, pf);
  }
  auto exe = codegen_vm::build_executable(*lowered, diags);
  if (!exe) return result;
  if (!result.prim_funcs.empty() && !options.skip_kernels) {
    const KernelCompiler& compile =
        options.kernel_compiler ? options.kernel_compiler : kernel_compiler();
    if (!compile) {
      std::string names;
      for (const auto& [name, f] : result.prim_funcs) names += (names.empty() ? "" : ", ") + name;
      diags.error(
          "E0790", ir::Span::unknown(),
          "the module needs compiled kernels (" + names +
              ") but no kernel code generator is installed (set_kernel_compiler(nullptr) removed "
              "the default LLVM one)");
      return result;
    }
    result.kernels = compile(result.prim_funcs, target, diags);
    if (!result.kernels) return result;
  }
  result.executable = exe;
  return result;
}

}  // namespace relax::compiler

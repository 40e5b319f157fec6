// `relax build`: compile a .relax file with the default pipeline and VM codegen into a model
// library (FILE's stem + .so unless -o says where), or emit one stage instead (--emit: LLVM IR,
// assembly, the lowered TIR, the bytecode); print the IR between passes and time every step.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/build_common.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/file_kind.h"
#include "cli/pipeline_options.h"
#include "compiler/build.h"
#include "compiler/pipeline.h"
#include "compiler/relax/bind_params.h"
#include "syntax/printer.h"

namespace relax::cli {

namespace {

std::string count_of(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Where an artifact goes without -o: the input's stem and the artifact's extension in the
// current directory, as clang does (`-` reads standard input: `out`).
std::string default_output(const std::string& input, const std::string& extension) {
  std::string stem = input == "-" ? "out" : std::filesystem::path(input).stem().string();
  if (stem.empty()) stem = "out";
  return stem + extension;
}

}  // namespace

Runner add_build_command(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
    std::string emit;
    std::vector<std::string> print_before;
    std::vector<std::string> print_after;
    bool time_passes = false;
    bool bounds_check = false;
    std::string target = "llvm";
    int opt_level = 2;
    std::string params;
    std::string func = "main";
#ifdef NDEBUG
    bool verify = false;
#else
    bool verify = true;
#endif
    PipelineOptions pipeline;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "build", "Compile a .relax file into a model library (default: FILE's stem + .so)");
  cmd->add_option("file", o->input, "Input .relax file, or - for standard input")->required();
  cmd->add_option("-o,--output", o->output,
                  "Write the result here (any name; - for stdout with a text --emit). Default: "
                  "FILE's stem + .so, .ll, .s or .tir.relax in the current directory");
  cmd->add_option("--emit", o->emit,
                  "Write a stage instead of the model library: llvm (LLVM IR, .ll), asm "
                  "(assembly, .s), tir (the lowered prim_funcs as TVMScript, .tir.relax), "
                  "bytecode (the disassembly on stdout; with -o, also the serialized "
                  "executable there)")
      ->check(CLI::IsMember({"llvm", "asm", "tir", "bytecode"}));
  cmd->add_option("--print-before", o->print_before,
                  "Print the IR before pass P on stderr (repeatable; `all` for every pass)")
      ->allow_extra_args(false);
  cmd->add_option("--print-after", o->print_after,
                  "Print the IR after pass P on stderr (repeatable; `all` for every pass)")
      ->allow_extra_args(false);
  cmd->add_flag("--time-passes", o->time_passes,
                "Print the time of each pass and code generation step (stderr)");
  cmd->add_option("--target", o->target, "Target: llvm (default), llvm -mcpu=..., cuda");
  add_bounds_check_flag(cmd, o->bounds_check);
  cmd->add_option(
      "--params", o->params,
      "Bind the tensors of a .safetensors file to the parameters of those names of --func, "
      "`.` matching `_` (conv.weight binds conv_weight; BindParams: the weights become "
      "constants of the executable)");
  cmd->add_option("--func", o->func, "The function --params binds (default main)");
  cmd->add_flag("--verify,!--no-verify", o->verify,
                "Check well-formedness after every pass (default on in debug builds)");
  cmd->add_option("--opt-level", o->opt_level,
                  "Passes with a higher opt level are skipped (default 2)")
      ->transform(whole_integer());
  add_schedule_option(cmd, o->pipeline);
  add_plugin_option(cmd, o->pipeline);
  add_placement_options(cmd, o->pipeline);
  add_max_errors_option(cmd);
  cmd->footer(
      "Prints `Built OUT (...) in T` on stderr for the file it writes.\n"
      "Outputs are written atomically (a temporary file beside them, then a rename) and never over "
      "an\ninput file; a failed write exits 2 and keeps the previous file.\n"
      "Run `relax passes` for the pass names.\nExit codes: 0 ok, 1 errors in the input or the "
      "build, 2 usage or I/O errors.");
  return [o]() -> int {
    auto started = std::chrono::steady_clock::now();
    std::string error;
    auto target = parse_target_option(o->target);
    if (!target) return kExitUsage;
    if (int rc = prepare_pipeline_options(o->pipeline); rc != kExitOk) return rc;
    auto pipeline = custom_pipeline(*target, o->pipeline);
    if (!pipeline) return kExitUsage;
    compiler::register_default_passes();
    if (!resolve_pass_names(o->print_before, {"all"}) ||
        !resolve_pass_names(o->print_after, {"all"}))
      return kExitUsage;
    if (o->emit.empty() && o->output == "-") {
      print_error("cannot write a model library to standard output (give -o FILE, or --emit)");
      return kExitUsage;
    }
    // Where the result goes (none: bytecode without -o prints only the disassembly).
    std::string path;
    if (o->emit == "bytecode") {
      if (o->output != "-") path = o->output;
    } else {
      std::string extension = o->emit == "llvm"  ? ".ll"
                              : o->emit == "asm" ? ".s"
                              : o->emit == "tir" ? ".tir.relax"
                                                 : ".so";
      path = o->output.empty() ? default_output(o->input, extension) : o->output;
    }
    std::vector<std::string> inputs = {o->input, o->params, o->pipeline.schedule};
    inputs.insert(inputs.end(), o->pipeline.plugins.begin(), o->pipeline.plugins.end());
    if (!refuse_overwriting_inputs(o->output.empty() ? "the output" : "-o", path, inputs))
      return kExitUsage;
    int load_exit = kExitOk;
    auto module = load_relax_module(o->input, load_exit);
    if (!module) return load_exit;
    compiler::PassContext ctx;
    if (!o->params.empty()) {
      if (!expect_file_kind(o->params, FileKind::kSafetensors, "--params")) return kExitUsage;
      if (!check_relax_function(*module, o->func)) return kExitInputErrors;
      compiler::relax_passes::ParamMap params;
      if (!compiler::relax_passes::read_params(o->params, params, error)) {
        print_error(error);
        return kExitUsage;
      }
      module = compiler::run_pass(
          compiler::relax_passes::bind_params_pass(o->func, params, o->params), module, ctx);
      if (ctx.diagnostics().has_errors()) {
        print_diagnostics(ctx.diagnostics());
        return kExitInputErrors;
      }
    }
    ctx.print_before = o->print_before;
    ctx.print_after = o->print_after;
    ctx.time_passes = o->time_passes;
    ctx.verify = o->verify;
    ctx.opt_level = o->opt_level;
    // The IR between passes goes where LLVM's tools print it (and `relax opt` does): stderr.
    ctx.log = &std::cerr;
    apply_bounds_check(o->bounds_check, ctx);
    compiler::Timings* timings = o->time_passes ? &ctx.timings() : nullptr;
    compiler::BuildOptions options;
    // Kernels are compiled by `relax run` (JIT) or by the library writer.
    options.skip_kernels = true;
    options.pipeline = std::move(*pipeline);
    auto result = compiler::build(module, *target, ctx, options);
    auto print_timings = [&] {
      if (!o->time_passes) return;
      for (const auto& [name, seconds] : ctx.timings())
        std::fprintf(stderr, "%-24s %10.3f ms\n", name.c_str(), seconds * 1e3);
    };
    if (!result.ok()) {
      print_timings();
      print_diagnostics(ctx.diagnostics());
      return kExitInputErrors;
    }
    size_t vm_functions = 0;
    for (const auto& f : result.executable->functions)
      vm_functions += f.kind == vm::FunctionKind::kVMFunction;
    std::string kernels = count_of(result.prim_funcs.size(), "kernel", "kernels");

    // What to write.
    std::string what;
    std::string bytes;
    int exit = kExitOk;
    if (o->emit == "bytecode") {
      // The disassembly on stdout as before; -o also writes the serialized executable.
      std::cout << result.executable->disassemble();
      std::cout.flush();
      if (!path.empty()) {
        std::vector<uint8_t> saved = result.executable->save();
        bytes.assign(saved.begin(), saved.end());
        what = "executable, " + count_of(vm_functions, "function", "functions");
      }
    } else if (o->emit == "llvm" || o->emit == "asm") {
      bool llvm = o->emit == "llvm";
      auto text = compiler::emit_kernels(
          result.prim_funcs, *target,
          llvm ? compiler::KernelText::kLLVM : compiler::KernelText::kAssembly, ctx.diagnostics(),
          timings);
      if (!text)
        exit = kExitInputErrors;
      else
        bytes = std::move(*text);
      what = std::string(llvm ? "LLVM IR, " : "assembly, ") + kernels;
    } else if (o->emit == "tir") {
      auto lowered =
          compiler::lower_kernels(result.prim_funcs, *target, ctx.diagnostics(), timings);
      if (!lowered) {
        exit = kExitInputErrors;
      } else {
        auto tir = ir::make<ir::IRModule>();
        for (const auto& [name, func] : *lowered) tir->add(result.lowered->global_var(name), func);
        bytes = syntax::print_module(*tir);
        if (!bytes.ends_with('\n')) bytes += '\n';
      }
      what = "TIR, " + kernels;
    } else {
      what = count_of(vm_functions, "function", "functions") + ", " + kernels;
      const auto& writer = compiler::library_writer();
      if (!writer) {
        print_error("cannot write " + path +
                    ": code generation is not available in this build (the LLVM code generator "
                    "is not linked in)");
        return kExitInputErrors;
      }
      // The library writer links into a temporary file beside `path` and renames it over it.
      if (!writer(result.prim_funcs, result.executable->save(), *target, path, ctx.diagnostics(),
                  timings)) {
        // E0713 (the file could not be written, or linked) is an I/O error.
        bool io = false;
        for (const auto& d : ctx.diagnostics().items()) io |= d.code == "E0713";
        exit = io ? kExitUsage : kExitInputErrors;
      }
    }
    print_timings();
    print_diagnostics(ctx.diagnostics());
    if (exit != kExitOk) return exit;
    bool library = o->emit.empty();
    if (!library && !path.empty() && !write_file_atomically(path, bytes)) return kExitUsage;
    if (!path.empty() && path != "-") {
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::fprintf(stderr, "Built %s (%s) in %.2fs\n", path.c_str(), what.c_str(), seconds);
    }
    return kExitOk;
  };
}

}  // namespace relax::cli

// `relax build`: compile a .relax file with the default pipeline and VM codegen; print the IR
// between passes, time passes, print the bytecode, write the result.
#include <cstdio>
#include <iostream>

#include "cli/build_common.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/pipeline_options.h"
#include "compiler/build.h"
#include "compiler/pipeline.h"
#include "compiler/relax/bind_params.h"

namespace relax::cli {

Runner add_build_command(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
    std::string emit;
    std::vector<std::string> print_before;
    std::vector<std::string> print_after;
    bool time_passes = false;
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
  CLI::App* cmd =
      app.add_subcommand("build", "Compile a .relax file for a target (default: the host CPU)");
  cmd->add_option("file", o->input, "Input .relax file, or - for standard input")->required();
  cmd->add_option(
      "-o,--output", o->output,
      "Write the result: OUT.so a model library (kernels and executable; needs the LLVM code "
      "generator), any other name the serialized VM executable");
  cmd->add_option("--emit", o->emit,
                  "Print a stage to stdout: bytecode (the VM executable, disassembled)")
      ->check(CLI::IsMember({"bytecode"}));
  cmd->add_option("--print-before", o->print_before,
                  "Print the IR before pass P (repeatable; `all` for every pass)")
      ->allow_extra_args(false);
  cmd->add_option("--print-after", o->print_after,
                  "Print the IR after pass P (repeatable; `all` for every pass)")
      ->allow_extra_args(false);
  cmd->add_flag("--time-passes", o->time_passes, "Print the time each pass took (stderr)");
  cmd->add_option("--target", o->target, "Target: llvm (default), llvm -mcpu=..., cuda");
  cmd->add_option(
      "--params", o->params,
      "Bind the tensors of a .safetensors file to the parameters of those names of --func, "
      "`.` matching `_` (conv.weight binds conv_weight; BindParams: the weights become "
      "constants of the executable)");
  cmd->add_option("--func", o->func, "The function --params binds (default main)");
  cmd->add_flag("--verify,!--no-verify", o->verify,
                "Check well-formedness after every pass (default on in debug builds)");
  cmd->add_option("--opt-level", o->opt_level,
                  "Passes with a higher opt level are skipped (default 2)");
  add_schedule_option(cmd, o->pipeline);
  add_plugin_option(cmd, o->pipeline);
  add_placement_options(cmd, o->pipeline);
  add_max_errors_option(cmd);
  cmd->footer(
      "Run `relax passes` for the pass names.\nExit codes: 0 ok, 1 errors in the input or the "
      "build, 2 usage or I/O errors.");
  return [o]() -> int {
    std::string error;
    auto target = compiler::Target::parse(o->target, &error);
    if (!target) {
      print_error(error);
      return kExitUsage;
    }
    if (int rc = prepare_pipeline_options(o->pipeline); rc != kExitOk) return rc;
    auto pipeline = custom_pipeline(*target, o->pipeline);
    if (!pipeline) return kExitUsage;
    compiler::register_default_passes();
    if (!resolve_pass_names(o->print_before, {"all"}) ||
        !resolve_pass_names(o->print_after, {"all"}))
      return kExitUsage;
    int load_exit = kExitOk;
    auto module = load_relax_module(o->input, load_exit);
    if (!module) return load_exit;
    compiler::PassContext ctx;
    if (!o->params.empty()) {
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
    ctx.log = &std::cout;
    bool want_library = o->output.size() > 3 && o->output.ends_with(".so");
    compiler::BuildOptions options;
    // Kernels are compiled by `relax run` (JIT) or by the library writer (-o model.so).
    options.skip_kernels = true;
    options.pipeline = std::move(*pipeline);
    auto result = compiler::build(module, *target, ctx, options);
    if (o->time_passes) {
      for (const auto& [name, seconds] : ctx.timings()) {
        std::fprintf(stderr, "%-24s %10.3f ms\n", name.c_str(), seconds * 1e3);
      }
    }
    print_diagnostics(ctx.diagnostics());
    if (!result.ok()) return kExitInputErrors;
    if (o->emit == "bytecode") std::cout << result.executable->disassemble();
    if (!o->output.empty()) {
      if (want_library) {
        const auto& writer = compiler::library_writer();
        if (!writer) {
          print_error("cannot write " + o->output +
                      ": code generation is not available in this build (the LLVM code generator "
                      "is not linked in)");
          return kExitInputErrors;
        }
        ir::DiagnosticBag diags;
        if (!writer(result.prim_funcs, result.executable->save(), *target, o->output, diags)) {
          print_diagnostics(diags);
          return kExitInputErrors;
        }
      } else {
        auto st = result.executable->save_file(o->output);
        if (!st) {
          print_error(st.error().message);
          return kExitUsage;
        }
      }
    }
    return kExitOk;
  };
}

}  // namespace relax::cli

// `relax opt`: run named passes (or the default pipeline) on a .relax file and print the module
// they produce, as LLVM's `opt` does for LLVM IR: the way to read one step of lowering, to try a
// pass on its own, or to keep a lowered module as text.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli/build_common.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/file_kind.h"
#include "cli/pipeline_options.h"
#include "compiler/pipeline.h"
#include "compiler/relax/bind_params.h"
#include "syntax/printer.h"

namespace relax::cli {

Runner add_opt_command(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
    std::vector<std::string> passes;
    std::vector<std::string> print_before;
    std::vector<std::string> print_after;
    bool time_passes = false;
    bool verify = true;
    int opt_level = 2;
    std::string params;
    std::string func = "main";
    PipelineOptions pipeline;
    bool show_meta = true;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "opt", "Run passes on a .relax file and print the resulting module (the printer's text)");
  cmd->add_option("file", o->input, "Input .relax file, or - for standard input")->required();
  cmd->add_option("-p,--passes", o->passes,
                  "Passes to run, in order (comma-separated or repeated); `default` stands for "
                  "the default build pipeline (required unless --schedule is given)")
      ->delimiter(',');
  cmd->add_option("-o,--output", o->output, "Write the module to this file instead of stdout");
  cmd->add_option("--print-before", o->print_before,
                  "Also print the IR before pass P (repeatable; `all` for every pass)");
  cmd->add_option("--print-after", o->print_after,
                  "Also print the IR after pass P (repeatable; `all` for every pass)");
  cmd->add_flag("--time-passes", o->time_passes, "Print the time each pass took (stderr)");
  cmd->add_flag("--verify,!--no-verify", o->verify,
                "Check the module is well formed after every pass (default on)");
  cmd->add_option("--opt-level", o->opt_level,
                  "Passes (and pipeline steps) with a higher opt level are skipped (default 2)")
      ->transform(whole_integer());
  cmd->add_option("--params", o->params,
                  "Bind the weights of a .safetensors file to parameters of --func first (by "
                  "name, `.` matching `_`)");
  cmd->add_option("--func", o->func, "The function --params binds (default main)");
  add_schedule_option(cmd, o->pipeline);
  add_plugin_option(cmd, o->pipeline);
  cmd->add_flag("--show-meta,!--no-show-meta", o->show_meta,
                "Write the values of constants (bound weights) as TVM's metadata section at the "
                "top of the text, so that it builds again (default on; --no-show-meta prints "
                "TVM's \"Metadata omitted\" comment instead)");
  add_max_errors_option(cmd);
  cmd->footer(
      "Example: relax opt model.relax -p LegalizeOps,AnnotateTIROpPattern,FoldConstant\n"
      "With --schedule the schedule runs right after LegalizeOps (in -p or in `default`), or "
      "first when no LegalizeOps runs, unless -p names ApplySchedule.\n"
      "Outputs are written atomically (a temporary file beside them, then a rename) and never over "
      "an\ninput file; a failed write exits 2 and keeps the previous file.\n"
      "Run `relax passes` for the pass names.\nExit codes: 0 ok, 1 errors in the input or "
      "reported by a pass, 2 usage or I/O errors.");
  return [o]() -> int {
    std::vector<std::string> inputs = {o->input, o->params, o->pipeline.schedule};
    inputs.insert(inputs.end(), o->pipeline.plugins.begin(), o->pipeline.plugins.end());
    if (!refuse_overwriting_inputs("-o", o->output, inputs)) return kExitUsage;
    if (int rc = prepare_pipeline_options(o->pipeline); rc != kExitOk) return rc;
    if (o->passes.empty() && !o->pipeline.script) {
      print_error("give the passes to run with -p (or a schedule file with --schedule)");
      return kExitUsage;
    }
    compiler::register_default_passes();
    if (!resolve_pass_names(o->passes, {"default"}) ||
        !resolve_pass_names(o->print_before, {"all"}) ||
        !resolve_pass_names(o->print_after, {"all"}))
      return kExitUsage;
    std::vector<compiler::Pass> passes;
    bool schedule_placed = false;
    for (const std::string& name : o->passes) {
      if (name == "default") {
        // The pipeline `relax build` runs: plugin passes and the schedule placed in it.
        auto pipeline = custom_pipeline(compiler::Target::host(), o->pipeline);
        if (!pipeline) return kExitUsage;
        passes.push_back(*pipeline);
        schedule_placed = true;
        continue;
      }
      if (name == "ApplySchedule") {
        if (!o->pipeline.script) {
          print_error("ApplySchedule needs a schedule file (--schedule FILE)");
          return kExitUsage;
        }
        schedule_placed = true;
      }
      const compiler::Pass* p = compiler::PassRegistry::global().find(name);
      if (!p) {
        print_error("unknown pass `" + name + "` (see `relax passes`)");
        return kExitUsage;
      }
      passes.push_back(*p);
    }
    if (o->pipeline.script && !schedule_placed) {
      auto legalize = std::find_if(passes.begin(), passes.end(),
                                   [](const compiler::Pass& p) { return p.name == "LegalizeOps"; });
      passes.insert(legalize == passes.end() ? passes.begin() : legalize + 1,
                    compiler::tir::apply_schedule_pass(o->pipeline.script));
    }
    int load_exit = kExitOk;
    auto module = load_relax_module(o->input, load_exit);
    if (!module) return load_exit;
    compiler::PassContext ctx;
    if (!o->params.empty()) {
      if (!expect_file_kind(o->params, FileKind::kSafetensors, "--params")) return kExitUsage;
      compiler::relax_passes::ParamMap params;
      std::string error;
      if (!compiler::relax_passes::read_params(o->params, params, error)) {
        print_error(error);
        return kExitUsage;
      }
      module = compiler::run_pass(
          compiler::relax_passes::bind_params_pass(o->func, params, o->params), module, ctx);
    }
    ctx.print_before = o->print_before;
    ctx.print_after = o->print_after;
    ctx.time_passes = o->time_passes;
    ctx.verify = o->verify;
    ctx.opt_level = o->opt_level;
    ctx.log = &std::cerr;
    for (const compiler::Pass& p : passes) {
      if (ctx.diagnostics().has_errors() || !module) break;
      module = compiler::run_pass(p, module, ctx);
    }
    if (o->time_passes) {
      for (const auto& [name, seconds] : ctx.timings())
        std::fprintf(stderr, "%-24s %10.3f ms\n", name.c_str(), seconds * 1e3);
    }
    print_diagnostics(ctx.diagnostics());
    if (!module || ctx.diagnostics().has_errors()) return kExitInputErrors;
    syntax::PrintOptions print_options;
    print_options.show_meta = o->show_meta;
    std::string text = syntax::print_module(*module, print_options);
    if (o->output.empty()) {
      std::cout << text;
      return kExitOk;
    }
    return write_file_atomically(o->output, text) ? kExitOk : kExitUsage;
  };
}

}  // namespace relax::cli

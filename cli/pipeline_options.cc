// Pass plugins, schedule files and placed passes for `relax opt`, `relax build` and `relax
// passes` (pipeline_options.h).
#include "cli/pipeline_options.h"

#include "cli/common.h"
#include "compiler/pipeline.h"
#include "compiler/plugin.h"

namespace relax::cli {

void add_plugin_option(CLI::App* cmd, PipelineOptions& o) {
  cmd->add_option("--load-pass-plugin", o.plugins,
                  "Load a pass plugin (a shared library exporting relax_register_passes; "
                  "repeatable): its passes can be named like built-in ones")
      ->allow_extra_args(false);
}

void add_schedule_option(CLI::App* cmd, PipelineOptions& o) {
  cmd->add_option("--schedule", o.schedule,
                  "Apply a schedule file (TVM's schedule lines: sch.get_block, get_loops, split, "
                  "fuse, reorder, parallel, vectorize, unroll) to the prim_funcs, right after "
                  "LegalizeOps");
}

void add_placement_options(CLI::App* cmd, PipelineOptions& o) {
  cmd->add_option("--pass-before", o.pass_before,
                  "STEP:PASS runs the registered pass PASS just before the pipeline step STEP "
                  "(repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--pass-after", o.pass_after,
                  "STEP:PASS runs the registered pass PASS just after the pipeline step STEP "
                  "(repeatable)")
      ->allow_extra_args(false);
}

int prepare_pipeline_options(PipelineOptions& o) {
  compiler::register_default_passes();
  for (const std::string& path : o.plugins) {
    std::string error;
    if (!compiler::load_pass_plugin(path, error)) {
      print_error(error);
      return kExitUsage;
    }
  }
  if (o.schedule.empty()) return kExitOk;
  auto text = read_input(o.schedule);
  if (!text) return kExitUsage;
  ir::DiagnosticBag diags = input_diagnostics();
  o.script =
      compiler::tir::ScheduleScript::parse(std::move(*text), display_name(o.schedule), diags);
  print_diagnostics(diags);
  if (!o.script) return kExitInputErrors;
  compiler::PassRegistry::global().add(compiler::tir::apply_schedule_pass(o.script));
  return kExitOk;
}

std::optional<compiler::Pass> custom_pipeline(const compiler::Target& target,
                                              const PipelineOptions& o) {
  std::vector<compiler::PlacedPass> extra;
  // The schedule first: it runs directly after LegalizeOps, before passes placed there too.
  if (o.script)
    extra.push_back({compiler::tir::apply_schedule_pass(o.script),
                     compiler::PassPosition::after("LegalizeOps")});
  for (const compiler::PluginPass& p : compiler::plugin_pipeline_passes())
    extra.push_back(p.placed);
  for (const auto* flags : {&o.pass_before, &o.pass_after}) {
    bool before = flags == &o.pass_before;
    for (const std::string& flag : *flags) {
      std::string option = before ? "--pass-before" : "--pass-after";
      size_t colon = flag.find(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == flag.size()) {
        print_error(option + " takes STEP:PASS (a pipeline step and a registered pass), not `" +
                    flag + "`");
        return std::nullopt;
      }
      std::string step = flag.substr(0, colon), name = flag.substr(colon + 1);
      const compiler::Pass* pass = compiler::PassRegistry::global().find(name);
      if (!pass) {
        print_error(option + ": unknown pass `" + name + "` (see `relax passes`)");
        return std::nullopt;
      }
      if (name == "ApplySchedule" && !o.script) {
        print_error(option + ": ApplySchedule needs a schedule file (--schedule FILE)");
        return std::nullopt;
      }
      extra.push_back({*pass, before ? compiler::PassPosition::before(step)
                                     : compiler::PassPosition::after(step)});
    }
  }
  std::string missing;
  auto pipeline = compiler::place_passes(compiler::default_pipeline(target), extra, missing);
  if (!pipeline) {
    std::string who;
    for (const compiler::PluginPass& p : compiler::plugin_pipeline_passes())
      if (p.placed.position.step == missing && who.empty())
        who = " (pass plugin " + p.plugin + " places `" + p.placed.pass.name + "` there)";
    print_error("the default pipeline has no step `" + missing + "` to place a pass next to" + who +
                "; `relax passes` lists the steps");
    return std::nullopt;
  }
  return pipeline;
}

}  // namespace relax::cli

// The options that change what `relax opt` and `relax build` run: pass plugins
// (--load-pass-plugin, also for `relax passes`), a schedule file (--schedule) and, for build,
// passes placed in the default pipeline (--pass-before/--pass-after STEP:PASS).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "compiler/target.h"
#include "compiler/tir/schedule/schedule_file.h"

namespace relax::cli {

struct PipelineOptions {
  std::vector<std::string> plugins;
  std::string schedule;
  std::vector<std::string> pass_before;
  std::vector<std::string> pass_after;
  // The parsed schedule file, after prepare_pipeline_options.
  std::shared_ptr<const compiler::tir::ScheduleScript> script;
};

void add_plugin_option(CLI::App* cmd, PipelineOptions& o);
void add_schedule_option(CLI::App* cmd, PipelineOptions& o);
void add_placement_options(CLI::App* cmd, PipelineOptions& o);

// Loads the plugins (after the built-in passes are registered), then reads and parses the
// schedule file and registers its ApplySchedule. Returns kExitOk, or the exit code after printing
// why not (2 for a plugin that cannot be loaded or a file that cannot be read, 1 for syntax
// errors in the schedule).
int prepare_pipeline_options(PipelineOptions& o);

// The default pipeline for `target` with, placed in it: the plugins' passes, the passes of
// --pass-before/--pass-after, and ApplySchedule right after LegalizeOps when there is a schedule.
// Null (message printed) when a named step or pass does not exist.
std::optional<compiler::Pass> custom_pipeline(const compiler::Target& target,
                                              const PipelineOptions& o);

}  // namespace relax::cli

// `relax passes`: the registered passes with their opt levels and docs, and the default
// pipeline in the order `relax build` runs it.
#include <iomanip>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/pipeline_options.h"
#include "compiler/pipeline.h"

namespace relax::cli {

Runner add_passes_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("passes", "List the registered compiler passes and the default pipeline");
  auto o = std::make_shared<PipelineOptions>();
  add_plugin_option(cmd, *o);
  return [o]() -> int {
    if (int rc = prepare_pipeline_options(*o); rc != kExitOk) return rc;
    std::cout << "Passes (name, opt level, what it does):\n";
    for (const compiler::Pass& p : compiler::PassRegistry::global().all()) {
      std::cout << "  " << std::left << std::setw(24) << p.name << " O" << p.opt_level << "  "
                << p.doc << "\n";
    }
    const auto& aliases = compiler::PassRegistry::global().aliases();
    if (!aliases.empty()) {
      std::cout << "\nTVM's names, accepted for ours (-p, --print-before, --print-after):\n";
      for (const auto& [alias, name] : aliases)
        std::cout << "  " << std::left << std::setw(24) << alias << " = " << name << "\n";
    }
    // With the passes plugins place in it.
    auto custom = custom_pipeline(compiler::Target::host(), *o);
    if (!custom) return kExitUsage;
    compiler::Pass& pipeline = *custom;
    std::cout << "\nDefault pipeline for " << compiler::Target::host().str() << " (relax build):\n";
    int i = 1;
    for (const compiler::Pass& p : pipeline.children) {
      std::cout << "  " << i++ << ". " << p.name
                << (p.opt_level > 0 ? " (opt level >= " + std::to_string(p.opt_level) + ")" : "")
                << "\n";
    }
    std::cout << "  then VM codegen and kernel code generation for the "
                 "prim_funcs\n";
    return kExitOk;
  };
}

}  // namespace relax::cli

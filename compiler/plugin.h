// Pass plugins: shared libraries that add passes to relax at run time (`relax opt|build|passes
// --load-pass-plugin lib.so`). A plugin exports two C symbols, both declared below: an ABI
// check, relax_plugin_abi(), and the registration entry point, relax_register_passes(), which
// adds passes through a PluginRegistrar. The passes' code runs in the `relax` process and calls
// the toolkit's functions there (the binary exports them); docs/cpp-api.md has a full example.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "compiler/pipeline.h"
#include "ir/module.h"
#include "relax_version.h"

#define RELAX_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace relax::compiler {

// Bumped when the registration interface changes in a way old plugins cannot follow.
inline constexpr uint32_t kPluginAbiVersion = 1;

// What a plugin was compiled against, compared with the loading binary's own before anything
// else of the plugin runs. The first two fields keep their places in every version.
struct PluginAbi {
  uint32_t abi_version;
  const char* relax_version;
  // Layouts the plugin and the binary share: a different C++ library mode or header version
  // changes them.
  uint32_t string_size;
  uint32_t pass_size;
  uint32_t pass_context_size;
  uint32_t module_size;
};

// The value for this build of the headers; a plugin returns its address from relax_plugin_abi().
inline constexpr PluginAbi kPluginAbi = {
    kPluginAbiVersion, RELAX_VERSION_STRING, sizeof(std::string),
    sizeof(Pass),      sizeof(PassContext),  sizeof(ir::IRModule),
};

// What relax_register_passes() receives. Pass names must be new: a plugin cannot replace a
// built-in pass or another plugin's.
class PluginRegistrar {
 public:
  explicit PluginRegistrar(std::string plugin) : plugin_(std::move(plugin)) {}

  // Makes the pass known by name: `relax opt -p NAME`, `relax passes`, `--print-after NAME`,
  // `relax build --pass-after STEP:NAME`.
  void add_pass(Pass pass);
  // The same, and the pass also runs in the default pipeline at `position`.
  void add_pass(Pass pass, PassPosition position);

  const std::string& plugin() const { return plugin_; }
  // Problems found while registering ("a pass of that name exists"), in order.
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string plugin_;
  std::vector<std::string> errors_;
};

// A pass a plugin placed in the default pipeline.
struct PluginPass {
  PlacedPass placed;
  std::string plugin;  // the library that asked for it
};

// Loads the plugin at `path` (dlopen) once per process: checks its ABI, then calls its
// relax_register_passes(). Returns false with a message in `error` when the file cannot be
// loaded, is not a relax plugin, was built for another relax, or registers a pass badly.
bool load_pass_plugin(const std::string& path, std::string& error);

// The passes loaded plugins placed in the default pipeline, in load and registration order.
const std::vector<PluginPass>& plugin_pipeline_passes();

}  // namespace relax::compiler

// The two symbols a plugin defines (C linkage, default visibility):
//
//   extern "C" RELAX_PLUGIN_EXPORT const relax::compiler::PluginAbi* relax_plugin_abi() {
//     return &relax::compiler::kPluginAbi;
//   }
//   extern "C" RELAX_PLUGIN_EXPORT void relax_register_passes(
//       relax::compiler::PluginRegistrar& registrar) {
//     registrar.add_pass(my_pass(), relax::compiler::PassPosition::before("LegalizeOps"));
//   }
extern "C" {
using RelaxPluginAbiFn = const relax::compiler::PluginAbi* (*)();
using RelaxRegisterPassesFn = void (*)(relax::compiler::PluginRegistrar&);
}

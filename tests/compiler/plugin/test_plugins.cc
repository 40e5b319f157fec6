// Broken pass plugins for plugin_test.cc, one per TEST_PLUGIN_* definition: what
// `--load-pass-plugin` must refuse with a clear message (a wrong ABI or version, a missing entry
// point, a taken pass name, a placement at no step, a registration that throws).
#include <stdexcept>

#include "compiler/plugin.h"

namespace {
relax::compiler::Pass noop(const char* name) {
  relax::compiler::Pass p;
  p.name = name;
  p.doc = "does nothing";
  p.fn = [](relax::ir::Ref<relax::ir::IRModule> m, relax::compiler::PassContext&) { return m; };
  return p;
}
}  // namespace

#ifndef TEST_PLUGIN_NO_ABI
extern "C" RELAX_PLUGIN_EXPORT const relax::compiler::PluginAbi* relax_plugin_abi() {
  static relax::compiler::PluginAbi abi = relax::compiler::kPluginAbi;
#ifdef TEST_PLUGIN_OTHER_ABI
  abi.abi_version = 99;
#endif
#ifdef TEST_PLUGIN_OTHER_VERSION
  abi.relax_version = "0.0.1";
#endif
  return &abi;
}
#endif

#ifndef TEST_PLUGIN_NO_REGISTER
extern "C" RELAX_PLUGIN_EXPORT void relax_register_passes(
    relax::compiler::PluginRegistrar& registrar) {
#if defined(TEST_PLUGIN_DUPLICATE)
  registrar.add_pass(noop("LegalizeOps"));
#elif defined(TEST_PLUGIN_MISPLACED)
  registrar.add_pass(noop("Misplaced"), relax::compiler::PassPosition::after("NoSuchStep"));
#elif defined(TEST_PLUGIN_THROWS)
  (void)registrar;
  throw std::runtime_error("out of ideas");
#else
  registrar.add_pass(noop("TestNoop"));
#endif
}
#endif

// Loading pass plugins (plugin.h): dlopen, the ABI check against this binary's own headers,
// then the plugin's registration entry point. Libraries stay loaded for the life of the
// process: the passes they registered point into their code.
#include "compiler/plugin.h"

#include <dlfcn.h>

#include <cstring>
#include <exception>
#include <filesystem>
#include <map>

namespace relax::compiler {

namespace {

std::vector<PluginPass>& pipeline_passes() {
  static std::vector<PluginPass> passes;
  return passes;
}

// Libraries loaded so far, by canonical path: loading one twice registers its passes once.
std::map<std::string, void*>& loaded() {
  static std::map<std::string, void*> libs;
  return libs;
}

std::string abi_text(const PluginAbi& abi) {
  return "relax " + std::string(abi.relax_version ? abi.relax_version : "?") + ", plugin ABI " +
         std::to_string(abi.abi_version) + ", layouts string/Pass/PassContext/IRModule " +
         std::to_string(abi.string_size) + "/" + std::to_string(abi.pass_size) + "/" +
         std::to_string(abi.pass_context_size) + "/" + std::to_string(abi.module_size);
}

bool check_name(const Pass& pass, std::vector<std::string>& errors) {
  if (pass.name.empty() || (!pass.fn && pass.children.empty())) {
    errors.push_back("a pass without a name or a function");
    return false;
  }
  if (PassRegistry::global().find(pass.name)) {
    errors.push_back("pass `" + pass.name +
                     "` is already registered (by relax or an earlier plugin); give it a name of "
                     "its own");
    return false;
  }
  return true;
}

}  // namespace

void PluginRegistrar::add_pass(Pass pass) {
  if (check_name(pass, errors_)) PassRegistry::global().add(std::move(pass));
}

void PluginRegistrar::add_pass(Pass pass, PassPosition position) {
  if (!check_name(pass, errors_)) return;
  if (position.step.empty()) {
    errors_.push_back("pass `" + pass.name + "` is placed next to a pipeline step with no name");
    return;
  }
  PassRegistry::global().add(pass);
  pipeline_passes().push_back({{std::move(pass), std::move(position)}, plugin_});
}

const std::vector<PluginPass>& plugin_pipeline_passes() {
  return pipeline_passes();
}

bool load_pass_plugin(const std::string& path, std::string& error) {
  // Built-in passes first, so that a plugin cannot take one of their names.
  register_default_passes();
  std::error_code ec;
  std::string key = std::filesystem::weakly_canonical(path, ec).string();
  if (ec || key.empty()) key = path;
  if (loaded().count(key)) return true;
  // dlopen searches the library path for a bare name; a plugin is a file the user names.
  std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  void* lib = dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    error = "cannot load pass plugin " + path + ": " + (why ? why : "unknown error");
    return false;
  }
  auto abi_fn = reinterpret_cast<RelaxPluginAbiFn>(dlsym(lib, "relax_plugin_abi"));
  auto register_fn = reinterpret_cast<RelaxRegisterPassesFn>(dlsym(lib, "relax_register_passes"));
  if (!abi_fn || !register_fn) {
    error = path + " is not a relax pass plugin: it does not export " +
            std::string(!abi_fn ? "relax_plugin_abi" : "relax_register_passes") +
            " (see docs/cpp-api.md, \"Pass plugins\")";
    dlclose(lib);
    return false;
  }
  const PluginAbi* abi = abi_fn();
  const PluginAbi& own = kPluginAbi;
  bool same = abi && abi->abi_version == own.abi_version && abi->relax_version &&
              std::strcmp(abi->relax_version, own.relax_version) == 0 &&
              abi->string_size == own.string_size && abi->pass_size == own.pass_size &&
              abi->pass_context_size == own.pass_context_size &&
              abi->module_size == own.module_size;
  if (!same) {
    // Only the first two fields are read from a plugin of another ABI version.
    std::string theirs = !abi ? "nothing"
                         : abi->abi_version != own.abi_version
                             ? "plugin ABI " + std::to_string(abi->abi_version)
                             : abi_text(*abi);
    error = "pass plugin " + path + " was built for " + theirs + "; this is " + abi_text(own) +
            ". Rebuild the plugin against this relax (find_package(relax) of this install)";
    dlclose(lib);
    return false;
  }
  PluginRegistrar registrar(path);
  try {
    register_fn(registrar);
  } catch (const std::exception& e) {
    error = "pass plugin " + path + ": relax_register_passes threw: " + e.what();
    return false;
  } catch (...) {
    error = "pass plugin " + path + ": relax_register_passes threw an exception";
    return false;
  }
  loaded()[key] = lib;
  if (!registrar.errors().empty()) {
    error = "pass plugin " + path + ": " + registrar.errors().front();
    return false;
  }
  return true;
}

}  // namespace relax::compiler

// The global op registry, built once from register_builtin_ops.
#include "analysis/ops/op_registry.h"

#include <cassert>

namespace relax::analysis {

const OpRegistry& OpRegistry::global() {
  static const OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    register_builtin_ops(*r);
    return r;
  }();
  return *registry;
}

void OpRegistry::add(OpInfo info) {
  assert(!info.name.empty() && ops_.count(info.name) == 0 && "an op is registered twice");
  auto owned = std::make_unique<OpInfo>(std::move(info));
  ordered_.push_back(owned.get());
  ops_.emplace(owned->name, std::move(owned));
}

const OpInfo* OpRegistry::find(std::string_view name) const {
  auto it = ops_.find(std::string(name));
  return it == ops_.end() ? nullptr : it->second.get();
}

}  // namespace relax::analysis

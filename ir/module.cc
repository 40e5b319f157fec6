// IRModule member lookup and editing.
#include "ir/module.h"

namespace relax::ir {

const IRModule::Member* IRModule::find(std::string_view member_name) const {
  for (const Member& m : functions) {
    if (m.gvar->name == member_name) return &m;
  }
  return nullptr;
}

Ref<GlobalVar> IRModule::global_var(std::string_view member_name) const {
  const Member* m = find(member_name);
  return m ? m->gvar : nullptr;
}

ObjectRef IRModule::lookup(std::string_view member_name) const {
  const Member* m = find(member_name);
  return m ? m->func : nullptr;
}

void IRModule::add(Ref<GlobalVar> gvar, ObjectRef func) {
  for (Member& m : functions) {
    if (m.gvar->name == gvar->name) {
      m.gvar = std::move(gvar);
      m.func = std::move(func);
      return;
    }
  }
  functions.push_back(Member{std::move(gvar), std::move(func)});
}

bool IRModule::remove(std::string_view member_name) {
  for (auto it = functions.begin(); it != functions.end(); ++it) {
    if (it->gvar->name == member_name) {
      functions.erase(it);
      return true;
    }
  }
  return false;
}

std::vector<Ref<VDevice>> IRModule::vdevices() const {
  std::vector<Ref<VDevice>> out;
  for (const auto& [key, infos] : global_infos) {
    if (key != "vdevice") continue;
    for (const ObjectRef& info : infos) {
      if (auto vd = info.as<VDevice>()) out.push_back(vd);
    }
  }
  return out;
}

}  // namespace relax::ir

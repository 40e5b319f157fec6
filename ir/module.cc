// IRModule member lookup and editing.
#include "ir/module.h"

namespace relax::ir {

void IRModule::Members::assign(std::vector<Member> items) {
  items_ = std::move(items);
  reindex();
}

void IRModule::Members::reindex() {
  index_.clear();
  index_.reserve(items_.size());
  for (size_t i = 0; i < items_.size(); ++i) index_.emplace(items_[i].gvar->name, i);
}

void IRModule::Members::push_back(Member m) {
  index_.emplace(m.gvar->name, items_.size());
  items_.push_back(std::move(m));
}

IRModule::Members::const_iterator IRModule::Members::erase(const_iterator it) {
  size_t at = static_cast<size_t>(it - items_.begin());
  items_.erase(it);
  reindex();  // positions after `at` moved; removals are rare
  return items_.begin() + static_cast<std::ptrdiff_t>(at);
}

void IRModule::Members::set(size_t i, Member m) {
  bool renamed = items_[i].gvar->name != m.gvar->name;
  items_[i] = std::move(m);
  if (renamed) reindex();
}

size_t IRModule::Members::position(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? items_.size() : it->second;
}

const IRModule::Member* IRModule::Members::find(std::string_view name) const {
  size_t i = position(name);
  return i < items_.size() ? &items_[i] : nullptr;
}

const IRModule::Member* IRModule::find(std::string_view member_name) const {
  return functions.find(member_name);
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
  size_t i = functions.position(gvar->name);
  if (i < functions.size()) {
    functions.set(i, Member{std::move(gvar), std::move(func)});
  } else {
    functions.push_back(Member{std::move(gvar), std::move(func)});
  }
}

bool IRModule::remove(std::string_view member_name) {
  size_t i = functions.position(member_name);
  if (i == functions.size()) return false;
  functions.erase(functions.begin() + static_cast<std::ptrdiff_t>(i));
  return true;
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

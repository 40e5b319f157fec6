// Attribute lookups over ordered entries.
#include "ir/value.h"

#include "ir/tir.h"

namespace relax::ir {

ObjectRef MapValue::find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (auto s = k.as_ptr<StringValue>(); s && s->value == key) return v;
  }
  return nullptr;
}

ObjectRef Attrs::find(std::string_view key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return v;
  }
  return nullptr;
}

void Attrs::set(std::string key, ObjectRef value) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  entries_.emplace_back(std::move(key), std::move(value));
}

bool Attrs::erase(std::string_view key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first == key) {
      entries_.erase(it);
      return true;
    }
  }
  return false;
}

std::string Attrs::get_string(std::string_view key, std::string fallback) const {
  if (auto s = find(key).as_ptr<StringValue>()) return s->value;
  return fallback;
}

int64_t Attrs::get_int(std::string_view key, int64_t fallback) const {
  ObjectRef v = find(key);
  if (auto i = v.as_ptr<IntValue>()) return i->value;
  if (auto i = v.as_ptr<tir::IntImm>()) return i->value;
  if (auto b = v.as_ptr<BoolValue>()) return b->value ? 1 : 0;
  return fallback;
}

bool Attrs::get_bool(std::string_view key, bool fallback) const {
  ObjectRef v = find(key);
  if (auto b = v.as_ptr<BoolValue>()) return b->value;
  if (auto i = v.as_ptr<IntValue>()) return i->value != 0;
  if (auto i = v.as_ptr<tir::IntImm>()) return i->value != 0;
  return fallback;
}

}  // namespace relax::ir

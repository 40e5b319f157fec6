// Plain values that attributes hold: strings, Python-style bools, ints and floats, arrays and
// ordered maps. Typed TIR immediates (IntImm, FloatImm) are PrimExprs; these boxed values are
// what a Python literal in an attribute dictionary becomes (`{"num_input": 1}`, `True`, `-0.5`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/object.h"

namespace relax::ir {

class StringValue : public Object {
 public:
  explicit StringValue(std::string v) : Object(ObjectKind::kString), value(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kString; }
  std::string value;
};

class BoolValue : public Object {
 public:
  explicit BoolValue(bool v) : Object(ObjectKind::kBool), value(v) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kBool; }
  bool value;
};

class IntValue : public Object {
 public:
  explicit IntValue(int64_t v) : Object(ObjectKind::kInt), value(v) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kInt; }
  int64_t value;
};

class FloatValue : public Object {
 public:
  explicit FloatValue(double v) : Object(ObjectKind::kFloat), value(v) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kFloat; }
  double value;
};

// A list of values; a null element stands for Python's None.
class ArrayValue : public Object {
 public:
  ArrayValue() : Object(ObjectKind::kArray) {}
  explicit ArrayValue(std::vector<ObjectRef> v) : Object(ObjectKind::kArray), items(std::move(v)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kArray; }
  std::vector<ObjectRef> items;
};

// An ordered dictionary. Keys are usually StringValues but may be any value (a Var, ...).
class MapValue : public Object {
 public:
  MapValue() : Object(ObjectKind::kMap) {}
  explicit MapValue(std::vector<std::pair<ObjectRef, ObjectRef>> e)
      : Object(ObjectKind::kMap), entries(std::move(e)) {}
  static bool classof(const Object* o) { return o->kind() == ObjectKind::kMap; }
  // The value under a string key, or null.
  ObjectRef find(std::string_view key) const;
  std::vector<std::pair<ObjectRef, ObjectRef>> entries;
};

// Named attributes of a function, a call, a loop or a block, in order. Order is kept as built;
// printers sort where TVM sorts (dictionaries with string keys).
class Attrs {
 public:
  using Entry = std::pair<std::string, ObjectRef>;

  Attrs() = default;
  Attrs(std::initializer_list<Entry> entries) : entries_(entries) {}

  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  const std::vector<Entry>& entries() const { return entries_; }
  std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
  std::vector<Entry>::const_iterator end() const { return entries_.end(); }

  bool contains(std::string_view key) const { return find(key) != nullptr; }
  // The value under `key`, or null when absent (a present None is also null: use contains()).
  ObjectRef find(std::string_view key) const;
  // Sets `key` (replacing an existing entry in place, or appending).
  void set(std::string key, ObjectRef value);
  bool erase(std::string_view key);

  // Typed accessors: nullopt/default when absent or of another type.
  std::string get_string(std::string_view key, std::string fallback = "") const;
  int64_t get_int(std::string_view key, int64_t fallback = 0) const;
  bool get_bool(std::string_view key, bool fallback = false) const;

 private:
  std::vector<Entry> entries_;
};

inline ObjectRef make_string(std::string s) {
  return make<StringValue>(std::move(s));
}

}  // namespace relax::ir

// Field reflection: lists the fields of any node, in a fixed order, to a FieldVisitor. Generic
// algorithms (structural equality and hashing, debug dumps, child walks) are written once over
// this instead of once per node kind.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/data_type.h"
#include "ir/object.h"
#include "ir/value.h"

namespace relax::ir {

class FieldVisitor {
 public:
  virtual ~FieldVisitor() = default;
  // A child node (possibly null).
  virtual void child(const ObjectRef& node) = 0;
  virtual void value(int64_t v) = 0;
  virtual void value(double v) = 0;
  virtual void value(std::string_view v) = 0;

  void value(bool v) { value(static_cast<int64_t>(v)); }
  void value(int v) { value(static_cast<int64_t>(v)); }
  void value(DataType t) {
    value(static_cast<int64_t>(t.code()) << 32 | static_cast<int64_t>(t.bits()) << 16 |
          static_cast<int64_t>(static_cast<uint16_t>(t.lanes())));
  }
  template <class T>
  void children(const std::vector<Ref<T>>& nodes) {
    value(static_cast<int64_t>(nodes.size()));
    for (const auto& n : nodes) child(n);
  }
  void attrs(const Attrs& a) {
    value(static_cast<int64_t>(a.size()));
    for (const auto& [k, v] : a) {
      value(std::string_view(k));
      child(v);
    }
  }
};

// Visits the fields of `node` that define its meaning (never its span; for variables, never the
// name hint). Variables (Relax, dataflow and TIR vars) report their type information only.
void reflect_fields(const Object& node, FieldVisitor& visitor);

// True for node kinds compared by binding rather than by content: Relax Var/DataflowVar,
// tir::Var and tir::Buffer.
bool is_binding_node(const Object& node);

}  // namespace relax::ir

// Spec shorthands and generated signatures of op entries.
#include "analysis/ops/op_specs.h"

#include <cstdio>

#include "ir/tir.h"

namespace relax::analysis::spec {

using ir::make;

ArgSpec arg(std::string name, std::string doc) {
  return ArgSpec{std::move(name), std::move(doc)};
}

ArgSpec optional_arg(std::string name, std::string doc) {
  ArgSpec a{std::move(name), std::move(doc)};
  a.optional = true;
  return a;
}

ArgSpec variadic_arg(std::string name, std::string doc) {
  ArgSpec a{std::move(name), std::move(doc)};
  a.variadic = true;
  return a;
}

namespace {
AttrSpec make_attr(std::string name, AttrKind kind, ir::ObjectRef def, std::string doc) {
  AttrSpec a;
  a.name = std::move(name);
  a.kind = kind;
  a.default_value = std::move(def);
  a.doc = std::move(doc);
  return a;
}
}  // namespace

AttrSpec int_attr(std::string name, int64_t def, std::string doc) {
  return make_attr(std::move(name), AttrKind::kInt, make<ir::IntValue>(def), std::move(doc));
}
AttrSpec float_attr(std::string name, double def, std::string doc) {
  return make_attr(std::move(name), AttrKind::kFloat, make<ir::FloatValue>(def), std::move(doc));
}
AttrSpec bool_attr(std::string name, bool def, std::string doc) {
  return make_attr(std::move(name), AttrKind::kBool, make<ir::BoolValue>(def), std::move(doc));
}
AttrSpec string_attr(std::string name, std::string def, std::string doc) {
  return make_attr(std::move(name), AttrKind::kString, make<ir::StringValue>(std::move(def)),
                   std::move(doc));
}
AttrSpec dtype_attr(std::string name, std::string def, std::string doc) {
  return make_attr(std::move(name), AttrKind::kDType, make<ir::StringValue>(std::move(def)),
                   std::move(doc));
}
AttrSpec ints_attr(std::string name, std::vector<int64_t> def, std::string doc) {
  auto arr = make<ir::ArrayValue>();
  for (int64_t v : def) arr->items.push_back(make<ir::IntValue>(v));
  return make_attr(std::move(name), AttrKind::kIntArray, arr, std::move(doc));
}
AttrSpec optional_attr(std::string name, AttrKind kind, std::string doc) {
  AttrSpec a = make_attr(std::move(name), kind, nullptr, std::move(doc));
  a.optional = true;
  return a;
}
AttrSpec or_none(AttrSpec spec) {
  spec.optional = true;
  return spec;
}
AttrSpec required_attr(std::string name, AttrKind kind, std::string doc) {
  AttrSpec a = make_attr(std::move(name), kind, nullptr, std::move(doc));
  a.required = true;
  return a;
}

std::string value_text(const ir::ObjectRef& value) {
  if (!value) return "None";
  if (auto i = value.as_ptr<ir::IntValue>()) return std::to_string(i->value);
  if (auto b = value.as_ptr<ir::BoolValue>()) return b->value ? "True" : "False";
  if (auto f = value.as_ptr<ir::FloatValue>()) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", f->value);
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
  }
  if (auto s = value.as_ptr<ir::StringValue>())
    return s->value == "void" ? "None" : "\"" + s->value + "\"";
  if (auto i = value.as_ptr<ir::tir::IntImm>()) return std::to_string(i->value);
  if (auto f = value.as_ptr<ir::tir::FloatImm>()) return value_text(make<ir::FloatValue>(f->value));
  if (auto arr = value.as_ptr<ir::ArrayValue>()) {
    std::string out = "[";
    for (size_t i = 0; i < arr->items.size(); ++i)
      out += (i ? ", " : "") + value_text(arr->items[i]);
    return out + "]";
  }
  return "...";
}

std::string signature_of(const OpInfo& op) {
  std::string name = op.name.starts_with("relax.") ? "R." + op.name.substr(6) : op.name;
  std::vector<std::string> parts;
  for (const ArgSpec& a : op.args) {
    if (a.variadic)
      parts.push_back("*" + a.name);
    else if (a.optional || a.default_value)
      parts.push_back(a.name + "=None");
    else
      parts.push_back(a.name);
  }
  std::vector<const AttrSpec*> order;
  for (const std::string& n : op.attr_positions) {
    for (const AttrSpec& a : op.attrs) {
      if (a.name == n) order.push_back(&a);
    }
  }
  for (const AttrSpec& a : op.attrs) {
    bool listed = false;
    for (const AttrSpec* o : order) listed |= o == &a;
    if (!listed) order.push_back(&a);
  }
  for (const AttrSpec* a : order)
    parts.push_back(a->required ? a->name : a->name + "=" + value_text(a->default_value));
  std::string out = name + "(";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + ")";
}

void add_op(OpRegistry& registry, OpInfo op) {
  if (op.signature.empty()) op.signature = signature_of(op);
  registry.add(std::move(op));
}

}  // namespace relax::analysis::spec

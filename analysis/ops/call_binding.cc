// Schema binding of op calls: arguments to positions, attributes to declaration order with
// defaults and kind conversions.
#include "analysis/ops/call_binding.h"

#include <cmath>

#include "ir/tir.h"

namespace relax::analysis {

using ir::make;
using ir::ObjectRef;
using ir::Ref;

namespace {

std::string short_op_name(const OpInfo& op) {
  std::string_view n = op.name;
  return n.starts_with("relax.") ? "R." + std::string(n.substr(6)) : std::string(n);
}

// A Relax expression written where an attribute is expected, as a plain value.
ObjectRef expr_to_value(const ObjectRef& value) {
  if (auto pv = value.as_ptr<ir::PrimValue>()) {
    if (auto i = pv->value.as_ptr<ir::tir::IntImm>()) {
      if (i->dtype.is_bool()) return make<ir::BoolValue>(i->value != 0);
      return make<ir::IntValue>(i->value);
    }
    if (auto f = pv->value.as_ptr<ir::tir::FloatImm>()) return make<ir::FloatValue>(f->value);
    return pv->value;
  }
  if (auto s = value.as_ptr<ir::StringImm>()) return make<ir::StringValue>(s->value);
  if (auto d = value.as_ptr<ir::DataTypeImm>()) return make<ir::StringValue>(d->value.str());
  if (auto t = value.as_ptr<ir::Tuple>()) {
    auto arr = make<ir::ArrayValue>();
    for (const auto& f : t->fields) arr->items.push_back(expr_to_value(f));
    return arr;
  }
  if (auto s = value.as_ptr<ir::ShapeExpr>()) {
    auto arr = make<ir::ArrayValue>();
    for (const auto& v : s->values) arr->items.push_back(v);
    return arr;
  }
  return value;
}

std::optional<int64_t> int_of(const ObjectRef& v) {
  if (auto i = v.as_ptr<ir::IntValue>()) return i->value;
  if (auto i = v.as_ptr<ir::tir::IntImm>(); i && !i->dtype.is_bool()) return i->value;
  return std::nullopt;
}

}  // namespace

std::optional<ObjectRef> convert_attr(const AttrSpec& spec, const ObjectRef& raw) {
  ObjectRef value = expr_to_value(raw);
  // A value unwrapped from a positional Relax expression keeps the expression's span, so that
  // errors about it point at the argument.
  if (value && raw && value.get() != raw.get() && !value->span.is_known()) value->span = raw->span;
  if (!value) {
    if (spec.optional || spec.kind == AttrKind::kDType || spec.kind == AttrKind::kAny) {
      if (spec.kind == AttrKind::kDType) return ObjectRef(make<ir::StringValue>("void"));
      return ObjectRef();
    }
    return std::nullopt;
  }
  auto keep_span = [&](ObjectRef out) {
    if (out && raw && !out->span.is_known()) out->span = raw->span;
    return out;
  };
  switch (spec.kind) {
    case AttrKind::kAny:
      return raw;
    case AttrKind::kInt:
      if (value.is<ir::IntValue>()) return value;
      if (auto i = int_of(value)) return keep_span(make<ir::IntValue>(*i));
      return std::nullopt;
    case AttrKind::kFloat:
      if (value.is<ir::FloatValue>()) return value;
      if (auto i = int_of(value)) return keep_span(make<ir::FloatValue>(static_cast<double>(*i)));
      if (auto f = value.as_ptr<ir::tir::FloatImm>())
        return keep_span(make<ir::FloatValue>(f->value));
      return std::nullopt;
    case AttrKind::kBool:
      if (value.is<ir::BoolValue>()) return value;
      if (auto i = value.as_ptr<ir::tir::IntImm>(); i && i->dtype.is_bool())
        return keep_span(make<ir::BoolValue>(i->value != 0));
      if (auto i = int_of(value); i && (*i == 0 || *i == 1))
        return keep_span(make<ir::BoolValue>(*i == 1));
      return std::nullopt;
    case AttrKind::kString:
      if (value.is<ir::StringValue>()) return value;
      return std::nullopt;
    case AttrKind::kDType: {
      auto s = value.as_ptr<ir::StringValue>();
      if (!s) return std::nullopt;
      if (s->value.empty() || s->value == "void") return ObjectRef(make<ir::StringValue>("void"));
      if (!ir::DataType::parse(s->value)) return std::nullopt;
      return value;
    }
    case AttrKind::kIntArray:
    case AttrKind::kPrimExprArray:
    case AttrKind::kFloatArray:
    case AttrKind::kStringArray: {
      std::vector<ObjectRef> items;
      if (auto arr = value.as_ptr<ir::ArrayValue>())
        items = arr->items;
      else
        items = {value};  // a single value stands for a one-element list
      auto out = make<ir::ArrayValue>();
      for (const ObjectRef& item : items) {
        ObjectRef v = expr_to_value(item);
        switch (spec.kind) {
          case AttrKind::kIntArray: {
            auto i = int_of(v);
            if (!i) return std::nullopt;
            out->items.push_back(v.is<ir::IntValue>() ? v : ObjectRef(make<ir::IntValue>(*i)));
            break;
          }
          case AttrKind::kPrimExprArray:
            if (auto i = v.as_ptr<ir::IntValue>())
              out->items.push_back(ir::tir::int64(i->value));
            else if (v.is<ir::tir::PrimExpr>())
              out->items.push_back(v);
            else
              return std::nullopt;
            break;
          case AttrKind::kFloatArray:
            if (v.is<ir::FloatValue>() || v.is<ir::tir::FloatImm>())
              out->items.push_back(v);
            else if (auto i = int_of(v))
              out->items.push_back(make<ir::FloatValue>(static_cast<double>(*i)));
            else
              return std::nullopt;
            break;
          default:
            if (!v.is<ir::StringValue>()) return std::nullopt;
            out->items.push_back(v);
        }
      }
      // Already in canonical form: keep the node (a canonical call binds to itself).
      if (auto same = raw.as_ptr<ir::ArrayValue>();
          same && same->items.size() == out->items.size()) {
        bool identical = true;
        for (size_t i = 0; identical && i < out->items.size(); ++i)
          identical = same->items[i].same_as(out->items[i]);
        if (identical) return raw;
      }
      return keep_span(out);
    }
    case AttrKind::kPrimExpr:
      if (auto i = value.as_ptr<ir::IntValue>()) return keep_span(ir::tir::int64(i->value));
      if (auto f = value.as_ptr<ir::FloatValue>())
        return keep_span(ir::tir::float_imm(ir::DataType::Float32(), f->value));
      if (value.is<ir::tir::PrimExpr>()) return value;
      return std::nullopt;
    case AttrKind::kIndexMap:
      if (value.is<ir::tir::IndexMap>()) return value;
      return std::nullopt;
  }
  return std::nullopt;
}

namespace {

const char* kind_text(AttrKind kind) {
  switch (kind) {
    case AttrKind::kInt:
      return "an integer";
    case AttrKind::kFloat:
      return "a number";
    case AttrKind::kBool:
      return "True or False";
    case AttrKind::kString:
      return "a string";
    case AttrKind::kDType:
      return "a dtype string";
    case AttrKind::kIntArray:
      return "a list of integers";
    case AttrKind::kPrimExprArray:
      return "a list of integer expressions";
    case AttrKind::kFloatArray:
      return "a list of numbers";
    case AttrKind::kStringArray:
      return "a list of strings";
    case AttrKind::kPrimExpr:
      return "an integer expression";
    case AttrKind::kIndexMap:
      return "an index map (T.index_map(lambda ...))";
    case AttrKind::kAny:
      return "a value";
  }
  return "a value";
}

// A plain value written as a keyword where an argument is expected, as a Relax expression.
Ref<ir::Expr> value_to_expr(const ObjectRef& v) {
  if (!v) return nullptr;
  if (auto e = v.as<ir::Expr>()) return e;
  if (auto i = v.as_ptr<ir::IntValue>()) return make<ir::PrimValue>(ir::tir::int64(i->value));
  if (auto f = v.as_ptr<ir::FloatValue>())
    return make<ir::PrimValue>(ir::tir::float_imm(ir::DataType::Float(64), f->value));
  if (auto b = v.as_ptr<ir::BoolValue>()) return make<ir::PrimValue>(ir::tir::bool_imm(b->value));
  if (auto s = v.as_ptr<ir::StringValue>()) return make<ir::StringImm>(s->value);
  if (auto p = v.as<ir::tir::PrimExpr>()) return make<ir::PrimValue>(p);
  if (auto arr = v.as_ptr<ir::ArrayValue>()) {
    std::vector<Ref<ir::Expr>> fields;
    for (const auto& item : arr->items) {
      Ref<ir::Expr> e = value_to_expr(item);
      if (!e) return nullptr;
      fields.push_back(e);
    }
    return make<ir::Tuple>(std::move(fields));
  }
  return nullptr;
}

}  // namespace

bool arity_fits(const OpInfo& op, size_t n) {
  size_t required = 0;
  for (const ArgSpec& a : op.args) required += !a.optional && !a.variadic && !a.default_value;
  bool variadic = !op.args.empty() && op.args.back().variadic;
  return n >= required && (variadic || n <= op.args.size());
}

Ref<ir::Call> bind_op_call(const OpInfo& op, const Ref<ir::Call>& call, ir::DiagnosticBag& diags) {
  const std::string name = short_op_name(op);
  bool ok = true;
  size_t n_specs = op.args.size();
  bool variadic = n_specs > 0 && op.args.back().variadic;
  std::vector<Ref<ir::Expr>> args;
  std::vector<bool> given(n_specs, false);
  std::vector<ObjectRef> positional_attrs;
  for (size_t i = 0; i < call->args.size(); ++i) {
    if (variadic && i + 1 >= n_specs) {
      args.push_back(call->args[i]);
      if (n_specs) given[n_specs - 1] = true;
    } else if (i < n_specs) {
      args.push_back(call->args[i]);
      given[i] = true;
    } else {
      positional_attrs.push_back(call->args[i]);
    }
  }
  if (positional_attrs.size() > op.attrs.size()) {
    diags.error("E0302",
                call->args[n_specs + op.attrs.size()]->span.is_known()
                    ? call->args[n_specs + op.attrs.size()]->span
                    : call->span,
                name + " takes at most " + std::to_string(n_specs + op.attrs.size()) +
                    " positional arguments, got " + std::to_string(call->args.size()));
    return nullptr;
  }
  // Keywords that name arguments move into position.
  std::vector<const ir::Attrs::Entry*> keyword_attrs;
  for (const auto& entry : call->attrs) {
    size_t index = n_specs;
    for (size_t i = 0; i < n_specs; ++i) {
      if (op.args[i].name == entry.first) index = i;
    }
    if (index == n_specs) {
      keyword_attrs.push_back(&entry);
      continue;
    }
    if (given[index]) {
      diags.error("E0303",
                  entry.second && entry.second->span.is_known() ? entry.second->span : call->span,
                  name + " got multiple values for argument `" + entry.first + "`");
      ok = false;
      continue;
    }
    Ref<ir::Expr> e = value_to_expr(entry.second);
    if (!e) {
      diags.error("E0305",
                  entry.second && entry.second->span.is_known() ? entry.second->span : call->span,
                  name + ": argument `" + entry.first + "` must be a Relax value");
      ok = false;
      continue;
    }
    if (args.size() <= index) args.resize(index + 1);
    args[index] = e;
    given[index] = true;
  }
  // Dtype arguments written as strings become R.dtype; None or "void" stands for the default.
  for (size_t i = 0; i < n_specs && i < args.size(); ++i) {
    const ArgSpec& spec = op.args[i];
    auto str = args[i].as_ptr<ir::StringImm>();
    if (spec.kind != ArgKind::kDType || spec.variadic || !str) continue;
    if ((str->value.empty() || str->value == "void") && spec.default_value) {
      given[i] = false;
      args[i] = nullptr;
      continue;
    }
    auto dtype =
        str->value.empty() ? std::optional(ir::DataType::Void()) : ir::DataType::parse(str->value);
    if (!dtype) {
      diags.error("E0305", str->span.is_known() ? str->span : call->span,
                  name + ": `" + spec.name + "` must be a dtype, got \"" + str->value + "\"");
      ok = false;
      continue;
    }
    auto imm = make<ir::DataTypeImm>(*dtype);
    imm->span = str->span;
    args[i] = imm;
  }
  // Missing arguments: defaults, or an error.
  for (size_t i = 0; i < n_specs; ++i) {
    if (given[i]) continue;
    const ArgSpec& spec = op.args[i];
    if (spec.variadic) continue;
    if (spec.default_value) {
      if (args.size() <= i) args.resize(i + 1);
      args[i] = spec.default_value;
      continue;
    }
    if (spec.optional) continue;
    diags.error("E0304", call->span, name + " is missing the argument `" + spec.name + "`");
    ok = false;
  }
  // Drop trailing optional arguments that were not given; a gap before a given one is an error.
  while (!args.empty() && !args.back()) args.pop_back();
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i] && ok) {
      diags.error("E0304", call->span, name + " is missing the argument `" + op.args[i].name + "`");
      ok = false;
    }
  }
  // Attributes: positional values first, then keywords, then defaults.
  ir::Attrs attrs;
  std::vector<ObjectRef> values(op.attrs.size());
  std::vector<bool> set(op.attrs.size(), false);
  for (size_t i = 0; i < positional_attrs.size(); ++i) {
    size_t index = i;
    if (i < op.attr_positions.size()) {
      for (size_t k = 0; k < op.attrs.size(); ++k) {
        if (op.attrs[k].name == op.attr_positions[i]) index = k;
      }
    }
    values[index] = positional_attrs[i];
    set[index] = true;
  }
  for (const ir::Attrs::Entry* entry : keyword_attrs) {
    size_t index = op.attrs.size();
    for (size_t i = 0; i < op.attrs.size(); ++i) {
      if (op.attrs[i].name == entry->first) index = i;
    }
    ir::Span at =
        entry->second && entry->second->span.is_known() ? entry->second->span : call->span;
    if (index == op.attrs.size()) {
      std::string known;
      for (const auto& a : op.attrs) known += (known.empty() ? "" : ", ") + a.name;
      auto& d = diags.error("E0303", at,
                            name + " got an unexpected keyword argument `" + entry->first + "`");
      if (!known.empty()) d.note(name + " takes: " + known);
      ok = false;
      continue;
    }
    if (set[index]) {
      diags.error("E0303", at, name + " got multiple values for `" + entry->first + "`");
      ok = false;
      continue;
    }
    values[index] = entry->second;
    set[index] = true;
  }
  for (size_t i = 0; i < op.attrs.size(); ++i) {
    const AttrSpec& spec = op.attrs[i];
    ObjectRef value = values[i];
    if (!set[i]) {
      if (spec.only_when_given) continue;
      if (spec.required) {
        diags.error("E0304", call->span, name + " is missing the attribute `" + spec.name + "`");
        ok = false;
        continue;
      }
      value = spec.default_value;
    }
    auto converted = convert_attr(spec, value);
    if (!converted) {
      ir::Span at = value && value->span.is_known() ? value->span : call->span;
      diags.error("E0305", at,
                  name + ": `" + spec.name + "` must be " + kind_text(spec.kind) +
                      (spec.optional ? " or None" : ""));
      ok = false;
      continue;
    }
    attrs.set(spec.name, *converted);
  }
  if (!ok) return nullptr;
  // Keep the node when nothing changed.
  bool same = args.size() == call->args.size() && attrs.size() == call->attrs.size();
  for (size_t i = 0; same && i < args.size(); ++i) same = args[i].same_as(call->args[i]);
  for (size_t i = 0; same && i < attrs.size(); ++i) {
    same = attrs.entries()[i].first == call->attrs.entries()[i].first &&
           attrs.entries()[i].second.same_as(call->attrs.entries()[i].second);
  }
  if (same) return call;
  auto out = make<ir::Call>(call->op, std::move(args), std::move(attrs), call->sinfo_args);
  out->span = call->span;
  return out;
}

}  // namespace relax::analysis

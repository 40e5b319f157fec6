// Conversions from evaluated values to IR pieces, shared by the Relax and TIR parsers.
#include "ir/suggest.h"
#include "ir/value.h"
#include "syntax/frontend/context.h"

namespace relax::syntax {

using ir::DataType;
using ir::make;
using ir::Ref;
using ir::tir::PrimExpr;

std::string Value::describe() const {
  switch (kind_) {
    case Kind::kError:
      return "an invalid value";
    case Kind::kNone:
      return "None";
    case Kind::kBool:
      return "a bool";
    case Kind::kInt:
      return "an int";
    case Kind::kFloat:
      return "a float";
    case Kind::kString:
      return "a string";
    case Kind::kTuple:
      return "a tuple";
    case Kind::kList:
      return "a list";
    case Kind::kDict:
      return "a dict";
    case Kind::kSlice:
      return "a slice";
    case Kind::kNamespace:
      return "`" + str_ + "`";
    case Kind::kModuleRef:
      return "the module";
    case Kind::kTypeVar:
      return "the TypeVar `" + str_ + "`";
    case Kind::kLambda:
      return "a lambda";
    case Kind::kObject:
      break;
  }
  if (obj_.is<ir::tir::Buffer>()) return "a buffer";
  if (obj_.is<ir::tir::BufferRegion>()) return "a buffer region";
  if (obj_.is<PrimExpr>()) return "a PrimExpr (" + obj_.as<PrimExpr>()->dtype.str() + ")";
  if (obj_.is<ir::StructInfo>()) return "a struct info annotation";
  if (obj_.is<ir::GlobalVar>()) return "the function `" + obj_.as<ir::GlobalVar>()->name + "`";
  if (obj_.is<ir::Var>()) return "the variable `" + obj_.as<ir::Var>()->name + "`";
  if (obj_.is<ir::Expr>())
    return std::string("a Relax expression (") + ir::kind_name(obj_->kind()) + ")";
  return std::string("a ") + ir::kind_name(obj_->kind());
}

Ref<PrimExpr> Frontend::to_prim_expr(const Value& v, DataType int_dtype) {
  switch (v.kind()) {
    case Value::Kind::kError:
      return nullptr;
    case Value::Kind::kInt: {
      int64_t i = v.as_int();
      DataType t = int_dtype;
      if (t.bits() == 32 && (i > INT32_MAX || i < INT32_MIN)) t = DataType::Int64();
      return ir::tir::int_imm(t, i, v.span());
    }
    case Value::Kind::kFloat:
      return ir::tir::float_imm(DataType::Float32(), v.as_float(), v.span());
    case Value::Kind::kBool:
      return ir::tir::int_imm(DataType::Bool(), v.as_bool() ? 1 : 0, v.span());
    case Value::Kind::kObject:
      if (auto p = v.as<PrimExpr>()) return p;
      if (auto pv = v.as<ir::PrimValue>()) return pv->value;
      break;
    default:
      break;
  }
  error("E0216", v.span(), "expected a PrimExpr, got " + v.describe());
  return nullptr;
}

std::optional<DataType> Frontend::to_dtype(const Value& v) {
  if (v.is_error()) return std::nullopt;
  std::string name;
  if (v.is_string()) {
    name = v.as_string();
  } else if (v.is_namespace() && v.as_string().starts_with("T.")) {
    name = v.as_string().substr(2);
  } else if (auto d = v.as<ir::DataTypeImm>()) {
    return d->value;
  } else {
    error("E0217", v.span(), "expected a dtype, got " + v.describe());
    return std::nullopt;
  }
  if (name.empty()) return DataType::Void();  // "" means unknown
  if (auto t = DataType::parse(name)) return t;
  auto& d = error("E0217", v.span(), "unknown dtype \"" + name + "\"");
  // A vector dtype is suggested with its lanes ("flaot32x4" -> "float32x4").
  size_t x = name.rfind('x');
  std::string lanes;
  if (x != std::string::npos && x + 1 < name.size() &&
      name.find_first_not_of("0123456789", x + 1) == std::string::npos)
    lanes = name.substr(x);
  std::string best =
      ir::closest_match(name.substr(0, name.size() - lanes.size()), DataType::scalar_names());
  if (!best.empty()) d.note("did you mean \"" + best + lanes + "\"?");
  return std::nullopt;
}

std::optional<int64_t> Frontend::to_int(const Value& v) {
  if (v.is_error()) return std::nullopt;
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) return v.as_bool() ? 1 : 0;
  if (auto imm = v.as<ir::tir::IntImm>()) return imm->value;
  error("E0218", v.span(), "expected an integer, got " + v.describe());
  return std::nullopt;
}

std::optional<std::string> Frontend::to_string(const Value& v) {
  if (v.is_error()) return std::nullopt;
  if (v.is_string()) return v.as_string();
  if (auto s = v.as<ir::StringImm>()) return s->value;
  if (auto s = v.as<ir::tir::StringImm>()) return s->value;
  error("E0219", v.span(), "expected a string, got " + v.describe());
  return std::nullopt;
}

std::optional<bool> Frontend::to_bool(const Value& v) {
  if (v.is_error()) return std::nullopt;
  if (v.is_bool()) return v.as_bool();
  if (v.is_int() && (v.as_int() == 0 || v.as_int() == 1)) return v.as_int() == 1;
  if (auto imm = v.as<ir::tir::IntImm>(); imm && imm->dtype.is_bool()) return imm->value != 0;
  error("E0220", v.span(), "expected True or False, got " + v.describe());
  return std::nullopt;
}

namespace {
// Attribute values keep the span of the literal they came from (for diagnostics on attributes).
ir::ObjectRef with_span(ir::ObjectRef obj, ir::Span span) {
  obj->span = span;
  return obj;
}
}  // namespace

std::optional<ir::ObjectRef> Frontend::to_attr_value(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNone:
      return ir::ObjectRef();
    case Value::Kind::kBool:
      return with_span(make<ir::BoolValue>(v.as_bool()), v.span());
    case Value::Kind::kInt:
      return with_span(make<ir::IntValue>(v.as_int()), v.span());
    case Value::Kind::kFloat:
      return with_span(make<ir::FloatValue>(v.as_float()), v.span());
    case Value::Kind::kString:
      return with_span(make<ir::StringValue>(v.as_string()), v.span());
    case Value::Kind::kTuple:
    case Value::Kind::kList: {
      auto arr = make<ir::ArrayValue>();
      for (const Value& item : v.items()) {
        auto o = to_attr_value(item);
        if (!o) return std::nullopt;
        arr->items.push_back(std::move(*o));
      }
      arr->span = v.span();
      return ir::ObjectRef(arr);
    }
    case Value::Kind::kDict: {
      auto map = make<ir::MapValue>();
      for (const auto& [k, val] : v.entries()) {
        auto key = to_attr_value(k);
        auto value = to_attr_value(val);
        if (!key || !value) return std::nullopt;
        map->entries.emplace_back(std::move(*key), std::move(*value));
      }
      map->span = v.span();
      return ir::ObjectRef(map);
    }
    case Value::Kind::kObject:
      return v.object();
    case Value::Kind::kError:
      return std::nullopt;
    default:
      break;
  }
  error("E0221", v.span(), v.describe() + " cannot be used as an attribute value");
  return std::nullopt;
}

std::optional<std::vector<Value>> Frontend::to_sequence(const Value& v, std::string_view what) {
  if (v.is_error()) return std::nullopt;
  if (v.is_sequence()) return v.items();
  error("E0222", v.span(),
        "expected a tuple or list for " + std::string(what) + ", got " + v.describe());
  return std::nullopt;
}

}  // namespace relax::syntax

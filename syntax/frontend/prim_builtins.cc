// Shared T.* PrimExpr builtins.
#include "syntax/frontend/prim_builtins.h"

#include <cmath>
#include <limits>

#include "syntax/frontend/prim_ops.h"

namespace relax::syntax {

using ir::DataType;
using ir::make;
using ir::ObjectKind;
using ir::Ref;
using namespace ir::tir;

std::optional<DataType> dtype_of_constructor(std::string_view name) {
  if (!name.starts_with("T.")) return std::nullopt;
  name.remove_prefix(2);
  static const std::pair<std::string_view, std::string_view> kShort[] = {
      {"f16", "float16"}, {"f32", "float32"}, {"f64", "float64"}, {"bf16", "bfloat16"},
      {"i8", "int8"},     {"i16", "int16"},   {"i32", "int32"},   {"i64", "int64"},
      {"u8", "uint8"},    {"u16", "uint16"},  {"u32", "uint32"},  {"u64", "uint64"},
  };
  for (const auto& [s, full] : kShort) {
    if (name == s) return DataType::parse(full);
  }
  if (name == "void" || name == "handle") return std::nullopt;  // not value constructors
  return DataType::parse(name);
}

Value call_dtype_constructor(Frontend& fe, const CallArgs& call, DataType dtype) {
  ir::Span span = call.span();
  if (call.args.empty() && call.kwargs.empty()) {
    // `n = T.int64()`: a fresh variable; the assignment gives it its name.
    auto var = make<Var>("", dtype);
    var->span = span;
    return Value::object(var, span);
  }
  ArgBinder args(fe, call, {"expr=", "is_size_var="});
  if (!args.ok()) return Value::error(span);
  const Value* v = args.get("expr");
  if (!v) {
    // `T.int64(is_size_var=True)` declares a size variable (non-negative).
    auto var = make<Var>("", dtype);
    var->span = span;
    if (const Value* size = args.get("is_size_var")) {
      auto flag = fe.to_bool(*size);
      if (!flag) return Value::error(span);
      var->is_size_var = *flag;
    }
    return Value::object(var, span);
  }
  if (v->is_error()) return *v;
  if (v->is_string()) {
    const std::string& s = v->as_string();
    double d;
    if (s == "inf")
      d = std::numeric_limits<double>::infinity();
    else if (s == "-inf")
      d = -std::numeric_limits<double>::infinity();
    else if (s == "nan")
      d = std::numeric_limits<double>::quiet_NaN();
    else if (s == "-nan")
      d = -std::numeric_limits<double>::quiet_NaN();
    else {
      fe.error("E0240", v->span(),
               "T." + dtype.str() + "(\"" + s +
                   "\"): only \"inf\", \"-inf\" and \"nan\" are accepted as strings");
      return Value::error(span);
    }
    return Value::object(float_imm(dtype, d, span), span);
  }
  if (v->is_bool()) {
    if (dtype.is_floating())
      return Value::object(float_imm(dtype, v->as_bool() ? 1.0 : 0.0, span), span);
    return Value::object(int_imm(dtype, v->as_bool() ? 1 : 0, span), span);
  }
  if (v->is_int()) {
    if (dtype.is_floating())
      return Value::object(float_imm(dtype, static_cast<double>(v->as_int()), span), span);
    if (dtype.is_bool()) return Value::object(int_imm(dtype, v->as_int() != 0, span), span);
    return Value::object(int_imm(dtype, v->as_int(), span), span);
  }
  if (v->is_float()) {
    // TVM keeps the Python float (a double) in the immediate, whatever the dtype's width.
    if (dtype.is_floating()) return Value::object(float_imm(dtype, v->as_float(), span), span);
    return Value::object(prim_cast(dtype, float_imm(DataType::Float32(), v->as_float()), span),
                         span);
  }
  Ref<PrimExpr> e = fe.to_prim_expr(*v);
  if (!e) return Value::error(span);
  return Value::object(prim_cast(dtype, e, span), span);
}

Builtin dropping_dtype_keyword(Builtin inner) {
  return [inner = std::move(inner)](Frontend& fe, const CallArgs& call) -> Value {
    size_t at = call.kwargs.size();
    for (size_t i = 0; i < call.kwargs.size(); ++i) {
      if (call.kwargs[i].first == "dtype") {
        at = i;
        break;
      }
    }
    if (at == call.kwargs.size()) return inner(fe, call);
    CallArgs rest = call;
    rest.kwargs.erase(rest.kwargs.begin() + static_cast<std::ptrdiff_t>(at));
    rest.kwarg_nodes.erase(rest.kwarg_nodes.begin() + static_cast<std::ptrdiff_t>(at));
    auto dtype = fe.to_dtype(call.kwargs[at].second);
    Value out = inner(fe, rest);
    if (!dtype) return Value::error(call.span());
    if (auto e = out.as<PrimExpr>(); e && e->dtype != *dtype) {
      fe.warning("W0602", call.kwarg_nodes[at].span(),
                 "`" + call.name + "` ignores `dtype=\"" + dtype->str() +
                     "\"` (TVMScript drops it); the result is " + e->dtype.str());
    }
    return out;
  };
}

namespace {

using Handler = Value (*)(Frontend&, const CallArgs&);

// Two PrimExpr arguments, with Python numbers converted as TVMScript converts them.
bool two_prims(Frontend& fe, const CallArgs& call, Ref<PrimExpr>& a, Ref<PrimExpr>& b) {
  ArgBinder args(fe, call, {"a", "b"});
  if (!args.ok()) return false;
  const Value& va = *args.get("a");
  const Value& vb = *args.get("b");
  a = va.as<PrimExpr>();
  b = vb.as<PrimExpr>();
  if (!a && b && va.is_int()) a = literal_like(va.as_int(), b->dtype, va.span());
  if (!b && a && vb.is_int()) b = literal_like(vb.as_int(), a->dtype, vb.span());
  if (!a) a = fe.to_prim_expr(va);
  if (!b) b = fe.to_prim_expr(vb);
  return a && b;
}

template <ObjectKind kKind>
Value folding_binary(Frontend& fe, const CallArgs& call) {
  Ref<PrimExpr> a, b;
  if (!two_prims(fe, call, a, b)) return Value::error(call.span());
  bool overflowed = false;
  Ref<PrimExpr> out = prim_arith(kKind, a, b, call.span(), &overflowed);
  if (!out) {
    fe.error("E0241", call.node,
             call.name + ": operand types " + a->dtype.str() + " and " + b->dtype.str() +
                 " do not match");
    return Value::error(call.span());
  }
  // As for the operators: constants whose exact result leaves the dtype (INT64_MIN // -1) are an
  // error, never a wrapped value or a kernel that traps.
  if (overflowed) {
    auto text = [](const Ref<PrimExpr>& e) {
      auto c = as_const_int(e);
      return c ? std::to_string(*c) : std::string("?");
    };
    fe.error("E0249", call.node,
             "integer overflow: " + call.name + "(" + text(a) + ", " + text(b) +
                 ") does not fit in " + out->dtype.str());
    return Value::error(call.span());
  }
  return Value::object(out, call.span());
}

// `T.Add(a, b)` and friends: the node itself, without folding (operands must agree).
template <ObjectKind kKind>
Value raw_binary(Frontend& fe, const CallArgs& call) {
  Ref<PrimExpr> a, b;
  if (!two_prims(fe, call, a, b)) return Value::error(call.span());
  if (a->dtype != b->dtype) {
    fe.error(
        "E0241", call.node,
        call.name + ": operand types " + a->dtype.str() + " and " + b->dtype.str() + " differ");
    return Value::error(call.span());
  }
  return Value::object(binary(kKind, a, b, call.span()), call.span());
}

Value ceildiv(Frontend& fe, const CallArgs& call) {
  Ref<PrimExpr> a, b;
  if (!two_prims(fe, call, a, b)) return Value::error(call.span());
  // ceildiv(a, b) = floordiv(a + b - 1, b), as TVM defines it.
  Ref<PrimExpr> num = prim_arith(ObjectKind::kSub, prim_arith(ObjectKind::kAdd, a, b),
                                 literal_like(int64_t{1}, a->dtype));
  Ref<PrimExpr> out = num ? prim_arith(ObjectKind::kFloorDiv, num, b, call.span()) : nullptr;
  if (!out) return Value::error(call.span());
  return Value::object(out, call.span());
}

Value cast(Frontend& fe, const CallArgs& call, bool dtype_first) {
  ArgBinder args(fe, call,
                 dtype_first ? std::initializer_list<std::string_view>{"dtype", "value"}
                             : std::initializer_list<std::string_view>{"value", "dtype"});
  if (!args.ok()) return Value::error(call.span());
  auto dtype = fe.to_dtype(*args.get("dtype"));
  Ref<PrimExpr> value = fe.to_prim_expr(*args.get("value"));
  if (!dtype || !value) return Value::error(call.span());
  // T.Cast always builds a Cast node (the printer's form); T.cast folds immediates.
  if (dtype_first) {
    auto node = make<Cast>(*dtype, value);
    node->span = call.span();
    return Value::object(node, call.span());
  }
  return Value::object(prim_cast(*dtype, value, call.span()), call.span());
}

Value select(Frontend& fe, const CallArgs& call, bool lazy) {
  ArgBinder args(fe, call, {"condition", "true_value", "false_value"});
  if (!args.ok()) return Value::error(call.span());
  Ref<PrimExpr> c = fe.to_prim_expr(*args.get("condition"));
  const Value& vt = *args.get("true_value");
  const Value& vf = *args.get("false_value");
  Ref<PrimExpr> t = vt.as<PrimExpr>(), f = vf.as<PrimExpr>();
  if (!t && f && vt.is_python_number() && !vt.is_bool())
    t = vt.is_int() ? literal_like(vt.as_int(), f->dtype) : literal_like(vt.as_float(), f->dtype);
  if (!f && t && vf.is_python_number() && !vf.is_bool())
    f = vf.is_int() ? literal_like(vf.as_int(), t->dtype) : literal_like(vf.as_float(), t->dtype);
  if (!t) t = fe.to_prim_expr(vt);
  if (!f) f = fe.to_prim_expr(vf);
  if (!c || !t || !f) return Value::error(call.span());
  if (lazy) {
    // TVM's if_then_else matches the branch types and folds a constant condition.
    if (t->dtype != f->dtype && !prim_match_types(t, f)) {
      fe.error("E0241", call.node,
               "T.if_then_else: branch types " + t->dtype.str() + " and " + f->dtype.str() +
                   " do not match");
      return Value::error(call.span());
    }
    if (auto imm = c.as_ptr<IntImm>()) return Value::object(imm->value ? t : f, call.span());
    auto node = make<Call>(t->dtype, "tir.if_then_else", std::vector<Ref<PrimExpr>>{c, t, f});
    node->span = call.span();
    return Value::object(node, call.span());
  }
  auto node = make<Select>(c, t, f);
  node->span = call.span();
  return Value::object(node, call.span());
}

}  // namespace

void register_prim_builtins(Frontend& fe) {
  for (const char* name :
       {"bool",        "int8",   "int16",   "int32",   "int64",   "uint8",    "uint16",
        "uint32",      "uint64", "float16", "float32", "float64", "bfloat16", "float8_e4m3fn",
        "float8_e5m2", "f16",    "f32",     "f64",     "bf16",    "i8",       "i16",
        "i32",         "i64",    "u8",      "u16",     "u32",     "u64"}) {
    std::string full = std::string("T.") + name;
    fe.register_builtin(full, [full](Frontend& fe, const CallArgs& call) {
      return call_dtype_constructor(fe, call, *dtype_of_constructor(full));
    });
  }
  // T.Var(name, dtype) and T.SizeVar(name, dtype): a variable with its name given.
  for (bool size_var : {false, true}) {
    fe.register_builtin(size_var ? "T.SizeVar" : "T.Var",
                        [size_var](Frontend& fe, const CallArgs& call) -> Value {
                          ArgBinder args(fe, call, {"name", "dtype"});
                          if (!args.ok()) return Value::error(call.span());
                          auto name = fe.to_string(*args.get("name"));
                          auto dtype = fe.to_dtype(*args.get("dtype"));
                          if (!name || !dtype) return Value::error(call.span());
                          auto var = make<Var>(*name, *dtype);
                          var->is_size_var = size_var;
                          var->span = call.span();
                          fe.add_unbound_var(var);
                          return Value::object(var, call.span());
                        });
  }
  fe.register_builtin("T.Cast",
                      [](Frontend& fe, const CallArgs& call) { return cast(fe, call, true); });
  fe.register_builtin("T.cast",
                      [](Frontend& fe, const CallArgs& call) { return cast(fe, call, false); });
  fe.register_builtin("T.max", folding_binary<ObjectKind::kMax>);
  fe.register_builtin("T.min", folding_binary<ObjectKind::kMin>);
  fe.register_builtin("T.floordiv", dropping_dtype_keyword(folding_binary<ObjectKind::kFloorDiv>));
  fe.register_builtin("T.floormod", dropping_dtype_keyword(folding_binary<ObjectKind::kFloorMod>));
  fe.register_builtin("T.truncdiv", dropping_dtype_keyword(folding_binary<ObjectKind::kDiv>));
  fe.register_builtin("T.truncmod", dropping_dtype_keyword(folding_binary<ObjectKind::kMod>));
  fe.register_builtin("T.ceildiv", dropping_dtype_keyword(ceildiv));
  fe.register_builtin("T.Add", raw_binary<ObjectKind::kAdd>);
  fe.register_builtin("T.Sub", raw_binary<ObjectKind::kSub>);
  fe.register_builtin("T.Mul", raw_binary<ObjectKind::kMul>);
  fe.register_builtin("T.Div", raw_binary<ObjectKind::kDiv>);
  fe.register_builtin("T.Mod", raw_binary<ObjectKind::kMod>);
  fe.register_builtin("T.FloorDiv", raw_binary<ObjectKind::kFloorDiv>);
  fe.register_builtin("T.FloorMod", raw_binary<ObjectKind::kFloorMod>);
  fe.register_builtin("T.Min", raw_binary<ObjectKind::kMin>);
  fe.register_builtin("T.Max", raw_binary<ObjectKind::kMax>);
  fe.register_builtin("T.EQ", raw_binary<ObjectKind::kEQ>);
  fe.register_builtin("T.NE", raw_binary<ObjectKind::kNE>);
  fe.register_builtin("T.LT", raw_binary<ObjectKind::kLT>);
  fe.register_builtin("T.LE", raw_binary<ObjectKind::kLE>);
  fe.register_builtin("T.GT", raw_binary<ObjectKind::kGT>);
  fe.register_builtin("T.GE", raw_binary<ObjectKind::kGE>);
  fe.register_builtin("T.And", raw_binary<ObjectKind::kAnd>);
  fe.register_builtin("T.Or", raw_binary<ObjectKind::kOr>);
  fe.register_builtin("T.Not", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {"a"});
    if (!args.ok()) return Value::error(call.span());
    Ref<PrimExpr> a = fe.to_prim_expr(*args.get("a"));
    if (!a) return Value::error(call.span());
    return Value::object(make<Not>(a), call.span());
  });
  fe.register_builtin("T.Select",
                      [](Frontend& fe, const CallArgs& call) { return select(fe, call, false); });
  fe.register_builtin("T.if_then_else",
                      dropping_dtype_keyword([](Frontend& fe, const CallArgs& call) {
                        return select(fe, call, true);
                      }));
}

}  // namespace relax::syntax

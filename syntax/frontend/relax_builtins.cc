// The R.* expression builtins: constants, shapes, prim values, tuples, generic op calls (any
// unknown `R.x(...)` becomes a call of op "relax.x" with positional args and keyword attrs), the
// call_tir / packed-call family with their struct-info arguments, R.print / R.assert_op, device
// hints, metadata references, and Python operators and methods on Relax expressions.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "syntax/frontend/relax_frontend.h"
#include "syntax/metadata.h"

namespace relax::syntax::relax_fe {

using ir::DataType;
using ir::make;

namespace {

template <class T>
Ref<T> with_span(Ref<T> node, ir::Span span) {
  node->span = span;
  return node;
}

Value expr_value(Ref<ir::Expr> e, ir::Span span) {
  if (!e) return Value::error(span);
  if (!e->span.is_known()) e->span = span;
  return Value::object(e, span);
}

// --- Constants -----------------------------------------------------------------------------------

uint16_t float_to_half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t exp = (x >> 23) & 0xFF;
  uint32_t mant = x & 0x7FFFFF;
  if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00 | (mant ? 0x200 : 0));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 0x1F) return static_cast<uint16_t>(sign | 0x7C00);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    int shift = 14 - e;
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;
  return static_cast<uint16_t>(half);
}

uint16_t float_to_bfloat16_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  uint32_t rounding = 0x7FFF + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

template <class T>
void append_bytes(std::vector<uint8_t>& out, T v) {
  uint8_t buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out.insert(out.end(), buf, buf + sizeof(T));
}

// `v` as a message writes it: 17 significant digits, "nan", "inf".
std::string float_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Appends one element of `dtype` made from a Python number (or "inf"/"nan" string).
bool append_element(Frontend& fe, const Value& v, DataType dtype, std::vector<uint8_t>& out) {
  double d = 0;
  int64_t i = 0;
  bool is_int = false;
  if (v.is_bool()) {
    i = v.as_bool();
    d = static_cast<double>(i);
    is_int = true;
  } else if (v.is_int()) {
    i = v.as_int();
    d = static_cast<double>(i);
    is_int = true;
  } else if (v.is_float()) {
    d = v.as_float();
  } else if (v.is_string() &&
             (v.as_string() == "inf" || v.as_string() == "-inf" || v.as_string() == "nan")) {
    const std::string& s = v.as_string();
    d = s == "nan" ? std::numeric_limits<double>::quiet_NaN()
                   : (s == "inf" ? std::numeric_limits<double>::infinity()
                                 : -std::numeric_limits<double>::infinity());
  } else {
    if (!v.is_error())
      fe.error(codes::kConst, v.span(),
               "R.const takes numbers or nested lists of numbers, got " + v.describe());
    return false;
  }
  if (dtype.is_bool()) {
    out.push_back((is_int ? i != 0 : d != 0.0) ? 1 : 0);
  } else if (dtype.is_int() || dtype.is_uint()) {
    if (!is_int) {
      // A float element of an integer constant converts by truncation, as numpy's astype does;
      // one that the dtype cannot hold (or nan, inf) has no value there (and converting it
      // would be undefined behaviour).
      int bits = dtype.bits() > 0 && dtype.bits() < 64 ? dtype.bits() : 64;
      double lo = dtype.is_uint() ? 0.0 : -std::ldexp(1.0, bits - 1);
      double hi = std::ldexp(1.0, dtype.is_uint() && bits < 64 ? bits : bits - 1);
      double t = std::trunc(d);
      if (!(t >= lo && t < hi)) {
        fe.error(codes::kConst, v.span(),
                 "R.const: " + float_text(d) + " does not fit in " + dtype.str());
        return false;
      }
      i = static_cast<int64_t>(t);
    }
    int64_t n = i;
    switch (dtype.bits()) {
      case 8:
        append_bytes(out, static_cast<uint8_t>(n));
        break;
      case 16:
        append_bytes(out, static_cast<uint16_t>(n));
        break;
      case 32:
        append_bytes(out, static_cast<uint32_t>(n));
        break;
      case 64:
        append_bytes(out, static_cast<uint64_t>(n));
        break;
      default:
        fe.error(codes::kConst, v.span(), "unsupported constant dtype " + dtype.str());
        return false;
    }
  } else if (dtype.is_float() && dtype.bits() == 32) {
    append_bytes(out, static_cast<float>(d));
  } else if (dtype.is_float() && dtype.bits() == 64) {
    append_bytes(out, d);
  } else if (dtype.is_float() && dtype.bits() == 16) {
    append_bytes(out, float_to_half_bits(static_cast<float>(d)));
  } else if (dtype.is_bfloat() && dtype.bits() == 16) {
    append_bytes(out, float_to_bfloat16_bits(static_cast<float>(d)));
  } else {
    fe.error(codes::kConst, v.span(),
             "constants of dtype " + dtype.str() + " cannot be written with R.const");
    return false;
  }
  return true;
}

// Flattens nested lists row-major, checking that the nesting is rectangular.
bool flatten(Frontend& fe, const Value& v, size_t depth, std::vector<int64_t>& shape,
             std::vector<Value>& out) {
  if (!v.is_sequence()) {
    if (depth != shape.size()) {
      fe.error(codes::kConst, v.span(), "R.const: the nested lists are not rectangular");
      return false;
    }
    out.push_back(v);
    return true;
  }
  int64_t n = static_cast<int64_t>(v.items().size());
  if (depth == shape.size()) {
    if (depth == static_cast<size_t>(kMaxConstantRank)) {
      fe.error(codes::kConst, v.span(),
               "R.const: more than " + std::to_string(kMaxConstantRank) +
                   " nested lists (numpy's and TVM's limit on dimensions)");
      return false;
    }
    if (!out.empty()) {
      fe.error(codes::kConst, v.span(), "R.const: the nested lists are not rectangular");
      return false;
    }
    shape.push_back(n);
  } else if (depth > shape.size() || shape[depth] != n) {
    fe.error(codes::kConst, v.span(), "R.const: the nested lists are not rectangular");
    return false;
  }
  for (const Value& item : v.items()) {
    if (!flatten(fe, item, depth + 1, shape, out)) return false;
  }
  return true;
}

Value const_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value", "dtype="});
  if (!args.ok()) return Value::error(call.span());
  const Value& value = *args.get("value");
  if (value.is_error()) return value;
  std::vector<int64_t> shape;
  std::vector<Value> elements;
  if (!flatten(fe, value, 0, shape, elements)) return Value::error(call.span());
  std::optional<DataType> dtype;
  if (const Value* d = args.get("dtype"); d && !d->is_none()) {
    dtype = fe.to_dtype(*d);
    if (!dtype) return Value::error(call.span());
  } else {
    // numpy's inference, narrowed as TVM's R.const does: ints int32, floats float32.
    bool any_float = false, all_bool = !elements.empty();
    for (const Value& e : elements) {
      any_float |= e.is_float() || e.is_string();
      all_bool &= e.is_bool();
    }
    dtype = all_bool ? DataType::Bool() : any_float ? DataType::Float32() : DataType::Int32();
  }
  auto data = std::make_shared<ir::TensorData>();
  data->dtype = *dtype;
  data->shape = shape;
  for (const Value& e : elements) {
    if (!append_element(fe, e, *dtype, data->bytes)) return Value::error(call.span());
  }
  auto c = make<ir::Constant>(data);
  return expr_value(with_span(c, call.span()), call.span());
}

// --- Helpers for call builtins -----------------------------------------------------------------

// A list, tuple or single struct info as a vector (call_packed's sinfo_args, ty_args).
std::optional<std::vector<Ref<ir::StructInfo>>> to_sinfo_list(Frontend& fe, const Value& v) {
  std::vector<Ref<ir::StructInfo>> out;
  if (v.is_none()) return out;
  std::vector<Value> items = v.is_sequence() ? v.items() : std::vector<Value>{v};
  for (const Value& item : items) {
    auto s = to_struct_info(fe, item);
    if (!s) return std::nullopt;
    out.push_back(s);
  }
  return out;
}

// call_tir's output struct info: one struct info, or a list (a tuple of outputs; a list of one
// is that one).
Ref<ir::StructInfo> to_out_sinfo(Frontend& fe, const Value& v) {
  if (v.is_sequence()) {
    auto list = to_sinfo_list(fe, v);
    if (!list) return nullptr;
    if (list->size() == 1) return (*list)[0];
    return make<ir::TupleStructInfo>(std::move(*list));
  }
  return to_struct_info(fe, v);
}

// The callee of a packed call: a string names an extern function.
Ref<ir::Expr> packed_callee(Frontend& fe, const Value& v) {
  if (v.is_string()) return with_span(make<ir::ExternFunc>(v.as_string()), v.span());
  return to_expr(fe, v, "the packed function");
}

// Wraps a non-tuple argument of the call_tir family into a one-element tuple.
Ref<ir::Expr> as_args_tuple(Frontend& fe, const Value& v) {
  Ref<ir::Expr> e = to_expr(fe, v, "the arguments");
  if (!e) return nullptr;
  if (e.is<ir::Tuple>()) return e;
  return with_span(make<ir::Tuple>(std::vector<Ref<ir::Expr>>{e}), v.span());
}

Ref<ir::Expr> to_tir_vars(Frontend& fe, const Value& v) {
  if (auto se = v.as<ir::ShapeExpr>()) return se;
  if (v.is_sequence()) {
    auto dims = to_dims(fe, v, "tir_vars");
    if (!dims) return nullptr;
    return with_span(make<ir::ShapeExpr>(std::move(*dims)), v.span());
  }
  if (auto e = v.as<ir::Expr>()) return e;
  fe.error(codes::kCall, v.span(),
           "tir_vars must be R.shape([...]) or a list of symbolic values, got " + v.describe());
  return nullptr;
}

std::optional<ir::ObjectRef> to_index_list(Frontend& fe, const Value& v) {
  std::vector<Value> items = v.is_sequence() ? v.items() : std::vector<Value>{v};
  auto arr = make<ir::ArrayValue>();
  for (const Value& item : items) {
    auto i = fe.to_int(item);
    if (!i) return std::nullopt;
    arr->items.push_back(make<ir::IntValue>(*i));
  }
  return ir::ObjectRef(arr);
}

// The out struct info given as `out_sinfo=`/`out_ty=` or positionally.
Ref<ir::StructInfo> out_sinfo_arg(Frontend& fe, const CallArgs& call, const ArgBinder& args) {
  const Value* legacy = args.get("out_sinfo");
  const Value* current = args.get("out_ty");
  if (legacy && current) {
    fe.error(codes::kCall, args.node_of("out_ty"),
             "`" + call.name + "` got both out_sinfo and out_ty");
    return nullptr;
  }
  const Value* v = legacy ? legacy : current;
  if (!v) {
    fe.error(codes::kCall, call.node,
             "`" + call.name + "` is missing the output struct info (out_sinfo=)");
    return nullptr;
  }
  return to_out_sinfo(fe, *v);
}

std::optional<std::vector<Ref<ir::StructInfo>>> sinfo_args_kwarg(Frontend& fe,
                                                                 const CallArgs& call) {
  const Value* legacy = call.kwarg("sinfo_args");
  const Value* current = call.kwarg("ty_args");
  if (legacy && current) {
    fe.error(codes::kCall, call.node, "`" + call.name + "` got both sinfo_args and ty_args");
    return std::nullopt;
  }
  const Value* v = legacy ? legacy : current;
  if (!v) return std::vector<Ref<ir::StructInfo>>{};
  return to_sinfo_list(fe, *v);
}

Ref<ir::Call> make_call(const std::string& op, std::vector<Ref<ir::Expr>> args,
                        ir::Attrs attrs = {}, std::vector<Ref<ir::StructInfo>> sinfo_args = {}) {
  return make<ir::Call>(ir::Op::get(op), std::move(args), std::move(attrs), std::move(sinfo_args));
}

// --- The call_tir family -----------------------------------------------------------------------

Value call_tir_like(Frontend& fe, const CallArgs& call, const std::string& op) {
  bool inplace = op == "relax.call_tir_inplace";
  bool with_grad = op == "relax.call_tir_with_grad";
  // The parameter lists differ per op; the binder must be built in one expression (an
  // initializer_list's array lives only as long as the expression that creates it).
  auto bind = [&]() -> ArgBinder {
    if (inplace) {
      return ArgBinder(
          fe, call, {"gvar", "args", "inplace_indices", "out_sinfo=", "tir_vars=", "*", "out_ty="});
    }
    if (with_grad) {
      return ArgBinder(fe, call,
                       {"gvar", "args", "out_sinfo=", "te_grad_name=", "te_grad_kwargs=",
                        "tir_vars=", "*", "out_ty="});
    }
    return ArgBinder(fe, call, {"gvar", "args", "out_sinfo=", "tir_vars=", "*", "out_ty="});
  };
  ArgBinder args = bind();
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> callee = to_expr(fe, *args.get("gvar"), "the callee");
  // Current TVM passes symbolic arguments at the end of the args tuple (`(x, n)`); they are
  // tir_vars, as the legacy `tir_vars=R.shape([n])` spells them.
  Value args_value = *args.get("args");
  std::vector<Value> trailing_dims;
  if (args_value.is_sequence() && !args.get("tir_vars")) {
    std::vector<Value> items = args_value.items();
    while (!items.empty() && (items.back().is<PrimExpr>() || items.back().is_int())) {
      trailing_dims.insert(trailing_dims.begin(), items.back());
      items.pop_back();
    }
    args_value = Value::tuple(std::move(items), args_value.span());
  }
  Ref<ir::Expr> tuple = as_args_tuple(fe, args_value);
  Ref<ir::StructInfo> out = out_sinfo_arg(fe, call, args);
  if (!callee || !tuple || !out) return Value::error(call.span());
  std::vector<Ref<ir::Expr>> call_args{callee, tuple};
  if (!trailing_dims.empty()) {
    auto dims =
        to_dims(fe, Value::tuple(trailing_dims, args_value.span()), "the symbolic arguments");
    if (!dims) return Value::error(call.span());
    call_args.push_back(with_span(make<ir::ShapeExpr>(std::move(*dims)), args_value.span()));
  } else if (const Value* tv = args.get("tir_vars"); tv && !tv->is_none()) {
    Ref<ir::Expr> vars = to_tir_vars(fe, *tv);
    if (!vars) return Value::error(call.span());
    call_args.push_back(vars);
  }
  ir::Attrs attrs;
  if (inplace) {
    auto idx = to_index_list(fe, *args.get("inplace_indices"));
    if (!idx) return Value::error(call.span());
    attrs.set("inplace_indices", *idx);
  }
  if (with_grad) {
    const Value* name = args.get("te_grad_name");
    if (!name) {
      fe.error(codes::kCall, call.node, "R.call_tir_with_grad is missing te_grad_name");
      return Value::error(call.span());
    }
    auto s = fe.to_string(*name);
    if (!s) return Value::error(call.span());
    attrs.set("te_grad_name", ir::make_string(*s));
    ir::ObjectRef kw = make<ir::MapValue>();
    if (const Value* k = args.get("te_grad_kwargs"); k && !k->is_none()) {
      auto v = fe.to_attr_value(*k);
      if (!v) return Value::error(call.span());
      if (!v->is<ir::MapValue>()) {
        fe.error(codes::kCall, k->span(), "te_grad_kwargs must be a dict");
        return Value::error(call.span());
      }
      kw = *v;
    }
    attrs.set("te_grad_kwargs", kw);
  }
  return expr_value(make_call(op, std::move(call_args), std::move(attrs), {out}), call.span());
}

Value call_dps_packed(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"func", "args", "out_sinfo=", "*", "out_ty="});
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> callee = packed_callee(fe, *args.get("func"));
  Ref<ir::Expr> tuple = as_args_tuple(fe, *args.get("args"));
  Ref<ir::StructInfo> out = out_sinfo_arg(fe, call, args);
  if (!callee || !tuple || !out) return Value::error(call.span());
  return expr_value(make_call("relax.call_dps_packed", {callee, tuple}, {}, {out}), call.span());
}

// call_packed / call_pure_packed / call_inplace_packed: a function name then any arguments.
Value packed_call(Frontend& fe, const CallArgs& call, const std::string& op) {
  if (call.args.empty()) {
    fe.error(codes::kCall, call.node, "`" + call.name + "` needs the packed function's name first");
    return Value::error(call.span());
  }
  Ref<ir::Expr> callee = packed_callee(fe, call.args[0]);
  if (!callee) return Value::error(call.span());
  std::vector<Ref<ir::Expr>> rest;
  for (size_t i = 1; i < call.args.size(); ++i) {
    Ref<ir::Expr> e = to_expr(fe, call.args[i], "an argument");
    if (!e) return Value::error(call.span());
    rest.push_back(e);
  }
  auto sinfo = sinfo_args_kwarg(fe, call);
  if (!sinfo) return Value::error(call.span());
  ir::Attrs attrs;
  bool inplace = op == "relax.call_inplace_packed";
  for (size_t k = 0; k < call.kwargs.size(); ++k) {
    const auto& [key, value] = call.kwargs[k];
    if (key == "sinfo_args" || key == "ty_args") continue;
    if (inplace && key == "inplace_indices") {
      auto idx = to_index_list(fe, value);
      if (!idx) return Value::error(call.span());
      attrs.set(key, *idx);
      continue;
    }
    if (op == "relax.call_packed") {
      // Extra keywords of a packed call are the call's attributes (TVM keeps them in a
      // DictAttrs and prints them back as keywords).
      auto a = fe.to_attr_value(value);
      if (!a) return Value::error(call.span());
      attrs.set(key, *a);
      continue;
    }
    fe.error(codes::kCall, call.kwarg_nodes[k],
             "`" + call.name + "` got an unexpected keyword argument `" + key + "`");
    return Value::error(call.span());
  }
  if (inplace && !attrs.contains("inplace_indices")) {
    fe.error(codes::kCall, call.node, "R.call_inplace_packed is missing inplace_indices");
    return Value::error(call.span());
  }
  if (op == "relax.call_packed") {
    // The callee is the extern function itself.
    return expr_value(make<ir::Call>(callee, std::move(rest), std::move(attrs), std::move(*sinfo)),
                      call.span());
  }
  rest.insert(rest.begin(), callee);
  return expr_value(make_call(op, std::move(rest), std::move(attrs), std::move(*sinfo)),
                    call.span());
}

Value call_builtin_with_ctx(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"func", "args", "*", "sinfo_args=", "ty_args="});
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> callee = packed_callee(fe, *args.get("func"));
  Ref<ir::Expr> tuple = as_args_tuple(fe, *args.get("args"));
  auto sinfo = sinfo_args_kwarg(fe, call);
  if (!callee || !tuple || !sinfo) return Value::error(call.span());
  return expr_value(
      make_call("relax.call_builtin_with_ctx", {callee, tuple}, {}, std::move(*sinfo)),
      call.span());
}

Ref<ir::StringImm> format_arg(Frontend& fe, const CallArgs& call) {
  const Value* f = call.kwarg("format");
  if (!f) return make<ir::StringImm>("");
  if (auto s = f->as<ir::StringImm>()) return s;
  auto s = fe.to_string(*f);
  if (!s) return nullptr;
  return with_span(make<ir::StringImm>(*s), f->span());
}

Value print_builtin(Frontend& fe, const CallArgs& call) {
  for (size_t k = 0; k < call.kwargs.size(); ++k) {
    if (call.kwargs[k].first != "format") {
      fe.error(codes::kCall, call.kwarg_nodes[k],
               "R.print got an unexpected keyword argument `" + call.kwargs[k].first + "`");
      return Value::error(call.span());
    }
  }
  Ref<ir::StringImm> format = format_arg(fe, call);
  if (!format) return Value::error(call.span());
  std::vector<Ref<ir::Expr>> args{format};
  for (const Value& v : call.args) {
    Ref<ir::Expr> e = to_expr(fe, v, "a value to print");
    if (!e) return Value::error(call.span());
    args.push_back(e);
  }
  return expr_value(make_call("relax.print", std::move(args)), call.span());
}

Value assert_builtin(Frontend& fe, const CallArgs& call) {
  for (size_t k = 0; k < call.kwargs.size(); ++k) {
    const std::string& key = call.kwargs[k].first;
    if (key != "format" && key != "format_args" && key != "condition") {
      fe.error(codes::kCall, call.kwarg_nodes[k],
               "R.assert_op got an unexpected keyword argument `" + key + "`");
      return Value::error(call.span());
    }
  }
  std::vector<Value> positional = call.args;
  if (const Value* c = call.kwarg("condition")) positional.insert(positional.begin(), *c);
  if (positional.empty()) {
    fe.error(codes::kCall, call.node, "R.assert_op is missing the condition");
    return Value::error(call.span());
  }
  Ref<ir::Expr> cond;
  const Value& cv = positional[0];
  if (cv.is_bool()) {
    auto data = std::make_shared<ir::TensorData>();
    data->dtype = DataType::Bool();
    data->bytes.push_back(cv.as_bool() ? 1 : 0);
    cond = with_span(make<ir::Constant>(data), cv.span());
  } else {
    cond = to_expr(fe, cv, "the condition");
  }
  Ref<ir::StringImm> format = format_arg(fe, call);
  if (!cond || !format) return Value::error(call.span());
  std::vector<Ref<ir::Expr>> args{cond, format};
  std::vector<Value> format_args(positional.begin() + 1, positional.end());
  if (const Value* fa = call.kwarg("format_args")) format_args.push_back(*fa);
  if (format_args.size() == 1 && format_args[0].is_sequence()) format_args = format_args[0].items();
  for (const Value& v : format_args) {
    if (v.is_none()) continue;
    Ref<ir::Expr> e = to_expr(fe, v, "a format argument");
    if (!e) return Value::error(call.span());
    args.push_back(e);
  }
  return expr_value(make_call("relax.assert_op", std::move(args)), call.span());
}

// `R.device(dev_type=1, dev_id=0)`, the device of R.hint_on_device, kept as its arguments.
Value device_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"dev_type", "dev_id=", "**"});
  if (!args.ok()) return Value::error(call.span());
  ir::Attrs kwargs;
  for (const char* key : {"dev_type", "dev_id"}) {
    if (const Value* v = args.get(key)) {
      auto a = fe.to_attr_value(*v);
      if (!a) return Value::error(call.span());
      kwargs.set(key, *a);
    }
  }
  for (const auto& [k, v] : args.extra_kwargs()) {
    auto a = fe.to_attr_value(v);
    if (!a) return Value::error(call.span());
    kwargs.set(k, *a);
  }
  auto dev = make<ir::OpaqueCall>("R.device", std::vector<ir::ObjectRef>{}, std::move(kwargs));
  return Value::object(with_span(dev, call.span()), call.span());
}

// `tvm.cpu(0)`, `tvm.cuda(1)`, `R.cuda()`, `tvm.device("cuda", 1)`: a device, as R.device
// writes it (the DLPack device type codes of TVM's runtime).
constexpr std::pair<const char*, int64_t> kDeviceTypes[] = {
    {"cpu", 1}, {"llvm", 1},   {"c", 1},      {"cuda", 2},  {"nvptx", 2},
    {"cl", 4},  {"opencl", 4}, {"vulkan", 7}, {"metal", 8}, {"rocm", 10},
};
// The device constructors of `tvm` (tvm.runtime's cpu, cuda, ...); R re-exports cpu and cuda.
constexpr std::pair<const char*, int64_t> kDeviceConstructors[] = {
    {"cpu", 1},    {"cuda", 2},   {"gpu", 2},   {"cl", 4},
    {"opencl", 4}, {"vulkan", 7}, {"metal", 8}, {"rocm", 10},
};

Value device_value(Frontend& fe, const CallArgs& call, int64_t dev_type, const Value* dev_id) {
  int64_t id = 0;
  if (dev_id) {
    auto i = fe.to_int(*dev_id);
    if (!i) return Value::error(call.span());
    id = *i;
  }
  ir::Attrs kwargs;
  kwargs.set("dev_type", make<ir::IntValue>(dev_type));
  kwargs.set("dev_id", make<ir::IntValue>(id));
  auto dev = make<ir::OpaqueCall>("R.device", std::vector<ir::ObjectRef>{}, std::move(kwargs));
  return Value::object(with_span(dev, call.span()), call.span());
}

// tvm.cpu(dev_id=0), tvm.cuda(1), ...
Value device_constructor(Frontend& fe, const CallArgs& call, int64_t dev_type) {
  ArgBinder args(fe, call, {"dev_id="});
  if (!args.ok()) return Value::error(call.span());
  return device_value(fe, call, dev_type, args.get("dev_id"));
}

// tvm.device("cuda", 1) or tvm.device(2, 1); a type string may carry options ("cuda -arch=...").
Value tvm_device(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"dev_type", "dev_id="});
  if (!args.ok()) return Value::error(call.span());
  const Value& t = *args.get("dev_type");
  std::optional<int64_t> dev_type;
  if (t.is_string()) {
    std::string name = t.as_string().substr(0, t.as_string().find(' '));
    for (const auto& [n, code] : kDeviceTypes) {
      if (name == n) dev_type = code;
    }
    if (!dev_type) {
      fe.error(codes::kCall, t.span(), "unknown device type \"" + t.as_string() + "\"");
      return Value::error(call.span());
    }
  } else {
    dev_type = fe.to_int(t);
    if (!dev_type) return Value::error(call.span());
  }
  return device_value(fe, call, *dev_type, args.get("dev_id"));
}

Value hint_on_device(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"data", "dst_vdevice"});
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> data = to_expr(fe, *args.get("data"), "the data");
  auto dev = args.get("dst_vdevice")->as<ir::OpaqueCall>();
  if (!dev || dev->callee != "R.device") {
    fe.error(codes::kCall, args.node_of("dst_vdevice"),
             "R.hint_on_device takes a device written R.device(dev_type=..., dev_id=...)");
    return Value::error(call.span());
  }
  if (!data) return Value::error(call.span());
  return expr_value(make_call("relax.hint_on_device", {data}, dev->kwargs), call.span());
}

Value to_vdevice(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"data", "dst_vdevice"});
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> data = to_expr(fe, *args.get("data"), "the data");
  const Value& dv = *args.get("dst_vdevice");
  Ref<ir::VDevice> vd =
      dv.is_string() ? lookup_vdevice(fe, dv.as_string(), dv.span()) : dv.as<ir::VDevice>();
  if (!vd && !dv.is_string() && !dv.is_error())
    fe.error(codes::kVDevice, dv.span(), "dst_vdevice must be a string such as \"cuda:0\"");
  if (!data || !vd) return Value::error(call.span());
  return expr_value(make_call("relax.to_vdevice", {data}, {{"dst_vdevice", vd}}), call.span());
}

// Any other `R.x(...)`: the op "relax.x"; keyword arguments are its attributes, in order.
Value generic_op(Frontend& fe, const CallArgs& call) {
  std::string op = "relax." + call.name.substr(2);
  std::vector<Ref<ir::Expr>> args;
  bool ok = true;
  for (size_t i = 0; i < call.args.size(); ++i) {
    Ref<ir::Expr> e = to_expr(fe, call.args[i], "an argument of `" + call.name + "`");
    ok &= e != nullptr;
    args.push_back(e);
  }
  auto sinfo = sinfo_args_kwarg(fe, call);
  ok &= sinfo.has_value();
  ir::Attrs attrs;
  for (size_t k = 0; k < call.kwargs.size(); ++k) {
    const auto& [key, value] = call.kwargs[k];
    if (key == "sinfo_args" || key == "ty_args") continue;
    // An absent dtype attribute is "void" (legacy spelling) or None (current spelling).
    if (value.is_none() && key.ends_with("dtype")) {
      attrs.set(key, ir::make_string("void"));
      continue;
    }
    if (value.is_lambda()) {
      // A callable attribute is an index map (R.layout_transform's `index_map`, which TVM's
      // wrapper builds with IndexMap.from_func): the map T.index_map(lambda ...) makes, which is
      // also how TVM prints it.
      CallArgs map_call;
      map_call.node = call.kwarg_nodes[k];
      map_call.name = "T.index_map";
      map_call.args.push_back(value);
      map_call.arg_nodes.push_back(call.kwarg_nodes[k]);
      Value m = fe.call_builtin(map_call);
      if (m.is_error()) {
        ok = false;
        continue;
      }
      attrs.set(key, m.object());
      continue;
    }
    auto a = fe.to_attr_value(value);
    if (!a) {
      ok = false;
      continue;
    }
    attrs.set(key, *a);
  }
  if (!ok) return Value::error(call.span());
  return expr_value(make_call(op, std::move(args), std::move(attrs), std::move(*sinfo)),
                    call.span());
}

// --- Small constructors ------------------------------------------------------------------------

Value shape_expr(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value"});
  if (!args.ok()) return Value::error(call.span());
  auto dims = to_dims(fe, *args.get("value"), "R.shape");
  if (!dims) return Value::error(call.span());
  return expr_value(make<ir::ShapeExpr>(std::move(*dims)), call.span());
}

Value prim_value(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value"});
  if (!args.ok()) return Value::error(call.span());
  const Value& v = *args.get("value");
  Ref<PrimExpr> p;
  if (v.is_int())
    p = ir::tir::int_imm(DataType::Int64(), v.as_int(), v.span());
  else if (v.is_float())
    p = ir::tir::float_imm(DataType::Float(64), v.as_float(), v.span());
  else if (v.is_bool())
    p = ir::tir::int_imm(DataType::Bool(), v.as_bool(), v.span());
  else if (v.is_error())
    return v;
  else
    p = v.as<PrimExpr>();
  if (!p) {
    fe.error(codes::kCall, v.span(),
             "R.prim_value takes a number or a PrimExpr, got " + v.describe());
    return Value::error(call.span());
  }
  return expr_value(make<ir::PrimValue>(p), call.span());
}

Value string_imm(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value"});
  if (!args.ok()) return Value::error(call.span());
  auto s = fe.to_string(*args.get("value"));
  if (!s) return Value::error(call.span());
  return expr_value(make<ir::StringImm>(*s), call.span());
}

Value dtype_imm(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value"});
  if (!args.ok()) return Value::error(call.span());
  auto t = fe.to_dtype(*args.get("value"));
  if (!t) return Value::error(call.span());
  return expr_value(make<ir::DataTypeImm>(*t), call.span());
}

Value tuple_expr(Frontend& fe, const CallArgs& call) {
  if (!call.kwargs.empty()) {
    fe.error(codes::kCall, call.kwarg_nodes[0], "R.tuple takes no keyword arguments");
    return Value::error(call.span());
  }
  std::vector<Ref<ir::Expr>> fields;
  for (const Value& v : call.args) {
    Ref<ir::Expr> e = to_expr(fe, v, "a tuple field");
    if (!e) return Value::error(call.span());
    fields.push_back(e);
  }
  return expr_value(make<ir::Tuple>(std::move(fields)), call.span());
}

Value tuple_get_item(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"tuple", "index"});
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> t = to_expr(fe, *args.get("tuple"), "the tuple");
  auto i = fe.to_int(*args.get("index"));
  if (!t || !i) return Value::error(call.span());
  return expr_value(make<ir::TupleGetItem>(t, static_cast<int>(*i)), call.span());
}

Value extern_func(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"global_symbol", "struct_info="});
  if (!args.ok()) return Value::error(call.span());
  auto s = fe.to_string(*args.get("global_symbol"));
  if (!s) return Value::error(call.span());
  auto f = make<ir::ExternFunc>(*s);
  if (const Value* si = args.get("struct_info"); si && !si->is_none()) {
    f->struct_info = to_struct_info(fe, *si);
    if (!f->struct_info) return Value::error(call.span());
  }
  return expr_value(f, call.span());
}

Value match_cast(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value", "struct_info"});
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> value = to_expr(fe, *args.get("value"), "the value of R.match_cast");
  Ref<ir::StructInfo> sinfo = to_struct_info(fe, *args.get("struct_info"));
  if (!value || !sinfo) return Value::error(call.span());
  // A binding without its variable: the assignment that receives it completes it.
  auto mc = make<ir::MatchCast>(nullptr, value, sinfo);
  return Value::object(with_span(mc, call.span()), call.span());
}

Value statement_only(Frontend& fe, const CallArgs& call) {
  fe.error(codes::kStatement, call.node,
           "`" + call.name + "` is only allowed as a statement of a Relax function body");
  return Value::error(call.span());
}

// --- Operators and methods on Relax expressions ------------------------------------------------

Ref<ir::Expr> operand(Frontend& fe, const Value& v) {
  // A Python number next to a Relax expression becomes a constant, as TVM's operators do.
  if (v.is_python_number()) {
    auto data = std::make_shared<ir::TensorData>();
    data->dtype = v.is_bool()    ? DataType::Bool()
                  : v.is_float() ? DataType::Float32()
                                 : DataType::Int32();
    if (!append_element(fe, v, data->dtype, data->bytes)) return nullptr;
    return with_span(make<ir::Constant>(data), v.span());
  }
  return to_expr(fe, v, "an operand");
}

Builtin binary_operator(std::string op) {
  return [op](Frontend& fe, const CallArgs& call) -> Value {
    Ref<ir::Expr> a = operand(fe, call.args[0]);
    Ref<ir::Expr> b = operand(fe, call.args[1]);
    if (!a || !b) return Value::error(call.span());
    return expr_value(make_call(op, {a, b}), call.span());
  };
}

Builtin unary_operator(std::string op) {
  return [op](Frontend& fe, const CallArgs& call) -> Value {
    Ref<ir::Expr> a = operand(fe, call.args[0]);
    if (!a) return Value::error(call.span());
    if (op.empty()) return Value::object(a, call.span());
    return expr_value(make_call(op, {a}), call.span());
  };
}

Value astype_method(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"self", "dtype"});
  if (!args.ok()) return Value::error(call.span());
  Ref<ir::Expr> self = to_expr(fe, *args.get("self"), "the tensor");
  auto t = fe.to_dtype(*args.get("dtype"));
  if (!self || !t) return Value::error(call.span());
  return expr_value(make_call("relax.astype", {self}, {{"dtype", ir::make_string(t->str())}}),
                    call.span());
}

Value getitem(Frontend& fe, const CallArgs& call) {
  Ref<ir::Expr> t = to_expr(fe, call.args[0], "the tuple");
  if (!t) return Value::error(call.span());
  if (call.args.size() != 2 || !call.args[1].is_int()) {
    Node at = call.arg_nodes.size() > 1 ? call.arg_nodes[1] : call.node;
    fe.error(codes::kExpr, at, "a Relax tuple is indexed by one int literal (`t[0]`)");
    return Value::error(call.span());
  }
  int64_t i = call.args[1].as_int();
  if (auto ts = t->struct_info.as_ptr<ir::TupleStructInfo>()) {
    int64_t n = static_cast<int64_t>(ts->fields.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      fe.error(codes::kExpr, call.arg_nodes[1],
               "index " + std::to_string(call.args[1].as_int()) +
                   " is out of range for a tuple of " + std::to_string(n) + " fields");
      return Value::error(call.span());
    }
  } else if (i < 0) {
    fe.error(codes::kExpr, call.arg_nodes[1],
             "a negative index needs a tuple of known struct info");
    return Value::error(call.span());
  }
  return expr_value(make<ir::TupleGetItem>(t, static_cast<int>(i)), call.span());
}

Value call_value(Frontend& fe, const CallArgs& call) {
  Ref<ir::Expr> callee = call.args[0].as<ir::Expr>();
  if (!callee) return Value::error(call.span());
  if (!call.kwargs.empty()) {
    fe.error(codes::kCall, call.kwarg_nodes[0],
             "calls of Relax functions take positional arguments only");
    return Value::error(call.span());
  }
  std::vector<Ref<ir::Expr>> args;
  for (size_t i = 1; i < call.args.size(); ++i) {
    Ref<ir::Expr> e = to_expr(fe, call.args[i], "an argument");
    if (!e) return Value::error(call.span());
    args.push_back(e);
  }
  return expr_value(make<ir::Call>(callee, std::move(args)), call.span());
}

// `x.struct_info`: a parameter's or annotated variable's struct info as written; for a value
// only inference knows (a binding without annotation), a StructInfoOf that normalize completes.
Value struct_info_attr(Frontend&, const CallArgs& call) {
  auto e = call.args[0].as<ir::Expr>();
  if (e && e->struct_info) return Value::object(e->struct_info, call.span());
  auto of = make<ir::StructInfoOf>(e);
  of->span = call.span();
  return Value::object(of, call.span());
}

// `metadata["relax.expr.Constant"][3]`: a constant whose payload is not in the text.
Value metadata_constant(Frontend& fe, const CallArgs& call) {
  if (call.args.size() != 1 || !call.args[0].is_int()) {
    fe.error(codes::kExpr, call.node, "a metadata reference is indexed by one int");
    return Value::error(call.span());
  }
  int64_t index = call.args[0].as_int();
  switch (fe.metadata) {
    case Frontend::Metadata::kBroken:
      return Value::error(call.span());  // the section's error is the one to fix
    case Frontend::Metadata::kRead: {
      size_t n = fe.metadata_constants.size();
      if (index < 0 || static_cast<size_t>(index) >= n) {
        fe.error("E0247", call.node,
                 "metadata[\"relax.expr.Constant\"][" + std::to_string(index) +
                     "] is not in the metadata section, which holds " + std::to_string(n) +
                     (n == 1 ? " constant" : " constants"));
        return Value::error(call.span());
      }
      auto c = make<ir::Constant>(fe.metadata_constants[static_cast<size_t>(index)]);
      return expr_value(with_span(c, call.span()), call.span());
    }
    case Frontend::Metadata::kNone:
      break;
  }
  fe.opaque_metadata_refs.push_back(call.span());
  auto c = make<ir::Constant>(nullptr);
  c->metadata_index = static_cast<int>(index);
  return expr_value(with_span(c, call.span()), call.span());
}

}  // namespace

bool is_leaf(const Ref<ir::Expr>& e) {
  if (!e) return true;
  switch (e->kind()) {
    case ir::ObjectKind::kCall:
    case ir::ObjectKind::kTupleGetItem:
    case ir::ObjectKind::kIf:
    case ir::ObjectKind::kSeqExpr:
    case ir::ObjectKind::kFunction:
      return false;
    case ir::ObjectKind::kTuple:
      for (const auto& f : static_cast<const ir::Tuple&>(*e).fields) {
        if (!is_leaf(f)) return false;
      }
      return true;
    default:
      return true;
  }
}

Ref<ir::Expr> to_expr(Frontend& fe, const Value& v, std::string_view what) {
  ir::Span span = v.span();
  switch (v.kind()) {
    case Value::Kind::kError:
      return nullptr;
    case Value::Kind::kInt:
      return with_span(make<ir::PrimValue>(ir::tir::int_imm(DataType::Int64(), v.as_int(), span)),
                       span);
    case Value::Kind::kFloat:
      return with_span(
          make<ir::PrimValue>(ir::tir::float_imm(DataType::Float(64), v.as_float(), span)), span);
    case Value::Kind::kBool:
      return with_span(make<ir::PrimValue>(ir::tir::int_imm(DataType::Bool(), v.as_bool(), span)),
                       span);
    case Value::Kind::kString:
      return with_span(make<ir::StringImm>(v.as_string()), span);
    case Value::Kind::kTuple:
    case Value::Kind::kList: {
      std::vector<Ref<ir::Expr>> fields;
      for (const Value& item : v.items()) {
        Ref<ir::Expr> e = to_expr(fe, item, what);
        if (!e) return nullptr;
        fields.push_back(e);
      }
      return with_span(make<ir::Tuple>(std::move(fields)), span);
    }
    case Value::Kind::kObject: {
      if (auto e = v.as<ir::Expr>()) return e;
      if (auto p = v.as<PrimExpr>()) return with_span(make<ir::PrimValue>(p), span);
      if (v.is<ir::MatchCast>()) {
        fe.error(codes::kExpr, span, "R.match_cast(...) must be the whole right side of a binding");
        return nullptr;
      }
      break;
    }
    default:
      break;
  }
  fe.error(codes::kExpr, span,
           "expected a Relax expression for " + std::string(what) + ", got " + v.describe());
  return nullptr;
}

void register_expr_builtins(Frontend& fe) {
  fe.register_builtin("R.const", const_builtin);
  fe.register_builtin("R.shape", shape_expr);
  fe.register_builtin("R.ShapeExpr", shape_expr);
  fe.register_builtin("R.prim_value", prim_value);
  fe.register_builtin("R.PrimValue", prim_value);
  fe.register_builtin("R.str", string_imm);
  fe.register_builtin("R.StringImm", string_imm);
  fe.register_builtin("R.dtype", dtype_imm);
  fe.register_builtin("R.DataTypeImm", dtype_imm);
  fe.register_builtin("R.tuple", tuple_expr);
  fe.register_builtin("R.TupleGetItem", tuple_get_item);
  fe.register_builtin("R.ExternFunc", extern_func);
  fe.register_builtin("R.match_cast", match_cast);
  for (const char* name : {"R.func_attr", "R.output", "R.dataflow"})
    fe.register_builtin(name, statement_only);

  fe.register_builtin("R.call_tir", [](Frontend& fe, const CallArgs& c) {
    return call_tir_like(fe, c, "relax.call_tir");
  });
  fe.register_builtin("R.call_tir_inplace", [](Frontend& fe, const CallArgs& c) {
    return call_tir_like(fe, c, "relax.call_tir_inplace");
  });
  fe.register_builtin("R.call_tir_with_grad", [](Frontend& fe, const CallArgs& c) {
    return call_tir_like(fe, c, "relax.call_tir_with_grad");
  });
  fe.register_builtin("R.call_dps_packed", call_dps_packed);
  fe.register_builtin("R.call_packed", [](Frontend& fe, const CallArgs& c) {
    return packed_call(fe, c, "relax.call_packed");
  });
  fe.register_builtin("R.call_pure_packed", [](Frontend& fe, const CallArgs& c) {
    return packed_call(fe, c, "relax.call_pure_packed");
  });
  fe.register_builtin("R.call_inplace_packed", [](Frontend& fe, const CallArgs& c) {
    return packed_call(fe, c, "relax.call_inplace_packed");
  });
  fe.register_builtin("R.call_builtin_with_ctx", call_builtin_with_ctx);
  fe.register_builtin("R.print", print_builtin);
  fe.register_builtin("R.assert_op", assert_builtin);
  fe.register_builtin("R.device", device_builtin);
  fe.register_builtin("R.hint_on_device", hint_on_device);
  for (const auto& [name, code] : kDeviceConstructors) {
    int64_t c = code;
    auto make_device = [c](Frontend& fe, const CallArgs& call) {
      return device_constructor(fe, call, c);
    };
    fe.register_builtin(std::string("tvm.") + name, make_device);
    if (std::string_view(name) == "cpu" || std::string_view(name) == "cuda")
      fe.register_builtin(std::string("R.") + name, make_device);
  }
  fe.register_builtin("tvm.device", tvm_device);
  fe.register_builtin("R.to_vdevice", to_vdevice);
  fe.register_builtin("R.__op__", generic_op);

  static const std::pair<const char*, const char*> kBinary[] = {
      {"+", "relax.add"},         {"-", "relax.subtract"},       {"*", "relax.multiply"},
      {"/", "relax.divide"},      {"//", "relax.floor_divide"},  {"%", "relax.floor_mod"},
      {"**", "relax.power"},      {"<", "relax.less"},           {"<=", "relax.less_equal"},
      {">", "relax.greater"},     {">=", "relax.greater_equal"}, {"==", "relax.equal"},
      {"!=", "relax.not_equal"},  {"&", "relax.bitwise_and"},    {"|", "relax.bitwise_or"},
      {"^", "relax.bitwise_xor"}, {"<<", "relax.left_shift"},    {">>", "relax.right_shift"},
  };
  for (const auto& [op, name] : kBinary)
    fe.register_builtin(std::string("R.operator.") + op, binary_operator(name));
  fe.register_builtin("R.operator.neg", unary_operator("relax.negative"));
  fe.register_builtin("R.operator.invert", unary_operator("relax.bitwise_not"));
  fe.register_builtin("R.operator.not", unary_operator("relax.logical_not"));
  fe.register_builtin("R.operator.pos", unary_operator(""));
  fe.register_builtin("R.Expr.astype", astype_method);
  fe.register_builtin("R.Expr.__getitem__", getitem);
  fe.register_builtin("R.Expr.__call__", call_value);
  fe.register_builtin("R.Expr.__getattr__.struct_info", struct_info_attr);
  fe.register_builtin("R.Expr.__getattr__.ty", struct_info_attr);

  // metadata["relax.expr.Constant"][i]: `metadata` is a namespace (a global of every front end)
  // whose first subscript picks the kind; other halves may register their own kinds
  // ("metadata.tir.StringImm").
  if (!fe.find_builtin("metadata")) {
    fe.register_builtin("metadata", [](Frontend& fe, const CallArgs& call) -> Value {
      if (call.args.size() != 1 || !call.args[0].is_string()) {
        fe.error(codes::kExpr, call.node,
                 "a metadata reference is written metadata[\"kind\"][index]");
        return Value::error(call.span());
      }
      return Value::ns("metadata." + call.args[0].as_string(), call.span());
    });
  }
  fe.register_builtin("metadata.relax.expr.Constant", metadata_constant);
}

}  // namespace relax::syntax::relax_fe

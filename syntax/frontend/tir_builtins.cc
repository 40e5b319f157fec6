// The T.* builtins that evaluate to values: buffers and their methods, pointer types,
// intrinsic calls (with TVM's result dtype rules), vector constructors, let expressions,
// reducers and index maps. Statement-level builtins (T.reads, T.block, loops, ...) are handled
// by the statement parser; here they only report that they were used as expressions.
#include <cmath>
#include <limits>

#include "syntax/frontend/prim_builtins.h"
#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_internal.h"
#include "syntax/frontend/tir_ops.h"
#include "syntax/frontend/tir_parser.h"

namespace relax::syntax {

using ir::make;
using ir::ObjectKind;
using namespace tirfe;

namespace {

Value error_of(const CallArgs& call) {
  return Value::error(call.span());
}

// --- Buffers ---------------------------------------------------------------------------------

// T.Buffer(shape, dtype="float32", data=None, strides=None, elem_offset=None, scope="global",
// align=0, offset_factor=0, buffer_type="", axis_separators=None), also T.Buffer[shape, dtype].
Value buffer_ctor(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call,
                 {"shape", "dtype=", "data=", "strides=", "elem_offset=", "scope=", "align=",
                  "offset_factor=", "buffer_type=", "axis_separators=", "**"});
  if (!args.ok()) return error_of(call);
  BufferSpec spec;
  if (!read_buffer_spec(fe, args, spec)) return error_of(call);
  auto buffer = make_buffer(spec);
  buffer->span = call.span();
  return Value::object(buffer, call.span());
}

Value buffer_getitem(Frontend& fe, const CallArgs& call) {
  auto buffer = call.args[0].as<Buffer>();
  std::vector<Value> indices(call.args.begin() + 1, call.args.end());
  std::vector<Node> nodes(call.arg_nodes.begin() + 1, call.arg_nodes.end());
  // Without steps, slices make a region as TVMScript's Buffer.__getitem__ does: the extent is
  // `stop - start` in their common type, other indices have extent 1. With a symbolic extent
  // the subscript is only a region (`A[0:n]` in T.reads); with constant extents it is also a
  // load of vectors (`B[0:4] = A[0:4]`).
  std::vector<Value> flat;
  for (const Value& v : indices) {
    if (v.is_tuple())
      flat.insert(flat.end(), v.items().begin(), v.items().end());
    else
      flat.push_back(v);
  }
  bool stepless = false, symbolic = false;
  for (const Value& v : flat) {
    if (v.is_slice() && !v.items()[2].is_none()) {
      stepless = false;
      break;
    }
    stepless |= v.is_slice();
  }
  Ref<BufferRegion> region;
  if (stepless) {
    std::vector<Ref<Range>> ranges;
    for (size_t i = 0; i < flat.size(); ++i) {
      const Value& v = flat[i];
      if (v.is_slice()) {
        Ref<PrimExpr> start =
            v.items()[0].is_none() ? Ref<PrimExpr>(int32(0)) : to_expr(fe, v.items()[0]);
        Ref<PrimExpr> stop = v.items()[1].is_none()
                                 ? (i < buffer->shape.size() ? buffer->shape[i] : nullptr)
                                 : to_expr(fe, v.items()[1]);
        if (!start || !stop) return error_of(call);
        Ref<PrimExpr> extent = simplify_extent(start, stop);
        if (!extent) return error_of(call);
        symbolic |= !as_const_int(extent);
        ranges.push_back(make<Range>(start, extent));
      } else {
        Ref<PrimExpr> index = to_expr(fe, v);
        if (!index) return error_of(call);
        ranges.push_back(make<Range>(index, int_imm(index->dtype, 1)));
      }
    }
    region = make<BufferRegion>(buffer, std::move(ranges));
    region->span = call.span();
    if (symbolic) return Value::object(region, call.span());
  }
  auto idx = to_indices(fe, buffer, indices, nodes);
  if (!idx) return error_of(call);
  if (!buffer->shape.empty() && idx->size() != buffer->shape.size()) {
    fe.error("E0606", call.node,
             "buffer `" + buffer->name + "` has " + std::to_string(buffer->shape.size()) +
                 " dimension" + (buffer->shape.size() == 1 ? "" : "s") + " but is indexed with " +
                 std::to_string(idx->size()));
    return error_of(call);
  }
  DataType t = load_dtype(buffer, *idx);
  auto load = make<BufferLoad>(t, buffer, std::move(*idx));
  load->span = call.span();
  if (region) return Value::sliced_load(load, region, call.span());
  return Value::object(load, call.span());
}

Value buffer_vload(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"self", "indices", "dtype=", "predicate="});
  if (!args.ok()) return error_of(call);
  auto buffer = args.get("self")->as<Buffer>();
  auto items = fe.to_sequence(*args.get("indices"), "vload indices");
  if (!items) return error_of(call);
  auto idx = to_indices(fe, buffer, *items, {});
  if (!idx) return error_of(call);
  auto load = make<BufferLoad>(load_dtype(buffer, *idx), buffer, std::move(*idx));
  if (const Value* p = args.get("predicate"); p && !p->is_none()) {
    load->predicate = to_expr(fe, *p);
    if (!load->predicate) return error_of(call);
  }
  load->span = call.span();
  return Value::object(load, call.span());
}

Value buffer_vstore(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"self", "indices", "value", "predicate="});
  if (!args.ok()) return error_of(call);
  auto buffer = args.get("self")->as<Buffer>();
  auto items = fe.to_sequence(*args.get("indices"), "vstore indices");
  if (!items) return error_of(call);
  auto idx = to_indices(fe, buffer, *items, {});
  Ref<PrimExpr> value = to_expr(fe, *args.get("value"));
  if (!idx || !value) return error_of(call);
  auto store = make<BufferStore>(buffer, value, std::move(*idx));
  if (const Value* p = args.get("predicate"); p && !p->is_none()) {
    store->predicate = to_expr(fe, *p);
    if (!store->predicate) return error_of(call);
  }
  store->span = call.span();
  return Value::object(store, call.span());
}

void register_buffer_builtins(Frontend& fe) {
  fe.register_builtin("T.Buffer", buffer_ctor);
  fe.register_builtin("T.Buffer.__getitem__", buffer_getitem);
  fe.register_builtin("T.Buffer.vload", buffer_vload);
  fe.register_builtin("T.Buffer.vstore", buffer_vstore);
  fe.register_builtin("T.Buffer.__getattr__.data", [](Frontend&, const CallArgs& call) -> Value {
    return Value::object(call.args[0].as<Buffer>()->data, call.span());
  });
  fe.register_builtin("T.Buffer.__getattr__.elem_offset",
                      [](Frontend&, const CallArgs& call) -> Value {
                        auto b = call.args[0].as<Buffer>();
                        if (b->elem_offset) return Value::object(b->elem_offset, call.span());
                        DataType t = b->shape.empty() ? DataType::Int32() : b->shape[0]->dtype;
                        return Value::object(int_imm(t, 0), call.span());
                      });
  fe.register_builtin("T.Buffer.__getattr__.shape", [](Frontend&, const CallArgs& call) -> Value {
    std::vector<Value> items;
    for (const auto& d : call.args[0].as<Buffer>()->shape)
      items.push_back(Value::object(d, call.span()));
    return Value::tuple(std::move(items), call.span());
  });
  fe.register_builtin("T.Buffer.__getattr__.strides", [](Frontend&, const CallArgs& call) -> Value {
    std::vector<Value> items;
    for (const auto& d : call.args[0].as<Buffer>()->strides)
      items.push_back(Value::object(d, call.span()));
    return Value::tuple(std::move(items), call.span());
  });
  fe.register_builtin("T.Buffer.__getattr__.dtype", [](Frontend&, const CallArgs& call) -> Value {
    return Value::string(call.args[0].as<Buffer>()->dtype.str(), call.span());
  });
  fe.register_builtin("T.Buffer.__getattr__.name", [](Frontend&, const CallArgs& call) -> Value {
    return Value::string(call.args[0].as<Buffer>()->name, call.span());
  });
  fe.register_builtin("T.Buffer.__getattr__.ndim", [](Frontend&, const CallArgs& call) -> Value {
    return Value::integer(static_cast<int64_t>(call.args[0].as<Buffer>()->shape.size()),
                          call.span());
  });
}

// --- Pointers and scalar types -----------------------------------------------------------------

// T.handle(dtype=None, storage_scope="global"): a fresh handle var, typed when a dtype or a
// non-global scope is given. Also the legacy T.Ptr(dtype, scope) and T.Ptr[dtype, scope].
Value handle_ctor(Frontend& fe, const CallArgs& call, bool legacy_ptr) {
  ArgBinder args(fe, call, {"dtype=", "storage_scope=", "*", "is_size_var="});
  if (!args.ok()) return error_of(call);
  auto var = make<Var>("", DataType::Handle());
  var->span = call.span();
  std::string scope = "global";
  if (const Value* s = args.get("storage_scope")) {
    auto str = fe.to_string(*s);
    if (!str) return error_of(call);
    scope = *str;
  }
  const Value* d = args.get("dtype");
  if (d && !d->is_none()) {
    auto t = fe.to_dtype(*d);
    if (!t) return error_of(call);
    var->pointer = PointerType{*t, scope};
  } else if (legacy_ptr || scope != "global") {
    var->pointer = PointerType{DataType::Void(), scope};
  }
  return Value::object(var, call.span());
}

// --- Intrinsic calls ---------------------------------------------------------------------------

Ref<PrimExpr> call_arg(Frontend& fe, const Value& v) {
  if (v.is_string()) return make<StringImm>(v.as_string());
  if (auto b = v.as<Buffer>()) return b->data;
  return to_expr(fe, v);
}

// Brings a Python number next to a PrimExpr to that PrimExpr's type, as TVMScript's operator
// conversions do.
void match_literals(const std::vector<Value>& values, std::vector<Ref<PrimExpr>>& exprs) {
  Ref<PrimExpr> typed;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].is<PrimExpr>()) {
      typed = exprs[i];
      break;
    }
  }
  if (!typed) return;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].is_int())
      exprs[i] = literal_like(values[i].as_int(), typed->dtype, values[i].span());
    else if (values[i].is_float())
      exprs[i] = literal_like(values[i].as_float(), typed->dtype, values[i].span());
  }
}

// Whether TVMScript's `T.<name>` is the bare TVM op rather than a wrapper that drops `dtype=`.
bool takes_no_keywords(std::string_view name) {
  return name == "tvm_storage_sync" || name == "tvm_warp_shuffle" ||
         name == "tvm_warp_shuffle_up" || name == "tvm_warp_shuffle_down" ||
         name == "tvm_warp_activemask";
}

// The positional arguments of a call whose result dtype is an argument, with a `dtype=` keyword
// moved to the front (TVMScript's _dtype_forward: `T.reinterpret(x, dtype="int32")`) or, when
// `last`, the end (tvm_struct_get's last parameter). Other keywords are E0214.
std::optional<std::vector<Value>> forward_dtype_keyword(Frontend& fe, const CallArgs& call,
                                                        bool dtype_positional, bool last) {
  std::vector<Value> values = call.args;
  bool dtype_seen = false;
  for (size_t i = 0; i < call.kwargs.size(); ++i) {
    if (dtype_positional && call.kwargs[i].first == "dtype" && !dtype_seen) {
      dtype_seen = true;
      if (last)
        values.push_back(call.kwargs[i].second);
      else
        values.insert(values.begin(), call.kwargs[i].second);
      continue;
    }
    fe.error("E0214", call.kwarg_nodes[i],
             "`" + call.name + "` takes no keyword arguments" +
                 (dtype_positional ? " other than `dtype=`" : ""));
    return std::nullopt;
  }
  return values;
}

Value intrinsic_call(Frontend& fe, const CallArgs& call, const TirOpInfo& op) {
  auto forwarded = forward_dtype_keyword(
      fe, call, op.rule == TirDtypeRule::kDtypeFirst || op.rule == TirDtypeRule::kDtypeLast,
      op.rule == TirDtypeRule::kDtypeLast);
  if (!forwarded) return error_of(call);
  std::vector<Value> values = std::move(*forwarded);
  std::optional<DataType> result;
  if (op.rule == TirDtypeRule::kDtypeFirst || op.rule == TirDtypeRule::kDtypeLast) {
    if (values.empty()) {
      fe.error("E0215", call.node,
               "`" + call.name + "` needs the result dtype as its " +
                   (op.rule == TirDtypeRule::kDtypeFirst ? "first" : "last") + " argument");
      return error_of(call);
    }
    const Value& d = op.rule == TirDtypeRule::kDtypeFirst ? values.front() : values.back();
    result = fe.to_dtype(d);
    if (!result) return error_of(call);
    if (op.rule == TirDtypeRule::kDtypeFirst)
      values.erase(values.begin());
    else
      values.pop_back();
  }
  int n = static_cast<int>(values.size());
  if (n < op.min_args || (op.max_args >= 0 && n > op.max_args)) {
    std::string expected = op.min_args == op.max_args ? std::to_string(op.min_args)
                           : op.max_args < 0
                               ? "at least " + std::to_string(op.min_args)
                               : std::to_string(op.min_args) + " to " + std::to_string(op.max_args);
    fe.error("E0213", call.node,
             "`" + call.name + "` takes " + expected + " argument" + (expected == "1" ? "" : "s") +
                 ", got " + std::to_string(n));
    return error_of(call);
  }
  std::vector<Ref<PrimExpr>> args;
  bool ok = true;
  for (const Value& v : values) {
    args.push_back(call_arg(fe, v));
    ok &= args.back().defined();
  }
  if (!ok) return error_of(call);
  std::string name = op.script_name;
  // Math and bitwise operators match their operand types like arithmetic does.
  if (op.rule == TirDtypeRule::kFirstArg && args.size() == 2) {
    match_literals(values, args);
    if (name.starts_with("bitwise_") || name.starts_with("shift_")) {
      Ref<PrimExpr> out = prim_bitwise(name == "bitwise_and"   ? "&"
                                       : name == "bitwise_or"  ? "|"
                                       : name == "bitwise_xor" ? "^"
                                       : name == "shift_left"  ? "<<"
                                                               : ">>",
                                       args[0], args[1], call.span());
      if (!out) {
        fe.error("E0241", call.node,
                 "`" + call.name + "`: operand types " + args[0]->dtype.str() + " and " +
                     args[1]->dtype.str() + " do not match");
        return error_of(call);
      }
      return Value::object(out, call.span());
    }
    if (args[0]->dtype != args[1]->dtype) {
      // Reuse arithmetic's matching through a throwaway addition.
      Ref<PrimExpr> probe = prim_arith(ObjectKind::kMax, args[0], args[1]);
      if (auto b = probe.as_ptr<BinaryOp>()) {
        args[0] = b->a;
        args[1] = b->b;
      }
    }
  }
  DataType t;
  switch (op.rule) {
    case TirDtypeRule::kFirstArg:
      t = args.empty() ? DataType::Int32() : args[0]->dtype;
      break;
    case TirDtypeRule::kBool:
      t = DataType::Bool(args.empty() ? 1 : args[0]->dtype.lanes());
      break;
    case TirDtypeRule::kHandle:
      t = DataType::Handle();
      break;
    case TirDtypeRule::kInt32:
      t = DataType::Int32();
      break;
    case TirDtypeRule::kVoid:
      t = DataType::Void();
      break;
    case TirDtypeRule::kDtypeFirst:
    case TirDtypeRule::kDtypeLast:
      t = *result;
      break;
  }
  if (name == "tvm_warp_shuffle" || name == "tvm_warp_shuffle_up" ||
      name == "tvm_warp_shuffle_down")
    t = args[1]->dtype;
  if (name == "tvm_warp_activemask") t = DataType::UInt(32);
  // Folds TVM's builders apply.
  if (name == "likely" && args[0].is<IntImm>()) return Value::object(args[0], call.span());
  if (name == "reinterpret" && args[0]->dtype == t) return Value::object(args[0], call.span());
  if ((name == "isnan" || name == "isinf") && !args[0]->dtype.is_floating()) {
    return Value::object(int_imm(DataType::Bool(args[0]->dtype.lanes()), 0), call.span());
  }
  if (name == "isfinite" && !args[0]->dtype.is_floating()) {
    return Value::object(int_imm(DataType::Bool(args[0]->dtype.lanes()), 1), call.span());
  }
  auto node = make<Call>(t, op.op_name, std::move(args));
  node->span = call.span();
  return Value::object(node, call.span());
}

// T.call_intrin(dtype, op_name, *args): a call of any op by its TVM name.
Value call_intrin(Frontend& fe, const CallArgs& call) {
  auto values = forward_dtype_keyword(fe, call, true, false);
  if (!values) return error_of(call);
  if (values->size() < 2) {
    fe.error("E0215", call.node, "`T.call_intrin` needs a dtype and an op name");
    return error_of(call);
  }
  auto t = fe.to_dtype((*values)[0]);
  auto name = fe.to_string((*values)[1]);
  if (!t || !name) return error_of(call);
  std::vector<Ref<PrimExpr>> args;
  for (size_t i = 2; i < values->size(); ++i) {
    args.push_back(call_arg(fe, (*values)[i]));
    if (!args.back()) return error_of(call);
  }
  std::string op = name->starts_with("tir.") ? *name : "tir." + *name;
  return Value::object(make<Call>(*t, op, std::move(args)), call.span());
}

Value abs_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"x"});
  if (!args.ok()) return error_of(call);
  Ref<PrimExpr> x = to_expr(fe, *args.get("x"));
  if (!x) return error_of(call);
  if (x->dtype.is_int()) {
    if (auto c = as_const_int(x)) {
      // In two's complement, as `select(x >= 0, x, -x)` computes it at run time: the smallest
      // value of the dtype is its own absolute value (negating it in int64 was undefined).
      uint64_t magnitude = *c < 0 ? 0 - static_cast<uint64_t>(*c) : static_cast<uint64_t>(*c);
      int bits = x->dtype.bits();
      if (bits > 0 && bits < 64 && (magnitude >> (bits - 1)) != 0) magnitude = -magnitude;
      return Value::object(int_imm(x->dtype, static_cast<int64_t>(magnitude)), call.span());
    }
    auto cond = prim_compare(ObjectKind::kGE, x, literal_like(int64_t{0}, x->dtype));
    return Value::object(make<Select>(cond, x, prim_negate(x)), call.span());
  }
  if (x->dtype.is_floating()) {
    if (auto f = x.as_ptr<FloatImm>())
      return Value::object(float_imm(x->dtype, std::fabs(f->value)), call.span());
    return Value::object(make<Call>(x->dtype, "tir.fabs", std::vector<Ref<PrimExpr>>{x}),
                         call.span());
  }
  return Value::object(x, call.span());
}

// T.max_value / T.min_value / T.infinity(dtype): constants of a dtype.
Value limit_builtin(Frontend& fe, const CallArgs& call, int which) {
  ArgBinder args(fe, call, {"dtype"});
  if (!args.ok()) return error_of(call);
  auto t = fe.to_dtype(*args.get("dtype"));
  if (!t) return error_of(call);
  if (which == 2) {
    if (!t->is_floating()) {
      fe.error("E0608", call.node, "T.infinity needs a floating-point dtype");
      return error_of(call);
    }
    return Value::object(float_imm(*t, std::numeric_limits<double>::infinity()), call.span());
  }
  bool max = which == 0;
  if (t->is_int()) {
    int bits = t->bits();
    int64_t hi = bits >= 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    int64_t lo = bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    return Value::object(int_imm(*t, max ? hi : lo), call.span());
  }
  if (t->is_bool()) return Value::object(int_imm(*t, max ? 1 : 0), call.span());
  if (t->is_uint()) {
    int bits = t->bits();
    int64_t hi = bits >= 63 ? INT64_MAX : (int64_t{1} << bits) - 1;
    return Value::object(int_imm(*t, max ? hi : 0), call.span());
  }
  if (t->is_floating()) {
    double v = t->bits() == 64   ? std::numeric_limits<double>::max()
               : t->bits() == 32 ? static_cast<double>(std::numeric_limits<float>::max())
               : t->is_bfloat()  ? 3.38953138925153547590470800371487866880e+38
                                 : 65504.0;
    return Value::object(float_imm(*t, max ? v : -v), call.span());
  }
  fe.error("E0608", call.node, "no limit value for dtype " + t->str());
  return error_of(call);
}

// --- Vectors -----------------------------------------------------------------------------------

std::optional<std::pair<int, Ref<PrimExpr>>> lanes_of(Frontend& fe, const Value& v) {
  if (v.is_int())
    return std::make_pair(static_cast<int>(v.as_int()), Ref<PrimExpr>(int32(v.as_int())));
  Ref<PrimExpr> e = to_expr(fe, v);
  if (!e) return std::nullopt;
  // TVM keeps constant lanes as an int32, whatever the type they were written in.
  if (auto c = as_const_int(e))
    return std::make_pair(static_cast<int>(*c), Ref<PrimExpr>(int32(*c)));
  if (auto m = e.as_ptr<BinaryOp>(); m && m->kind() == ObjectKind::kMul) {
    auto vs = [](const Ref<PrimExpr>& x) {
      auto c = x.as_ptr<Call>();
      return c && c->op == "tir.vscale";
    };
    if (vs(m->a) && as_const_int(m->b))
      return std::make_pair(-static_cast<int>(*as_const_int(m->b)), e);
    if (vs(m->b) && as_const_int(m->a))
      return std::make_pair(-static_cast<int>(*as_const_int(m->a)), e);
  }
  fe.error("E0608", v.span(), "vector lanes must be an int or `k * T.vscale()`");
  return std::nullopt;
}

Value ramp_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"base", "stride", "lanes"});
  if (!args.ok()) return error_of(call);
  Ref<PrimExpr> base = to_expr(fe, *args.get("base"));
  const Value& sv = *args.get("stride");
  Ref<PrimExpr> stride =
      sv.is_int() && base ? literal_like(sv.as_int(), base->dtype) : to_expr(fe, sv);
  auto lanes = lanes_of(fe, *args.get("lanes"));
  if (!base || !stride || !lanes) return error_of(call);
  if (stride->dtype != base->dtype) stride = prim_cast(base->dtype, stride);
  auto r = make<Ramp>(base->dtype.with_lanes(lanes->first), base, stride, lanes->second);
  r->span = call.span();
  return Value::object(r, call.span());
}

Value broadcast_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value", "lanes"});
  if (!args.ok()) return error_of(call);
  Ref<PrimExpr> value = to_expr(fe, *args.get("value"));
  auto lanes = lanes_of(fe, *args.get("lanes"));
  if (!value || !lanes) return error_of(call);
  auto b = make<Broadcast>(value->dtype.with_lanes(lanes->first), value, lanes->second);
  b->span = call.span();
  return Value::object(b, call.span());
}

Value shuffle_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"vectors", "indices"});
  if (!args.ok()) return error_of(call);
  auto vecs = fe.to_sequence(*args.get("vectors"), "T.Shuffle vectors");
  auto idx = fe.to_sequence(*args.get("indices"), "T.Shuffle indices");
  if (!vecs || !idx || vecs->empty()) return error_of(call);
  std::vector<Ref<PrimExpr>> v, i;
  for (const Value& x : *vecs) {
    v.push_back(to_expr(fe, x));
    if (!v.back()) return error_of(call);
  }
  for (const Value& x : *idx) {
    i.push_back(to_expr(fe, x));
    if (!i.back()) return error_of(call);
  }
  DataType t = v[0]->dtype.element_of().with_lanes(static_cast<int>(i.size()));
  return Value::object(make<Shuffle>(t, std::move(v), std::move(i)), call.span());
}

// --- Let, reducers, index maps -------------------------------------------------------------------

// T.Let(body, where={var: value}).
Value let_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"expr", "where"});
  if (!args.ok()) return error_of(call);
  Ref<PrimExpr> body = to_expr(fe, *args.get("expr"));
  const Value& where = *args.get("where");
  if (!body) return error_of(call);
  if (!where.is_dict() || where.entries().size() != 1) {
    fe.error("E0608", where.span(), "`where` must be a dictionary with one entry `{var: value}`");
    return error_of(call);
  }
  auto var = where.entries()[0].first.as<Var>();
  Ref<PrimExpr> value = to_expr(fe, where.entries()[0].second);
  if (!var) {
    fe.error("E0608", where.entries()[0].first.span(), "the key of `where` must be a variable");
    return error_of(call);
  }
  if (!value) return error_of(call);
  return Value::object(make<Let>(var, value, body), call.span());
}

// Binds a lambda's parameters to fresh vars and evaluates its body.
std::optional<std::pair<std::vector<Ref<Var>>, Value>> eval_lambda(
    Frontend& fe, const Value& lambda, const std::vector<DataType>& dtypes, DataType fallback) {
  if (!lambda.is_lambda()) {
    fe.error("E0608", lambda.span(), "expected a lambda, got " + lambda.describe());
    return std::nullopt;
  }
  Node node = lambda.node();
  std::vector<std::string> names;
  if (Node params = node.field(Field::kParameters)) {
    for (Node p : params.named_children()) {
      if (p.kind() == NodeKind::kIdentifier)
        names.emplace_back(p.text());
      else if (p.kind() != NodeKind::kComment) {
        fe.error("E0608", p, "lambda parameters must be plain names");
        return std::nullopt;
      }
    }
  }
  Frontend::ScopeGuard scope(fe);
  std::vector<Ref<Var>> vars;
  for (size_t i = 0; i < names.size(); ++i) {
    auto var = make<Var>(names[i], i < dtypes.size() ? dtypes[i] : fallback);
    vars.push_back(var);
    fe.define(names[i], Value::object(var));
  }
  Value body = fe.eval(node.field(Field::kBody));
  if (body.is_error()) return std::nullopt;
  return std::make_pair(std::move(vars), std::move(body));
}

std::optional<std::vector<Ref<PrimExpr>>> exprs_of(Frontend& fe, const Value& v) {
  std::vector<Ref<PrimExpr>> out;
  std::vector<Value> items = v.is_sequence() ? v.items() : std::vector<Value>{v};
  for (const Value& item : items) {
    out.push_back(to_expr(fe, item));
    if (!out.back()) return std::nullopt;
  }
  return out;
}

// T.comm_reducer(lambda x, y: x + y, [identity]).
Value comm_reducer_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"combiner", "identity"});
  if (!args.ok()) return error_of(call);
  auto identity = exprs_of(fe, *args.get("identity"));
  if (!identity) return error_of(call);
  std::vector<DataType> dtypes;
  for (int twice = 0; twice < 2; ++twice) {
    for (const auto& e : *identity) dtypes.push_back(e->dtype);
  }
  auto lam = eval_lambda(fe, *args.get("combiner"), dtypes, DataType::Float32());
  if (!lam) return error_of(call);
  auto reducer = make<CommReducer>();
  size_t n = lam->first.size() / 2;
  if (lam->first.size() != identity->size() * 2) {
    fe.error("E0608", call.node,
             "the combiner of T.comm_reducer takes two arguments per identity element");
    return error_of(call);
  }
  for (size_t i = 0; i < n; ++i) reducer->lhs.push_back(lam->first[i]);
  for (size_t i = n; i < 2 * n; ++i) reducer->rhs.push_back(lam->first[i]);
  auto result = exprs_of(fe, lam->second);
  if (!result) return error_of(call);
  reducer->result = *result;
  reducer->identity_element = *identity;
  reducer->span = call.span();
  return Value::object(reducer, call.span());
}

// T.index_map(lambda i, j: (...), inverse_index_map=None, index_dtype="int32").
Value index_map_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"mapping", "*", "inverse_index_map=", "index_dtype="});
  if (!args.ok()) return error_of(call);
  DataType index_type = DataType::Int32();
  if (const Value* d = args.get("index_dtype")) {
    auto t = fe.to_dtype(*d);
    if (!t) return error_of(call);
    index_type = *t;
  }
  auto build = [&](const Value& lambda) -> Ref<IndexMap> {
    if (auto existing = lambda.as<IndexMap>()) return existing;
    auto lam = eval_lambda(fe, lambda, {}, index_type);
    if (!lam) return nullptr;
    auto finals = exprs_of(fe, lam->second);
    if (!finals) return nullptr;
    auto m = make<IndexMap>();
    m->initial_indices = lam->first;
    m->final_indices = *finals;
    return m;
  };
  Ref<IndexMap> m = build(*args.get("mapping"));
  if (!m) return error_of(call);
  if (const Value* inv = args.get("inverse_index_map"); inv && !inv->is_none()) {
    m->inverse = build(*inv);
    if (!m->inverse) return error_of(call);
  }
  m->span = call.span();
  return Value::object(m, call.span());
}

Value range_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"begin", "end="});
  if (!args.ok()) return error_of(call);
  Ref<PrimExpr> begin = to_dim(fe, *args.get("begin"));
  if (!begin) return error_of(call);
  if (const Value* end = args.get("end"); end && !end->is_none()) {
    Ref<PrimExpr> e = to_dim(fe, *end);
    if (!e) return error_of(call);
    return Value::object(make<Range>(begin, simplify_extent(begin, e)), call.span());
  }
  return Value::object(make<Range>(int_imm(begin->dtype, 0), begin), call.span());
}

// T.iter_var(var, dom, iter_type, thread_tag): an iteration variable (in T.reduce axes).
Value iter_var_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"var", "dom", "iter_type", "thread_tag="});
  if (!args.ok()) return error_of(call);
  auto var = args.get("var")->as<Var>();
  if (!var) {
    fe.error("E0608", args.node_of("var"), "the first argument of T.iter_var is a variable");
    return error_of(call);
  }
  Ref<Range> dom = args.get("dom")->as<Range>();
  auto type_name = fe.to_string(*args.get("iter_type"));
  if (!type_name) return error_of(call);
  static const std::pair<const char*, IterType> kTypes[] = {
      {"DataPar", IterType::kDataPar},       {"ThreadIndex", IterType::kThreadIndex},
      {"CommReduce", IterType::kCommReduce}, {"Ordered", IterType::kOrdered},
      {"Opaque", IterType::kOpaque},         {"Unrolled", IterType::kUnrolled},
      {"Vectorized", IterType::kVectorized}, {"Parallelized", IterType::kParallelized},
      {"Tensorized", IterType::kTensorized}};
  std::optional<IterType> type;
  for (const auto& [n, t] : kTypes) {
    if (*type_name == n) type = t;
  }
  if (!type) {
    fe.error("E0608", args.node_of("iter_type"), "unknown iteration type \"" + *type_name + "\"");
    return error_of(call);
  }
  std::string tag;
  if (const Value* t = args.get("thread_tag")) {
    auto s = fe.to_string(*t);
    if (!s) return error_of(call);
    tag = *s;
  }
  return Value::object(make<IterVar>(dom, var, *type, tag), call.span());
}

// T.reduce(combiner, source, init, axis, condition, value_index): a reduction expression.
Value reduce_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"combiner", "source", "init=", "axis=", "condition=", "value_index="});
  if (!args.ok()) return error_of(call);
  auto combiner = args.get("combiner")->as<CommReducer>();
  if (!combiner) {
    fe.error("E0608", args.node_of("combiner"),
             "the combiner of T.reduce is a T.comm_reducer(...)");
    return error_of(call);
  }
  auto source = exprs_of(fe, *args.get("source"));
  if (!source || source->empty()) return error_of(call);
  auto r = make<Reduce>((*source)[0]->dtype);
  r->combiner = combiner;
  r->source = *source;
  if (const Value* init = args.get("init"); init && !init->is_none()) {
    auto i = exprs_of(fe, *init);
    if (!i) return error_of(call);
    r->init = *i;
  }
  if (const Value* axis = args.get("axis"); axis && !axis->is_none()) {
    auto items = fe.to_sequence(*axis, "T.reduce axes");
    if (!items) return error_of(call);
    for (const Value& a : *items) {
      auto iv = a.as<IterVar>();
      if (!iv) {
        fe.error("E0608", a.span(), "a T.reduce axis is a T.iter_var(...)");
        return error_of(call);
      }
      r->axis.push_back(iv);
    }
  }
  r->condition = bool_imm(true);
  if (const Value* c = args.get("condition"); c && !c->is_none()) {
    r->condition = to_expr(fe, *c);
    if (!r->condition) return error_of(call);
  }
  if (const Value* v = args.get("value_index")) {
    auto i = fe.to_int(*v);
    if (!i) return error_of(call);
    r->value_index = static_cast<int>(*i);
  }
  if (r->value_index >= 0 && static_cast<size_t>(r->value_index) < r->source.size()) {
    r->dtype = r->source[static_cast<size_t>(r->value_index)]->dtype;
  }
  r->span = call.span();
  return Value::object(r, call.span());
}

// T.evaluate(value): an Evaluate statement (the statement parser emits it).
Value evaluate_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"value"});
  if (!args.ok()) return error_of(call);
  const Value& v = *args.get("value");
  Ref<PrimExpr> e =
      v.is_string() ? Ref<PrimExpr>(make<StringImm>(v.as_string())) : fe.to_prim_expr(v);
  if (!e) return error_of(call);
  auto stmt = make<Evaluate>(e);
  stmt->span = call.span();
  return Value::object(stmt, call.span());
}

Value astype_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"self", "dtype"});
  if (!args.ok()) return error_of(call);
  Ref<PrimExpr> x = to_expr(fe, *args.get("self"));
  auto t = fe.to_dtype(*args.get("dtype"));
  if (!x || !t) return error_of(call);
  return Value::object(prim_cast(*t, x, call.span()), call.span());
}

// The return dtype a prim_func named `name` declares (`-> T.float32`), found in the syntax tree
// since the callee may be parsed after the caller; void when it declares none.
DataType declared_return_type(Frontend& fe, const std::string& name) {
  std::vector<Node> scopes{fe.tree().root()};
  for (size_t i = 0; i < scopes.size(); ++i) {
    for (Node stmt : scopes[i].named_children()) {
      if (stmt.kind() != NodeKind::kDecoratedDefinition) continue;
      Node def = stmt.field(Field::kDefinition);
      if (def.kind() == NodeKind::kClassDefinition) {
        scopes.push_back(def.field(Field::kBody));
        continue;
      }
      if (def.kind() != NodeKind::kFunctionDefinition || def.field(Field::kName).text() != name)
        continue;
      Node ret = def.field(Field::kReturnType);
      if (!ret) return DataType::Void();
      std::string text(ret.text());
      if (auto dot = text.rfind('.'); dot != std::string::npos) {
        if (auto t = dtype_of_constructor("T." + text.substr(dot + 1))) return *t;
      }
      return DataType::Void();
    }
  }
  return DataType::Void();
}

// `Module.f(args)` inside a prim_func: a call of another function of the module, typed by the
// callee's return annotation.
Value call_global(Frontend& fe, const CallArgs& call) {
  auto gv = call.args[0].as<ir::GlobalVar>();
  if (!call.kwargs.empty()) {
    fe.error("E0214", call.kwarg_nodes[0],
             "a call of `" + gv->name + "` takes no keyword arguments");
    return error_of(call);
  }
  std::vector<Ref<PrimExpr>> args;
  for (size_t i = 1; i < call.args.size(); ++i) {
    args.push_back(call_arg(fe, call.args[i]));
    if (!args.back()) return error_of(call);
  }
  auto c = make<Call>(declared_return_type(fe, gv->name), "@" + gv->name, std::move(args));
  c->span = call.span();
  return Value::object(c, call.span());
}

}  // namespace

void register_tir_builtins(Frontend& fe) {
  fe.register_builtin("T.GlobalVar.__call__", call_global);
  register_buffer_builtins(fe);
  fe.register_builtin(
      "T.handle", [](Frontend& fe, const CallArgs& call) { return handle_ctor(fe, call, false); });
  fe.register_builtin(
      "T.Ptr", [](Frontend& fe, const CallArgs& call) { return handle_ctor(fe, call, true); });
  fe.register_builtin("T.call_intrin", call_intrin);
  fe.register_builtin("T.abs", dropping_dtype_keyword(abs_builtin));
  fe.register_builtin(
      "T.max_value", [](Frontend& fe, const CallArgs& call) { return limit_builtin(fe, call, 0); });
  fe.register_builtin(
      "T.min_value", [](Frontend& fe, const CallArgs& call) { return limit_builtin(fe, call, 1); });
  fe.register_builtin(
      "T.infinity", [](Frontend& fe, const CallArgs& call) { return limit_builtin(fe, call, 2); });
  fe.register_builtin("T.Ramp", ramp_builtin);
  fe.register_builtin("T.ramp", ramp_builtin);
  fe.register_builtin("T.Broadcast", broadcast_builtin);
  fe.register_builtin("T.broadcast", broadcast_builtin);
  fe.register_builtin("T.Shuffle", shuffle_builtin);
  fe.register_builtin("T.shuffle", shuffle_builtin);
  fe.register_builtin("T.Let", let_builtin);
  fe.register_builtin("T.comm_reducer", comm_reducer_builtin);
  fe.register_builtin("T.index_map", index_map_builtin);
  fe.register_builtin("T.Range", range_builtin);
  fe.register_builtin("T.evaluate", evaluate_builtin);
  fe.register_builtin("T.iter_var", iter_var_builtin);
  fe.register_builtin("T.reduce", reduce_builtin);
  fe.register_builtin("T.PrimExpr.astype", astype_builtin);
  // `x: T.let[T.int32] = e` (current spelling of a let annotation); the call form is a Let.
  // Outside an assignment (which binds the value itself, tir_stmt.cc), a meta_var is its value.
  fe.register_builtin("T.meta_var", [](Frontend& fe, const CallArgs& call) -> Value {
    ArgBinder args(fe, call, {"value"});
    if (!args.ok()) return error_of(call);
    return *args.get("value");
  });
  fe.register_builtin("T.let", [](Frontend& fe, const CallArgs& call) -> Value {
    if (call.is_subscript) {
      if (call.args.size() != 1) {
        fe.error("E0608", call.node, "T.let[...] takes one type");
        return error_of(call);
      }
      return call.args[0];
    }
    ArgBinder args(fe, call, {"var", "value", "body"});
    if (!args.ok()) return error_of(call);
    auto var = args.get("var")->as<Var>();
    Ref<PrimExpr> value = to_expr(fe, *args.get("value"));
    Ref<PrimExpr> body = to_expr(fe, *args.get("body"));
    if (!var) {
      fe.error("E0608", args.node_of("var"), "the first argument of T.let is a variable");
      return error_of(call);
    }
    if (!value || !body) return error_of(call);
    return Value::object(make<Let>(var, value, body), call.span());
  });
  for (const char* name : {"exp",
                           "exp2",
                           "exp10",
                           "erf",
                           "tanh",
                           "sigmoid",
                           "sqrt",
                           "rsqrt",
                           "log",
                           "log2",
                           "log10",
                           "log1p",
                           "floor",
                           "ceil",
                           "round",
                           "nearbyint",
                           "trunc",
                           "fabs",
                           "tan",
                           "cos",
                           "cosh",
                           "sin",
                           "sinh",
                           "asin",
                           "acos",
                           "atan",
                           "asinh",
                           "acosh",
                           "atanh",
                           "popcount",
                           "clz",
                           "isnan",
                           "isinf",
                           "isfinite",
                           "pow",
                           "fmod",
                           "atan2",
                           "nextafter",
                           "hypot",
                           "copysign",
                           "ldexp",
                           "q_multiply_shift",
                           "bitwise_and",
                           "bitwise_or",
                           "bitwise_xor",
                           "bitwise_not",
                           "shift_left",
                           "shift_right",
                           "likely",
                           "assume",
                           "tvm_thread_invariant",
                           "ret",
                           "undef",
                           "vscale",
                           "reinterpret",
                           "type_annotation",
                           "get_active_lane_mask",
                           "call_extern",
                           "call_pure_extern",
                           "call_llvm_intrin",
                           "call_llvm_pure_intrin",
                           "call_spirv_pure_glsl450",
                           "call_packed",
                           "call_cpacked",
                           "call_packed_lowered",
                           "call_cpacked_lowered",
                           "call_trace_packed",
                           "tvm_check_return",
                           "tvm_access_ptr",
                           "tvm_tuple",
                           "tvm_struct_get",
                           "tvm_struct_set",
                           "tvm_stack_alloca",
                           "tvm_stack_make_shape",
                           "tvm_stack_make_array",
                           "address_of",
                           "lookup_param",
                           "isnullptr",
                           "handle_add_byte_offset",
                           "anylist_getitem",
                           "anylist_resetitem",
                           "anylist_setitem_call_packed",
                           "anylist_setitem_call_cpacked",
                           "start_profile_intrinsic",
                           "end_profile_intrinsic",
                           "tvm_thread_allreduce",
                           "tvm_storage_sync",
                           "tvm_warp_shuffle",
                           "tvm_warp_shuffle_up",
                           "tvm_warp_shuffle_down",
                           "tvm_warp_activemask",
                           "tvm_load_matrix_sync",
                           "tvm_store_matrix_sync",
                           "tvm_mma_sync",
                           "tvm_bmma_sync",
                           "tvm_fill_fragment",
                           "ptx_mma",
                           "ptx_mma_sp",
                           "ptx_ldmatrix",
                           "ptx_cp_async",
                           "ptx_commit_group",
                           "ptx_wait_group",
                           "mma_store",
                           "mma_fill"}) {
    const TirOpInfo* op = find_tir_op_by_script_name(name);
    if (!op) continue;
    Builtin call = [op](Frontend& fe, const CallArgs& call) {
      return intrinsic_call(fe, call, *op);
    };
    bool wrapped = op->rule != TirDtypeRule::kDtypeFirst && op->rule != TirDtypeRule::kDtypeLast &&
                   !takes_no_keywords(name);
    fe.register_builtin(std::string("T.") + name,
                        wrapped ? dropping_dtype_keyword(std::move(call)) : std::move(call));
  }
  // Statement-level builtins: the statement parser handles them before evaluation.
  for (const char* name :
       {"T.reads",       "T.writes",         "T.where",         "T.block_attr",
        "T.sblock_attr", "T.func_attr",      "T.axis.spatial",  "T.axis.reduce",
        "T.axis.scan",   "T.axis.opaque",    "T.axis.S",        "T.axis.R",
        "T.axis.remap",  "T.match_buffer",   "T.alloc_buffer",  "T.sblock_alloc_buffer",
        "T.decl_buffer", "T.allocate",       "T.launch_thread", "T.env_thread",
        "T.realize",     "T.attr",           "T.block",         "T.sblock",
        "T.init",        "T.serial",         "T.parallel",      "T.vectorized",
        "T.unroll",      "T.thread_binding", "T.grid",          "T.LetStmt",
        "T.Assert",      "T.alloc_shared",   "T.alloc_local",   "T.prim_func"}) {
    std::string shown = name;
    fe.register_builtin(name, [shown](Frontend& fe, const CallArgs& call) -> Value {
      fe.error("E0601", call.node,
               "`" + shown + "` can only be used as a statement of a prim_func body");
      return Value::error(call.span());
    });
  }
}

}  // namespace relax::syntax

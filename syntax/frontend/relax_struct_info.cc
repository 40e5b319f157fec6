// Struct-info annotations of the Relax front end: R.Tensor, R.Shape, R.Tuple, R.Object/R.Any,
// R.Prim, R.Callable, dtype names as R.Prim, and the symbolic dims they hold (ints, symbolic
// vars, expressions in strings, TypeVars), with virtual devices looked up in the module.
#include <cctype>
#include <limits>

#include "ir/parse_int.h"
#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/relax_frontend.h"

namespace relax::syntax::relax_fe {

using ir::DataType;
using ir::make;

namespace {

// The string literal node a string value came from (for spans inside embedded expressions).
Node string_node_of(Frontend& fe, const Value& v) {
  ir::Span span = v.span();
  if (span.file != fe.file() || fe.tree().base() != 0) return Node();
  Node n = fe.tree().root().descendant_for_range(span.begin, span.end);
  return n && n.kind() == NodeKind::kString ? n : Node();
}

Ref<PrimExpr> as_int64_dim(Frontend& fe, const Ref<PrimExpr>& e, ir::Span span) {
  if (e->dtype == DataType::Int64()) return e;
  if (e->dtype.is_int() || e->dtype.is_uint()) return prim_cast(DataType::Int64(), e, e->span);
  fe.error(codes::kDim, span,
           "a shape dimension must be an integer, got a PrimExpr of type " + e->dtype.str());
  return nullptr;
}

Ref<ir::tir::Var> new_symbolic_var(const std::string& name, ir::Span span) {
  auto var = make<ir::tir::Var>(name, DataType::Int64());
  var->span = span;
  return var;
}

}  // namespace

FunctionState* current_state(Frontend& fe) {
  return fe.relax_function_state;
}

StateGuard::StateGuard(Frontend& fe, FunctionState& state)
    : fe_(fe), saved_(fe.relax_function_state) {
  state.parent = saved_;
  fe.relax_function_state = &state;
}

StateGuard::~StateGuard() {
  fe_.relax_function_state = saved_;
}

Ref<PrimExpr> to_dim(Frontend& fe, const Value& v) {
  ir::Span span = v.span();
  switch (v.kind()) {
    case Value::Kind::kError:
      return nullptr;
    case Value::Kind::kInt:
      return ir::tir::int_imm(DataType::Int64(), v.as_int(), span);
    case Value::Kind::kString: {
      const std::string& s = v.as_string();
      if (is_identifier(s)) {
        ir::Span name_span = fe.string_content_span(v, Node());
        if (const Value* found = fe.lookup(s)) {
          if (found->is_error()) return nullptr;
          if (!found->is_string()) {
            fe.note_use(*found, name_span);
            return to_dim(fe, found->with_span(span));
          }
        }
        FunctionState* st = current_state(fe);
        if (st && st->in_signature) {
          auto var = new_symbolic_var(s, span);
          st->symbolic_vars[s] = var;
          fe.define(s, Value::object(var, name_span));
          return var;
        }
        fe.error(codes::kDim, span, "undefined symbolic variable `" + s + "`")
            .note("declare it with `" + s + " = T.int64()` or define it in the function signature");
        return nullptr;
      }
      Value inner = fe.eval_string_expr(v, string_node_of(fe, v));
      if (inner.is_error()) return nullptr;
      if (inner.is_string()) {
        fe.error(codes::kDim, span, "a shape dimension string must hold an expression");
        return nullptr;
      }
      return to_dim(fe, inner.with_span(span));
    }
    case Value::Kind::kTypeVar: {
      for (FunctionState* st = current_state(fe); st; st = st->parent) {
        auto it = st->symbolic_vars.find(v.as_string());
        if (it != st->symbolic_vars.end()) return it->second;
      }
      fe.error(codes::kDim, span,
               "the TypeVar `" + v.as_string() + "` is not bound in this function");
      return nullptr;
    }
    case Value::Kind::kObject: {
      if (auto p = v.as<PrimExpr>()) return as_int64_dim(fe, p, span);
      if (auto pv = v.as<ir::PrimValue>()) return as_int64_dim(fe, pv->value, span);
      if (auto var = v.as<ir::Var>()) {
        // A parameter `n: R.Prim("int64")` used in a later shape: its value is a symbolic var.
        if (auto prim = var->struct_info.as<ir::PrimStructInfo>(); prim && prim->dtype.is_int()) {
          if (prim->value) return as_int64_dim(fe, prim->value, span);
          if (prim->dtype != DataType::Int64()) {
            fe.error(codes::kDim, span,
                     "`" + var->name + "` is an R.Prim(\"" + prim->dtype.str() +
                         "\"); only int64 values can be used as shape dimensions");
            return nullptr;
          }
          auto sym = new_symbolic_var(var->name, var->span);
          var->struct_info = make<ir::PrimStructInfo>(prim->dtype, sym);
          if (FunctionState* st = current_state(fe)) st->symbolic_vars[var->name] = sym;
          return sym;
        }
      }
      break;
    }
    default:
      break;
  }
  fe.error(codes::kDim, span,
           "expected a shape dimension (an int, a symbolic variable or an expression), got " +
               v.describe());
  return nullptr;
}

std::optional<std::vector<Ref<PrimExpr>>> to_dims(Frontend& fe, const Value& v,
                                                  std::string_view what) {
  if (v.is_error()) return std::nullopt;
  if (!v.is_sequence()) {
    fe.error(codes::kDim, v.span(),
             "expected a tuple or list of dimensions for " + std::string(what) + ", got " +
                 v.describe());
    return std::nullopt;
  }
  std::vector<Ref<PrimExpr>> dims;
  bool ok = true;
  for (const Value& item : v.items()) {
    Ref<PrimExpr> d = to_dim(fe, item);
    ok &= d != nullptr;
    dims.push_back(d);
  }
  if (!ok) return std::nullopt;
  return dims;
}

Ref<ir::VDevice> lookup_vdevice(Frontend& fe, const std::string& spec, ir::Span span) {
  std::string kind = spec;
  int64_t index = 0;
  if (size_t colon = spec.find(':'); colon != std::string::npos) {
    kind = spec.substr(0, colon);
    std::string rest = spec.substr(colon + 1);
    if (size_t second = rest.find(':'); second != std::string::npos) rest = rest.substr(0, second);
    auto parsed = ir::parse_int64(rest);
    if (!parsed || *parsed < 0) {
      bool digits = !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      });
      fe.error(codes::kVDevice, span,
               digits ? "virtual device index " + rest + " in \"" + spec + "\" is out of range"
                      : "malformed virtual device \"" + spec +
                            "\": expected \"kind\" or \"kind:index\"");
      return nullptr;
    }
    index = *parsed;
  }
  auto devices = fe.module ? fe.module->vdevices() : std::vector<Ref<ir::VDevice>>{};
  int64_t seen = 0;
  for (const auto& vd : devices) {
    std::string vd_kind = vd->target ? vd->target->kind_name() : "";
    if (kind == "vdevice" || vd_kind == kind) {
      if (seen == index) return vd;
      ++seen;
    }
  }
  auto& d = fe.error(codes::kVDevice, span,
                     "no virtual device \"" + spec + "\" in the module's global infos");
  if (devices.empty())
    d.note("declare devices with I.module_global_infos({\"vdevice\": [I.vdevice(...)]})");
  return nullptr;
}

Ref<ir::StructInfo> to_struct_info(Frontend& fe, const Value& v) {
  if (v.is_error()) return nullptr;
  if (v.is_none()) return ir::void_sinfo();
  if (auto s = v.as<ir::StructInfo>()) return s;
  if (v.is_namespace() && !v.bound_self()) {
    const std::string& name = v.as_string();
    if (name == "R.Tensor")
      return make<ir::TensorStructInfo>(nullptr, DataType::Void(), ir::kUnknownNDim);
    if (name == "R.Object" || name == "R.Any") return make<ir::ObjectStructInfo>();
    if (name == "R.Shape") return make<ir::ShapeStructInfo>();
    if (name == "R.Tuple") return ir::void_sinfo();
    if (name == "R.Callable" || name == "R.PackedFunc") {
      auto f = make<ir::FuncStructInfo>();
      f->ret = make<ir::ObjectStructInfo>();
      f->purity = false;
      return f;
    }
    if (name.starts_with("T.")) {
      if (auto t = DataType::parse(name.substr(2)); t && !t->is_void())
        return make<ir::PrimStructInfo>(*t);
    }
  }
  fe.error(codes::kAnnotation, v.span(),
           "expected a struct info annotation (R.Tensor, R.Shape, R.Tuple, R.Object, R.Prim, "
           "R.Callable), got " +
               v.describe());
  return nullptr;
}

bool same_sinfo(const Ref<ir::StructInfo>& a, const Ref<ir::StructInfo>& b) {
  if (a.get() == b.get()) return true;
  if (!a || !b || a->kind() != b->kind()) return false;
  switch (a->kind()) {
    case ir::ObjectKind::kObjectStructInfo:
      return true;
    case ir::ObjectKind::kPrimStructInfo: {
      auto x = a.as_ptr<ir::PrimStructInfo>(), y = b.as_ptr<ir::PrimStructInfo>();
      return x->dtype == y->dtype && same_prim(x->value, y->value);
    }
    case ir::ObjectKind::kShapeStructInfo: {
      auto x = a.as_ptr<ir::ShapeStructInfo>(), y = b.as_ptr<ir::ShapeStructInfo>();
      if (x->ndim != y->ndim || x->values.has_value() != y->values.has_value()) return false;
      if (x->values) {
        for (size_t i = 0; i < x->values->size(); ++i) {
          if (!same_prim((*x->values)[i], (*y->values)[i])) return false;
        }
      }
      return true;
    }
    case ir::ObjectKind::kTensorStructInfo: {
      auto x = a.as_ptr<ir::TensorStructInfo>(), y = b.as_ptr<ir::TensorStructInfo>();
      if (x->dtype != y->dtype || x->ndim != y->ndim || x->vdevice.get() != y->vdevice.get())
        return false;
      if (x->shape.get() == y->shape.get()) return true;
      auto sx = x->shape.as_ptr<ir::ShapeExpr>(), sy = y->shape.as_ptr<ir::ShapeExpr>();
      if (!sx || !sy || sx->values.size() != sy->values.size()) return false;
      for (size_t i = 0; i < sx->values.size(); ++i) {
        if (!same_prim(sx->values[i], sy->values[i])) return false;
      }
      return true;
    }
    case ir::ObjectKind::kTupleStructInfo: {
      auto x = a.as_ptr<ir::TupleStructInfo>(), y = b.as_ptr<ir::TupleStructInfo>();
      if (x->fields.size() != y->fields.size()) return false;
      for (size_t i = 0; i < x->fields.size(); ++i) {
        if (!same_sinfo(x->fields[i], y->fields[i])) return false;
      }
      return true;
    }
    case ir::ObjectKind::kStructInfoOf:
      return a.as_ptr<ir::StructInfoOf>()->expr.get() == b.as_ptr<ir::StructInfoOf>()->expr.get();
    case ir::ObjectKind::kFuncStructInfo: {
      auto x = a.as_ptr<ir::FuncStructInfo>(), y = b.as_ptr<ir::FuncStructInfo>();
      if (x->purity != y->purity || x->derive_func != y->derive_func ||
          x->params.has_value() != y->params.has_value())
        return false;
      if (x->params) {
        if (x->params->size() != y->params->size()) return false;
        for (size_t i = 0; i < x->params->size(); ++i) {
          if (!same_sinfo((*x->params)[i], (*y->params)[i])) return false;
        }
      }
      return same_sinfo(x->ret, y->ret);
    }
    default:
      return false;
  }
}

bool same_prim(const Ref<PrimExpr>& a, const Ref<PrimExpr>& b) {
  if (a.get() == b.get()) return true;
  if (!a || !b || a->kind() != b->kind() || a->dtype != b->dtype) return false;
  if (auto x = a.as_ptr<ir::tir::IntImm>()) return x->value == b.as_ptr<ir::tir::IntImm>()->value;
  if (auto x = a.as_ptr<ir::tir::FloatImm>())
    return x->value == b.as_ptr<ir::tir::FloatImm>()->value;
  if (auto x = a.as_ptr<ir::tir::BinaryOp>()) {
    auto y = b.as_ptr<ir::tir::BinaryOp>();
    return same_prim(x->a, y->a) && same_prim(x->b, y->b);
  }
  if (auto x = a.as_ptr<ir::tir::Cast>())
    return same_prim(x->value, b.as_ptr<ir::tir::Cast>()->value);
  return false;  // vars (compared by identity above) and rarer nodes
}

namespace {

Value tensor_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"shape=", "dtype=", "vdevice=", "ndim="});
  if (!args.ok()) return Value::error(call.span());
  const Value* shape = args.get("shape");
  const Value* dtype_v = args.get("dtype");
  // `R.Tensor("float32")`: a string first argument is the dtype.
  if (shape && shape->is_string() && !dtype_v) {
    dtype_v = shape;
    shape = nullptr;
  }
  bool ok = true;
  DataType dtype = DataType::Void();
  if (dtype_v && !dtype_v->is_none()) {
    auto t = fe.to_dtype(*dtype_v);
    if (t)
      dtype = *t;
    else
      ok = false;
  }
  int ndim = ir::kUnknownNDim;
  if (const Value* n = args.get("ndim")) {
    auto i = fe.to_int(*n);
    if (!i)
      ok = false;
    else if (*i < -1 || *i > std::numeric_limits<int>::max()) {
      // Beyond int, the value would wrap (2147483648 became -2147483648).
      fe.error(codes::kAnnotation, n->span(), "ndim must be -1 (unknown) or a non-negative int");
      ok = false;
    } else {
      ndim = static_cast<int>(*i);
    }
  }
  Ref<ir::VDevice> vdevice;
  if (const Value* vd = args.get("vdevice"); vd && !vd->is_none()) {
    if (vd->is_string())
      vdevice = lookup_vdevice(fe, vd->as_string(), vd->span());
    else
      vdevice = vd->as<ir::VDevice>();
    if (!vdevice) {
      if (!vd->is_string() && !vd->is_error())
        fe.error(codes::kVDevice, vd->span(), "vdevice must be a string such as \"cuda:0\"");
      ok = false;
    }
  }
  Ref<ir::Expr> shape_expr;
  if (shape && !shape->is_none()) {
    if (shape->is_sequence()) {
      auto dims = to_dims(fe, *shape, "the shape of R.Tensor");
      if (!dims)
        ok = false;
      else {
        int rank = static_cast<int>(dims->size());
        if (ndim != ir::kUnknownNDim && ndim != rank) {
          fe.error(codes::kAnnotation, call.span(),
                   "ndim=" + std::to_string(ndim) + " does not match the shape's " +
                       std::to_string(rank) + " dimensions");
          ok = false;
        }
        ndim = rank;
        auto se = make<ir::ShapeExpr>(std::move(*dims));
        se->span = shape->span();
        shape_expr = se;
      }
    } else if (auto var = shape->as<ir::Var>()) {
      auto ss = var->struct_info.as<ir::ShapeStructInfo>();
      if (!var->struct_info || var->struct_info.is<ir::StructInfoOf>()) {
        // A shape inference gives (`s = R.call_pure_packed(..., sinfo_args=R.Shape(ndim=2))`):
        // normalize checks it is a shape and takes its rank.
        shape_expr = var;
      } else if (!ss) {
        fe.error(codes::kAnnotation, shape->span(),
                 "a tensor shape given by a variable needs a variable of R.Shape struct info");
        ok = false;
      } else {
        shape_expr = var;
        if (ndim == ir::kUnknownNDim) ndim = ss->ndim;
      }
    } else if (auto se = shape->as<ir::ShapeExpr>()) {
      shape_expr = se;
      ndim = static_cast<int>(se->values.size());
    } else if (!shape->is_error()) {
      fe.error(
          codes::kAnnotation, shape->span(),
          "the shape of R.Tensor must be a tuple or list of dimensions, got " + shape->describe());
      ok = false;
    } else {
      ok = false;
    }
  }
  if (!ok) return Value::error(call.span());
  auto sinfo = make<ir::TensorStructInfo>(shape_expr, dtype, ndim, vdevice);
  sinfo->span = call.span();
  return Value::object(sinfo, call.span());
}

Value shape_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"values=", "ndim="});
  if (!args.ok()) return Value::error(call.span());
  int ndim = ir::kUnknownNDim;
  if (const Value* n = args.get("ndim")) {
    auto i = fe.to_int(*n);
    if (!i) return Value::error(call.span());
    if (*i < -1 || *i > std::numeric_limits<int>::max()) {
      fe.error(codes::kAnnotation, n->span(), "ndim must be -1 (unknown) or a non-negative int");
      return Value::error(call.span());
    }
    ndim = static_cast<int>(*i);
  }
  Ref<ir::ShapeStructInfo> sinfo;
  const Value* values = args.get("values");
  if (values && !values->is_none()) {
    auto dims = to_dims(fe, *values, "R.Shape");
    if (!dims) return Value::error(call.span());
    if (ndim != ir::kUnknownNDim && ndim != static_cast<int>(dims->size())) {
      fe.error(codes::kAnnotation, call.span(),
               "ndim=" + std::to_string(ndim) + " does not match the " +
                   std::to_string(dims->size()) + " values");
      return Value::error(call.span());
    }
    sinfo = make<ir::ShapeStructInfo>(std::move(*dims));
  } else {
    sinfo = make<ir::ShapeStructInfo>(ndim);
  }
  sinfo->span = call.span();
  return Value::object(sinfo, call.span());
}

Value tuple_builtin(Frontend& fe, const CallArgs& call) {
  if (!call.kwargs.empty()) {
    fe.error(codes::kAnnotation, call.kwarg_nodes.empty() ? call.node : call.kwarg_nodes[0],
             "R.Tuple takes no keyword arguments");
    return Value::error(call.span());
  }
  std::vector<Value> items = call.args;
  if (items.size() == 1 && items[0].is_sequence()) items = items[0].items();
  std::vector<Ref<ir::StructInfo>> fields;
  bool ok = true;
  for (const Value& item : items) {
    auto s = to_struct_info(fe, item);
    ok &= s != nullptr;
    fields.push_back(s);
  }
  if (!ok) return Value::error(call.span());
  auto sinfo = make<ir::TupleStructInfo>(std::move(fields));
  sinfo->span = call.span();
  return Value::object(sinfo, call.span());
}

Value object_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {});
  if (!args.ok()) return Value::error(call.span());
  auto sinfo = make<ir::ObjectStructInfo>();
  sinfo->span = call.span();
  return Value::object(sinfo, call.span());
}

Value prim_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"dtype=", "value="});
  if (!args.ok()) return Value::error(call.span());
  const Value* dtype_v = args.get("dtype");
  const Value* value_v = args.get("value");
  if ((!dtype_v || dtype_v->is_none()) && (!value_v || value_v->is_none())) {
    fe.error(codes::kAnnotation, call.node, "R.Prim needs a dtype or a value");
    return Value::error(call.span());
  }
  std::optional<DataType> dtype;
  if (dtype_v && !dtype_v->is_none()) {
    dtype = fe.to_dtype(*dtype_v);
    if (!dtype) return Value::error(call.span());
  }
  Ref<PrimExpr> value;
  if (value_v && !value_v->is_none()) {
    if (value_v->is_float()) {
      value = ir::tir::float_imm(dtype ? *dtype : DataType::Float(64), value_v->as_float(),
                                 value_v->span());
    } else if (auto p = value_v->as<PrimExpr>();
               p && (!p->dtype.is_int() ||
                     (p->dtype != DataType::Int64() && (!dtype || *dtype == p->dtype)))) {
      // A PrimExpr keeps its dtype, as in TVM: `R.Prim(value=T.int32(3))`, which the printer
      // writes for an int32 prim value, is int32. Python ints and names are int64 dimensions.
      value = p;
    } else {
      value = to_dim(fe, *value_v);
    }
    if (!value) return Value::error(call.span());
    if (!dtype) dtype = value->dtype;
  }
  auto sinfo = make<ir::PrimStructInfo>(*dtype, value);
  sinfo->span = call.span();
  return Value::object(sinfo, call.span());
}

Value callable_builtin(Frontend& fe, const CallArgs& call) {
  ArgBinder args(fe, call, {"params=", "ret=", "purity=", "derive_func="});
  if (!args.ok()) return Value::error(call.span());
  auto sinfo = make<ir::FuncStructInfo>();
  sinfo->span = call.span();
  const Value* params = args.get("params");
  if (params && !params->is_none()) {
    std::vector<Value> items =
        params->is_sequence() ? params->items() : std::vector<Value>{*params};
    std::vector<Ref<ir::StructInfo>> ps;
    for (const Value& item : items) {
      auto s = to_struct_info(fe, item);
      if (!s) return Value::error(call.span());
      ps.push_back(s);
    }
    sinfo->params = std::move(ps);
  }
  // TVM's defaults: an opaque function is impure, a function with known parameters pure.
  sinfo->purity = sinfo->params.has_value();
  if (const Value* p = args.get("purity"); p && !p->is_none()) {
    auto b = fe.to_bool(*p);
    if (!b) return Value::error(call.span());
    sinfo->purity = *b;
  }
  const Value* ret = args.get("ret");
  if (ret && !ret->is_none()) {
    sinfo->ret = to_struct_info(fe, *ret);
    if (!sinfo->ret) return Value::error(call.span());
  } else {
    sinfo->ret = make<ir::ObjectStructInfo>();
  }
  if (const Value* d = args.get("derive_func"); d && !d->is_none()) {
    auto s = fe.to_string(*d);
    if (!s) return Value::error(call.span());
    sinfo->derive_func = *s;
  }
  return Value::object(sinfo, call.span());
}

}  // namespace

void register_struct_info_builtins(Frontend& fe) {
  fe.register_builtin("R.Tensor", tensor_builtin);
  fe.register_builtin("R.Shape", shape_builtin);
  fe.register_builtin("R.Tuple", tuple_builtin);
  fe.register_builtin("R.Object", object_builtin);
  fe.register_builtin("R.Any", object_builtin);
  fe.register_builtin("R.Prim", prim_builtin);
  fe.register_builtin("R.Callable", callable_builtin);
  fe.register_builtin("R.dist.DTensor", [](Frontend& fe, const CallArgs& call) -> Value {
    fe.error(codes::kAnnotation, call.node,
             "distributed tensors (R.dist.DTensor) are not supported");
    return Value::error(call.span());
  });
}

}  // namespace relax::syntax::relax_fe

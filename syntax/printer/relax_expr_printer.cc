// Relax expressions and struct info as TVM's printer writes them: struct info annotations
// (`R.Tensor((n, 4), dtype="float32")`), calls of ops with their attributes, the call_tir /
// packed-call family with their struct-info arguments, constants, shapes, prim values, tuples,
// and symbolic dims (declared at the function's top when first printed).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "ir/tir_visitor.h"
#include "syntax/frontend/relax_frontend.h"
#include "syntax/printer/relax_printer_state.h"

namespace relax::syntax {

using ir::ObjectKind;
using ir::Ref;
using ir::tir::PrimExpr;

namespace relax_printer {

namespace {

// Symbolic vars of an expression in first-occurrence order (the order TVM's printer meets them).
class VarCollector : public ir::tir::Visitor {
 public:
  void visit_var(const Ref<ir::tir::Var>& var) override {
    for (const auto* v : vars) {
      if (v == var.get()) return;
    }
    vars.push_back(var.get());
  }
  std::vector<const ir::tir::Var*> vars;
};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i];
  }
  return out;
}

std::string tuple_text(const std::vector<std::string>& items) {
  if (items.size() == 1) return "(" + items[0] + ",)";
  return "(" + join(items) + ")";
}

// A TypeVar declares a plain int64 variable; size variables and other dtypes keep the legacy
// quoted dim and `n = T.int64(is_size_var=True)` declaration, which say what they are.
bool is_type_var_kind(const ir::tir::Var& var) {
  return var.dtype == ir::DataType::Int64() && !var.is_size_var;
}

}  // namespace

std::string print_dim(PrinterContext& ctx, const Ref<PrimExpr>& e) {
  FunctionState* st = current_state(ctx);
  bool quote = false;
  if (st && e) {
    VarCollector collector;
    collector.visit_expr(e);
    for (const ir::tir::Var* var : collector.vars) {
      if (!ctx.names.find(var)) {
        const std::string& name = ctx.names.define_in_frame(st->frame, var, var->name);
        if (st->signature_vars && !ctx.legacy() && is_type_var_kind(*var)) {
          // The current profile declares signature vars as TypeVars above the module.
          ctx.type_vars.insert(name);
        } else {
          ctx.uses_tir = true;
          st->header.push_back(name + " = T." + var->dtype.str() +
                               (var->is_size_var ? "(is_size_var=True)" : "()"));
        }
        if (st->signature_vars) st->signature_vars->insert(var);
      }
      if (st->signature_vars && st->signature_vars->count(var)) quote = true;
    }
  }
  std::string text = print_prim_expr(ctx, e, /*relax_context=*/true);
  // Legacy signatures quote every dim over a var they define; with TypeVars a bare var needs no
  // quotes (compound expressions keep them).
  if (quote && !ctx.legacy() && e.is<ir::tir::Var>() && is_type_var_kind(*e.as_ptr<ir::tir::Var>()))
    quote = false;
  return quote ? quote_string(text) : text;
}

std::string print_callee(PrinterContext& ctx, const Ref<ir::Expr>& e) {
  if (auto f = e.as_ptr<ir::ExternFunc>()) return quote_string(f->global_symbol);
  return print_relax_expr(ctx, e);
}

std::string vdevice_name(PrinterContext& ctx, const ir::VDevice& vd) {
  std::string kind = vd.target ? vd.target->kind_name() : "";
  int index = -1;
  if (ctx.module) {
    int seen = 0;
    for (const auto& other : ctx.module->vdevices()) {
      if (other.get() == &vd) {
        index = seen;
        break;
      }
      if ((other->target ? other->target->kind_name() : "") == kind) ++seen;
    }
  }
  return kind + ":" + std::to_string(index);
}

}  // namespace relax_printer

using namespace relax_printer;

namespace {

std::string sinfo_list(PrinterContext& ctx, const std::vector<Ref<ir::StructInfo>>& items) {
  std::vector<std::string> out;
  for (const auto& s : items) out.push_back(print_struct_info(ctx, s));
  return join(out);
}

// --- Constants -------------------------------------------------------------------------------

double half_to_double(uint16_t bits) {
  int sign = bits >> 15;
  int exponent = (bits >> 10) & 0x1F;
  int fraction = bits & 0x3FF;
  double value;
  if (exponent == 0x1F)
    value = fraction ? std::nan("") : INFINITY;
  else if (exponent == 0)
    value = std::ldexp(static_cast<double>(fraction), -24);
  else
    value = std::ldexp(static_cast<double>(fraction | 0x400), exponent - 25);
  return sign ? -value : value;
}

std::string float_literal(double v) {
  if (std::isfinite(v)) return format_float(v);
  return quote_string(format_nonfinite(v));
}

// The value of a scalar constant TVM prints inline, or "" when it goes to metadata.
std::string scalar_literal(const ir::TensorData& d) {
  const uint8_t* p = d.bytes.data();
  const ir::DataType t = d.dtype;
  auto read = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  if (d.bytes.size() < static_cast<size_t>(t.bytes())) return "";
  if (t.is_bool()) return read(uint8_t{}) ? "True" : "False";
  if (t.is_int() && t.lanes() == 1) {
    switch (t.bits()) {
      case 8:
        return std::to_string(read(int8_t{}));
      case 16:
        return std::to_string(read(int16_t{}));
      case 32:
        return std::to_string(read(int32_t{}));
      case 64:
        return std::to_string(read(int64_t{}));
      default:
        return "";
    }
  }
  if (t.is_float() && t.lanes() == 1) {
    switch (t.bits()) {
      case 16:
        return float_literal(half_to_double(read(uint16_t{})));
      case 32:
        return float_literal(static_cast<double>(read(float{})));
      case 64:
        return float_literal(read(double{}));
      default:
        return "";
    }
  }
  return "";
}

std::string constant_text(PrinterContext& ctx, const ir::Constant& c) {
  if (c.data && c.data->shape.empty()) {
    std::string v = scalar_literal(*c.data);
    if (!v.empty()) return "R.const(" + v + ", " + quote_string(c.data->dtype.str()) + ")";
  }
  const void* key = c.data ? static_cast<const void*>(c.data.get()) : &c;
  auto it = ctx.metadata.find(key);
  int index = c.data ? -1 : c.metadata_index;
  if (it != ctx.metadata.end()) {
    index = it->second.index;
  } else if (index < 0) {
    // A constant whose payload the text cannot show: the next index after those in use.
    index = 0;
    for (const auto& [node, entry] : ctx.metadata) index = std::max(index, entry.index + 1);
  }
  ctx.metadata[key] = {index, c.data.get()};
  return "metadata[\"relax.expr.Constant\"][" + std::to_string(index) + "]";
}

// --- Calls -----------------------------------------------------------------------------------

std::string attr_text_for(PrinterContext& ctx, const std::string& key, const ir::ObjectRef& v) {
  // The current profile writes an absent dtype as None (legacy: "void").
  if (!ctx.legacy() && key.ends_with("dtype")) {
    if (auto s = v.as_ptr<ir::StringValue>(); s && s->value == "void") return "None";
  }
  if (auto vd = v.as_ptr<ir::VDevice>()) return quote_string(vdevice_name(ctx, *vd));
  return print_attr_value(ctx, v, /*relax_context=*/true);
}

std::string out_sinfo_text(PrinterContext& ctx, const Ref<ir::StructInfo>& s) {
  if (auto t = s.as_ptr<ir::TupleStructInfo>()) return "[" + sinfo_list(ctx, t->fields) + "]";
  return print_struct_info(ctx, s);
}

bool is_call_tir_family(const std::string& op) {
  return op == "relax.call_tir" || op == "relax.call_tir_inplace" ||
         op == "relax.call_dps_packed" || op == "relax.call_tir_with_grad";
}

std::string call_tir_text(PrinterContext& ctx, const ir::Call& c) {
  const std::string& op = c.op_name();
  std::vector<std::string> args{print_callee(ctx, c.args[0])};
  const auto* tir_vars = c.args.size() == 3 ? c.args[2].as_ptr<ir::ShapeExpr>() : nullptr;
  bool vars_in_tuple =
      !ctx.legacy() && tir_vars && c.args[1].is<ir::Tuple>() && op != "relax.call_dps_packed";
  if (vars_in_tuple) {
    // Current TVM passes the symbolic arguments inside the args tuple.
    std::vector<std::string> fields;
    for (const auto& f : c.args[1].as_ptr<ir::Tuple>()->fields) {
      if (auto pv = f.as_ptr<ir::PrimValue>())
        fields.push_back("R.prim_value(" + print_dim(ctx, pv->value) + ")");
      else
        fields.push_back(print_relax_expr(ctx, f));
    }
    for (const auto& v : tir_vars->values) fields.push_back(print_dim(ctx, v));
    args.push_back(fields.empty() ? "R.tuple()" : tuple_text(fields));
  } else {
    args.push_back(print_relax_expr(ctx, c.args[1]));
  }
  args.push_back((ctx.legacy() ? "out_sinfo=" : "out_ty=") + out_sinfo_text(ctx, c.sinfo_args[0]));
  if (op == "relax.call_tir_inplace") {
    args.push_back("inplace_indices=" +
                   print_attr_value(ctx, c.attrs.find("inplace_indices"), true));
  }
  if (op == "relax.call_tir_with_grad") {
    args.push_back("te_grad_name=" + print_attr_value(ctx, c.attrs.find("te_grad_name"), true));
    auto kw = c.attrs.find("te_grad_kwargs").as_ptr<ir::MapValue>();
    if (kw && !kw->entries.empty())
      args.push_back("te_grad_kwargs=" +
                     print_attr_value(ctx, c.attrs.find("te_grad_kwargs"), true));
  }
  if (c.args.size() == 3 && op != "relax.call_dps_packed" && !vars_in_tuple) {
    args.push_back("tir_vars=" + print_relax_expr(ctx, c.args[2]));
  }
  ctx.uses_relax = true;
  return "R." + c.op.as_ptr<ir::Op>()->short_name() + "(" + join(args) + ")";
}

std::string call_text(PrinterContext& ctx, const ir::Call& c) {
  const std::string& op = c.op_name();
  if (is_call_tir_family(op) && (c.args.size() == 2 || c.args.size() == 3) &&
      c.sinfo_args.size() == 1) {
    return call_tir_text(ctx, c);
  }
  if (op == "relax.assert_op" && c.args.size() >= 2) {
    std::vector<std::string> args{print_relax_expr(ctx, c.args[0])};
    std::string format = print_relax_expr(ctx, c.args[1]);
    for (size_t i = 2; i < c.args.size(); ++i) args.push_back(print_relax_expr(ctx, c.args[i]));
    args.push_back("format=" + format);
    return "R.assert_op(" + join(args) + ")";
  }
  if (op == "relax.hint_on_device" && !c.args.empty()) {
    std::vector<std::string> args{print_callee(ctx, c.args[0])};
    std::vector<std::string> kw;
    for (const auto& [k, v] : c.attrs) kw.push_back(k + "=" + attr_text_for(ctx, k, v));
    args.push_back("R.device(" + join(kw) + ")");
    return "R.hint_on_device(" + join(args) + ")";
  }
  if (op == "relax.to_vdevice" && !c.args.empty()) {
    std::vector<std::string> args{print_callee(ctx, c.args[0])};
    for (const auto& [k, v] : c.attrs) args.push_back(k + "=" + attr_text_for(ctx, k, v));
    return "R.to_vdevice(" + join(args) + ")";
  }
  if (op == "relax.print" && !c.args.empty()) {
    std::string format = print_relax_expr(ctx, c.args[0]);
    std::vector<std::string> args;
    for (size_t i = 1; i < c.args.size(); ++i) args.push_back(print_relax_expr(ctx, c.args[i]));
    args.push_back("format=" + format);
    return "R.print(" + join(args) + ")";
  }
  std::string prefix;
  std::vector<std::string> args;
  if (auto ext = c.op.as_ptr<ir::ExternFunc>()) {
    prefix = "R.call_packed";
    args.push_back(quote_string(ext->global_symbol));
  } else if (auto o = c.op.as_ptr<ir::Op>()) {
    prefix = o->name.starts_with("relax.") ? "R." + o->short_name() : o->name;
  } else {
    prefix = print_relax_expr(ctx, c.op);
  }
  ctx.uses_relax = true;
  for (size_t i = 0; i < c.args.size(); ++i) {
    args.push_back(i == 0 ? print_callee(ctx, c.args[i]) : print_relax_expr(ctx, c.args[i]));
  }
  for (const auto& [k, v] : c.attrs) args.push_back(k + "=" + attr_text_for(ctx, k, v));
  if (!c.sinfo_args.empty()) {
    std::vector<std::string> s;
    for (const auto& si : c.sinfo_args) s.push_back(print_struct_info(ctx, si));
    args.push_back((ctx.legacy() ? "sinfo_args=" : "ty_args=") + tuple_text(s));
  }
  return prefix + "(" + join(args) + ")";
}

std::string global_var_text(PrinterContext& ctx, const ir::GlobalVar& g) {
  FunctionState* st = current_state(ctx);
  if (st && !st->standalone && ctx.module && ctx.module->find(g.name)) {
    if (!st->cls_printed) {
      st->cls_printed = true;
      st->header.push_back("cls = " + ctx.module->name);
    }
    return "cls." + g.name;
  }
  return g.name;
}

}  // namespace

std::string print_struct_info(PrinterContext& ctx, const Ref<ir::StructInfo>& sinfo) {
  ctx.uses_relax = true;
  if (!sinfo) return "None";
  switch (sinfo->kind()) {
    case ObjectKind::kObjectStructInfo:
      return ctx.legacy() ? "R.Object" : "R.Any";
    case ObjectKind::kPrimStructInfo: {
      const auto& p = static_cast<const ir::PrimStructInfo&>(*sinfo);
      if (p.value) return "R.Prim(value=" + print_dim(ctx, p.value) + ")";
      if (!ctx.legacy()) {
        ctx.uses_tir = true;
        return "T." + p.dtype.str();
      }
      return "R.Prim(" + quote_string(p.dtype.str()) + ")";
    }
    case ObjectKind::kShapeStructInfo: {
      const auto& s = static_cast<const ir::ShapeStructInfo&>(*sinfo);
      if (s.values) {
        std::vector<std::string> dims;
        for (const auto& v : *s.values) dims.push_back(print_dim(ctx, v));
        return "R.Shape([" + join(dims) + "])";
      }
      return "R.Shape(ndim=" + std::to_string(s.ndim) + ")";
    }
    case ObjectKind::kTensorStructInfo: {
      const auto& t = static_cast<const ir::TensorStructInfo&>(*sinfo);
      std::vector<std::string> args;
      if (t.shape) {
        if (auto se = t.shape.as_ptr<ir::ShapeExpr>()) {
          std::vector<std::string> dims;
          for (const auto& v : se->values) dims.push_back(print_dim(ctx, v));
          args.push_back(tuple_text(dims));
        } else {
          args.push_back(print_relax_expr(ctx, t.shape));
        }
      }
      if (!t.is_unknown_dtype()) args.push_back("dtype=" + quote_string(t.dtype.str()));
      // With a shape variable, ndim follows from the variable's struct info; an ndim that does
      // not (an error the normalizer reports, E0357) is printed so that the text reads back.
      bool ndim_implied = false;
      if (t.shape) {
        auto var_sinfo = t.shape->struct_info.as_ptr<ir::ShapeStructInfo>();
        ndim_implied = t.shape.as_ptr<ir::ShapeExpr>() || (var_sinfo && var_sinfo->ndim == t.ndim);
      }
      if (!t.is_unknown_ndim() && !ndim_implied) args.push_back("ndim=" + std::to_string(t.ndim));
      if (t.vdevice && t.vdevice->target)
        args.push_back("vdevice=" + quote_string(vdevice_name(ctx, *t.vdevice)));
      if (args.empty()) return "R.Tensor";
      return "R.Tensor(" + join(args) + ")";
    }
    case ObjectKind::kTupleStructInfo: {
      const auto& t = static_cast<const ir::TupleStructInfo&>(*sinfo);
      if (t.fields.empty()) return "R.Tuple";
      return "R.Tuple(" + sinfo_list(ctx, t.fields) + ")";
    }
    case ObjectKind::kFuncStructInfo: {
      const auto& f = static_cast<const ir::FuncStructInfo&>(*sinfo);
      // TVM prints the result before the parameters (this orders symbolic var declarations).
      std::string ret = print_struct_info(
          ctx, f.ret ? f.ret : Ref<ir::StructInfo>(ir::make<ir::ObjectStructInfo>()));
      std::string purity = f.purity ? "True" : "False";
      if (f.is_opaque()) {
        std::vector<std::string> kw;
        if (f.ret && !f.ret.is<ir::ObjectStructInfo>()) kw.push_back("ret=" + ret);
        if (f.purity) kw.push_back("purity=True");
        // TVM leaves a derivation function out; it is kept so that the text reparses the same,
        // except the extern functions' default, which inference gives every R.ExternFunc again.
        if (!f.derive_func.empty() && f.derive_func != "tvm.relax.struct_info.infer_by_sinfo_args")
          kw.push_back("derive_func=" + quote_string(f.derive_func));
        if (kw.empty()) return "R.Callable";
        return "R.Callable(" + join(kw) + ")";
      }
      std::vector<std::string> params;
      for (const auto& p : *f.params) params.push_back(print_struct_info(ctx, p));
      return "R.Callable(" + tuple_text(params) + ", " + ret + ", " + purity + ")";
    }
    case ObjectKind::kStructInfoOf:
      // Only before inference (printing the front end's output as it is).
      return print_relax_expr(ctx, static_cast<const ir::StructInfoOf&>(*sinfo).expr) +
             ".struct_info";
    default:
      return "R.Object";
  }
}

std::string print_relax_expr(PrinterContext& ctx, const Ref<ir::Expr>& expr) {
  ctx.uses_relax = true;
  if (!expr) return "None";
  switch (expr->kind()) {
    case ObjectKind::kVar:
    case ObjectKind::kDataflowVar: {
      std::string name = ctx.name_of(expr.get());
      return name.empty() ? static_cast<const ir::Var&>(*expr).name : name;
    }
    case ObjectKind::kGlobalVar:
      return global_var_text(ctx, static_cast<const ir::GlobalVar&>(*expr));
    case ObjectKind::kConstant:
      return constant_text(ctx, static_cast<const ir::Constant&>(*expr));
    case ObjectKind::kTuple: {
      const auto& t = static_cast<const ir::Tuple&>(*expr);
      if (t.fields.empty()) return "R.tuple()";
      std::vector<std::string> fields;
      for (const auto& f : t.fields) fields.push_back(print_relax_expr(ctx, f));
      return tuple_text(fields);
    }
    case ObjectKind::kTupleGetItem: {
      const auto& g = static_cast<const ir::TupleGetItem&>(*expr);
      return print_relax_expr(ctx, g.tuple) + "[" + std::to_string(g.index) + "]";
    }
    case ObjectKind::kCall:
      return call_text(ctx, static_cast<const ir::Call&>(*expr));
    case ObjectKind::kShapeExpr: {
      std::vector<std::string> dims;
      for (const auto& v : static_cast<const ir::ShapeExpr&>(*expr).values)
        dims.push_back(print_dim(ctx, v));
      return "R.shape([" + join(dims) + "])";
    }
    case ObjectKind::kPrimValue: {
      std::string v = print_dim(ctx, static_cast<const ir::PrimValue&>(*expr).value);
      return ctx.legacy() ? "R.prim_value(" + v + ")" : v;
    }
    case ObjectKind::kStringImm:
      return "R.str(" + quote_string(static_cast<const ir::StringImm&>(*expr).value) + ")";
    case ObjectKind::kDataTypeImm:
      return "R.dtype(" + quote_string(static_cast<const ir::DataTypeImm&>(*expr).value.str()) +
             ")";
    case ObjectKind::kExternFunc:
      return "R.ExternFunc(" +
             quote_string(static_cast<const ir::ExternFunc&>(*expr).global_symbol) + ")";
    case ObjectKind::kOp: {
      const auto& o = static_cast<const ir::Op&>(*expr);
      return o.name.starts_with("relax.") ? "R." + o.short_name() : o.name;
    }
    default:
      return std::string("<") + ir::kind_name(expr->kind()) + ">";
  }
}

}  // namespace relax::syntax

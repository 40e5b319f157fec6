// PrimExpr printing with Python precedence: a left operand is parenthesised when it binds
// looser than its operator, a right operand also when it binds equally (`a - (b - c)`).
// Immediates carry their dtype (`T.int64(8)`, `T.float32(0.5)`) except int32 (and int64 in
// Relax contexts), as TVM prints them. An operator TVM's builder would fold (two literals,
// `x + 0`, a constant comparison) prints as its node constructor (`T.Add(1, 2)`).
#include <algorithm>
#include <cmath>
#include <tuple>

#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_ops.h"
#include "syntax/printer/tir_expr_printer.h"

namespace relax::syntax {

using ir::ObjectKind;
using ir::Ref;
using namespace ir::tir;

std::string PrimExprPrinter::tir(std::string_view name) {
  ctx_.uses_tir = true;
  return "T." + std::string(name);
}

std::string PrimExprPrinter::var_name(const Var& v) {
  std::string name = ctx_.name_of(&v);
  return name.empty() ? (v.name.empty() ? "v" : v.name) : name;
}

std::string PrimExprPrinter::buffer_name(const Buffer& b) {
  std::string name = ctx_.name_of(&b);
  return name.empty() ? (b.name.empty() ? "buffer" : b.name) : name;
}

std::string PrimExprPrinter::define_lambda_var(const Var& v) {
  std::string name = v.name.empty() ? "v" : v.name;
  lambda_names_[&v] = name;
  return name;
}

std::string PrimExprPrinter::global_name(const std::string& name) {
  std::string module = ctx_.module ? ctx_.module->name : "Module";
  return module + "." + name;
}

std::string PrimExprPrinter::int_imm(const IntImm& i) {
  if (i.dtype.is_bool()) {
    if (relax_) return i.value ? "True" : "False";
    return tir("bool") + (i.value ? "(True)" : "(False)");
  }
  // A bare integer reads back as int32 in TIR and as int64 in Relax (shapes, prim values), so
  // only that dtype prints bare in each context.
  if (relax_ ? i.dtype == ir::DataType::Int64() : i.dtype == ir::DataType::Int32())
    return std::to_string(i.value);
  return tir(i.dtype.str()) + "(" + std::to_string(i.value) + ")";
}

bool PrimExprPrinter::int64_literals_need_dtype(const std::vector<Ref<PrimExpr>>& operands) const {
  if (!relax_) return false;
  bool literal = false;
  for (const auto& e : operands) {
    if (!e || e->dtype != ir::DataType::Int64()) continue;
    if (!e.is<IntImm>()) return false;
    literal = true;
  }
  return literal;
}

bool PrimExprPrinter::int64_literals_need_dtype(
    std::initializer_list<Ref<PrimExpr>> operands) const {
  return int64_literals_need_dtype(std::vector<Ref<PrimExpr>>(operands));
}

std::string PrimExprPrinter::operand(const Ref<PrimExpr>& e, bool typed) {
  auto imm = e.as_ptr<IntImm>();
  if (typed && imm && imm->dtype == ir::DataType::Int64())
    return tir("int64") + "(" + std::to_string(imm->value) + ")";
  return print(e);
}

std::string PrimExprPrinter::list(const std::vector<Ref<PrimExpr>>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += print(items[i]);
  }
  return out;
}

std::string PrimExprPrinter::wrap(const Printed& p, int parent, bool paren_on_equal) {
  if (p.prec < parent || (paren_on_equal && p.prec == parent)) return "(" + p.text + ")";
  return p.text;
}

PrimExprPrinter::Printed PrimExprPrinter::print_prec(const Ref<PrimExpr>& e) {
  if (!e) return {"None", kAtom};
  switch (e->kind()) {
    case ObjectKind::kTirVar: {
      auto it = lambda_names_.find(e.get());
      if (it != lambda_names_.end()) return {it->second, kAtom};
      return {var_name(static_cast<const Var&>(*e)), kAtom};
    }
    case ObjectKind::kIntImm: {
      const auto& i = static_cast<const IntImm&>(*e);
      std::string text = int_imm(i);
      bool number = !i.dtype.is_bool() &&
                    (relax_ ? i.dtype == ir::DataType::Int64() : i.dtype == ir::DataType::Int32());
      return {text, kAtom, number};
    }
    case ObjectKind::kFloatImm: {
      const auto& f = static_cast<const FloatImm&>(*e);
      std::string v =
          std::isfinite(f.value) ? format_float(f.value) : "\"" + format_nonfinite(f.value) + "\"";
      return {tir(f.dtype.str()) + "(" + v + ")", kAtom};
    }
    case ObjectKind::kTirStringImm:
      return {quote_string(static_cast<const StringImm&>(*e).value), kAtom};
    case ObjectKind::kCast: {
      const auto& c = static_cast<const Cast&>(*e);
      std::string v = print(c.value);
      return {tir("Cast") + "(\"" + c.dtype.str() + "\", " + v + ")", kAtom};
    }
    case ObjectKind::kNot: {
      Printed a = print_prec(static_cast<const Not&>(*e).a);
      return {"not " + wrap(a, kBooleanNot, false), kBooleanNot};
    }
    case ObjectKind::kSelect: {
      const auto& s = static_cast<const Select&>(*e);
      bool typed = int64_literals_need_dtype({s.true_value, s.false_value});
      std::string c = print(s.condition);
      std::string t = operand(s.true_value, typed);
      std::string f = operand(s.false_value, typed);
      return {tir("Select") + "(" + c + ", " + t + ", " + f + ")", kAtom};
    }
    case ObjectKind::kBufferLoad: {
      const auto& l = static_cast<const BufferLoad&>(*e);
      std::string name = buffer_name(*l.buffer);
      if (l.predicate) {
        std::string idx = list(l.indices);
        std::string pred = print(l.predicate);
        return {name + ".vload([" + idx + "], predicate=" + pred + ")", kAtom};
      }
      std::string idx;
      for (size_t i = 0; i < l.indices.size(); ++i) {
        if (i) idx += ", ";
        idx += buffer_index(l.indices[i]);
      }
      return {name + "[" + (l.indices.empty() ? "()" : idx) + "]", kAtom};
    }
    case ObjectKind::kRamp: {
      const auto& r = static_cast<const Ramp&>(*e);
      std::string base = print(r.base);
      std::string stride = print(r.stride);
      std::string lanes = print(r.lanes);
      return {tir("Ramp") + "(" + base + ", " + stride + ", " + lanes + ")", kAtom};
    }
    case ObjectKind::kBroadcast: {
      const auto& b = static_cast<const Broadcast&>(*e);
      std::string value = print(b.value);
      std::string lanes = print(b.lanes);
      return {tir("Broadcast") + "(" + value + ", " + lanes + ")", kAtom};
    }
    case ObjectKind::kShuffle: {
      const auto& s = static_cast<const Shuffle&>(*e);
      std::string v = list(s.vectors);
      std::string i = list(s.indices);
      return {tir("Shuffle") + "([" + v + "], [" + i + "])", kAtom};
    }
    case ObjectKind::kLet: {
      const auto& l = static_cast<const Let&>(*e);
      std::string var = print(l.var);
      std::string value = print(l.value);
      std::string body = print(l.body);
      return {tir("Let") + "(" + body + ", where={" + var + ": " + value + "})", kAtom};
    }
    case ObjectKind::kTirCall:
      return {call(static_cast<const Call&>(*e)), kAtom};
    case ObjectKind::kReduce: {
      const auto& r = static_cast<const Reduce&>(*e);
      std::string combiner = r.combiner ? comm_reducer(*r.combiner) : "None";
      std::string out = tir("reduce") + "(" + combiner + ", [" + list(r.source) + "]";
      if (!r.init.empty()) out += ", init=[" + list(r.init) + "]";
      std::string axis;
      for (size_t i = 0; i < r.axis.size(); ++i) axis += (i ? ", " : "") + attr_value(r.axis[i]);
      out += ", axis=[" + axis + "]";
      if (r.condition && !is_const_int(r.condition, 1)) out += ", condition=" + print(r.condition);
      return {out + ", value_index=" + std::to_string(r.value_index) + ")", kAtom};
    }
    default:
      break;
  }
  if (auto bin = e.as_ptr<BinaryOp>()) {
    if (int64_literals_need_dtype({bin->a, bin->b})) {
      // Two int64 literals (a node the builder would have folded, or a division by zero):
      // printed as in TIR, with their dtype, so that they do not read back as int32.
      bool saved_relax = relax_;
      relax_ = false;
      Printed p = binary(*bin);
      relax_ = saved_relax;
      return p;
    }
    return binary(*bin);
  }
  return {"<?>", kAtom};
}

std::string PrimExprPrinter::call(const Call& c) {
  if (c.op.starts_with("@")) return global_name(c.op.substr(1)) + "(" + list(c.args) + ")";
  TirDtypeLocation loc = tir_dtype_location(c.op);
  std::string out = tir(tir_script_name(c.op)) + "(";
  bool first = true;
  if (loc == TirDtypeLocation::kFirst) {
    out += quote_string(c.dtype.str());
    first = false;
  }
  bool typed = int64_literals_need_dtype(c.args);
  for (const auto& a : c.args) {
    if (!first) out += ", ";
    first = false;
    out += operand(a, typed);
  }
  if (loc == TirDtypeLocation::kLast) {
    if (!first) out += ", ";
    out += quote_string(c.dtype.str());
  }
  return out + ")";
}

PrimExprPrinter::Printed PrimExprPrinter::binary(const BinaryOp& top) {
  std::vector<const BinaryOp*> spine{&top};
  while (auto next = spine.back()->a.as_ptr<BinaryOp>()) spine.push_back(next);
  // Bottom-up, in the order the recursive form printed (left before right): the leftmost
  // operand, then each node's right operand; the prefixes nest outward, the suffixes follow.
  Printed left = print_prec(spine.back()->a);
  std::string text = std::move(left.text);
  std::vector<std::string> prefixes;
  std::string suffixes;
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    Printed right = print_prec((*it)->b);
    Around w = around(**it, left, right);
    prefixes.push_back(std::move(w.prefix));
    suffixes += w.suffix;
    left = {"", w.prec};
  }
  std::string out;
  for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) out += *it;
  out += text;
  out += suffixes;
  return {std::move(out), left.prec};
}

PrimExprPrinter::Around PrimExprPrinter::around(const BinaryOp& b, const Printed& a,
                                                const Printed& c) {
  auto explicit_binary = [&](const char* name) -> Around {
    return {tir(name) + "(", ", " + c.text + ")", kAtom};
  };
  const char* op = nullptr;
  const char* ctor = nullptr;
  int prec = kAtom;
  switch (b.kind()) {
    case ObjectKind::kAdd:
      op = "+", ctor = "Add", prec = kAdd;
      break;
    case ObjectKind::kSub:
      op = "-", ctor = "Sub", prec = kAdd;
      break;
    case ObjectKind::kMul:
      op = "*", ctor = "Mul", prec = kMult;
      break;
    case ObjectKind::kDiv:
      op = "/", ctor = "Div", prec = kMult;
      break;
    case ObjectKind::kFloorDiv:
      op = "//", ctor = "FloorDiv", prec = kMult;
      break;
    case ObjectKind::kFloorMod:
      op = "%", ctor = "FloorMod", prec = kMult;
      break;
    case ObjectKind::kMod:
      return explicit_binary("truncmod");
    case ObjectKind::kMin:
      return explicit_binary("min");
    case ObjectKind::kMax:
      return explicit_binary("max");
    case ObjectKind::kEQ:
      op = "==", ctor = "EQ", prec = kComparison;
      break;
    case ObjectKind::kNE:
      op = "!=", ctor = "NE", prec = kComparison;
      break;
    case ObjectKind::kLT:
      op = "<", ctor = "LT", prec = kComparison;
      break;
    case ObjectKind::kLE:
      op = "<=", ctor = "LE", prec = kComparison;
      break;
    case ObjectKind::kGT:
      op = ">", ctor = "GT", prec = kComparison;
      break;
    case ObjectKind::kGE:
      op = ">=", ctor = "GE", prec = kComparison;
      break;
    case ObjectKind::kAnd:
      op = "and", ctor = "And", prec = kBooleanAnd;
      break;
    case ObjectKind::kOr:
      op = "or", ctor = "Or", prec = kBooleanOr;
      break;
    default:
      return {"", " <?> " + c.text, kAtom};  // not reached: every binary kind is above
  }
  // TVM prints the node constructor when its operator builder would not give this node back
  // (constant folding, identities) or when both operands are plain numbers.
  bool explicit_form = a.is_number && c.is_number;
  if (prec == kAdd || prec == kMult) {
    Ref<PrimExpr> rebuilt = prim_arith(b.kind(), b.a, b.b);
    if (!rebuilt || rebuilt->kind() != b.kind() || rebuilt->dtype != b.dtype) explicit_form = true;
    if (b.kind() == ObjectKind::kDiv && b.a && b.b && b.a->dtype.is_integer_like() &&
        b.b->dtype.is_integer_like()) {
      explicit_form = true;
    }
  } else if (prec == kComparison) {
    bool ca = b.a.is<IntImm>() || b.a.is<FloatImm>();
    bool cb = b.b.is<IntImm>() || b.b.is<FloatImm>();
    if (ca && cb) explicit_form = true;
  } else if (b.a.is<IntImm>() || b.b.is<IntImm>()) {
    explicit_form = true;  // logical and/or fold a constant operand
  }
  if (explicit_form) return explicit_binary(ctor);
  bool paren = a.prec < prec;  // as wrap(a, prec, false)
  return {paren ? "(" : "", std::string(paren ? ")" : "") + " " + op + " " + wrap(c, prec, true),
          prec};
}

std::string PrimExprPrinter::comm_reducer(const CommReducer& r) {
  begin_lambda();
  std::string params;
  for (const auto& v : r.lhs) params += (params.empty() ? "" : ", ") + define_lambda_var(*v);
  for (const auto& v : r.rhs) params += (params.empty() ? "" : ", ") + define_lambda_var(*v);
  std::string body;
  if (r.result.size() == 1) {
    body = print(r.result[0]);
  } else {
    body = "(" + list(r.result) + (r.result.size() == 1 ? ",)" : ")");
  }
  std::string identity = list(r.identity_element);
  end_lambda();
  return tir("comm_reducer") + "(lambda " + params + ": " + body + ", [" + identity + "])";
}

std::string PrimExprPrinter::index_map(const IndexMap& m) {
  // An index map is TIR (its indices parse as T.* expressions) even inside a Relax attribute.
  bool saved_relax = relax_;
  relax_ = false;
  begin_lambda();
  std::string params;
  for (const auto& v : m.initial_indices)
    params += (params.empty() ? "" : ", ") + define_lambda_var(*v);
  std::string body = list(m.final_indices);
  body = "(" + body + (m.final_indices.size() == 1 ? ",)" : ")");
  end_lambda();
  std::string out = tir("index_map") + "(lambda " + params + ": " + body;
  if (m.inverse) out += ", inverse_index_map=" + index_map(*m.inverse);
  relax_ = saved_relax;
  return out + ")";
}

std::string PrimExprPrinter::attr_value(const ir::ObjectRef& value) {
  if (!value) return "None";
  switch (value->kind()) {
    case ObjectKind::kString:
      return quote_string(static_cast<const ir::StringValue&>(*value).value);
    case ObjectKind::kBool:
      return static_cast<const ir::BoolValue&>(*value).value ? "True" : "False";
    case ObjectKind::kInt:
      return std::to_string(static_cast<const ir::IntValue&>(*value).value);
    case ObjectKind::kFloat: {
      double v = static_cast<const ir::FloatValue&>(*value).value;
      return std::isfinite(v) ? format_float(v) : "\"" + format_nonfinite(v) + "\"";
    }
    case ObjectKind::kArray: {
      std::string out = "[";
      const auto& items = static_cast<const ir::ArrayValue&>(*value).items;
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += attr_value(items[i]);
      }
      return out + "]";
    }
    case ObjectKind::kMap: {
      const auto& m = static_cast<const ir::MapValue&>(*value);
      // (sort key, printed key, printed value); string-keyed maps print sorted by key.
      std::vector<std::tuple<std::string, std::string, std::string>> entries;
      bool all_strings = true;
      for (const auto& [k, v] : m.entries) {
        auto s = k.as_ptr<ir::StringValue>();
        all_strings &= s != nullptr;
        std::string key = attr_value(k);
        entries.emplace_back(s ? s->value : "", key, attr_value(v));
      }
      if (all_strings) {
        std::stable_sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) {
          return std::get<0>(x) < std::get<0>(y);
        });
      }
      std::string out = "{";
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i) out += ", ";
        out += std::get<1>(entries[i]) + ": " + std::get<2>(entries[i]);
      }
      return out + "}";
    }
    case ObjectKind::kTarget:
      return tir("target") + "(" + attr_value(static_cast<const ir::Target&>(*value).config) + ")";
    case ObjectKind::kBuffer:
      return buffer_name(static_cast<const Buffer&>(*value));
    case ObjectKind::kCommReducer:
      return comm_reducer(static_cast<const CommReducer&>(*value));
    case ObjectKind::kIndexMap:
      return index_map(static_cast<const IndexMap&>(*value));
    case ObjectKind::kRange: {
      const auto& r = static_cast<const Range&>(*value);
      std::string lo = print(r.min);
      std::string hi = print(prim_arith(ObjectKind::kAdd, r.min, r.extent));
      return tir("Range") + "(" + lo + ", " + hi + ")";
    }
    case ObjectKind::kIterVar: {
      const auto& iv = static_cast<const IterVar&>(*value);
      static const char* kTypes[] = {"DataPar",    "ThreadIndex",  "CommReduce",
                                     "Ordered",    "Opaque",       "Unrolled",
                                     "Vectorized", "Parallelized", "Tensorized"};
      std::string var = print(iv.var);
      std::string dom = iv.dom ? attr_value(iv.dom) : "None";
      return tir("iter_var") + "(" + var + ", " + dom + ", \"" +
             kTypes[static_cast<int>(iv.iter_type)] + "\", " + quote_string(iv.thread_tag) + ")";
    }
    case ObjectKind::kOpaqueCall: {
      const auto& c = static_cast<const ir::OpaqueCall&>(*value);
      std::string out = c.callee + "(";
      bool first = true;
      for (const auto& a : c.args) {
        if (!first) out += ", ";
        first = false;
        out += attr_value(a);
      }
      for (const auto& [k, v] : c.kwargs) {
        if (!first) out += ", ";
        first = false;
        out += k + "=" + attr_value(v);
      }
      return out + ")";
    }
    default:
      break;
  }
  if (auto p = value.as<PrimExpr>()) return print(p);
  if (auto s = value.as<ir::StructInfo>()) return print_struct_info(ctx_, s);
  if (auto e = value.as<ir::Expr>()) return print_relax_expr(ctx_, e);
  return std::string("<") + ir::kind_name(value->kind()) + ">";
}

std::string print_prim_expr(PrinterContext& ctx, const Ref<PrimExpr>& expr, bool relax_context) {
  PrimExprPrinter printer(ctx, relax_context);
  return printer.print(expr);
}

std::string print_attr_value(PrinterContext& ctx, const ir::ObjectRef& value, bool relax_context) {
  PrimExprPrinter printer(ctx, relax_context);
  return printer.attr_value(value);
}

std::string print_attrs_dict(PrinterContext& ctx, const ir::Attrs& attrs, bool relax_context) {
  PrimExprPrinter printer(ctx, relax_context);
  std::vector<std::pair<std::string, std::string>> entries;
  for (const auto& [k, v] : attrs) entries.emplace_back(k, printer.attr_value(v));
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    out += quote_string(entries[i].first) + ": " + entries[i].second;
  }
  return out + "}";
}

}  // namespace relax::syntax

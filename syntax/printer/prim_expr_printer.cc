// PrimExpr printing with Python precedence: a left operand is parenthesised when it binds
// looser than its operator, a right operand also when it binds equally (`a - (b - c)`).
// Immediates carry their dtype (`T.int64(8)`, `T.float32(0.5)`) except int32 (and int64 in
// Relax contexts), as TVM prints them.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "syntax/frontend/prim_ops.h"
#include "syntax/printer/context.h"

namespace relax::syntax {

using ir::ObjectKind;
using ir::Ref;
using namespace ir::tir;

namespace {

// Python operator precedence, loosest first (TVM's ExprPrecedence order).
enum Prec : int {
  kLambdaPrec = 1,
  kIfThenElse = 2,
  kBooleanOr = 3,
  kBooleanAnd = 4,
  kBooleanNot = 5,
  kComparison = 6,
  kBitwiseOr = 7,
  kBitwiseXor = 8,
  kBitwiseAnd = 9,
  kShift = 10,
  kAdd = 11,
  kMult = 12,
  kUnary = 13,
  kPower = 14,
  kAtom = 15,
};

struct Printed {
  std::string text;
  int prec;
};

class PrimPrinter {
 public:
  PrimPrinter(PrinterContext& ctx, bool relax_context) : ctx_(ctx), relax_(relax_context) {}

  Printed print(const Ref<PrimExpr>& e) {
    if (!e) return {"None", kAtom};
    switch (e->kind()) {
      case ObjectKind::kTirVar: {
        std::string name = ctx_.name_of(e.get());
        if (name.empty()) name = static_cast<const Var&>(*e).name;
        return {name, kAtom};
      }
      case ObjectKind::kIntImm: return {int_imm(static_cast<const IntImm&>(*e)), kAtom};
      case ObjectKind::kFloatImm: {
        const auto& f = static_cast<const FloatImm&>(*e);
        std::string v = std::isfinite(f.value) ? format_float(f.value) : "\"" + format_nonfinite(f.value) + "\"";
        return {tir("") + f.dtype.str() + "(" + v + ")", kAtom};
      }
      case ObjectKind::kTirStringImm: return {quote_string(static_cast<const StringImm&>(*e).value), kAtom};
      case ObjectKind::kCast: {
        const auto& c = static_cast<const Cast&>(*e);
        return {tir("Cast") + "(\"" + c.dtype.str() + "\", " + print(c.value).text + ")", kAtom};
      }
      case ObjectKind::kNot: {
        Printed a = print(static_cast<const Not&>(*e).a);
        return {"not " + wrap(a, kBooleanNot, false), kBooleanNot};
      }
      case ObjectKind::kSelect: {
        const auto& s = static_cast<const Select&>(*e);
        return {tir("Select") + "(" + print(s.condition).text + ", " + print(s.true_value).text + ", " +
                    print(s.false_value).text + ")",
                kAtom};
      }
      case ObjectKind::kBufferLoad: {
        const auto& l = static_cast<const BufferLoad&>(*e);
        std::string name = l.buffer ? ctx_.name_of(l.buffer.get()) : "";
        if (name.empty() && l.buffer) name = l.buffer->name;
        return {name + "[" + index_list(l.indices) + "]", kAtom};
      }
      case ObjectKind::kRamp: {
        const auto& r = static_cast<const Ramp&>(*e);
        return {tir("Ramp") + "(" + print(r.base).text + ", " + print(r.stride).text + ", " + lanes(r.lanes) + ")", kAtom};
      }
      case ObjectKind::kBroadcast: {
        const auto& b = static_cast<const Broadcast&>(*e);
        return {tir("Broadcast") + "(" + print(b.value).text + ", " + lanes(b.lanes) + ")", kAtom};
      }
      case ObjectKind::kShuffle: {
        const auto& s = static_cast<const Shuffle&>(*e);
        return {tir("Shuffle") + "([" + list(s.vectors) + "], [" + list(s.indices) + "])", kAtom};
      }
      case ObjectKind::kLet: {
        const auto& l = static_cast<const Let&>(*e);
        std::string var = ctx_.name_of(l.var.get());
        if (var.empty()) var = l.var->name;
        return {tir("Let") + "(" + print(l.body).text + ", where={" + var + ": " + print(l.value).text + "})", kAtom};
      }
      case ObjectKind::kTirCall: return {call(static_cast<const Call&>(*e)), kAtom};
      case ObjectKind::kReduce: return {tir("reduce") + "(...)", kAtom};
      default: break;
    }
    if (auto bin = e.as_ptr<BinaryOp>()) return binary(*bin);
    return {"<?>", kAtom};
  }

 private:
  std::string tir(std::string_view name) {
    ctx_.uses_tir = true;
    return name.empty() ? std::string("T.") : "T." + std::string(name);
  }

  std::string int_imm(const IntImm& i) {
    if (i.dtype.is_bool()) {
      if (relax_) return i.value ? "True" : "False";
      return tir("bool") + (i.value ? "(True)" : "(False)");
    }
    // Bare in each dialect's default index type: int32 in TIR, int64 in Relax (where an int32
    // prints typed, as TVM's Relax printer does, so that it reparses as int32).
    if (relax_ ? i.dtype == ir::DataType::Int64() : i.dtype == ir::DataType::Int32()) {
      return std::to_string(i.value);
    }
    return tir("") + i.dtype.str() + "(" + std::to_string(i.value) + ")";
  }

  std::string lanes(const Ref<PrimExpr>& n) {
    if (auto imm = n.as_ptr<IntImm>()) return std::to_string(imm->value);
    return print(n).text;
  }

  std::string list(const std::vector<Ref<PrimExpr>>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      out += print(items[i]).text;
    }
    return out;
  }

  std::string index_list(const std::vector<Ref<PrimExpr>>& items) {
    if (items.empty()) return "()";
    return list(items);
  }

  std::string call(const Call& c) {
    std::string name = c.op;
    if (name.starts_with("tir.")) name = name.substr(4);
    return tir(name) + "(" + list(c.args) + ")";
  }

  static std::string wrap(const Printed& p, int parent, bool paren_on_equal) {
    if (p.prec < parent || (paren_on_equal && p.prec == parent)) return "(" + p.text + ")";
    return p.text;
  }

  Printed binary(const BinaryOp& b) {
    const char* op = nullptr;
    int prec = kAtom;
    switch (b.kind()) {
      case ObjectKind::kAdd: op = "+"; prec = kAdd; break;
      case ObjectKind::kSub: op = "-"; prec = kAdd; break;
      case ObjectKind::kMul: op = "*"; prec = kMult; break;
      case ObjectKind::kDiv:
        if (!b.dtype.is_floating()) return fn("Div", b);
        op = "/";
        prec = kMult;
        break;
      case ObjectKind::kFloorDiv: op = "//"; prec = kMult; break;
      case ObjectKind::kFloorMod: op = "%"; prec = kMult; break;
      case ObjectKind::kMod: return fn("truncmod", b);
      case ObjectKind::kMin: return fn("min", b);
      case ObjectKind::kMax: return fn("max", b);
      case ObjectKind::kEQ: op = "=="; prec = kComparison; break;
      case ObjectKind::kNE: op = "!="; prec = kComparison; break;
      case ObjectKind::kLT: op = "<"; prec = kComparison; break;
      case ObjectKind::kLE: op = "<="; prec = kComparison; break;
      case ObjectKind::kGT: op = ">"; prec = kComparison; break;
      case ObjectKind::kGE: op = ">="; prec = kComparison; break;
      case ObjectKind::kAnd: op = "and"; prec = kBooleanAnd; break;
      case ObjectKind::kOr: op = "or"; prec = kBooleanOr; break;
      default: return {"<?>", kAtom};
    }
    // Operators that the parser would fold (two constants, `x * 1`, ...) print as explicit
    // node constructors so that the text parses back to the same node.
    if (prec == kAdd || prec == kMult) {
      Ref<PrimExpr> rebuilt = prim_arith(b.kind(), b.a, b.b);
      if (!rebuilt || rebuilt->kind() != b.kind() || rebuilt->dtype != b.dtype) {
        static const char* kNames[] = {"Add", "Sub", "Mul", "Div", "Mod", "FloorDiv", "FloorMod"};
        return fn(kNames[static_cast<int>(b.kind()) - static_cast<int>(ObjectKind::kAdd)], b);
      }
    }
    Printed a = print(b.a);
    Printed c = print(b.b);
    return {wrap(a, prec, false) + " " + op + " " + wrap(c, prec, true), prec};
  }

  Printed fn(const char* name, const BinaryOp& b) {
    return {tir(name) + "(" + print(b.a).text + ", " + print(b.b).text + ")", kAtom};
  }

  PrinterContext& ctx_;
  bool relax_;
};

}  // namespace

std::string print_prim_expr(PrinterContext& ctx, const Ref<PrimExpr>& expr, bool relax_context) {
  PrimPrinter printer(ctx, relax_context);
  return printer.print(expr).text;
}

std::string print_attr_value(PrinterContext& ctx, const ir::ObjectRef& value, bool relax_context) {
  if (!value) return "None";
  switch (value->kind()) {
    case ObjectKind::kString: return quote_string(static_cast<const ir::StringValue&>(*value).value);
    case ObjectKind::kBool: return static_cast<const ir::BoolValue&>(*value).value ? "True" : "False";
    case ObjectKind::kInt: return std::to_string(static_cast<const ir::IntValue&>(*value).value);
    case ObjectKind::kFloat: {
      double v = static_cast<const ir::FloatValue&>(*value).value;
      return std::isfinite(v) ? format_float(v) : "\"" + format_nonfinite(v) + "\"";
    }
    case ObjectKind::kArray: {
      std::string out = "[";
      const auto& items = static_cast<const ir::ArrayValue&>(*value).items;
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        out += print_attr_value(ctx, items[i], relax_context);
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
        entries.emplace_back(s ? s->value : "", print_attr_value(ctx, k, relax_context),
                             print_attr_value(ctx, v, relax_context));
      }
      if (all_strings) std::stable_sort(entries.begin(), entries.end());
      std::string out = "{";
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i) out += ", ";
        out += std::get<1>(entries[i]) + ": " + std::get<2>(entries[i]);
      }
      return out + "}";
    }
    case ObjectKind::kTarget: {
      ctx.uses_tir = true;
      return "T.target(" + print_attr_value(ctx, static_cast<const ir::Target&>(*value).config, relax_context) + ")";
    }
    case ObjectKind::kBuffer:
    case ObjectKind::kTirVar: {
      std::string name = ctx.name_of(value.get());
      if (!name.empty()) return name;
      if (auto b = value.as_ptr<Buffer>()) return b->name;
      return static_cast<const Var&>(*value).name;
    }
    case ObjectKind::kOpaqueCall: {
      const auto& c = static_cast<const ir::OpaqueCall&>(*value);
      std::string out = c.callee + "(";
      bool first = true;
      for (const auto& a : c.args) {
        if (!first) out += ", ";
        first = false;
        out += print_attr_value(ctx, a, relax_context);
      }
      for (const auto& [k, v] : c.kwargs) {
        if (!first) out += ", ";
        first = false;
        out += k + "=" + print_attr_value(ctx, v, relax_context);
      }
      return out + ")";
    }
    default: break;
  }
  if (auto p = value.as<PrimExpr>()) return print_prim_expr(ctx, p, relax_context);
  if (auto s = value.as<ir::StructInfo>()) return print_struct_info(ctx, s);
  if (auto e = value.as<ir::Expr>()) return print_relax_expr(ctx, e);
  return std::string("<") + ir::kind_name(value->kind()) + ">";
}

std::string print_attrs_dict(PrinterContext& ctx, const ir::Attrs& attrs, bool relax_context) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const auto& [k, v] : attrs) entries.emplace_back(k, print_attr_value(ctx, v, relax_context));
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    out += quote_string(entries[i].first) + ": " + entries[i].second;
  }
  return out + "}";
}

}  // namespace relax::syntax

// Expression evaluation: literals, names, attributes, subscripts, calls and operators. Generic
// Python semantics live here; anything dialect-specific is a builtin looked up by name
// ("R.Tensor", "T.Buffer.__getitem__", "R.operator.add"), registered by the Relax and TIR
// parsers, so this file never needs to know an op.
#include <cmath>

#include "syntax/frontend/context.h"
#include "syntax/frontend/literals.h"
#include "syntax/frontend/prim_builtins.h"
#include "syntax/frontend/prim_ops.h"

namespace relax::syntax {

using ir::DataType;
using ir::ObjectKind;
using ir::Ref;
using ir::tir::PrimExpr;

namespace {

// The builtin name for a method or operator on a value: "R.Expr.astype", "T.Buffer.vload".
std::string type_prefix(const Value& v) {
  if (v.is<ir::tir::Buffer>()) return "T.Buffer";
  if (v.is<ir::tir::PrimExpr>()) return "T.PrimExpr";
  if (v.is<ir::Expr>()) return "R.Expr";
  if (v.is<ir::StructInfo>()) return "R.StructInfo";
  if (v.is<ir::tir::IterVar>()) return "T.IterVar";
  if (v.is_sequence()) return "py.sequence";
  if (v.is_string()) return "py.str";
  return "";
}

bool python_truthy(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kBool:
      return v.as_bool();
    case Value::Kind::kInt:
      return v.as_int() != 0;
    case Value::Kind::kFloat:
      return v.as_float() != 0.0;
    case Value::Kind::kString:
      return !v.as_string().empty();
    case Value::Kind::kNone:
      return false;
    case Value::Kind::kTuple:
    case Value::Kind::kList:
      return !v.items().empty();
    default:
      return true;
  }
}

int64_t py_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

Value Frontend::eval(Node expr) {
  if (stopped()) return Value::error(expr.span());
  ir::DepthGuard guard(eval_depth_, ir::kExprNesting);
  if (!guard.entered()) {
    error(ir::kExprNesting.code, expr,
          "expression nested more than " + std::to_string(ir::kExprNesting.max) + " levels deep");
    return Value::error(expr.span());
  }
  return eval_node(expr);
}

// `a + b + c + ...` is a left spine of binary operators: evaluated bottom-up in a loop, so a
// chain of thousands of terms needs no stack per term. Every operand is evaluated (and reports
// its errors) even after one fails, as the recursive form would.
Value Frontend::eval_binary_chain(Node expr) {
  std::vector<Node> spine;
  for (Node n = expr; n.kind() == NodeKind::kBinaryOperator; n = n.field(Field::kLeft))
    spine.push_back(n);
  Value acc = eval(spine.back().field(Field::kLeft));
  bool failed = acc.is_error();
  uint32_t prim_levels = 0;  // the PrimExpr levels this chain has nested (ir::kPrimExprChain)
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    Value rhs = eval(it->field(Field::kRight));
    if (failed || rhs.is_error()) {
      failed = true;
      acc = Value::error(it->span());
      continue;
    }
    Node op = it->field(Field::kOperator);
    acc = binary_op(std::string(op.text()), acc, rhs, *it);
    failed = acc.is_error();
    bool nested =
        acc.is<ir::tir::PrimExpr>() && !acc.is<ir::tir::IntImm>() && !acc.is<ir::tir::FloatImm>();
    if (!failed && nested && ++prim_levels >= ir::kPrimExprChain.max) {  // levels + 1 terms
      error(ir::kPrimExprChain.code, op,
            "a PrimExpr chain of more than " + std::to_string(ir::kPrimExprChain.max) +
                " terms: the expression would nest too deeply");
      failed = true;
      acc = Value::error(it->span());
    }
  }
  return acc;
}

Value Frontend::eval_node(Node expr) {
  if (expr.is_null()) return Value::error();
  ir::Span span = expr.span();
  if (expr.is_error() || expr.is_missing()) return Value::error(span);
  switch (expr.kind()) {
    case NodeKind::kIdentifier: {
      std::string name(expr.text());
      if (const Value* v = lookup(name)) {
        note_use(*v, span);
        return v->with_span(span);
      }
      error("E0201", expr, "unknown name `" + name + "`");
      return Value::error(span);
    }
    case NodeKind::kInteger: {
      auto v = decode_integer(expr.text());
      if (!v) {
        error("E0110", expr,
              "integer literal `" + std::string(expr.text()) +
                  "` is malformed or out of the int64 range");
        return Value::error(span);
      }
      return Value::integer(*v, span);
    }
    case NodeKind::kFloat: {
      auto v = decode_float(expr.text());
      if (!v) {
        error("E0110", expr, "float literal `" + std::string(expr.text()) + "` is malformed");
        return Value::error(span);
      }
      return Value::floating(*v, span);
    }
    case NodeKind::kString: {
      DecodedString s = decode_string(expr.text());
      if (!s.ok) {
        error("E0111", expr, s.error);
        return Value::error(span);
      }
      if (s.is_fstring) {
        error("E0203", expr, "f-strings are not supported in TVMScript");
        return Value::error(span);
      }
      return Value::string(std::move(s.value), span);
    }
    case NodeKind::kConcatenatedString: {
      std::string all;
      for (Node part : expr.named_children()) {
        if (part.kind() != NodeKind::kString) continue;
        Value v = eval(part);
        if (v.is_error()) return v;
        all += v.as_string();
      }
      return Value::string(std::move(all), span);
    }
    case NodeKind::kTrue:
      return Value::boolean(true, span);
    case NodeKind::kFalse:
      return Value::boolean(false, span);
    case NodeKind::kNone:
      return Value::none(span);
    case NodeKind::kParenthesizedExpression: {
      for (Node child : expr.named_children()) {
        if (child.kind() != NodeKind::kComment) return eval(child).with_span(span);
      }
      return Value::error(span);
    }
    case NodeKind::kTuple:
    case NodeKind::kExpressionList:
    case NodeKind::kPatternList:
    case NodeKind::kList: {
      std::vector<Value> items;
      bool failed = false;
      for (Node child : expr.named_children()) {
        if (child.kind() == NodeKind::kComment) continue;
        if (child.kind() == NodeKind::kListSplat) {
          Value inner = eval(child.named_child(0));
          if (inner.is_error()) {
            failed = true;
            continue;
          }
          auto seq = to_sequence(inner, "a starred expression");
          if (!seq) {
            failed = true;
            continue;
          }
          items.insert(items.end(), seq->begin(), seq->end());
          continue;
        }
        Value v = eval(child);
        failed |= v.is_error();
        items.push_back(std::move(v));
      }
      if (failed) return Value::error(span);
      return expr.kind() == NodeKind::kList ? Value::list(std::move(items), span)
                                            : Value::tuple(std::move(items), span);
    }
    case NodeKind::kDictionary: {
      std::vector<std::pair<Value, Value>> entries;
      bool failed = false;
      for (Node child : expr.named_children()) {
        if (child.kind() == NodeKind::kComment) continue;
        if (child.kind() != NodeKind::kPair) {
          error("E0203", child, "only `key: value` entries are supported in a dictionary");
          failed = true;
          continue;
        }
        Value k = eval(child.field(Field::kKey));
        Value v = eval(child.field(Field::kValue));
        failed |= k.is_error() || v.is_error();
        entries.emplace_back(std::move(k), std::move(v));
      }
      if (failed) return Value::error(span);
      return Value::dict(std::move(entries), span);
    }
    case NodeKind::kAttribute: {
      Value object = eval(expr.field(Field::kObject));
      Node attr_node = expr.field(Field::kAttribute);
      if (object.is_error() || attr_node.is_null()) return Value::error(span);
      std::string attr(attr_node.text());
      if (object.is_namespace())
        return Value::ns(canonical_path(object.as_string() + "." + attr), span);
      if (object.is_module_ref()) {
        if (module) {
          if (auto gv = module->global_var(attr)) {
            symbols.use(gv.get(), attr_node.span());
            return Value::object(gv, span);
          }
        }
        error("E0202", attr_node,
              "cannot find the function `" + attr + "` in the current IRModule");
        return Value::error(span);
      }
      // A data attribute or method of an object: a builtin "Prefix.attr" decides.
      std::string prefix = type_prefix(object);
      if (!prefix.empty()) {
        std::string getter = prefix + ".__getattr__." + attr;
        if (const Builtin* fn = find_builtin(getter)) {
          CallArgs call;
          call.node = expr;
          call.name = getter;
          call.args.push_back(object);
          call.arg_nodes.push_back(expr.field(Field::kObject));
          return (*fn)(*this, call).with_span(span);
        }
        std::string method = prefix + "." + attr;
        if (find_builtin(method)) {
          // A bound method: calling it passes the object first.
          return Value::method(method, object, span);
        }
      }
      error("E0204", attr_node, object.describe() + " has no attribute `" + attr + "`");
      return Value::error(span);
    }
    case NodeKind::kSubscript: {
      Node value_node = expr.field(Field::kValue);
      Value object = eval(value_node);
      if (object.is_error()) return object;
      CallArgs call;
      call.node = expr;
      call.is_subscript = true;
      bool failed = false;
      for (Node index : expr.fields(Field::kSubscript)) {
        Value v;
        if (index.kind() == NodeKind::kSlice) {
          Node start = index.field(Field::kStart), stop = index.field(Field::kStop),
               step = index.field(Field::kStep);
          v = Value::slice(start ? eval(start) : Value::none(), stop ? eval(stop) : Value::none(),
                           step ? eval(step) : Value::none(), index.span());
          for (const Value& part : v.items()) failed |= part.is_error();
        } else {
          v = eval(index);
          failed |= v.is_error();
        }
        call.args.push_back(std::move(v));
        call.arg_nodes.push_back(index);
      }
      if (failed) return Value::error(span);
      if (object.is_namespace()) {
        // Legacy subscript forms: T.Buffer[(4,), "float32"], T.Ptr["float32"], T.let[T.int32].
        call.name = object.as_string();
        return call_builtin(call);
      }
      // Python sequences index directly.
      if (object.is_sequence() && call.args.size() == 1 && call.args[0].is_int()) {
        int64_t i = call.args[0].as_int();
        int64_t n = static_cast<int64_t>(object.items().size());
        if (i < 0) i += n;
        if (i < 0 || i >= n) {
          error("E0205", call.arg_nodes[0],
                "index " + std::to_string(call.args[0].as_int()) +
                    " is out of range for a sequence of length " + std::to_string(n));
          return Value::error(span);
        }
        return object.items()[static_cast<size_t>(i)].with_span(span);
      }
      std::string prefix = type_prefix(object);
      if (object.is_dict()) prefix = "py.dict";
      call.name = prefix + ".__getitem__";
      call.args.insert(call.args.begin(), object);
      call.arg_nodes.insert(call.arg_nodes.begin(), value_node);
      if (!find_builtin(call.name)) {
        error("E0204", expr, object.describe() + " cannot be subscripted");
        return Value::error(span);
      }
      return call_builtin(call);
    }
    case NodeKind::kCall: {
      Node fn_node = expr.field(Field::kFunction);
      Value callee = eval(fn_node);
      if (callee.is_error()) return Value::error(span);
      CallArgs call;
      call.node = expr;
      bool failed = false;
      for (Node arg : expr.field(Field::kArguments).named_children()) {
        switch (arg.kind()) {
          case NodeKind::kComment:
            break;
          case NodeKind::kKeywordArgument: {
            Value v = eval(arg.field(Field::kValue));
            failed |= v.is_error();
            call.kwargs.emplace_back(std::string(arg.field(Field::kName).text()), std::move(v));
            call.kwarg_nodes.push_back(arg);
            break;
          }
          case NodeKind::kListSplat: {
            Value inner = eval(arg.named_child(0));
            auto seq = inner.is_error() ? std::nullopt : to_sequence(inner, "a starred argument");
            if (!seq) {
              failed = true;
              break;
            }
            for (const Value& item : *seq) {
              call.args.push_back(item);
              call.arg_nodes.push_back(arg);
            }
            break;
          }
          case NodeKind::kDictionarySplat: {
            Value inner = eval(arg.named_child(0));
            if (inner.is_error()) {
              failed = true;
              break;
            }
            if (!inner.is_dict()) {
              error("E0206", arg, "`**` needs a dictionary, got " + inner.describe());
              failed = true;
              break;
            }
            for (const auto& [k, v] : inner.entries()) {
              if (!k.is_string()) {
                error("E0206", arg, "keyword names must be strings");
                failed = true;
                break;
              }
              call.kwargs.emplace_back(k.as_string(), v);
              call.kwarg_nodes.push_back(arg);
            }
            break;
          }
          default: {
            Value v = arg.kind() == NodeKind::kLambda ? Value::lambda(arg) : eval(arg);
            failed |= v.is_error();
            call.args.push_back(std::move(v));
            call.arg_nodes.push_back(arg);
          }
        }
      }
      if (failed) return Value::error(span);
      if (callee.is_namespace()) {
        call.name = callee.as_string();
        if (const Value* self = callee.bound_self()) {
          call.args.insert(call.args.begin(), *self);
          call.arg_nodes.insert(call.arg_nodes.begin(), fn_node.field(Field::kObject));
        }
        return call_builtin(call);
      }
      // Calling a value: a Relax function, global var or closure.
      std::string prefix = type_prefix(callee);
      // In a prim_func, calling a module function is a TIR call ("T.GlobalVar.__call__").
      if (dialect == Dialect::kTir && callee.is<ir::GlobalVar>()) prefix = "T.GlobalVar";
      call.name = prefix + ".__call__";
      call.args.insert(call.args.begin(), callee);
      call.arg_nodes.insert(call.arg_nodes.begin(), fn_node);
      if (prefix.empty() || !find_builtin(call.name)) {
        error("E0207", fn_node, callee.describe() + " is not callable");
        return Value::error(span);
      }
      return call_builtin(call);
    }
    case NodeKind::kBinaryOperator:
      return eval_binary_chain(expr);
    case NodeKind::kUnaryOperator: {
      std::string op(expr.field(Field::kOperator).text());
      Node operand = expr.field(Field::kArgument);
      // Python's ints are unbounded, so `-9223372036854775808` (INT64_MIN, as printed) is a
      // value although its literal alone is out of the int64 range.
      if (op == "-" && operand.kind() == NodeKind::kInteger) {
        if (auto v = decode_integer(operand.text(), /*negated=*/true))
          return Value::integer(*v, span);
      }
      Value arg = eval(operand);
      if (arg.is_error()) return arg;
      return unary_op(op, arg, expr);
    }
    case NodeKind::kNotOperator: {
      Value arg = eval(expr.field(Field::kArgument));
      if (arg.is_error()) return arg;
      return unary_op("not", arg, expr);
    }
    case NodeKind::kBooleanOperator: {
      Value lhs = eval(expr.field(Field::kLeft));
      Value rhs = eval(expr.field(Field::kRight));
      if (lhs.is_error() || rhs.is_error()) return Value::error(span);
      return binary_op(std::string(expr.field(Field::kOperator).text()), lhs, rhs, expr);
    }
    case NodeKind::kComparisonOperator: {
      // a < b < c means (a < b) and (b < c).
      std::vector<Node> operands;
      std::vector<std::string> ops;
      for (Node child : expr.children()) {
        if (child.is_named()) {
          if (child.kind() != NodeKind::kComment) operands.push_back(child);
        } else {
          std::string t(child.text());
          if (t == "not" || t == "is") {
            if (!ops.empty() && (ops.back() == "is") && t == "not")
              ops.back() = "is not";
            else
              ops.push_back(t);
          } else if (t == "in" && !ops.empty() && ops.back() == "not" &&
                     ops.size() == operands.size()) {
            ops.back() = "not in";
          } else {
            ops.push_back(t);
          }
        }
      }
      if (operands.size() != ops.size() + 1 || ops.empty()) {
        error("E0101", expr, "malformed comparison");
        return Value::error(span);
      }
      std::vector<Value> values;
      for (Node n : operands) {
        values.push_back(eval(n));
        if (values.back().is_error()) return Value::error(span);
      }
      Value result = binary_op(ops[0], values[0], values[1], expr);
      for (size_t i = 1; i < ops.size() && !result.is_error(); ++i) {
        Value next = binary_op(ops[i], values[i], values[i + 1], expr);
        if (next.is_error()) return next;
        result = binary_op("and", result, next, expr);
      }
      return result;
    }
    case NodeKind::kConditionalExpression: {
      // a if c else b
      std::vector<Node> parts;
      for (Node child : expr.named_children()) {
        if (child.kind() != NodeKind::kComment) parts.push_back(child);
      }
      if (parts.size() != 3) return Value::error(span);
      Value cond = eval(parts[1]);
      if (cond.is_error()) return cond;
      if (cond.is_python_number() || cond.is_none() || cond.is_string()) {
        return python_truthy(cond) ? eval(parts[0]) : eval(parts[2]);
      }
      CallArgs call;
      call.node = expr;
      call.name = "T.Select";
      call.args = {cond, eval(parts[0]), eval(parts[2])};
      call.arg_nodes = {parts[1], parts[0], parts[2]};
      if (call.args[1].is_error() || call.args[2].is_error()) return Value::error(span);
      return call_builtin(call);
    }
    case NodeKind::kLambda:
      return Value::lambda(expr);
    case NodeKind::kEllipsis:
      error("E0203", expr, "`...` is not supported here");
      return Value::error(span);
    default:
      error("E0203", expr,
            std::string("`") + expr.type() + "` expressions are not supported in TVMScript");
      return Value::error(span);
  }
}

Value Frontend::call_builtin(CallArgs& call) {
  const Builtin* fn = find_builtin(call.name);
  if (!fn) {
    // Any dtype works as a constructor: T.float32x4(...), T.uint1(...).
    if (auto dtype = dtype_of_constructor(call.name))
      return call_dtype_constructor(*this, call, *dtype);
    // Unknown names under R. are ops the registry checks later; other dialects have none.
    if (call.name.starts_with("R.") && !call.is_subscript) {
      if (const Builtin* op_call = find_builtin("R.__op__")) return (*op_call)(*this, call);
    }
    std::string shown = call.name;
    error("E0208",
          call.node.field(call.is_subscript ? Field::kValue : Field::kFunction).is_null()
              ? call.node.span()
              : call.node.field(call.is_subscript ? Field::kValue : Field::kFunction).span(),
          "unknown builtin `" + shown + "`");
    return Value::error(call.span());
  }
  return (*fn)(*this, call);
}

// --- Operators -------------------------------------------------------------------------------

Value Frontend::unary_op(const std::string& op, const Value& arg, Node node) {
  ir::Span span = node.span();
  if (op == "not") {
    if (arg.is_python_number() || arg.is_none() || arg.is_string() || arg.is_sequence()) {
      return Value::boolean(!python_truthy(arg), span);
    }
    if (auto p = arg.as<PrimExpr>()) return Value::object(ir::make<ir::tir::Not>(p), span);
  } else if (op == "-") {
    if (arg.is_int()) {
      if (arg.as_int() == INT64_MIN) {
        error("E0249", node,
              "integer overflow: -(" + std::to_string(arg.as_int()) + ") does not fit in int64");
        return Value::error(span);
      }
      return Value::integer(-arg.as_int(), span);
    }
    if (arg.is_float()) return Value::floating(-arg.as_float(), span);
    if (arg.is_bool()) return Value::integer(arg.as_bool() ? -1 : 0, span);
    if (auto p = arg.as<PrimExpr>()) {
      bool overflowed = false;
      Ref<PrimExpr> out = prim_negate(p, span, &overflowed);
      if (overflowed) {
        error("E0249", node,
              "integer overflow: the negation of a " + p->dtype.str() + " constant does not fit");
        return Value::error(span);
      }
      return Value::object(out, span);
    }
  } else if (op == "+") {
    if (arg.is_python_number() || arg.is<PrimExpr>()) return arg.with_span(span);
  } else if (op == "~") {
    if (arg.is_int()) return Value::integer(~arg.as_int(), span);
    if (auto p = arg.as<PrimExpr>()) {
      return Value::object(
          ir::make<ir::tir::Call>(p->dtype, "tir.bitwise_not", std::vector<Ref<PrimExpr>>{p}),
          span);
    }
  }
  // Relax expressions and other dialect values: an operator builtin.
  std::string name = "R.operator." + std::string(op == "-"     ? "neg"
                                                 : op == "~"   ? "invert"
                                                 : op == "not" ? "not"
                                                               : "pos");
  if (arg.is<ir::Expr>() && find_builtin(name)) {
    CallArgs call;
    call.node = node;
    call.name = name;
    call.args = {arg};
    call.arg_nodes = {node.field(Field::kArgument)};
    return call_builtin(call);
  }
  error("E0209", node, "unsupported operand for unary `" + op + "`: " + arg.describe());
  return Value::error(span);
}

Value Frontend::binary_op(const std::string& op, const Value& lhs, const Value& rhs, Node node) {
  ir::Span span = node.span();
  // Pure Python arithmetic on literals is evaluated, as Python would.
  if (lhs.is_python_number() && rhs.is_python_number()) {
    bool ints = !lhs.is_float() && !rhs.is_float();
    auto li = lhs.is_bool() ? int64_t(lhs.as_bool()) : lhs.as_int();
    auto ri = rhs.is_bool() ? int64_t(rhs.as_bool()) : rhs.as_int();
    double lf = lhs.is_bool() ? double(lhs.as_bool()) : lhs.as_float();
    double rf = rhs.is_bool() ? double(rhs.as_bool()) : rhs.as_float();
    // Python's ints are unbounded; ours are int64, the widest a TIR constant can be, so a
    // result past it is an error (never a wrapped value).
    auto overflow = [&]() {
      error("E0249", node,
            "integer overflow: " + std::to_string(li) + " " + op + " " + std::to_string(ri) +
                " does not fit in int64");
      return Value::error(span);
    };
    int64_t r = 0;
    if (ints && (op == "+" || op == "-" || op == "*")) {
      bool bad = op == "+"   ? __builtin_add_overflow(li, ri, &r)
                 : op == "-" ? __builtin_sub_overflow(li, ri, &r)
                             : __builtin_mul_overflow(li, ri, &r);
      return bad ? overflow() : Value::integer(r, span);
    }
    if (op == "+") return Value::floating(lf + rf, span);
    if (op == "-") return Value::floating(lf - rf, span);
    if (op == "*") return Value::floating(lf * rf, span);
    if (op == "/") {
      if (rf == 0) {
        error("E0210", node, "division by zero");
        return Value::error(span);
      }
      return Value::floating(lf / rf, span);
    }
    if (op == "//" || op == "%") {
      if ((ints && ri == 0) || (!ints && rf == 0)) {
        error("E0210", node, "division by zero");
        return Value::error(span);
      }
      if (ints) {
        if (li == INT64_MIN && ri == -1) return op == "//" ? overflow() : Value::integer(0, span);
        return Value::integer(op == "//" ? py_floordiv(li, ri) : li - py_floordiv(li, ri) * ri,
                              span);
      }
      double q = std::floor(lf / rf);
      return Value::floating(op == "//" ? q : lf - q * rf, span);
    }
    if (op == "**") {
      if (ints && ri >= 0) {
        // Square and multiply: at most 64 steps, each overflow-checked (|li| <= 1 never
        // overflows, whatever the exponent).
        int64_t result = 1, base = li;
        for (int64_t e = ri; e > 0; e >>= 1) {
          if ((e & 1) && __builtin_mul_overflow(result, base, &result)) return overflow();
          if (e > 1 && __builtin_mul_overflow(base, base, &base)) {
            if (li == 1 || li == 0 || li == -1) break;
            return overflow();
          }
        }
        return Value::integer(result, span);
      }
      return Value::floating(std::pow(lf, rf), span);
    }
    if (ints && (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>")) {
      if (op == "&") return Value::integer(li & ri, span);
      if (op == "|") return Value::integer(li | ri, span);
      if (op == "^") return Value::integer(li ^ ri, span);
      if (ri < 0) {
        error("E0209", node, "negative shift count " + std::to_string(ri));
        return Value::error(span);
      }
      if (op == "<<") {
        // Exact when shifting back gives the value: no bit (or sign) is lost.
        if (li == 0) return Value::integer(0, span);
        if (ri >= 63 || ((li << ri) >> ri) != li) return overflow();
        return Value::integer(li << ri, span);
      }
      return Value::integer(ri >= 63 ? (li < 0 ? -1 : 0) : li >> ri, span);
    }
    if (op == "<") return Value::boolean(lf < rf, span);
    if (op == "<=") return Value::boolean(lf <= rf, span);
    if (op == ">") return Value::boolean(lf > rf, span);
    if (op == ">=") return Value::boolean(lf >= rf, span);
    if (op == "==") return Value::boolean(lf == rf, span);
    if (op == "!=") return Value::boolean(lf != rf, span);
    if (op == "and") return python_truthy(lhs) ? rhs : lhs;
    if (op == "or") return python_truthy(lhs) ? lhs : rhs;
  }
  if (lhs.is_string() && rhs.is_string()) {
    if (op == "+") return Value::string(lhs.as_string() + rhs.as_string(), span);
    if (op == "==") return Value::boolean(lhs.as_string() == rhs.as_string(), span);
    if (op == "!=") return Value::boolean(lhs.as_string() != rhs.as_string(), span);
  }
  if (lhs.is_sequence() && rhs.is_sequence() && op == "+") {
    std::vector<Value> items = lhs.items();
    items.insert(items.end(), rhs.items().begin(), rhs.items().end());
    return lhs.is_list() ? Value::list(std::move(items), span)
                         : Value::tuple(std::move(items), span);
  }
  // Relax expressions: operator builtins (R.add, R.multiply, ...) registered by the Relax parser.
  if (lhs.is<ir::Expr>() || rhs.is<ir::Expr>()) {
    std::string name = "R.operator." + op;
    if (find_builtin(name)) {
      CallArgs call;
      call.node = node;
      call.name = name;
      call.args = {lhs, rhs};
      call.arg_nodes = {node.field(Field::kLeft), node.field(Field::kRight)};
      return call_builtin(call);
    }
  }
  // PrimExpr arithmetic.
  bool lp = lhs.is<PrimExpr>() || lhs.is_python_number();
  bool rp = rhs.is<PrimExpr>() || rhs.is_python_number();
  if (lp && rp) {
    auto l = lhs.as<PrimExpr>();
    auto r = rhs.as<PrimExpr>();
    bool comparison =
        op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=";
    bool logical = op == "and" || op == "or";
    auto literal = [&](const Value& v, const Ref<PrimExpr>& other) -> Ref<PrimExpr> {
      if (comparison && other) {
        if (v.is_int()) return literal_like(v.as_int(), other->dtype, v.span());
        if (v.is_float()) return literal_like(v.as_float(), other->dtype, v.span());
      }
      return to_prim_expr(v);
    };
    if (!l) l = literal(lhs, r);
    if (!r) r = literal(rhs, l);
    if (!l || !r) return Value::error(span);
    Ref<PrimExpr> out;
    bool overflowed = false;
    if (op == "+")
      out = prim_arith(ObjectKind::kAdd, l, r, span, &overflowed);
    else if (op == "-")
      out = prim_arith(ObjectKind::kSub, l, r, span, &overflowed);
    else if (op == "*")
      out = prim_arith(ObjectKind::kMul, l, r, span, &overflowed);
    else if (op == "/") {
      if (!l->dtype.is_floating() && !r->dtype.is_floating()) {
        error("E0211", node,
              "`/` on integers is ambiguous in TIR: use `//` (floor division) or T.truncdiv");
        return Value::error(span);
      }
      out = prim_arith(ObjectKind::kDiv, l, r, span);
    } else if (op == "//")
      out = prim_arith(ObjectKind::kFloorDiv, l, r, span, &overflowed);
    else if (op == "%")
      out = prim_arith(ObjectKind::kFloorMod, l, r, span, &overflowed);
    else if (op == "<")
      out = prim_compare(ObjectKind::kLT, l, r, span);
    else if (op == "<=")
      out = prim_compare(ObjectKind::kLE, l, r, span);
    else if (op == ">")
      out = prim_compare(ObjectKind::kGT, l, r, span);
    else if (op == ">=")
      out = prim_compare(ObjectKind::kGE, l, r, span);
    else if (op == "==")
      out = prim_compare(ObjectKind::kEQ, l, r, span);
    else if (op == "!=")
      out = prim_compare(ObjectKind::kNE, l, r, span);
    else if (logical) {
      if (l->dtype.is_scalar() && r->dtype.is_scalar()) {
        out = ir::tir::binary(op == "and" ? ObjectKind::kAnd : ObjectKind::kOr, l, r, span);
      } else {
        out = prim_bitwise(op == "and" ? "&" : "|", l, r, span);
      }
    } else if (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>") {
      out = prim_bitwise(op, l, r, span);
    } else if (op == "**") {
      out = ir::make<ir::tir::Call>(l->dtype, "tir.pow", std::vector<Ref<PrimExpr>>{l, r});
    }
    if (!out) {
      error("E0209", node,
            "unsupported operands for `" + op + "`: " + l->dtype.str() + " and " + r->dtype.str());
      return Value::error(span);
    }
    if (overflowed) {
      auto text = [](const Ref<PrimExpr>& e) {
        auto c = ir::tir::as_const_int(e);
        return c ? std::to_string(*c) : std::string("?");
      };
      error("E0249", node,
            "integer overflow: " + text(l) + " " + op + " " + text(r) + " does not fit in " +
                out->dtype.str());
      return Value::error(span);
    }
    if (out->span.file == 0) out->span = span;
    return Value::object(out, span);
  }
  error("E0209", node,
        "unsupported operands for `" + op + "`: " + lhs.describe() + " and " + rhs.describe());
  return Value::error(span);
}

// --- Embedded expressions in strings ---------------------------------------------------------

ir::Span Frontend::string_content_span(const Value& string_value, Node string_node) const {
  ir::Span span = string_value.span();
  const std::string& content = string_value.as_string();
  // A plain quoted literal ("n", 'n') holds its content right inside the quotes: no tree walk.
  const std::string& text = tree_.text();
  if (span.file == file() && tree_.base() == 0 && span.end <= text.size() &&
      span.size() == content.size() + 2 && (text[span.begin] == '"' || text[span.begin] == '\'') &&
      text.compare(span.begin + 1, content.size(), content) == 0)
    return ir::Span{span.file, span.begin + 1, span.end - 1};
  if (!string_node || string_node.span() != span) return span;
  uint32_t begin = string_node.start() + decode_string(string_node.text()).content_offset;
  auto end = static_cast<uint32_t>(begin + content.size());
  if (end > span.end) return span;  // escapes: the content is not the text
  return ir::Span{span.file, begin, end};
}

Value Frontend::eval_string_expr(const Value& string_value, Node string_node) {
  const std::string& content = string_value.as_string();
  ir::Span span = string_value.span();
  // Fast paths: a bare name or an integer (the common "n" dim) needs no parse.
  bool identifier = !content.empty() &&
                    (std::isalpha(static_cast<unsigned char>(content[0])) || content[0] == '_');
  for (char c : content) identifier &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  if (identifier) {
    if (const Value* v = lookup(content)) {
      note_use(*v, string_content_span(string_value, string_node));
      return v->with_span(span);
    }
    error("E0201", span, "unknown name `" + content + "`");
    return Value::error(span);
  }
  if (auto i = decode_integer(content)) return Value::integer(*i, span);
  // The string's content starts after its prefix and opening quote.
  uint32_t base = string_node
                      ? string_node.start() + decode_string(string_node.text()).content_offset
                      : span.begin;
  auto sub = SyntaxTree::parse(content, file(), base);
  Node root = sub->root();
  Node stmt;
  for (Node child : root.named_children()) {
    if (child.kind() == NodeKind::kComment) continue;
    if (!stmt.is_null() || child.kind() != NodeKind::kExpressionStatement) {
      error("E0212", span, "`" + content + "` is not an expression");
      return Value::error(span);
    }
    stmt = child;
  }
  if (stmt.is_null() || stmt.has_error() || stmt.named_child_count() != 1) {
    error("E0212", span, "`" + content + "` is not an expression");
    return Value::error(span);
  }
  embedded_trees_.push_back(std::move(sub));
  return eval(stmt.named_child(0));
}

}  // namespace relax::syntax

// The Relax half of the front end: `@R.function` definitions (module members and nested
// closures), their signatures with symbolic variables, and body statements (bindings,
// match_cast, tuple unpacking, dataflow blocks, if/else, nested functions, return) turned into
// blocks of bindings in A-normal form. Expressions are evaluated by eval.cc through the R.*
// builtins of relax_builtins.cc and relax_struct_info.cc.
#include "syntax/frontend/relax_parser.h"

#include <algorithm>
#include <functional>
#include <set>

#include "syntax/frontend/relax_frontend.h"

namespace relax::syntax {

using namespace relax_fe;
using ir::make;

namespace {

std::vector<Node> statements_of(Node block) {
  std::vector<Node> out;
  if (!block) return out;
  for (Node s : block.named_children()) {
    if (s.kind() != NodeKind::kComment) out.push_back(s);
  }
  return out;
}

// The canonical builtin path a call's callee names ("R.output"), resolved without evaluating
// (and so without reporting): "" when it is not a dotted name of a namespace.
std::string callee_path(Frontend& fe, Node call) {
  if (!call || call.kind() != NodeKind::kCall) return "";
  Node f = call.field(Field::kFunction);
  std::vector<std::string> parts;
  while (f && f.kind() == NodeKind::kAttribute) {
    parts.emplace_back(f.field(Field::kAttribute).text());
    f = f.field(Field::kObject);
  }
  if (!f || f.kind() != NodeKind::kIdentifier) return "";
  const Value* root = fe.lookup(f.text());
  if (!root || !root->is_namespace() || root->bound_self()) return "";
  std::string path = root->as_string();
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) path += "." + *it;
  return canonical_path(path);
}

bool is_string_statement(Node stmt) {
  if (stmt.kind() != NodeKind::kExpressionStatement) return false;
  Node e = first_named(stmt);
  return e && (e.kind() == NodeKind::kString || e.kind() == NodeKind::kConcatenatedString);
}

// Orders string-keyed dictionaries by key, recursively, so that attributes compare equal
// however they were written (the printer sorts them).
ir::ObjectRef canonical_attr(const ir::ObjectRef& v) {
  if (auto arr = v.as<ir::ArrayValue>()) {
    auto out = make<ir::ArrayValue>();
    out->span = arr->span;
    for (const auto& item : arr->items) out->items.push_back(canonical_attr(item));
    return out;
  }
  if (auto map = v.as<ir::MapValue>()) {
    auto out = make<ir::MapValue>();
    out->span = map->span;
    bool all_strings = true;
    for (const auto& [k, val] : map->entries) {
      all_strings &= k.is<ir::StringValue>();
      out->entries.emplace_back(k, canonical_attr(val));
    }
    if (all_strings) {
      std::stable_sort(out->entries.begin(), out->entries.end(), [](const auto& a, const auto& b) {
        return a.first.template as_ptr<ir::StringValue>()->value <
               b.first.template as_ptr<ir::StringValue>()->value;
      });
    }
    return out;
  }
  return v;
}

// Whether the subtree calls `name` (a loop over an explicit stack: the body can hold an
// operator chain thousands of nodes deep).
bool calls_name(Node root, std::string_view name) {
  std::vector<Node> stack{root};
  while (!stack.empty()) {
    Node n = stack.back();
    stack.pop_back();
    if (!n) continue;
    if (n.kind() == NodeKind::kCall) {
      Node f = n.field(Field::kFunction);
      if (f.kind() == NodeKind::kIdentifier && f.text() == name) return true;
    }
    for (Node c : n.named_children()) stack.push_back(c);
  }
  return false;
}

// The bindings of one SeqExpr being built: finished blocks and the open one.
struct BlockBuilder {
  std::vector<Ref<ir::BindingBlock>> blocks;
  std::vector<Ref<ir::Binding>> current;
  bool dataflow = false;

  void flush() {
    if (current.empty()) return;
    blocks.push_back(make<ir::BindingBlock>(std::move(current), dataflow));
    current.clear();
  }
};

class FunctionParser {
 public:
  FunctionParser(Frontend& fe, bool nested) : fe_(fe), nested_(nested) {}

  // Parses a decorated definition into a Function. `self_var` is the variable a recursive
  // nested function refers to itself by (already defined in the enclosing scope).
  Ref<ir::Function> parse(Node decorated, Node def, const std::string& name) {
    size_t errors_before = fe_.error_count();
    DecoratorFlags flags = read_decorator(fe_, decorated);
    Frontend::ScopeGuard scope(fe_);
    StateGuard guard(fe_, state_);
    Signature sig = parse_signature(fe_, def, state_);
    func_ = make<ir::Function>();
    func_->span = def.field(Field::kName).span();
    func_->params = sig.params;
    func_->ret_struct_info = sig.ret;
    func_->is_pure = flags.pure;
    BlockBuilder body_bb;
    bb_ = &body_bb;
    Ref<ir::Expr> result = parse_body(def);
    body_bb.flush();
    if (!nested_ && !flags.is_private && !func_->attrs.contains("global_symbol")) {
      func_->attrs.set("global_symbol", ir::make_string(name));
    }
    sort_attrs(func_->attrs);
    if (!result || fe_.error_count() > errors_before) return nullptr;
    auto seq = make<ir::SeqExpr>(std::move(body_bb.blocks), result);
    seq->span = def.field(Field::kBody).span();
    func_->body = seq;
    return func_;
  }

 private:
  static void sort_attrs(ir::Attrs& attrs) {
    std::vector<ir::Attrs::Entry> entries(attrs.begin(), attrs.end());
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    ir::Attrs sorted;
    for (auto& [k, v] : entries) sorted.set(k, canonical_attr(v));
    attrs = std::move(sorted);
  }

  // --- Body ------------------------------------------------------------------------------------

  Ref<ir::Expr> parse_body(Node def) {
    Node body = def.field(Field::kBody);
    std::vector<Node> stmts = statements_of(body);
    Ref<ir::Expr> result;
    size_t i = 0;
    if (!stmts.empty() && is_string_statement(stmts[0])) {
      fe_.warning(codes::kDocstringWarning, stmts[0].span(),
                  "the docstring of a Relax function is ignored");
      i = 1;
    }
    bool returned = false;
    for (; i < stmts.size(); ++i) {
      Node s = stmts[i];
      if (s.kind() == NodeKind::kReturnStatement) {
        if (i + 1 != stmts.size()) {
          fe_.error(codes::kReturn, s, "`return` must be the last statement of a Relax function")
              .label(stmts[i + 1].span(), "this statement follows it");
        }
        returned = true;
        if (!s.has_error())
          result = return_value(s);
        else
          result = nullptr;
        continue;
      }
      statement(s);
    }
    if (!returned) {
      Node name = def.field(Field::kName);
      fe_.error(codes::kReturn, name,
                "Relax function `" + std::string(name.text()) + "` has no `return` statement");
    }
    return result;
  }

  Ref<ir::Expr> return_value(Node s) {
    Node v = s.field(Field::kValue);
    if (!v) {
      fe_.error(codes::kReturn, s, "a Relax function returns a value: `return <expr>`");
      return nullptr;
    }
    Value value = fe_.eval(v);
    if (value.is_error()) return nullptr;
    Ref<ir::Expr> e = to_expr(fe_, value, "the return value");
    if (!e) return nullptr;
    return normalize_arg(e);
  }

  void statement(Node s) {
    if (fe_.stopped()) return;  // the function is left out: see Frontend::stopped
    if (s.has_error()) {
      poison_targets(s);
      return;
    }
    switch (s.kind()) {
      case NodeKind::kComment:
      case NodeKind::kPassStatement:
        return;
      case NodeKind::kAssignment:
        assignment(s);
        return;
      case NodeKind::kExpressionStatement:
        expression_statement(s);
        return;
      case NodeKind::kWithStatement:
        with_statement(s);
        return;
      case NodeKind::kIfStatement:
        if_statement(s);
        return;
      case NodeKind::kDecoratedDefinition:
        nested_function(s);
        return;
      case NodeKind::kReturnStatement:
        fe_.error(codes::kReturn, s,
                  "`return` is only allowed as the last statement of the function body");
        return;
      case NodeKind::kFunctionDefinition:
        fe_.error(codes::kNested, s.field(Field::kName),
                  "a nested function needs the @R.function decorator");
        fe_.poison(std::string(s.field(Field::kName).text()));
        return;
      case NodeKind::kAugmentedAssignment:
        fe_.error(
            codes::kStatement, s,
            "augmented assignments (`+=`) are not supported in Relax functions; bind a new name");
        return;
      case NodeKind::kForStatement:
      case NodeKind::kWhileStatement:
        fe_.error(codes::kStatement, s, "loops are not supported in Relax functions")
            .note(
                "Relax has no loops: write the loop as a recursive function, a local "
                "@R.function that calls itself in one branch of an `if` (as "
                "examples/while_loop.relax does); see "
                "docs/text-format.md#loops-as-recursive-functions");
        return;
      case NodeKind::kImportStatement:
      case NodeKind::kImportFromStatement:
        fe_.error(codes::kStatement, s, "`import` is not allowed inside a function");
        return;
      default:
        fe_.error(codes::kStatement, s,
                  std::string("`") + s.type() + "` is not supported in a Relax function");
    }
  }

  void poison_targets(Node s) {
    if (s.kind() != NodeKind::kAssignment) return;
    Node left = s.field(Field::kLeft);
    if (left.kind() == NodeKind::kIdentifier)
      fe_.poison(std::string(left.text()));
    else {
      for (Node c : left.named_children()) {
        if (c.kind() == NodeKind::kIdentifier) fe_.poison(std::string(c.text()));
      }
    }
  }

  // --- Bindings --------------------------------------------------------------------------------

  Ref<ir::Var> make_var(const std::string& name, Ref<ir::StructInfo> sinfo, Node stmt,
                        ir::Span span) {
    Ref<ir::Var> var;
    if (bb_->dataflow && !outputs_.count({stmt.start(), name}))
      var = make<ir::DataflowVar>(name, std::move(sinfo));
    else
      var = make<ir::Var>(name, std::move(sinfo));
    var->span = span;
    return var;
  }

  // A fresh variable for a value the normalizer pulls out of an expression (`lv`, `gv1`, ...).
  Ref<ir::Var> temp_var() {
    std::string prefix = bb_->dataflow ? "lv" : "gv";
    int n = temp_counts_[prefix]++;
    std::string name = n == 0 ? prefix : prefix + std::to_string(n);
    if (bb_->dataflow) return make<ir::DataflowVar>(name);
    return make<ir::Var>(name);
  }

  Ref<ir::Expr> emit_temp(Ref<ir::Expr> value) {
    Ref<ir::Var> var = temp_var();
    var->span = value->span;
    if (auto c = value.as_ptr<ir::Call>()) var->struct_info = implied_sinfo(*c);
    auto binding = make<ir::VarBinding>(var, value);
    binding->span = value->span;  // the text it stands for: the nested call
    bb_->current.push_back(binding);
    return var;
  }

  // A-normal form: call arguments, tuple fields and tuple-item operands become leaves, nested
  // calls being bound to fresh variables first (inner ones first, left to right).
  Ref<ir::Expr> normalize_arg(const Ref<ir::Expr>& e) { return normalize(e, /*bind=*/true); }
  Ref<ir::Expr> normalize_value(const Ref<ir::Expr>& e) { return normalize(e, /*bind=*/false); }

  // The operands normalization visits: a call's callee and arguments, a tuple's fields, a tuple
  // item's tuple.
  static size_t operand_count(const Ref<ir::Expr>& e) {
    if (auto c = e.as_ptr<ir::Call>()) return 1 + c->args.size();
    if (auto t = e.as_ptr<ir::Tuple>()) return t->fields.size();
    return e.is<ir::TupleGetItem>() ? 1 : 0;
  }
  static const Ref<ir::Expr>& operand(const Ref<ir::Expr>& e, size_t i) {
    if (auto c = e.as_ptr<ir::Call>()) return i == 0 ? c->op : c->args[i - 1];
    if (auto t = e.as_ptr<ir::Tuple>()) return t->fields[i];
    return e.as_ptr<ir::TupleGetItem>()->tuple;
  }
  // `e` with its operands replaced by `parts` (normalized), or `e` itself when none changed.
  static Ref<ir::Expr> rebuild(const Ref<ir::Expr>& e, std::vector<Ref<ir::Expr>> parts) {
    bool changed = false;
    for (size_t i = 0; i < parts.size(); ++i) changed |= parts[i].get() != operand(e, i).get();
    if (!changed) return e;
    Ref<ir::Expr> out;
    if (auto c = e.as_ptr<ir::Call>()) {
      Ref<ir::Expr> op = parts[0];
      parts.erase(parts.begin());
      out = make<ir::Call>(op, std::move(parts), c->attrs, c->sinfo_args);
    } else if (e.is<ir::Tuple>()) {
      out = make<ir::Tuple>(std::move(parts));
    } else {
      out = make<ir::TupleGetItem>(parts[0], e.as_ptr<ir::TupleGetItem>()->index);
    }
    out->span = e->span;
    return out;
  }

  // The walk behind normalize_arg (`bind`: a value that is no leaf is bound to a temporary) and
  // normalize_value. A loop over an explicit stack: `x + x + ... + x` is a call nested as deep
  // as the chain is long (thousands of terms), which a recursive walk would overflow on.
  Ref<ir::Expr> normalize(const Ref<ir::Expr>& root, bool bind) {
    struct Frame {
      Ref<ir::Expr> e;
      bool bind;
      std::vector<Ref<ir::Expr>> parts;  // its operands normalized so far
    };
    std::vector<Frame> stack;
    stack.push_back({root, bind, {}});
    Ref<ir::Expr> result;
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.e && top.parts.size() < operand_count(top.e)) {
        const Ref<ir::Expr>& next = operand(top.e, top.parts.size());
        if (!next || (!next.is<ir::Tuple>() && is_leaf(next))) {
          top.parts.push_back(next);
        } else {
          Frame frame{next, true, {}};
          stack.push_back(std::move(frame));  // `top` is invalid from here
        }
        continue;
      }
      Ref<ir::Expr> value = top.e;
      if (value && operand_count(value) > 0) value = rebuild(value, std::move(top.parts));
      // A tuple stays in place (its fields are leaves now); other non-leaves get a temporary.
      if (top.bind && value && !value.is<ir::Tuple>() && !is_leaf(value)) value = emit_temp(value);
      stack.pop_back();
      if (stack.empty())
        result = std::move(value);
      else
        stack.back().parts.push_back(std::move(value));
    }
    return result;
  }

  // What the printer leaves out: call_tir / call_dps_packed results have their output struct
  // info, as TVM's inference gives them.
  static Ref<ir::StructInfo> implied_sinfo(const ir::Call& c) {
    const std::string& op = c.op_name();
    if ((op == "relax.call_tir" || op == "relax.call_dps_packed") && c.sinfo_args.size() == 1)
      return c.sinfo_args[0];
    return nullptr;
  }

  void define_binding(const std::string& name, const Ref<ir::Var>& var) {
    fe_.define(name, Value::object(var, var->span));
  }

  void assignment(Node s) {
    Node left = s.field(Field::kLeft);
    Node right = s.field(Field::kRight);
    Node ann_node = s.field(Field::kAnnotation);
    if (!right) {
      fe_.error(codes::kBinding, s,
                "a declaration without a value is not supported in Relax: write `x: ann = value`");
      poison_targets(s);
      return;
    }
    if (right.kind() == NodeKind::kAssignment) {
      fe_.error(codes::kBinding, s, "chained assignments like `a = b = c` are not supported");
      poison_targets(s);
      return;
    }
    Value rhs = fe_.eval(right);
    Ref<ir::StructInfo> ann;
    if (ann_node) {
      ann = to_struct_info(fe_, fe_.eval(ann_node));
      if (!ann) {
        poison_targets(s);
        return;
      }
    }
    if (left.kind() == NodeKind::kIdentifier) {
      bind_name(s, left, rhs, ann);
      return;
    }
    if (left.kind() == NodeKind::kPatternList || left.kind() == NodeKind::kTuple ||
        left.kind() == NodeKind::kList || left.kind() == NodeKind::kExpressionList) {
      if (ann_node) {
        fe_.error(codes::kBinding, ann_node, "a tuple target cannot be annotated");
        poison_targets(s);
        return;
      }
      bind_pattern(s, left, rhs);
      return;
    }
    fe_.error(codes::kBinding, left,
              "only names and tuples of names can be bound in a Relax function");
  }

  void bind_pattern(Node s, Node pattern, const Value& rhs) {
    std::vector<Node> targets;
    for (Node c : pattern.named_children()) {
      if (c.kind() != NodeKind::kComment) targets.push_back(c);
    }
    auto poison_all = [&] {
      for (Node t : targets) {
        if (t.kind() == NodeKind::kIdentifier) fe_.poison(std::string(t.text()));
      }
    };
    if (rhs.is_error()) return poison_all();
    auto bind_one = [&](Node target, const Value& v) {
      if (target.kind() == NodeKind::kIdentifier)
        bind_name(s, target, v, nullptr);
      else if (target.kind() == NodeKind::kPatternList || target.kind() == NodeKind::kTuple ||
               target.kind() == NodeKind::kList ||
               target.kind() == NodeKind::kParenthesizedExpression)
        bind_pattern(
            s, target.kind() == NodeKind::kParenthesizedExpression ? first_named(target) : target,
            v);
      else
        fe_.error(codes::kBinding, target,
                  "only names and tuples of names can be bound in a Relax function");
    };
    if (rhs.is_sequence()) {
      if (rhs.items().size() != targets.size()) {
        fe_.error(codes::kBinding, s,
                  "cannot unpack " + std::to_string(rhs.items().size()) + " values into " +
                      std::to_string(targets.size()) + " names");
        return poison_all();
      }
      for (size_t i = 0; i < targets.size(); ++i) bind_one(targets[i], rhs.items()[i]);
      return;
    }
    Ref<ir::Expr> e = rhs.is<ir::Expr>() ? rhs.as<ir::Expr>() : nullptr;
    if (!e) {
      fe_.error(codes::kBinding, rhs.span(), "cannot unpack " + rhs.describe());
      return poison_all();
    }
    if (auto t = e.as<ir::Tuple>()) {
      if (t->fields.size() != targets.size()) {
        fe_.error(codes::kBinding, s,
                  "cannot unpack a tuple of " + std::to_string(t->fields.size()) + " fields into " +
                      std::to_string(targets.size()) + " names");
        return poison_all();
      }
      for (size_t i = 0; i < targets.size(); ++i)
        bind_one(targets[i], Value::object(t->fields[i], rhs.span()));
      return;
    }
    if (auto ts = e->struct_info.as_ptr<ir::TupleStructInfo>();
        ts && ts->fields.size() != targets.size()) {
      fe_.error(codes::kBinding, s,
                "cannot unpack a tuple of " + std::to_string(ts->fields.size()) + " fields into " +
                    std::to_string(targets.size()) + " names");
      return poison_all();
    }
    if (!e.is<ir::Var>()) e = emit_temp(normalize_value(e));
    for (size_t i = 0; i < targets.size(); ++i) {
      auto item = make<ir::TupleGetItem>(e, static_cast<int>(i));
      item->span = targets[i].span();
      bind_one(targets[i], Value::object(item, targets[i].span()));
    }
  }

  void bind_name(Node s, Node name_node, const Value& rhs, Ref<ir::StructInfo> ann) {
    std::string name(name_node.text());
    ir::Span span = name_node.span();
    if (rhs.is_error()) {
      fe_.poison(name);
      return;
    }
    // `n = T.int64()` or `n = T.Var("n", "int64")`: a symbolic variable declaration.
    if (auto tv = rhs.as<ir::tir::Var>();
        tv && (tv->name.empty() || fe_.take_unbound_var(tv.get()))) {
      if (!tv->name.empty() && tv->name != name) {
        fe_.error(codes::kSymbolic, name_node,
                  "a variable made by T.Var(\"" + tv->name +
                      "\", ...) must be bound to the name `" + tv->name + "`, not `" + name + "`");
        fe_.poison(name);
        return;
      }
      declare_symbolic(name, tv, name_node);
      return;
    }
    if (auto mc = rhs.as<ir::MatchCast>(); mc && !mc->var) {
      if (ann && !same_sinfo(ann, mc->struct_info)) {
        fe_.error(codes::kBinding, s.field(Field::kAnnotation),
                  "the annotation of a match_cast binding must equal its target struct info");
        fe_.poison(name);
        return;
      }
      Ref<ir::Var> var = make_var(name, mc->struct_info, s, span);
      auto binding = make<ir::MatchCast>(var, normalize_value(mc->value), mc->struct_info);
      binding->span = s.span();
      bb_->current.push_back(binding);
      define_binding(name, var);
      return;
    }
    Ref<ir::Expr> value;
    auto prim_ann = ann.as<ir::PrimStructInfo>();
    if (rhs.is_python_number()) {
      if (prim_ann) {
        Ref<PrimExpr> p =
            rhs.is_float()
                ? Ref<PrimExpr>(ir::tir::float_imm(prim_ann->dtype, rhs.as_float(), rhs.span()))
                : Ref<PrimExpr>(ir::tir::int_imm(
                      prim_ann->dtype, rhs.is_bool() ? rhs.as_bool() : rhs.as_int(), rhs.span()));
        value = make<ir::PrimValue>(p);
      } else {
        CallArgs call;
        call.name = "R.const";
        call.node = s.field(Field::kRight);
        call.args.push_back(rhs);
        call.arg_nodes.push_back(call.node);
        Value c = fe_.call_builtin(call);
        value = c.as<ir::Expr>();
      }
    } else if (auto p = rhs.as<PrimExpr>()) {
      if (!ann) {
        // A PrimExpr bound without annotation is a Python alias (as in TVM's parser).
        fe_.define(name, rhs);
        return;
      }
      value = make<ir::PrimValue>(p);
    } else if (rhs.is_sequence() || rhs.is<ir::Expr>()) {
      value = to_expr(fe_, rhs, "the bound value");
    } else {
      if (ann) {
        fe_.error(codes::kBinding, s.field(Field::kAnnotation),
                  "only Relax expressions can be bound with an annotation, got " + rhs.describe());
        fe_.poison(name);
        return;
      }
      // Python aliasing (`cls = Module`, a struct info kept in a name): no IR.
      fe_.define(name, rhs);
      return;
    }
    if (!value) {
      fe_.poison(name);
      return;
    }
    if (!value->span.is_known()) value->span = rhs.span();
    value = normalize_value(value);
    Ref<ir::StructInfo> sinfo = ann;
    if (auto c = value.as_ptr<ir::Call>(); c && !sinfo) sinfo = implied_sinfo(*c);
    if (auto c = value.as<ir::Constant>(); c && !c->data && !c->struct_info) {
      if (ann)
        c->struct_info = ann;
      else
        fe_.warning(codes::kMetadataWarning, rhs.span(),
                    "opaque metadata constant: annotate the binding to give it a struct info");
    }
    Ref<ir::Var> var = make_var(name, sinfo, s, span);
    auto binding = make<ir::VarBinding>(var, value);
    binding->span = s.span();
    bb_->current.push_back(binding);
    define_binding(name, var);
  }

  void declare_symbolic(const std::string& name, const Ref<ir::tir::Var>& fresh, Node name_node) {
    if (const Value* existing = fe_.lookup(name)) {
      if (auto prev = existing->as<ir::tir::Var>()) {
        if (prev->dtype != fresh->dtype) {
          fe_.error(codes::kSymbolic, name_node,
                    "`" + name + "` is already a symbolic variable of type " + prev->dtype.str() +
                        ", not " + fresh->dtype.str());
          return;
        }
        // `n = T.int64(is_size_var=True)` marks the signature's variable as a size variable.
        if (fresh->is_size_var) prev->is_size_var = true;
        fe_.note_use(*existing, name_node.span());  // a re-declaration names the same variable
        fe_.define(name, *existing);
        return;
      }
      if (!existing->is_error() && !existing->is_namespace() && !existing->is_type_var()) {
        fe_.error(codes::kSymbolic, name_node,
                  "cannot declare the symbolic variable `" + name + "`: the name is already " +
                      existing->describe());
        return;
      }
    }
    fresh->name = name;
    state_.symbolic_vars[name] = fresh;
    fe_.define(name, Value::object(fresh, name_node.span()));
  }

  // --- Expression statements ---------------------------------------------------------------------

  void expression_statement(Node s) {
    Node e = first_named(s);
    if (!e) return;
    if (e.kind() == NodeKind::kString || e.kind() == NodeKind::kConcatenatedString) {
      fe_.error(codes::kStatement, s,
                "a string is not a statement (only the first statement of a function may be a "
                "docstring)");
      return;
    }
    std::string path = callee_path(fe_, e);
    if (path == "R.output") {
      fe_.error(codes::kDataflow, s,
                bb_->dataflow
                    ? "R.output(...) must be the last statement of its dataflow block"
                    : "R.output(...) is only allowed at the end of a `with R.dataflow():` block");
      return;
    }
    if (path == "R.func_attr") {
      func_attr(e);
      return;
    }
    Value v = fe_.eval(e);
    if (v.is_error()) return;
    if (!v.is<ir::Expr>()) {
      if (v.is<ir::MatchCast>()) {
        fe_.error(codes::kNonVoid, s, "R.match_cast(...) must be bound to a variable");
        return;
      }
      fe_.error(
          codes::kStatement, s,
          "this expression statement has no effect in a Relax function (" + v.describe() + ")");
      return;
    }
    Ref<ir::Expr> value = v.as<ir::Expr>();
    if (!obviously_void(value)) {
      fe_.error(codes::kNonVoid, s, "non-void Relax expressions must be bound to a variable");
      return;
    }
    value = normalize_value(value);
    Ref<ir::Var> var = make_var("_", ir::void_sinfo(), s, e.span());
    auto binding = make<ir::VarBinding>(var, value);
    binding->span = s.span();
    bb_->current.push_back(binding);
  }

  // Whether an expression statement may be void: calls (unless the callee is known to return
  // something else) and the empty tuple.
  bool obviously_void(const Ref<ir::Expr>& e) const {
    if (auto t = e.as_ptr<ir::Tuple>()) return t->fields.empty();
    auto c = e.as_ptr<ir::Call>();
    if (!c) return false;
    Ref<ir::StructInfo> callee_sinfo;
    if (auto g = c->op.as_ptr<ir::GlobalVar>()) {
      callee_sinfo = g->struct_info;
      if (fe_.module) {
        if (auto gv = fe_.module->global_var(g->name)) callee_sinfo = gv->struct_info;
      }
    } else if (auto v = c->op.as_ptr<ir::Var>()) {
      callee_sinfo = v->struct_info;
    }
    if (auto f = callee_sinfo.as_ptr<ir::FuncStructInfo>()) {
      if (f->ret && !f->ret.is<ir::ObjectStructInfo>() && !ir::is_void_sinfo(f->ret)) return false;
    }
    return true;
  }

  void func_attr(Node call) {
    std::vector<Node> args;
    for (Node a : call.field(Field::kArguments).named_children()) {
      if (a.kind() != NodeKind::kComment) args.push_back(a);
    }
    if (args.size() != 1 || args[0].kind() == NodeKind::kKeywordArgument) {
      fe_.error(codes::kFuncAttr, call,
                "R.func_attr takes one dictionary: R.func_attr({\"key\": value})");
      return;
    }
    Value v = fe_.eval(args[0]);
    if (v.is_error()) return;
    if (!v.is_dict()) {
      fe_.error(codes::kFuncAttr, args[0], "R.func_attr takes a dictionary, got " + v.describe());
      return;
    }
    if (func_attr_seen_) {
      fe_.error(codes::kFuncAttr, call, "R.func_attr appears more than once in this function");
      return;
    }
    func_attr_seen_ = true;
    for (const auto& [k, val] : v.entries()) {
      if (!k.is_string()) {
        fe_.error(codes::kFuncAttr, k.span(), "function attribute keys must be strings");
        continue;
      }
      auto a = fe_.to_attr_value(val);
      if (a) func_->attrs.set(k.as_string(), *a);
    }
  }

  // --- Dataflow blocks -------------------------------------------------------------------------

  void with_statement(Node s) {
    std::vector<Node> items;
    for (Node c : s.named_children()) {
      if (c.kind() == NodeKind::kWithItem) items.push_back(c);
      if (c.kind() == NodeKind::kWithClause) {
        for (Node i : c.named_children()) {
          if (i.kind() == NodeKind::kWithItem) items.push_back(i);
        }
      }
    }
    if (items.size() != 1) {
      fe_.error(codes::kDataflow, s,
                "a Relax `with` statement takes exactly one item: `with R.dataflow():`");
      return;
    }
    Node value = items[0].field(Field::kValue);
    // `with (R.dataflow()):` is `with R.dataflow():` (a formatter splits long items so).
    while (value && value.kind() == NodeKind::kParenthesizedExpression && first_named(value))
      value = first_named(value);
    if (callee_path(fe_, value) != "R.dataflow") {
      fe_.error(codes::kDataflow, value,
                "only `with R.dataflow():` is supported in Relax functions");
      return;
    }
    if (Node alias = items[0].field(Field::kAlias)) {
      fe_.error(codes::kDataflow, alias, "`with R.dataflow()` binds no name: remove `as ...`");
      return;
    }
    if (value.field(Field::kArguments).named_child_count() != 0) {
      fe_.error(codes::kDataflow, value, "R.dataflow() takes no arguments");
    }
    if (bb_->dataflow) {
      fe_.error(codes::kDataflow, s, "dataflow blocks cannot be nested");
      return;
    }
    std::vector<Node> stmts = statements_of(s.field(Field::kBody));
    Node last = stmts.empty() ? Node() : stmts.back();
    Node out_call =
        last && last.kind() == NodeKind::kExpressionStatement ? first_named(last) : Node();
    if (!out_call || callee_path(fe_, out_call) != "R.output") {
      fe_.error(codes::kDataflow, last ? last : s,
                "a dataflow block must end with R.output(...) listing the variables it exports");
      for (Node st : stmts) poison_targets(st);
      return;
    }
    stmts.pop_back();
    // Outputs: the last binding of each listed name in this block becomes a Var.
    std::vector<std::pair<std::string, Node>> outputs;
    std::set<std::pair<uint32_t, std::string>> slots;
    bool ok = true;
    for (Node arg : out_call.field(Field::kArguments).named_children()) {
      if (arg.kind() == NodeKind::kComment) continue;
      if (arg.kind() != NodeKind::kIdentifier) {
        fe_.error(codes::kDataflow, arg, "R.output lists variable names");
        ok = false;
        continue;
      }
      std::string name(arg.text());
      for (const auto& [n, node] : outputs) {
        if (n == name) {
          fe_.error(codes::kDataflow, arg, "`" + name + "` is listed twice in R.output");
          ok = false;
        }
      }
      Node def;
      for (Node st : stmts) {
        if (binds_name(st, name)) def = st;
      }
      if (!def) {
        fe_.error(codes::kDataflow, arg,
                  "R.output lists `" + name + "`, which is not bound in this dataflow block");
        ok = false;
        continue;
      }
      outputs.emplace_back(name, arg);
      slots.insert({def.start(), name});
    }
    bb_->flush();
    bb_->dataflow = true;
    auto saved_slots = std::move(outputs_);
    outputs_ = std::move(slots);
    std::vector<std::pair<std::string, Value>> exported;
    {
      Frontend::ScopeGuard scope(fe_);
      for (Node st : stmts) statement(st);
      for (const auto& [name, node] : outputs) {
        const Value* v = fe_.lookup(name);
        if (v) fe_.note_use(*v, node.span());
        exported.emplace_back(name, v ? *v : Value::error());
      }
    }
    outputs_ = std::move(saved_slots);
    bb_->flush();
    bb_->dataflow = false;
    for (auto& [name, v] : exported) fe_.define(name, ok ? v : Value::error());
  }

  static bool binds_name(Node st, const std::string& name) {
    if (st.kind() == NodeKind::kAssignment) {
      Node left = st.field(Field::kLeft);
      if (left.kind() == NodeKind::kIdentifier) return left.text() == name;
      std::function<bool(Node)> any = [&](Node n) {
        if (n.kind() == NodeKind::kIdentifier) return n.text() == name;
        for (Node c : n.named_children()) {
          if (any(c)) return true;
        }
        return false;
      };
      return any(left);
    }
    if (st.kind() == NodeKind::kDecoratedDefinition) {
      Node def = st.field(Field::kDefinition);
      return def && def.field(Field::kName).text() == name;
    }
    return false;
  }

  // --- If/else ---------------------------------------------------------------------------------

  struct Branch {
    Ref<ir::SeqExpr> seq;
    Ref<ir::Var> result;  // the variable the branch's last statement bound
    Node last;
  };

  // Runs `body` as one branch: its own scope and blocks, then TVM's rule for the result: the
  // last binding of the branch (an expression statement's `_` and the last binding of a closing
  // dataflow block included) names the if's result; its value becomes the SeqExpr body when it
  // is a leaf, else it is rebound to `<name>_then` / `<name>_else` in its own block.
  std::optional<Branch> branch(const std::function<void()>& body, Node at,
                               const std::string& suffix) {
    BlockBuilder local;
    BlockBuilder* saved = bb_;
    bb_ = &local;
    size_t errors = fe_.error_count();
    {
      Frontend::ScopeGuard scope(fe_);
      body();
    }
    bb_ = saved;
    if (fe_.error_count() > errors) return std::nullopt;
    local.flush();
    if (local.blocks.empty()) {
      fe_.error(codes::kIf, at,
                "each branch of an `if` must end with a binding; both branches bind the same name, "
                "the if's result");
      return std::nullopt;
    }
    std::vector<Ref<ir::Binding>> last_block = local.blocks.back()->bindings;
    bool dataflow = local.blocks.back()->is_dataflow;
    local.blocks.pop_back();
    Ref<ir::Binding> last = last_block.back();
    last_block.pop_back();
    Ref<ir::Var> result = last->var;
    if (result.is<ir::DataflowVar>()) {
      fe_.error(codes::kIf, at,
                "the last binding of this branch, `" + result->name +
                    "`, is local to its dataflow block: list it in R.output(...) so that it is "
                    "the if's result");
      return std::nullopt;
    }
    Ref<ir::Expr> body_expr;
    auto vb = last.as<ir::VarBinding>();
    if (vb && is_leaf(vb->value)) {
      body_expr = vb->value;
    } else {
      auto var = make<ir::Var>(result->name + suffix, result->struct_info);
      var->span = result->span;
      if (vb)
        last_block.push_back(make<ir::VarBinding>(var, vb->value));
      else {
        auto mc = last.as<ir::MatchCast>();
        last_block.push_back(make<ir::MatchCast>(var, mc->value, mc->struct_info));
      }
      last_block.back()->span = last->span;
      body_expr = var;
    }
    if (!last_block.empty())
      local.blocks.push_back(make<ir::BindingBlock>(std::move(last_block), dataflow));
    auto seq = make<ir::SeqExpr>(std::move(local.blocks), body_expr);
    seq->span = at.span();
    return Branch{seq, result, at};
  }

  void if_statement(Node s) {
    std::vector<Node> alternatives = s.fields(Field::kAlternative);
    if_chain(s, s.field(Field::kCondition), s.field(Field::kConsequence), alternatives, 0);
  }

  // `if c: A elif d: B else: C` is `if c: A else: (if d: B else: C)`.
  void if_chain(Node at, Node cond_node, Node consequence, const std::vector<Node>& alternatives,
                size_t next) {
    ir::DepthGuard guard(if_depth_, ir::kRelaxIfNesting);
    if (!guard.entered()) {
      fe_.error(ir::kRelaxIfNesting.code, at,
                "`if` statements nested more than " + std::to_string(ir::kRelaxIfNesting.max) +
                    " levels deep (each `elif` is an `if` inside the `else` before it)");
      return;
    }
    if (bb_->dataflow) {
      fe_.error(codes::kIf, at, "`if` is not allowed inside a dataflow block");
      return;
    }
    if (next >= alternatives.size()) {
      fe_.error(codes::kIf, at, "an `if` in a Relax function needs an `else` branch");
      return;
    }
    Value cv = fe_.eval(cond_node);
    Ref<ir::Expr> cond;
    if (cv.is_bool()) {
      auto data = std::make_shared<ir::TensorData>();
      data->dtype = ir::DataType::Bool();
      data->bytes.push_back(cv.as_bool() ? 1 : 0);
      cond = make<ir::Constant>(data);
    } else if (!cv.is_error()) {
      cond = to_expr(fe_, cv, "the condition");
    }
    if (cond) cond = normalize_arg(cond);
    auto then_branch = branch(
        [&] {
          for (Node st : statements_of(consequence)) statement(st);
        },
        consequence, "_then");
    Node alt = alternatives[next];
    std::optional<Branch> else_branch;
    if (alt.kind() == NodeKind::kElifClause) {
      else_branch = branch(
          [&] {
            if_chain(alt, alt.field(Field::kCondition), alt.field(Field::kConsequence),
                     alternatives, next + 1);
          },
          alt, "_else");
    } else {
      Node body = alt.field(Field::kBody);
      else_branch = branch(
          [&] {
            for (Node st : statements_of(body)) statement(st);
          },
          body ? body : alt, "_else");
    }
    if (!cond || !then_branch || !else_branch) {
      if (then_branch) fe_.poison(then_branch->result->name);
      if (else_branch) fe_.poison(else_branch->result->name);
      return;
    }
    const std::string& name = then_branch->result->name;
    if (else_branch->result->name != name) {
      fe_.error(codes::kIf, at,
                "both branches of an `if` must end by binding the same name: `" + name + "` and `" +
                    else_branch->result->name + "`")
          .label(then_branch->result->span, "the then-branch binds `" + name + "`")
          .label(else_branch->result->span,
                 "the else-branch binds `" + else_branch->result->name + "`");
      fe_.poison(name);
      fe_.poison(else_branch->result->name);
      return;
    }
    Ref<ir::StructInfo> sinfo = then_branch->result->struct_info ? then_branch->result->struct_info
                                                                 : else_branch->result->struct_info;
    // The else branch's binding of the result name hides nothing of its own: the `if`'s variable
    // (which shares the then branch's symbol) is the one that may shadow an earlier name.
    fe_.symbols.clear_shadows(else_branch->result.get());
    auto var = make<ir::Var>(name, sinfo);
    var->span = then_branch->result->span;
    auto node = make<ir::If>(cond, then_branch->seq, else_branch->seq);
    node->span = at.span();
    auto binding = make<ir::VarBinding>(var, node);
    binding->span = at.span();
    bb_->current.push_back(binding);
    define_binding(name, var);
  }

  // --- Nested functions ------------------------------------------------------------------------

  void nested_function(Node s) {
    Node def = s.field(Field::kDefinition);
    if (!def || def.kind() != NodeKind::kFunctionDefinition) {
      fe_.error(codes::kNested, s,
                "only nested @R.function definitions are allowed in a Relax function");
      return;
    }
    std::string name(def.field(Field::kName).text());
    Node last_dec;
    for (Node c : s.named_children()) {
      if (c.kind() == NodeKind::kDecorator) last_dec = c;
    }
    Node dec_expr = last_dec ? first_named(last_dec) : Node();
    if (dec_expr && dec_expr.kind() == NodeKind::kCall) dec_expr = dec_expr.field(Field::kFunction);
    Value dec = fe_.eval(dec_expr);
    if (dec.is_error()) {
      fe_.poison(name);
      return;
    }
    std::string path = dec.is_namespace() ? dec.as_string() : "";
    if (path == "T.prim_func") {
      fe_.error(codes::kNested, last_dec,
                "a prim_func cannot be defined inside a Relax function (inline prim_funcs are "
                "disallowed)");
      fe_.poison(name);
      return;
    }
    if (path != "R.function") {
      fe_.error(codes::kNested, last_dec, "a nested function needs the @R.function decorator");
      fe_.poison(name);
      return;
    }
    DecoratorFlags flags = read_decorator(fe_, s);
    Ref<ir::Var> var;
    if (calls_name(def.field(Field::kBody), name)) {
      // A recursive closure refers to itself by its binding variable, typed by its signature.
      Ref<ir::FuncStructInfo> sinfo = quiet_signature(fe_, def, flags.pure);
      var = make_var(name, sinfo, s, def.field(Field::kName).span());
      fe_.define(name, Value::object(var, var->span));
    }
    FunctionParser inner(fe_, /*nested=*/true);
    Ref<ir::Function> func = inner.parse(s, def, name);
    if (!func) {
      fe_.poison(name);
      return;
    }
    if (!var) {
      Signature sig;
      sig.params = func->params;
      sig.ret = func->ret_struct_info;
      var = make_var(name, signature_sinfo(sig, func->is_pure), s, def.field(Field::kName).span());
    }
    auto binding = make<ir::VarBinding>(var, func);
    binding->span = s.span();
    bb_->current.push_back(binding);
    define_binding(name, var);
  }

  Frontend& fe_;
  bool nested_;
  FunctionState state_;
  Ref<ir::Function> func_;
  BlockBuilder* bb_ = nullptr;
  bool func_attr_seen_ = false;
  std::set<std::pair<uint32_t, std::string>> outputs_;
  std::unordered_map<std::string, int> temp_counts_;
  uint32_t if_depth_ = 0;  // nesting of `if` and `elif` (ir::kRelaxIfNesting)
};

}  // namespace

void register_relax_builtins(Frontend& fe) {
  register_struct_info_builtins(fe);
  register_expr_builtins(fe);
}

void declare_relax_function(Frontend& fe, Node decorated, const ir::Ref<ir::GlobalVar>& gvar) {
  Node def = decorated.field(Field::kDefinition);
  if (!def || !gvar) return;
  ir::DiagnosticBag::Mark before = fe.diags().mark();
  DecoratorFlags flags = read_decorator(fe, decorated);
  fe.diags().rollback(before);
  gvar->struct_info = quiet_signature(fe, def, flags.pure);
}

ir::Ref<ir::Function> parse_relax_function(Frontend& fe, Node decorated,
                                           const ir::Ref<ir::GlobalVar>& gvar) {
  Node def = decorated.field(Field::kDefinition);
  if (!def || !gvar) return nullptr;
  FunctionParser parser(fe, /*nested=*/false);
  return parser.parse(decorated, def, gvar->name);
}

}  // namespace relax::syntax

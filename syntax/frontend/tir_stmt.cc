// TIR statements: assignments (let bindings, buffer stores, `+=`), loops, while, if/elif/else
// (constant conditions fold), with-statements (blocks, init, scoped builtins), assert and
// return, with TVMScript's scoping rules.
#include <algorithm>

#include "syntax/frontend/prim_builtins.h"
#include "syntax/frontend/prim_ops.h"
#include "syntax/frontend/tir_stmt_parser.h"

namespace relax::syntax::tirfe {

using ir::make;
using ir::ObjectKind;

namespace {

bool is_loop_builtin(const std::string& name) {
  return name == "range" || name == "T.serial" || name == "T.parallel" || name == "T.vectorized" ||
         name == "T.unroll" || name == "T.thread_binding" || name == "T.grid";
}

bool is_statement_builtin(const std::string& name) {
  static const char* kNames[] = {
      "T.reads",       "T.writes",       "T.where",        "T.block_attr",
      "T.sblock_attr", "T.func_attr",    "T.attr",         "T.launch_thread",
      "T.realize",     "T.match_buffer", "T.alloc_buffer", "T.sblock_alloc_buffer",
      "T.decl_buffer", "T.allocate",     "T.env_thread",   "T.axis.spatial",
      "T.axis.reduce", "T.axis.scan",    "T.axis.opaque",  "T.axis.S",
      "T.axis.R",      "T.axis.remap",   "T.alloc_shared", "T.alloc_local",
      "T.LetStmt",     "T.Assert"};
  for (const char* n : kNames) {
    if (name == n) return true;
  }
  return false;
}

bool truthy(const Value& v) {
  if (v.is_bool()) return v.as_bool();
  if (v.is_int()) return v.as_int() != 0;
  if (v.is_float()) return v.as_float() != 0.0;
  if (v.is_none()) return false;
  return true;
}

Node first_expr(Node stmt) {
  for (Node c : stmt.named_children()) {
    if (c.kind() != NodeKind::kComment) return c;
  }
  return Node();
}

// `(e)` is `e`: grouping parentheses (a formatter adds them around long right-hand sides) do not
// change which statement builtin a call is.
Node unparen(Node expr) {
  while (expr && expr.kind() == NodeKind::kParenthesizedExpression) {
    Node inner = first_expr(expr);
    if (!inner) break;
    expr = inner;
  }
  return expr;
}

}  // namespace

// --- Helpers ----------------------------------------------------------------------------------

std::string StmtParser::static_callee(Node fn) {
  // `a.b.c`: down the attribute objects in a loop (the chain can be as long as the line).
  std::vector<Node> attrs;
  Node n = fn;
  for (; n.kind() == NodeKind::kAttribute; n = n.field(Field::kObject)) {
    Node attr = n.field(Field::kAttribute);
    if (!attr) return "";
    attrs.push_back(attr);
  }
  if (n.kind() != NodeKind::kIdentifier) return "";
  const Value* v = fe_.lookup(n.text());
  if (!v || !v->is_namespace() || v->bound_self()) return "";
  std::string path = v->as_string();
  for (auto it = attrs.rbegin(); it != attrs.rend(); ++it)
    path = canonical_path(path + "." + std::string(it->text()));
  return path;
}

bool StmtParser::eval_call(Node call_node, CallArgs& call) {
  call.node = call_node;
  bool failed = false;
  for (Node arg : call_node.field(Field::kArguments).named_children()) {
    switch (arg.kind()) {
      case NodeKind::kComment:
        break;
      case NodeKind::kKeywordArgument: {
        Value v = fe_.eval(arg.field(Field::kValue));
        failed |= v.is_error();
        call.kwargs.emplace_back(std::string(arg.field(Field::kName).text()), std::move(v));
        call.kwarg_nodes.push_back(arg);
        break;
      }
      case NodeKind::kListSplat: {
        Value inner = fe_.eval(arg.named_child(0));
        auto seq = inner.is_error() ? std::nullopt : fe_.to_sequence(inner, "a starred argument");
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
      default: {
        Value v = arg.kind() == NodeKind::kLambda ? Value::lambda(arg) : fe_.eval(arg);
        failed |= v.is_error();
        call.args.push_back(std::move(v));
        call.arg_nodes.push_back(arg);
      }
    }
  }
  return !failed;
}

std::vector<Node> StmtParser::target_names(Node left) {
  std::vector<Node> out;
  if (left.kind() == NodeKind::kIdentifier) {
    out.push_back(left);
    return out;
  }
  if (left.kind() == NodeKind::kPatternList || left.kind() == NodeKind::kTuple ||
      left.kind() == NodeKind::kExpressionList ||
      left.kind() == NodeKind::kParenthesizedExpression || left.kind() == NodeKind::kList ||
      left.kind() == NodeKind::kOther) {
    for (Node c : left.named_children()) {
      if (c.kind() == NodeKind::kComment) continue;
      if (c.kind() != NodeKind::kIdentifier) return {};
      out.push_back(c);
    }
  }
  return out;
}

BlockFrame* StmtParser::current_block(Node at, const char* what) {
  if (blocks_.empty()) {
    fe_.error("E0605", at,
              std::string("`") + what + "` must be used inside a `with T.block(...)` body");
    return nullptr;
  }
  return blocks_.back();
}

// --- Statements ---------------------------------------------------------------------------------

void StmtParser::parse_suite(Node block, StmtSink& sink) {
  if (!block) return;
  // Each statement is one level below the enclosing statement, and one more below each let
  // binding, `T.attr`, ... before it in this body (they cover the statements after them).
  uint32_t outer = nesting_;
  for (Node stmt : block.named_children()) {
    nesting_ = outer + 1 + sink.open_levels();
    if (!check_nesting(stmt)) break;
    parse_stmt(stmt, sink);
  }
  nesting_ = outer;
}

bool StmtParser::check_nesting(Node stmt) {
  if (nesting_ <= ir::kTirStmtNesting.max) return true;
  fe_.error(ir::kTirStmtNesting.code, stmt,
            "statements nested more than " + std::to_string(ir::kTirStmtNesting.max) +
                " levels deep in a prim_func (each let binding nests the statements after it)");
  return false;
}

void StmtParser::parse_stmt(Node stmt, StmtSink& sink) {
  if (fe_.stopped()) return;  // the prim_func is left out: see Frontend::stopped
  switch (stmt.kind()) {
    case NodeKind::kComment:
    case NodeKind::kPassStatement:
      return;
    default:
      break;
  }
  if (stmt.has_error() || stmt.is_error()) return;  // reported as a syntax error
  switch (stmt.kind()) {
    case NodeKind::kExpressionStatement:
      parse_expr_stmt(stmt, sink);
      return;
    case NodeKind::kAssignment:
      parse_assignment(stmt, sink);
      return;
    case NodeKind::kAugmentedAssignment:
      parse_aug_assignment(stmt, sink);
      return;
    case NodeKind::kForStatement:
      parse_for(stmt, sink);
      return;
    case NodeKind::kWhileStatement:
      parse_while(stmt, sink);
      return;
    case NodeKind::kIfStatement:
      parse_if(stmt.field(Field::kCondition), stmt.field(Field::kConsequence), stmt, 0, sink);
      return;
    case NodeKind::kWithStatement:
      parse_with(stmt, sink);
      return;
    case NodeKind::kAssertStatement:
      parse_assert(stmt, sink);
      return;
    case NodeKind::kReturnStatement:
      parse_return(stmt, sink);
      return;
    case NodeKind::kBreakStatement:
    case NodeKind::kContinueStatement:
      fe_.error("E0603", stmt,
                std::string("`") +
                    (stmt.kind() == NodeKind::kBreakStatement ? "break" : "continue") +
                    "` is not supported in TIR (TVM v0.20)");
      return;
    case NodeKind::kFunctionDefinition:
    case NodeKind::kDecoratedDefinition:
      fe_.error("E0603", stmt, "nested function definitions are not supported in a prim_func");
      return;
    case NodeKind::kImportStatement:
    case NodeKind::kImportFromStatement:
      fe_.error("E0603", stmt, "`import` is not allowed inside a prim_func");
      return;
    default: {
      // Python statements TVMScript has no meaning for (del, try, raise, global, ...): name
      // them by their keyword.
      std::string what =
          stmt.child_count() > 0 ? std::string(stmt.child(0).text()) : std::string(stmt.type());
      if (what.empty() || what.size() > 20) what = stmt.type();
      fe_.error("E0603", stmt, "`" + what + "` statements are not supported in a prim_func");
      return;
    }
  }
}

void StmtParser::parse_expr_stmt(Node stmt, StmtSink& sink) {
  Node expr = unparen(first_expr(stmt));
  if (!expr) return;
  if (expr.kind() == NodeKind::kString || expr.kind() == NodeKind::kConcatenatedString)
    return;  // docstring
  if (expr.kind() == NodeKind::kCall) {
    Node fn = expr.field(Field::kFunction);
    std::string name = static_callee(fn);
    if (is_statement_builtin(name)) {
      CallArgs call;
      call.name = name;
      if (!eval_call(expr, call)) return;
      frame_builtin(name, call, {}, sink);
      return;
    }
  }
  Value v = fe_.eval(expr);
  if (v.is_error() || v.is_none()) return;
  if (auto s = v.as<Stmt>()) {
    sink.emit(s);
    return;
  }
  if (v.is<PrimExpr>() || v.is_python_number()) {
    Ref<PrimExpr> e = to_expr(fe_, v);
    if (!e) return;
    auto ev = make<Evaluate>(e);
    ev->span = stmt.span();
    sink.emit(ev);
    return;
  }
  fe_.error("E0603", expr, "this expression statement has no effect in TIR: " + v.describe());
}

void StmtParser::bind_value(const std::string& name, const Value& value, Node at, StmtSink& sink) {
  if (auto buffer = value.as<Buffer>()) {
    if (buffer->name.empty()) name_buffer(buffer, name);
    fe_.define(name, value.with_span(at.span()));
    return;
  }
  // A fresh variable (`T.int64()`, or `T.Var("n", "int64")` not yet bound) takes the name.
  if (auto var = value.as<Var>(); var && (var->name.empty() || fe_.take_unbound_var(var.get()))) {
    var->name = name;
    if (!var->span.is_known()) var->span = at.span();
    fe_.define(name, value.with_span(at.span()));
    return;
  }
  if (value.is<Stmt>()) {
    fe_.error("E0604", at, "a statement cannot be assigned to `" + name + "`");
    fe_.poison(name);
    return;
  }
  if (value.is<PrimExpr>() || value.is_python_number()) {
    Ref<PrimExpr> e = to_expr(fe_, value);
    if (!e) {
      fe_.poison(name);
      return;
    }
    auto var = make<Var>(name, e->dtype);
    var->span = at.span();
    if (auto src = e.as_ptr<Var>()) var->pointer = src->pointer;
    sink.open([var, e](Ref<Stmt> body) -> Ref<Stmt> { return make<LetStmt>(var, e, body); });
    fe_.define(name, Value::object(var, at.span()));
    return;
  }
  if (value.is_sequence()) {
    // `x = (T.int64(), T.int64())` names the fresh vars x_0, x_1 (TVM's naming of sequences).
    for (size_t i = 0; i < value.items().size(); ++i) {
      const Value& item = value.items()[i];
      if (auto var = item.as<Var>(); var && var->name.empty())
        var->name = name + "_" + std::to_string(i);
      if (auto b = item.as<Buffer>(); b && b->name.empty())
        name_buffer(b, name + "_" + std::to_string(i));
    }
  }
  // Anything else is Python aliasing (namespaces, strings, index maps, ...): no IR.
  fe_.define(name, value);
}

void StmtParser::parse_assignment(Node stmt, StmtSink& sink) {
  Node left = stmt.field(Field::kLeft);
  Node right = unparen(stmt.field(Field::kRight));
  if (stmt.field(Field::kAnnotation)) {
    parse_annotated(stmt, left, sink);
    return;
  }
  if (!right) return;
  if (right.kind() == NodeKind::kAssignment) {
    fe_.error("E0604", stmt, "chained assignments such as `a = b = c` are not supported");
    return;
  }
  if (left.kind() == NodeKind::kSubscript) {
    Value v = fe_.eval(right);
    if (v.is_error()) return;
    parse_store(left, v, right, sink);
    return;
  }
  std::vector<Node> targets = target_names(left);
  if (targets.empty()) {
    fe_.error("E0604", left,
              "unsupported assignment target: expected a name, names `a, b` or a buffer element");
    return;
  }
  if (right.kind() == NodeKind::kCall) {
    std::string name = static_callee(right.field(Field::kFunction));
    if (is_statement_builtin(name)) {
      CallArgs call;
      call.name = name;
      if (!eval_call(right, call)) {
        for (Node t : targets) fe_.poison(std::string(t.text()));
        return;
      }
      frame_builtin(name, call, targets, sink);
      return;
    }
    if (name == "T.meta_var") {
      bind_meta_var(left, targets, right);
      return;
    }
  }
  if (std::string_view(right.type()).starts_with("unsupported_")) {
    fe_.error("E0603", right, "comprehensions and generators are not supported in TVMScript");
    for (Node t : targets) fe_.poison(std::string(t.text()));
    return;
  }
  Value v = fe_.eval(right);
  if (v.is_error()) {
    for (Node t : targets) fe_.poison(std::string(t.text()));
    return;
  }
  if (targets.size() == 1 && left.kind() == NodeKind::kIdentifier) {
    bind_value(std::string(targets[0].text()), v, targets[0], sink);
    return;
  }
  if (!v.is_sequence() || v.items().size() != targets.size()) {
    fe_.error(
        "E0604", right,
        "cannot unpack " + v.describe() + " into " + std::to_string(targets.size()) + " names");
    for (Node t : targets) fe_.poison(std::string(t.text()));
    return;
  }
  for (size_t i = 0; i < targets.size(); ++i)
    bind_value(std::string(targets[i].text()), v.items()[i], targets[i], sink);
}

void StmtParser::parse_annotated(Node stmt, Node left, StmtSink& sink) {
  Node ann_node = stmt.field(Field::kAnnotation);
  Node right = stmt.field(Field::kRight);
  if (left.kind() != NodeKind::kIdentifier) {
    fe_.error("E0604", left, "an annotated binding needs a single name on the left");
    return;
  }
  std::string name(left.text());
  Value ann = fe_.eval(ann_node);
  if (ann.is_error()) {
    fe_.poison(name);
    return;
  }
  auto var = make<Var>(name, DataType::Int32());
  var->span = left.span();
  // `x: T.let = e` (current spelling): the variable takes the value's type.
  bool typed_by_value = ann.is_namespace() && ann.as_string() == "T.let";
  if (typed_by_value) {
    // typed below, from the value
  } else if (ann.is_namespace() && !ann.bound_self() && dtype_of_constructor(ann.as_string())) {
    var->dtype = *dtype_of_constructor(ann.as_string());
  } else if (ann.is_namespace() && ann.as_string() == "T.handle") {
    var->dtype = DataType::Handle();
  } else if (auto v = ann.as<Var>(); v && v->name.empty()) {
    var->dtype = v->dtype;
    var->pointer = v->pointer;
  } else {
    fe_.error("E0602", ann_node,
              "the annotation of a let binding must be a scalar type such as T.int32, got " +
                  ann.describe());
    fe_.poison(name);
    return;
  }
  if (!right) {
    fe_.error("E0603", stmt,
              "a declaration without a value (`" + name + ": " + std::string(ann_node.text()) +
                  "`) is not supported; bind a value with `=`");
    fe_.poison(name);
    return;
  }
  Value v = fe_.eval(right);
  if (v.is_error()) {
    fe_.poison(name);
    return;
  }
  Ref<PrimExpr> value;
  if (typed_by_value) {
    value = to_expr(fe_, v);
    if (!value) {
      fe_.poison(name);
      return;
    }
    var->dtype = value->dtype;
    if (auto src = value.as_ptr<Var>()) var->pointer = src->pointer;
  } else if (v.is_int() && !var->dtype.is_bool())
    value = literal_like(v.as_int(), var->dtype, v.span());
  else if (v.is_float())
    value = literal_like(v.as_float(), var->dtype, v.span());
  else if (v.is_bool() && var->dtype.is_bool())
    value = int_imm(DataType::Bool(), v.as_bool(), v.span());
  else
    value = to_expr(fe_, v);
  if (!value) {
    fe_.poison(name);
    return;
  }
  if (value->dtype != var->dtype) {
    fe_.error("E0608", right,
              "the value of `" + name + "` has type " + value->dtype.str() + " but is annotated " +
                  var->dtype.str());
    fe_.poison(name);
    return;
  }
  sink.open([var, value](Ref<Stmt> body) -> Ref<Stmt> { return make<LetStmt>(var, value, body); });
  fe_.define(name, Value::object(var, left.span()));
}

void StmtParser::parse_store(Node left, const Value& value, Node value_node, StmtSink& sink) {
  Node buf_node = left.field(Field::kValue);
  Value b = fe_.eval(buf_node);
  if (b.is_error()) return;
  auto buffer = b.as<Buffer>();
  if (!buffer) {
    fe_.error("E0606", buf_node,
              "only buffer elements can be assigned with `x[...] = v`; `" +
                  std::string(buf_node.text()) + "` is " + b.describe());
    return;
  }
  std::vector<Value> values;
  std::vector<Node> nodes;
  bool failed = false;
  for (Node index : left.fields(Field::kSubscript)) {
    Value v;
    if (index.kind() == NodeKind::kSlice) {
      Node start = index.field(Field::kStart), stop = index.field(Field::kStop),
           step = index.field(Field::kStep);
      v = Value::slice(start ? fe_.eval(start) : Value::none(),
                       stop ? fe_.eval(stop) : Value::none(), step ? fe_.eval(step) : Value::none(),
                       index.span());
      for (const Value& part : v.items()) failed |= part.is_error();
    } else {
      v = fe_.eval(index);
      failed |= v.is_error();
    }
    values.push_back(v);
    nodes.push_back(index);
  }
  if (failed) return;
  auto idx = to_indices(fe_, buffer, values, nodes);
  if (!idx) return;
  if (!buffer->shape.empty() && idx->size() != buffer->shape.size()) {
    fe_.error("E0606", left,
              "buffer `" + buffer->name + "` has " + std::to_string(buffer->shape.size()) +
                  " dimension" + (buffer->shape.size() == 1 ? "" : "s") + " but is indexed with " +
                  std::to_string(idx->size()));
    return;
  }
  Ref<PrimExpr> e;
  if (value.is_bool() && buffer->dtype.is_bool())
    e = int_imm(DataType::Bool(), value.as_bool(), value.span());
  else
    e = to_expr(fe_, value);
  if (!e) return;
  (void)value_node;
  DataType target = load_dtype(buffer, *idx);
  if (e->dtype != target) {
    if (target.is_vector() && e->dtype.is_scalar()) {
      Ref<PrimExpr> scalar = prim_cast(target.element_of(), e);
      Ref<PrimExpr> lanes = target.is_scalable_vector()
                                ? prim_arith(ObjectKind::kMul,
                                             make<Call>(DataType::Int32(), "tir.vscale",
                                                        std::vector<Ref<PrimExpr>>{}),
                                             int32(-target.lanes()))
                                : Ref<PrimExpr>(int32(target.lanes()));
      e = make<Broadcast>(target, scalar, lanes);
    } else {
      e = prim_cast(target, e);
    }
  }
  auto store = make<BufferStore>(buffer, e, std::move(*idx));
  store->span = left.parent().span();
  sink.emit(store);
}

void StmtParser::parse_aug_assignment(Node stmt, StmtSink& sink) {
  Node left = stmt.field(Field::kLeft);
  Node right = stmt.field(Field::kRight);
  std::string op(stmt.field(Field::kOperator).text());
  if (op.ends_with("=")) op.pop_back();
  if (left.kind() != NodeKind::kSubscript && left.kind() != NodeKind::kIdentifier) {
    fe_.error("E0604", left, "`" + op + "=` needs a name or a buffer element on the left");
    return;
  }
  Value lhs = fe_.eval(left);
  Value rhs = fe_.eval(right);
  if (lhs.is_error() || rhs.is_error()) {
    if (left.kind() == NodeKind::kIdentifier) fe_.poison(std::string(left.text()));
    return;
  }
  Value result = fe_.binary_op(op, lhs, rhs, stmt);
  if (result.is_error()) return;
  if (left.kind() == NodeKind::kSubscript)
    parse_store(left, result, right, sink);
  else
    bind_value(std::string(left.text()), result, left, sink);
}

// --- Loops --------------------------------------------------------------------------------------

namespace {

struct LoopSpec {
  Ref<Var> var;
  Ref<PrimExpr> min;
  Ref<PrimExpr> extent;
  ForKind kind = ForKind::kSerial;
  Ref<IterVar> thread;
  ir::Attrs annotations;
};

// TVM's For promotes immediate bounds narrower than the loop variable.
Ref<PrimExpr> promote(const Ref<PrimExpr>& e, DataType t) {
  if (auto imm = e.as_ptr<IntImm>(); imm && e->dtype.bits() < t.bits() && t.is_int())
    return int_imm(t, imm->value, e->span);
  return e;
}

}  // namespace

void StmtParser::parse_for(Node stmt, StmtSink& sink) {
  Node left = stmt.field(Field::kLeft);
  Node right = unparen(stmt.field(Field::kRight));
  if (Node alt = stmt.field(Field::kAlternative)) {
    fe_.error("E0603", alt, "`for ... else` is not supported in TIR");
    return;
  }
  std::string name =
      right.kind() == NodeKind::kCall ? static_callee(right.field(Field::kFunction)) : "";
  std::vector<Node> targets = target_names(left);
  auto poison_targets = [&] {
    for (Node t : targets) fe_.poison(std::string(t.text()));
  };
  if (!is_loop_builtin(name)) {
    fe_.error("E0614", right,
              "a TIR loop iterates over range(...), T.serial, T.parallel, T.vectorized, T.unroll, "
              "T.thread_binding or T.grid");
    return;
  }
  if (targets.empty()) {
    fe_.error("E0604", left, "a loop variable must be a name (or names for T.grid)");
    return;
  }
  CallArgs call;
  call.name = name;
  if (!eval_call(right, call)) {
    poison_targets();
    return;
  }
  std::vector<LoopSpec> loops;
  auto read_annotations = [&](const ArgBinder& args, LoopSpec& spec) -> bool {
    const Value* a = args.get("annotations");
    if (!a || a->is_none()) return true;
    if (!a->is_dict()) {
      fe_.error("E0608", a->span(), "loop annotations must be a dictionary");
      return false;
    }
    for (const auto& [k, v] : a->entries()) {
      auto key = fe_.to_string(k);
      auto value = fe_.to_attr_value(v);
      if (!key || !value) return false;
      spec.annotations.set(*key, *value);
    }
    std::vector<ir::Attrs::Entry> entries(spec.annotations.begin(), spec.annotations.end());
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    ir::Attrs sorted;
    for (auto& [k, v] : entries) sorted.set(k, v);
    spec.annotations = sorted;
    return true;
  };
  if (name == "T.grid") {
    if (!call.kwargs.empty()) {
      fe_.error("E0214", call.kwarg_nodes[0], "T.grid takes no keyword arguments");
      poison_targets();
      return;
    }
    for (const Value& v : call.args) {
      LoopSpec spec;
      spec.extent = to_dim(fe_, v);
      if (!spec.extent) {
        poison_targets();
        return;
      }
      spec.min = int_imm(spec.extent->dtype, 0);
      spec.var = make<Var>("", spec.extent->dtype);
      loops.push_back(spec);
    }
  } else {
    bool thread = name == "T.thread_binding";
    ArgBinder args = thread
                         ? ArgBinder(fe_, call, {"start", "stop=", "thread=", "*", "annotations="})
                         : ArgBinder(fe_, call, {"start", "stop=", "step=", "*", "annotations="});
    if (!args.ok()) {
      poison_targets();
      return;
    }
    LoopSpec spec;
    const Value* start_v = args.get("start");
    const Value* stop_v = args.get("stop");
    std::string tag;
    if (thread) {
      const Value* t = args.get("thread");
      if (!t && stop_v && stop_v->is_string()) {
        t = stop_v;
        stop_v = nullptr;
      }
      if (!t) {
        fe_.error("E0215", call.node,
                  "T.thread_binding needs a thread tag: T.thread_binding(extent, "
                  "thread=\"threadIdx.x\")");
        poison_targets();
        return;
      }
      auto s = fe_.to_string(*t);
      if (!s) {
        poison_targets();
        return;
      }
      tag = *s;
    } else if (const Value* step = args.get("step"); step && !step->is_none()) {
      if (!(step->is_int() && step->as_int() == 1)) {
        fe_.error("E0608", step->span(), "loop steps other than 1 are not supported (TVM v0.20)");
        poison_targets();
        return;
      }
    }
    Ref<PrimExpr> start, stop;
    if (!stop_v || stop_v->is_none()) {
      stop = to_dim(fe_, *start_v);
      if (!stop) {
        poison_targets();
        return;
      }
      // thread_binding's implicit start is a Python 0 (int32); range/T.serial use the stop's type.
      start = thread ? Ref<PrimExpr>(int32(0))
                     : Ref<PrimExpr>(
                           int_imm(start_v->is<PrimExpr>() ? stop->dtype : DataType::Int32(), 0));
    } else {
      start = to_dim(fe_, *start_v);
      stop = to_dim(fe_, *stop_v);
      if (!start || !stop) {
        poison_targets();
        return;
      }
    }
    spec.min = start;
    bool overflowed = false;
    spec.extent = simplify_extent(start, stop, &overflowed);
    if (overflowed) {
      // range(INT64_MIN, INT64_MAX) has more iterations than an int64 extent counts.
      auto text = [](const Ref<PrimExpr>& e) {
        auto c = as_const_int(e);
        return c ? std::to_string(*c) : std::string("?");
      };
      fe_.error("E0249", call.node,
                "integer overflow: the extent of " + name + "(" + text(start) + ", " + text(stop) +
                    ") does not fit in " + spec.extent->dtype.str());
      poison_targets();
      return;
    }
    if (!spec.extent) {
      poison_targets();
      return;
    }
    int bits = std::max(start->dtype.bits(), spec.extent->dtype.bits());
    DataType var_type(start->dtype.code(), bits, 1);
    spec.var = make<Var>("", var_type);
    if (name == "T.parallel")
      spec.kind = ForKind::kParallel;
    else if (name == "T.vectorized")
      spec.kind = ForKind::kVectorized;
    else if (name == "T.unroll")
      spec.kind = ForKind::kUnrolled;
    else if (thread) {
      spec.kind = ForKind::kThreadBinding;
      spec.thread =
          make<IterVar>(nullptr, make<Var>("iter", var_type), IterType::kThreadIndex, tag);
    }
    if (!read_annotations(args, spec)) {
      poison_targets();
      return;
    }
    loops.push_back(spec);
  }
  // `for iters in T.grid(4, 8)`: one name holds all the loop variables, which TVMScript names
  // iters_0, iters_1, ...
  bool as_tuple = targets.size() == 1 && left.kind() == NodeKind::kIdentifier && loops.size() > 1;
  if (!as_tuple && targets.size() != loops.size()) {
    fe_.error("E0604", left,
              "the loop defines " + std::to_string(loops.size()) + " variable" +
                  (loops.size() == 1 ? "" : "s") + " but " + std::to_string(targets.size()) +
                  (targets.size() == 1 ? " name is" : " names are") + " given");
    poison_targets();
    return;
  }
  StmtSink body_sink;
  {
    Frontend::ScopeGuard scope(fe_);
    size_t saved = loops_.size();
    std::vector<Value> tuple;
    for (size_t i = 0; i < loops.size(); ++i) {
      Node target = targets[as_tuple ? 0 : i];
      loops[i].var->name = std::string(target.text());
      if (as_tuple) loops[i].var->name += "_" + std::to_string(i);
      loops[i].var->span = target.span();
      Value var = Value::object(loops[i].var, target.span());
      if (as_tuple)
        tuple.push_back(var);
      else
        fe_.define(loops[i].var->name, var);
      fe_.symbols.set_kind(loops[i].var.get(), SymbolKind::kLoopVar);
      loops_.emplace_back(loops[i].var.get(), make<Range>(loops[i].min, loops[i].extent));
    }
    if (as_tuple) fe_.define(std::string(targets[0].text()), Value::tuple(tuple, left.span()));
    parse_suite(stmt.field(Field::kBody), body_sink);
    loops_.resize(saved);
  }
  Ref<Stmt> body = body_sink.finish();
  for (size_t i = loops.size(); i-- > 0;) {
    auto f = make<For>();
    f->loop_var = loops[i].var;
    f->min = promote(loops[i].min, loops[i].var->dtype);
    f->extent = promote(loops[i].extent, loops[i].var->dtype);
    f->for_kind = loops[i].kind;
    f->thread_binding = loops[i].thread;
    f->annotations = loops[i].annotations;
    f->body = body;
    f->span = stmt.span();
    body = f;
  }
  sink.emit(body);
}

void StmtParser::parse_while(Node stmt, StmtSink& sink) {
  if (Node alt = stmt.field(Field::kAlternative)) {
    fe_.error("E0603", alt, "`while ... else` is not supported in TIR");
    return;
  }
  Value c = fe_.eval(stmt.field(Field::kCondition));
  Ref<PrimExpr> cond = c.is_error() ? nullptr : to_expr(fe_, c);
  StmtSink body_sink;
  {
    Frontend::ScopeGuard scope(fe_);
    parse_suite(stmt.field(Field::kBody), body_sink);
  }
  Ref<Stmt> body = body_sink.finish();
  if (!cond) return;
  auto w = make<While>(cond, body);
  w->span = stmt.span();
  sink.emit(w);
}

// `if` with its `elif`/`else` clauses (the alternatives of `owner` from index `alt`); a Python
// constant condition keeps only the taken branch, inlined in the enclosing body.
void StmtParser::parse_if(Node cond_node, Node consequence, Node owner, size_t alt,
                          StmtSink& sink) {
  std::vector<Node> alternatives = owner.fields(Field::kAlternative);
  auto parse_rest = [&](StmtSink& into) {
    if (alt >= alternatives.size()) return;
    Node next = alternatives[alt];
    if (next.kind() == NodeKind::kElifClause) {
      // An `elif` is an `if` inside the `else` of the one before: one level deeper.
      uint32_t outer = nesting_++;
      if (check_nesting(next))
        parse_if(next.field(Field::kCondition), next.field(Field::kConsequence), owner, alt + 1,
                 into);
      nesting_ = outer;
    } else {
      Frontend::ScopeGuard scope(fe_);
      parse_suite(next.field(Field::kBody), into);
    }
  };
  Value c = fe_.eval(cond_node);
  if (c.is_error()) return;
  if (c.is_python_number() || c.is_none()) {
    if (truthy(c)) {
      Frontend::ScopeGuard scope(fe_);
      parse_suite(consequence, sink);
    } else {
      parse_rest(sink);
    }
    return;
  }
  Ref<PrimExpr> cond = to_expr(fe_, c);
  if (!cond) return;
  if (!cond->dtype.is_bool()) {
    fe_.error("E0615", cond_node,
              "an if condition must be a boolean expression, got " + cond->dtype.str());
    return;
  }
  StmtSink then_sink;
  {
    Frontend::ScopeGuard scope(fe_);
    parse_suite(consequence, then_sink);
  }
  Ref<Stmt> else_case;
  if (alt < alternatives.size()) {
    StmtSink else_sink;
    parse_rest(else_sink);
    else_case = else_sink.finish();
  }
  auto s = make<IfThenElse>(cond, then_sink.finish(), else_case);
  s->span = cond_node.parent().span();
  sink.emit(s);
}

// --- With, assert, return ------------------------------------------------------------------------

void StmtParser::parse_with(Node stmt, StmtSink& sink) {
  std::vector<Node> items;
  for (Node c : stmt.named_children()) {
    if (c.kind() == NodeKind::kWithItem) items.push_back(c);
    if (c.kind() == NodeKind::kWithClause) {
      for (Node i : c.named_children()) {
        if (i.kind() == NodeKind::kWithItem) items.push_back(i);
      }
    }
  }
  if (items.size() != 1) {
    fe_.error("E0603", stmt, "a TIR `with` statement takes exactly one item");
    return;
  }
  Node value = unparen(items[0].field(Field::kValue));
  Node alias = items[0].field(Field::kAlias);
  std::string name =
      value.kind() == NodeKind::kCall ? static_callee(value.field(Field::kFunction)) : "";
  static const char* kScoped[] = {"T.attr",    "T.launch_thread", "T.allocate", "T.decl_buffer",
                                  "T.realize", "T.LetStmt",       "T.Assert"};
  bool scoped = false;
  for (const char* s : kScoped) scoped |= name == s;
  if (name != "T.block" && name != "T.sblock" && name != "T.init" && !scoped) {
    fe_.error("E0603", value,
              "unsupported `with` statement: expected T.block, T.init, T.attr, T.launch_thread, "
              "T.allocate, T.decl_buffer, T.realize, T.LetStmt or T.Assert");
    return;
  }
  std::vector<Node> targets;
  if (alias) {
    targets = target_names(alias);
    if (targets.size() != 1) {
      fe_.error("E0604", alias, "`with ... as` binds a single name");
      return;
    }
  }
  CallArgs call;
  call.name = name;
  if (!eval_call(value, call)) {
    for (Node t : targets) fe_.poison(std::string(t.text()));
    return;
  }
  if (name == "T.block" || name == "T.sblock") {
    if (alias) fe_.error("E0604", alias, "T.block takes no `as` name");
    parse_block(stmt, call, sink);
    return;
  }
  if (name == "T.init") {
    ArgBinder args(fe_, call, {});
    BlockFrame* frame = current_block(value, "T.init");
    if (!frame) return;
    if (frame->block->init) {
      fe_.error("E0613", value, "a block has at most one `with T.init():`");
      return;
    }
    StmtSink init_sink;
    {
      Frontend::ScopeGuard scope(fe_);
      ++init_depth_;
      parse_suite(stmt.field(Field::kBody), init_sink);
      --init_depth_;
    }
    frame->block->init = init_sink.finish();
    return;
  }
  // Scoped builtins: the with-form is the concise form over the with-body.
  StmtSink inner;
  Frontend::ScopeGuard scope(fe_);
  if (name == "T.launch_thread")
    thread_builtin(name, call, targets, inner, stmt.field(Field::kBody));
  else
    frame_builtin(name, call, targets, inner);
  parse_suite(stmt.field(Field::kBody), inner);
  sink.emit(inner.finish());
}

void StmtParser::parse_block(Node stmt, const CallArgs& call, StmtSink& sink) {
  ArgBinder args(fe_, call, {"name=", "no_realize="});
  if (!args.ok()) return;
  std::string name;
  if (const Value* n = args.get("name")) {
    auto s = fe_.to_string(*n);
    if (!s) return;
    name = *s;
  }
  bool no_realize = false;
  if (const Value* n = args.get("no_realize")) {
    auto b = fe_.to_bool(*n);
    if (!b) return;
    no_realize = *b;
  }
  BlockFrame frame;
  frame.block = make<Block>();
  frame.block->name_hint = name;
  frame.block->span = stmt.span();
  blocks_.push_back(&frame);
  StmtSink body_sink;
  {
    Frontend::ScopeGuard scope(fe_);
    parse_suite(stmt.field(Field::kBody), body_sink);
  }
  blocks_.pop_back();
  frame.block->body = body_sink.finish();
  masks_[frame.block.get()] = DetectMask{!frame.has_reads, !frame.has_writes};
  if (no_realize) {
    if (!frame.iter_values.empty() || frame.predicate) {
      fe_.error("E0605", stmt,
                "a block with no_realize=True takes no axis bindings and no T.where");
    }
    sink.emit(frame.block);
    return;
  }
  auto realize = make<BlockRealize>();
  realize->iter_values = frame.iter_values;
  realize->predicate = frame.predicate ? frame.predicate : Ref<PrimExpr>(bool_imm(true));
  realize->block = frame.block;
  realize->span = stmt.span();
  sink.emit(realize);
}

void StmtParser::parse_assert(Node stmt, StmtSink& sink) {
  Value c = fe_.eval(stmt.field(Field::kCondition));
  Ref<PrimExpr> cond = c.is_error() ? nullptr : to_expr(fe_, c);
  Ref<PrimExpr> message = make<StringImm>("");
  if (Node m = stmt.field(Field::kMessage)) {
    Value mv = fe_.eval(m);
    if (mv.is_error()) return;
    if (mv.is_string()) {
      message = make<StringImm>(mv.as_string());
    } else if (mv.is_tuple() && mv.items().size() == 2 && mv.items()[0].is_string() &&
               mv.items()[1].is_sequence()) {
      // Current spelling: ("RuntimeError", ["part0", "part1"]).
      std::string text;
      for (const Value& part : mv.items()[1].items()) {
        if (part.is_string()) text += part.as_string();
      }
      message = make<StringImm>(text);
    } else if (auto e = mv.as<PrimExpr>()) {
      message = e;
    } else {
      fe_.error("E0608", m, "an assert message must be a string, got " + mv.describe());
      return;
    }
  }
  if (!cond) return;
  sink.open([cond, message](Ref<Stmt> body) -> Ref<Stmt> {
    return make<AssertStmt>(cond, message, body);
  });
}

void StmtParser::parse_return(Node stmt, StmtSink& sink) {
  Node value = stmt.field(Field::kValue);
  if (!value) {
    fe_.error("E0612", stmt, "a TIR `return` needs a value");
    return;
  }
  Value v = fe_.eval(value);
  if (v.is_error()) return;
  Ref<PrimExpr> e = to_expr(fe_, v);
  if (!e) return;
  auto ev = make<Evaluate>(make<Call>(e->dtype, "tir.ret", std::vector<Ref<PrimExpr>>{e}));
  ev->span = stmt.span();
  sink.emit(ev);
}

}  // namespace relax::syntax::tirfe

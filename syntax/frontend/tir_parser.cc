// The TIR front end's function level: the `@T.prim_func` decorator and its flags, parameters
// (buffers inline or as handles, typed pointers, scalars, PEP 695 type parameters), the return
// annotation, and the finishing steps (global symbol, attribute order, implicit root block and
// block regions).
#include "syntax/frontend/tir_parser.h"

#include <algorithm>

#include "syntax/frontend/prim_builtins.h"
#include "syntax/frontend/tir_stmt_parser.h"

namespace relax::syntax {

using ir::make;
using namespace tirfe;

ir::Ref<ir::tir::PrimFunc> parse_prim_func(Frontend& fe, Node decorated,
                                           const ir::Ref<ir::GlobalVar>& gvar) {
  StmtParser parser(fe);
  return parser.parse_function(decorated, gvar);
}

namespace tirfe {

namespace {

// Sorts attributes by key: TVM keeps them in a map, so their order carries no meaning.
void sort_attrs(ir::Attrs& attrs) {
  std::vector<ir::Attrs::Entry> entries(attrs.entries().begin(), attrs.entries().end());
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ir::Attrs sorted;
  for (auto& [k, v] : entries) sorted.set(k, v);
  attrs = std::move(sorted);
}

}  // namespace

bool StmtParser::parse_decorator(Node decorated, bool& is_private) {
  Node last;
  for (Node child : decorated.named_children()) {
    if (child.kind() == NodeKind::kDecorator) last = child;
  }
  if (!last) return true;
  Node expr;
  for (Node c : last.named_children()) {
    if (c.kind() != NodeKind::kComment) expr = c;
  }
  if (expr.kind() != NodeKind::kCall) return true;
  bool ok = true;
  for (Node arg : expr.field(Field::kArguments).named_children()) {
    if (arg.kind() == NodeKind::kComment) continue;
    if (arg.kind() != NodeKind::kKeywordArgument) {
      fe_.error("E0609", arg,
                "@T.prim_func takes keyword arguments only (private=, s_tir=, check_well_formed=)");
      ok = false;
      continue;
    }
    std::string key(arg.field(Field::kName).text());
    Node value = arg.field(Field::kValue);
    bool flag = false;
    if (value.kind() == NodeKind::kTrue)
      flag = true;
    else if (value.kind() != NodeKind::kFalse) {
      fe_.error("E0609", value, "`" + key + "` must be the literal True or False");
      ok = false;
      continue;
    }
    if (key == "private")
      is_private = flag;
    else if (key == "s_tir" || key == "check_well_formed")
      continue;
    else if (key == "persistent") {
      fe_.error("E0609", arg, "`persistent=` prim_funcs (TVM main only) are not supported");
      ok = false;
    } else {
      fe_.error("E0609", arg,
                "unknown @T.prim_func argument `" + key +
                    "`: expected private=, s_tir= or check_well_formed=");
      ok = false;
    }
  }
  return ok;
}

void StmtParser::parse_params(Node def) {
  if (Node tparams = def.field(Field::kTypeParameters)) {
    // PEP 695 `def f[n](...)`: symbolic int64 dims of the signature.
    for (Node p : tparams.named_children()) {
      if (p.kind() != NodeKind::kTypeParameter) continue;
      Node name = p.field(Field::kName);
      if (!name) continue;
      std::string n(name.text());
      auto var = make<Var>(n, DataType::Int64());
      var->span = name.span();
      fe_.define(n, Value::object(var, name.span()));
      fe_.define("__tir_typevar__" + n, Value::object(var));
    }
  }
  Node params = def.field(Field::kParameters);
  for (Node p : params.named_children()) {
    if (p.kind() == NodeKind::kComment) continue;
    if (p.kind() == NodeKind::kIdentifier) {
      fe_.error("E0602", p,
                "parameter `" + std::string(p.text()) +
                    "` needs a type annotation such as T.Buffer(...), T.handle or T.int32");
      fe_.poison(std::string(p.text()));
      continue;
    }
    if (p.kind() != NodeKind::kTypedParameter) {
      fe_.error("E0602", p,
                "prim_func parameters are `name: annotation` (no defaults, *args or **kwargs)");
      continue;
    }
    Node name_node = p.field(Field::kName);
    if (!name_node) name_node = p.named_child(0);
    std::string name(name_node.text());
    Node ann_node = p.field(Field::kAnnotation);
    Value ann = fe_.eval(ann_node);
    if (ann.is_error()) {
      fe_.poison(name);
      continue;
    }
    if (auto buffer = ann.as<Buffer>()) {
      name_buffer(buffer, name);
      auto handle = make<Var>(name + "_handle", DataType::Handle());
      handle->span = name_node.span();
      func_->params.push_back(handle);
      func_->buffer_map.emplace_back(handle, buffer);
      fe_.define(name, ann.with_span(name_node.span()));
      continue;
    }
    Ref<Var> var;
    if (auto v = ann.as<Var>(); v && v->name.empty()) {
      var = v;  // T.handle("float32", "shared"), T.int32() ...
    } else if (ann.is_namespace() && !ann.bound_self()) {
      const std::string& path = ann.as_string();
      if (path == "T.handle") {
        var = make<Var>(name, DataType::Handle());
      } else if (path == "T.Ptr") {
        var = make<Var>(name, DataType::Handle());
        var->pointer = PointerType{DataType::Void(), "global"};
      } else if (auto t = dtype_of_constructor(path)) {
        var = make<Var>(name, *t);
      }
    }
    if (!var) {
      fe_.error("E0602", ann_node,
                "parameter `" + name +
                    "` must be annotated with T.Buffer(...), T.handle, a typed T.handle(dtype, "
                    "scope) or a scalar type such as T.int32, got " +
                    ann.describe());
      fe_.poison(name);
      continue;
    }
    var->name = name;
    var->span = name_node.span();
    func_->params.push_back(var);
    fe_.define(name, Value::object(var, name_node.span()));
    fe_.symbols.set_kind(var.get(), SymbolKind::kTirParameter);
  }
}

Ref<PrimFunc> StmtParser::parse_function(Node decorated, const Ref<ir::GlobalVar>& gvar) {
  size_t errors_before = fe_.error_count();
  Node def = decorated.field(Field::kDefinition);
  if (!def) return nullptr;
  bool is_private = false;
  parse_decorator(decorated, is_private);
  func_ = make<PrimFunc>();
  func_->span = def.span();
  func_name_ = gvar ? gvar->name : std::string(def.field(Field::kName).text());
  Frontend::ScopeGuard scope(fe_);
  parse_params(def);
  if (Node ret = def.field(Field::kReturnType)) {
    Value r = fe_.eval(ret);
    if (r.is_none()) {
      func_->ret_type = DataType::Void();
    } else if (r.is_namespace() && dtype_of_constructor(r.as_string())) {
      func_->ret_type = *dtype_of_constructor(r.as_string());
    } else if (r.is_namespace() && r.as_string() == "T.handle") {
      func_->ret_type = DataType::Handle();
    } else if (!r.is_error()) {
      fe_.error("E0612", ret,
                "a prim_func returns None or a scalar type such as T.int32, got " + r.describe());
    }
  }
  StmtSink sink;
  parse_suite(def.field(Field::kBody), sink);
  Ref<Stmt> body = sink.finish();
  finish_function(def, body, is_private, func_name_);
  if (fe_.error_count() > errors_before) return nullptr;
  return func_;
}

void StmtParser::finish_function(Node def, Ref<Stmt> body, bool is_private,
                                 const std::string& name) {
  // Buffer map in parameter order.
  std::stable_sort(func_->buffer_map.begin(), func_->buffer_map.end(),
                   [&](const auto& a, const auto& b) {
                     auto index = [&](const Ref<Var>& v) {
                       for (size_t i = 0; i < func_->params.size(); ++i) {
                         if (func_->params[i] == v) return i;
                       }
                       return func_->params.size();
                     };
                     return index(a.first) < index(b.first);
                   });
  if (!is_private && !func_->attrs.contains("global_symbol")) {
    func_->attrs.set("global_symbol", ir::make_string(name));
  }
  sort_attrs(func_->attrs);
  func_->body = complete_prim_func(fe_, func_, body, root_allocs_, masks_, def.span());
}

// --- StmtSink ---------------------------------------------------------------------------------

void StmtSink::emit(Ref<Stmt> stmt) {
  if (stmt) levels_.back().stmts.push_back(std::move(stmt));
}

void StmtSink::open(Wrap wrap) {
  levels_.push_back({{}, std::move(wrap)});
}

namespace {
Ref<Stmt> as_stmt(std::vector<Ref<Stmt>> stmts) {
  if (stmts.empty()) return make<Evaluate>(int32(0));
  if (stmts.size() == 1) return stmts[0];
  return make<SeqStmt>(std::move(stmts));
}
}  // namespace

Ref<Stmt> StmtSink::finish() {
  while (levels_.size() > 1) {
    Level level = std::move(levels_.back());
    levels_.pop_back();
    Ref<Stmt> body = as_stmt(std::move(level.stmts));
    Ref<Stmt> wrapped = level.wrap ? level.wrap(body) : body;
    levels_.back().stmts.push_back(wrapped ? wrapped : body);
  }
  Ref<Stmt> out = as_stmt(std::move(levels_.back().stmts));
  levels_.back().stmts.clear();
  return out;
}

}  // namespace tirfe

}  // namespace relax::syntax

// Shared helpers of the lint rules.
#include "analysis/lint/lint_util.h"

#include <algorithm>
#include <cctype>

#include "analysis/ops/op_registry.h"
#include "ir/tir_visitor.h"

namespace relax::analysis::lint {

namespace {

// Visits nested functions in the order they are bound.
class NestedFunctions : public ir::ExprVisitor {
 public:
  explicit NestedFunctions(std::function<void(const ir::Ref<ir::Function>&)> fn)
      : fn_(std::move(fn)) {}
  void visit_function(const ir::Ref<ir::Function>& func) override {
    if (depth_++ > 0) fn_(func);
    ir::ExprVisitor::visit_function(func);
    --depth_;
  }

 private:
  std::function<void(const ir::Ref<ir::Function>&)> fn_;
  int depth_ = 0;
};

class TirVarWalker : public ir::tir::Visitor {
 public:
  explicit TirVarWalker(const std::function<void(const ir::tir::Var*)>& fn) : fn_(fn) {}
  void visit_var(const ir::Ref<ir::tir::Var>& var) override { fn_(var.get()); }

 private:
  const std::function<void(const ir::tir::Var*)>& fn_;
};

// Ops TVM marks impure, for when the registry does not (yet) know an op.
bool known_impure_op(const std::string& name) {
  return name == "relax.print" || name == "relax.assert_op" ||
         name == "relax.call_builtin_with_ctx" || name == "relax.invoke_closure";
}

class PurityScan : public ir::ExprVisitor {
 public:
  explicit PurityScan(const ir::IRModule& module) : module_(module) {}
  Purity result = Purity::kPure;

  void visit_call(const ir::Ref<ir::Call>& call) override {
    Purity p = call_purity(*call, module_);
    if (p == Purity::kImpure) result = Purity::kImpure;
    if (p == Purity::kUnknown && result == Purity::kPure) result = Purity::kUnknown;
    ir::ExprVisitor::visit_call(call);
  }
  // A function value is not run where it is defined.
  void visit_function(const ir::Ref<ir::Function>&) override {}

 private:
  const ir::IRModule& module_;
};

}  // namespace

void for_each_function(
    const ir::IRModule& module,
    const std::function<void(const std::string&, const ir::Ref<ir::Function>&, bool)>& fn) {
  for (const auto& member : module.functions) {
    auto func = ir::as_relax_function(member.func);
    if (!func) continue;
    fn(member.gvar->name, func, false);
    NestedFunctions nested([&](const ir::Ref<ir::Function>& f) { fn(member.gvar->name, f, true); });
    nested.visit(func);
  }
}

bool is_user_named(const ir::Var& var, const ir::SourceFile* source) {
  if (!source || !var.span.is_known() || var.name.empty() || var.name == "_") return false;
  return source->slice(var.span) == var.name;
}

Purity call_purity(const ir::Call& call, const ir::IRModule& module) {
  if (auto op = call.op.as_ptr<ir::Op>()) {
    if (const OpInfo* info = OpRegistry::global().find(op->name))
      return info->pure ? Purity::kPure : Purity::kImpure;
    // An op the registry does not know (a lowering-only op): assume nothing.
    return known_impure_op(op->name) ? Purity::kImpure : Purity::kUnknown;
  }
  if (call.op.is<ir::ExternFunc>()) return Purity::kImpure;  // R.call_packed
  if (auto gv = call.op.as_ptr<ir::GlobalVar>()) {
    ir::ObjectRef callee = module.lookup(gv->name);
    if (auto f = ir::as_relax_function(callee)) return f->is_pure ? Purity::kPure : Purity::kImpure;
    if (callee) return Purity::kImpure;  // a prim_func or extern function called directly
    return Purity::kUnknown;
  }
  if (auto v = call.op.as_ptr<ir::Var>()) {
    if (auto f = v->struct_info.as_ptr<ir::FuncStructInfo>())
      return f->purity ? Purity::kPure : Purity::kImpure;
  }
  return Purity::kUnknown;
}

Purity expr_purity(const ir::Ref<ir::Expr>& expr, const ir::IRModule& module) {
  PurityScan scan(module);
  scan.visit(expr);
  return scan.result;
}

// --- UseCounter ------------------------------------------------------------------------------

size_t UseCounter::uses(const ir::Var* var) const {
  auto it = uses_.find(var);
  return it == uses_.end() ? 0 : it->second;
}

size_t UseCounter::tir_uses(const ir::tir::Var* var) const {
  auto it = tir_uses_.find(var);
  return it == tir_uses_.end() ? 0 : it->second;
}

void UseCounter::visit_var(const ir::Ref<ir::Var>& var) {
  ++uses_[var.get()];
}

void UseCounter::visit_var_def(const ir::Ref<ir::Var>& var) {
  visit_struct_info(var->struct_info);
}

void UseCounter::visit_struct_info(const ir::Ref<ir::StructInfo>& sinfo) {
  if (!sinfo) return;
  switch (sinfo->kind()) {
    case ir::ObjectKind::kTensorStructInfo: {
      auto t = sinfo.as_ptr<ir::TensorStructInfo>();
      if (t->shape) visit(t->shape);
      return;
    }
    case ir::ObjectKind::kShapeStructInfo: {
      auto s = sinfo.as_ptr<ir::ShapeStructInfo>();
      if (s->values)
        for (const auto& v : *s->values) visit_prim_expr(v);
      return;
    }
    case ir::ObjectKind::kPrimStructInfo:
      visit_prim_expr(sinfo.as_ptr<ir::PrimStructInfo>()->value);
      return;
    case ir::ObjectKind::kTupleStructInfo:
      for (const auto& f : sinfo.as_ptr<ir::TupleStructInfo>()->fields) visit_struct_info(f);
      return;
    case ir::ObjectKind::kFuncStructInfo: {
      auto f = sinfo.as_ptr<ir::FuncStructInfo>();
      if (f->params)
        for (const auto& p : *f->params) visit_struct_info(p);
      visit_struct_info(f->ret);
      return;
    }
    default:
      return;
  }
}

void UseCounter::visit_prim_expr(const ir::Ref<ir::tir::PrimExpr>& expr) {
  if (!expr) return;
  std::function<void(const ir::tir::Var*)> count = [this](const ir::tir::Var* v) {
    ++tir_uses_[v];
  };
  TirVarWalker walker(count);
  walker.visit_expr(expr);
}

void UseCounter::visit_function(const ir::Ref<ir::Function>& func) {
  ir::ExprVisitor::visit_function(func);
  visit_struct_info(func->ret_struct_info);
}

void for_each_tir_var(const ir::Ref<ir::StructInfo>& sinfo,
                      const std::function<void(const ir::tir::Var*)>& fn) {
  if (!sinfo) return;
  TirVarWalker walker(fn);
  switch (sinfo->kind()) {
    case ir::ObjectKind::kTensorStructInfo: {
      auto t = sinfo.as_ptr<ir::TensorStructInfo>();
      if (auto shape = t->shape.as_ptr<ir::ShapeExpr>())
        for (const auto& v : shape->values) walker.visit_expr(v);
      return;
    }
    case ir::ObjectKind::kShapeStructInfo: {
      auto s = sinfo.as_ptr<ir::ShapeStructInfo>();
      if (s->values)
        for (const auto& v : *s->values) walker.visit_expr(v);
      return;
    }
    case ir::ObjectKind::kPrimStructInfo:
      if (auto v = sinfo.as_ptr<ir::PrimStructInfo>()->value) walker.visit_expr(v);
      return;
    case ir::ObjectKind::kTupleStructInfo:
      for (const auto& f : sinfo.as_ptr<ir::TupleStructInfo>()->fields) for_each_tir_var(f, fn);
      return;
    default:
      return;
  }
}

// --- Source and syntax -----------------------------------------------------------------------

syntax::Node node_at(const syntax::SyntaxTree* tree, const ir::Span& span) {
  if (!tree || span.file != tree->file() || span.begin < tree->base()) return syntax::Node();
  return tree->root().descendant_for_range(span.begin - tree->base(), span.end - tree->base());
}

std::optional<ir::Span> whole_lines(const ir::SourceFile* source, const ir::Span& span) {
  if (!source) return std::nullopt;
  const std::string& text = source->text();
  uint32_t begin = span.begin,
           end = std::min<uint32_t>(span.end, static_cast<uint32_t>(text.size()));
  // Syntax nodes of blocks may end after their last line's newline.
  while (end > begin && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
    --end;
  while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
  if (begin > 0 && text[begin - 1] != '\n') return std::nullopt;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  if (end < text.size() && text[end] == '#') {
    while (end < text.size() && text[end] != '\n') ++end;
  }
  if (end < text.size() && text[end] == '\r') ++end;
  if (end < text.size()) {
    if (text[end] != '\n') return std::nullopt;
    ++end;
  }
  return ir::Span{span.file, begin, end};
}

uint32_t line_of(const ir::SourceFile* source, const ir::Span& span) {
  return source ? source->position(span.begin).line + 1 : 0;
}

void walk_named_nodes(const syntax::SyntaxTree& tree, const std::function<bool(syntax::Node)>& fn) {
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree.raw()));
  while (true) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool into = ts_node_is_named(node) ? fn(syntax::Node(node, &tree)) : true;
    if (into && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cursor);
}

void for_each_occurrence(const syntax::SyntaxTree& tree, std::string_view needle,
                         const std::function<void(syntax::Node)>& fn, bool ignore_case) {
  const std::string& text = tree.text();
  if (needle.empty() || text.size() < needle.size()) return;
  auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  syntax::Node root = tree.root();
  for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
    if (ignore_case) {
      if (lower(text[i]) != lower(needle[0])) continue;
      bool same = true;
      for (size_t k = 1; k < needle.size() && same; ++k)
        same = lower(text[i + k]) == lower(needle[k]);
      if (!same) continue;
    } else {
      size_t at = text.find(needle, i);
      if (at == std::string::npos) return;
      i = at;
    }
    syntax::Node n = root.descendant_for_range(static_cast<uint32_t>(i),
                                               static_cast<uint32_t>(i + needle.size()));
    if (n) fn(n);
    i += needle.size() - 1;
  }
}

std::string callee_text(syntax::Node call) {
  if (!call || call.kind() != syntax::NodeKind::kCall) return "";
  syntax::Node f = call.field(syntax::Field::kFunction);
  if (!f) return "";
  std::string out;
  for (char c : f.text()) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
  }
  return out;
}

}  // namespace relax::analysis::lint

// Rules about the members of a module:
// W1008 unused-private-function: a private Relax function or prim_func (no global_symbol, so
// not callable from outside) that no other member refers to.
// W1010 missing-return-annotation: a module function without `-> ...` that other functions
// call. TVM's parser declares every signature before parsing bodies, so those callers see the
// result as R.Object and lose its shape.
#include <map>
#include <set>

#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"
#include "ir/tir_visitor.h"

namespace relax::analysis::lint {

namespace {

// Where each global name is referred to from another member, in order.
struct References {
  std::map<std::string, std::vector<ir::Span>> calls;  // `cls.f(...)` call sites, by callee
  std::set<std::string> names;                         // every referenced name
};

class GlobalRefs : public ir::ExprVisitor {
 public:
  GlobalRefs(References& refs, std::string self) : refs_(refs), self_(std::move(self)) {}
  void visit_global_var(const ir::Ref<ir::GlobalVar>& gv) override {
    if (gv->name != self_) refs_.names.insert(gv->name);
  }
  void visit_call(const ir::Ref<ir::Call>& call) override {
    if (auto gv = call->op.as_ptr<ir::GlobalVar>(); gv && gv->name != self_)
      refs_.calls[gv->name].push_back(call->span);
    ir::ExprVisitor::visit_call(call);
  }

 private:
  References& refs_;
  std::string self_;
};

// prim_funcs name other functions only in strings (call_extern and friends); count them.
class TirNames : public ir::tir::Visitor {
 public:
  TirNames(References& refs, std::string self) : refs_(refs), self_(std::move(self)) {}
  void visit_call(const ir::Ref<ir::tir::Call>& call) override {
    if (call->op != self_) refs_.names.insert(call->op);
    ir::tir::Visitor::visit_call(call);
  }
  void visit_string_imm(const ir::Ref<ir::tir::StringImm>& s) override {
    if (s->value != self_) refs_.names.insert(s->value);
  }

 private:
  References& refs_;
  std::string self_;
};

References collect_references(const ir::IRModule& module) {
  References refs;
  for (const auto& member : module.functions) {
    if (auto f = ir::as_relax_function(member.func)) {
      GlobalRefs(refs, member.gvar->name).visit(f);
    } else if (auto p = ir::as_prim_func(member.func)) {
      if (p->body) TirNames(refs, member.gvar->name).visit_stmt(p->body);
    }
  }
  return refs;
}

// The span of a member's name: Relax functions carry it; a prim_func's span is its definition.
ir::Span name_span(LintContext& ctx, const ir::IRModule::Member& member) {
  if (auto f = ir::as_relax_function(member.func)) return f->span;
  ir::Span span = member.func->span;
  syntax::Node node = node_at(ctx.tree(), span);
  if (node && node.kind() == syntax::NodeKind::kDecoratedDefinition)
    node = node.field(syntax::Field::kDefinition);
  if (node && node.kind() == syntax::NodeKind::kFunctionDefinition) {
    if (syntax::Node name = node.field(syntax::Field::kName)) return name.span();
  }
  return span;
}

const ir::Attrs* attrs_of(const ir::ObjectRef& func) {
  if (auto f = func.as_ptr<ir::Function>()) return &f->attrs;
  if (auto p = func.as_ptr<ir::tir::PrimFunc>()) return &p->attrs;
  return nullptr;
}

void check_unused_private(LintContext& ctx) {
  if (ctx.facts().incomplete_module || !ctx.facts().is_module_class) return;
  References refs = collect_references(ctx.module());
  for (const auto& member : ctx.module().functions) {
    const ir::Attrs* attrs = attrs_of(member.func);
    if (!attrs || attrs->contains("global_symbol") || refs.names.count(member.gvar->name)) continue;
    ir::Span span = name_span(ctx, member);
    if (!span.is_known()) continue;
    bool prim = member.func.is<ir::tir::PrimFunc>();
    ctx.report(span, std::string("the private ") + (prim ? "prim_func" : "function") + " `" +
                         member.gvar->name + "` is never used in this module")
        .note("private functions have no global_symbol: nothing outside the module can call them");
  }
}

void check_missing_return_annotation(LintContext& ctx) {
  if (ctx.facts().incomplete_module || !ctx.facts().is_module_class) return;
  References refs = collect_references(ctx.module());
  for (const auto& member : ctx.module().functions) {
    auto f = ir::as_relax_function(member.func);
    if (!f || !f->span.is_known() || ctx.facts().annotated_returns.count(span_key(f->span)))
      continue;
    auto it = refs.calls.find(member.gvar->name);
    if (it == refs.calls.end() || it->second.empty()) continue;
    auto& d = ctx.report(
        f->span, "`" + member.gvar->name +
                     "` has no return annotation, so TVM types calls of it from other functions "
                     "as R.Object");
    if (it->second.front().is_known())
      d.label(it->second.front(), "this call's result is R.Object in TVM");
    d.note(
        "TVM's parser declares every function's signature before it parses the bodies; write `-> "
        "...`");
  }
}

}  // namespace

void register_module_rules(LintRegistry& registry) {
  registry.add({"W1008", "unused-private-function",
                "a private function or prim_func that nothing in the module uses", true,
                ir::Severity::kWarning, false, check_unused_private});
  registry.add({"W1010", "missing-return-annotation",
                "a function called by other functions of the module has no return annotation", true,
                ir::Severity::kWarning, false, check_missing_return_annotation});
}

}  // namespace relax::analysis::lint

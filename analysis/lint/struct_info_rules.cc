// Rules that compare written struct info with what inference knows:
// W1005 redundant-match-cast: `R.match_cast(x, T)` where x provably has struct info T already
// (TVM then emits no runtime check; the cast only renames x).
// W1006 weak-annotation: a binding annotation that is provably less precise than the struct
// info inferred for its value (`y: R.Tensor(ndim=2) = R.add(a, b)` where inference knows
// `R.Tensor((4, 8), "float32")`); later code sees only what the annotation says.
#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"
#include "analysis/struct_info.h"
#include "syntax/printer.h"

namespace relax::analysis::lint {

namespace {

class BindingVisitor : public ir::ExprVisitor {
 public:
  explicit BindingVisitor(std::function<void(const ir::Ref<ir::Binding>&)> fn)
      : fn_(std::move(fn)) {}
  void visit_binding(const ir::Ref<ir::Binding>& binding) override {
    fn_(binding);
    ir::ExprVisitor::visit_binding(binding);
  }

 private:
  std::function<void(const ir::Ref<ir::Binding>&)> fn_;
};

void for_each_binding(LintContext& ctx,
                      const std::function<void(const ir::Ref<ir::Binding>&)>& fn) {
  for (const auto& member : ctx.module().functions) {
    if (auto func = ir::as_relax_function(member.func)) BindingVisitor(fn).visit(func);
  }
}

// Struct info worth comparing: known, and not the unknown R.Object a failed inference leaves.
bool informative(const ir::Ref<ir::StructInfo>& s) {
  return s && !s.is<ir::ObjectStructInfo>();
}

void check_redundant_match_cast(LintContext& ctx) {
  for_each_binding(ctx, [&](const ir::Ref<ir::Binding>& b) {
    auto mc = b.as<ir::MatchCast>();
    if (!mc || !mc->struct_info || !b->value) return;
    ir::Ref<ir::StructInfo> value_sinfo = b->value->struct_info;
    if (!informative(value_sinfo)) return;
    if (!is_base_of(mc->struct_info, value_sinfo, ctx.analyzer())) return;
    // Point at the R.match_cast(...) call when the syntax tree has it.
    ir::Span span = b->span;
    syntax::Node stmt = node_at(ctx.tree(), b->span);
    syntax::Node call = stmt && stmt.kind() == syntax::NodeKind::kAssignment
                            ? stmt.field(syntax::Field::kRight)
                            : syntax::Node();
    if (call && call.kind() == syntax::NodeKind::kCall) span = call.span();
    std::string value_text = syntax::to_text(b->value);
    auto& d = ctx.report(span, "this match_cast is redundant: `" + value_text +
                                   "` already has struct info " + syntax::to_text(value_sinfo));
    d.note(
        "TVM skips the runtime check of a match_cast that inference proves; the binding only "
        "renames the value");
    if (call && call.kind() == syntax::NodeKind::kCall) {
      syntax::Node args = call.field(syntax::Field::kArguments);
      std::vector<syntax::Node> named = args ? args.named_children() : std::vector<syntax::Node>{};
      if (!named.empty() && named[0].kind() != syntax::NodeKind::kComment)
        d.with_fix("use the value directly", call.span(), std::string(named[0].text()),
                   ir::FixSafety::kSafe);
    }
  });
}

void check_weak_annotation(LintContext& ctx) {
  const auto& annotations = ctx.facts().binding_annotations;
  if (annotations.empty()) return;
  for_each_binding(ctx, [&](const ir::Ref<ir::Binding>& b) {
    if (!b.is<ir::VarBinding>() || !b->value) return;
    auto it = annotations.find(span_key(b->var->span));
    if (it == annotations.end()) return;
    const ir::Ref<ir::StructInfo>& written = it->second;
    ir::Ref<ir::StructInfo> inferred = b->value->struct_info;
    if (!informative(inferred) || !written) return;
    arith::Analyzer& az = ctx.analyzer();
    // Weaker: everything the inferred struct info allows, the annotation allows, not conversely.
    if (!is_base_of(written, inferred, az) || is_base_of(inferred, written, az)) return;
    ir::Span span = b->var->span;
    syntax::Node stmt = node_at(ctx.tree(), b->span);
    syntax::Node ann = stmt && stmt.kind() == syntax::NodeKind::kAssignment
                           ? stmt.field(syntax::Field::kAnnotation)
                           : syntax::Node();
    if (ann) span = ann.span();
    std::string inferred_text = syntax::to_text(inferred);
    auto& d =
        ctx.report(span, "the annotation " + syntax::to_text(written) +
                             " is less precise than the inferred struct info " + inferred_text);
    // TVM trusts an annotation on a call (the annotation becomes the call's struct info) and
    // ignores a weaker one on any other value (the variable keeps the value's struct info).
    if (b->value.is<ir::Call>())
      d.note("TVM takes the annotation as the call's struct info: later uses of `" + b->var->name +
             "` only know what it says");
    else
      d.note(
          "TVM ignores an annotation less precise than the value's struct info; it only misleads "
          "the reader");
    // On a call the annotation is the call's struct info, so a stronger one changes what later
    // uses know (unsafe); elsewhere TVM ignores the weaker one (safe).
    if (ann)
      d.with_fix("annotate with the inferred struct info", ann.span(), inferred_text,
                 b->value.is<ir::Call>() ? ir::FixSafety::kUnsafe : ir::FixSafety::kSafe);
  });
}

}  // namespace

void register_struct_info_rules(LintRegistry& registry) {
  registry.add({"W1005", "redundant-match-cast",
                "a match_cast to struct info the value provably has already", true,
                ir::Severity::kWarning, false, check_redundant_match_cast});
  registry.add({"W1006", "weak-annotation",
                "a binding annotation is less precise than the struct info inferred for its value",
                true, ir::Severity::kWarning, false, check_weak_annotation});
}

}  // namespace relax::analysis::lint

// W1011 redundant-force-pure: a function marked `"relax.force_pure": True` that makes no impure
// call. The attribute tells TVM to trust that side effects do not matter; without impure calls
// it only hides future mistakes from the purity check.
#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"

namespace relax::analysis::lint {

namespace {

bool truthy(const ir::ObjectRef& v) {
  if (auto b = v.as_ptr<ir::BoolValue>()) return b->value;
  if (auto i = v.as_ptr<ir::IntValue>()) return i->value != 0;
  if (auto imm = v.as_ptr<ir::tir::IntImm>()) return imm->value != 0;
  return false;
}

// The span of the `"relax.force_pure"` key in the function's text, or the function's name.
ir::Span attribute_span(LintContext& ctx, const ir::Function& func) {
  syntax::Node name = node_at(ctx.tree(), func.span);
  syntax::Node def = name ? name.parent() : syntax::Node();
  if (!def || def.kind() != syntax::NodeKind::kFunctionDefinition || !ctx.source())
    return func.span;
  std::string_view text = ctx.source()->slice(def.span());
  for (const char* quoted : {"\"relax.force_pure\"", "'relax.force_pure'"}) {
    size_t at = text.find(quoted);
    if (at != std::string_view::npos) {
      uint32_t begin = def.span().begin + static_cast<uint32_t>(at);
      return ir::Span{func.span.file, begin,
                      begin + static_cast<uint32_t>(std::string_view(quoted).size())};
    }
  }
  return func.span;
}

void check_force_pure(LintContext& ctx) {
  for_each_function(ctx.module(), [&](const std::string&, const ir::Ref<ir::Function>& func, bool) {
    ir::ObjectRef flag = func->attrs.find("relax.force_pure");
    if (!flag || !truthy(flag) || !func->span.is_known()) return;
    if (expr_purity(func->body, ctx.module()) != Purity::kPure) return;
    ctx.report(attribute_span(ctx, *func),
               "\"relax.force_pure\" is set but the function makes no impure call")
        .note(
            "the attribute turns off TVM's purity check for this function; remove it while it is "
            "not needed");
  });
}

}  // namespace

void register_purity_rules(LintRegistry& registry) {
  registry.add({"W1011", "redundant-force-pure",
                "\"relax.force_pure\" on a function that makes no impure call", true,
                ir::Severity::kWarning, false, check_force_pure});
}

}  // namespace relax::analysis::lint

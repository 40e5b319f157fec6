// Rules read from the syntax tree, about what the author wrote rather than what it means:
// W1009 empty-dataflow-block: `with R.dataflow():` holding nothing but `R.output(...)` (the
// front end drops the empty block, so only the text shows it).
// W1012 print-call: an `R.print(...)` left in the code (off by default).
#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"

namespace relax::analysis::lint {

namespace {

using syntax::Node;
using syntax::NodeKind;

// The call of a `with` statement's item (`R.dataflow()`), or a null node.
Node with_call(Node with_stmt) {
  for (Node c : with_stmt.named_children()) {
    Node item = c;
    if (c.kind() == NodeKind::kWithClause) {
      auto items = c.named_children();
      item = items.empty() ? Node() : items.front();
    }
    if (item && item.kind() == NodeKind::kWithItem) {
      Node v = item.field(syntax::Field::kValue);
      return v && v.kind() == NodeKind::kCall ? v : Node();
    }
  }
  return Node();
}

bool is_output_statement(Node stmt) {
  if (stmt.kind() != NodeKind::kExpressionStatement) return false;
  auto children = stmt.named_children();
  return children.size() == 1 && callee_text(children[0]) == "R.output";
}

// The call whose callee is the attribute node `callee` (`R.dataflow` in `R.dataflow()`).
Node call_of(Node callee) {
  if (!callee || callee.kind() != NodeKind::kAttribute) return Node();
  Node call = callee.parent();
  if (!call || call.kind() != NodeKind::kCall || !(call.field(syntax::Field::kFunction) == callee))
    return Node();
  return call;
}

void check_empty_dataflow(LintContext& ctx) {
  if (!ctx.tree()) return;
  for_each_occurrence(*ctx.tree(), "R.dataflow", [&](Node callee) {
    Node call = call_of(callee);
    if (!call || callee_text(call) != "R.dataflow") return;
    Node item = call.parent();
    if (!item || item.kind() != NodeKind::kWithItem) return;
    Node n = item.parent();
    if (n && n.kind() == NodeKind::kWithClause) n = n.parent();
    if (!n || n.kind() != NodeKind::kWithStatement || n.has_error() || !(with_call(n) == call))
      return;
    Node body = n.field(syntax::Field::kBody);
    if (!body) return;
    for (Node s : body.named_children()) {
      if (s.kind() == NodeKind::kComment || s.kind() == NodeKind::kPassStatement ||
          is_output_statement(s))
        continue;
      return;
    }
    auto& d = ctx.report(call.span(), "this dataflow block binds nothing");
    if (auto lines = whole_lines(ctx.source(), n.span()))
      d.with_fix("remove the empty dataflow block", *lines, "", ir::FixSafety::kSafe);
  });
}

void check_print(LintContext& ctx) {
  if (!ctx.tree()) return;
  for_each_occurrence(*ctx.tree(), "R.print", [&](Node callee) {
    Node n = call_of(callee);
    if (!n || callee_text(n) != "R.print") return;
    auto& d = ctx.report(n.span(), "R.print(...) left in the code");
    Node stmt = n.parent();
    if (stmt && stmt.kind() == NodeKind::kExpressionStatement) {
      if (auto lines = whole_lines(ctx.source(), stmt.span()))
        // Unsafe: the program no longer prints.
        d.with_fix("remove the R.print call", *lines, "", ir::FixSafety::kUnsafe);
    }
  });
}

}  // namespace

void register_syntax_rules(LintRegistry& registry) {
  registry.add({"W1009", "empty-dataflow-block", "a dataflow block that binds nothing", true,
                ir::Severity::kWarning, false, check_empty_dataflow});
  registry.add({"W1012", "print-call", "an R.print(...) call, usually left over from debugging",
                false, ir::Severity::kWarning, false, check_print});
}

}  // namespace relax::analysis::lint

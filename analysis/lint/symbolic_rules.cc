// W1007 unused-symbolic-var: `n = T.int64()` in a Relax function declares a symbolic variable
// (to be defined by a later match_cast) that nothing uses: no annotation, shape, match_cast target
// or struct info of the function mentions it. The declaration lives only in the text (the IR
// keeps variables, not declarations), so the rule reads the syntax tree and compares names with
// the symbolic variables the function's IR uses.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analysis/lint/lint.h"
#include "analysis/lint/lint_util.h"
#include "ir/tir_visitor.h"

namespace relax::analysis::lint {

namespace {

using syntax::Node;
using syntax::NodeKind;

// The names of the symbolic variables a function (its nested functions included) uses.
class SymbolicNames : public UseCounter {
 public:
  std::unordered_set<std::string> names;
  void visit_prim_expr(const ir::Ref<ir::tir::PrimExpr>& expr) override {
    if (!expr) return;
    struct Walker : ir::tir::Visitor {
      std::unordered_set<std::string>* names;
      void visit_var(const ir::Ref<ir::tir::Var>& v) override { names->insert(v->name); }
    } walker;
    walker.names = &names;
    walker.visit_expr(expr);
  }
};

struct FunctionRange {
  ir::Ref<ir::Function> func;
  uint32_t begin, end;  // the body's span
  int parent = -1;      // the innermost range holding this one (bodies nest or are apart)
};

// Sorts the ranges by start, outer ones first, and links each to the innermost one holding it.
void nest(std::vector<FunctionRange>& ranges) {
  std::stable_sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::vector<int> open;
  for (int i = 0; i < static_cast<int>(ranges.size()); ++i) {
    auto& r = ranges[static_cast<size_t>(i)];
    while (!open.empty() && ranges[static_cast<size_t>(open.back())].end <= r.begin)
      open.pop_back();
    r.parent = open.empty() ? -1 : open.back();
    open.push_back(i);
  }
}

// The innermost range holding `at`, or null: the last range starting at or before it, or the
// nearest range around that one that reaches past it.
const FunctionRange* innermost(const std::vector<FunctionRange>& ranges, uint32_t at) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), at,
                             [](uint32_t x, const FunctionRange& r) { return x < r.begin; });
  if (it == ranges.begin()) return nullptr;
  int i = static_cast<int>(it - ranges.begin()) - 1;
  while (i >= 0 && !(at < ranges[static_cast<size_t>(i)].end))
    i = ranges[static_cast<size_t>(i)].parent;
  return i >= 0 ? &ranges[static_cast<size_t>(i)] : nullptr;
}

// `T.int64()` (any T.<dtype>() without arguments): the right side of a declaration.
bool is_declaration_call(Node call) {
  if (!call || call.kind() != NodeKind::kCall) return false;
  std::string callee = callee_text(call);
  if (callee.rfind("T.int", 0) != 0 && callee.rfind("T.uint", 0) != 0) return false;
  Node args = call.field(syntax::Field::kArguments);
  return args && args.named_child_count() == 0;
}

// The name a declaration call binds: `n = T.int64()`, or the matching name of
// `m, n = T.int64(), T.int64()`.
Node declared_name(Node call) {
  Node parent = call.parent();
  if (parent && parent.kind() == NodeKind::kAssignment &&
      parent.field(syntax::Field::kRight) == call) {
    Node left = parent.field(syntax::Field::kLeft);
    return left && left.kind() == NodeKind::kIdentifier ? left : Node();
  }
  if (!parent || (parent.kind() != NodeKind::kExpressionList && parent.kind() != NodeKind::kTuple))
    return Node();
  Node assignment = parent.parent();
  if (!assignment || assignment.kind() != NodeKind::kAssignment) return Node();
  Node left = assignment.field(syntax::Field::kLeft);
  if (!left || (left.kind() != NodeKind::kPatternList && left.kind() != NodeKind::kTuple))
    return Node();
  auto values = parent.named_children();
  auto names = left.named_children();
  for (size_t i = 0; i < values.size() && i < names.size(); ++i) {
    if (values[i] == call) return names[i].kind() == NodeKind::kIdentifier ? names[i] : Node();
  }
  return Node();
}

void check_unused_symbolic(LintContext& ctx) {
  if (!ctx.tree()) return;
  std::vector<FunctionRange> ranges;
  for_each_function(ctx.module(), [&](const std::string&, const ir::Ref<ir::Function>& f, bool) {
    if (f->body && f->body->span.is_known() && f->body->span.file == ctx.tree()->file())
      ranges.push_back({f, f->body->span.begin, f->body->span.end});
  });
  if (ranges.empty()) return;
  nest(ranges);
  std::unordered_map<const ir::Function*, std::unordered_set<std::string>> used;
  auto names_of = [&](const ir::Ref<ir::Function>& f) -> const std::unordered_set<std::string>& {
    auto it = used.find(f.get());
    if (it != used.end()) return it->second;
    SymbolicNames collector;
    collector.visit(f);
    return used.emplace(f.get(), std::move(collector.names)).first->second;
  };
  auto check = [&](Node callee) {
    Node call = callee.parent();
    if (!call || !(call.field(syntax::Field::kFunction) == callee) || !is_declaration_call(call))
      return;
    Node name = declared_name(call);
    if (!name) return;
    // The innermost Relax function whose body holds the declaration (prim_funcs have none).
    const FunctionRange* owner = innermost(ranges, name.span().begin);
    if (!owner || names_of(owner->func).count(std::string(name.text()))) return;
    auto& d = ctx.report(name.span(), "the symbolic variable `" + std::string(name.text()) +
                                          "` is declared but never used");
    Node stmt = name.parent();
    if (stmt && stmt.kind() == NodeKind::kAssignment && stmt.field(syntax::Field::kLeft) == name) {
      if (auto lines = whole_lines(ctx.source(), stmt.span()))
        d.with_fix("remove the declaration", *lines, "", ir::FixSafety::kSafe);
    }
  };
  for_each_occurrence(*ctx.tree(), "T.int", check);
  for_each_occurrence(*ctx.tree(), "T.uint", check);
}

}  // namespace

void register_symbolic_rules(LintRegistry& registry) {
  registry.add({"W1007", "unused-symbolic-var",
                "a symbolic variable declared with `n = T.int64()` that the function never uses",
                true, ir::Severity::kWarning, false, check_unused_symbolic});
}

}  // namespace relax::analysis::lint

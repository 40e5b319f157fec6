#include "ide/queries.h"

#include <vector>

#include "ir/module.h"

namespace relax::ide {

const syntax::Symbol* symbol_at(const analysis::CheckResult& doc, uint32_t offset) {
  return doc.symbols ? doc.symbols->symbol_at(offset) : nullptr;
}

const syntax::Symbol* enclosing_function(const analysis::CheckResult& doc, uint32_t offset) {
  return doc.symbols ? doc.symbols->enclosing_function(offset) : nullptr;
}

namespace {

template <class U>
const U* cast(const ir::Expr* e) {
  return ir::isa<U>(e) ? static_cast<const U*>(e) : nullptr;
}

bool holds(const ir::Span& span, uint32_t file, uint32_t offset) {
  return span.is_known() && span.file == file && span.begin <= offset && offset <= span.end;
}

}  // namespace

std::optional<BindingAt> binding_at(const analysis::CheckResult& doc, uint32_t offset) {
  if (!doc.module || !doc.tree) return std::nullopt;
  uint32_t file = doc.tree->file();
  std::optional<BindingAt> best;
  // The function is found by its text (the symbol's extent: a function's own span is its name).
  const syntax::Symbol* in = enclosing_function(doc, offset);
  if (!in) return std::nullopt;
  for (const auto& member : doc.module->functions) {
    auto fn = member.func.as<ir::Function>();
    if (!fn || member.gvar->name != in->name) continue;
    // Nested functions and if/else branches hold bindings of their own: walked with an explicit
    // stack, as every walk over user input is.
    std::vector<const ir::Expr*> stack{fn.get()};
    while (!stack.empty()) {
      const ir::Expr* e = stack.back();
      stack.pop_back();
      if (auto f = cast<ir::Function>(e)) {
        if (f->body) stack.push_back(f->body.get());
      } else if (auto i = cast<ir::If>(e)) {
        if (i->true_branch) stack.push_back(i->true_branch.get());
        if (i->false_branch) stack.push_back(i->false_branch.get());
      } else if (auto seq = cast<ir::SeqExpr>(e)) {
        for (const auto& block : seq->blocks) {
          for (const auto& b : block->bindings) {
            if (!holds(b->span, file, offset)) continue;
            if (!best || b->span.size() < best->binding->span.size())
              best = BindingAt{b, member.gvar->name};
            if (b->value) stack.push_back(b->value.get());
          }
        }
      }
    }
  }
  return best;
}

std::optional<CallAt> call_at(const analysis::CheckResult& doc, uint32_t offset) {
  if (!doc.tree) return std::nullopt;
  using syntax::Field;
  using syntax::NodeKind;
  syntax::Node node = doc.tree->root().descendant_for_range(offset, offset);
  for (; node; node = node.parent()) {
    if (node.kind() != NodeKind::kCall) continue;
    syntax::Node args = node.field(Field::kArguments);
    if (args.kind() != NodeKind::kArgumentList) continue;  // a generator argument
    if (offset > args.start() && offset < args.end()) break;
  }
  if (!node) return std::nullopt;
  CallAt call;
  call.node = node;
  syntax::Node callee = node.field(Field::kFunction);
  call.callee = std::string(callee.text());
  if (doc.symbols) {
    const syntax::Symbol* s = doc.symbols->symbol_at(callee.end());
    if (s && s->kind == syntax::SymbolKind::kFunction) call.function = s;
  }
  for (syntax::Node c : node.field(Field::kArguments).children()) {
    if (!c.is_named() && c.text() == "," && c.end() <= offset) ++call.argument;
    if (c.kind() == NodeKind::kKeywordArgument && c.start() <= offset && offset <= c.end())
      call.keyword = std::string(c.field(Field::kName).text());
  }
  return call;
}

}  // namespace relax::ide

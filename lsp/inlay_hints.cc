// textDocument/inlayHint: the inferred struct info after each binding written without an
// annotation (`y = R.add(x, x)` shows `y: R.Tensor((n, 4), dtype="float32")`), and parameter
// names before the positional arguments of op calls that take two or more.
#include <tree_sitter/api.h>
#include <algorithm>
#include <cctype>

#include "analysis/ops/op_registry.h"
#include "analysis/struct_info.h"
#include "ir/expr.h"
#include "lsp/features.h"
#include "lsp/tree_walk.h"
#include "syntax/cst.h"
#include "syntax/symbol_index.h"

namespace relax::lsp {

namespace {

constexpr int kTypeHint = 1, kParameterHint = 2;
constexpr size_t kMaxHintChars = 100;

// Whether the name defined at [.., end) is a plain assignment's target (`y = ...`), which has
// no annotation (`y: R.Tensor(...) = ...` has one; tuple targets are left alone).
bool plain_assignment_target(std::string_view text, uint32_t end) {
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return end + 1 < text.size() && text[end] == '=' && text[end + 1] != '=';
}

}  // namespace

std::vector<const syntax::Symbol*> unannotated_bindings(const CheckedDocument& doc, uint32_t begin,
                                                        uint32_t end) {
  std::vector<const syntax::Symbol*> out;
  if (!doc.result.symbols) return out;
  const std::string& text = doc.result.source->text();
  for (const syntax::Symbol& s : doc.result.symbols->symbols()) {
    if (s.kind != syntax::SymbolKind::kVariable && s.kind != syntax::SymbolKind::kDataflowVariable)
      continue;
    if (!s.definition.is_known() || s.definition.end < begin || s.definition.begin > end) continue;
    if (!plain_assignment_target(text, s.definition.end)) continue;
    auto var = s.object.as<ir::Var>();
    if (var && var->struct_info) out.push_back(&s);
  }
  return out;
}

json inlay_hints(const CheckedDocument& doc, uint32_t begin, uint32_t end) {
  json out = json::array();
  for (const syntax::Symbol* s : unannotated_bindings(doc, begin, end)) {
    std::string info = analysis::struct_info_text(s->object.as<ir::Var>()->struct_info);
    if (info.size() > kMaxHintChars) info = info.substr(0, kMaxHintChars - 3) + "...";
    out.push_back({{"position", doc.map.position(s->definition.end)},
                   {"label", ": " + info},
                   {"kind", kTypeHint}});
  }
  if (doc.result.tree) {
    walk(*doc.result.tree, [&](syntax::Node n) {
      if (n.end() < begin || n.start() > end) return false;
      if (n.kind() != syntax::NodeKind::kCall) return true;
      syntax::Node callee = n.field(syntax::Field::kFunction);
      std::string_view name = callee ? callee.text() : "";
      if (name.substr(0, 2) != "R.") return true;
      const analysis::OpInfo* op =
          analysis::OpRegistry::global().find("relax." + std::string(name.substr(2)));
      syntax::Node args = n.field(syntax::Field::kArguments);
      if (!op || op->args.size() < 2 || !args || args.kind() != syntax::NodeKind::kArgumentList)
        return true;
      size_t i = 0;
      for (syntax::Node a : args.named_children()) {
        if (a.kind() == syntax::NodeKind::kKeywordArgument ||
            a.kind() == syntax::NodeKind::kComment)
          continue;
        if (i >= op->args.size() || op->args[i].variadic) break;
        const std::string& pname = op->args[i++].name;
        if (a.text() == pname) continue;
        out.push_back({{"position", doc.map.position(a.start())},
                       {"label", pname + ":"},
                       {"kind", kParameterHint},
                       {"paddingRight", true}});
      }
      return true;
    });
  }
  // In document order, as clients expect.
  std::sort(out.begin(), out.end(), [](const json& a, const json& b) {
    return std::make_pair(a["position"]["line"].get<uint32_t>(),
                          a["position"]["character"].get<uint32_t>()) <
           std::make_pair(b["position"]["line"].get<uint32_t>(),
                          b["position"]["character"].get<uint32_t>());
  });
  return out;
}

json selection_ranges(const CheckedDocument& doc, const std::vector<uint32_t>& offsets) {
  json out = json::array();
  for (uint32_t offset : offsets) {
    std::vector<std::pair<uint32_t, uint32_t>> chain;
    if (doc.result.tree) {
      for (syntax::Node n = doc.result.tree->root().descendant_for_range(offset, offset); n;
           n = n.parent()) {
        std::pair<uint32_t, uint32_t> r{n.start(), n.end()};
        if (chain.empty() || chain.back() != r) chain.push_back(r);
      }
    }
    if (chain.empty()) chain.push_back({offset, offset});
    json range = nullptr;
    for (size_t i = chain.size(); i-- > 0;) {
      json next = {{"range", doc.map.range(chain[i].first, chain[i].second)}};
      if (!range.is_null()) next["parent"] = std::move(range);
      range = std::move(next);
    }
    out.push_back(std::move(range));
  }
  return out;
}

}  // namespace relax::lsp

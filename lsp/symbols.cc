// The outline (documentSymbol) and folding ranges. The outline comes from the symbol index, so
// a function that failed to build keeps its place; dataflow blocks and folds from the syntax
// tree, walked with a cursor (no recursion over user input).
#include <tree_sitter/api.h>

#include <algorithm>

#include "lsp/features.h"
#include "lsp/tree_walk.h"
#include "syntax/cst.h"
#include "syntax/symbol_index.h"

namespace relax::lsp {

namespace {

constexpr int kModuleKind = 2, kNamespaceKind = 3, kFunctionKind = 12;

// `with R.dataflow():` blocks inside [begin, end).
json dataflow_blocks(const CheckedDocument& doc, uint32_t begin, uint32_t end) {
  json out = json::array();
  if (!doc.result.tree) return out;
  walk(*doc.result.tree, [&](syntax::Node n) {
    if (n.end() <= begin || n.start() >= end) return false;
    if (n.kind() != syntax::NodeKind::kWithStatement) return true;
    std::string_view text = n.text();
    size_t colon = text.find(':');
    std::string_view head = text.substr(0, colon);
    if (head.find("R.dataflow") != std::string_view::npos) {
      uint32_t head_end = n.start() + static_cast<uint32_t>(head.size());
      out.push_back({{"name", "dataflow"},
                     {"kind", kNamespaceKind},
                     {"range", doc.map.range(n.start(), n.end())},
                     {"selectionRange", doc.map.range(n.start(), head_end)}});
    }
    return true;
  });
  return out;
}

json function_symbol(const CheckedDocument& doc, const syntax::Symbol& f) {
  ir::Span extent = f.extent.is_known() ? f.extent : f.definition;
  ir::Span name = f.definition.is_known() ? f.definition : extent;
  json out = {{"name", f.name},
              {"kind", kFunctionKind},
              {"range", doc.map.range(extent)},
              {"selectionRange", doc.map.range(name)}};
  json children = dataflow_blocks(doc, extent.begin, extent.end);
  if (!children.empty()) out["children"] = children;
  return out;
}

}  // namespace

json document_symbols(const CheckedDocument& doc) {
  json out = json::array();
  if (!doc.result.symbols) return out;
  const syntax::Symbol* module = nullptr;
  for (const syntax::Symbol& s : doc.result.symbols->symbols())
    if (s.kind == syntax::SymbolKind::kModule && s.extent.is_known()) module = &s;
  json functions = json::array();
  for (const syntax::Symbol* f : doc.result.symbols->functions()) {
    if (!f->extent.is_known() && !f->definition.is_known()) continue;
    functions.push_back(function_symbol(doc, *f));
  }
  if (!module) return functions;
  ir::Span name = module->definition.is_known() ? module->definition : module->extent;
  out.push_back({{"name", module->name},
                 {"kind", kModuleKind},
                 {"range", doc.map.range(module->extent)},
                 {"selectionRange", doc.map.range(name)},
                 {"children", functions}});
  return out;
}

json folding_ranges(const CheckedDocument& doc) {
  json out = json::array();
  if (!doc.result.tree) return out;
  const ir::SourceFile& file = *doc.result.source;
  auto line = [&](uint32_t offset) { return file.position(offset).line; };
  // The line a node ends on (a block's end after its last newline belongs to the line before).
  auto end_line = [&](syntax::Node n) {
    uint32_t e = n.end();
    while (e > n.start() && (file.text()[e - 1] == '\n' || file.text()[e - 1] == '\r')) --e;
    return line(e);
  };
  int64_t comment_start = -1, comment_end = -1;
  auto flush_comments = [&] {
    if (comment_start >= 0 && comment_end > comment_start)
      out.push_back({{"startLine", comment_start}, {"endLine", comment_end}, {"kind", "comment"}});
    comment_start = comment_end = -1;
  };
  walk(*doc.result.tree, [&](syntax::Node n) {
    switch (n.kind()) {
      case syntax::NodeKind::kComment: {
        int64_t l = line(n.start());
        if (comment_end >= 0 && l == comment_end + 1) {
          comment_end = l;
        } else {
          flush_comments();
          comment_start = comment_end = l;
        }
        return false;
      }
      case syntax::NodeKind::kFunctionDefinition:
      case syntax::NodeKind::kClassDefinition:
      case syntax::NodeKind::kWithStatement:
      case syntax::NodeKind::kForStatement:
      case syntax::NodeKind::kWhileStatement:
      case syntax::NodeKind::kIfStatement:
      case syntax::NodeKind::kElseClause:
      case syntax::NodeKind::kElifClause:
      case syntax::NodeKind::kArgumentList:
      case syntax::NodeKind::kList:
      case syntax::NodeKind::kTuple:
      case syntax::NodeKind::kDictionary: {
        uint32_t first = line(n.start()), last = end_line(n);
        if (last > first)
          out.push_back({{"startLine", first}, {"endLine", last}, {"kind", "region"}});
        return true;
      }
      default:
        return true;
    }
  });
  flush_comments();
  return out;
}

}  // namespace relax::lsp

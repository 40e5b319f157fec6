// Semantic tokens: what the symbol index knows about each name (function, parameter, variable,
// symbolic variable, buffer, loop variable; its definition marked `declaration`), plus the
// dialect namespaces and the ops and builtins spelt `R.add`, `T.grid` (`defaultLibrary`).
// Encoded as the protocol says: five integers per token, relative to the previous one.
#include <tree_sitter/api.h>
#include <algorithm>

#include "lsp/features.h"
#include "lsp/tree_walk.h"
#include "syntax/cst.h"
#include "syntax/symbol_index.h"

namespace relax::lsp {

namespace {

enum TokenType : uint32_t {
  kNamespace,
  kClass,
  kFunction,
  kParameter,
  kVariable,
  kTypeParameter,
  kProperty,
  kDecorator,
};
enum TokenModifier : uint32_t { kDeclaration = 1, kReadonly = 2, kDefaultLibrary = 4 };

struct Token {
  uint32_t begin, end, type, modifiers;
};

uint32_t type_of(syntax::SymbolKind kind) {
  switch (kind) {
    case syntax::SymbolKind::kModule:
      return kClass;
    case syntax::SymbolKind::kFunction:
      return kFunction;
    case syntax::SymbolKind::kParameter:
    case syntax::SymbolKind::kTirParameter:
      return kParameter;
    case syntax::SymbolKind::kSymbolicVar:
      return kTypeParameter;
    default:
      return kVariable;
  }
}

std::vector<Token> collect(const CheckedDocument& doc) {
  std::vector<Token> tokens;
  if (doc.result.symbols) {
    for (const syntax::Occurrence& o : doc.result.symbols->occurrences()) {
      const syntax::Symbol& s = doc.result.symbols->symbols()[o.symbol];
      if (!o.span.is_known() || o.span.size() == 0) continue;
      uint32_t mods = o.is_definition ? uint32_t{kDeclaration} : 0u;
      if (s.kind == syntax::SymbolKind::kDataflowVariable) mods |= kReadonly;
      tokens.push_back({o.span.begin, o.span.end, type_of(s.kind), mods});
    }
  }
  if (doc.result.tree) {
    // `R.nn.conv2d`: `R` a namespace, `nn` a namespace, `conv2d` a library function; the last
    // part of a decorator (`@R.function`) a decorator. Decorators are found from above, so that
    // no node asks for its parent (a walk from the root in tree-sitter).
    auto dotted = [&](syntax::Node n, bool decorator) {
      syntax::Node root = n;
      std::vector<syntax::Node> parts;
      while (root.kind() == syntax::NodeKind::kAttribute) {
        parts.push_back(root.field(syntax::Field::kAttribute));
        root = root.field(syntax::Field::kObject);
      }
      std::string_view head = root.text();
      if (!(head == "R" || head == "T" || head == "I" || head == "relax" || head == "tir"))
        return false;
      tokens.push_back({root.start(), root.end(), kNamespace, kDefaultLibrary});
      for (size_t i = parts.size(); i-- > 0;) {
        if (!parts[i]) continue;
        uint32_t type = i != 0 ? kNamespace : decorator ? kDecorator : kFunction;
        tokens.push_back({parts[i].start(), parts[i].end(), type, kDefaultLibrary});
      }
      return true;
    };
    walk(*doc.result.tree, [&](syntax::Node n) {
      syntax::NodeKind kind = n.kind();
      if (kind == syntax::NodeKind::kDecorator) {
        for (syntax::Node child : n.named_children())
          if (child.kind() == syntax::NodeKind::kAttribute && dotted(child, true)) return false;
        return true;
      }
      // Strings and comments hold no names (a shape string's names are occurrences already).
      if (kind == syntax::NodeKind::kString || kind == syntax::NodeKind::kComment) return false;
      if (kind != syntax::NodeKind::kAttribute) return true;
      // An attribute of another head (`x.shape`) may hold dotted names inside (`f(R.add).x`).
      return !dotted(n, false);
    });
  }
  std::sort(tokens.begin(), tokens.end(), [](const Token& a, const Token& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  // No overlaps: an occurrence inside an earlier token's range is dropped.
  std::vector<Token> out;
  for (const Token& t : tokens)
    if (out.empty() || t.begin >= out.back().end) out.push_back(t);
  return out;
}

}  // namespace

json semantic_tokens_legend() {
  return {{"tokenTypes",
           {"namespace", "class", "function", "parameter", "variable", "typeParameter", "property",
            "decorator"}},
          {"tokenModifiers", {"declaration", "readonly", "defaultLibrary"}}};
}

std::vector<uint32_t> semantic_tokens(const CheckedDocument& doc, uint32_t begin, uint32_t end) {
  std::vector<uint32_t> data;
  const ir::SourceFile& file = *doc.result.source;
  const ir::LineIndex& lines = file.lines();
  const std::string& text = file.text();
  // The tokens come in text order: the line is found by walking forward, and on a line of ASCII
  // text a column is a byte difference in every encoding (only other lines ask the index).
  uint32_t line = 0, line_begin = 0, next_line = lines.line_start(1);
  bool ascii = true;
  auto enter_line = [&](uint32_t l) {
    line = l;
    line_begin = lines.line_start(l);
    next_line = l + 1 < lines.line_count() ? lines.line_start(l + 1)
                                           : static_cast<uint32_t>(text.size()) + 1;
    uint32_t stop = std::min<uint32_t>(next_line, static_cast<uint32_t>(text.size()));
    ascii = std::all_of(text.begin() + line_begin, text.begin() + stop,
                        [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  };
  enter_line(0);
  uint32_t prev_line = 0, prev_col = 0;
  for (const Token& t : collect(doc)) {
    if (t.end <= begin || t.begin >= end) continue;
    if (t.begin >= next_line) enter_line(lines.position(t.begin).line);
    if (t.end >= next_line) continue;  // tokens are single-line
    uint32_t col, width;
    if (ascii) {
      col = t.begin - line_begin;
      width = t.end - t.begin;
    } else {
      ir::Position a = lines.position(t.begin, doc.map.encoding());
      ir::Position b = lines.position(t.end, doc.map.encoding());
      if (b.line != a.line) continue;
      col = a.column;
      width = b.column - a.column;
    }
    data.push_back(line - prev_line);
    data.push_back(line == prev_line ? col - prev_col : col);
    data.push_back(width);
    data.push_back(t.type);
    data.push_back(t.modifiers);
    prev_line = line;
    prev_col = col;
  }
  return data;
}

json semantic_tokens_delta(const std::vector<uint32_t>& before,
                           const std::vector<uint32_t>& after) {
  size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix])
    ++prefix;
  size_t suffix = 0;
  while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  json edits = json::array();
  if (prefix == before.size() && prefix == after.size()) return edits;
  json data(std::vector<uint32_t>(after.begin() + prefix, after.end() - suffix));
  edits.push_back(
      {{"start", prefix}, {"deleteCount", before.size() - prefix - suffix}, {"data", data}});
  return edits;
}

}  // namespace relax::lsp

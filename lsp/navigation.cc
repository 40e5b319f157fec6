// Definition, references, document highlights and rename, all read from the front end's symbol
// index (so they scope names exactly as the front end does).
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "lsp/features.h"
#include "syntax/symbol_index.h"

namespace relax::lsp {

namespace {

struct At {
  const syntax::Symbol* symbol = nullptr;
  const syntax::Occurrence* occurrence = nullptr;
};

At at(const CheckedDocument& doc, uint32_t offset) {
  At out;
  if (!doc.result.symbols) return out;
  out.occurrence = doc.result.symbols->occurrence_at(offset);
  if (out.occurrence) out.symbol = &doc.result.symbols->symbols()[out.occurrence->symbol];
  return out;
}

json location(const CheckedDocument& doc, ir::Span span) {
  return {{"uri", doc.uri}, {"range", doc.map.range(span)}};
}

// Definition first when asked for, then the uses, in text order, each once.
std::vector<ir::Span> spans_of(const syntax::Symbol& s, bool with_definition) {
  std::vector<ir::Span> out;
  if (with_definition && s.definition.is_known()) out.push_back(s.definition);
  for (const ir::Span& u : s.uses)
    if (u.is_known() && std::find(out.begin(), out.end(), u) == out.end()) out.push_back(u);
  return out;
}

bool is_identifier(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  static constexpr std::array<std::string_view, 38> kReserved = {
      "False",   "None",     "True",     "and",    "as",   "assert", "async",  "await",
      "break",   "class",    "continue", "def",    "del",  "elif",   "else",   "except",
      "finally", "for",      "from",     "global", "if",   "import", "in",     "is",
      "lambda",  "nonlocal", "not",      "or",     "pass", "raise",  "return", "try",
      "while",   "with",     "yield",    "R",      "T",    "I"};
  return std::find(kReserved.begin(), kReserved.end(), name) == kReserved.end();
}

bool renamable(const syntax::Symbol& s) {
  return s.kind != syntax::SymbolKind::kModule && s.definition.is_known();
}

}  // namespace

json definition(const CheckedDocument& doc, uint32_t offset) {
  json out = json::array();
  At a = at(doc, offset);
  if (a.symbol && a.symbol->definition.is_known())
    out.push_back(location(doc, a.symbol->definition));
  return out;
}

json references(const CheckedDocument& doc, uint32_t offset, bool include_declaration) {
  json out = json::array();
  At a = at(doc, offset);
  if (!a.symbol) return out;
  for (const ir::Span& s : spans_of(*a.symbol, include_declaration))
    out.push_back(location(doc, s));
  return out;
}

json document_highlight(const CheckedDocument& doc, uint32_t offset) {
  json out = json::array();
  At a = at(doc, offset);
  if (!a.symbol) return out;
  constexpr int kRead = 2, kWrite = 3;
  for (const ir::Span& s : spans_of(*a.symbol, true))
    out.push_back(
        {{"range", doc.map.range(s)}, {"kind", s == a.symbol->definition ? kWrite : kRead}});
  return out;
}

json prepare_rename(const CheckedDocument& doc, uint32_t offset) {
  At a = at(doc, offset);
  if (!a.symbol || !renamable(*a.symbol)) return nullptr;
  return {{"range", doc.map.range(a.occurrence->span)}, {"placeholder", a.symbol->name}};
}

json rename(const CheckedDocument& doc, uint32_t offset, const std::string& new_name) {
  At a = at(doc, offset);
  if (!a.symbol || !renamable(*a.symbol))
    throw RequestError(kRequestFailed, "there is no symbol to rename here");
  if (!is_identifier(new_name))
    throw RequestError(kRequestFailed, "'" + new_name + "' is not a valid name");
  const syntax::Symbol& s = *a.symbol;
  bool module_level = s.kind == syntax::SymbolKind::kFunction;
  for (const syntax::Symbol& other : doc.result.symbols->symbols()) {
    if (&other == &s || other.name != new_name) continue;
    // Functions share the module's scope; the rest clash with any name of their function.
    bool clash =
        module_level ? other.kind == syntax::SymbolKind::kFunction : other.function == s.function;
    if (clash)
      throw RequestError(kRequestFailed,
                         "'" + new_name + "' is already the name of a " +
                             std::string(syntax::symbol_kind_name(other.kind)) +
                             (other.function.empty() ? "" : " in '" + other.function + "'"));
  }
  json edits = json::array();
  const std::string& text = doc.result.source->text();
  for (const ir::Span& span : spans_of(s, true)) {
    // Every occurrence spells the old name (a shape string's dimension included); anything else
    // would be an index bug, and editing it would break the file.
    if (span.end > text.size() || std::string_view(text).substr(span.begin, span.size()) != s.name)
      throw RequestError(kRequestFailed,
                         "cannot rename '" + s.name + "': an occurrence is not spelt as its name");
    edits.push_back({{"range", doc.map.range(span)}, {"newText", new_name}});
  }
  return {{"changes", {{doc.uri, edits}}}};
}

}  // namespace relax::lsp

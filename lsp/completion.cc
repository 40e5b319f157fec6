// textDocument/completion: ops and builtins after `R.`, `R.nn.`, `T.`, `I.` (with signature
// snippets and docs), module functions after `cls.` or the module's name, dtypes inside a
// string, the keyword arguments of the op being called, and the names in scope at the cursor
// (variables, parameters, symbolic variables, functions).
#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "analysis/ops/op_registry.h"
#include "ide/queries.h"
#include "lsp/features.h"
#include "syntax/builtin_catalog.h"
#include "syntax/frontend.h"
#include "syntax/symbol_index.h"

namespace relax::lsp {

namespace {

// CompletionItemKind.
constexpr int kFunctionItem = 3, kFieldItem = 5, kVariableItem = 6, kClassItem = 7, kModuleItem = 9,
              kPropertyItem = 10, kKeywordItem = 14, kValueItem = 12, kTypeParameterItem = 25;

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The dotted name that ends at `offset` ("R.nn.con", "cls.", "x").
std::string dotted_prefix(std::string_view text, uint32_t offset) {
  uint32_t begin = offset;
  while (begin > 0 && (is_name_char(text[begin - 1]) || text[begin - 1] == '.')) --begin;
  return std::string(text.substr(begin, offset - begin));
}

// The op's positional parameters as a snippet: `add(${1:x1}, ${2:x2})`.
std::string op_snippet(const std::string& leaf, const analysis::OpInfo& op) {
  std::string out = leaf + "(";
  int n = 0;
  for (const analysis::ArgSpec& a : op.args) {
    if (a.optional || a.variadic) break;
    out += (n ? ", " : "") + std::string("${") + std::to_string(n + 1) + ":" + a.name + "}";
    ++n;
  }
  for (const analysis::AttrSpec& a : op.attrs) {
    if (!a.required) continue;
    out += (n ? ", " : "") + a.name + "=${" + std::to_string(n + 1) + "}";
    ++n;
  }
  return out + ")$0";
}

// Hidden spellings: operator sugar and method hooks the front end registers for itself.
bool internal_builtin(std::string_view name) {
  return name.find("__") != std::string_view::npos ||
         name.find(".operator.") != std::string_view::npos ||
         name.find(".Expr.") != std::string_view::npos || name.rfind("metadata", 0) == 0;
}

class Items {
 public:
  Items(std::string partial, bool snippets) : partial_(std::move(partial)), snippets_(snippets) {}
  void add(const std::string& label, int kind, const std::string& detail = "",
           const std::string& doc = "", const std::string& snippet = "") {
    if (label.rfind(partial_, 0) != 0 || !seen_.insert(label).second) return;
    json item = {{"label", label}, {"kind", kind}};
    if (!detail.empty()) item["detail"] = detail;
    if (!doc.empty()) item["documentation"] = {{"kind", "markdown"}, {"value", doc}};
    if (snippets_ && !snippet.empty()) {
      item["insertText"] = snippet;
      item["insertTextFormat"] = 2;
    }
    items_.push_back(std::move(item));
  }
  json done() { return {{"isIncomplete", false}, {"items", std::move(items_)}}; }

 private:
  std::string partial_;
  bool snippets_;
  std::set<std::string> seen_;
  json items_ = json::array();
};

void add_namespace_members(Items& items, const std::string& qualifier, bool snippets) {
  std::string root = qualifier.substr(0, qualifier.find('.'));
  std::string canonical = root == "relax" ? "R" : root == "tir" ? "T" : root == "ir" ? "I" : root;
  std::string rest = qualifier.substr(root.size());  // "" or ".nn"
  std::string want = canonical + rest + ".";
  if (canonical == "R") {
    for (const analysis::OpInfo* op : analysis::OpRegistry::global().all()) {
      if (op->name.rfind("relax.", 0) != 0) continue;
      std::string spelled = "R." + op->name.substr(6);
      if (spelled.rfind(want, 0) != 0) continue;
      std::string tail = spelled.substr(want.size());
      size_t dot = tail.find('.');
      if (dot != std::string::npos) {
        items.add(tail.substr(0, dot), kModuleItem, "namespace " + want + tail.substr(0, dot));
      } else {
        items.add(tail, kFunctionItem, op->signature, op->doc,
                  snippets ? op_snippet(tail, *op) : "");
      }
    }
  }
  for (const std::string& name : syntax::builtin_names()) {
    if (name.rfind(want, 0) != 0 || internal_builtin(name)) continue;
    std::string tail = name.substr(want.size());
    size_t dot = tail.find('.');
    if (dot != std::string::npos)
      items.add(tail.substr(0, dot), kModuleItem, "namespace " + want + tail.substr(0, dot));
    else if (const syntax::BuiltinInfo* b = syntax::find_builtin(name))
      items.add(tail,
                std::isupper(static_cast<unsigned char>(tail[0])) ? kClassItem : kFunctionItem,
                std::string(b->signature), std::string(b->doc));
    else
      items.add(tail,
                std::isupper(static_cast<unsigned char>(tail[0])) ? kClassItem : kFunctionItem,
                name);
  }
}

void add_names_in_scope(Items& items, const CheckedDocument& doc, uint32_t offset) {
  if (!doc.result.symbols) return;
  const syntax::Symbol* fn = doc.result.symbols->enclosing_function(offset);
  for (const syntax::Symbol& s : doc.result.symbols->symbols()) {
    switch (s.kind) {
      case syntax::SymbolKind::kFunction:
        items.add(s.name, kFunctionItem, "function");
        break;
      case syntax::SymbolKind::kModule:
        items.add(s.name, kClassItem, "module");
        break;
      default:
        // Locals of the function at the cursor, defined before it.
        if (!fn || s.function != fn->name || !s.definition.is_known() ||
            s.definition.begin >= offset)
          break;
        items.add(s.name,
                  s.kind == syntax::SymbolKind::kSymbolicVar ? kTypeParameterItem : kVariableItem,
                  std::string(syntax::symbol_kind_name(s.kind)));
    }
  }
  for (const char* ns : {"R", "T", "I"}) items.add(ns, kModuleItem, "namespace");
  for (const char* kw :
       {"return", "with", "if", "else", "for", "in", "def", "class", "None", "True", "False"})
    items.add(kw, kKeywordItem);
}

void add_keywords_of_call(Items& items, const CheckedDocument& doc, uint32_t offset) {
  auto call = ide::call_at(doc.result, offset);
  if (!call || call->callee.rfind("R.", 0) != 0) return;
  const analysis::OpInfo* op =
      analysis::OpRegistry::global().find("relax." + call->callee.substr(2));
  if (!op) return;
  for (const analysis::AttrSpec& a : op->attrs)
    items.add(a.name + "=", kFieldItem, "keyword argument", a.doc);
  for (const analysis::ArgSpec& a : op->args)
    items.add(a.name + "=", kPropertyItem, "argument", a.doc);
}

bool in_string(const CheckedDocument& doc, uint32_t offset) {
  if (!doc.result.tree || offset == 0) return false;
  syntax::Node n = doc.result.tree->root().descendant_for_range(offset - 1, offset - 1);
  for (; n; n = n.parent())
    if (n.kind() == syntax::NodeKind::kString) return offset > n.start() && offset < n.end();
  return false;
}

}  // namespace

json completion(const CheckedDocument& doc, uint32_t offset, bool snippets) {
  const std::string& text = doc.result.source->text();
  offset = std::min<uint32_t>(offset, text.size());
  std::string prefix = dotted_prefix(text, offset);
  size_t dot = prefix.rfind('.');
  std::string partial = dot == std::string::npos ? prefix : prefix.substr(dot + 1);
  Items items(partial, snippets);
  if (in_string(doc, offset)) {
    for (const char* dtype :
         {"float32", "float16", "bfloat16", "float64", "int64", "int32", "int16", "int8", "uint8",
          "uint16", "uint32", "uint64", "bool", "float8_e4m3fn", "float8_e5m2"})
      items.add(dtype, kValueItem, "dtype");
    return items.done();
  }
  if (dot != std::string::npos) {
    std::string qualifier = prefix.substr(0, dot);
    const syntax::Symbol* module = nullptr;
    if (doc.result.symbols)
      for (const syntax::Symbol& s : doc.result.symbols->symbols())
        if (s.kind == syntax::SymbolKind::kModule && s.name == qualifier) module = &s;
    if (qualifier == "cls" || module) {
      if (doc.result.symbols)
        for (const syntax::Symbol* f : doc.result.symbols->functions())
          items.add(f->name, kFunctionItem, "function");
    } else {
      add_namespace_members(items, qualifier, snippets);
    }
    return items.done();
  }
  add_keywords_of_call(items, doc, offset);
  add_names_in_scope(items, doc, offset);
  return items.done();
}

}  // namespace relax::lsp

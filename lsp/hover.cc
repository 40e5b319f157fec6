// textDocument/hover: what the name under the cursor is, from the checked module. A variable or
// parameter shows its inferred struct info and where each symbolic variable in it is bound; a
// function its signature; a symbolic variable where it is bound; a TIR buffer its shape, dtype
// and scope; an op (`R.nn.conv2d`) its signature, attributes and doc; a code in a `# noqa`
// comment its documentation.
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/arith/expr_text.h"
#include "analysis/diagnostics/catalog.h"
#include "analysis/ops/op_registry.h"
#include "analysis/struct_info.h"
#include "ide/queries.h"
#include "ir/expr.h"
#include "ir/module.h"
#include "ir/tir.h"
#include "lsp/features.h"
#include "syntax/builtin_catalog.h"

namespace relax::lsp {

namespace {

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The identifier-like word of `text` around `offset` (a cursor just after a word is on it).
std::pair<uint32_t, uint32_t> word_at(std::string_view text, uint32_t offset) {
  uint32_t begin = std::min<uint32_t>(offset, text.size()), end = begin;
  while (begin > 0 && is_word(text[begin - 1])) --begin;
  while (end < text.size() && is_word(text[end])) ++end;
  return {begin, end};
}

std::string code_block(const std::string& text) {
  return "```python\n" + text + "\n```";
}

json markdown(const std::string& value, const PositionMap& map, uint32_t begin, uint32_t end) {
  return {{"contents", {{"kind", "markdown"}, {"value", value}}}, {"range", map.range(begin, end)}};
}

std::string sinfo_text(const ir::Ref<ir::StructInfo>& s) {
  return s ? analysis::struct_info_text(s) : "R.Object";
}

std::string line_of(const CheckedDocument& doc, ir::Span span) {
  return std::to_string(doc.result.source->position(span.begin).line + 1);
}

// The symbolic variables of `fn` whose names appear as words in `text`, with where each is bound.
std::string symbolic_notes(const CheckedDocument& doc, const std::string& fn,
                           const std::string& text) {
  std::string out;
  if (!doc.result.symbols) return out;
  for (const syntax::Symbol& s : doc.result.symbols->symbols()) {
    if (s.kind != syntax::SymbolKind::kSymbolicVar || s.function != fn || !s.definition.is_known())
      continue;
    for (size_t at = text.find(s.name); at != std::string::npos; at = text.find(s.name, at + 1)) {
      bool starts = at == 0 || !is_word(text[at - 1]);
      bool ends = at + s.name.size() >= text.size() || !is_word(text[at + s.name.size()]);
      if (!starts || !ends) continue;
      out += "\n- `" + s.name + "` is bound on line " + line_of(doc, s.definition);
      break;
    }
  }
  return out;
}

std::string function_signature(const ir::IRModule::Member& member) {
  if (auto fn = member.func.as<ir::Function>()) {
    std::string out = "def " + member.gvar->name + "(";
    for (size_t i = 0; i < fn->params.size(); ++i) {
      if (i) out += ", ";
      out += fn->params[i]->name + ": " + sinfo_text(fn->params[i]->struct_info);
    }
    out += ")";
    if (fn->ret_struct_info) out += " -> " + sinfo_text(fn->ret_struct_info);
    return "@R.function\n" + out;
  }
  if (auto pf = member.func.as<ir::tir::PrimFunc>()) {
    std::string out = "def " + member.gvar->name + "(";
    for (size_t i = 0; i < pf->params.size(); ++i) {
      if (i) out += ", ";
      const auto& p = pf->params[i];
      out += p->name + ": ";
      if (auto buf = pf->buffer_of(p)) {
        std::string shape;
        for (size_t d = 0; d < buf->shape.size(); ++d)
          shape += (d ? ", " : "") + analysis::arith::expr_text(buf->shape[d]);
        if (buf->shape.size() == 1) shape += ",";
        out += "T.Buffer((" + shape + "), \"" + buf->dtype.str() + "\")";
      } else {
        out += "T." + p->dtype.str();
      }
    }
    return "@T.prim_func\n" + out + ")";
  }
  return "def " + member.gvar->name;
}

std::string buffer_text(const ir::tir::Buffer& buf) {
  std::string shape;
  for (size_t d = 0; d < buf.shape.size(); ++d)
    shape += (d ? ", " : "") + analysis::arith::expr_text(buf.shape[d]);
  if (buf.shape.size() == 1) shape += ",";
  return buf.name + ": T.Buffer((" + shape + "), \"" + buf.dtype.str() + "\", scope=\"" +
         buf.scope() + "\")";
}

json hover_symbol(const CheckedDocument& doc, const syntax::Symbol& s,
                  const syntax::Occurrence& at) {
  std::string kind(syntax::symbol_kind_name(s.kind));
  std::string text;
  std::string notes;
  switch (s.kind) {
    case syntax::SymbolKind::kFunction: {
      const ir::IRModule::Member* member =
          doc.result.module ? doc.result.module->functions.find(s.name) : nullptr;
      text = member ? function_signature(*member) : "def " + s.name;
      break;
    }
    case syntax::SymbolKind::kParameter:
    case syntax::SymbolKind::kVariable:
    case syntax::SymbolKind::kDataflowVariable: {
      auto var = s.object.as<ir::Var>();
      std::string info = var ? sinfo_text(var->struct_info) : "R.Object";
      text = s.name + ": " + info;
      notes = symbolic_notes(doc, s.function, info);
      break;
    }
    case syntax::SymbolKind::kBuffer: {
      auto buf = s.object.as<ir::tir::Buffer>();
      text = buf ? buffer_text(*buf) : s.name;
      break;
    }
    case syntax::SymbolKind::kSymbolicVar:
    case syntax::SymbolKind::kTirParameter:
    case syntax::SymbolKind::kLoopVar:
    case syntax::SymbolKind::kBlockVar:
    case syntax::SymbolKind::kTirVar: {
      auto var = s.object.as<ir::tir::Var>();
      text = s.name + ": T." + (var ? var->dtype.str() : std::string("int64"));
      break;
    }
    case syntax::SymbolKind::kModule:
      text = "class " + s.name;
      break;
  }
  std::string value = code_block(text) + "\n\n" + kind;
  if (s.definition.is_known() && s.kind != syntax::SymbolKind::kFunction)
    value += ", defined on line " + line_of(doc, s.definition);
  if (!s.function.empty()) value += " in `" + s.function + "`";
  if (!notes.empty()) value += "\n" + notes;
  return markdown(value, doc.map, at.span.begin, at.span.end);
}

// A code (`W1001`) under the cursor in a `# noqa` comment.
json hover_noqa(const CheckedDocument& doc, uint32_t offset) {
  const std::string& text = doc.result.source->text();
  ir::Position p = doc.result.source->position(offset);
  std::string_view line = doc.result.source->line_text(p.line);
  uint32_t line_start = doc.result.source->lines().line_start(p.line);
  size_t hash = line.find('#');
  if (hash == std::string_view::npos || line.find("noqa", hash) == std::string_view::npos)
    return nullptr;
  if (offset < line_start + hash) return nullptr;
  auto [begin, end] = word_at(text, offset);
  std::string_view word(text.data() + begin, end - begin);
  if (!analysis::is_diagnostic_code(word)) return nullptr;
  const analysis::CodeDoc* code = analysis::find_code_doc(word);
  if (!code) return nullptr;
  return markdown(code->text, doc.map, begin, end);
}

// An op or a builtin under the cursor: a dotted name such as `R.nn.conv2d(...)`, `T.grid`,
// `R.Tensor`.
json hover_op(const CheckedDocument& doc, uint32_t offset) {
  if (!doc.result.tree) return nullptr;
  syntax::Node node = doc.result.tree->root().descendant_for_range(offset, offset);
  // Climb to the whole dotted name (`R.nn.conv2d`).
  while (node && node.parent() && node.parent().kind() == syntax::NodeKind::kAttribute)
    node = node.parent();
  if (!node || node.kind() != syntax::NodeKind::kAttribute) return nullptr;
  std::string name(node.text());
  // The dialects' long names spell the same builtins.
  for (auto [long_name, short_name] : {std::pair{"relax.", "R."}, {"tir.", "T."}, {"ir.", "I."}})
    if (name.rfind(long_name, 0) == 0) name = short_name + name.substr(std::strlen(long_name));
  const analysis::OpInfo* op = name.rfind("R.", 0) == 0
                                   ? analysis::OpRegistry::global().find("relax." + name.substr(2))
                                   : nullptr;
  if (!op) {
    const syntax::BuiltinInfo* builtin = syntax::find_builtin(name);
    if (!builtin) return nullptr;
    return markdown(
        code_block(std::string(builtin->signature)) + "\n\n" + std::string(builtin->doc), doc.map,
        node.start(), node.end());
  }
  std::string value = code_block(op->signature) + "\n\n" + op->doc;
  if (!op->attrs.empty()) {
    value += "\n\nAttributes:";
    for (const analysis::AttrSpec& a : op->attrs) {
      value += "\n- `" + a.name + "`";
      if (a.required) value += " (required)";
      if (!a.doc.empty()) value += ": " + a.doc;
    }
  }
  return markdown(value, doc.map, node.start(), node.end());
}

}  // namespace

json hover(const CheckedDocument& doc, uint32_t offset) {
  if (json noqa = hover_noqa(doc, offset); !noqa.is_null()) return noqa;
  if (doc.result.symbols) {
    if (const syntax::Occurrence* at = doc.result.symbols->occurrence_at(offset))
      return hover_symbol(doc, doc.result.symbols->symbols()[at->symbol], *at);
  }
  return hover_op(doc, offset);
}

}  // namespace relax::lsp

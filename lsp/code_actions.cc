// textDocument/codeAction: the fixes diagnostics carry (quick fixes; the safe ones preferred),
// `source.fixAll` (what `relax check --fix` applies, round after round), and "add the inferred
// annotation" on a binding written without one.
#include "analysis/fix.h"
#include "analysis/struct_info.h"
#include "ide/document.h"
#include "ir/expr.h"
#include "lsp/features.h"
#include "syntax/symbol_index.h"

namespace relax::lsp {

namespace {

bool wants(const json& only, std::string_view kind) {
  if (only.is_null()) return true;
  for (const json& k : only) {
    if (!k.is_string()) continue;
    std::string want = k;
    // "source" asks for "source.fixAll"; "quickfix" for "quickfix".
    if (kind == want || (kind.size() > want.size() && kind.substr(0, want.size()) == want &&
                         kind[want.size()] == '.'))
      return true;
  }
  return false;
}

json workspace_edit(const CheckedDocument& doc, uint32_t begin, uint32_t end,
                    const std::string& text) {
  return {{"changes",
           {{doc.uri, json::array({{{"range", doc.map.range(begin, end)}, {"newText", text}}})}}}};
}

}  // namespace

json fix_all_edit(const CheckedDocument& doc, const analysis::CheckOptions& options) {
  const std::string& text = doc.result.source->text();
  // The fixes are re-checked on a scratch document (one file id, released after).
  ide::Document scratch(doc.result.source->name() + " (fix)", text, options);
  analysis::FixOutcome fixed = analysis::fix_text(text, [&](const std::string& t) {
    scratch.set_text(t);
    return *scratch.check();
  });
  if (fixed.text == text) return nullptr;
  return workspace_edit(doc, 0, static_cast<uint32_t>(text.size()), fixed.text);
}

json code_actions(const CheckedDocument& doc, uint32_t begin, uint32_t end, const json& only,
                  const analysis::CheckOptions& options, const json& resolve_data) {
  json out = json::array();
  const std::string& text = doc.result.source->text();
  uint32_t file = doc.result.tree ? doc.result.tree->file() : 0;
  bool any_safe = false;
  for (const ir::Diagnostic& d : doc.result.diagnostics) {
    if (!d.fix || d.fix->span.file != file || !analysis::fix_applies(d, text, true)) continue;
    bool safe = d.fix->safety == ir::FixSafety::kSafe;
    any_safe |= safe;
    if (d.span.end < begin || d.span.begin > end || !wants(only, "quickfix")) continue;
    out.push_back(
        {{"title", d.fix->title},
         {"kind", "quickfix"},
         {"diagnostics", json::array({diagnostic_json(d, doc.map, doc.uri)})},
         {"isPreferred", safe},
         {"edit", workspace_edit(doc, d.fix->span.begin, d.fix->span.end, d.fix->replacement)}});
  }
  if (any_safe && wants(only, "source.fixAll")) {
    json action = {{"title", "Fix all auto-fixable problems"}, {"kind", "source.fixAll"}};
    if (!resolve_data.is_null()) {
      // Computed when chosen (codeAction/resolve): it checks the document again, round after
      // round, which an editor asking for actions at every cursor move should not wait for.
      action["data"] = resolve_data;
      out.push_back(std::move(action));
    } else if (json edit = fix_all_edit(doc, options); !edit.is_null()) {
      action["edit"] = std::move(edit);
      out.push_back(std::move(action));
    }
  }
  if (doc.result.symbols && wants(only, "refactor.rewrite")) {
    for (const syntax::Symbol* s : unannotated_bindings(doc, begin, end)) {
      auto var = s->object.as<ir::Var>();
      std::string annotation = ": " + analysis::struct_info_text(var->struct_info);
      out.push_back(
          {{"title", "Add the inferred annotation to `" + s->name + "`"},
           {"kind", "refactor.rewrite"},
           {"edit", workspace_edit(doc, s->definition.end, s->definition.end, annotation)}});
    }
  }
  return out;
}

}  // namespace relax::lsp

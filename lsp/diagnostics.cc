// publishDiagnostics' payload: every diagnostic of the check, in its order.
#include "lsp/features.h"

namespace relax::lsp {

json diagnostics(const CheckedDocument& doc) {
  json out = json::array();
  uint32_t file = doc.result.tree ? doc.result.tree->file() : 0;
  for (const ir::Diagnostic& d : doc.result.diagnostics) {
    // Diagnostics of other files (none from a single-document check) have no range here.
    if (d.span.is_known() && d.span.file != file) continue;
    out.push_back(diagnostic_json(d, doc.map, doc.uri));
  }
  return out;
}

}  // namespace relax::lsp

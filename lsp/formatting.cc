// textDocument/formatting and rangeFormatting through the formatter (`relax fmt`'s layout and
// safety checks): the fewest line edits, none when the text does not parse or a check refuses.
#include "lsp/features.h"

namespace relax::lsp {

namespace {

json edits_json(const std::vector<syntax::TextEdit>& edits, const PositionMap& map) {
  json out = json::array();
  for (const syntax::TextEdit& e : edits)
    out.push_back({{"range", map.range(e.start, e.end)}, {"newText", e.text}});
  return out;
}

}  // namespace

json formatting(std::string_view text, const PositionMap& map,
                const syntax::FormatOptions& options) {
  ir::DiagnosticBag diags;
  return edits_json(syntax::format_edits(text, options, diags), map);
}

json range_formatting(std::string_view text, const PositionMap& map, uint32_t begin, uint32_t end,
                      const syntax::FormatOptions& options) {
  ir::DiagnosticBag diags;
  return edits_json(syntax::format_range_edits(text, begin, end, options, diags), map);
}

}  // namespace relax::lsp

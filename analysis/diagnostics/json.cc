// JSON rendering of diagnostics.
#include "analysis/diagnostics/json.h"

#include <nlohmann/json.hpp>

#include "analysis/diagnostics/source_range.h"

namespace relax::analysis {

namespace {

using json = nlohmann::ordered_json;

// The location fields of a span, added to `obj`.
void add_range(json& obj, const ir::Span& span, SourceRanges& ranges) {
  SourceRange r = ranges(span);
  obj["file"] = r.file;
  obj["line"] = r.line;
  obj["column"] = r.column;
  obj["end_line"] = r.end_line;
  obj["end_column"] = r.end_column;
}

json to_json(const ir::Diagnostic& d, SourceRanges& ranges) {
  json obj = json::object();
  add_range(obj, d.span, ranges);
  obj["severity"] = ir::severity_name(d.severity);
  obj["code"] = d.code;
  obj["message"] = d.message;
  json labels = json::array();
  for (const auto& label : d.labels) {
    json l = json::object();
    add_range(l, label.span, ranges);
    l["message"] = label.message;
    labels.push_back(std::move(l));
  }
  obj["labels"] = std::move(labels);
  obj["notes"] = d.notes;
  if (d.fix) {
    json fix = json::object();
    fix["title"] = d.fix->title;
    add_range(fix, d.fix->span, ranges);
    fix["replacement"] = d.fix->replacement;
    fix["applicability"] = d.fix->safety == ir::FixSafety::kSafe ? "safe" : "unsafe";
    obj["fix"] = std::move(fix);
  } else {
    obj["fix"] = nullptr;
  }
  return obj;
}

}  // namespace

std::string render_json(const std::vector<ir::Diagnostic>& diags) {
  json out = json::array();
  SourceRanges ranges;
  for (const auto& d : diags) out.push_back(to_json(d, ranges));
  // Invalid UTF-8 in a message (a byte copied from a broken source) is replaced, not thrown.
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace relax::analysis

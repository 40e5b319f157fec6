// SARIF 2.1.0 rendering.
#include "analysis/diagnostics/sarif.h"

#include <map>
#include <nlohmann/json.hpp>

#include "analysis/diagnostics/catalog.h"
#include "analysis/diagnostics/source_range.h"

namespace relax::analysis {

#ifndef RELAX_HOMEPAGE_URL
#define RELAX_HOMEPAGE_URL "https://github.com/relax-toolkit/relax"
#endif

const char* const kRelaxInformationUri = RELAX_HOMEPAGE_URL;
const char* const kRelaxDocsBaseUri = RELAX_HOMEPAGE_URL "/blob/main/";

namespace {

using json = nlohmann::ordered_json;

const char* kSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

const char* level_of(ir::Severity s) {
  switch (s) {
    case ir::Severity::kError:
      return "error";
    case ir::Severity::kWarning:
      return "warning";
    case ir::Severity::kNote:
      return "note";
  }
  return "error";
}

bool is_absolute(const std::string& path) {
  return !path.empty() && path[0] == '/';
}

json artifact_location(const std::string& file) {
  json loc = json::object();
  loc["uri"] = path_to_uri(file);
  if (!is_absolute(file)) loc["uriBaseId"] = "%SRCROOT%";
  return loc;
}

json region(const SourceRange& r) {
  return json{{"startLine", r.line},
              {"startColumn", r.column},
              {"endLine", r.end_line},
              {"endColumn", r.end_column}};
}

json physical_location(const ir::Span& span, SourceRanges& ranges) {
  SourceRange r = ranges(span);
  return json{{"artifactLocation", artifact_location(r.file)}, {"region", region(r)}};
}

json rule_descriptor(const std::string& code, const ir::Diagnostic& first,
                     const SarifOptions& options) {
  json rule = json::object();
  rule["id"] = code;
  if (auto it = options.rule_names.find(code); it != options.rule_names.end())
    rule["name"] = it->second;
  const CodeDoc* doc = find_code_doc(code);
  std::string title = doc && !doc->title.empty() ? doc->title : first.message;
  std::string summary = doc && !doc->summary.empty() ? doc->summary : title;
  std::string fix = doc && !doc->fix.empty() ? doc->fix : "See the documentation of " + code + ".";
  rule["shortDescription"] = json{{"text", title}};
  rule["fullDescription"] = json{{"text", summary}};
  rule["help"] =
      json{{"text", fix}, {"markdown", "**" + code + "**: " + summary + "\n\n**Fix:** " + fix}};
  std::string page = doc ? doc->page : "docs/diagnostics.md";
  std::string anchor = doc ? doc->anchor : "";
  rule["helpUri"] = options.docs_base_uri + page + (anchor.empty() ? "" : "#" + anchor);
  // Codes keep their severity: E codes are errors, W codes warnings (informational ones notes).
  rule["defaultConfiguration"] =
      json{{"level", code.empty() || code[0] == 'E' ? "error" : level_of(first.severity)}};
  return rule;
}

}  // namespace

std::string path_to_uri(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = is_absolute(path) ? "file://" : "";
  std::string_view p = path;
  if (!is_absolute(path) && p.substr(0, 2) == "./") p.remove_prefix(2);
  for (char c : p) {
    unsigned char u = static_cast<unsigned char>(c);
    bool keep = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  return out;
}

std::string render_sarif(const std::vector<ir::Diagnostic>& diags, const SarifOptions& options) {
  // One rule per reported code, in code order; results refer to them by index.
  std::map<std::string, const ir::Diagnostic*> first_of_code;
  for (const auto& d : diags) first_of_code.emplace(d.code, &d);
  json rules = json::array();
  std::map<std::string, size_t> rule_index;
  for (const auto& [code, first] : first_of_code) {
    if (code.empty()) continue;
    rule_index[code] = rules.size();
    rules.push_back(rule_descriptor(code, *first, options));
  }

  json results = json::array();
  SourceRanges ranges;
  for (const auto& d : diags) {
    json result = json::object();
    if (!d.code.empty()) {
      result["ruleId"] = d.code;
      result["ruleIndex"] = rule_index[d.code];
    }
    result["level"] = level_of(d.severity);
    std::string text = d.message;
    for (const auto& note : d.notes) text += "\nnote: " + note;
    result["message"] = json{{"text", text}};
    result["locations"] =
        json::array({json{{"physicalLocation", physical_location(d.span, ranges)}}});
    if (!d.labels.empty()) {
      json related = json::array();
      for (size_t i = 0; i < d.labels.size(); ++i) {
        related.push_back(json{{"id", i + 1},
                               {"physicalLocation", physical_location(d.labels[i].span, ranges)},
                               {"message", json{{"text", d.labels[i].message}}}});
      }
      result["relatedLocations"] = std::move(related);
    }
    if (d.fix) {
      SourceRange r = ranges(d.fix->span);
      json replacement{{"deletedRegion", region(r)},
                       {"insertedContent", json{{"text", d.fix->replacement}}}};
      json change{{"artifactLocation", artifact_location(r.file)},
                  {"replacements", json::array({replacement})}};
      result["fixes"] = json::array({json{{"description", json{{"text", d.fix->title}}},
                                          {"artifactChanges", json::array({change})}}});
    }
    results.push_back(std::move(result));
  }

  json driver = json::object();
  driver["name"] = "relax";
  if (!options.tool_version.empty()) {
    driver["version"] = options.tool_version;
    driver["semanticVersion"] = options.tool_version;
  }
  driver["informationUri"] = options.information_uri;
  driver["rules"] = std::move(rules);

  json invocation = json::object();
  invocation["executionSuccessful"] = options.execution_errors.empty();
  if (!options.execution_errors.empty()) {
    json notes = json::array();
    for (const auto& e : options.execution_errors)
      notes.push_back(json{{"level", "error"}, {"message", json{{"text", e}}}});
    invocation["toolExecutionNotifications"] = std::move(notes);
  }

  json run = json::object();
  run["tool"] = json{{"driver", std::move(driver)}};
  if (!options.source_root_uri.empty())
    run["originalUriBaseIds"] = json{{"%SRCROOT%", json{{"uri", options.source_root_uri}}}};
  run["invocations"] = json::array({std::move(invocation)});
  run["columnKind"] = "unicodeCodePoints";
  run["results"] = std::move(results);

  json log = json::object();
  log["$schema"] = kSchema;
  log["version"] = "2.1.0";
  log["runs"] = json::array({std::move(run)});
  return log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace relax::analysis

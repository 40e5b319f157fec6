#include "lsp/protocol.h"

#include <cctype>

#include "analysis/diagnostics/catalog.h"
#include "analysis/diagnostics/sarif.h"

namespace relax::lsp {

const json& member(const json& object, std::string_view key) {
  if (!object.is_object()) throw RequestError(kInvalidParams, "params must be an object");
  auto it = object.find(key);
  if (it == object.end()) throw RequestError(kInvalidParams, "missing '" + std::string(key) + "'");
  return *it;
}

std::string string_member(const json& object, std::string_view key) {
  const json& value = member(object, key);
  if (!value.is_string())
    throw RequestError(kInvalidParams, "'" + std::string(key) + "' must be a string");
  return value.get<std::string>();
}

int64_t int_member(const json& object, std::string_view key) {
  const json& value = member(object, key);
  if (!value.is_number_integer())
    throw RequestError(kInvalidParams, "'" + std::string(key) + "' must be an integer");
  return value.get<int64_t>();
}

ir::Position parse_position(const json& position) {
  auto read = [&](std::string_view key) -> uint32_t {
    const json& v = member(position, key);
    if (!v.is_number_integer() || v.get<int64_t>() < 0)
      throw RequestError(kInvalidParams, "position '" + std::string(key) + "' must be a uinteger");
    int64_t n = v.get<int64_t>();
    return n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n);
  };
  return {read("line"), read("character")};
}

json PositionMap::position(uint32_t offset) const {
  ir::Position p = file_.position(offset, encoding_);
  return {{"line", p.line}, {"character", p.column}};
}

json PositionMap::range(uint32_t begin, uint32_t end) const {
  return {{"start", position(begin)}, {"end", position(end < begin ? begin : end)}};
}

uint32_t PositionMap::offset(const json& position) const {
  return file_.offset(parse_position(position), encoding_);
}

const char* encoding_name(ir::Encoding encoding) {
  switch (encoding) {
    case ir::Encoding::kUtf8:
      return "utf-8";
    case ir::Encoding::kUtf16:
      return "utf-16";
    case ir::Encoding::kUtf32:
      return "utf-32";
  }
  return "utf-16";
}

std::string uri_to_path(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.substr(0, kScheme.size()) != kScheme) return "";
  std::string_view rest = uri.substr(kScheme.size());
  // file://host/path: the authority is dropped (localhost or empty in practice).
  size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return "";
  rest.remove_prefix(slash);
  std::string out;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() &&
        std::isxdigit(static_cast<unsigned char>(rest[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(rest[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(rest.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(rest[i]);
    }
  }
  return out;
}

std::string path_to_uri(std::string_view path) {
  return analysis::path_to_uri(std::string(path));
}

namespace {

int severity_of(ir::Severity severity) {
  switch (severity) {
    case ir::Severity::kError:
      return 1;
    case ir::Severity::kWarning:
      return 2;
    case ir::Severity::kNote:
      return 3;
  }
  return 1;
}

}  // namespace

json diagnostic_json(const ir::Diagnostic& d, const PositionMap& map, const std::string& uri) {
  json out = {
      {"range", map.range(d.span)}, {"severity", severity_of(d.severity)}, {"source", "relax"}};
  std::string message = d.message;
  for (const std::string& note : d.notes) message += "\nnote: " + note;
  out["message"] = message;
  if (!d.code.empty()) {
    out["code"] = d.code;
    if (const analysis::CodeDoc* doc = analysis::find_code_doc(d.code)) {
      out["codeDescription"] = {{"href", std::string(analysis::kRelaxDocsBaseUri) + doc->page +
                                             (doc->anchor.empty() ? "" : "#" + doc->anchor)}};
      json tags = json::array();
      if (doc->title.rfind("unused", 0) == 0) tags.push_back(1);
      if (doc->title.find("deprecated") != std::string::npos) tags.push_back(2);
      if (!tags.empty()) out["tags"] = tags;
    }
  }
  if (!d.labels.empty()) {
    json related = json::array();
    for (const ir::DiagnosticLabel& label : d.labels) {
      // Labels in another file (none today) would need that file's positions.
      if (label.span.file != d.span.file || !label.span.is_known()) continue;
      related.push_back({{"location", {{"uri", uri}, {"range", map.range(label.span)}}},
                         {"message", label.message}});
    }
    if (!related.empty()) out["relatedInformation"] = related;
  }
  return out;
}

}  // namespace relax::lsp

// Renders diagnostics as a SARIF 2.1.0 log (`relax check --format sarif`), the format GitHub
// code scanning and other CI dashboards import: one run whose tool lists a rule per reported code
// (title, meaning and fix read from docs/diagnostics*.md) and one result per diagnostic, with
// labels as related locations and fixes as SARIF fixes.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "ir/diagnostic.h"

namespace relax::analysis {

// The project's home page and where its documentation is published (for rule help links).
extern const char* const kRelaxInformationUri;
extern const char* const kRelaxDocsBaseUri;

struct SarifOptions {
  std::string tool_version;  // "0.1.0"; left out when empty
  std::string information_uri = kRelaxInformationUri;
  std::string docs_base_uri = kRelaxDocsBaseUri;  // + "docs/diagnostics.md#anchor"
  // Short names of rules by code ("W1001" -> "unused-binding"); codes without one have none.
  std::unordered_map<std::string, std::string> rule_names;
  // The directory relative paths are relative to ("file:///work/repo/"); empty: not stated.
  std::string source_root_uri;
  // Problems of the run itself (an unreadable file), reported as tool execution notifications;
  // any of them makes the invocation unsuccessful.
  std::vector<std::string> execution_errors;
};

// The log, pretty-printed, ending in a newline.
std::string render_sarif(const std::vector<ir::Diagnostic>& diags,
                         const SarifOptions& options = {});

// A path as a URI reference: percent-encoded, "file://" prefixed when absolute.
std::string path_to_uri(const std::string& path);

}  // namespace relax::analysis

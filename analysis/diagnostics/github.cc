// GitHub Actions annotations.
#include "analysis/diagnostics/github.h"

#include "analysis/diagnostics/source_range.h"

namespace relax::analysis {

std::string github_escape_data(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string github_escape_property(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += "%3A";
        break;
      case ',':
        out += "%2C";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

namespace {

const char* command_name(ir::Severity s) {
  switch (s) {
    case ir::Severity::kError:
      return "error";
    case ir::Severity::kWarning:
      return "warning";
    case ir::Severity::kNote:
      return "notice";
  }
  return "error";
}

}  // namespace

std::string render_github(const std::vector<ir::Diagnostic>& diags) {
  std::string out;
  SourceRanges ranges;
  for (const auto& d : diags) {
    SourceRange r = ranges(d.span);
    std::string props;
    if (r.known) {
      props += "file=" + github_escape_property(r.file);
      props += ",line=" + std::to_string(r.line) + ",col=" + std::to_string(r.column);
      props +=
          ",endLine=" + std::to_string(r.end_line) + ",endColumn=" + std::to_string(r.end_column);
    }
    if (!d.code.empty())
      props += std::string(props.empty() ? "" : ",") + "title=" + github_escape_property(d.code);
    out += std::string("::") + command_name(d.severity) + (props.empty() ? "" : " " + props);
    // The annotation's text: the message, then the labels and notes on their own lines.
    std::string message = d.message;
    for (const auto& label : d.labels) {
      SourceRange lr = ranges(label.span);
      message += "\n" + lr.file + ":" + std::to_string(lr.line) + ":" + std::to_string(lr.column) +
                 ": " + label.message;
    }
    for (const auto& note : d.notes) message += "\nnote: " + note;
    if (d.fix) message += "\nhelp: " + d.fix->title;
    out += "::" + github_escape_data(message) + "\n";
  }
  return out;
}

}  // namespace relax::analysis

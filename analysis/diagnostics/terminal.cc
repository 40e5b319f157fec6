// Terminal rendering of diagnostics with source excerpts.
#include "analysis/diagnostics/terminal.h"

#include <algorithm>

#include "ir/source.h"

namespace relax::analysis {

namespace {

const char* kReset = "\033[0m";
const char* kBold = "\033[1m";
const char* kRed = "\033[1;31m";
const char* kYellow = "\033[1;35m";
const char* kCyan = "\033[1;36m";
const char* kGreen = "\033[1;32m";
const char* kBlue = "\033[1;34m";

struct Painter {
  bool on;
  std::string operator()(const char* code, const std::string& text) const {
    return on ? std::string(code) + text + kReset : text;
  }
};

// Display columns of a byte range of one line (UTF-8 sequences count once, tabs as 4).
size_t display_width(std::string_view line, size_t from, size_t to) {
  size_t width = 0;
  for (size_t i = from; i < to && i < line.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;
    width += c == '\t' ? 4 : 1;
  }
  return width;
}

std::string expand_tabs(std::string_view line) {
  std::string out;
  for (char c : line) {
    if (c == '\t')
      out += "    ";
    else
      out.push_back(c);
  }
  return out;
}

// "file:line:col" for a span (1-based), or "<unknown>".
std::string location(const ir::Span& span, const ir::SourceFile* file) {
  if (!file) return "<unknown>";
  ir::Position p = file->position(span.begin);
  return file->name() + ":" + std::to_string(p.line + 1) + ":" + std::to_string(p.column + 1);
}

// The excerpt: the span's first line with carets under it (to the end of that line for spans
// that continue), with a gutter of line numbers.
std::string excerpt(const ir::Span& span, const ir::SourceFile* file, const std::string& label,
                    const Painter& paint, const char* caret_color) {
  if (!file) return "";
  ir::Position begin = file->position(span.begin);
  ir::Position end = file->position(std::max(span.end, span.begin));
  std::string_view line = file->line_text(begin.line);
  std::string number = std::to_string(begin.line + 1);
  std::string gutter(number.size(), ' ');
  size_t start_col = display_width(line, 0, begin.column);
  size_t stop = end.line == begin.line ? end.column : line.size();
  size_t width = std::max<size_t>(1, display_width(line, begin.column, stop));
  std::string out;
  out += " " + paint(kBlue, number + " |") + " " + expand_tabs(line) + "\n";
  out +=
      " " + paint(kBlue, gutter + " |") + " " + std::string(start_col, ' ') +
      paint(caret_color, "^" + std::string(width - 1, '~') + (label.empty() ? "" : " " + label)) +
      "\n";
  return out;
}

}  // namespace

std::string render_terminal(const ir::Diagnostic& diag, const TerminalStyle& style) {
  Painter paint{style.color};
  auto& sources = ir::SourceManager::global();
  auto file = sources.get(diag.span.file);
  const char* color = diag.severity == ir::Severity::kError     ? kRed
                      : diag.severity == ir::Severity::kWarning ? kYellow
                                                                : kCyan;
  std::string head = ir::severity_name(diag.severity);
  if (!diag.code.empty()) head += "[" + diag.code + "]";
  std::string out = paint(kBold, location(diag.span, file.get()) + ":") + " " +
                    paint(color, head + ":") + " " + paint(kBold, diag.message) + "\n";
  out += excerpt(diag.span, file.get(), "", paint, kGreen);
  for (const auto& label : diag.labels) {
    auto lfile = sources.get(label.span.file);
    out += paint(kBold, location(label.span, lfile.get()) + ":") + " " + paint(kCyan, "note:") +
           " " + label.message + "\n";
    out += excerpt(label.span, lfile.get(), "", paint, kCyan);
  }
  for (const auto& note : diag.notes) out += "  = " + paint(kBold, "note:") + " " + note + "\n";
  if (diag.fix) out += "  = " + paint(kBold, "help:") + " " + diag.fix->title + "\n";
  return out;
}

std::string render_terminal(const std::vector<ir::Diagnostic>& diags, const TerminalStyle& style) {
  std::string out;
  size_t errors = 0, warnings = 0;
  for (const auto& d : diags) {
    out += render_terminal(d, style);
    if (d.severity == ir::Severity::kError) ++errors;
    if (d.severity == ir::Severity::kWarning) ++warnings;
  }
  if (style.summary && errors + warnings > 0) {
    std::string summary;
    if (errors) summary += std::to_string(errors) + (errors == 1 ? " error" : " errors");
    if (errors && warnings) summary += " and ";
    if (warnings) summary += std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings");
    out += summary + " generated.\n";
  }
  return out;
}

}  // namespace relax::analysis

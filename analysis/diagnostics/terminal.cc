// Terminal rendering of diagnostics with source excerpts.
#include "analysis/diagnostics/terminal.h"

#include <algorithm>
#include <sstream>

#include "analysis/diagnostics/limits.h"
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

// The source line of an excerpt, with where the carets go (display columns) and how many.
struct ExcerptLine {
  std::string text;
  size_t caret_col = 0;
  size_t caret_width = 1;
};

size_t char_width(unsigned char c) {
  if ((c & 0xC0) == 0x80) return 0;
  return c == '\t' ? 4 : 1;
}

// `line` with carets under the bytes [begin, end). A line wider than kMaxExcerptColumns is cut
// to a window of that many columns around the span, with "..." where text was left out; the
// work is bounded by the window, not by the line, so a huge line costs no more than a short one.
ExcerptLine excerpt_line(std::string_view line, size_t begin, size_t end) {
  begin = std::min(begin, line.size());
  end = std::max(begin, std::min(end, line.size()));
  ExcerptLine out;
  // Each column takes at most 4 bytes, so only a line of at most 4 * max bytes can fit.
  if (line.size() <= 4 * kMaxExcerptColumns &&
      display_width(line, 0, line.size()) <= kMaxExcerptColumns) {
    out.text = expand_tabs(line);
    out.caret_col = display_width(line, 0, begin);
    out.caret_width = std::max<size_t>(1, display_width(line, begin, end));
    return out;
  }
  // The span's width, counted no further than the window.
  size_t span_width = 0;
  for (size_t i = begin; i < end && span_width < kMaxExcerptColumns; ++i)
    span_width += char_width(static_cast<unsigned char>(line[i]));
  // Context before the span: half of what the span leaves, or a little when it fills the window.
  size_t lead = span_width >= kMaxExcerptColumns ? 8 : (kMaxExcerptColumns - span_width) / 2;
  size_t from = begin, width = 0;
  auto step_back = [&](size_t budget) {
    while (from > 0) {
      size_t i = from - 1;
      while (i > 0 && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) --i;
      size_t w = char_width(static_cast<unsigned char>(line[i]));
      if (width + w > budget) break;
      width += w;
      from = i;
    }
  };
  step_back(lead);
  size_t to = from, total = 0;
  while (to < line.size()) {
    size_t w = char_width(static_cast<unsigned char>(line[to]));
    if (total + w > kMaxExcerptColumns) break;
    total += w;
    ++to;
  }
  while (to < line.size() && (static_cast<unsigned char>(line[to]) & 0xC0) == 0x80) ++to;
  // Near the end of the line the window takes more of what comes before.
  if (to == line.size() && total < kMaxExcerptColumns) {
    width = total;
    step_back(kMaxExcerptColumns);
  }
  std::string_view shown = line.substr(from, to - from);
  bool cut_before = from > 0, cut_after = to < line.size();
  out.text = (cut_before ? "..." : "") + expand_tabs(shown) + (cut_after ? "..." : "");
  out.caret_col = (cut_before ? 3 : 0) + display_width(line, from, begin);
  out.caret_width = std::max<size_t>(1, display_width(line, begin, std::min(end, to)));
  return out;
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
  size_t stop = end.line == begin.line ? end.column : line.size();
  ExcerptLine shown = excerpt_line(line, begin.column, stop);
  std::string out;
  out += " " + paint(kBlue, number + " |") + " " + shown.text + "\n";
  out += " " + paint(kBlue, gutter + " |") + " " + std::string(shown.caret_col, ' ') +
         paint(caret_color,
               "^" + std::string(shown.caret_width - 1, '~') + (label.empty() ? "" : " " + label)) +
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

void render_terminal(const std::vector<ir::Diagnostic>& diags, const TerminalStyle& style,
                     std::ostream& out) {
  size_t errors = 0, warnings = 0;
  // Warnings and notes past max_warnings, per file (diagnostics come grouped by file).
  size_t file_shown = 0, hidden_warnings = 0, hidden_notes = 0;
  auto end_file = [&](uint32_t file) {
    if (hidden_warnings + hidden_notes) {
      auto source = ir::SourceManager::global().get(file);
      std::string what;
      if (hidden_warnings)
        what = std::to_string(hidden_warnings) +
               (hidden_warnings == 1 ? " more warning" : " more warnings");
      if (hidden_warnings && hidden_notes) what += " and ";
      if (hidden_notes)
        what += std::to_string(hidden_notes) + (hidden_notes == 1 ? " more note" : " more notes");
      out << (source ? source->name() : std::string("<unknown>")) + ": " + what +
                 " not shown [--max-errors=" + std::to_string(style.max_warnings) + "]\n";
    }
    file_shown = hidden_warnings = hidden_notes = 0;
  };
  for (size_t i = 0; i < diags.size(); ++i) {
    const auto& d = diags[i];
    bool error = d.severity == ir::Severity::kError;
    // E0001 says errors were left out; it is not one of them.
    if (error && !is_limit_notice(d)) ++errors;
    if (d.severity == ir::Severity::kWarning) ++warnings;
    if (!error && style.max_warnings && file_shown >= style.max_warnings) {
      ++(d.severity == ir::Severity::kWarning ? hidden_warnings : hidden_notes);
    } else {
      if (!error) ++file_shown;
      out << render_terminal(d, style);
    }
    if (i + 1 == diags.size() || diags[i + 1].span.file != d.span.file) end_file(d.span.file);
  }
  if (style.summary && errors + warnings > 0) {
    std::string summary;
    if (errors) summary += std::to_string(errors) + (errors == 1 ? " error" : " errors");
    if (errors && warnings) summary += " and ";
    if (warnings) summary += std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings");
    out << summary + " generated.\n";
  }
}

std::string render_terminal(const std::vector<ir::Diagnostic>& diags, const TerminalStyle& style) {
  std::ostringstream out;
  render_terminal(diags, style, out);
  return out.str();
}

}  // namespace relax::analysis

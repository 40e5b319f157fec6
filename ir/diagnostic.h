// Diagnostics as values: severity, a stable code, a message, the primary span, labelled
// secondary spans, notes and an optional fix. Every layer reports user errors this way; the
// renderers (terminal, JSON, SARIF, LSP) live in analysis/ and lsp/.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/span.h"

namespace relax::ir {

enum class Severity { kError, kWarning, kNote };

const char* severity_name(Severity s);  // "error", "warning", "note"

struct DiagnosticLabel {
  Span span;
  std::string message;
};

// Whether a fix keeps what the program means (`relax check --fix` applies it) or may change
// it (applied only with --unsafe-fixes; an editor still offers it). Each rule decides.
enum class FixSafety { kSafe, kUnsafe };

// A text edit that fixes the problem (a code action in the editor).
struct DiagnosticFix {
  std::string title;
  Span span;
  std::string replacement;
  FixSafety safety = FixSafety::kUnsafe;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string code;  // "E0101"; documented in docs/diagnostics.md
  std::string message;
  Span span;
  std::vector<DiagnosticLabel> labels;  // secondary spans ("the shape of x comes from here")
  std::vector<std::string> notes;
  std::optional<DiagnosticFix> fix;

  Diagnostic& label(Span s, std::string text) {
    labels.push_back({s, std::move(text)});
    return *this;
  }
  Diagnostic& note(std::string text) {
    notes.push_back(std::move(text));
    return *this;
  }
  Diagnostic& with_fix(std::string title, Span s, std::string replacement,
                       FixSafety safety = FixSafety::kUnsafe) {
    fix = DiagnosticFix{std::move(title), s, std::move(replacement), safety};
    return *this;
  }
};

// Collects diagnostics in the order they are reported.
class DiagnosticBag {
 public:
  Diagnostic& report(Severity severity, std::string code, Span span, std::string message);
  Diagnostic& error(std::string code, Span span, std::string message) {
    return report(Severity::kError, std::move(code), span, std::move(message));
  }
  Diagnostic& warning(std::string code, Span span, std::string message) {
    return report(Severity::kWarning, std::move(code), span, std::move(message));
  }

  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic>& items() { return items_; }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  size_t error_count() const;
  bool has_errors() const { return error_count() > 0; }
  void append(const DiagnosticBag& other);
  // Sorts by file, then position (stable for equal positions), for deterministic output.
  void sort_by_position();
  // Drops every diagnostic that repeats an earlier one (same severity, code, span and message),
  // as a pass pipeline that re-infers struct info after each pass would report it again.
  void remove_duplicates();

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace relax::ir

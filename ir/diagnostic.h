// Diagnostics as values: severity, a stable code, a message, the primary span, labelled
// secondary spans, notes and an optional fix. Every layer reports user errors this way; the
// renderers (terminal, JSON, SARIF, LSP) live in analysis/ and lsp/.
#pragma once

#include <functional>
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

// The code of the diagnostic that says the error limit was reached (see DiagnosticBag).
inline constexpr const char* kTooManyErrorsCode = "E0001";

// Collects diagnostics in the order they are reported.
//
// With an error limit (set_error_limit, as `--max-errors` sets it), the bag keeps the first N
// errors that count; the next error is not kept, limit_reached() turns true and from then on
// nothing more is kept (errors are counted as dropped, warnings and notes are dropped). Producers
// check limit_reached() to stop working: the front end evaluates nothing more, the check skips
// inference and lint rules. error_count() includes the dropped errors, so that "did this
// function report an error?" still sees them.
class DiagnosticBag {
 public:
  // 0 is no limit. `counts` says whether an error counts toward the limit (one that is shown);
  // an error that does not (a code the rule selection drops later) is kept without counting.
  void set_error_limit(size_t limit, std::function<bool(const Diagnostic&)> counts = {});
  size_t error_limit() const { return limit_; }
  bool limit_reached() const { return limit_reached_; }
  // Errors reported after the limit was reached (not kept).
  size_t dropped_errors() const { return dropped_errors_; }
  // Where the first error that was not kept points.
  Span limit_span() const { return limit_span_; }

  // A point to roll back to: what was reported after it is forgotten, limit state included
  // (for speculative work, such as evaluating a signature only for its struct info).
  struct Mark {
    size_t size = 0;
    size_t counted = 0;
    size_t dropped_errors = 0;
    size_t dropped_any_errors = 0;
    bool limit_reached = false;
    Span limit_span;
  };
  Mark mark() const;
  void rollback(const Mark& mark);

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
  size_t limit_ = 0;
  std::function<bool(const Diagnostic&)> counts_;
  size_t counted_ = 0;             // kept errors that count toward the limit
  size_t dropped_errors_ = 0;      // of those that count
  size_t dropped_any_errors_ = 0;  // counting or not
  bool limit_reached_ = false;
  Span limit_span_;
  Diagnostic discarded_;  // what report() hands out for a diagnostic it does not keep
};

}  // namespace relax::ir

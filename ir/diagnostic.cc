// The diagnostic collection.
#include "ir/diagnostic.h"

#include <algorithm>

namespace relax::ir {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

Diagnostic& DiagnosticBag::report(Severity severity, std::string code, Span span,
                                  std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.code = std::move(code);
  d.span = span;
  d.message = std::move(message);
  items_.push_back(std::move(d));
  return items_.back();
}

size_t DiagnosticBag::error_count() const {
  return static_cast<size_t>(std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) {
    return d.severity == Severity::kError;
  }));
}

void DiagnosticBag::append(const DiagnosticBag& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

void DiagnosticBag::sort_by_position() {
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.span.file != b.span.file) return a.span.file < b.span.file;
    return a.span.begin < b.span.begin;
  });
}

void DiagnosticBag::remove_duplicates() {
  std::vector<Diagnostic> kept;
  kept.reserve(items_.size());
  for (auto& d : items_) {
    bool seen = std::any_of(kept.begin(), kept.end(), [&](const Diagnostic& k) {
      return k.severity == d.severity && k.span == d.span && k.code == d.code &&
             k.message == d.message;
    });
    if (!seen) kept.push_back(std::move(d));
  }
  items_ = std::move(kept);
}

}  // namespace relax::ir

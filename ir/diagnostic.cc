// The diagnostic collection.
#include "ir/diagnostic.h"

#include <algorithm>
#include <unordered_set>

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
  if (limit_ && (limit_reached_ || severity == Severity::kError)) {
    bool counts = severity == Severity::kError && (!counts_ || counts_(d));
    if (!limit_reached_ && counts && counted_ >= limit_) {
      limit_reached_ = true;
      limit_span_ = d.span;
    }
    if (limit_reached_) {
      if (severity == Severity::kError) ++dropped_any_errors_;
      if (counts) ++dropped_errors_;
      // The caller may still add labels and notes: they go to a scratch value, cleared each time.
      discarded_ = std::move(d);
      return discarded_;
    }
    if (counts) ++counted_;
  }
  items_.push_back(std::move(d));
  return items_.back();
}

void DiagnosticBag::set_error_limit(size_t limit, std::function<bool(const Diagnostic&)> counts) {
  limit_ = limit;
  counts_ = std::move(counts);
}

DiagnosticBag::Mark DiagnosticBag::mark() const {
  return Mark{items_.size(),       counted_,       dropped_errors_,
              dropped_any_errors_, limit_reached_, limit_span_};
}

void DiagnosticBag::rollback(const Mark& mark) {
  if (mark.size < items_.size())
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(mark.size), items_.end());
  counted_ = mark.counted;
  dropped_errors_ = mark.dropped_errors;
  dropped_any_errors_ = mark.dropped_any_errors;
  limit_reached_ = mark.limit_reached;
  limit_span_ = mark.limit_span;
}

size_t DiagnosticBag::error_count() const {
  return dropped_any_errors_ +
         static_cast<size_t>(std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) {
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
  // A hash of what makes two diagnostics the same, so that thousands of them take linear time.
  auto key = [](const Diagnostic& d) {
    std::string k = d.code;
    k += '\0';
    k += std::to_string(static_cast<int>(d.severity)) + ':' + std::to_string(d.span.file) + ':' +
         std::to_string(d.span.begin) + ':' + std::to_string(d.span.end) + '\0';
    k += d.message;
    return k;
  };
  std::unordered_set<std::string> seen;
  std::vector<Diagnostic> kept;
  kept.reserve(items_.size());
  for (auto& d : items_) {
    if (seen.insert(key(d)).second) kept.push_back(std::move(d));
  }
  items_ = std::move(kept);
}

}  // namespace relax::ir

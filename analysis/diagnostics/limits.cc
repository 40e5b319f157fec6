// E0001 and capping lists of errors.
#include "analysis/diagnostics/limits.h"

#include <map>
#include <set>
#include <string>

namespace relax::analysis {

ir::Diagnostic too_many_errors(ir::Span at, size_t limit, size_t more, bool stopped) {
  ir::Diagnostic d;
  d.severity = ir::Severity::kError;
  d.code = ir::kTooManyErrorsCode;
  d.span = at;
  std::string counts = std::to_string(limit) + " shown, " + (stopped ? "at least " : "") +
                       std::to_string(more) + " more not shown";
  d.message = std::string("too many errors emitted") + (stopped ? ", stopping now" : "") + ": " +
              counts + " [--max-errors=" + std::to_string(limit) + "]";
  if (stopped) d.note("checking stopped here: the rest of this file was not checked");
  d.note("`--max-errors 0` reports every error");
  return d;
}

bool limit_notice(const ir::DiagnosticBag& bag, ir::Diagnostic& out) {
  if (!bag.limit_reached()) return false;
  out = too_many_errors(bag.limit_span(), bag.error_limit(), bag.dropped_errors(), true);
  return true;
}

bool is_limit_notice(const ir::Diagnostic& d) {
  return d.code == ir::kTooManyErrorsCode;
}

void cap_errors(std::vector<ir::Diagnostic>& diags, size_t limit) {
  if (limit == 0) return;
  std::set<uint32_t> noticed;
  for (const auto& d : diags)
    if (is_limit_notice(d)) noticed.insert(d.span.file);
  struct Over {
    size_t more = 0;
    ir::Span first;
  };
  std::map<uint32_t, size_t> errors;
  std::map<uint32_t, Over> over;
  std::vector<ir::Diagnostic> kept;
  kept.reserve(diags.size());
  for (auto& d : diags) {
    uint32_t file = d.span.file;
    if (d.severity == ir::Severity::kError && !is_limit_notice(d) && !noticed.count(file) &&
        ++errors[file] > limit) {
      Over& o = over[file];
      if (o.more++ == 0) o.first = d.span;
      continue;
    }
    kept.push_back(std::move(d));
  }
  if (over.empty()) {
    diags = std::move(kept);
    return;
  }
  // Each file's notice goes after its last diagnostic, so that it ends that file's list.
  diags.clear();
  for (size_t i = 0; i < kept.size(); ++i) {
    uint32_t file = kept[i].span.file;
    diags.push_back(std::move(kept[i]));
    bool last_of_file = i + 1 == kept.size() || kept[i + 1].span.file != file;
    auto it = over.find(file);
    if (last_of_file && it != over.end()) {
      diags.push_back(too_many_errors(it->second.first, limit, it->second.more, false));
      over.erase(it);
    }
  }
  // A file whose every diagnostic was dropped is not possible (its first `limit` errors stay).
}

}  // namespace relax::analysis

// Applying fixes: edit selection (non-overlapping, safe unless asked), rounds, re-checking.
#include "analysis/fix.h"

#include <algorithm>
#include <set>
#include <utility>

namespace relax::analysis {

size_t FixOutcome::fixed_count() const {
  size_t n = 0;
  for (const auto& [code, count] : fixed) n += count;
  return n;
}

bool fix_applies(const ir::Diagnostic& d, std::string_view text, bool unsafe) {
  if (!d.fix) return false;
  const ir::DiagnosticFix& f = *d.fix;
  if (f.span.file != d.span.file || f.span.begin > f.span.end || f.span.end > text.size())
    return false;
  return f.safety == ir::FixSafety::kSafe || unsafe;
}

FixableCounts count_fixable(const std::vector<ir::Diagnostic>& diags, std::string_view text) {
  FixableCounts out;
  for (const auto& d : diags) {
    if (fix_applies(d, text, false))
      ++out.safe;
    else if (fix_applies(d, text, true))
      ++out.unsafe_only;
  }
  return out;
}

std::string apply_edits(std::string_view text, std::vector<const ir::Diagnostic*> diags,
                        std::vector<const ir::Diagnostic*>* applied) {
  std::stable_sort(diags.begin(), diags.end(),
                   [](const ir::Diagnostic* a, const ir::Diagnostic* b) {
                     if (a->fix->span.begin != b->fix->span.begin)
                       return a->fix->span.begin < b->fix->span.begin;
                     return a->fix->span.end < b->fix->span.end;
                   });
  std::string out;
  size_t at = 0;  // the end of the last edit taken
  bool any = false;
  for (const ir::Diagnostic* d : diags) {
    const ir::DiagnosticFix& f = *d->fix;
    // Overlapping, or a second insertion at the same place: left for a later round.
    if (any && (f.span.begin < at || (f.span.begin == at && f.span.begin == f.span.end))) continue;
    out.append(text.substr(at, f.span.begin - at));
    out += f.replacement;
    at = f.span.end;
    any = true;
    if (applied) applied->push_back(d);
  }
  out.append(text.substr(at));
  return out;
}

FixOutcome fix_text(std::string text, const std::string& name, const CheckOptions& options,
                    const FixOptions& fix) {
  return fix_text(
      std::move(text), [&](const std::string& t) { return check_text(t, name, options); }, fix);
}

FixOutcome fix_text(std::string text, const Checker& check, const FixOptions& fix) {
  FixOutcome out;
  out.result = check(text);
  // Fixes that made things worse, by code and message, are not tried again.
  std::set<std::pair<std::string, std::string>> refused;
  auto usable = [&](const ir::Diagnostic& d, std::string_view in) {
    return fix_applies(d, in, fix.unsafe) && !refused.count({d.code, d.message});
  };
  for (size_t round = 0; round < fix.max_rounds; ++round) {
    std::vector<const ir::Diagnostic*> candidates;
    for (const auto& d : out.result.diagnostics) {
      if (usable(d, text)) candidates.push_back(&d);
    }
    if (candidates.empty()) break;
    size_t errors = out.result.count(ir::Severity::kError);
    // All non-overlapping fixes at once; when the result is worse, one at a time, keeping each
    // that does not make it worse.
    std::vector<const ir::Diagnostic*> applied;
    std::string next = apply_edits(text, candidates, &applied);
    CheckResult next_result = check(next);
    std::map<std::string, size_t> fixed;
    if (next_result.count(ir::Severity::kError) <= errors) {
      for (const ir::Diagnostic* d : applied) ++fixed[d->code];
    } else {
      next = text;
      next_result = out.result;
      // Each fix is found afresh in the text accepted so far (the spans move).
      std::vector<std::pair<std::string, std::string>> keys;
      for (const ir::Diagnostic* d : candidates) keys.emplace_back(d->code, d->message);
      for (const auto& key : keys) {
        std::vector<const ir::Diagnostic*> one;
        for (const auto& d : next_result.diagnostics) {
          if (d.code == key.first && d.message == key.second && usable(d, next)) {
            one.push_back(&d);
            break;
          }
        }
        if (one.empty()) continue;
        std::string attempt = apply_edits(next, one, nullptr);
        CheckResult attempt_result = check(attempt);
        if (attempt_result.count(ir::Severity::kError) <= errors) {
          ++fixed[one[0]->code];
          next = std::move(attempt);
          next_result = std::move(attempt_result);
        } else {
          ++out.rejected;
          refused.insert(key);
        }
      }
    }
    if (fixed.empty()) break;
    for (const auto& [code, n] : fixed) out.fixed[code] += n;
    text = std::move(next);
    out.result = std::move(next_result);
  }
  out.text = std::move(text);
  return out;
}

}  // namespace relax::analysis

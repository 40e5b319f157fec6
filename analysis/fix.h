// `relax check --fix`: applies the fixes that diagnostics carry to a file's text and checks the
// result again, round after round until nothing more is fixable (ruff's model). Only safe fixes
// unless unsafe ones are asked for, never two that overlap, and never a change whose result has
// more errors than the text it replaces.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/check.h"
#include "ir/diagnostic.h"

namespace relax::analysis {

struct FixOptions {
  bool unsafe = false;    // apply the fixes marked unsafe too
  size_t max_rounds = 8;  // fixes can enable others (a removal empties a dataflow block)
};

struct FixOutcome {
  std::string text;                     // the fixed text (the input when nothing applied)
  std::map<std::string, size_t> fixed;  // code -> how many diagnostics were fixed
  CheckResult result;                   // the check of `text`: what is left
  // Fixes left out because the text they produced had more errors (or did not parse).
  size_t rejected = 0;
  size_t fixed_count() const;
};

// Whether `relax check --fix` applies this diagnostic's fix: it has one, within `text`, and it
// is safe (or `unsafe` is set). The check driver marks a fix that deletes a comment unsafe.
bool fix_applies(const ir::Diagnostic& d, std::string_view text, bool unsafe);
// Counts of the diagnostics with a fix --fix would apply, and of those only --unsafe-fixes would.
struct FixableCounts {
  size_t safe = 0;
  size_t unsafe_only = 0;
};
FixableCounts count_fixable(const std::vector<ir::Diagnostic>& diags, std::string_view text);

// Applies the fixes (edits of `text`), skipping any that overlaps one before it; returns the new
// text and sets `applied` to the fixes used.
std::string apply_edits(std::string_view text, std::vector<const ir::Diagnostic*> diags,
                        std::vector<const ir::Diagnostic*>* applied);

// Checks `text` (registered as `name`), applies the fixes, checks again, and repeats.
FixOutcome fix_text(std::string text, const std::string& name, const CheckOptions& check = {},
                    const FixOptions& fix = {});
// The same with another checker (what the tests use to report fixes of their own).
using Checker = std::function<CheckResult(const std::string& text)>;
FixOutcome fix_text(std::string text, const Checker& check, const FixOptions& fix = {});

}  // namespace relax::analysis

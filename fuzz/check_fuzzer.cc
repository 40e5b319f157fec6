// Fuzz harness (a): the `relax check` pipeline on arbitrary bytes: parse, front end, normalize
// (struct-info inference), well-formedness, every lint rule, then the renderers and `--fix`.
// Properties: nothing crashes or throws, and --fix never leaves more errors than it found.
#include <string>

#include "analysis/check.h"
#include "analysis/diagnostics/json.h"
#include "analysis/diagnostics/terminal.h"
#include "analysis/fix.h"
#include "fuzz/fuzz_support.h"

using namespace relax;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  fuzz::SourceScope scope;
  std::string text(fuzz::as_text(data, size));

  analysis::CheckOptions options;
  options.rules.select = {"ALL"};
  analysis::CheckResult result = analysis::check_text(text, "fuzz.relax", options);
  (void)analysis::render_terminal(result.diagnostics);
  (void)analysis::render_json(result.diagnostics);

  analysis::FixableCounts fixable = analysis::count_fixable(result.diagnostics, text);
  if (fixable.safe + fixable.unsafe_only == 0) return 0;
  analysis::FixOptions fix;
  fix.unsafe = true;
  fix.max_rounds = 2;  // each round checks the file again: fewer keep a run fast
  analysis::FixOutcome outcome = analysis::fix_text(text, "fuzz.relax", options, fix);
  size_t before = result.count(ir::Severity::kError);
  size_t after = outcome.result.count(ir::Severity::kError);
  if (after > before)
    fuzz::fail("check_fuzzer", "--fix raised the errors from " + std::to_string(before) + " to " +
                                   std::to_string(after));
  return 0;
}

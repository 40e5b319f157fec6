// The fix engine behind `relax check --fix`: which fixes apply (safe, non-overlapping), rounds
// until nothing is fixable, and fixes that make the result worse refused.
// A small fake checker reports fixes over a toy text; the real rules are tested through the CLI.
#include <catch2/catch.hpp>

#include "analysis/fix.h"

using namespace relax;

namespace {

// Reports, for each occurrence in `text`:
//   "AB" -> W9001, safe fix to "B";      "U" -> W9002, unsafe fix to "u";
//   "CD" -> W9003, safe fix to "XX";     "XX" -> E9999, an error without a fix.
analysis::CheckResult fake_check(const std::string& text) {
  analysis::CheckResult r;
  auto add = [&](const char* code, ir::Severity sev, size_t at, size_t len, const char* repl,
                 ir::FixSafety safety) {
    ir::Diagnostic d;
    d.code = code;
    d.severity = sev;
    d.message = std::string(code) + " at " + std::to_string(at);
    d.span = ir::Span{1, static_cast<uint32_t>(at), static_cast<uint32_t>(at + len)};
    if (repl) d.with_fix("fix", d.span, repl, safety);
    r.diagnostics.push_back(d);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    std::string_view rest = std::string_view(text).substr(i);
    if (rest.starts_with("AB"))
      add("W9001", ir::Severity::kWarning, i, 2, "B", ir::FixSafety::kSafe);
    if (rest.starts_with("U"))
      add("W9002", ir::Severity::kWarning, i, 1, "u", ir::FixSafety::kUnsafe);
    if (rest.starts_with("CD"))
      add("W9003", ir::Severity::kWarning, i, 2, "XX", ir::FixSafety::kSafe);
    if (rest.starts_with("XX"))
      add("E9999", ir::Severity::kError, i, 2, nullptr, ir::FixSafety::kSafe);
  }
  return r;
}

analysis::FixOutcome fix(const std::string& text, bool unsafe = false, size_t rounds = 8) {
  analysis::FixOptions options;
  options.unsafe = unsafe;
  options.max_rounds = rounds;
  return analysis::fix_text(text, fake_check, options);
}

}  // namespace

TEST_CASE("fixes: safe ones apply, unsafe ones only when asked") {
  auto r = fix("AB U AB");
  CHECK(r.text == "B U B");
  CHECK(r.fixed == std::map<std::string, size_t>{{"W9001", 2}});
  REQUIRE(r.result.diagnostics.size() == 1);
  CHECK(r.result.diagnostics[0].code == "W9002");
  auto u = fix("AB U AB", true);
  CHECK(u.text == "B u B");
  CHECK(u.fixed_count() == 3);
  CHECK(u.result.diagnostics.empty());
}

TEST_CASE("fixes: rounds continue until nothing is fixable, and are bounded") {
  // Each round fixes the one "AB" there is and makes the next.
  CHECK(fix("AAAB").text == "B");
  CHECK(fix("AAAB").fixed_count() == 3);
  auto bounded = fix("AAAB", false, 2);
  CHECK(bounded.text == "AB");
  CHECK(bounded.fixed_count() == 2);
  CHECK(bounded.result.diagnostics.size() == 1);
}

TEST_CASE("fixes: overlapping edits wait for the next round") {
  ir::Diagnostic a, b;
  a.span = b.span = ir::Span{1, 0, 3};
  a.with_fix("a", ir::Span{1, 0, 3}, "x", ir::FixSafety::kSafe);
  b.with_fix("b", ir::Span{1, 2, 4}, "y", ir::FixSafety::kSafe);
  std::vector<const ir::Diagnostic*> applied;
  CHECK(analysis::apply_edits("abcdef", {&b, &a}, &applied) == "xdef");
  REQUIRE(applied.size() == 1);
  CHECK(applied[0] == &a);
  // Adjacent edits both apply; two insertions at one place do not.
  ir::Diagnostic c, e, f;
  c.with_fix("c", ir::Span{1, 3, 4}, "D", ir::FixSafety::kSafe);
  e.with_fix("e", ir::Span{1, 1, 1}, "+", ir::FixSafety::kSafe);
  f.with_fix("f", ir::Span{1, 1, 1}, "-", ir::FixSafety::kSafe);
  applied.clear();
  CHECK(analysis::apply_edits("abcdef", {&a, &c}, &applied) == "xDef");
  CHECK(applied.size() == 2);
  CHECK(analysis::apply_edits("abc", {&e, &f}, nullptr) == "a+bc");
}

TEST_CASE("fixes: a fix whose result has more errors is refused") {
  // "CD" -> "XX" is an error: refused, and "AB" still fixed.
  auto r = fix("CD AB");
  CHECK(r.text == "CD B");
  CHECK(r.fixed == std::map<std::string, size_t>{{"W9001", 1}});
  CHECK(r.rejected == 1);
  CHECK(r.result.count(ir::Severity::kError) == 0);
}

TEST_CASE("fixes: which apply, and the counts the summary shows") {
  ir::Diagnostic d;
  d.span = ir::Span{1, 0, 2};
  d.with_fix("drop", ir::Span{1, 0, 2}, "", ir::FixSafety::kUnsafe);
  CHECK_FALSE(analysis::fix_applies(d, "abc", false));
  CHECK(analysis::fix_applies(d, "abc", true));
  d.fix->safety = ir::FixSafety::kSafe;
  CHECK(analysis::fix_applies(d, "abc", false));
  // An edit beyond the text, or into another file, never applies.
  CHECK_FALSE(analysis::fix_applies(d, "a", true));
  d.fix->span.file = 2;
  CHECK_FALSE(analysis::fix_applies(d, "abc", true));
  ir::Diagnostic none;
  CHECK_FALSE(analysis::fix_applies(none, "abc", true));
  auto counts = analysis::count_fixable(fake_check("AB U U XX").diagnostics, "AB U U XX");
  CHECK(counts.safe == 1);
  CHECK(counts.unsafe_only == 2);
}

// The error limit and the bounded terminal output: DiagnosticBag's limit (what it keeps, counts
// and forgets on rollback), cap_errors and E0001, and excerpt windows of long lines (where the
// window starts, what "..." replaces, where the carets land), character columns of long lines.
#include <catch2/catch.hpp>

#include "analysis/diagnostics/limits.h"
#include "analysis/diagnostics/source_range.h"
#include "analysis/diagnostics/terminal.h"
#include "ir/source.h"

using namespace relax;

namespace {

ir::Span at(uint32_t file, uint32_t begin, uint32_t end) {
  return ir::Span{file, begin, end};
}

// The source line and the caret line of a rendered diagnostic (its second and third lines).
std::pair<std::string, std::string> excerpt_lines(const std::string& rendered) {
  size_t a = rendered.find('\n');
  size_t b = rendered.find('\n', a + 1);
  size_t c = rendered.find('\n', b + 1);
  return {rendered.substr(a + 1, b - a - 1), rendered.substr(b + 1, c - b - 1)};
}

// Display columns (UTF-8 sequences count once).
size_t columns(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

TEST_CASE("an error limit keeps the first N errors, then stops keeping anything") {
  ir::DiagnosticBag bag;
  bag.set_error_limit(2);
  bag.error("E0201", at(1, 0, 1), "first");
  bag.warning("W1001", at(1, 1, 2), "a warning before the limit");
  bag.error("E0201", at(1, 2, 3), "second");
  CHECK_FALSE(bag.limit_reached());
  bag.error("E0201", at(1, 5, 6), "third").note("goes nowhere").label(at(1, 0, 1), "nor this");
  CHECK(bag.limit_reached());
  bag.warning("W1001", at(1, 7, 8), "a warning after the limit");
  bag.error("E0201", at(1, 9, 10), "fourth");
  REQUIRE(bag.size() == 3);
  CHECK(bag.items()[2].message == "second");
  CHECK(bag.dropped_errors() == 2);
  CHECK(bag.limit_span() == at(1, 5, 6));  // the first error not kept
  // "Did this function report an error?" still sees the dropped ones.
  CHECK(bag.error_count() == 4);

  ir::Diagnostic notice;
  REQUIRE(analysis::limit_notice(bag, notice));
  CHECK(notice.code == "E0001");
  CHECK(notice.span == at(1, 5, 6));
  CHECK(notice.message ==
        "too many errors emitted, stopping now: 2 shown, at least 2 more not shown "
        "[--max-errors=2]");
  REQUIRE(notice.notes.size() == 2);
  CHECK(notice.notes[0] == "checking stopped here: the rest of this file was not checked");
}

TEST_CASE("errors that do not count are kept without reaching the limit") {
  ir::DiagnosticBag bag;
  bag.set_error_limit(1, [](const ir::Diagnostic& d) { return d.code != "E0999"; });
  bag.error("E0999", at(1, 0, 1), "ignored later");
  bag.error("E0999", at(1, 1, 2), "ignored later");
  bag.error("E0201", at(1, 2, 3), "counts");
  CHECK_FALSE(bag.limit_reached());
  bag.error("E0999", at(1, 3, 4), "ignored later");
  bag.error("E0201", at(1, 4, 5), "over the limit");
  CHECK(bag.limit_reached());
  bag.error("E0999", at(1, 5, 6), "after the stop: dropped, not counted as shown-worthy");
  CHECK(bag.size() == 4);
  CHECK(bag.dropped_errors() == 1);
  CHECK(bag.error_count() == 6);
}

TEST_CASE("no limit keeps everything, and a rollback forgets the limit state too") {
  ir::DiagnosticBag unlimited;
  for (int i = 0; i < 500; ++i) unlimited.error("E0201", at(1, i, i + 1), "e");
  CHECK(unlimited.size() == 500);
  CHECK_FALSE(unlimited.limit_reached());

  ir::DiagnosticBag bag;
  bag.set_error_limit(1);
  bag.error("E0201", at(1, 0, 1), "kept");
  ir::DiagnosticBag::Mark mark = bag.mark();
  bag.error("E0201", at(1, 1, 2), "speculative");
  CHECK(bag.limit_reached());
  bag.rollback(mark);
  CHECK_FALSE(bag.limit_reached());
  CHECK(bag.dropped_errors() == 0);
  CHECK(bag.error_count() == 1);
  bag.error("E0201", at(1, 3, 4), "real");
  CHECK(bag.limit_reached());
  CHECK(bag.limit_span() == at(1, 3, 4));
}

TEST_CASE("remove_duplicates keeps the first of each, in order") {
  ir::DiagnosticBag bag;
  for (int round = 0; round < 3; ++round)
    for (uint32_t i = 0; i < 1000; ++i) bag.error("E0301", at(1, i, i + 1), "same");
  bag.warning("E0301", at(1, 0, 1), "same");  // another severity: not a duplicate
  bag.remove_duplicates();
  REQUIRE(bag.size() == 1001);
  CHECK(bag.items()[999].span == at(1, 999, 1000));
  CHECK(bag.items()[1000].severity == ir::Severity::kWarning);
}

TEST_CASE("cap_errors keeps N errors per file and counts the rest exactly") {
  std::vector<ir::Diagnostic> diags;
  auto add = [&](ir::Severity s, uint32_t file, uint32_t pos) {
    ir::Diagnostic d;
    d.severity = s;
    d.code = s == ir::Severity::kError ? "E0201" : "W1001";
    d.span = at(file, pos, pos + 1);
    d.message = "m";
    diags.push_back(d);
  };
  for (uint32_t i = 0; i < 5; ++i) add(ir::Severity::kError, 1, i);
  add(ir::Severity::kWarning, 1, 10);
  for (uint32_t i = 0; i < 2; ++i) add(ir::Severity::kError, 2, i);
  analysis::cap_errors(diags, 3);
  REQUIRE(diags.size() == 3 + 1 + 1 + 2);
  CHECK(diags[3].severity == ir::Severity::kWarning);  // warnings stay
  const ir::Diagnostic& notice = diags[4];
  CHECK(notice.code == "E0001");
  CHECK(notice.span == at(1, 3, 4));  // the first error left out
  CHECK(notice.message == "too many errors emitted: 3 shown, 2 more not shown [--max-errors=3]");
  CHECK(diags[5].span.file == 2);
  CHECK(diags[6].code == "E0201");

  std::vector<ir::Diagnostic> all = diags;
  analysis::cap_errors(all, 0);
  CHECK(all.size() == diags.size());
}

TEST_CASE("terminal: a short line is shown whole") {
  std::string line = "    y = R.add(x, oops)";
  uint32_t file = ir::SourceManager::global().add("short.relax", line + "\n");
  uint32_t b = static_cast<uint32_t>(line.find("oops"));
  ir::Diagnostic d;
  d.code = "E0201";
  d.message = "unknown name `oops`";
  d.span = at(file, b, b + 4);
  auto [source, carets] = excerpt_lines(analysis::render_terminal(d));
  CHECK(source == " 1 |     y = R.add(x, oops)");
  CHECK(carets == "   |                  ^~~~");
}

TEST_CASE("terminal: a long line is a window of kMaxExcerptColumns around the span") {
  const size_t w = analysis::kMaxExcerptColumns;
  auto render = [](const std::string& line, const std::string& needle) {
    uint32_t file = ir::SourceManager::global().add("long.relax", "# x\n" + line + "\n");
    uint32_t b = 4 + static_cast<uint32_t>(line.find(needle));
    ir::Diagnostic d;
    d.code = "E0201";
    d.message = "unknown name";
    d.span = at(file, b, b + static_cast<uint32_t>(needle.size()));
    return analysis::render_terminal(d);
  };

  SECTION("in the middle: cut on both sides, the span centred") {
    std::string line =
        "    y = (\"" + std::string(50000, 'a') + "\", oops, \"" + std::string(50000, 'b') + "\")";
    REQUIRE(line.size() > 100000);
    std::string out = render(line, "oops");
    CHECK(out.rfind("long.relax:2:50014: error[E0201]", 0) == 0);  // the whole line's column
    auto [source, carets] = excerpt_lines(out);
    size_t b = line.find("oops"), lead = (w - 4) / 2;
    CHECK(source == " 2 | ..." + line.substr(b - lead, w) + "...");
    CHECK(carets == "   | " + std::string(3 + lead, ' ') + "^~~~");
    // The carets stand under the name.
    CHECK(source.substr(carets.find('^'), 4) == "oops");
  }
  SECTION("near the start: nothing cut before") {
    std::string line = "    y = (oops, \"" + std::string(100000, 'a') + "\")";
    auto [source, carets] = excerpt_lines(render(line, "oops"));
    CHECK(source == " 2 | " + line.substr(0, w) + "...");
    CHECK(carets == "   |          ^~~~");
  }
  SECTION("near the end: the window ends with the line") {
    std::string line = "    y = (\"" + std::string(100000, 'a') + "\", oops)";
    auto [source, carets] = excerpt_lines(render(line, "oops"));
    CHECK(source == " 2 | ..." + line.substr(line.size() - w));
    CHECK(source.substr(carets.find('^'), 4) == "oops");
  }
  SECTION("a span wider than the window is underlined to the window's edge") {
    std::string name(20000, 'q');
    std::string line = "    y = R.add(x, " + name + ")" + std::string(1000, ' ');
    auto [source, carets] = excerpt_lines(render(line, name));
    CHECK(source.rfind(" 2 | ...", 0) == 0);
    CHECK(source.size() == 5 + 3 + w + 3);
    size_t caret = carets.find('^');
    CHECK(caret == 5 + 3 + 8);  // 8 columns of context before the span
    CHECK(carets.size() == 5 + 3 + w);
    CHECK(carets.substr(caret + 1) == std::string(w - 9, '~'));
  }
  SECTION("UTF-8 is cut between characters and counted in columns") {
    std::string e = "\xC3\xA9";  // é: two bytes, one column
    std::string run;
    for (int i = 0; i < 50000; ++i) run += e;
    std::string line = "    y = (\"" + run + "\", oops, \"" + run + "\")";
    auto [source, carets] = excerpt_lines(render(line, "oops"));
    CHECK(columns(source) == 5 + 3 + w + 3);
    CHECK(source.find("\", oops, \"") != std::string::npos);
    // No broken sequence: every é is whole (the text is é* between the cuts).
    std::string inner = source.substr(8, source.size() - 11);
    std::string before = inner.substr(0, inner.find('"'));
    CHECK(before.size() % 2 == 0);
    CHECK(columns(source.substr(0, source.find("oops"))) == carets.find('^'));
  }
  SECTION("tabs count four columns") {
    std::string line = std::string(1000, '\t') + "oops" + std::string(1000, '\t');
    auto [source, carets] = excerpt_lines(render(line, "oops"));
    CHECK(source.find('\t') == std::string::npos);
    CHECK(source.substr(carets.find('^'), 4) == "oops");
    CHECK(source.size() <= 5 + 3 + w + 3);
  }
}

TEST_CASE("terminal: at most max_warnings warnings per file, then one line") {
  uint32_t a = ir::SourceManager::global().add("a.relax", std::string(100, 'x') + "\n");
  uint32_t b = ir::SourceManager::global().add("b.relax", std::string(100, 'x') + "\n");
  std::vector<ir::Diagnostic> diags;
  auto add = [&](ir::Severity s, uint32_t file, uint32_t pos) {
    ir::Diagnostic d;
    d.severity = s;
    d.code = s == ir::Severity::kError ? "E0201" : "W1001";
    d.span = at(file, pos, pos + 1);
    d.message = "m" + std::to_string(pos);
    diags.push_back(d);
  };
  for (uint32_t i = 0; i < 6; ++i) add(ir::Severity::kWarning, a, i);
  add(ir::Severity::kError, a, 50);
  add(ir::Severity::kNote, a, 60);
  for (uint32_t i = 0; i < 2; ++i) add(ir::Severity::kWarning, b, i);
  analysis::TerminalStyle style;
  style.max_warnings = 2;
  std::string out = analysis::render_terminal(diags, style);
  CHECK(out.find("warning[W1001]: m1\n") != std::string::npos);
  CHECK(out.find("warning[W1001]: m2\n") == std::string::npos);
  CHECK(out.find("error[E0201]: m50\n") != std::string::npos);  // errors are not capped here
  CHECK(out.find("a.relax: 4 more warnings and 1 more note not shown [--max-errors=2]\n") !=
        std::string::npos);
  CHECK(out.find("b.relax:1:2: warning[W1001]: m1\n") != std::string::npos);
  CHECK(out.find("b.relax: ") == std::string::npos);
  // The summary counts everything, shown or not.
  CHECK(out.substr(out.rfind('\n', out.size() - 2) + 1) == "1 error and 8 warnings generated.\n");
}

TEST_CASE("machine-readable ranges on a long line: checkpoints count as a full scan does") {
  // Mixed one- and two-byte characters, so that checkpoints fall inside sequences too.
  std::string line;
  for (int i = 0; i < 3000; ++i) line += i % 3 ? "a" : "\xC3\xA9";
  uint32_t file = ir::SourceManager::global().add("ranges.relax", "# first\n" + line + "\n");
  analysis::SourceRanges ranges;
  for (uint32_t col : {0u, 1u, 2u, 1023u, 1024u, 1025u, 2047u, 2048u, 3000u, 3999u}) {
    INFO(col);
    uint32_t naive = 0;
    for (uint32_t i = 0; i < col; ++i)
      naive += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
    ir::Span span{file, 8 + col, 8 + static_cast<uint32_t>(line.size())};
    analysis::SourceRange r = ranges(span);
    CHECK(r.line == 2);
    CHECK(r.column == naive + 1);
    CHECK(r.end_column == 3000 + 1);
    CHECK(analysis::source_range(span).column == r.column);
  }
}

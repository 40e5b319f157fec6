// Every diagnostic code the sources can report is documented: the string literals of ir/,
// syntax/, analysis/, compiler/ and cli/ that are a code ("E0201", "W1001") must have an entry in
// docs/diagnostics.md or docs/diagnostics/*.md (a `### CODE: title` heading, or a table row or
// list item that starts with the code). The examples of docs/diagnostics.md must report their
// code, and the lint rule table must match the registry.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "analysis/check.h"
#include "analysis/diagnostics/catalog.h"
#include "analysis/lint/lint.h"
#include "tests/support/test_util.h"

namespace fs = std::filesystem;
using namespace relax;

namespace {

struct Literal {
  std::string text;
  size_t line;
};

// The string literals of a C++ source (comments, character literals and raw strings handled).
std::vector<Literal> string_literals(const std::string& src) {
  std::vector<Literal> out;
  size_t line = 1;
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (c == '\n') {
      ++line;
      continue;
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      while (i < src.size() && src[i] != '\n') ++i;
      --i;
      continue;
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      size_t end = src.find("*/", i + 2);
      if (end == std::string::npos) break;
      line += static_cast<size_t>(std::count(src.begin() + static_cast<long>(i),
                                             src.begin() + static_cast<long>(end), '\n'));
      i = end + 1;
      continue;
    }
    if (c == '\'') {
      // A character literal, or a digit separator (1'000) that has a digit before it.
      if (i > 0 && std::isalnum(static_cast<unsigned char>(src[i - 1]))) continue;
      for (++i; i < src.size() && src[i] != '\''; ++i) {
        if (src[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '"') {
      bool raw = i > 0 && src[i - 1] == 'R';
      if (raw) {
        size_t open = src.find('(', i);
        std::string delim = ")" + src.substr(i + 1, open - i - 1) + "\"";
        size_t end = src.find(delim, open);
        if (end == std::string::npos) break;
        std::string text = src.substr(open + 1, end - open - 1);
        out.push_back({text, line});
        line += static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
        i = end + delim.size() - 1;
        continue;
      }
      std::string text;
      for (++i; i < src.size() && src[i] != '"'; ++i) {
        if (src[i] == '\\' && i + 1 < src.size()) {
          text.push_back(src[i]);
          ++i;
        }
        text.push_back(src[i]);
      }
      out.push_back({text, line});
    }
  }
  return out;
}

// code -> "file:line" of its first use.
std::map<std::string, std::string> codes_in_sources() {
  std::map<std::string, std::string> codes;
  fs::path root = test::source_dir();
  for (const char* dir : {"ir", "syntax", "analysis", "compiler", "cli"}) {
    for (const char* ext : {".h", ".cc"}) {
      for (const auto& path : test::list_files(root / dir, ext)) {
        for (const auto& lit : string_literals(test::read_file(path))) {
          if (!analysis::is_diagnostic_code(lit.text)) continue;
          codes.emplace(lit.text,
                        fs::relative(path, root).string() + ":" + std::to_string(lit.line));
        }
      }
    }
  }
  return codes;
}

std::vector<fs::path> doc_pages() {
  fs::path docs = test::source_dir() / "docs";
  std::vector<fs::path> pages;
  if (fs::exists(docs / "diagnostics.md")) pages.push_back(docs / "diagnostics.md");
  if (fs::exists(docs / "diagnostics")) {
    for (const auto& p : test::list_files(docs / "diagnostics", ".md")) pages.push_back(p);
  }
  return pages;
}

// Codes a page documents: headings (the catalogue's form), and table rows or list items that
// start with the code (`| E0301 |`, `- **E0301**: ...`).
std::set<std::string> documented_codes(const std::string& text, const std::string& page) {
  std::set<std::string> codes;
  for (const auto& d : analysis::parse_code_docs(text, page)) codes.insert(d.code);
  static const std::regex row(R"(^\s*(?:\||[-*])\s*(?:\*\*|`)?([EW][0-9]{4})(?:\*\*|`)?\b)");
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    std::smatch m;
    if (std::regex_search(line, m, row)) codes.insert(m[1]);
    start = nl + 1;
  }
  return codes;
}

std::set<std::string> all_documented_codes() {
  std::set<std::string> codes;
  for (const auto& page : doc_pages()) {
    auto more = documented_codes(test::read_file(page), page.filename().string());
    codes.insert(more.begin(), more.end());
  }
  return codes;
}

}  // namespace

TEST_CASE("the source scanner finds codes in string literals only") {
  auto lits = string_literals(
      "// \"E0001\" in a comment\n"
      "/* \"E0002\"\n */ f(\"E0003\", 'x', '\"', 1'000);\n"
      "g(R\"doc(\"E0004\" )\")doc\", \"a \\\"E0005\\\" b\");\n");
  std::vector<std::string> texts;
  for (const auto& l : lits) texts.push_back(l.text);
  REQUIRE(texts.size() == 3);
  CHECK(texts[0] == "E0003");
  CHECK(lits[0].line == 3);
  CHECK(texts[1] == "\"E0004\" )\"");
  CHECK(lits[1].line == 4);
  CHECK(texts[2] == "a \\\"E0005\\\" b");
}

TEST_CASE("every diagnostic code in the sources is documented") {
  auto used = codes_in_sources();
  REQUIRE(used.size() > 50);
  REQUIRE(used.count("E0201"));
  REQUIRE(used.count("W1001"));
  auto documented = all_documented_codes();
  std::vector<std::string> missing;
  for (const auto& [code, where] : used) {
    if (!documented.count(code)) missing.push_back(code + " (" + where + ")");
  }
  INFO("document each code in docs/diagnostics.md or docs/diagnostics/*.md as `### CODE: title`");
  for (const auto& m : missing) UNSCOPED_INFO("undocumented: " << m);
  CHECK(missing.empty());
}

TEST_CASE("docs/diagnostics.md documents no code the sources do not use") {
  auto used = codes_in_sources();
  fs::path page = test::source_dir() / "docs" / "diagnostics.md";
  REQUIRE(fs::exists(page));
  for (const auto& d : analysis::parse_code_docs(test::read_file(page), "docs/diagnostics.md")) {
    if (d.from_table) continue;  // the lint rule table repeats the headings' codes
    INFO(d.code);
    CHECK(used.count(d.code));
    CHECK_FALSE(d.title.empty());
    CHECK_FALSE(d.summary.empty());
    CHECK_FALSE(d.fix.empty());
  }
}

TEST_CASE("each example in docs/diagnostics.md reports its code") {
  std::string text = test::read_file(test::source_dir() / "docs" / "diagnostics.md");
  analysis::CheckOptions options;
  options.rules.select = {"ALL"};
  size_t examples = 0;
  static const std::regex heading(R"(^### ([EW][0-9]{4}):)");
  size_t pos = 0;
  while ((pos = text.find("\n### ", pos)) != std::string::npos) {
    ++pos;
    size_t end = text.find("\n### ", pos);
    std::string section =
        text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    std::smatch m;
    if (!std::regex_search(section, m, heading)) continue;
    std::string code = m[1];
    size_t open = section.find("```relax\n");
    INFO(code);
    REQUIRE(open != std::string::npos);
    size_t body = open + 9;
    size_t close = section.find("```", body);
    REQUIRE(close != std::string::npos);
    // E0001 needs the error limit: its example is checked with --max-errors 1, as it says.
    analysis::CheckOptions these = options;
    if (code == "E0001") these.max_errors = 1;
    auto result = analysis::check_text(section.substr(body, close - body), code + ".relax", these);
    std::vector<std::string> got;
    for (const auto& d : result.diagnostics) got.push_back(d.code + ": " + d.message);
    INFO("reported: " << got.size());
    for (const auto& g : got) UNSCOPED_INFO(g);
    CHECK(std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                      [&](const ir::Diagnostic& d) { return d.code == code; }));
    ++examples;
  }
  CHECK(examples > 80);
}

TEST_CASE("the lint rule table matches the registry") {
  std::string text = test::read_file(test::source_dir() / "docs" / "diagnostics.md");
  for (const auto& rule : analysis::lint::LintRegistry::global().rules()) {
    INFO(rule.code);
    std::string row =
        "| " + rule.code + " | " + rule.name + " | " + (rule.default_on ? "on" : "off");
    CHECK(text.find(row) != std::string::npos);
    std::string intro = "`" + rule.name + "`, " + (rule.default_on ? "on" : "off") + " by default";
    CHECK(text.find(intro) != std::string::npos);
    // The embedded catalogue (what SARIF and hovers show) has the rule.
    const analysis::CodeDoc* doc = analysis::find_code_doc(rule.code);
    REQUIRE(doc != nullptr);
    CHECK_FALSE(doc->fix.empty());
  }
}

namespace {

// The anchors of a Markdown page's headings (outside code blocks), as GitHub numbers them.
std::set<std::string> page_anchors(const fs::path& page) {
  std::set<std::string> out;
  analysis::HeadingAnchors anchors;
  bool fence = false;
  std::string text = test::read_file(page);
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    start = nl + 1;
    if (line.rfind("```", 0) == 0) fence = !fence;
    if (fence || line.empty() || line[0] != '#') continue;
    size_t level = line.find_first_not_of('#');
    if (level == std::string::npos || line[level] != ' ') continue;
    out.insert(anchors.add(line.substr(level)));
  }
  return out;
}

}  // namespace

TEST_CASE("every link to a heading in the docs names an anchor GitHub renders") {
  fs::path root = test::source_dir();
  std::vector<fs::path> pages = doc_pages();
  for (const auto& p : test::list_files(root / "docs", ".md")) {
    if (std::find(pages.begin(), pages.end(), p) == pages.end()) pages.push_back(p);
  }
  pages.push_back(root / "README.md");
  static const std::regex link(R"(\]\(([^)\s#]*)#([^)\s]+)\))");
  size_t checked = 0;
  for (const auto& page : pages) {
    std::string text = test::read_file(page);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link);
         it != std::sregex_iterator(); ++it) {
      std::string target = (*it)[1], anchor = (*it)[2];
      if (target.find("://") != std::string::npos) continue;
      fs::path linked = target.empty() ? page : (page.parent_path() / target).lexically_normal();
      INFO(fs::relative(page, root).string() << ": " << target << "#" << anchor);
      REQUIRE(fs::exists(linked));
      CHECK(page_anchors(linked).count(anchor));
      ++checked;
    }
  }
  CHECK(checked > 10);
}

TEST_CASE("every docs link in the sources' messages names an anchor GitHub renders") {
  fs::path root = test::source_dir();
  static const std::regex link(R"((docs/[A-Za-z0-9_/.-]+\.md)#([a-z0-9_-]+))");
  size_t checked = 0;
  for (const char* dir : {"ir", "syntax", "analysis", "compiler", "cli"}) {
    for (const char* ext : {".h", ".cc"}) {
      for (const auto& path : test::list_files(root / dir, ext)) {
        for (const auto& lit : string_literals(test::read_file(path))) {
          for (auto it = std::sregex_iterator(lit.text.begin(), lit.text.end(), link);
               it != std::sregex_iterator(); ++it) {
            INFO(fs::relative(path, root).string() << ":" << lit.line << ": " << (*it)[0]);
            REQUIRE(fs::exists(root / std::string((*it)[1])));
            CHECK(page_anchors(root / std::string((*it)[1])).count((*it)[2]));
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked >= 2);
}

TEST_CASE("the catalogue's anchor and text of every code match its page") {
  fs::path root = test::source_dir();
  for (const analysis::CodeDoc& doc : analysis::all_code_docs()) {
    INFO(doc.code << " " << doc.page << "#" << doc.anchor);
    REQUIRE(fs::exists(root / doc.page));
    CHECK(page_anchors(root / doc.page).count(doc.anchor));
    std::string page = test::read_file(root / doc.page);
    // The text `relax explain` prints is on the page as it is, up to its table's rows.
    if (doc.from_table) {
      CHECK(doc.text.rfind("| ", 0) == 0);
      size_t row = doc.text.rfind("\n| " + doc.code);
      REQUIRE(row != std::string::npos);
      CHECK(page.find(doc.text.substr(row + 1)) != std::string::npos);
    } else {
      CHECK(doc.text.rfind("#", 0) == 0);
      CHECK(doc.text.find(doc.code) < doc.text.find('\n'));
      CHECK(page.find(doc.text) != std::string::npos);
      // The anchor is the heading's, code first (SARIF helpUri links to it).
      CHECK(doc.anchor.rfind(
                std::string(1, static_cast<char>(std::tolower(doc.code[0]))) + doc.code.substr(1),
                0) == 0);
    }
  }
}

TEST_CASE("the control-flow examples of docs/text-format.md check clean") {
  std::string text = test::read_file(test::source_dir() / "docs" / "text-format.md");
  size_t start = text.find("## Control flow");
  REQUIRE(start != std::string::npos);
  size_t examples = 0;
  for (size_t open = text.find("```python\n", start); open != std::string::npos;
       open = text.find("```python\n", open + 1)) {
    size_t body = open + 10;
    size_t close = text.find("```", body);
    REQUIRE(close != std::string::npos);
    auto result = analysis::check_text(text.substr(body, close - body), "example.relax");
    for (const auto& d : result.diagnostics) UNSCOPED_INFO(d.code << ": " << d.message);
    CHECK(result.diagnostics.empty());
    ++examples;
  }
  CHECK(examples == 2);
}

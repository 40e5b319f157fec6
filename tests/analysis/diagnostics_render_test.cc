// The machine-readable renderers: JSON (every field, 1-based character columns, exclusive end),
// SARIF 2.1.0 (the structure the schema requires, field by field, checked with nlohmann::json),
// GitHub annotations (GitHub's escaping), and the code catalogue read from Markdown.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/diagnostics/catalog.h"
#include "analysis/diagnostics/github.h"
#include "analysis/diagnostics/json.h"
#include "analysis/diagnostics/sarif.h"
#include "analysis/diagnostics/source_range.h"
#include "ir/source.h"

using namespace relax;
using nlohmann::json;

namespace {

// "é" is two bytes and one character: columns after it differ between bytes and characters.
const char* kText =
    "@R.function\n"
    "def f(x: R.Tensor((4,), \"é32\")):\n"
    "    y = R.add(x, x)\n"
    "    return y\n";

struct Fixture {
  uint32_t file;
  std::vector<ir::Diagnostic> diags;

  Fixture() {
    std::string text = kText;
    file = ir::SourceManager::global().add("models/my model.relax", text);
    auto at = [&](const std::string& needle) { return static_cast<uint32_t>(text.find(needle)); };
    uint32_t dtype = at("\"\xC3\xA9");   // the string "é32", 6 bytes, 5 characters
    uint32_t param = at("x: R.Tensor");  // `x` in the signature
    uint32_t y = at("y = ");             // line 3, column 5
    uint32_t line3 = y - 4, line4 = at("    return");
    ir::DiagnosticBag bag;
    bag.error("E0217", ir::Span{file, dtype, dtype + 6}, "unknown dtype \"é32\"")
        .label(ir::Span{file, param, param + 1}, "the parameter is declared here")
        .note("dtypes are float32, int64, ...");
    bag.warning("W1001", ir::Span{file, y, y + 1}, "`y` is bound but never used")
        .with_fix("remove the unused binding", ir::Span{file, line3, line4}, "");
    bag.report(ir::Severity::kNote, "W1013", ir::Span{file, 0, 11}, "a note: 100% \"quoted\"");
    diags = bag.items();
  }
};

}  // namespace

TEST_CASE("source ranges are 1-based, in characters, with an exclusive end") {
  Fixture f;
  auto r = analysis::source_range(f.diags[0].span);
  CHECK(r.known);
  CHECK(r.file == "models/my model.relax");
  CHECK(r.line == 2);
  CHECK(r.column == 25);  // 24 ASCII characters before it
  CHECK(r.end_line == 2);
  CHECK(r.end_column == 30);  // 6 bytes, 5 characters: 25 + 5
  auto unknown = analysis::source_range(ir::Span::unknown());
  CHECK_FALSE(unknown.known);
  CHECK(unknown.file == "<unknown>");
  CHECK(unknown.line == 1);
  CHECK(unknown.column == 1);
}

TEST_CASE("JSON: one array, every field") {
  Fixture f;
  std::string out = analysis::render_json(f.diags);
  REQUIRE(out.back() == '\n');
  json j = json::parse(out);
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 3);

  const json& e = j[0];
  CHECK(e["file"] == "models/my model.relax");
  CHECK(e["line"] == 2);
  CHECK(e["column"] == 25);
  CHECK(e["end_line"] == 2);
  CHECK(e["end_column"] == 30);
  CHECK(e["severity"] == "error");
  CHECK(e["code"] == "E0217");
  CHECK(e["message"] == "unknown dtype \"é32\"");
  REQUIRE(e["labels"].size() == 1);
  CHECK(e["labels"][0]["file"] == "models/my model.relax");
  CHECK(e["labels"][0]["line"] == 2);
  CHECK(e["labels"][0]["column"] == 7);
  CHECK(e["labels"][0]["end_line"] == 2);
  CHECK(e["labels"][0]["end_column"] == 8);
  CHECK(e["labels"][0]["message"] == "the parameter is declared here");
  CHECK(e["notes"] == json::array({"dtypes are float32, int64, ..."}));
  CHECK(e["fix"].is_null());

  const json& w = j[1];
  CHECK(w["severity"] == "warning");
  CHECK(w["code"] == "W1001");
  CHECK(w["line"] == 3);
  CHECK(w["column"] == 5);
  CHECK(w["end_column"] == 6);
  CHECK(w["labels"].empty());
  CHECK(w["notes"].empty());
  REQUIRE(w["fix"].is_object());
  CHECK(w["fix"]["title"] == "remove the unused binding");
  CHECK(w["fix"]["file"] == "models/my model.relax");
  CHECK(w["fix"]["line"] == 3);
  CHECK(w["fix"]["column"] == 1);
  CHECK(w["fix"]["end_line"] == 4);
  CHECK(w["fix"]["end_column"] == 1);
  CHECK(w["fix"]["replacement"] == "");

  CHECK(j[2]["severity"] == "note");
  CHECK(j[2]["message"] == "a note: 100% \"quoted\"");
  // Keys keep a fixed order, location first.
  CHECK(out.find("\"file\"") < out.find("\"severity\""));
  CHECK(analysis::render_json({}) == "[]\n");
}

TEST_CASE("SARIF: the structure SARIF 2.1.0 requires, field by field") {
  Fixture f;
  analysis::SarifOptions options;
  options.tool_version = "1.2.3";
  options.rule_names = {{"W1001", "unused-binding"}};
  options.source_root_uri = "file:///work/repo/";
  json log = json::parse(analysis::render_sarif(f.diags, options));

  // sarifLog: $schema, version, runs (required: version, runs).
  CHECK(log["$schema"].get<std::string>().find("sarif-schema-2.1.0.json") != std::string::npos);
  CHECK(log["version"] == "2.1.0");
  REQUIRE(log["runs"].is_array());
  REQUIRE(log["runs"].size() == 1);
  const json& run = log["runs"][0];

  // run.tool.driver (required: tool; tool requires driver; toolComponent requires name).
  const json& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "relax");
  CHECK(driver["version"] == "1.2.3");
  CHECK(driver["semanticVersion"] == "1.2.3");
  CHECK(driver["informationUri"].get<std::string>().rfind("https://", 0) == 0);
  CHECK(run["columnKind"] == "unicodeCodePoints");
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file:///work/repo/");
  REQUIRE(run["invocations"].size() == 1);
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
  CHECK_FALSE(run["invocations"][0].contains("toolExecutionNotifications"));

  // rules: one reportingDescriptor per reported code, sorted; each requires an id, and its
  // multiformatMessageStrings require text.
  const json& rules = driver["rules"];
  REQUIRE(rules.size() == 3);
  CHECK(rules[0]["id"] == "E0217");
  CHECK(rules[1]["id"] == "W1001");
  CHECK(rules[2]["id"] == "W1013");
  for (const json& rule : rules) {
    INFO(rule.dump());
    CHECK_FALSE(rule["shortDescription"]["text"].get<std::string>().empty());
    CHECK_FALSE(rule["fullDescription"]["text"].get<std::string>().empty());
    CHECK_FALSE(rule["help"]["text"].get<std::string>().empty());
    CHECK_FALSE(rule["help"]["markdown"].get<std::string>().empty());
    std::string help_uri = rule["helpUri"];
    CHECK(help_uri.rfind(analysis::kRelaxDocsBaseUri, 0) == 0);
    CHECK(help_uri.find("docs/diagnostics") != std::string::npos);
  }
  CHECK(rules[0]["defaultConfiguration"]["level"] == "error");
  CHECK(rules[1]["defaultConfiguration"]["level"] == "warning");
  CHECK(rules[2]["defaultConfiguration"]["level"] == "note");
  CHECK(rules[1]["name"] == "unused-binding");
  CHECK_FALSE(rules[0].contains("name"));
  // Rule text comes from the docs (when the embedded catalogue documents the code).
  if (const analysis::CodeDoc* doc = analysis::find_code_doc("W1001")) {
    CHECK(rules[1]["shortDescription"]["text"] == doc->title);
    CHECK(rules[1]["fullDescription"]["text"] == doc->summary);
    CHECK(rules[1]["help"]["text"] == doc->fix);
    CHECK(rules[1]["helpUri"] ==
          std::string(analysis::kRelaxDocsBaseUri) + doc->page + "#" + doc->anchor);
  }

  // results: ruleId/ruleIndex, level, message.text, locations with a physical location.
  const json& results = run["results"];
  REQUIRE(results.size() == 3);
  const json& r0 = results[0];
  CHECK(r0["ruleId"] == "E0217");
  CHECK(r0["ruleIndex"] == 0);
  CHECK(rules[r0["ruleIndex"].get<size_t>()]["id"] == r0["ruleId"]);
  CHECK(r0["level"] == "error");
  CHECK(r0["message"]["text"] == "unknown dtype \"é32\"\nnote: dtypes are float32, int64, ...");
  REQUIRE(r0["locations"].size() == 1);
  const json& pl = r0["locations"][0]["physicalLocation"];
  CHECK(pl["artifactLocation"]["uri"] == "models/my%20model.relax");
  CHECK(pl["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(pl["region"]["startLine"] == 2);
  CHECK(pl["region"]["startColumn"] == 25);
  CHECK(pl["region"]["endLine"] == 2);
  CHECK(pl["region"]["endColumn"] == 30);
  // Labels become related locations (id, message, physical location).
  REQUIRE(r0["relatedLocations"].size() == 1);
  CHECK(r0["relatedLocations"][0]["id"] == 1);
  CHECK(r0["relatedLocations"][0]["message"]["text"] == "the parameter is declared here");
  CHECK(r0["relatedLocations"][0]["physicalLocation"]["region"]["startColumn"] == 7);
  CHECK(r0["relatedLocations"][0]["physicalLocation"]["region"]["endColumn"] == 8);
  CHECK_FALSE(r0.contains("fixes"));

  const json& r1 = results[1];
  CHECK(r1["ruleId"] == "W1001");
  CHECK(r1["ruleIndex"] == 1);
  CHECK(r1["level"] == "warning");
  CHECK_FALSE(r1.contains("relatedLocations"));
  // fix requires artifactChanges; artifactChange requires artifactLocation and replacements;
  // replacement requires deletedRegion.
  REQUIRE(r1["fixes"].size() == 1);
  const json& fix = r1["fixes"][0];
  CHECK(fix["description"]["text"] == "remove the unused binding");
  REQUIRE(fix["artifactChanges"].size() == 1);
  CHECK(fix["artifactChanges"][0]["artifactLocation"]["uri"] == "models/my%20model.relax");
  const json& repl = fix["artifactChanges"][0]["replacements"][0];
  CHECK(repl["deletedRegion"]["startLine"] == 3);
  CHECK(repl["deletedRegion"]["startColumn"] == 1);
  CHECK(repl["deletedRegion"]["endLine"] == 4);
  CHECK(repl["deletedRegion"]["endColumn"] == 1);
  CHECK(repl["insertedContent"]["text"] == "");

  CHECK(results[2]["level"] == "note");
  CHECK(results[2]["ruleIndex"] == 2);
}

TEST_CASE("SARIF: an empty run and execution errors") {
  analysis::SarifOptions options;
  options.execution_errors = {"cannot open 'missing.relax': No such file or directory"};
  json log = json::parse(analysis::render_sarif({}, options));
  const json& run = log["runs"][0];
  CHECK(run["results"].is_array());
  CHECK(run["results"].empty());
  CHECK(run["tool"]["driver"]["rules"].empty());
  CHECK_FALSE(run["tool"]["driver"].contains("version"));
  CHECK_FALSE(run.contains("originalUriBaseIds"));
  const json& inv = run["invocations"][0];
  CHECK(inv["executionSuccessful"] == false);
  REQUIRE(inv["toolExecutionNotifications"].size() == 1);
  CHECK(inv["toolExecutionNotifications"][0]["level"] == "error");
  CHECK(inv["toolExecutionNotifications"][0]["message"]["text"] ==
        "cannot open 'missing.relax': No such file or directory");
}

TEST_CASE("SARIF: paths as URIs") {
  CHECK(analysis::path_to_uri("a/b.relax") == "a/b.relax");
  CHECK(analysis::path_to_uri("./a/b.relax") == "a/b.relax");
  CHECK(analysis::path_to_uri("/abs/dir/x y.relax") == "file:///abs/dir/x%20y.relax");
  CHECK(analysis::path_to_uri("<stdin>") == "%3Cstdin%3E");
  CHECK(analysis::path_to_uri("100%.relax") == "100%25.relax");
  CHECK(analysis::path_to_uri("é.relax") == "%C3%A9.relax");
}

TEST_CASE("GitHub annotations: one command per diagnostic") {
  Fixture f;
  std::string out = analysis::render_github(f.diags);
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl = out.find('\n'); nl != std::string::npos; nl = out.find('\n', start)) {
    lines.push_back(out.substr(start, nl - start));
    start = nl + 1;
  }
  CHECK(start == out.size());
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] ==
        "::error file=models/my model.relax,line=2,col=25,endLine=2,endColumn=30,title=E0217::"
        "unknown dtype \"é32\"%0Amodels/my model.relax:2:7: the parameter is declared here%0A"
        "note: dtypes are float32, int64, ...");
  CHECK(lines[1] ==
        "::warning file=models/my model.relax,line=3,col=5,endLine=3,endColumn=6,title=W1001::"
        "`y` is bound but never used%0Ahelp: remove the unused binding");
  CHECK(lines[2] ==
        "::notice file=models/my model.relax,line=1,col=1,endLine=1,endColumn=12,title=W1013::"
        "a note: 100%25 \"quoted\"");
  ir::Diagnostic nowhere;
  nowhere.code = "E0101";
  nowhere.message = "x";
  CHECK(analysis::render_github({nowhere}) == "::error title=E0101::x\n");
}

TEST_CASE("GitHub escaping of data and properties") {
  CHECK(analysis::github_escape_data("a%b\r\nc:d,e") == "a%25b%0D%0Ac:d,e");
  CHECK(analysis::github_escape_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce");
  CHECK(analysis::github_escape_property("C:\\dir,x/y.relax") == "C%3A\\dir%2Cx/y.relax");
  // A file name with ':' and ',' stays one property.
  uint32_t file = ir::SourceManager::global().add("odd:name,1.relax", "x\n");
  ir::Diagnostic d;
  d.code = "W1001";
  d.severity = ir::Severity::kWarning;
  d.span = ir::Span{file, 0, 1};
  d.message = "50% done: a, b";
  CHECK(analysis::render_github({d}) ==
        "::warning file=odd%3Aname%2C1.relax,line=1,col=1,endLine=1,endColumn=2,title=W1001::50%25 "
        "done: a, b\n");
}

TEST_CASE("catalogue: codes documented in Markdown") {
  const char* md =
      "# Title\n"
      "\n"
      "### E0101: syntax error\n"
      "\n"
      "A token appears where the grammar allows none:\n"
      "an unmatched `)`.\n"
      "\n"
      "```relax\n"
      "### E9999: not a heading inside a code block\n"
      "```\n"
      "\n"
      "**Fix:** remove the `token`.\n"
      "\n"
      "## `W1001` \xE2\x80\x94 unused binding\n"
      "\n"
      "| table | rows are not the summary |\n"
      "\n"
      "Bound and never used.\n"
      "\n"
      "How to fix: use it.\n"
      "\n"
      "### E0101: documented twice\n"
      "### E01011: not a code\n"
      "#### W0201 - metadata\n";
  auto docs = analysis::parse_code_docs(md, "docs/x.md");
  REQUIRE(docs.size() == 4);
  CHECK(docs[0].code == "E0101");
  CHECK(docs[0].title == "syntax error");
  CHECK(docs[0].summary == "A token appears where the grammar allows none: an unmatched ).");
  CHECK(docs[0].fix == "remove the token.");
  CHECK(docs[0].page == "docs/x.md");
  CHECK(docs[0].anchor == "e0101-syntax-error");
  CHECK(docs[1].code == "W1001");
  CHECK(docs[1].title == "unused binding");
  CHECK(docs[1].summary == "Bound and never used.");
  CHECK(docs[1].fix == "use it.");
  CHECK(docs[2].code == "E0101");
  CHECK(docs[3].code == "W0201");
  CHECK(docs[3].title == "metadata");
  CHECK(analysis::heading_anchor("W1005: redundant match_cast") == "w1005-redundant-match_cast");
  CHECK(analysis::heading_anchor("E0208: `/` on integers") == "e0208--on-integers");
  // GitHub drops punctuation beyond ASCII too: an em dash leaves its two spaces.
  CHECK(analysis::heading_anchor("E0700 \xE2\x80\x94 a thread binding on a CPU target") ==
        "e0700--a-thread-binding-on-a-cpu-target");
  CHECK(analysis::heading_anchor("Compiler diagnostics (E0700\xE2\x80\x93"
                                 "E0799)") == "compiler-diagnostics-e0700e0799");
  CHECK(analysis::heading_anchor("`W1001` \xE2\x80\x94 *unused* [binding](x.md#y)") ==
        "w1001--unused-binding");
  // Letters beyond ASCII stay, in lower case.
  CHECK(analysis::heading_anchor("\xC3\x89t\xC3\xA9 \xC2\xA7 1.9") == "\xC3\xA9t\xC3\xA9--19");
  // Repeated headings are numbered.
  analysis::HeadingAnchors anchors;
  CHECK(anchors.add("Example") == "example");
  CHECK(anchors.add("Example") == "example-1");
  CHECK(anchors.add("Example-1") == "example-1-1");
  CHECK(anchors.add("Example") == "example-2");
  CHECK(analysis::is_diagnostic_code("W1001"));
  CHECK_FALSE(analysis::is_diagnostic_code("X1001"));
  CHECK_FALSE(analysis::is_diagnostic_code("W100"));
}

TEST_CASE("catalogue: the embedded docs list the lint rules") {
  const analysis::CodeDoc* doc = analysis::find_code_doc("W1001");
  REQUIRE(doc != nullptr);
  CHECK(doc->page == "docs/diagnostics.md");
  CHECK(doc->title == "unused binding");
  CHECK_FALSE(doc->summary.empty());
  CHECK_FALSE(doc->fix.empty());
  CHECK(analysis::find_code_doc("E9999") == nullptr);
  const auto& all = analysis::all_code_docs();
  CHECK(std::is_sorted(
      all.begin(), all.end(),
      [](const analysis::CodeDoc& a, const analysis::CodeDoc& b) { return a.code < b.code; }));
}

// The catalogue of diagnostic codes, read from the documentation itself (docs/diagnostics.md
// and docs/diagnostics/*.md, embedded at build time): for each code its title, what it means
// and how to fix it, for SARIF rule descriptors, `relax check --statistics` and editor hovers.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace relax::analysis {

struct CodeDoc {
  std::string code;     // "E0101"
  std::string title;    // the heading after the code: "syntax error"
  std::string summary;  // the first paragraph under the heading: what the code means
  std::string fix;      // the paragraph that starts with "Fix:" (or "How to fix"), without it
  std::string page;     // "docs/diagnostics.md"
  std::string anchor;   // the heading's anchor on that page, as GitHub computes it
  // The documentation as written (Markdown): the code's section, heading included, or for a
  // code documented by a table row, the table's header and that row.
  std::string text;
  bool from_table = false;  // documented by a table row (its section's anchor is `anchor`)
};

// Reads the codes documented on one Markdown page: every heading (levels 2 to 4) that starts
// with a code (`### E0101: title`, `### `E0101` — title`), and every table row that starts with
// one (`| E0401 | meaning | fix |`). Codes documented twice keep the first; in the catalogue a
// heading wins over a table row.
std::vector<CodeDoc> parse_code_docs(std::string_view markdown, const std::string& page);

// The code's documentation from the embedded pages, or null when it is not documented.
const CodeDoc* find_code_doc(std::string_view code);
// Every documented code, sorted by code.
const std::vector<CodeDoc>& all_code_docs();

// GitHub's anchor for a heading (its Markdown text, without the leading #s): the rendered text
// (code marks, emphasis and link targets dropped) in lower case, with punctuation and symbols
// removed except `-` and `_`, and each space turned into `-`. Unicode letters and digits stay;
// punctuation and symbols outside ASCII are recognised by their Unicode blocks.
std::string heading_anchor(std::string_view heading);

// The anchors of a page's headings in order, as GitHub numbers repeats: `a`, `a-1`, `a-2`.
class HeadingAnchors {
 public:
  std::string add(std::string_view heading);

 private:
  std::unordered_map<std::string, size_t> seen_;  // anchor -> how often it was repeated
};

// True for a diagnostic code: an E or W followed by four digits.
bool is_diagnostic_code(std::string_view text);

}  // namespace relax::analysis

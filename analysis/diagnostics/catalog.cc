// Parsing of the embedded diagnostic documentation into per-code entries.
#include "analysis/diagnostics/catalog.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace relax::analysis {

namespace {

struct EmbeddedPage {
  const char* path;
  const char* text;
};

const EmbeddedPage kEmbeddedPages[] = {
#include "analysis/diagnostics/diagnostic_docs.inc"
    {nullptr, nullptr},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Markdown emphasis and code marks are dropped from plain-text descriptions.
std::string plain_text(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '`' || c == '*') continue;
    out.push_back(c);
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = nl + 1;
  }
  return lines;
}

// The heading level (number of leading '#'), 0 when the line is not a heading.
int heading_level(std::string_view line) {
  int level = 0;
  while (level < static_cast<int>(line.size()) && line[level] == '#') ++level;
  if (level == 0 || level >= static_cast<int>(line.size()) || line[level] != ' ') return 0;
  return level;
}

// Joins the lines of the paragraph starting at `i` (up to a blank line, heading or fence).
std::string paragraph(const std::vector<std::string_view>& lines, size_t i) {
  std::string out;
  for (; i < lines.size(); ++i) {
    std::string_view l = trim(lines[i]);
    if (l.empty() || heading_level(lines[i]) || l.substr(0, 3) == "```") break;
    if (!out.empty()) out.push_back(' ');
    out += l;
  }
  return out;
}

// The heading text from its code on (`E0101: title`, "E0101` — title"), or "" when the heading
// does not start with a code.
std::string_view code_of_heading(std::string_view line, int level) {
  std::string_view rest = trim(line.substr(static_cast<size_t>(level)));
  if (!rest.empty() && rest.front() == '`') rest.remove_prefix(1);
  if (rest.size() < 5 || !is_diagnostic_code(rest.substr(0, 5))) return {};
  if (rest.size() > 5 && std::isalnum(static_cast<unsigned char>(rest[5]))) return {};
  return rest;
}

}  // namespace

bool is_diagnostic_code(std::string_view text) {
  if (text.size() != 5 || (text[0] != 'E' && text[0] != 'W')) return false;
  return std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string heading_anchor(std::string_view heading) {
  std::string out;
  for (char c : heading) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || u >= 0x80)
      out.push_back(static_cast<char>(std::tolower(u)));
    else if (c == ' ')
      out.push_back('-');
  }
  return out;
}

std::vector<CodeDoc> parse_code_docs(std::string_view markdown, const std::string& page) {
  std::vector<CodeDoc> docs;
  std::vector<std::string_view> lines = split_lines(markdown);
  bool in_fence = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (trim(lines[i]).substr(0, 3) == "```") in_fence = !in_fence;
    int level = heading_level(lines[i]);
    if (in_fence || level < 2 || level > 4) continue;
    std::string_view rest = code_of_heading(lines[i], level);
    if (rest.empty()) continue;
    std::string_view heading = trim(lines[i].substr(static_cast<size_t>(level)));
    CodeDoc doc;
    doc.code = std::string(rest.substr(0, 5));
    rest.remove_prefix(5);
    if (!rest.empty() && rest.front() == '`') rest.remove_prefix(1);
    // The separator between the code and the title: ':', '-', an en or em dash.
    rest = trim(rest);
    for (std::string_view sep : {":", "\xE2\x80\x94", "\xE2\x80\x93", "-"}) {
      if (rest.substr(0, sep.size()) == sep) {
        rest = trim(rest.substr(sep.size()));
        break;
      }
    }
    doc.title = plain_text(rest);
    doc.page = page;
    doc.anchor = heading_anchor(heading);
    // The section runs to the next heading of the same or a higher level, or of another code.
    size_t end = i + 1;
    bool fence = false;
    for (; end < lines.size(); ++end) {
      if (trim(lines[end]).substr(0, 3) == "```") fence = !fence;
      int l = heading_level(lines[end]);
      if (!fence && l && (l <= level || !code_of_heading(lines[end], l).empty())) break;
    }
    fence = false;
    for (size_t j = i + 1; j < end; ++j) {
      std::string_view l = trim(lines[j]);
      if (l.substr(0, 3) == "```") {
        fence = !fence;
        continue;
      }
      if (fence || l.empty() || heading_level(lines[j])) continue;
      std::string text = paragraph(lines, j);
      std::string bare = plain_text(text);
      bool is_fix = false;
      for (std::string_view lead : {"Fix:", "How to fix:", "Fix.", "How to fix."}) {
        if (bare.substr(0, lead.size()) == lead) {
          bare = std::string(trim(std::string_view(bare).substr(lead.size())));
          is_fix = true;
          break;
        }
      }
      if (is_fix && doc.fix.empty())
        doc.fix = bare;
      else if (!is_fix && doc.summary.empty() && l.front() != '|')
        doc.summary = bare;
      // Skip the rest of this paragraph.
      while (j + 1 < end && !trim(lines[j + 1]).empty() && !heading_level(lines[j + 1]) &&
             trim(lines[j + 1]).substr(0, 3) != "```")
        ++j;
    }
    docs.push_back(std::move(doc));
    i = end - 1;
  }
  return docs;
}

const std::vector<CodeDoc>& all_code_docs() {
  static const std::vector<CodeDoc> docs = [] {
    std::vector<CodeDoc> out;
    for (const EmbeddedPage* p = kEmbeddedPages; p->path; ++p) {
      for (auto& d : parse_code_docs(p->text, p->path)) {
        bool seen =
            std::any_of(out.begin(), out.end(), [&](const CodeDoc& o) { return o.code == d.code; });
        if (!seen) out.push_back(std::move(d));
      }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const CodeDoc& a, const CodeDoc& b) { return a.code < b.code; });
    return out;
  }();
  return docs;
}

const CodeDoc* find_code_doc(std::string_view code) {
  static const std::unordered_map<std::string, const CodeDoc*> index = [] {
    std::unordered_map<std::string, const CodeDoc*> m;
    for (const auto& d : all_code_docs()) m.emplace(d.code, &d);
    return m;
  }();
  auto it = index.find(std::string(code));
  return it == index.end() ? nullptr : it->second;
}

}  // namespace relax::analysis

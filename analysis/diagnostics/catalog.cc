// Parsing of the embedded diagnostic documentation into per-code entries.
#include "analysis/diagnostics/catalog.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
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

namespace {

// The text GitHub renders for inline Markdown: code marks and emphasis dropped, links reduced
// to their text (`[text](url)` -> `text`).
std::string rendered_text(std::string_view md) {
  std::string out;
  for (size_t i = 0; i < md.size(); ++i) {
    char c = md[i];
    if (c == '`' || c == '*') continue;
    if (c == ']' && i + 1 < md.size() && md[i + 1] == '(') {
      size_t close = md.find(')', i + 2);
      if (close != std::string_view::npos) {
        i = close;
        continue;
      }
    }
    if (c == '[' && md.find("](", i) != std::string_view::npos) continue;
    out.push_back(c);
  }
  return out;
}

// Decodes one UTF-8 sequence at `i` (advancing it); an invalid byte reads as itself.
uint32_t next_code_point(std::string_view s, size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i++]);
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  uint32_t cp = extra == 3 ? c & 0x07 : extra == 2 ? c & 0x0F : extra == 1 ? c & 0x1F : c;
  for (int k = 0; k < extra && i < s.size(); ++k) {
    unsigned char d = static_cast<unsigned char>(s[i]);
    if ((d & 0xC0) != 0x80) break;
    cp = (cp << 6) | (d & 0x3F);
    ++i;
  }
  return cp;
}

// Punctuation and symbols beyond ASCII, by block (GitHub drops them from anchors): Latin-1's
// signs, general punctuation, currency, arrows to dingbats and misc symbols, supplemental and
// CJK punctuation, full-width signs, emoji. Letters, marks and digits in these ranges are few
// (superscript digits, fractions) and are kept.
bool is_unicode_punctuation(uint32_t cp) {
  if (cp >= 0xA0 && cp <= 0xBF)
    return cp != 0xAA && cp != 0xB2 && cp != 0xB3 && cp != 0xB5 && cp != 0xB9 && cp != 0xBA &&
           cp != 0xBC && cp != 0xBD && cp != 0xBE;
  if (cp == 0xD7 || cp == 0xF7) return true;
  if (cp >= 0x2000 && cp <= 0x206F) return cp != 0x203F && cp != 0x2040 && cp != 0x2054;
  if (cp >= 0x20A0 && cp <= 0x20CF) return true;
  if (cp >= 0x2190 && cp <= 0x2BFF) return true;
  if (cp >= 0x2E00 && cp <= 0x2E7F) return true;
  if (cp >= 0x3000 && cp <= 0x303F) return cp != 0x3005 && cp != 0x3006 && cp != 0x3007;
  if (cp >= 0xFE10 && cp <= 0xFE6F)
    return cp != 0xFE33 && cp != 0xFE34 && cp != 0xFE4D && cp != 0xFE4E && cp != 0xFE4F;
  if (cp >= 0xFF01 && cp <= 0xFF0F) return true;
  if ((cp >= 0xFF1A && cp <= 0xFF20) || (cp >= 0xFF3B && cp <= 0xFF40 && cp != 0xFF3F) ||
      (cp >= 0xFF5B && cp <= 0xFF65))
    return true;
  if (cp >= 0x1F000 && cp <= 0x1FAFF) return true;
  return false;
}

}  // namespace

std::string heading_anchor(std::string_view heading) {
  std::string text = rendered_text(trim(heading));
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t start = i;
    uint32_t cp = next_code_point(text, i);
    if (cp < 0x80) {
      char c = static_cast<char>(cp);
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')
        out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      else if (c == ' ')
        out.push_back('-');
      continue;
    }
    if (is_unicode_punctuation(cp)) continue;
    // Latin-1 capitals (À-Þ) lower-case by +0x20, as GitHub lower-cases every letter.
    if (cp >= 0xC0 && cp <= 0xDE) {
      cp += 0x20;
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
      continue;
    }
    out.append(text, start, i - start);
  }
  return out;
}

std::string HeadingAnchors::add(std::string_view heading) {
  std::string base = heading_anchor(heading);
  std::string anchor = base;
  while (seen_.count(anchor)) {
    size_t n = ++seen_[base];
    anchor = base + "-" + std::to_string(n);
  }
  seen_.emplace(anchor, 0);
  return anchor;
}

namespace {

// The cells of a table row (`| a | b |` -> {"a", "b"}), trimmed.
std::vector<std::string_view> table_cells(std::string_view row) {
  std::vector<std::string_view> cells;
  row = trim(row);
  if (row.empty() || row.front() != '|') return cells;
  row.remove_prefix(1);
  if (!row.empty() && row.back() == '|') row.remove_suffix(1);
  size_t start = 0;
  bool code = false;
  for (size_t i = 0; i <= row.size(); ++i) {
    if (i < row.size() && row[i] == '`') code = !code;
    if (i == row.size() || (row[i] == '|' && !code && (i == 0 || row[i - 1] != '\\'))) {
      cells.push_back(trim(row.substr(start, i - start)));
      start = i + 1;
    }
  }
  return cells;
}

// `| --- | :---: |`: the row under a table's header.
bool is_separator_row(std::string_view line) {
  std::vector<std::string_view> cells = table_cells(line);
  if (cells.empty()) return false;
  for (std::string_view c : cells) {
    if (c.empty() || c.find_first_not_of("-: ") != std::string_view::npos) return false;
  }
  return true;
}

std::string_view bare_code(std::string_view cell) {
  while (!cell.empty() && (cell.front() == '`' || cell.front() == '*')) cell.remove_prefix(1);
  while (!cell.empty() && (cell.back() == '`' || cell.back() == '*')) cell.remove_suffix(1);
  return cell;
}

std::string join_lines(const std::vector<std::string_view>& lines, size_t begin, size_t end) {
  while (end > begin && trim(lines[end - 1]).empty()) --end;
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    out += lines[i];
    out.push_back('\n');
  }
  return out;
}

}  // namespace

std::vector<CodeDoc> parse_code_docs(std::string_view markdown, const std::string& page) {
  std::vector<CodeDoc> docs;
  std::vector<std::string_view> lines = split_lines(markdown);
  HeadingAnchors anchors;
  // Heading anchors by line, computed once over the page (repeats are numbered in page order).
  std::vector<std::string> anchor_at(lines.size());
  {
    bool fence = false;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (trim(lines[i]).substr(0, 3) == "```") fence = !fence;
      int level = heading_level(lines[i]);
      if (!fence && level) anchor_at[i] = anchors.add(lines[i].substr(static_cast<size_t>(level)));
    }
  }
  bool in_fence = false;
  std::string section_anchor;  // the anchor of the heading above (for table rows)
  std::vector<std::string_view> table_header;
  size_t table_start = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (trim(lines[i]).substr(0, 3) == "```") in_fence = !in_fence;
    if (in_fence) continue;
    int level = heading_level(lines[i]);
    if (level) section_anchor = anchor_at[i];
    // Table rows: the header is the row above a `| --- |` separator.
    std::vector<std::string_view> cells = table_cells(lines[i]);
    if (cells.empty()) {
      table_header.clear();
    } else if (table_header.empty() && i + 1 < lines.size() && is_separator_row(lines[i + 1])) {
      table_header = cells;
      table_start = i;
    } else if (!table_header.empty() && is_diagnostic_code(bare_code(cells[0]))) {
      CodeDoc doc;
      doc.code = std::string(bare_code(cells[0]));
      doc.from_table = true;
      if (cells.size() > 1) doc.title = doc.summary = plain_text(cells[1]);
      if (cells.size() > 2 && table_header.size() > 2 &&
          plain_text(table_header[2]).find("Fix") != std::string::npos)
        doc.fix = plain_text(cells[2]);
      doc.page = page;
      doc.anchor = section_anchor;
      doc.text = join_lines(lines, table_start, table_start + 2) + std::string(lines[i]) + "\n";
      docs.push_back(std::move(doc));
    }
    if (level < 2 || level > 4) continue;
    std::string_view rest = code_of_heading(lines[i], level);
    if (rest.empty()) continue;
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
    doc.anchor = anchor_at[i];
    // The section runs to the next heading of the same or a higher level, or of another code.
    size_t end = i + 1;
    bool fence = false;
    for (; end < lines.size(); ++end) {
      if (trim(lines[end]).substr(0, 3) == "```") fence = !fence;
      int l = heading_level(lines[end]);
      if (!fence && l && (l <= level || !code_of_heading(lines[end], l).empty())) break;
    }
    doc.text = join_lines(lines, i, end);
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
  }
  return docs;
}

const std::vector<CodeDoc>& all_code_docs() {
  static const std::vector<CodeDoc> docs = [] {
    std::vector<CodeDoc> out;
    // Headings first, then table rows for the codes no heading documents.
    for (bool tables : {false, true}) {
      for (const EmbeddedPage* p = kEmbeddedPages; p->path; ++p) {
        for (auto& d : parse_code_docs(p->text, p->path)) {
          if (d.from_table != tables) continue;
          bool seen = std::any_of(out.begin(), out.end(),
                                  [&](const CodeDoc& o) { return o.code == d.code; });
          if (!seen) out.push_back(std::move(d));
        }
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

// String and number literal normalization.
#include "syntax/format/literals.h"

#include <cctype>

namespace relax::syntax::format {

StringParts split_string(std::string_view literal) {
  StringParts p;
  size_t q = 0;
  while (q < literal.size() && literal[q] != '"' && literal[q] != '\'') ++q;
  p.prefix = literal.substr(0, q);
  for (char c : p.prefix) {
    if (c == 'r' || c == 'R') p.raw = true;
    if (c == 'b' || c == 'B') p.bytes = true;
  }
  if (q >= literal.size()) return p;
  char qc = literal[q];
  bool triple = literal.size() >= q + 6 && literal[q + 1] == qc && literal[q + 2] == qc;
  size_t qlen = triple ? 3 : 1;
  p.quote = literal.substr(q, qlen);
  if (literal.size() >= q + 2 * qlen)
    p.body = literal.substr(q + qlen, literal.size() - q - 2 * qlen);
  return p;
}

namespace {

std::string normalize_prefix(std::string_view prefix) {
  // Canonical order: the raw marker first (keeping its case), then b/f/t in lower case; `u` goes.
  std::string raw, rest;
  for (char c : prefix) {
    if (c == 'r' || c == 'R') {
      raw.push_back(c);
    } else if (c == 'u' || c == 'U') {
      continue;
    } else {
      rest.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return raw + rest;
}

// Which quote to use: double unless the body needs it to stay (ruff's QuoteMetadata).
char choose_quote(const StringParts& p) {
  constexpr char kPreferred = '"';
  char current = p.quote.empty() ? '"' : p.quote[0];
  std::string_view body = p.body;
  if (p.triple()) {
    bool uses_triple = false;
    for (size_t i = 0; i < body.size(); ++i) {
      char c = body[i];
      if (c == '\\') {
        if (i + 1 < body.size() && (body[i + 1] == '"' || body[i + 1] == '\\')) ++i;
        continue;
      }
      if (c != kPreferred) continue;
      if (i + 1 >= body.size()) {
        uses_triple = true;
        break;
      }
      if (body[i + 1] == kPreferred) {
        ++i;
        if (i + 1 >= body.size() || body[i + 1] == kPreferred) {
          uses_triple = true;
          break;
        }
      }
    }
    return uses_triple ? current : kPreferred;
  }
  if (p.raw) {
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\\') {
        ++i;
        continue;
      }
      if (body[i] == kPreferred) return current;
    }
    return kPreferred;
  }
  size_t singles = 0, doubles = 0;
  for (char c : body) {
    if (c == '\'') ++singles;
    if (c == '"') ++doubles;
  }
  if (singles < doubles) return '\'';
  if (singles > doubles) return '"';
  return kPreferred;
}

bool is_hex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::string normalize_body(const StringParts& p, char quote) {
  char opposite = quote == '"' ? '\'' : '"';
  std::string out;
  std::string_view body = p.body;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\r') {
      out.push_back('\n');
      if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
      continue;
    }
    if (p.raw) {
      if (c == '\\' && i + 1 < body.size() && body[i + 1] != '\r' && body[i + 1] != '\n') {
        out.push_back(c);
        out.push_back(body[++i]);
        continue;
      }
      out.push_back(c);
      continue;
    }
    if (c == '\\') {
      if (i + 1 >= body.size()) {
        out.push_back(c);
        continue;
      }
      char next = body[i + 1];
      if (next == opposite && !p.triple()) {
        // `\'` inside "..." needs no backslash.
        out.push_back(next);
        ++i;
        continue;
      }
      if (next == 'x' || ((next == 'u' || next == 'U') && !p.bytes)) {
        size_t len = next == 'x' ? 2 : next == 'u' ? 4 : 8;
        bool valid = i + 2 + len <= body.size();
        for (size_t k = 0; valid && k < len; ++k) valid = is_hex(body[i + 2 + k]);
        out.push_back('\\');
        out.push_back(next);
        i += 1;
        if (valid) {
          for (size_t k = 0; k < len; ++k) {
            out.push_back(
                static_cast<char>(std::tolower(static_cast<unsigned char>(body[i + 1 + k]))));
          }
          i += len;
        }
        continue;
      }
      if (next == 'N' && !p.bytes && i + 2 < body.size() && body[i + 2] == '{') {
        size_t close = body.find('}', i + 3);
        if (close != std::string_view::npos) {
          out += "\\N{";
          for (size_t k = i + 3; k < close; ++k) {
            out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(body[k]))));
          }
          out.push_back('}');
          i = close;
          continue;
        }
      }
      out.push_back(c);
      out.push_back(next);
      ++i;
      if (next == '\r' && i + 1 < body.size() && body[i + 1] == '\n') {
        out.back() = '\n';
        ++i;
      }
      continue;
    }
    if (c == quote && !p.triple()) {
      out.push_back('\\');
      out.push_back(c);
      continue;
    }
    out.push_back(c);
  }
  return out;
}

std::string normalize_string(std::string_view literal) {
  StringParts p = split_string(literal);
  if (p.quote.empty()) return std::string(literal);
  char quote = choose_quote(p);
  std::string q(p.quote.size(), quote);
  return normalize_prefix(p.prefix) + q + normalize_body(p, quote) + q;
}

char merged_quote(const std::vector<StringParts>& parts) {
  size_t singles = 0, doubles = 0;
  for (const StringParts& p : parts) {
    for (char c : p.body) {
      if (c == '\'') ++singles;
      if (c == '"') ++doubles;
    }
  }
  if (singles < doubles) return '\'';
  return '"';
}

std::string normalize_comment(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\f' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text[0] != '#') return std::string(text);
  std::string_view content = text.substr(1);
  if (content.empty()) return "#";
  char first = content[0];
  if (first == ' ' || first == '!' || first == ':' || first == '#' || first == '\'')
    return std::string(text);
  constexpr std::string_view kNbsp = "\xc2\xa0";
  std::string out = "# ";
  if (content.substr(0, 2) == kNbsp) {
    std::string_view trimmed = content;
    while (trimmed.substr(0, 2) == kNbsp) trimmed.remove_prefix(2);
    std::string_view ws = trimmed;
    while (!ws.empty() && (ws[0] == ' ' || ws[0] == '\t')) ws.remove_prefix(1);
    if (ws.substr(0, 5) == "type:") {
      out.append(content);
    } else if (!trimmed.empty() && trimmed[0] == ' ') {
      out.append(trimmed);
    } else {
      out.append(content.substr(2));
    }
    return out;
  }
  while (!content.empty() && (content[0] == ' ' || content[0] == '\t')) content.remove_prefix(1);
  out.append(content);
  return out;
}

std::string normalize_number(std::string_view literal) {
  std::string s(literal);
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    std::string out = "0x";
    for (size_t i = 2; i < s.size(); ++i)
      out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(s[i]))));
    return out;
  }
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O' || s[1] == 'b' || s[1] == 'B')) {
    std::string out;
    for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return out;
  }
  std::string out;
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  // An explicit `+` in the exponent goes: `1e+5` -> `1e5`.
  size_t plus = out.find("e+");
  if (plus != std::string::npos) out.erase(plus + 1, 1);
  // `.5` -> `0.5`; `5.` and `5.e3` -> `5.0`, `5.0e3`.
  size_t dot = out.find('.');
  if (dot != std::string::npos) {
    if (dot == 0) {
      out.insert(0, "0");
      ++dot;
    }
    if (dot + 1 >= out.size() || !std::isdigit(static_cast<unsigned char>(out[dot + 1])))
      out.insert(dot + 1, "0");
  }
  return out;
}

}  // namespace relax::syntax::format

namespace relax::syntax::format {

size_t space_at(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)) return 1;
  if (c < 0x80) return 0;
  // Decode one UTF-8 sequence.
  uint32_t cp = 0;
  size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (len == 1 || i + len > s.size()) return 0;
  cp = c & (0xff >> (len + 1));
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
  bool space = cp == 0x85 || cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
               cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000;
  return space ? len : 0;
}

namespace {

std::string_view trim_end(std::string_view s) {
  // Scan forward (UTF-8 can only be decoded forward), remembering the end of the last non-space.
  size_t end = 0;
  for (size_t i = 0; i < s.size();) {
    size_t n = space_at(s, i);
    if (n == 0) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
      end = std::min(s.size(), i + n);
    }
    i += n;
  }
  return s.substr(0, end);
}

// The leading white space of s: its length in bytes, its width in columns (tabs to multiples
// of 8), and whether it holds anything but spaces.
struct Indent {
  size_t bytes = 0;
  size_t columns = 0;
  bool only_spaces = true;
};

Indent indent_of(std::string_view s) {
  Indent in;
  while (in.bytes < s.size()) {
    size_t n = space_at(s, in.bytes);
    if (n == 0) break;
    if (s[in.bytes] == '\t') {
      in.columns = (in.columns / 8 + 1) * 8;
    } else {
      in.columns += 1;
    }
    if (s[in.bytes] != ' ') in.only_spaces = false;
    in.bytes += n;
  }
  return in;
}

// Text ending in an odd number of backslashes, or in an unescaped quote, would join the closing
// quotes: a space goes between.
bool needs_space_before_quotes(std::string_view text, char quote) {
  size_t n = 0;
  while (n < text.size() && text[text.size() - 1 - n] == '\\') ++n;
  if (n % 2 == 1) return true;
  if (text.empty() || text.back() != quote) return false;
  size_t k = 0;
  while (k + 1 < text.size() && text[text.size() - 2 - k] == '\\') ++k;
  return k % 2 == 0;
}

}  // namespace

bool docstring_lines(std::string_view literal, std::vector<std::string>& lines) {
  lines.clear();
  StringParts p = split_string(literal);
  if (p.quote.empty()) return false;
  std::string_view body = p.body;
  if (body.find("\\\n") != std::string_view::npos) return false;
  char quote = p.quote[0];
  std::string open = std::string(p.prefix) + std::string(p.quote);
  std::string close(p.quote);

  size_t nl = body.find('\n');
  std::string_view first = body.substr(0, nl);
  std::string_view first_end = trim_end(first);
  std::string_view first_text = first_end.substr(indent_of(first_end).bytes);
  std::string line0 = open;
  if (!first_text.empty() && first_text[0] == quote) line0 += ' ';
  line0 += first_text;

  std::string_view rest = nl == std::string_view::npos ? std::string_view() : body.substr(nl);
  if (trim_end(rest).empty()) {
    if (needs_space_before_quotes(first_end, quote) || (first_end.empty() && !body.empty()))
      line0 += ' ';
    line0 += close;
    lines.push_back(std::move(line0));
    return true;
  }
  lines.push_back(std::move(line0));

  std::vector<std::string_view> rest_lines;
  for (size_t start = nl + 1;;) {
    size_t end = body.find('\n', start);
    rest_lines.push_back(body.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  // The least indented line with text sets the indentation that is removed.
  Indent least;
  bool any = false;
  for (std::string_view l : rest_lines) {
    std::string_view t = trim_end(l);
    if (t.empty()) continue;
    Indent in = indent_of(t);
    if (!any || in.columns < least.columns) least = in;
    any = true;
  }
  for (size_t i = 0; i < rest_lines.size(); ++i) {
    bool last = i + 1 == rest_lines.size();
    std::string_view t = trim_end(rest_lines[i]);
    if (t.empty()) {
      lines.push_back(last ? close : std::string());
      continue;
    }
    Indent in = indent_of(t);
    std::string out;
    if (in.only_spaces) {
      out = std::string(t.substr(std::min(least.bytes, in.bytes)));
    } else {
      out = std::string(in.columns - std::min(in.columns, least.columns), ' ');
      out += t.substr(in.bytes);
    }
    if (last) {
      if (needs_space_before_quotes(t, quote)) out += ' ';
      out += close;
    }
    lines.push_back(std::move(out));
  }
  return true;
}

}  // namespace relax::syntax::format

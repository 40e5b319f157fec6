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

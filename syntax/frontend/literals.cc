// Literal decoding with Python's rules.
#include "syntax/frontend/literals.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace relax::syntax {

std::optional<int64_t> decode_integer(std::string_view text, bool negated) {
  std::string digits;
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'O')) {
    base = 8;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  }
  for (char c : text) {
    if (c == '_') continue;
    if (c == 'l' || c == 'L') continue;  // Python 2 long suffix, tolerated
    digits.push_back(c);
  }
  if (digits.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(digits.c_str(), &end, base);
  if (errno == ERANGE || end != digits.c_str() + digits.size()) return std::nullopt;
  constexpr auto kMax = static_cast<unsigned long long>(INT64_MAX);
  if (negated) {
    if (v > kMax + 1) return std::nullopt;
    return v == kMax + 1 ? INT64_MIN : -static_cast<int64_t>(v);
  }
  if (v > kMax) return std::nullopt;
  return static_cast<int64_t>(v);
}

std::optional<double> decode_float(std::string_view text) {
  std::string s;
  for (char c : text) {
    if (c != '_') s.push_back(c);
  }
  if (!s.empty() && (s.back() == 'j' || s.back() == 'J')) return std::nullopt;  // complex
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

namespace {

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

DecodedString decode_string(std::string_view text) {
  DecodedString out;
  size_t i = 0;
  bool raw = false;
  while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    if (c == 'r')
      raw = true;
    else if (c == 'b')
      out.is_bytes = true;
    else if (c == 'f')
      out.is_fstring = true;
    ++i;
  }
  if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) {
    out.ok = false;
    out.error = "malformed string literal";
    return out;
  }
  char quote = text[i];
  size_t quote_len = (text.substr(i, 3) == std::string(3, quote)) ? 3 : 1;
  size_t begin = i + quote_len;
  out.content_offset = static_cast<uint32_t>(begin);
  if (text.size() < begin + quote_len ||
      text.substr(text.size() - quote_len) != std::string(quote_len, quote) ||
      text.size() - quote_len < begin) {
    out.ok = false;
    out.error = "unterminated string literal";
    return out;
  }
  std::string_view body = text.substr(begin, text.size() - quote_len - begin);
  if (raw) {
    out.value = std::string(body);
    return out;
  }
  for (size_t k = 0; k < body.size(); ++k) {
    char c = body[k];
    if (c != '\\' || k + 1 >= body.size()) {
      out.value.push_back(c);
      continue;
    }
    char e = body[++k];
    switch (e) {
      case '\n':
        break;  // line continuation inside the string
      case '\r':
        if (k + 1 < body.size() && body[k + 1] == '\n') ++k;
        break;
      case '\\':
        out.value.push_back('\\');
        break;
      case '\'':
        out.value.push_back('\'');
        break;
      case '"':
        out.value.push_back('"');
        break;
      case 'a':
        out.value.push_back('\a');
        break;
      case 'b':
        out.value.push_back('\b');
        break;
      case 'f':
        out.value.push_back('\f');
        break;
      case 'n':
        out.value.push_back('\n');
        break;
      case 'r':
        out.value.push_back('\r');
        break;
      case 't':
        out.value.push_back('\t');
        break;
      case 'v':
        out.value.push_back('\v');
        break;
      case 'x': {
        int h1 = k + 1 < body.size() ? hex_value(body[k + 1]) : -1;
        int h2 = k + 2 < body.size() ? hex_value(body[k + 2]) : -1;
        if (h1 < 0 || h2 < 0) {
          out.ok = false;
          out.error = "invalid \\x escape";
          return out;
        }
        // \xHH is one byte: TVM's printer escapes UTF-8 text byte by byte this way.
        out.value.push_back(static_cast<char>(h1 * 16 + h2));
        k += 2;
        break;
      }
      case 'u':
      case 'U': {
        size_t n = e == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (size_t d = 1; d <= n; ++d) {
          int h = k + d < body.size() ? hex_value(body[k + d]) : -1;
          if (h < 0) {
            out.ok = false;
            out.error = "invalid unicode escape";
            return out;
          }
          cp = cp * 16 + static_cast<uint32_t>(h);
        }
        append_utf8(out.value, cp);
        k += n;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          int v = e - '0';
          for (int d = 0; d < 2 && k + 1 < body.size() && body[k + 1] >= '0' && body[k + 1] <= '7';
               ++d) {
            v = v * 8 + (body[++k] - '0');
          }
          out.value.push_back(static_cast<char>(v));
        } else {
          // Python keeps unknown escapes as written.
          out.value.push_back('\\');
          out.value.push_back(e);
        }
        break;
    }
  }
  return out;
}

}  // namespace relax::syntax

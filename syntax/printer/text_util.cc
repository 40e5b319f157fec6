// String escaping, float formatting and unique names for the printer.
#include "syntax/printer/text_util.h"

#include <cmath>
#include <cstdio>

namespace relax::syntax {

std::string quote_string(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (c >= 0x20 && c <= 0x7E) {
          out.push_back(static_cast<char>(c));
        } else {
          out += "\\x";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        }
    }
  }
  out += "\"";
  return out;
}

std::string format_float(double v) {
  char buf[512];
  if (std::nearbyint(v) == v) {
    std::snprintf(buf, sizeof(buf), "%.1f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.17g", v);
  }
  return buf;
}

std::string format_nonfinite(double v) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  return v < 0 ? "-inf" : "inf";
}

NameTable::NameTable() {
  frames_.emplace_back();
}

void NameTable::push_frame() {
  frames_.emplace_back();
}

void NameTable::pop_frame() {
  if (frames_.size() <= 1) return;
  Frame& f = frames_.back();
  for (const ir::Object* n : f.nodes) names_.erase(n);
  for (const std::string& name : f.names) {
    taken_.erase(name);
    freed(name);
  }
  frames_.pop_back();
}

void NameTable::freed(const std::string& name) {
  if (auto it = next_suffix_.find(name); it != next_suffix_.end()) it->second = 0;
  // `hint_N`: candidate N of `hint`.
  size_t u = name.rfind('_');
  if (u == std::string::npos || u + 1 >= name.size() || name[u + 1] == '0' ||
      name.size() - u - 1 > 9)
    return;
  int n = 0;
  for (size_t k = u + 1; k < name.size(); ++k) {
    if (name[k] < '0' || name[k] > '9') return;
    n = n * 10 + (name[k] - '0');
  }
  if (auto it = next_suffix_.find(name.substr(0, u)); it != next_suffix_.end() && it->second > n)
    it->second = n;
}

const std::string& NameTable::define(const ir::Object* node, std::string_view hint) {
  return define_in_frame(frames_.size() - 1, node, hint);
}

const std::string& NameTable::define_in_frame(size_t index, const ir::Object* node,
                                              std::string_view hint) {
  if (index >= frames_.size()) index = frames_.size() - 1;
  std::string base(hint);
  for (char& c : base) {
    bool ok =
        c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!ok) c = '_';
  }
  if (base.empty()) base = "v";
  int& i = next_suffix_[base];
  std::string name = i == 0 ? base : base + "_" + std::to_string(i);
  while (taken_.count(name)) name = base + "_" + std::to_string(++i);
  ++i;
  taken_.insert(name);
  frames_[index].names.push_back(name);
  frames_[index].nodes.push_back(node);
  auto [it, inserted] = names_.insert_or_assign(node, name);
  return it->second;
}

const std::string* NameTable::find(const ir::Object* node) const {
  auto it = names_.find(node);
  return it == names_.end() ? nullptr : &it->second;
}

void NameTable::reserve(const std::string& name) {
  if (taken_.insert(name).second) frames_.back().names.push_back(name);
}

void Writer::line(std::string_view text) {
  out_.append(static_cast<size_t>(level_) * 4, ' ');
  out_ += text;
  out_ += '\n';
}

std::string Writer::finish() {
  std::string s = std::move(out_);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace relax::syntax

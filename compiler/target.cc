// Target parsing and printing.
#include "compiler/target.h"

#include <charconv>
#include <limits>
#include <sstream>
#include <vector>

namespace relax::compiler {

Target Target::host() {
  return Target{};
}

namespace {

// `text` as a whole decimal integer in [lo, hi]; nullopt for anything else (`8x`, ``, `1e3`, a
// value past the range).
std::optional<int> parse_whole_int(const std::string& text, int lo, int hi) {
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < lo || value > hi)
    return std::nullopt;
  return value;
}

}  // namespace

std::optional<Target> Target::parse(const std::string& text, std::string* error) {
  std::istringstream in(text);
  std::string word;
  std::vector<std::string> words;
  while (in >> word) words.push_back(word);
  auto fail = [&](const std::string& why) -> std::optional<Target> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (words.empty()) return fail("empty target");
  Target t;
  if (words[0] == "llvm" || words[0] == "cpu")
    t.kind = Kind::kLLVM;
  else if (words[0] == "cuda")
    t.kind = Kind::kCUDA;
  else
    return fail("unknown target kind '" + words[0] + "' (expected llvm or cuda)");
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto eq = w.find('=');
    if (w.rfind("-", 0) != 0 || eq == std::string::npos)
      return fail("malformed target option '" + w + "'");
    std::string key = w.substr(1, eq - 1), value = w.substr(eq + 1);
    if (key == "mcpu")
      t.mcpu = value;
    else if (key == "mtriple")
      t.triple = value;
    else if (key == "mattr")
      t.mattr = value;
    else if (key == "arch")
      t.arch = value;
    else if (key == "num-threads") {
      // 0 keeps the runtime's default; the bound keeps thread counts small integers.
      auto n = parse_whole_int(value, 0, 1 << 16);
      if (!n) return fail("-num-threads takes a whole number from 0 to 65536, not '" + value + "'");
      t.num_threads = *n;
    } else if (key == "vector-bits") {
      // 0 keeps the CPU's width; a vector register is a power of two of bits (SVE's longest has
      // 2048).
      auto n = parse_whole_int(value, 0, 4096);
      if (!n || (*n != 0 && (*n < 8 || (*n & (*n - 1)) != 0)))
        return fail("-vector-bits takes 0 or a power of two from 8 to 4096, not '" + value + "'");
      t.vector_bits = *n;
    } else
      return fail("unknown target option '-" + key + "'");
  }
  return t;
}

std::string Target::str() const {
  std::string out = kind == Kind::kLLVM ? "llvm" : "cuda";
  if (!mcpu.empty()) out += " -mcpu=" + mcpu;
  if (!triple.empty()) out += " -mtriple=" + triple;
  if (!mattr.empty()) out += " -mattr=" + mattr;
  if (!arch.empty()) out += " -arch=" + arch;
  if (num_threads) out += " -num-threads=" + std::to_string(num_threads);
  if (vector_bits) out += " -vector-bits=" + std::to_string(vector_bits);
  return out;
}

}  // namespace relax::compiler

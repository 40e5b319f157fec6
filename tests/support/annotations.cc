// Parsing the markers of an annotated test source (see annotations.h).
#include "tests/support/annotations.h"

#include <cctype>
#include <stdexcept>
#include <utility>

namespace relax::test {

Annotations::Annotations(std::string_view text) {
  // Open ranges: their name and where they start in code_.
  std::vector<std::pair<std::string, uint32_t>> open;
  std::string pending;  // a `$name` waiting for its `^` or `[[`
  bool named = false;
  for (size_t i = 0; i < text.size();) {
    auto here = static_cast<uint32_t>(code_.size());
    if (text.compare(i, 2, "[[") == 0) {
      open.emplace_back(named ? pending : "", here);
      named = false;
      i += 2;
    } else if (text.compare(i, 2, "]]") == 0 && !open.empty()) {
      ranges_[open.back().first].push_back({open.back().second, here});
      open.pop_back();
      i += 2;
    } else if (text[i] == '^') {
      points_[named ? pending : ""].push_back(here);
      named = false;
      ++i;
    } else if (text[i] == '$' && i + 1 < text.size() &&
               (std::isalpha(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '_')) {
      if (named) throw std::invalid_argument("annotation $" + pending + " marks nothing");
      size_t j = i + 1;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      pending = std::string(text.substr(i + 1, j - i - 1));
      named = true;
      i = j;
    } else {
      if (named) throw std::invalid_argument("annotation $" + pending + " marks nothing");
      code_ += text[i++];
    }
  }
  if (named) throw std::invalid_argument("annotation $" + pending + " marks nothing");
  if (!open.empty()) throw std::invalid_argument("unclosed [[ in an annotated source");
}

uint32_t Annotations::point(const std::string& name) const {
  auto all = points(name);
  if (all.size() != 1)
    throw std::out_of_range("expected one point `" + name + "`, found " +
                            std::to_string(all.size()));
  return all[0];
}

std::vector<uint32_t> Annotations::points(const std::string& name) const {
  auto it = points_.find(name);
  return it == points_.end() ? std::vector<uint32_t>{} : it->second;
}

ByteRange Annotations::range(const std::string& name) const {
  auto all = ranges(name);
  if (all.size() != 1)
    throw std::out_of_range("expected one range `" + name + "`, found " +
                            std::to_string(all.size()));
  return all[0];
}

std::vector<ByteRange> Annotations::ranges(const std::string& name) const {
  auto it = ranges_.find(name);
  return it == ranges_.end() ? std::vector<ByteRange>{} : it->second;
}

}  // namespace relax::test

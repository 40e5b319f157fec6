// Edit distance and the closest-candidate search behind "did you mean" suggestions.
#include "ir/suggest.h"

#include <algorithm>
#include <cctype>

namespace relax::ir {

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: two back (for swaps), the previous and the current.
  std::vector<size_t> two(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], two[j - 2] + 1);
    }
    std::swap(two, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

ClosestMatch::ClosestMatch(std::string_view word)
    : word_(word), best_distance_(std::max<size_t>(word.size(), 3) / 3 + 1) {}

void ClosestMatch::consider(std::string_view candidate) {
  if (exact_case_insensitive_ || candidate.empty() || candidate == word_) return;
  if (equal_ignoring_case(candidate, word_)) {
    best_ = std::string(candidate);
    exact_case_insensitive_ = true;
    return;
  }
  // Cheap bound first: the distance is at least the difference in length.
  size_t gap = candidate.size() > word_.size() ? candidate.size() - word_.size()
                                               : word_.size() - candidate.size();
  if (gap >= best_distance_) return;
  size_t d = edit_distance(word_, candidate);
  if (d < best_distance_) {
    best_distance_ = d;
    best_ = std::string(candidate);
  }
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  ClosestMatch match(word);
  for (const auto& c : candidates) match.consider(c);
  return match.best();
}

}  // namespace relax::ir

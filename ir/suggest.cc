// Edit distance and the closest name, for did-you-mean notes.
#include "ir/suggest.h"

#include <algorithm>

namespace relax::ir {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates,
                         size_t max_distance) {
  std::string best;
  size_t best_distance = max_distance;
  for (const std::string& c : candidates) {
    size_t d = edit_distance(c, name);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace relax::ir

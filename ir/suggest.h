// "Did you mean ...?": the known name closest to a misspelt one. The one helper behind every
// suggestion relax makes: subcommands and options, pass names, dtypes, op names.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relax::ir {

// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
// adjacent characters each count one ("bulid" is one edit from "build").
size_t edit_distance(std::string_view a, std::string_view b);

// Keeps the best candidate seen for `word`: one equal to it ignoring case wins; otherwise the
// nearest within a third of the word's length (at least one edit), the first one on ties.
class ClosestMatch {
 public:
  explicit ClosestMatch(std::string_view word);
  void consider(std::string_view candidate);
  // The best candidate, or "" when none is close enough.
  const std::string& best() const { return best_; }

 private:
  std::string word_;
  std::string best_;
  size_t best_distance_;
  bool exact_case_insensitive_ = false;
};

// The closest candidate ("" when none is close enough).
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace relax::ir

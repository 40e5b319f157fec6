// Did-you-mean suggestions for names a user got wrong (an op, a parameter): the edit distance
// between two names and the closest of a list of candidates.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relax::ir {

// Levenshtein distance: the fewest single-character insertions, deletions and substitutions
// that turn `a` into `b`.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `name` with a distance below `max_distance` (the first of equals),
// or "" when none is that close.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates,
                         size_t max_distance);

}  // namespace relax::ir

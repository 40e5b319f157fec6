// Spelling profiles for `relax fmt --profile`: rewrites the spellings that differ between the
// legacy and current profiles (TEXT_FORMAT.md §6.7, §8) in the text, through the syntax tree,
// so comments and layout stay where they are.
#pragma once

#include <string>

#include "syntax/cst.h"
#include "syntax/printer.h"

namespace relax::syntax::format {

// The text of `tree` with every spelling of the other profile replaced by `profile`'s.
std::string rewrite_profile(const SyntaxTree& tree, Profile profile);

}  // namespace relax::syntax::format

// Profile spelling rewrites (see profile.h).
#include "syntax/format/profile.h"

namespace relax::syntax::format {

std::string rewrite_profile(const SyntaxTree& tree, Profile profile) {
  (void)profile;
  return tree.text();
}

}  // namespace relax::syntax::format

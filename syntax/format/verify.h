// The formatter's safety net: what must be the same in the input and the output. The comment
// texts, in order (normalized as the formatter writes them); and the syntax tree up to what the
// formatter may change (grouping parentheses, trailing commas, tuple parentheses, the spelling
// of string and number literals, line continuations, semicolons, empty `()` after a class name).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "syntax/cst.h"

namespace relax::syntax::format {

struct CanonicalToken {
  std::string text;
  uint32_t offset;  // where it comes from in the source (for messages)
};

// Both at once (one walk of the tree).
void canonicalize(const SyntaxTree& tree, std::vector<CanonicalToken>& tokens,
                  std::vector<CanonicalToken>& comments);

// The syntax tree as a token sequence: node kinds as brackets, leaves by value.
std::vector<CanonicalToken> canonical_tree(const SyntaxTree& tree);

// The comments, normalized (trailing whitespace removed, `#x` written `# x`), in order. A
// comment holding ` #` is taken as several (so joining two comments on one line is allowed).
std::vector<CanonicalToken> canonical_comments(const SyntaxTree& tree);

// The index of the first difference, or -1 when equal.
long first_difference(const std::vector<CanonicalToken>& a, const std::vector<CanonicalToken>& b);

}  // namespace relax::syntax::format

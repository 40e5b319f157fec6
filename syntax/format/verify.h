// The formatter's safety net: what must be the same in the input and the output. The comment
// texts, in order (normalized as the formatter writes them); and the syntax tree up to what the
// formatter may change (grouping parentheses, trailing commas, tuple parentheses, the spelling
// of string and number literals, line continuations, semicolons, empty `()` after a class name).
// Two forms of the same rule: over the formatter's own trees (ast.h; the fast check, no copies)
// and over tree-sitter's CST as canonical token sequences (files the own parser leaves alone).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/cst.h"

namespace relax::syntax::format {

class Ast;

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

// Where two formatter trees (or their comments) first differ: the offset in the first tree's
// source, and what each side has there.
struct TreeDifference {
  uint32_t offset = 0;
  std::string expected, found;
};

// The first difference between two formatter trees up to layout (the rule of the canonical
// tokens, on the trees themselves), or nothing when they mean the same. Iterative: any depth.
std::optional<TreeDifference> tree_difference(const Ast& in, const Ast& out);

// The first difference between the comments of two trees (normalized pieces, in order).
std::optional<TreeDifference> comment_difference(const Ast& in, const Ast& out);

// The pieces of the canonical forms, shared by both.
// A literal by value: "s:" or "b:" and the decoded text (escapes resolved, `\r\n` as `\n`).
std::string string_value(std::string_view literal);
// A number by value ("i:" digits, "f:" the exact binary value, "j" for imaginary).
std::string number_value(std::string_view literal);
// Whether a literal can be part of a docstring (no bytes, f- or t-string prefix).
bool is_docstring_literal(std::string_view literal);
// A docstring's value (from string_value) as its words: white-space runs collapsed.
std::string docstring_words(const std::string& value);
// The normalized pieces of one comment's text (a line may carry several: `# x  # y`), with their
// offsets (`start` is the comment's offset).
void comment_pieces(std::string_view text, uint32_t start, std::vector<CanonicalToken>& out);

}  // namespace relax::syntax::format

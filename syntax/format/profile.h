// Spelling profiles for `relax fmt --profile`: rewrites the spellings that differ between the
// legacy and current profiles (TEXT_FORMAT.md §6.7, §8) in the text, through the syntax tree,
// so comments and layout stay where they are.
#pragma once

#include <string>
#include <vector>

#include "syntax/cst.h"
#include "syntax/format/verify.h"
#include "syntax/printer.h"

namespace relax::syntax::format {

// The text of `tree` with every spelling of the other profile replaced by `profile`'s. Rewritten:
// `T.block`/`T.sblock`, `T.block_attr`/`T.sblock_attr`, `R.Object`/`R.Any`, the `R.` call
// keywords `out_sinfo=`/`out_ty=` and `sinfo_args=`/`ty_args=`, `out_dtype="void"`/`None`,
// `"tir.noalias"`/`"tirx.noalias"`, `from tvm.script import tir`/`tirx as T` (also in the header
// comment), the root-block comment; in both profiles the old FP8 dtype names.
std::string rewrite_profile(const SyntaxTree& tree, Profile profile);

// Maps every spelling rewrite_profile changes to one spelling (canonical tokens of trees and
// comments), so that a rewrite can be checked without IR: the tokens before and after must be
// equal once normalized.
void normalize_spellings(std::vector<CanonicalToken>& tokens);

}  // namespace relax::syntax::format

// A walk over a syntax tree in document order with a tree-sitter cursor (no recursion over user
// input), for the features that read the whole tree (folds, semantic tokens, inlay hints).
#pragma once

#include <tree_sitter/api.h>

#include "syntax/cst.h"

namespace relax::lsp {

// Calls `visit(node)` for every node in document order; `visit` returns whether to enter the
// node's children.
template <class Visit>
void walk(const syntax::SyntaxTree& tree, Visit&& visit) {
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root().raw());
  for (;;) {
    bool enter = visit(syntax::Node(ts_tree_cursor_current_node(&cursor), &tree));
    if (enter && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
    }
  }
}

}  // namespace relax::lsp

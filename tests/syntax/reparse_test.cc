// SyntaxTree::edit / reparse: an incremental re-parse after an edit gives the same tree as
// parsing the new text from scratch (node for node: kind, byte range, row and column), over
// random edits of the examples and of every 16th conformance module. This is what the language
// server will do on every keystroke, and it exercises the external scanner's saved state. On a
// text with syntax errors edit() parses from scratch (tree-sitter's recovery depends on the old
// tree); the incremental parse itself is compared on every edit that leaves the text valid.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "syntax/cst.h"
#include "tests/support/test_util.h"

using namespace relax;

namespace {

bool same_point(TSPoint a, TSPoint b) {
  return a.row == b.row && a.column == b.column;
}

// The first difference between two trees, walked in step (empty when they are the same).
std::string tree_difference(const syntax::SyntaxTree& a, const syntax::SyntaxTree& b) {
  TSTreeCursor ca = ts_tree_cursor_new(ts_tree_root_node(a.raw()));
  TSTreeCursor cb = ts_tree_cursor_new(ts_tree_root_node(b.raw()));
  std::string diff;
  while (diff.empty()) {
    TSNode na = ts_tree_cursor_current_node(&ca), nb = ts_tree_cursor_current_node(&cb);
    if (ts_node_symbol(na) != ts_node_symbol(nb) ||
        ts_node_start_byte(na) != ts_node_start_byte(nb) ||
        ts_node_end_byte(na) != ts_node_end_byte(nb) ||
        !same_point(ts_node_start_point(na), ts_node_start_point(nb)) ||
        !same_point(ts_node_end_point(na), ts_node_end_point(nb)) ||
        ts_tree_cursor_current_field_id(&ca) != ts_tree_cursor_current_field_id(&cb)) {
      diff = std::string("incremental ") + ts_node_type(na) + " [" +
             std::to_string(ts_node_start_byte(na)) + ", " + std::to_string(ts_node_end_byte(na)) +
             ") vs fresh " + ts_node_type(nb) + " [" + std::to_string(ts_node_start_byte(nb)) +
             ", " + std::to_string(ts_node_end_byte(nb)) + ")";
      break;
    }
    bool da = ts_tree_cursor_goto_first_child(&ca), db = ts_tree_cursor_goto_first_child(&cb);
    if (da != db) {
      diff = std::string("child count differs at ") + ts_node_type(na);
      break;
    }
    if (da) continue;
    // Next sibling, or up until there is one.
    bool done = false;
    while (true) {
      bool sa = ts_tree_cursor_goto_next_sibling(&ca), sb = ts_tree_cursor_goto_next_sibling(&cb);
      if (sa != sb) {
        diff = std::string("sibling count differs after ") + ts_node_type(na);
        break;
      }
      if (sa) break;
      bool pa = ts_tree_cursor_goto_parent(&ca), pb = ts_tree_cursor_goto_parent(&cb);
      if (!pa || !pb) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&ca);
  ts_tree_cursor_delete(&cb);
  return diff;
}

// Applies `edits` random edits to `text`, each as an incremental re-parse of the previous tree,
// and compares every result with a fresh parse. An edit that breaks the syntax, and half of
// the others, is undone at once (the usual typo-and-fix): undoing is an incremental parse of a
// text with errors back to a valid one.
// Returns how many edits gave a text without syntax errors (the incremental parse is compared
// on those directly).
int check_random_edits(const std::string& name, const std::string& text, uint32_t seed, int edits) {
  int valid_edits = 0;
  static const char* kSnippets[] = {
      " ", "\n", "x", "(", ")", ":", "    ", "# note\n", "\"s\"", "R.add(a, b)", "\n    y = x\n",
      "[", "]",  "é", ","};
  std::mt19937 rng(seed);
  auto tree = syntax::SyntaxTree::parse(text, 7, 3);
  for (int i = 0; i < edits; ++i) {
    const std::string& now = tree->text();
    uint32_t begin = static_cast<uint32_t>(rng() % (now.size() + 1));
    uint32_t end = begin + static_cast<uint32_t>(rng() % 8);
    if (end > now.size()) end = static_cast<uint32_t>(now.size());
    std::string replacement = rng() % 3 == 0 ? "" : kSnippets[rng() % std::size(kSnippets)];
    std::string removed = now.substr(begin, end - begin);
    auto edited = tree->edit(begin, end, replacement);
    REQUIRE(edited);
    auto fresh = syntax::SyntaxTree::parse(edited->text());
    INFO(name << ": edit " << i << " replaces [" << begin << ", " << end << ") with \""
              << replacement << "\"");
    CHECK(tree_difference(*edited, *fresh) == "");
    if (!fresh->root().has_error()) {
      // The incremental parse itself, without edit()'s fresh parse of texts with errors.
      auto incremental = syntax::SyntaxTree::reparse(
          *tree, edited->text(), syntax::SyntaxTree::input_edit(now, begin, end, replacement));
      CHECK(tree_difference(*incremental, *fresh) == "");
      ++valid_edits;
    }
    CHECK(edited->file() == 7);
    CHECK(edited->base() == 3);
    if (rng() % 2 == 0 || edited->root().has_error()) {
      // Undo: back to the previous text, and to the previous tree.
      auto undone = edited->edit(begin, begin + static_cast<uint32_t>(replacement.size()), removed);
      REQUIRE(undone);
      REQUIRE(undone->text() == now);
      CHECK(tree_difference(*undone, *tree) == "");
      tree = std::move(undone);
    } else {
      tree = std::move(edited);
    }
  }
  return valid_edits;
}

}  // namespace

TEST_CASE("input_edit computes rows and byte columns of the old and new ends") {
  std::string text = "ab\ncdé\nf";
  // Replace "dé\nf" (bytes 4..9) with "X\nYZ".
  TSInputEdit e = syntax::SyntaxTree::input_edit(text, 4, 9, "X\nYZ");
  CHECK(e.start_byte == 4);
  CHECK(e.old_end_byte == 9);
  CHECK(e.new_end_byte == 8);
  CHECK((e.start_point.row == 1 && e.start_point.column == 1));
  CHECK((e.old_end_point.row == 2 && e.old_end_point.column == 1));
  CHECK((e.new_end_point.row == 2 && e.new_end_point.column == 2));
}

TEST_CASE("edit refuses a range outside the text") {
  auto tree = syntax::SyntaxTree::parse("x = 1\n");
  CHECK(tree->edit(2, 1, "") == nullptr);
  CHECK(tree->edit(0, 7, "") == nullptr);
  auto appended = tree->edit(6, 6, "y = 2\n");
  REQUIRE(appended);
  CHECK(appended->text() == "x = 1\ny = 2\n");
  CHECK(appended->root().end() == 12);
}

TEST_CASE("incremental re-parses equal fresh parses over random edits of the examples") {
  auto files = test::list_files(test::source_dir() / "examples", ".relax");
  REQUIRE(files.size() >= 5);
  uint32_t seed = 1;
  int valid = 0;
  for (const auto& path : files)
    valid += check_random_edits(path.filename().string(), test::read_file(path), seed++, 60);
  CHECK(valid >= 100);  // the incremental path itself is compared often enough
}

TEST_CASE("incremental re-parses equal fresh parses over random edits of conformance modules") {
  auto files = test::conformance_modules();
  if (files.empty()) return;
  int valid = 0;
  for (size_t i = 0; i < files.size(); i += 16)
    valid += check_random_edits(files[i].filename().string(), test::read_file(files[i]),
                                static_cast<uint32_t>(1000 + i), 12);
  CHECK(valid >= 100);
}

// `relax parse --tree`: print the concrete syntax tree (tree-sitter's view of the file).
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "ir/source.h"
#include "syntax/cst.h"
#include "syntax/frontend.h"

namespace relax::cli {

namespace {

// Indentation stops growing at this depth, so that a tree nested 100,000 deep prints in
// space proportional to its size (deeper nodes are indented as this level).
constexpr size_t kMaxTreeIndent = 100;

// Writes `node` and its named descendants as an indented S-expression with positions and
// field names, in the style of `tree-sitter parse`. One cursor walks the tree in a loop.
void write_tree(std::ostream& out, syntax::Node root, bool positions) {
  const std::string indent(kMaxTreeIndent * 2, ' ');
  auto write_node = [&](TSNode node, const char* field, size_t depth) {
    if (depth > 0) out << "\n";
    out << std::string_view(indent).substr(0, std::min(depth, kMaxTreeIndent) * 2);
    if (field) out << field << ": ";
    std::string_view type = ts_node_type(node);
    if (ts_node_is_missing(node)) {
      out << "(MISSING ";
      if (ts_node_is_named(node))
        out << type;
      else
        out << '"' << type << '"';
    } else {
      out << "(" << type;
    }
    if (positions) {
      TSPoint s = ts_node_start_point(node), e = ts_node_end_point(node);
      out << " [" << s.row << ", " << s.column << "] - [" << e.row << ", " << e.column << "]";
    }
  };
  auto shown = [](TSNode n) { return ts_node_is_named(n) || ts_node_is_missing(n); };
  TSTreeCursor cursor = ts_tree_cursor_new(root.raw());
  // `open`: the shown nodes entered on the way to the cursor, each closed by a `)` on the way
  // back up; the cursor's own depth counts the hidden nodes too.
  std::vector<uint32_t> open{0};
  write_node(root.raw(), nullptr, 0);
  uint32_t depth = 0;   // the cursor's depth below the root
  bool descend = true;  // into the node at the cursor (a node not shown is skipped whole)
  while (true) {
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
    } else {
      // Up until a next sibling, closing the shown nodes left.
      while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
        if (!ts_tree_cursor_goto_parent(&cursor)) {
          for (size_t i = 0; i < open.size(); ++i) out << ")";
          ts_tree_cursor_delete(&cursor);
          return;
        }
        --depth;
        if (!open.empty() && open.back() == depth) {
          out << ")";
          open.pop_back();
        }
      }
    }
    TSNode node = ts_tree_cursor_current_node(&cursor);
    descend = shown(node) && ts_node_child_count(node) > 0;
    if (!shown(node)) continue;
    write_node(node, ts_tree_cursor_current_field_name(&cursor), open.size());
    if (descend)
      open.push_back(depth);
    else
      out << ")";
  }
}

}  // namespace

Runner add_parse_command(CLI::App& app) {
  struct Options {
    std::string input;
    bool tree = false;
    bool positions = true;
  };
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("parse", "Parse a .relax file and show its syntax tree");
  cmd->add_option("file", options->input, "Input file, or - for standard input")->required();
  cmd->add_flag("--tree", options->tree,
                "Print the concrete syntax tree as an S-expression (the default output; "
                "indentation stops growing at 100 levels)");
  cmd->add_flag("!--no-positions", options->positions, "Leave out [row, column] positions");
  add_max_errors_option(cmd);
  cmd->footer(
      "Syntax errors are reported on stderr. Exit codes: 0 ok, 1 syntax errors, 2 usage or I/O "
      "errors.");
  return [options]() -> int {
    auto text = read_input(options->input);
    if (!text) return kExitUsage;
    uint32_t file = ir::SourceManager::global().add(display_name(options->input), *text);
    auto tree = syntax::SyntaxTree::parse(std::move(*text), file);
    std::ostringstream out;
    write_tree(out, tree->root(), options->positions);
    std::cout << out.str() << "\n";
    ir::DiagnosticBag diags = input_diagnostics();
    syntax::report_syntax_errors(*tree, diags);
    print_diagnostics(diags);
    return diags.has_errors() ? kExitInputErrors : kExitOk;
  };
}

}  // namespace relax::cli

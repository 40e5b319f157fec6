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

// Writes `node` and its named descendants as an indented S-expression with positions and
// field names, in the style of `tree-sitter parse`.
void write_tree(std::ostream& out, syntax::Node node, const char* field, int depth,
                bool positions) {
  out << std::string(static_cast<size_t>(depth) * 2, ' ');
  if (field) out << field << ": ";
  if (node.is_missing()) {
    out << "(MISSING "
        << (node.is_named() ? std::string(node.type()) : "\"" + std::string(node.type()) + "\"");
  } else {
    out << "(" << node.type();
  }
  if (positions) {
    TSPoint s = node.start_point(), e = node.end_point();
    out << " [" << s.row << ", " << s.column << "] - [" << e.row << ", " << e.column << "]";
  }
  TSTreeCursor cursor = ts_tree_cursor_new(node.raw());
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&cursor);
      if (!ts_node_is_named(child) && !ts_node_is_missing(child)) continue;
      out << "\n";
      write_tree(out, syntax::Node(child, node.tree()), ts_tree_cursor_current_field_name(&cursor),
                 depth + 1, positions);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  out << ")";
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
                "Print the concrete syntax tree as an S-expression (the default output)");
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
    write_tree(out, tree->root(), nullptr, 0, options->positions);
    std::cout << out.str() << "\n";
    ir::DiagnosticBag diags = input_diagnostics();
    syntax::report_syntax_errors(*tree, diags);
    print_diagnostics(diags);
    return diags.has_errors() ? kExitInputErrors : kExitOk;
  };
}

}  // namespace relax::cli

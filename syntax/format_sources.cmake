# The formatter (syntax/format.h): document algebra, layout rules, safety checks, edits.
list(APPEND RELAX_SYNTAX_FORMAT_SOURCES
  format/ast.cc
  format/comments.cc
  format/diff.cc
  format/doc.cc
  format/format.cc
  format/format_expr.cc
  format/format_stmt.cc
  format/format_support.cc
  format/literals.cc
  format/parser.cc
  format/printer.cc
  format/profile.cc
  format/trivia.cc
  format/verify.cc
  format/verify_tree.cc
)

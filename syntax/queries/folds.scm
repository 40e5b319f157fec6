; Folds (nvim-treesitter `@fold`): a host folds a captured node when it spans several lines.

; Definitions, decorators included
[
  (decorated_definition)
  (function_definition)
  (class_definition)
] @fold

; Blocks: `with R.dataflow():`, `with T.block(...)`, loops, branches
[
  (with_statement)
  (for_statement)
  (while_statement)
  (if_statement)
  (elif_clause)
  (else_clause)
  (unsupported_compound_statement)
  (except_clause)
  (finally_clause)
] @fold

; Multi-line brackets: wrapped signatures, calls, lists, dictionaries
[
  (parameters)
  (argument_list)
  (list)
  (tuple)
  (dictionary)
  (set)
  (parenthesized_expression)
  (subscript)
  (unsupported_comprehension)
] @fold

; Long strings: the metadata JSON payload, docstrings
(string) @fold

; A run of import lines
(import_from_statement) @fold

; Indentation (nvim-treesitter `indents` captures).
;
; A compound statement indents the lines after its header; a bracket indents its continuation
; lines and its closer ends that; `elif`, `else`, `except` and `finally` line up with their `if`
; or `try`; after `return`, `pass`, `break`, `continue` and `raise` the next line dedents.

[
  (function_definition)
  (class_definition)
  (if_statement)
  (elif_clause)
  (else_clause)
  (for_statement)
  (while_statement)
  (with_statement)
  (unsupported_compound_statement)
  (except_clause)
  (finally_clause)
] @indent.begin

; Brackets
[
  (parameters)
  (argument_list)
  (list)
  (tuple)
  (dictionary)
  (set)
  (parenthesized_expression)
  (subscript)
  (type_parameter_list)
  (import_from_statement)
  (unsupported_comprehension)
] @indent.begin

[
  ")"
  "]"
  "}"
] @indent.end @indent.branch

; A header being typed that the parser could not finish yet (`def f(x) -> R.Tensor`).
(ERROR
  "def") @indent.begin

(ERROR
  "(" @indent.align
  (#set! indent.open_delimiter "(")
  (#set! indent.close_delimiter ")"))

(ERROR
  "[" @indent.align
  (#set! indent.open_delimiter "[")
  (#set! indent.close_delimiter "]"))

; Clauses that line up with the statement they continue
[
  "elif"
  "else"
  "except"
  "finally"
] @indent.branch

; The line after these leaves the block
[
  (return_statement)
  (pass_statement)
  (break_statement)
  (continue_statement)
] @indent.dedent

(unsupported_statement
  "raise") @indent.dedent

; Keep the text of multi-line strings (the metadata JSON) and comments as written.
(string) @indent.auto

(comment) @indent.auto

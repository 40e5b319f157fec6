; Scopes, definitions and references (nvim-treesitter `locals` captures).
;
; TVMScript scoping (TEXT_FORMAT 3.9): parameters and signature symbolic variables belong to the
; function; bindings are sequential and may shadow; a `with` body (R.dataflow, T.block), a loop
; body and each `if` branch open a scope. A symbolic shape variable gets its own capture,
; @local.definition.symbolic, so an editor can say "symbolic int64" on hover: `n = T.int64()`,
; `n = TypeVar("n")` and the PEP 695 `def f[n](...)`.

; ---------------------------------------------------------------------------- scopes

(module) @local.scope

(function_definition) @local.scope

(class_definition) @local.scope

(lambda) @local.scope

(with_statement
  body: (block) @local.scope)

(for_statement
  body: (block) @local.scope)

(while_statement
  body: (block) @local.scope)

(if_statement
  consequence: (block) @local.scope)

(elif_clause
  consequence: (block) @local.scope)

(else_clause
  body: (block) @local.scope)

(unsupported_comprehension) @local.scope

; ---------------------------------------------------------------------------- definitions

; A function or class name belongs to the enclosing scope.
(function_definition
  name: (identifier) @local.definition.function
  (#set! definition.function.scope "parent"))

(class_definition
  name: (identifier) @local.definition.type
  (#set! definition.type.scope "parent"))

; Parameters
(parameters
  (identifier) @local.definition.parameter)

(typed_parameter
  name: (identifier) @local.definition.parameter)

(default_parameter
  name: (identifier) @local.definition.parameter)

(typed_default_parameter
  name: (identifier) @local.definition.parameter)

(parameters
  (list_splat_pattern
    (identifier) @local.definition.parameter))

(parameters
  (dictionary_splat_pattern
    (identifier) @local.definition.parameter))

(lambda_parameters
  (identifier) @local.definition.parameter)

; Symbolic shape variables: PEP 695 type parameters ...
(type_parameter
  name: (identifier) @local.definition.symbolic)

; ... `n = T.int64()` (exactly `T.<dtype>()`, no arguments) ...
(assignment
  left: (identifier) @local.definition.symbolic
  right: (call
    function: (attribute
      object: (identifier) @_namespace)
    arguments: (argument_list) @_arguments)
  (#eq? @_namespace "T")
  (#eq? @_arguments "()"))

; ... `m, n = T.int64(), T.int64()` ...
(assignment
  left: (pattern_list
    (identifier) @local.definition.symbolic)
  right: (expression_list
    (call
      function: (attribute
        object: (identifier) @_namespace)
      arguments: (argument_list) @_arguments))
  (#eq? @_namespace "T")
  (#eq? @_arguments "()"))

; ... and `n = TypeVar("n")` at module level.
(assignment
  left: (identifier) @local.definition.symbolic
  right: (call
    function: (identifier) @_typevar)
  (#eq? @_typevar "TypeVar"))

; Other bindings: `x = e`, `x: T = e`, `acc: T.float32`, `a, b = e`, `(a, b) = e`
((assignment
  left: (identifier) @local.definition.var
  right: (_) @_value)
  (#not-match? @_value "^(T\\.[A-Za-z0-9_]+\\(\\)|TypeVar\\()"))

(assignment
  left: (identifier) @local.definition.var
  !right)

((assignment
  left: (pattern_list
    (identifier) @local.definition.var)
  right: (_) @_value)
  (#not-match? @_value "T\\.[A-Za-z0-9_]+\\(\\)"))

(assignment
  left: (pattern_list
    (list_splat_pattern
      (identifier) @local.definition.var)))

(assignment
  left: (tuple_pattern
    (identifier) @local.definition.var))

(assignment
  left: (list_pattern
    (identifier) @local.definition.var))

(augmented_assignment
  left: (identifier) @local.definition.var)

; Loop variables: `for i in range(n)`, `for i, j, k in T.grid(...)`
(for_statement
  left: (identifier) @local.definition.var)

(for_statement
  left: (pattern_list
    (identifier) @local.definition.var))

(for_in_clause
  left: (identifier) @local.definition.var)

(for_in_clause
  left: (pattern_list
    (identifier) @local.definition.var))

; `with T.LetStmt(e) as x:`, `with a as (b, c):`
(with_item
  alias: (identifier) @local.definition.var)

(with_item
  alias: (tuple_pattern
    (identifier) @local.definition.var))

(except_clause
  alias: (identifier) @local.definition.var)

; Imports: `from tvm.script import relax as R`, `import tvm`
(aliased_import
  alias: (identifier) @local.definition.import)

(import_from_statement
  name: (dotted_name
    (identifier) @local.definition.import))

(import_statement
  name: (dotted_name
    .
    (identifier) @local.definition.import))

; ---------------------------------------------------------------------------- references

(identifier) @local.reference

; Injections.
;
; A string dimension in a shape is an embedded expression (TEXT_FORMAT 3.3.2, 4.2): in
; `R.Tensor(("n * 2", 4), "float32")` and `T.Buffer(("n + 1", n), "float32")` the text `n * 2`
; is re-parsed with this grammar, where it reads as an expression statement. Only the string's
; content is injected, so the quotes stay strings. Strings elsewhere (dtypes, names, formats)
; are not code.

; `R.Tensor((...))`, `R.Shape([...])`, `T.Buffer((...))`: strings in the first argument
((call
  function: (attribute
    object: (identifier) @_namespace
    attribute: (identifier) @_constructor)
  arguments: (argument_list
    .
    [
      (tuple
        (string
          (string_content) @injection.content))
      (list
        (string
          (string_content) @injection.content))
    ]))
  (#any-of? @_namespace "R" "T")
  (#any-of? @_constructor "Tensor" "Shape" "Buffer" "match_buffer" "alloc_buffer" "decl_buffer")
  (#set! injection.language "relax"))

; `shape=(...)`
((keyword_argument
  name: (identifier) @_key
  value: [
    (tuple
      (string
        (string_content) @injection.content))
    (list
      (string
        (string_content) @injection.content))
  ])
  (#eq? @_key "shape")
  (#set! injection.language "relax"))

; The legacy subscript form `T.Buffer[("n", 4), "float32"]`
((subscript
  value: (attribute
    object: (identifier) @_namespace
    attribute: (identifier) @_constructor)
  .
  subscript: [
    (tuple
      (string
        (string_content) @injection.content))
    (list
      (string
        (string_content) @injection.content))
  ])
  (#eq? @_namespace "T")
  (#eq? @_constructor "Buffer")
  (#set! injection.language "relax"))

; `R.Prim(value="n + 1")` (legacy)
((keyword_argument
  name: (identifier) @_key
  value: (string
    (string_content) @injection.content))
  (#eq? @_key "value")
  (#set! injection.language "relax"))

; The metadata payload `metadata = tvm.ir.load_json("""{...}""")` is JSON. (Its text is also
; escaped for a Python string, `\"` for `"`, which a JSON parser may flag inside strings.)
((call
  function: (attribute
    attribute: (identifier) @_function)
  arguments: (argument_list
    .
    (string
      (string_content) @injection.content)))
  (#eq? @_function "load_json")
  (#set! injection.language "json"))

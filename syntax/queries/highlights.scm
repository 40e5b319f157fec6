; Syntax highlighting for the relax text format (TVMScript).
;
; Capture names follow nvim-treesitter (0.10 names: @module, @variable.parameter, ...); the
; tree-sitter CLI and other hosts fall back along the dots (@function.builtin -> @function).
; Where several patterns capture one node, the later pattern wins (in nvim and in the
; tree-sitter 0.22 CLI alike), so patterns go from general to specific: the R./T./I. and dtype
; patterns come last.

; ---------------------------------------------------------------------------- identifiers

(identifier) @variable

((identifier) @variable.builtin
  (#any-of? @variable.builtin "cls" "metadata"))

; Calls and attributes

(call
  function: (identifier) @function.call)

(call
  function: (attribute
    attribute: (identifier) @function.method.call))

(attribute
  attribute: (identifier) @variable.member)

; Definitions

(function_definition
  name: (identifier) @function)

(class_definition
  name: (identifier) @type)

(class_definition
  superclasses: (argument_list
    (identifier) @type))

; Parameters

(parameters
  (identifier) @variable.parameter)

(typed_parameter
  name: (identifier) @variable.parameter)

(default_parameter
  name: (identifier) @variable.parameter)

(typed_default_parameter
  name: (identifier) @variable.parameter)

(list_splat_pattern
  (identifier) @variable.parameter)

(dictionary_splat_pattern
  (identifier) @variable.parameter)

(lambda_parameters
  (identifier) @variable.parameter)

(keyword_argument
  name: (identifier) @variable.parameter)

; PEP 695 type parameters are symbolic shape variables.
(type_parameter
  name: (identifier) @type.parameter)

; Decorators: `@R.function`, `@T.prim_func(private=True)`, `@I.ir_module`

(decorator
  "@" @attribute)

(decorator
  value: (identifier) @attribute)

(decorator
  value: (attribute
    attribute: (identifier) @attribute))

(decorator
  value: (call
    function: (identifier) @attribute))

(decorator
  value: (call
    function: (attribute
      attribute: (identifier) @attribute)))

; ---------------------------------------------------------------------------- literals

(comment) @comment @spell

(string) @string

; A docstring: a string statement first in a function or class body.
(function_definition
  body: (block
    .
    (expression_statement
      (string) @string.documentation)))

(class_definition
  body: (block
    .
    (expression_statement
      (string) @string.documentation)))

(integer) @number

(float) @number.float

[
  (true)
  (false)
] @boolean

[
  (none)
  (ellipsis)
] @constant.builtin

; ---------------------------------------------------------------------------- keywords

[
  "def"
  "lambda"
] @keyword.function

"class" @keyword.type

"return" @keyword.return

[
  "if"
  "elif"
  "else"
] @keyword.conditional

(conditional_expression
  [
    "if"
    "else"
  ] @keyword.conditional.ternary)

[
  "for"
  "while"
  (break_statement)
  (continue_statement)
] @keyword.repeat

[
  "import"
  "from"
  "__future__"
] @keyword.import

[
  "and"
  "or"
  "not"
  "in"
  "is"
] @keyword.operator

[
  "with"
  "as"
  (pass_statement)
  "assert"
  "del"
  "global"
  "nonlocal"
] @keyword

; `import x as y` (after the generic `as` above)
(aliased_import
  "as" @keyword.import)

[
  "try"
  "except"
  "finally"
  "raise"
] @keyword.exception

[
  "async"
  "await"
  "yield"
] @keyword.coroutine

; ---------------------------------------------------------------------------- operators

[
  "+"
  "-"
  "*"
  "**"
  "/"
  "//"
  "%"
  "@"
  "|"
  "^"
  "&"
  "~"
  "<<"
  ">>"
  "<"
  "<="
  "=="
  "!="
  ">="
  ">"
  "<>"
  "="
  ":="
  "+="
  "-="
  "*="
  "@="
  "/="
  "//="
  "%="
  "**="
  ">>="
  "<<="
  "&="
  "^="
  "|="
  "->"
] @operator

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
] @punctuation.bracket

[
  ","
  "."
  ":"
  ";"
] @punctuation.delimiter

; ---------------------------------------------------------------------------- dialects

; Captures used only by predicates carry a real highlight name too (no `@_private` names),
; because the tree-sitter CLI highlights every capture name.

; The dialect namespaces R, T, I (and the module-level `tvm`).
((identifier) @module
  (#any-of? @module "R" "T" "I" "tvm" "relax" "tir" "tirx" "ir"))

; `R.add(...)`, `T.evaluate(...)`, `I.module_attrs(...)`
((call
  function: (attribute
    object: (identifier) @module
    attribute: (identifier) @function.builtin))
  (#any-of? @module "R" "T" "I"))

; `R.nn.relu(...)`, `T.axis.remap(...)`, `R.memory.alloc_tensor(...)`
((call
  function: (attribute
    object: (attribute
      object: (identifier) @module)
    attribute: (identifier) @function.builtin))
  (#any-of? @module "R" "T" "I"))

; Types in annotations: `R.Tensor`, `R.Shape`, `R.Object`, `T.Buffer`, `T.int64`, `T.handle`
((attribute
  object: (identifier) @module
  attribute: (identifier) @type.builtin)
  (#any-of? @module "R" "T")
  (#match? @type.builtin "^(Tensor|Shape|Tuple|Object|Any|Prim|Callable|PackedFunc|Buffer|Ptr|handle|let|bool|void|u?int(8|16|32|64)|float(8|16|32|64)|bfloat16|i(8|16|32|64)|u(8|16|32|64)|f(16|32|64)|bf16)(_[a-z0-9]+)?$"))

; Called, the type names are constructors: `R.Tensor((4,), dtype="float32")`, `T.Buffer(...)`.
((call
  function: (attribute
    object: (identifier) @module
    attribute: (identifier) @constructor))
  (#any-of? @module "R" "T")
  (#any-of? @constructor "Tensor" "Shape" "Tuple" "Object" "Any" "Prim" "Callable" "Buffer" "Ptr"
    "handle"))

((subscript
  value: (attribute
    object: (identifier) @module
    attribute: (identifier) @constructor))
  (#eq? @module "T")
  (#any-of? @constructor "Buffer" "Ptr" "let"))

; ---------------------------------------------------------------------------- dtype strings

; `dtype="float32"`, `out_dtype="float16"`
(keyword_argument
  name: (identifier) @variable.parameter
  value: (string) @type.builtin
  (#any-of? @variable.parameter "dtype" "out_dtype"))

; The second argument of `T.Buffer((128, 64), "float32")` and `R.Tensor((4,), "float32")`
((call
  function: (attribute
    object: (identifier) @module
    attribute: (identifier) @constructor)
  arguments: (argument_list
    .
    (_)
    .
    (string) @type.builtin))
  (#any-of? @module "R" "T")
  (#any-of? @constructor "Buffer" "Tensor"))

; ... and of `R.const(1.0, "float32")`, `T.alloc_buffer((16,), "float16")`
((call
  function: (attribute
    object: (identifier) @module
    attribute: (identifier) @function.builtin)
  arguments: (argument_list
    .
    (_)
    .
    (string) @type.builtin))
  (#any-of? @module "R" "T")
  (#any-of? @function.builtin "const" "alloc_buffer" "decl_buffer" "match_buffer"))

; Legacy subscript form `T.Buffer[(1024,), "float32"]`
((subscript
  value: (attribute
    object: (identifier) @module
    attribute: (identifier) @constructor)
  subscript: (_)
  subscript: (string) @type.builtin)
  (#eq? @module "T")
  (#eq? @constructor "Buffer"))

; A dtype first: `R.Prim("int64")`, `T.handle("float32")`
((call
  function: (attribute
    object: (identifier) @module
    attribute: (identifier) @constructor)
  arguments: (argument_list
    .
    (string) @type.builtin))
  (#any-of? @module "R" "T")
  (#any-of? @constructor "Prim" "handle" "Ptr"))

; ... `T.Cast("float16", x)`, `R.dtype("float32")`, `T.call_extern("float32", "expf", x)`
((call
  function: (attribute
    object: (identifier) @module
    attribute: (identifier) @function.builtin)
  arguments: (argument_list
    .
    (string) @type.builtin))
  (#any-of? @module "R" "T")
  (#any-of? @function.builtin "Cast" "dtype" "reinterpret" "call_extern" "call_pure_extern"
    "call_llvm_pure_intrin" "max_value" "min_value" "infinity" "alloc_scalar" "local_scalar"))

; The decorators that open dialects stay attributes.
(decorator
  value: (attribute
    object: (identifier) @module
    attribute: (identifier) @attribute))

(decorator
  value: (call
    function: (attribute
      object: (identifier) @module
      attribute: (identifier) @attribute)))

; ---------------------------------------------------------------------------- last words

; The decorator's `@` is not the matrix-multiply operator.
(decorator
  "@" @attribute)

/**
 * @file Tree-sitter grammar for the relax text format (TVMScript: Relax and TIR modules).
 * @license Apache-2.0
 * @see ../../shared/docs/TEXT_FORMAT.md (sections 1-5 and 8)
 * @see https://docs.python.org/3/reference/grammar.html
 *
 * The text format is a Python subset that TVM reads as a Python AST. This grammar is a pruned
 * Python grammar: it knows nothing about `R`, `T` or `I`; `R.add(x, y)` is an ordinary call of
 * an attribute. The C++ front end classifies the generic tree. Python statements that TVMScript
 * rejects (`del`, `raise`, `try`, comprehensions, ...) still parse, into `unsupported_*` nodes, so
 * the semantic pass can report them in words instead of the parser reporting an ERROR.
 */

// @ts-check
/// <reference types="tree-sitter-cli/dsl" />

/**
 * Precedence levels, lowest first. Python's real order (TEXT_FORMAT 5.3): note that `|` binds
 * looser than `^`, which binds looser than `&`.
 */
const PREC = {
  // `lambda x: a if c else b` keeps the conditional inside the lambda body.
  lambda: -2,
  conditional: -1,
  or: 10,
  and: 11,
  not: 12,
  compare: 13,
  bitwise_or: 14,
  bitwise_xor: 15,
  bitwise_and: 16,
  shift: 17,
  plus: 18,
  times: 19,
  unary: 20,
  // `-x ** 2` is `-(x ** 2)`: a power binds tighter than a unary on its left. Its right operand
  // is a primary expression, which includes unary operators, so `2 ** -1` works too.
  power: 21,
  call: 22,
};

const COMPARISON_OPERATORS = ['<', '<=', '==', '!=', '>=', '>', '<>'];

const AUGMENTED_OPERATORS = [
  '+=', '-=', '*=', '@=', '/=', '//=', '%=', '**=', '>>=', '<<=', '&=', '^=', '|=',
];

const DECIMAL = /[0-9](_?[0-9])*/;
const EXPONENT = /[eE][+-]?[0-9](_?[0-9])*/;
const IMAGINARY = /[jJ]/;

module.exports = grammar({
  name: 'relax',

  // Comments, whitespace (a BOM included) and `\` continuations may appear between any tokens.
  // Newlines are whitespace for the internal lexer; the external scanner decides where a logical
  // line ends and emits _newline / _indent / _dedent. A continuation (explicit line joining) is
  // whitespace too, as in Python's tokenizer: it makes no node, so no consumer of the tree has to
  // skip it.
  extras: $ => [
    $.comment,
    /[\s\uFEFF]/,
    /\\\r?\n/,
  ],

  // Order matters: it is the TokenType enum in src/scanner.c.
  externals: $ => [
    $._newline,
    $._indent,
    $._dedent,
    $.string_start,
    $.string_content,
    $.string_end,
    // Lexed by the internal lexer (the rule below), never by the scanner. Listing it here, an
    // extra and so valid in every state, makes tree-sitter call the scanner in every state,
    // which the end-of-input recovery needs (`y = R.` as the last line gets its NEWLINE and a
    // MISSING name).
    $.comment,
    // The closers are lexed by the internal lexer. Listing them here lets the scanner see in
    // valid_symbols that the parser is inside brackets, where newlines and indentation do not
    // count.
    ')',
    ']',
    '}',
    // Valid exactly where a statement may start (and after decorators), which tells the scanner
    // that a deeper line there is a stray indent. The scanner produces it only as a recovery
    // token: where it is not valid (a header without a block), so that the parser recovers at
    // a statement start, and, silently, for the body of a header that went into an ERROR.
    $._statement_start,
    // Never produced. It is valid exactly where a compound statement's `:` may come.
    $._header_end,
    // Never used by a rule: it is only valid when the parser is recovering from an error (then
    // every symbol is valid), which the scanner uses to act more conservatively.
    $._error_sentinel,
    // Never used by a rule either: the scanner emits it at a stray indent, so the parser has to
    // skip it into a small ERROR node (an INDENT there would be taken as the start of a block
    // by error recovery, which then misplaces the rest of the function).
    $._unexpected_indent,
    // Never used by a rule: the scanner emits it for a block its indent stack cannot hold (more
    // than 255 nested levels, or indented past column 8,388,607), so the region ends up in an
    // ERROR node. It is visible so that the front end can name the problem (E0106).
    $.indent_overflow,
  ],

  inline: $ => [
    $._suite,
    $._expressions,
    $._left_hand_side,
    $._right_hand_side,
    $._collection_element,
    $._import_list,
  ],

  conflicts: $ => [
    // `a, b = c` vs the expression statement `a, b`: an identifier (or attribute, subscript)
    // followed by `,` is a pattern or an expression until the `=` shows up.
    [$.primary_expression, $.pattern],
    // `(a, b) = c` vs `(a, b)`, and the list forms.
    [$.tuple, $.tuple_pattern],
    [$.list, $.list_pattern],
    // `*a, b = c` vs a splat inside a tuple or list display.
    [$.list_splat_pattern, $.primary_expression],
  ],

  // `_statement` itself cannot be one (a line of `;`-separated simple statements has several
  // children), so its two halves are.
  supertypes: $ => [
    $._simple_statement,
    $._compound_statement,
    $.expression,
    $.primary_expression,
    $.pattern,
    $.parameter,
  ],

  word: $ => $.identifier,

  rules: {
    module: $ => repeat($._statement),

    _statement: $ => choice(
      $._simple_statements,
      $._compound_statement,
      // See externals: the scanner never emits it.
      $._statement_start,
    ),

    // ---------------------------------------------------------------- simple statements

    _simple_statements: $ => seq(
      sep1($._simple_statement, ';'),
      optional(';'),
      $._newline,
    ),

    _simple_statement: $ => choice(
      $.future_import_statement,
      $.import_statement,
      $.import_from_statement,
      $.expression_statement,
      $.assignment,
      $.augmented_assignment,
      $.return_statement,
      $.pass_statement,
      $.break_statement,
      $.continue_statement,
      $.assert_statement,
      $.unsupported_statement,
    ),

    import_statement: $ => seq(
      'import',
      $._import_list,
    ),

    import_from_statement: $ => seq(
      'from',
      field('module_name', choice($.relative_import, $.dotted_name)),
      'import',
      choice(
        $.wildcard_import,
        $._import_list,
        seq('(', $._import_list, ')'),
      ),
    ),

    future_import_statement: $ => seq(
      'from',
      '__future__',
      'import',
      choice(
        $._import_list,
        seq('(', $._import_list, ')'),
      ),
    ),

    _import_list: $ => seq(
      commaSep1(field('name', choice($.dotted_name, $.aliased_import))),
      optional(','),
    ),

    relative_import: $ => seq(
      $.import_prefix,
      optional($.dotted_name),
    ),

    import_prefix: _ => repeat1('.'),

    aliased_import: $ => seq(
      field('name', $.dotted_name),
      'as',
      field('alias', $.identifier),
    ),

    wildcard_import: _ => '*',

    dotted_name: $ => prec(1, sep1($.identifier, '.')),

    expression_statement: $ => choice(
      $.expression,
      $.expression_list,
      alias($._yield, $.unsupported_expression),
    ),

    // `x = e`, `a, b = e`, `x: T = e`, the declaration-only `acc: T.float32`, and (rejected
    // later) chained `a = b = e`.
    assignment: $ => seq(
      field('left', $._left_hand_side),
      choice(
        seq('=', field('right', $._right_hand_side)),
        seq(':', field('annotation', $.expression)),
        seq(':', field('annotation', $.expression), '=', field('right', $._right_hand_side)),
      ),
    ),

    augmented_assignment: $ => seq(
      field('left', $._left_hand_side),
      field('operator', choice(...AUGMENTED_OPERATORS)),
      field('right', $._right_hand_side),
    ),

    _left_hand_side: $ => choice($.pattern, $.pattern_list),

    _right_hand_side: $ => choice(
      $.expression,
      $.expression_list,
      $.assignment,
      alias($._yield, $.unsupported_expression),
    ),

    return_statement: $ => seq(
      'return',
      optional(field('value', $._expressions)),
    ),

    pass_statement: _ => 'pass',
    break_statement: _ => 'break',
    continue_statement: _ => 'continue',

    assert_statement: $ => seq(
      'assert',
      field('condition', $.expression),
      optional(seq(',', field('message', $.expression))),
    ),

    // Python statements that TVMScript rejects; `keyword` says which one.
    unsupported_statement: $ => choice(
      seq(field('keyword', 'del'), $._expressions),
      seq(field('keyword', choice('global', 'nonlocal')), commaSep1($.identifier)),
      prec.right(seq(
        field('keyword', 'raise'),
        optional(seq($.expression, optional(seq('from', $.expression)))),
      )),
    ),

    // ---------------------------------------------------------------- compound statements

    _compound_statement: $ => choice(
      $.if_statement,
      $.for_statement,
      $.while_statement,
      $.with_statement,
      $.function_definition,
      $.class_definition,
      $.decorated_definition,
      $.unsupported_compound_statement,
    ),

    if_statement: $ => seq(
      'if',
      field('condition', $.expression),
      $._header_colon,
      field('consequence', $._suite),
      repeat(field('alternative', $.elif_clause)),
      optional(field('alternative', $.else_clause)),
    ),

    elif_clause: $ => seq(
      'elif',
      field('condition', $.expression),
      $._header_colon,
      field('consequence', $._suite),
    ),

    else_clause: $ => seq(
      'else',
      $._header_colon,
      field('body', $._suite),
    ),

    // `for ... else` is Python, not TVMScript: it parses, the semantic pass rejects it.
    for_statement: $ => seq(
      'for',
      field('left', $._left_hand_side),
      'in',
      field('right', $._expressions),
      $._header_colon,
      field('body', $._suite),
      optional(field('alternative', $.else_clause)),
    ),

    while_statement: $ => seq(
      'while',
      field('condition', $.expression),
      $._header_colon,
      field('body', $._suite),
      optional(field('alternative', $.else_clause)),
    ),

    // `with R.dataflow():`, `with T.block("C"):`, `with T.LetStmt(e) as x:`, several items.
    with_statement: $ => seq(
      'with',
      commaSep1($.with_item),
      $._header_colon,
      field('body', $._suite),
    ),

    with_item: $ => seq(
      field('value', $.expression),
      optional(seq('as', field('alias', $.pattern))),
    ),

    decorated_definition: $ => seq(
      repeat1($.decorator),
      // Never produced here; it tells the scanner that the next line starts a statement (the
      // definition), so that its line-recovery heuristics stay out.
      optional($._statement_start),
      field('definition', choice($.function_definition, $.class_definition)),
    ),

    decorator: $ => seq(
      '@',
      field('value', $.expression),
      $._newline,
    ),

    function_definition: $ => seq(
      'def',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameter_list)),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $.expression))),
      $._header_colon,
      field('body', $._suite),
    ),

    class_definition: $ => seq(
      'class',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameter_list)),
      optional(field('superclasses', $.argument_list)),
      $._header_colon,
      field('body', $._suite),
    ),

    // PEP 695: `def main[n](x: R.Tensor((n, 16), "float32"))` (current printer).
    type_parameter_list: $ => seq(
      '[',
      commaSep1($.type_parameter),
      optional(','),
      ']',
    ),

    // `*Ts` and `**P` parse too (Python 3.12); TVMScript has no use for them.
    type_parameter: $ => seq(
      optional(choice('*', '**')),
      field('name', $.identifier),
      optional(seq(':', field('bound', $.expression))),
    ),

    // TVMScript wants `name: annotation` for every parameter; the other Python forms parse so
    // that the semantic pass can say what is wrong.
    parameters: $ => seq(
      '(',
      optional(seq(commaSep1($.parameter), optional(','))),
      ')',
    ),

    parameter: $ => choice(
      $.identifier,
      $.typed_parameter,
      $.default_parameter,
      $.typed_default_parameter,
      $.list_splat_pattern,
      $.dictionary_splat_pattern,
      $.keyword_separator,
      $.positional_separator,
    ),

    typed_parameter: $ => seq(
      field('name', $.identifier),
      ':',
      field('annotation', $.expression),
    ),

    default_parameter: $ => seq(
      field('name', $.identifier),
      '=',
      field('value', $.expression),
    ),

    typed_default_parameter: $ => seq(
      field('name', $.identifier),
      ':',
      field('annotation', $.expression),
      '=',
      field('value', $.expression),
    ),

    keyword_separator: _ => '*',
    positional_separator: _ => '/',

    // The `:` that ends a compound statement's header. The marker before it is never produced
    // by the scanner; it tells the scanner that a header could end here. Where the line ends
    // there instead and an indented body follows, the scanner emits the INDENT. This rule is
    // not inlined, so the parser must reduce it before shifting that INDENT: the reduce action
    // is what lets the parser's recovery insert a MISSING ":".
    _header_colon: $ => seq(optional($._header_end), alias(':', ':')),

    // An indented block, or simple statements on the header's line (`if c: x = 1`).
    _suite: $ => choice(
      alias($._simple_statements, $.block),
      // No NEWLINE between the `:` and the INDENT: so a NEWLINE always ends a statement, and
      // the scanner knows that a deeper line after it is a stray indent.
      seq($._indent, $.block),
    ),

    block: $ => seq(
      repeat1($._statement),
      $._dedent,
    ),

    // `try`/`except`/`finally` and `async def`/`async for`/`async with`.
    unsupported_compound_statement: $ => choice(
      seq(
        field('keyword', 'try'),
        $._header_colon,
        field('body', $._suite),
        repeat($.except_clause),
        optional($.else_clause),
        optional($.finally_clause),
      ),
      seq(
        field('keyword', 'async'),
        choice($.function_definition, $.for_statement, $.with_statement),
      ),
    ),

    except_clause: $ => seq(
      'except',
      optional(seq(
        optional('*'),
        field('value', $.expression),
        optional(seq('as', field('alias', $.identifier))),
      )),
      $._header_colon,
      field('body', $._suite),
    ),

    finally_clause: $ => seq(
      'finally',
      $._header_colon,
      field('body', $._suite),
    ),

    // ---------------------------------------------------------------- patterns (targets)

    pattern: $ => choice(
      $.identifier,
      $.attribute,
      $.subscript,
      $.tuple_pattern,
      $.list_pattern,
      $.list_splat_pattern,
    ),

    // A bare tuple of targets: `vi, vj, vk = T.axis.remap(...)`, `for i, j in T.grid(...)`.
    pattern_list: $ => seq(
      $.pattern,
      choice(
        ',',
        seq(repeat1(seq(',', $.pattern)), optional(',')),
      ),
    ),

    tuple_pattern: $ => seq(
      '(',
      optional(seq(commaSep1($.pattern), optional(','))),
      ')',
    ),

    list_pattern: $ => seq(
      '[',
      optional(seq(commaSep1($.pattern), optional(','))),
      ']',
    ),

    list_splat_pattern: $ => seq('*', $.identifier),

    dictionary_splat_pattern: $ => seq('**', $.identifier),

    // ---------------------------------------------------------------- expressions

    _expressions: $ => choice($.expression, $.expression_list),

    // A bare tuple: `gv = lv1, (lv2,)`, `return a, b`.
    expression_list: $ => prec.right(seq(
      $._collection_element,
      choice(
        ',',
        seq(repeat1(seq(',', $._collection_element)), optional(',')),
      ),
    )),

    expression: $ => choice(
      $.comparison_operator,
      $.not_operator,
      $.boolean_operator,
      $.lambda,
      $.conditional_expression,
      $.primary_expression,
      alias($._named_expression, $.unsupported_expression),
    ),

    primary_expression: $ => choice(
      $.binary_operator,
      $.unary_operator,
      $.identifier,
      $.string,
      $.concatenated_string,
      $.integer,
      $.float,
      $.true,
      $.false,
      $.none,
      $.ellipsis,
      $.attribute,
      $.subscript,
      $.call,
      $.list,
      $.tuple,
      $.dictionary,
      $.set,
      $.parenthesized_expression,
      $.unsupported_comprehension,
      alias($._await, $.unsupported_expression),
    ),

    not_operator: $ => prec(PREC.not, seq(
      'not',
      field('argument', $.expression),
    )),

    boolean_operator: $ => choice(
      prec.left(PREC.and, seq(
        field('left', $.expression),
        field('operator', 'and'),
        field('right', $.expression),
      )),
      prec.left(PREC.or, seq(
        field('left', $.expression),
        field('operator', 'or'),
        field('right', $.expression),
      )),
    ),

    binary_operator: $ => {
      const table = [
        [prec.left, '|', PREC.bitwise_or],
        [prec.left, '^', PREC.bitwise_xor],
        [prec.left, '&', PREC.bitwise_and],
        [prec.left, '<<', PREC.shift],
        [prec.left, '>>', PREC.shift],
        [prec.left, '+', PREC.plus],
        [prec.left, '-', PREC.plus],
        [prec.left, '*', PREC.times],
        [prec.left, '@', PREC.times],
        [prec.left, '/', PREC.times],
        [prec.left, '//', PREC.times],
        [prec.left, '%', PREC.times],
        [prec.right, '**', PREC.power],
      ];
      // @ts-ignore
      return choice(...table.map(([assoc, operator, level]) => assoc(level, seq(
        field('left', $.primary_expression),
        // @ts-ignore
        field('operator', operator),
        field('right', $.primary_expression),
      ))));
    },

    unary_operator: $ => prec(PREC.unary, seq(
      field('operator', choice('+', '-', '~')),
      field('argument', $.primary_expression),
    )),

    // Chained: `0 <= i < n` is one node with three operands.
    comparison_operator: $ => prec.left(PREC.compare, seq(
      $.primary_expression,
      repeat1(seq(
        field('operators', choice(
          ...COMPARISON_OPERATORS,
          'in',
          alias(seq('not', 'in'), 'not in'),
          'is',
          alias(seq('is', 'not'), 'is not'),
        )),
        $.primary_expression,
      )),
    )),

    // `T.index_map(lambda i: (i // 4, i % 4))`, `T.comm_reducer(lambda x, y: x + y, ...)`.
    lambda: $ => prec(PREC.lambda, seq(
      'lambda',
      optional(field('parameters', $.lambda_parameters)),
      ':',
      field('body', $.expression),
    )),

    lambda_parameters: $ => seq(
      commaSep1(choice(
        $.identifier,
        $.default_parameter,
        $.list_splat_pattern,
        $.dictionary_splat_pattern,
        $.keyword_separator,
        $.positional_separator,
      )),
      optional(','),
    ),

    conditional_expression: $ => prec.right(PREC.conditional, seq(
      field('body', $.expression),
      'if',
      field('condition', $.expression),
      'else',
      field('alternative', $.expression),
    )),

    attribute: $ => prec(PREC.call, seq(
      field('object', $.primary_expression),
      '.',
      field('attribute', $.identifier),
    )),

    // `A[vi, vk]`, `A[0:128]`, `A[()]`, `T.Buffer[(1024,), "float32"]`, `metadata["k"][0]`.
    subscript: $ => prec(PREC.call, seq(
      field('value', $.primary_expression),
      '[',
      commaSep1(field('subscript', choice($.expression, $.slice, $.list_splat))),
      optional(','),
      ']',
    )),

    slice: $ => seq(
      optional(field('start', $.expression)),
      ':',
      optional(field('stop', $.expression)),
      optional(seq(':', optional(field('step', $.expression)))),
    ),

    call: $ => prec(PREC.call, seq(
      field('function', $.primary_expression),
      field('arguments', choice(
        $.argument_list,
        alias($._generator_argument, $.unsupported_comprehension),
      )),
    )),

    argument_list: $ => seq(
      '(',
      optional(seq(
        commaSep1(choice($.expression, $.keyword_argument, $.list_splat, $.dictionary_splat)),
        optional(','),
      )),
      ')',
    ),

    keyword_argument: $ => seq(
      field('name', $.identifier),
      '=',
      field('value', $.expression),
    ),

    list_splat: $ => seq('*', $.expression),

    dictionary_splat: $ => seq('**', $.expression),

    parenthesized_expression: $ => seq(
      '(',
      choice($.expression, alias($._yield, $.unsupported_expression)),
      ')',
    ),

    _collection_element: $ => choice($.expression, $.list_splat),

    // `()`, `(a,)`, `(a, b)`; one element without a comma is a parenthesized_expression.
    tuple: $ => seq(
      '(',
      optional(seq(
        $._collection_element,
        choice(
          ',',
          seq(repeat1(seq(',', $._collection_element)), optional(',')),
        ),
      )),
      ')',
    ),

    list: $ => seq(
      '[',
      optional(seq(commaSep1($._collection_element), optional(','))),
      ']',
    ),

    set: $ => seq(
      '{',
      commaSep1($._collection_element),
      optional(','),
      '}',
    ),

    dictionary: $ => seq(
      '{',
      optional(seq(commaSep1(choice($.pair, $.dictionary_splat)), optional(','))),
      '}',
    ),

    pair: $ => seq(
      field('key', $.expression),
      ':',
      field('value', $.expression),
    ),

    // List, set, dict and generator comprehensions: Python only.
    unsupported_comprehension: $ => choice(
      seq('[', field('body', $.expression), $._comprehension_clauses, ']'),
      seq('(', field('body', $.expression), $._comprehension_clauses, ')'),
      seq('{', field('body', choice($.expression, $.pair)), $._comprehension_clauses, '}'),
    ),

    // `f(x for x in y)`: the call's parentheses are the generator's.
    _generator_argument: $ => seq(
      '(',
      field('body', $.expression),
      $._comprehension_clauses,
      ')',
    ),

    _comprehension_clauses: $ => seq(
      $.for_in_clause,
      repeat(choice($.for_in_clause, $.if_clause)),
    ),

    for_in_clause: $ => prec.left(seq(
      optional('async'),
      'for',
      field('left', $._left_hand_side),
      'in',
      field('right', commaSep1($._comprehension_source)),
      optional(','),
    )),

    // Kept narrow (no `and`/`or`/`not`, conditional or lambda, all of which could swallow the
    // comprehension's `if`); comprehensions are rejected later anyway.
    _comprehension_source: $ => choice(
      $.comparison_operator,
      $.primary_expression,
    ),

    if_clause: $ => seq('if', $.expression),

    _await: $ => prec(PREC.unary, seq(field('keyword', 'await'), $.primary_expression)),

    _yield: $ => prec.right(seq(
      field('keyword', 'yield'),
      optional(choice(seq('from', $.expression), $._expressions)),
    )),

    // The walrus `n := e`.
    _named_expression: $ => seq(
      field('name', $.identifier),
      field('keyword', ':='),
      field('value', $.expression),
    ),

    // ---------------------------------------------------------------- atoms

    identifier: _ => /[_\p{XID_Start}][_\p{XID_Continue}]*/,

    // The scanner produces string_start (prefix and opening quote), one string_content for
    // everything up to the closing quote (escapes included, so a 50 KB metadata string is a
    // single token), and string_end.
    string: $ => seq(
      $.string_start,
      optional($.string_content),
      $.string_end,
    ),

    concatenated_string: $ => seq($.string, repeat1($.string)),

    integer: _ => token(choice(
      /0[xX](_?[0-9a-fA-F])+/,
      /0[oO](_?[0-7])+/,
      /0[bB](_?[01])+/,
      DECIMAL,
    )),

    // `1.0`, `.5`, `5.`, `1e-5`, `2.5e-07`; a `j` suffix (complex) parses and is rejected later.
    float: _ => token(choice(
      seq(DECIMAL, '.', optional(DECIMAL), optional(EXPONENT), optional(IMAGINARY)),
      seq('.', DECIMAL, optional(EXPONENT), optional(IMAGINARY)),
      seq(DECIMAL, EXPONENT, optional(IMAGINARY)),
      seq(DECIMAL, IMAGINARY),
    )),

    true: _ => 'True',
    false: _ => 'False',
    none: _ => 'None',
    ellipsis: _ => '...',

    comment: _ => token(seq('#', /[^\r\n]*/)),
  },
});

/**
 * One or more `rule`s separated by `separator`.
 * @param {RuleOrLiteral} rule
 * @param {RuleOrLiteral} separator
 * @returns {SeqRule}
 */
function sep1(rule, separator) {
  return seq(rule, repeat(seq(separator, rule)));
}

/**
 * One or more `rule`s separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {SeqRule}
 */
function commaSep1(rule) {
  return sep1(rule, ',');
}

module.exports.PREC = PREC;

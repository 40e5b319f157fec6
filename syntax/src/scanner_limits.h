/*
 * The limits of the external scanner's indent stack (src/scanner.c), shared with the front end,
 * which names them in E0106. Plain C: the tree-sitter CLI compiles scanner.c on its own.
 */
#ifndef RELAX_SYNTAX_SCANNER_LIMITS_H_
#define RELAX_SYNTAX_SCANNER_LIMITS_H_

/* Levels of the indent stack; level 0 is the module, so MAX_INDENTS - 1 blocks can nest. */
#define RELAX_SCANNER_MAX_INDENTS 256
/* The deepest column a block may open at (23 bits; the 24th marks a stray level). */
#define RELAX_SCANNER_MAX_COLUMN 0x7fffffu

#endif

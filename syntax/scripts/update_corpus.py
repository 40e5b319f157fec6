#!/usr/bin/env python3
"""Rewrites the expected trees of test/corpus/*.txt from the parser's actual output.

`tree-sitter test --update` (0.22) writes trees without field names. This script writes them
with fields, as ts_node_string() of the system libtree-sitter prints them (the runtime the C++
front end uses), indented the way the CLI indents: one named node a line, two spaces a level.
`tree-sitter test` then compares fields too.

Review the diff after running it: the output is what the parser does, not what it should do.

Usage: scripts/update_corpus.py [test/corpus/FILE.txt ...]   (default: all corpus files)
Build build/parse_check first (see tools/parse_check.c).
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..')
CHECK = os.path.join(ROOT, 'build', 'parse_check')

HEADER = re.compile(r'^(={3,})\n(.*?)\n\1\n', re.M | re.S)
DIVIDER = re.compile(r'^-{3,}\n', re.M)


def tokenize(sexp):
    return re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', sexp)


def pretty(sexp):
    """Indents a one-line S-expression the way the tree-sitter CLI does."""
    out = []
    depth = 0
    pending = ''  # a field name waiting for its node
    for tok in tokenize(sexp):
        if tok == '(':
            out.append('\n' + '  ' * depth + pending + '(')
            pending = ''
            depth += 1
            continue
        if tok == ')':
            out.append(')')
            depth -= 1
            continue
        if tok.endswith(':') and not tok.startswith('"'):
            pending = tok + ' '
            continue
        if out and out[-1].endswith('('):
            out.append(tok)
        else:
            out.append(' ' + tok)
    return ''.join(out).lstrip('\n')


def actual_tree(source):
    with tempfile.NamedTemporaryFile('w', suffix='.relax', delete=False, encoding='utf-8',
                                     newline='') as f:
        f.write(source)
        name = f.name
    try:
        out = subprocess.run([CHECK, '-p', name], capture_output=True, text=True).stdout
    finally:
        os.unlink(name)
    return out.splitlines()[0]


def update(path):
    with open(path, encoding='utf-8', newline='') as f:
        text = f.read()
    headers = list(HEADER.finditer(text))
    pieces = [text[:headers[0].start()]] if headers else [text]
    for i, h in enumerate(headers):
        end = headers[i + 1].start() if i + 1 < len(headers) else len(text)
        body = text[h.end():end]
        d = DIVIDER.search(body)
        # The input runs from the header to the divider, less the blank line before it.
        source = body[:d.start()]
        if source.startswith('\n'):
            source = source[1:]
        if source.endswith('\n\n'):
            source = source[:-1]
        tree = pretty(actual_tree(source))
        pieces.append(h.group(0) + body[:d.end()] + '\n' + tree + '\n' + ('\n' if i + 1 < len(headers) else ''))
    with open(path, 'w', encoding='utf-8', newline='') as f:
        f.write(''.join(pieces))


def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, 'test', 'corpus', '*.txt')))
    for path in paths:
        update(path)
    return 0


if __name__ == '__main__':
    sys.exit(main())

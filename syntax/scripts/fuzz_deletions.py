#!/usr/bin/env python3
"""Deletion fuzz for error recovery (TEXT_FORMAT 5.5).

For each input file and each kind of edit, applies single random edits to copies of the file,
parses them with build/parse_check -e (the system libtree-sitter), and reports:
  - detected: an ERROR or MISSING node appeared;
  - local:    every ERROR/MISSING node lies within the edited statement: from the end of the
              line before it (where zero-width NEWLINE tokens sit) to the line after it; a
              header's statement includes its decorators, and re-indenting the first line of a
              block also concerns the block's header;
  - defs:     every function_definition of the original file is still outside ERROR nodes,
              minus the one that holds the edit when the edit breaks its header.

Python's own parser is the oracle: an edit that leaves valid Python (dedenting the last line of
a block, say) should give no error, and is counted apart.

Edits: `colon` deletes the `:` that ends a line; `paren` deletes one `)`; `dedent` removes 4
spaces of a body line's indentation; `indent` adds 4 spaces to a body line.

Usage: scripts/fuzz_deletions.py [--seed N] [--per-kind N] [--show] FILE...
Build build/parse_check first (see tools/parse_check.c).
"""

import argparse
import ast
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, '..', 'build', 'parse_check')


def parse(paths):
    out = subprocess.run([CHECK, '-e', *paths], capture_output=True, text=True).stdout
    results = []
    for line in out.splitlines():
        m = re.match(r'spans((?: \d+-\d+)*) defs (\d+)$', line)
        spans = [tuple(map(int, s.split('-'))) for s in m.group(1).split()]
        results.append((spans, int(m.group(2))))
    return results


def candidates(lines, kind):
    sites = []
    for i, line in enumerate(lines):
        stripped = line.rstrip('\n')
        if kind == 'colon' and re.search(r':\s*$', stripped) and not stripped.lstrip().startswith('#'):
            sites.append((i, stripped.rindex(':')))
        elif kind == 'paren':
            sites.extend((i, j) for j, c in enumerate(stripped) if c == ')')
        elif kind in ('dedent', 'indent') and stripped.startswith('        ') and stripped.strip():
            sites.append((i, 0))
    return sites


def apply(lines, kind, site):
    i, j = site
    lines = list(lines)
    if kind in ('colon', 'paren'):
        lines[i] = lines[i][:j] + lines[i][j + 1:]
    elif kind == 'dedent':
        lines[i] = lines[i][4:]
    else:
        lines[i] = '    ' + lines[i]
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--per-kind', type=int, default=5)
    ap.add_argument('--show', action='store_true', help='print each non-local case')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    kinds = ['colon', 'paren', 'dedent', 'indent']
    stats = {k: [0, 0, 0, 0] for k in kinds}  # invalid cases, detected, local, defs kept
    valid = {k: [0, 0] for k in kinds}  # edits that leave valid Python, and our false errors
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.files:
            with open(path, encoding='utf-8') as f:
                lines = f.readlines()
            (_, defs0), = parse([path])
            jobs = []
            for kind in kinds:
                sites = candidates(lines, kind)
                for site in rng.sample(sites, min(args.per_kind, len(sites))):
                    name = os.path.join(tmp, '%d.relax' % len(jobs))
                    text = ''.join(apply(lines, kind, site))
                    with open(name, 'w', encoding='utf-8') as f:
                        f.write(text)
                    try:
                        ast.parse(text)
                        py_valid = True
                    except SyntaxError:
                        py_valid = False
                    jobs.append((kind, site, name, py_valid))
            if not jobs:
                continue
            for (kind, site, name, py_valid), (spans, defs) in zip(jobs, parse([j[2] for j in jobs])):
                row = site[0] + 1
                if py_valid:
                    valid[kind][0] += 1
                    valid[kind][1] += bool(spans)
                    if spans and args.show:
                        print('%s:%d %s: valid Python, spans %s' % (path, row, kind, spans))
                    continue
                first = row
                # An edit to the first line of a block also concerns the block's header.
                prev = first - 1
                while prev >= 1 and (not lines[prev - 1].strip()
                                     or lines[prev - 1].lstrip().startswith('#')):
                    prev -= 1
                if kind in ('dedent', 'indent') and prev >= 1 and lines[prev - 1].rstrip().endswith(':'):
                    first = prev
                while first > 1 and lines[first - 2].lstrip().startswith('@'):
                    first -= 1
                s = stats[kind]
                s[0] += 1
                s[1] += bool(spans)
                local = bool(spans) and all(first - 1 <= a and b <= row + 1 for a, b in spans)
                s[2] += local
                s[3] += defs >= defs0 - 1
                if args.show and not local:
                    print('%s:%d %s: spans %s, defs %d/%d' % (path, row, kind, spans, defs, defs0))
    print('%-7s %6s %9s %7s %10s %12s' % ('edit', 'cases', 'detected', 'local', 'defs kept',
                                          'still valid'))
    for kind in kinds:
        n, d, l, k = stats[kind]
        if n:
            print('%-7s %6d %8.1f%% %6.1f%% %9.1f%% %6d (%d ERR)' % (
                kind, n, 100 * d / n, 100 * l / n, 100 * k / n, valid[kind][0], valid[kind][1]))
    print('cases: edits that make the file invalid Python; still valid: edits that do not, and')
    print('how many of those we flag anyway (ERR, should be 0)')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""False-positive fuzz: edits that keep a file valid Python must not produce ERROR/MISSING.

For each input, makes variants that insert comment lines (at random indentation, anywhere
outside strings), blank lines, trailing comments, and black-style wraps of long calls at a
comma (continuation indented deeper than the statement, as PEP 8 asks). Python's own parser
confirms each variant is valid; build/parse_check -e must then report no ERROR or MISSING.

Usage: scripts/fuzz_valid.py [--seed N] [--variants N] FILE...
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


def in_string_lines(text):
    """Line numbers (0-based) inside or ending a multi-line string, where insertion is unsafe."""
    bad = set()
    for m in re.finditer(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'', text):
        a = text.count('\n', 0, m.start())
        b = text.count('\n', 0, m.end())
        bad.update(range(a, b + 1))
    return bad


def mutate(lines, rng, unsafe):
    out = list(lines)
    for _ in range(rng.randint(1, 6)):
        kind = rng.choice(['comment', 'blank', 'trailing', 'wrap'])
        i = rng.randrange(len(out) + 1)
        if i in unsafe or (i - 1) in unsafe:
            continue
        if kind == 'comment':
            out.insert(i, ' ' * rng.choice([0, 2, 4, 8, 12, 16, 3]) + '# inserted comment\n')
        elif kind == 'blank':
            out.insert(i, rng.choice(['\n', '   \n', '\t\n']))
        elif kind == 'trailing' and i < len(out) and out[i].strip() and not out[i].rstrip().endswith('\\'):
            if '"' not in out[i] and "'" not in out[i] and '#' not in out[i]:
                out[i] = out[i].rstrip('\n') + '  # trailing\n'
        elif kind == 'wrap' and i < len(out):
            line = out[i]
            indent = len(line) - len(line.lstrip())
            # Wrap after the first ", " that sits inside brackets and outside strings.
            depth, quote = 0, None
            for j, c in enumerate(line):
                if quote:
                    if c == quote:
                        quote = None
                    continue
                if c in '"\'':
                    quote = c
                elif c in '([{':
                    depth += 1
                elif c in ')]}':
                    depth -= 1
                elif c == ',' and depth > 0 and line[j + 1:j + 2] == ' ':
                    out[i] = line[:j + 1] + '\n' + ' ' * (indent + 8) + line[j + 2:]
                    break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=3)
    ap.add_argument('--variants', type=int, default=5)
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    total = invalid_python = flagged = 0
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for path in args.files:
            with open(path, encoding='utf-8') as f:
                text = f.read()
            lines = text.splitlines(keepends=True)
            unsafe = in_string_lines(text)
            for _ in range(args.variants):
                variant = ''.join(mutate(lines, rng, unsafe))
                try:
                    ast.parse(variant)
                except SyntaxError:
                    invalid_python += 1
                    continue
                name = os.path.join(tmp, '%d.relax' % len(jobs))
                with open(name, 'w', encoding='utf-8') as f:
                    f.write(variant)
                jobs.append((path, name))
        for k in range(0, len(jobs), 300):
            chunk = jobs[k:k + 300]
            out = subprocess.run([CHECK, '-e', *[j[1] for j in chunk]], capture_output=True,
                                 text=True).stdout.splitlines()
            for (path, name), line in zip(chunk, out):
                total += 1
                if not line.startswith('spans defs'):
                    flagged += 1
                    if flagged <= 5:
                        keep = os.path.join('/tmp', 'fuzz_valid_%d.relax' % flagged)
                        with open(name) as src, open(keep, 'w') as dst:
                            dst.write(src.read())
                        print('false error: %s (variant kept as %s): %s' % (path, keep, line))
    print('%d valid-Python variants parsed, %d with ERROR/MISSING (should be 0); '
          '%d variants skipped as invalid Python' % (total, flagged, invalid_python))
    return 1 if flagged else 0


if __name__ == '__main__':
    sys.exit(main())

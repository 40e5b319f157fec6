#!/usr/bin/env python3
"""Robustness fuzz: random truncations, deletions and insertions must never crash or hang.

Each input yields N variants (cut at a random byte, delete a random span, or insert one of a
set of troublesome snippets: brackets, quotes, triple quotes, colons, line breaks, tabs, `\\`,
`@`, keywords, CRLF). All are parsed by build/parse_check with a time limit; the script fails
if the checker crashes or runs out of time. ERROR nodes are expected and only counted.

Usage: scripts/fuzz_random.py [--seed N] [--variants N] FILE...
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, '..', 'build', 'parse_check')
SNIPPETS = ['(', ')', '[', ']', '{', '}', '"', "'", '"""', "'''", ':', '\n', '    ', '\t', '#',
            '\\\n', ',', '@', 'def ', 'if ', 'else:', 'lambda ', 'return', '\r\n', 'R.', '=']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--variants', type=int, default=20)
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, path in enumerate(args.files):
            with open(path, encoding='utf-8') as f:
                text = f.read()
            for k in range(args.variants):
                cut = rng.randrange(max(1, len(text)))
                mode = rng.choice(['truncate', 'delete', 'insert'])
                if mode == 'truncate':
                    variant = text[:cut]
                elif mode == 'delete':
                    variant = text[:cut] + text[cut + rng.randrange(1, 40):]
                else:
                    variant = text[:cut] + rng.choice(SNIPPETS) + text[cut:]
                name = os.path.join(tmp, '%d_%d.relax' % (i, k))
                with open(name, 'w', encoding='utf-8') as f:
                    f.write(variant)
                paths.append(name)
        with_errors = 0
        for k in range(0, len(paths), 200):
            chunk = paths[k:k + 200]
            try:
                run = subprocess.run([CHECK, '-e', *chunk], capture_output=True, text=True,
                                     timeout=60)
            except subprocess.TimeoutExpired:
                print('hang in one of %s ... (kept nothing)' % chunk[0])
                return 1
            if run.returncode not in (0, 1):
                print('parse_check failed (status %d) on a chunk starting at %s' %
                      (run.returncode, chunk[0]))
                return 1
            with_errors += sum(1 for line in run.stdout.splitlines()
                               if not line.startswith('spans defs'))
    print('%d mutated files parsed without a crash or hang (%d with ERROR/MISSING nodes)' %
          (len(paths), with_errors))
    return 0


if __name__ == '__main__':
    sys.exit(main())

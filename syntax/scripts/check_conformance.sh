#!/usr/bin/env bash
# check_conformance.sh: parses every shared test input and reports ERROR/MISSING counts and
# parse times, through the tree-sitter CLI and through the system libtree-sitter (0.20.7).
#
#   scripts/check_conformance.sh [SHARED_DIR]      (default: ../../shared from this folder)
#
# Inputs: SHARED/examples/*.relax, SHARED/conformance/tvm-v0.20/*.relax,
# SHARED/conformance/large_module_20k.relax. The conformance files are read where they are;
# they are TVM's output and are never copied into this repository. The same files are parsed
# again with CRLF line ends and with tab indentation, which must change nothing. The query files
# are compiled by the system runtime too.
# Exit status: 0 when no file has an ERROR or MISSING node.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
shared=${1:-$here/../../shared}
shared=$(cd "$shared" && pwd)
ts=${TREE_SITTER:-$shared/tools/tree-sitter}
check=$here/build/parse_check

if [[ ! -d $shared/conformance ]]; then
  echo "skipped: $shared/conformance is absent"
  exit 0
fi

mkdir -p "$here/build"
cc -std=c99 -O2 -I "$here/src" "$here/tools/parse_check.c" "$here/src/parser.c" \
  "$here/src/scanner.c" -ltree-sitter -o "$check"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ls "$shared"/examples/*.relax >"$tmp/examples.txt"
ls "$shared"/conformance/tvm-v0.20/*.relax >"$tmp/conformance.txt"
large=$shared/conformance/large_module_20k.relax

status=0
cd "$here"
for set in examples conformance; do
  n=$(wc -l <"$tmp/$set.txt")
  # The CLI prints one line per file with an error, then a summary.
  out=$("$ts" parse -q -s --paths "$tmp/$set.txt" 2>&1 || true)
  echo "CLI $set ($n files): $(echo "$out" | grep '^Total parses' || echo "$out" | tail -n 3)"
  if echo "$out" | grep -q 'failed parses: [1-9]'; then status=1; fi
done
echo "CLI large_module_20k: $("$ts" parse -q -t "$large" 2>&1 | head -n 1)"

echo "libtree-sitter (system runtime):"
"$check" -Q queries/highlights.scm -Q queries/locals.scm -Q queries/folds.scm \
  -Q queries/indents.scm -Q queries/injections.scm || status=1
"$check" $(cat "$tmp/examples.txt" "$tmp/conformance.txt") "$large" | tail -n 1 || status=1
"$check" -t "$large" | head -n 1 || status=1

# The same files with CRLF line ends and with each 4-space indent step written as a tab.
mkdir -p "$tmp/crlf" "$tmp/tabs"
i=0
while read -r f; do
  sed 's/$/\r/' "$f" >"$tmp/crlf/$i.relax"
  sed -E ':a; s/^(\t*)    /\1\t/; ta' "$f" >"$tmp/tabs/$i.relax"
  i=$((i + 1))
done < <(cat "$tmp/examples.txt" "$tmp/conformance.txt")
echo "CRLF copies: $("$check" "$tmp"/crlf/*.relax | tail -n 1)" || status=1
echo "tab-indented copies: $("$check" "$tmp"/tabs/*.relax | tail -n 1)" || status=1
exit $status

#!/usr/bin/env bash
# Generates the seed corpora of the fuzz harnesses into OUT_DIR (a build folder; nothing here is
# committed, and the conformance files, TVM's output, are read in place and never copied into
# the repository): OUT_DIR/text from examples/, tests/ (every .relax file and the printed golden
# expectations), ../shared/examples and ../shared/conformance (files up to 64 KiB, the harnesses'
# cap; with --every N, only every Nth conformance file, sorted by name, so that a short run does
# not spend its time on the seeds); OUT_DIR/npy, safetensors, executable from make_seeds, plus
# executables compiled from the examples when a `relax` binary is given.
# Usage: scripts/fuzz_corpus.sh [--every N] OUT_DIR MAKE_SEEDS [RELAX_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
every=1
if [[ ${1:-} == --every ]]; then
  every=$2
  shift 2
fi
if (($# < 2)); then
  echo "usage: scripts/fuzz_corpus.sh [--every N] OUT_DIR MAKE_SEEDS [RELAX_BINARY]" >&2
  exit 2
fi
out=$1 make_seeds=$2 relax=${3:-}
max_bytes=65536

rm -rf "$out"
mkdir -p "$out/text"
# Copies text seeds, named after their paths so that two files never collide.
add_text() {
  local file
  for file in "$@"; do
    [[ -f "$file" ]] || continue
    (($(stat -c %s "$file") <= max_bytes)) || continue
    cp "$file" "$out/text/$(echo "$file" | tr '/' '_' | sed 's/^[._]*//')"
  done
}
add_text examples/*.relax
while IFS= read -r -d '' f; do add_text "$f"; done \
  < <(find tests -type f \( -name '*.relax' -o -path 'tests/golden/print/*.expected' \) -print0)
shared=../shared
if [[ -d "$shared/examples" ]]; then add_text "$shared"/examples/*.relax; fi
if [[ -d "$shared/conformance" ]]; then
  n=0
  while IFS= read -r -d '' f; do
    if ((n++ % every == 0)); then add_text "$f"; fi
  done < <(find "$shared/conformance" -type f -name '*.relax' -print0 | sort -z)
else
  echo "fuzz_corpus: $shared/conformance is absent: text seeds from the repository only" >&2
fi

"$make_seeds" "$out"
if [[ -n "$relax" && -x "$relax" ]]; then
  for f in examples/*.relax; do
    "$relax" build "$f" --emit=bytecode -o "$out/executable/$(basename "$f" .relax).rlxexe" \
      >/dev/null 2>&1 || echo "fuzz_corpus: could not compile $f (skipped)" >&2
  done
fi
for kind in text npy safetensors executable; do
  echo "fuzz_corpus: $kind: $(find "$out/$kind" -type f | wc -l) seeds"
done

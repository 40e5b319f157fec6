#!/usr/bin/env bash
# Installs dependencies, configures a preset, builds everything and runs the whole test suite
# through CTest. Presets: dev (the default: gcc, warnings as errors); asan (gcc, Debug, the same
# suite under AddressSanitizer + UndefinedBehaviorSanitizer); fuzz (clang 19, the same suite
# under ASan + UBSan in the build that also holds the libFuzzer harnesses). `all` is what CI
# runs: dev, then fuzz, then each libFuzzer harness for a bounded time (scripts/fuzz.sh,
# FUZZ_TIME seconds each, 45 by default).
# Usage: scripts/test.sh [dev|asan|fuzz|all]
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."
preset=${1:-dev}
case $preset in
  dev|asan|fuzz) ;;
  all)
    start=$SECONDS
    "$self" dev
    echo "test.sh: dev suite done ($((SECONDS - start)) s)"
    "$self" fuzz
    echo "test.sh: sanitizer suite done ($((SECONDS - start)) s)"
    scripts/fuzz.sh --time "${FUZZ_TIME:-45}"
    echo "test.sh: all done ($((SECONDS - start)) s)"
    exit 0 ;;
  *) echo "usage: scripts/test.sh [dev|asan|fuzz|all]" >&2; exit 2 ;;
esac
build_preset=$preset
[[ $preset == fuzz ]] && build_preset=fuzz-suite
scripts/setup.sh
cmake --preset "$preset"
cmake --build --preset "$build_preset"
ctest --preset "$preset" --output-on-failure -j "$(nproc)"

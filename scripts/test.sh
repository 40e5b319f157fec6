#!/usr/bin/env bash
# Installs dependencies, configures a preset (dev by default: warnings as errors; asan: the same
# suite under AddressSanitizer + UndefinedBehaviorSanitizer), builds everything and runs the whole
# test suite through CTest.
# Usage: scripts/test.sh [dev|asan]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
case $preset in
  dev|asan) ;;
  *) echo "usage: scripts/test.sh [dev|asan]" >&2; exit 2 ;;
esac
scripts/setup.sh
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset" --output-on-failure -j "$(nproc)"

#!/usr/bin/env bash
# README's main command: installs dependencies, builds the release preset and runs the main job
# on an example (today: parse it, report diagnostics and print it in canonical form).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release
cmake --build --preset release --target relax
example=${1:-examples/vector_add.relax}
./build/release/cli/relax print "$example"

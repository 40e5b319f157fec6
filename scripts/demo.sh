#!/usr/bin/env bash
# README's main command: installs dependencies, builds the release preset, then compiles and runs
# a model: the seed tutorial's SimpleCNN (examples/simple_cnn.relax) through the default CPU
# pipeline (LegalizeOps, the default schedule, memory planning, LLVM code generation) on the VM,
# with random inputs and weights, printing the result and a per-kernel profile.
# Usage: scripts/demo.sh [FILE.relax [relax run options...]]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release
cmake --build --preset release --target relax
example=${1:-examples/simple_cnn.relax}
shift || true
./build/release/cli/relax check "$example"
./build/release/cli/relax run "$example" --random --profile "$@"

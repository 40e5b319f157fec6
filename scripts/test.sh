#!/usr/bin/env bash
# Installs dependencies, configures (dev preset: warnings as errors), builds everything and runs
# the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset dev
cmake --build --preset dev
ctest --preset dev --output-on-failure -j "$(nproc)"

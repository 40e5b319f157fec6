#!/usr/bin/env bash
# Runs the seed's SimpleCNN, an MLP 784-512-512-10 and a 1024^3 float32 matmul through
# `relax run` (default CPU pipeline, LLVM code, the VM) and prints latency and GFLOP/s next to
# TVM v0.20's untuned figures on this machine (../shared/docs/PERFORMANCE.md).
# Usage: bench/models_bench.sh [RELAX_BINARY]   (default: build/release/cli/relax, else build/dev)
set -euo pipefail
cd "$(dirname "$0")/.."
relax=${1:-}
if [ -z "$relax" ]; then
  for c in build/release/cli/relax build/dev/cli/relax; do
    [ -x "$c" ] && relax=$c && break
  done
fi
[ -x "${relax:-}" ] || { echo "models_bench: build relax first (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }

# name | file | extra args | repeats | GFLOP per call | TVM untuned
run() {
  local name=$1 file=$2 args=$3 repeat=$4 gflop=$5 tvm=$6
  # shellcheck disable=SC2086
  local line
  line=$("$relax" run "$file" --random $args --repeat "$repeat" | grep '^time:')
  # "time: min 123.66 ms, median 125.10 ms, mean 130.24 ms, p90 140.02 ms over 3 runs (1 warm-up)"
  local best unit
  best=$(echo "$line" | sed -E 's/.*min ([0-9.]+) ([a-zµ]+).*/\1/')
  unit=$(echo "$line" | sed -E 's/.*min ([0-9.]+) ([a-zµ]+).*/\2/')
  local seconds
  case $unit in
    s) seconds=$best ;;
    ms) seconds=$(awk "BEGIN{print $best/1e3}") ;;
    us|µs) seconds=$(awk "BEGIN{print $best/1e6}") ;;
    ns) seconds=$(awk "BEGIN{print $best/1e9}") ;;
  esac
  printf '%-28s %12s %-3s %10.2f GFLOP/s    TVM v0.20 untuned: %s\n' "$name" "$best" "$unit" \
    "$(awk "BEGIN{print $gflop/$seconds}")" "$tvm"
}

echo "relax run, min of N after warm-up (random inputs): latency, throughput"
run "SimpleCNN 1x3x32x32" examples/simple_cnn.relax "" 200 0.000885 "42 us"
run "MLP 784-512-512-10, batch 1" examples/mlp.relax "--shape batch=1" 200 0.001337 "1.69 ms"
run "MLP 784-512-512-10, batch 64" examples/mlp.relax "--shape batch=64" 20 0.08557 "73 ms"
run "matmul 1024^3 float32" examples/matmul.relax "" 5 2.147 "5.0 s"

#!/usr/bin/env bash
# Builds the libFuzzer harnesses (the fuzz preset: clang 19, ASan + UBSan), generates their seed
# corpora into build/fuzz/seeds and runs each harness for a bounded time, several at once.
# A crash, a broken property, a leak, a timeout or running out of memory fails the script; the
# input is saved under build/fuzz/artifacts/<harness>/ (docs/fuzzing.md says what to do next).
# The mutations follow FUZZ_SEED (1 unless set), so that a run is repeatable; set another
# seed (or `FUZZ_SEED=0`, libFuzzer's random one) to explore further.
# Usage: scripts/fuzz.sh [--time SECONDS] [--jobs N] [--full-corpus] [HARNESS...]
#   default: every harness for 60 s, as many at once as there are cores, seeded with the
#   repository's files and every 32nd conformance module (--full-corpus: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."

time_s=${FUZZ_TIME:-60}
jobs=$(nproc)
every=32
harnesses=()
while (($#)); do
  case $1 in
    --time) time_s=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --full-corpus) every=1; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) harnesses+=("$1"); shift ;;
  esac
done
all=(check_fuzzer fmt_fuzzer print_fuzzer npy_fuzzer safetensors_fuzzer executable_fuzzer)
((${#harnesses[@]})) || harnesses=("${all[@]}")

scripts/setup.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

build=build/fuzz
relax_bin=""
[[ -x build/dev/cli/relax ]] && relax_bin=build/dev/cli/relax
scripts/fuzz_corpus.sh --every "$every" "$build/seeds" "$build/fuzz/make_seeds" "$relax_bin"

# The seed folder and the extra flags of each harness.
seeds_of() {
  case $1 in
    check_fuzzer|fmt_fuzzer|print_fuzzer) echo text ;;
    npy_fuzzer) echo npy ;;
    safetensors_fuzzer) echo safetensors ;;
    executable_fuzzer) echo executable ;;
    *) echo "fuzz.sh: unknown harness $1 (one of: ${all[*]})" >&2; exit 2 ;;
  esac
}

run_one() {
  local h=$1 seeds dict=()
  seeds=$(seeds_of "$h")
  [[ $seeds == text ]] && dict=(-dict=fuzz/relax.dict)
  local corpus=$build/corpus/$h artifacts=$build/artifacts/$h/ regressions=()
  mkdir -p "$corpus" "$artifacts"
  [[ -d tests/fuzz_regressions/$h ]] && regressions=(tests/fuzz_regressions/$h)
  # The first folder receives what the run finds; the others are read only.
  "$build/fuzz/$h" "$corpus" "$build/seeds/$seeds" "${regressions[@]}" "${dict[@]}" \
    -max_total_time="$time_s" -seed="${FUZZ_SEED:-1}" -rss_limit_mb=2048 -timeout=25 -max_len=65536 \
    -artifact_prefix="$artifacts" -print_final_stats=1 >"$build/logs/$h.log" 2>&1
}

mkdir -p "$build/logs"
# The `relax` command runs on a 256 MiB stack (cli/main.cc) so that the deepest input the depth
# limits admit fits even with a sanitizer's larger frames; the harnesses get the same.
ulimit -s 262144 2>/dev/null || ulimit -s unlimited 2>/dev/null || true
declare -A pid_of
start=$SECONDS
for h in "${harnesses[@]}"; do
  seeds_of "$h" >/dev/null
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  run_one "$h" &
  pid_of[$h]=$!
done
failed=()
for h in "${harnesses[@]}"; do
  if wait "${pid_of[$h]}"; then status=ok; else status=FAILED; failed+=("$h"); fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/logs/$h.log" | grep -o '[0-9]*$' || true)
  echo "fuzz: $h: $status (${execs:-?} runs; log $build/logs/$h.log)"
done
echo "fuzz: ${#harnesses[@]} harnesses, ${time_s} s each, $jobs at once, $((SECONDS - start)) s in all"
if ((${#failed[@]})); then
  for h in "${failed[@]}"; do
    echo "---- $h (the end of $build/logs/$h.log)"
    tail -n 40 "$build/logs/$h.log"
    echo "fuzz: $h: reproduce with $build/fuzz/$h $build/artifacts/$h/<file>"
  done
  exit 1
fi

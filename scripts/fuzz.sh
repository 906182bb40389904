#!/usr/bin/env bash
# Runs the libFuzzer harnesses of fuzz/ (built by `scripts/build.sh
# --sanitize` into build-asan/, with ASan and UBSan) one after another.
#
#   fuzz.sh [--ci | --seconds=N | --minutes=N] [--jobs=J] [NAME...]
#
# NAME: request, hints, cpu-answer, gpu-answer, llm-reply, pipeline (default: all), each
# for N seconds (default 45; --minutes=N for a longer local run), with a
# random seed: exploration, done by developers. --ci is what CI runs: a fixed
# seed and a fixed number of inputs per fuzzer (the table below), so the same
# tree always fuzzes the same inputs and a CI result does not depend on luck;
# new findings come from local runs and land in fuzz/corpus/. Every fuzzer first replays its seeds (fuzz/seeds.py: from test/,
# hints/, examples/) and fuzz/corpus/NAME/ (inputs that once failed:
# regression tests), then mutates. New interesting inputs collect in
# build-asan/fuzz/corpus/NAME/ (kept between runs); an input that crashes,
# leaks, hits undefined behaviour, times out or fails a FUZZ_CHECK is saved
# in build-asan/fuzz/crashes/NAME/ and the script fails. Time limits: one
# input 25 s (-timeout, also while the seeds are replayed: a stuck input is
# a finding); the mutation phase the seconds above or, with --ci, 120 s
# (-max_total_time, which libFuzzer looks at only after the replay); the
# whole fuzzer process that plus 15 min (coreutils timeout), so a long run
# of slow seeds cannot hold CI either.
# Reproduce one: build-asan/bin/tensorop-fuzz-NAME FILE
# --jobs=J runs up to J fuzzers at once (default 1; CI passes the number of
# cores): each is one process with its own seed, input count and corpus, so
# what each fuzzes does not change; their reports are printed in order.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=45
ci=0
jobs=1
# Wall time a fuzzer process may take beyond its -max_total_time: the
# replay of its seeds and corpus, which -max_total_time does not bound
# (the pipeline's 575 seeds took 428 s at a load of 11, 2026-12-03).
replay_allowance=900
names=()
for arg in "$@"; do
  case "$arg" in
    --ci) ci=1 ;;
    --seconds=*) seconds=${arg#--seconds=} ;;
    --minutes=*) seconds=$(( ${arg#--minutes=} * 60 )) ;;
    --jobs=*) jobs=${arg#--jobs=} ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$arg'" >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: time must be a whole number" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "fuzz.sh: --jobs takes a whole number from 1" >&2; exit 2 ;; esac
# Longest first (pipeline, then cpu-answer: 4000 inputs each through the
# pipeline or the CPU answer checks): with --jobs=J the stage ends when the
# last long fuzzer does, and started last the pipeline fuzzer (up to its
# 120 s cap) ran alone at the end. The order changes no fuzzer's inputs.
[ "${#names[@]}" -gt 0 ] || names=(pipeline cpu-answer request hints gpu-answer llm-reply)
build=build-asan
work=$build/fuzz
python3 fuzz/seeds.py "$work/seeds" || exit 1
# The pipeline's emitter cache and anything else written under a cache dir
# stays in the build tree.
export TENSOROP_CACHE_DIR="$PWD/$work/cache"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
if [ -x /usr/lib/llvm-22/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
fi
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# One fuzzer: its report on stdout; fails on a finding or a missing binary.
fuzz_one() {
  local name=$1 bin runs rc limits cap wall
  bin=$build/bin/tensorop-fuzz-$name
  if [ ! -x "$bin" ]; then
    echo "fuzz.sh: $bin is missing (scripts/build.sh --sanitize builds it)" >&2
    return 1
  fi
  mkdir -p "$work/corpus/$name" "$work/crashes/$name" "fuzz/corpus/$name"
  # -timeout: one input may take at most 25 s (the pipeline's first run of
  # an emitter script takes about one); -rss_limit_mb: a leak or a
  # quadratic input shows as a failure, not a swapping machine.
  cap=$seconds
  if [ $ci = 1 ]; then
    # 8-105 s each (pipeline the longest) on the 2-core development machine
    # under a load of 11 (2026-11-30), 2 min in all when idle;
    # the time cap only guards a much slower machine, and not the replay of
    # the seeds (the pipeline's 575 took 428 s at a load of 11, 2026-12-03).
    case "$name" in
      request) runs=40000 ;; hints) runs=400000 ;; gpu-answer) runs=300000 ;;
      llm-reply) runs=400000 ;;
      cpu-answer|pipeline) runs=4000 ;; *) runs=10000 ;;
    esac
    cap=120
    limits=(-seed=1 -runs="$runs")
    echo "== fuzz $name: $runs inputs, seed 1"
  else
    limits=()
    echo "== fuzz $name for ${seconds}s"
  fi
  wall=$((cap + replay_allowance))
  timeout -k 30 "$wall" "$bin" "${limits[@]}" -max_total_time="$cap" \
    -timeout=25 -rss_limit_mb=2560 \
    -print_final_stats=1 -artifact_prefix="$work/crashes/$name/" \
    "$work/corpus/$name" "$work/seeds/$name" "fuzz/corpus/$name" \
    > "$work/$name.log" 2>&1
  rc=$?
  grep -aE "^(INFO: Seed|INFO: seed corpus|stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)" "$work/$name.log"
  if [ $rc -eq 124 ]; then
    echo "fuzz $name: FAILED: still running after ${wall}s (-max_total_time=$cap" \
      "plus ${replay_allowance}s for the replay), stopped; the end of $work/$name.log:"
    tail -40 "$work/$name.log"
    return 1
  fi
  if [ $rc -ne 0 ]; then
    echo "fuzz $name: FAILED (exit $rc); the end of $work/$name.log:"
    tail -40 "$work/$name.log"
    return 1
  fi
  echo "fuzz $name: ok"
}

failed=()
if [ "$jobs" = 1 ]; then
  for name in "${names[@]}"; do
    fuzz_one "$name" || failed+=("$name")
  done
else
  # Up to $jobs at once; each report (and exit status) kept in a file.
  for name in "${names[@]}"; do
    rm -f "$work/$name.rc"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    ( fuzz_one "$name" > "$work/$name.report" 2>&1; echo $? > "$work/$name.rc" ) &
  done
  wait
  for name in "${names[@]}"; do
    cat "$work/$name.report"
    [ "$(cat "$work/$name.rc" 2>/dev/null)" = 0 ] || failed+=("$name")
  done
fi
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz.sh: failed: ${failed[*]} (inputs in $work/crashes/)"
  exit 1
fi
if [ $ci = 1 ]; then
  echo "fuzz.sh: all ${#names[@]} fuzzers ran their CI inputs without a finding"
else
  echo "fuzz.sh: all ${#names[@]} fuzzers ran ${seconds}s each without a finding"
fi

#!/usr/bin/env bash
# tests/fuzz/long.sh BIN_DIR WORK_DIR — `make fuzz-long`: every libFuzzer target in BIN_DIR run
# until it has executed RUNS inputs or SECONDS have passed, whichever comes first, on JOBS
# cores (libFuzzer's -fork mode), then a summary: target, inputs, seconds, exec/s, corpus
# size, crashes. Exits non-zero when any target crashed, leaked, timed out or ran out of
# memory.
#
# The corpus is kept between runs in WORK_DIR/corpus/<name>/ (seeded, and topped up, from the
# committed tests/fuzz/corpus/<name>/; the tree is never written unless MERGE=1). Crash
# inputs land in WORK_DIR/artifacts/<name>/ (crash-*, leak-*, timeout-*, oom-*), each
# target's log in WORK_DIR/logs/<name>.log. Replay an input with `BIN_DIR/<name> FILE`.
#
# Environment (the Makefile's variables of the same names):
#   FUZZ_LONG_RUNS     inputs per target (default 10000000; 0: no limit, the time alone)
#   FUZZ_LONG_SECONDS  seconds per target (default 3600; 0: no limit, the inputs alone)
#   FUZZ_LONG_JOBS     processes per target (default: the number of cores)
#   FUZZ_LONG_TARGETS  names to run, e.g. "model vk_adapter" (default: every fuzz_* in BIN_DIR)
#   FUZZ_LONG_MERGE    1: afterwards, add kept inputs that reach new code to tests/fuzz/corpus/
set -uo pipefail
bins=$1; work=$2
runs=${FUZZ_LONG_RUNS:-10000000}; secs=${FUZZ_LONG_SECONDS:-3600}
jobs=${FUZZ_LONG_JOBS:-$(nproc 2>/dev/null || echo 2)}
merge=${FUZZ_LONG_MERGE:-0}
here=$(cd "$(dirname "$0")" && pwd)
# a leak inside Debian 12's libfyaml itself is suppressed (see lsan.supp for why)
export LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
[ "$runs" -gt 0 ] || [ "$secs" -gt 0 ] || { echo "fuzz-long: FUZZ_LONG_RUNS and FUZZ_LONG_SECONDS both 0" >&2; exit 2; }

if [ -n "${FUZZ_LONG_TARGETS:-}" ]; then
  list=""; for t in $FUZZ_LONG_TARGETS; do list="$list $bins/fuzz_${t#fuzz_}"; done
else
  list=$(ls "$bins"/fuzz_* 2>/dev/null)
fi
mkdir -p "$work/corpus" "$work/artifacts" "$work/logs"
summary="$work/summary.txt"
printf '%-20s %12s %8s %9s %8s %8s  %s\n' target inputs seconds exec/s corpus crashes result \
  >"$summary"
bad=0
for bin in $list; do
  [ -x "$bin" ] || { echo "fuzz-long: no target $bin" >&2; bad=$((bad + 1)); continue; }
  name=$(basename "$bin"); short=${name#fuzz_}
  corpus="$work/corpus/$short"; art="$work/artifacts/$short"; log="$work/logs/$short.log"
  mkdir -p "$corpus" "$art"
  [ -d "$here/corpus/$short" ] && cp -rn "$here/corpus/$short"/. "$corpus"/
  before=$(ls "$art" | wc -l)
  echo "fuzz-long: $name (runs $runs, seconds $secs, jobs $jobs) ..."
  flags=(-fork="$jobs" -ignore_crashes=1 -max_len=65536 -timeout=10 -rss_limit_mb=2048
    -artifact_prefix="$art/")
  [ "$runs" -gt 0 ] && flags+=(-runs="$runs")
  [ "$secs" -gt 0 ] && flags+=(-max_total_time="$secs")
  t0=$(date +%s)
  "$bin" "${flags[@]}" "$corpus" >"$log" 2>&1
  rc=$?
  t1=$(date +%s); el=$((t1 - t0)); [ "$el" -gt 0 ] || el=1
  # fork mode's status lines: "#N: cov: .. corp: .. exec/s E oom/timeout/crash: a/b/c time: .."
  # and, when the inputs ran out, "INFO: fuzzed for N iterations, wrapping up soon".
  n=$(sed -nE 's/^INFO: fuzzed for ([0-9]+) iterations.*/\1/p' "$log" | tail -1)
  [ -n "$n" ] || n=$(sed -nE 's/^#([0-9]+): cov:.*/\1/p' "$log" | tail -1)
  n=${n:-0}
  crashes=$(($(ls "$art" | wc -l) - before))
  size=$(ls "$corpus" | wc -l)
  if [ "$crashes" -gt 0 ] || [ "$rc" -ne 0 ]; then
    result="FAILED (exit $rc; see $art/ and $log)"; bad=$((bad + 1))
  elif [ "$runs" -gt 0 ] && [ "$n" -ge "$runs" ]; then
    result="reached $runs inputs"
  else
    result="stopped at the time limit"
  fi
  printf '%-20s %12s %8s %9s %8s %8s  %s\n' "$name" "$n" "$el" $((n / el)) "$size" "$crashes" \
    "$result" >>"$summary"
  if [ "$merge" = 1 ] && [ "$crashes" -eq 0 ]; then
    mkdir -p "$here/corpus/$short"
    "$bin" -merge=1 -max_len=65536 -timeout=10 "$here/corpus/$short" "$corpus" \
      >>"$log" 2>&1 || echo "fuzz-long: merge into tests/fuzz/corpus/$short failed" >&2
  fi
done
echo "fuzz-long: summary (also in $summary)"
cat "$summary"
if [ "$bad" -gt 0 ]; then
  echo "fuzz-long: $bad target(s) failed; crash inputs under $work/artifacts/"
  exit 1
fi
echo "fuzz-long: every target clean"

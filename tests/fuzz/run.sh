#!/usr/bin/env bash
# tests/fuzz/run.sh DIR SECONDS — runs every libFuzzer target in DIR for SECONDS each,
# starting from tests/fuzz/corpus/<name>/ (copied, so the tree is never written).
set -euo pipefail
dir=$1; secs=$2
here=$(cd "$(dirname "$0")" && pwd)
# a leak inside Debian 12's libfyaml itself is suppressed (see lsan.supp for why)
export LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fail=0; n=0
for bin in "$dir"/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin"); n=$((n+1))
  work=$(mktemp -d); seed="$here/corpus/${name#fuzz_}"
  [ -d "$seed" ] && cp -r "$seed"/. "$work"/
  if "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$work/" "$work" >"$work/log" 2>&1; then
    echo "fuzz: $name ok ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/log" | awk '{print $2}') runs)"
  else
    echo "fuzz: $name FAILED"; tail -40 "$work/log"; fail=$((fail+1))
  fi
  rm -rf "$work"
done
echo "fuzz: $n targets, $((n-fail)) passed, $fail failed"
[ "$fail" -eq 0 ]

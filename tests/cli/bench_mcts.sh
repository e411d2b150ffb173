#!/usr/bin/env bash
# tests/cli/bench_mcts.sh BIN_DIR [SOURCE_DIR] — `opfor bench mcts` end to end: short runs at
# one level on Viktoria! (text and JSON, the keys the benchmark table relies on), every other
# registered ruleset on request, and usage errors.
# Each check greps the output for exact expected text; any failure makes the script exit 1.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"

run 0 bench mcts --help
has "usage: opfor bench mcts"

# Text: Viktoria! by default, one row for the level asked, the standard target line.
run 0 bench mcts --level standard --decisions 4
has "mcts on viktoria: Viktoria!, heuristic planner; positions from competitive_default and patrol_default"
has "4 decisions (seed 20261126), 1 thread, pool 64 MiB, 1 run (medians)"
grep -qE '^standard +[0-9]+ +[0-9]+ ' "$out" || fail "no standard row"
grep -q '^novice' "$out" && fail "novice row printed though only standard was asked"
has "target at standard (p95 <= 150 ms, pool <= 64 MiB): "

# JSON on one scenario, two runs: one document with the figures per level.
run 0 bench mcts --level novice --decisions 3 --runs 2 --scenario patrol_default --json
python3 - "$out" <<'PY' || fail "JSON lacks the expected figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["benchmark"] == "mcts" and d["toy"] is False and d["ruleset"] == "viktoria"
assert d["evaluator"] == "planner" and "patrol_default" in d["workload"]
assert d["decisions"] == 3 and d["threads"] == 1 and d["runs"] == 2
lv = d["levels"]["novice"]
for k in ("iterations_per_s", "mean_iterations", "median_ms", "p95_ms", "max_ms", "pool_bytes",
          "peak_node_bytes", "memory_bytes"):
    assert k in lv, k
assert lv["pool_bytes"] <= 64 << 20
assert 0 < lv["peak_node_bytes"] <= lv["pool_bytes"] <= lv["memory_bytes"]
assert lv["median_ms"] <= lv["p95_ms"] <= lv["max_ms"]
assert d["target"]["met"] == "not measured"
PY

# Progress on standard error in long runs (a line at most every 5 s of measuring: checked only
# when the command took 8 s or more); the table stays on standard output.
start=$(date +%s)
run 0 bench mcts --level veteran --decisions 4 --runs 10
if [ $(($(date +%s) - start)) -ge 8 ]; then
  grep -qE '^bench mcts: [0-9]+/10 level runs done \(veteran run [0-9]+ of 10\), [0-9]+ s$' "$err" ||
    fail "no progress line in a run of 8 s or more"
fi
grep -q '^veteran ' "$out" || fail "no veteran row"

# Every other registered ruleset on request (the names from the usage error's list).
run 2 bench mcts --ruleset nope
others=$(sed -n "s/.*--ruleset must be one of \(.*\); got 'nope'.*/\1/p" "$err" | tr -d ',')
[ -n "$others" ] || fail "no ruleset list in the usage error"
for rs in $others; do
  [ "$rs" = viktoria ] && continue
  run 0 bench mcts --ruleset "$rs" --level novice --decisions 3 --json
  python3 - "$out" "$rs" <<'PY' || fail "$rs JSON lacks the expected figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["benchmark"] == "mcts" and d["ruleset"] == sys.argv[2] and d["toy"] is False
assert d["levels"]["novice"]["budget_iterations"] == 200
assert d["levels"]["novice"]["mean_iterations"] > 0
PY
done

# Usage errors name the flag and the allowed values; exit 2.
run 2 bench mcts --level godlike
has_err "opfor: bench mcts: --level must be novice, standard, veteran, ruthless or challenge, got 'godlike'"
run 2 bench mcts --ruleset nope
has_err "--ruleset must be one of viktoria"
run 1 bench mcts --scenario no_such_scenario --decisions 1
has_err "opfor: bench mcts: viktoria: no_such_scenario"
run 2 bench mcts --runs 0
has_err "--runs must be a whole number from 1 to 15"
run 2 bench mcts --decisions 0
has_err "--decisions must be a whole number from 1 to 10000"
run 2 bench mcts --threads 99
has_err "--threads must be a whole number from 1 to 64"
run 2 bench mcts --frobnicate
has_err "unknown flag '--frobnicate'"
# the bench command's own table names every benchmark, and mcts runs only alone
run 2 bench nope
has_err "unknown benchmark 'nope'; allowed: calc, engine, mcts, rpc, web, display, club"
run 2 bench calc mcts
has_err "bench: mcts runs alone, with its own options: opfor bench mcts --help"
run 0 bench --help
has "opfor bench engine|mcts|rpc|web|display|club [OPTIONS]"

finish "$fails check(s) failed" "bench_mcts: all checks passed"

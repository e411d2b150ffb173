#!/usr/bin/env bash
# tests/cli/play.sh BIN_DIR [SOURCE_DIR] — `opfor play duel` end to end through a pipe: a whole
# game to its result line, the same seed the same game, help/show/bad input, quit, input
# ending early, --json lines, and usage errors. The duel is a test-only ruleset: without it
# (built without -DOPFOR_TEST_RULESETS=ON) the test says so and passes.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"

if "$bin" play duel </dev/null 2>&1 | grep -qF "not built"; then
  echo "play: SKIP: the duel ruleset is not built (configure with -DOPFOR_TEST_RULESETS=ON)"
  exit 0
fi

# Plays with stdin from the given lines (then 40 times "1": always the first action).
play() {
  local want=$1 lines=$2
  shift 2
  { printf '%b' "$lines"; for _ in $(seq 40); do echo 1; done; } |
    "$bin" play duel "$@" >"$out" 2>"$err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "opfor play duel $* exited $rc, want $want"
}

# A whole game through the pipe, with help, show and a bad command on the way.
play 0 'help\nshow\nfrobnicate\n0\n' --seed 5 --level novice
has "Dice duel (test ruleset), seed 5: you are side 0"
has "your move (side 0):"
has "  1. Red "
has "type the number of an action"
has "error: not a command"
has "dice: roll 1D6 for"
has "ai (side 1): Blue "
grep -Eq '^result: (side [01] wins \((you|the AI)\)|a draw), returns [-+][0-9.]+ [-+][0-9.]+$' "$out" ||
  fail "no result line"
[ "$(grep -c '^result: ' "$out")" -eq 1 ] || fail "not exactly one result line"
first="$tmp/first"
cp "$out" "$first"

# The same seed, the same game; another seed, another.
play 0 'help\nshow\nfrobnicate\n0\n' --seed 5 --level novice
cmp -s "$out" "$first" || fail "two games with the same seed differ"
play 0 '' --seed 6 --level novice
has "result: "
cmp -s "$out" "$first" && fail "another seed gave the same game"

# The AI may take side 0: the player is Blue.
play 0 '' --seed 2 --side 1 --level novice
has "ai (side 0): Red "
has "your move (side 1):"
has "result: "

# A scenario file: one round of 2 hit points ends after two turns at most.
printf 'hp: 2\nrounds: 1\n' >"$tmp/short.duel"
play 0 '' --seed 3 --level novice --scenario "$tmp/short.duel"
has "table: Red 2hp (to act), Blue 2hp"
has "result: "
[ "$(grep -c '^your move' "$out")" -eq 1 ] || fail "a one-round duel asked for more than one move"
printf 'hp: 2\nspeed: 3\n' >"$tmp/bad.duel"
play 1 '' --scenario "$tmp/bad.duel"
has_err "bad.duel:2:1: unknown key 'speed'"

# quit leaves at once; input ending before the game is a failure.
{ echo quit; } | "$bin" play duel --seed 1 --level novice >"$out" 2>"$err"
[ $? -eq 0 ] || fail "quit did not exit 0"
grep -q '^result: ' "$out" && fail "a result after quit"
has "quit: you left the game"
printf '1\n' | "$bin" play duel --seed 1 --level novice >"$out" 2>"$err"
[ $? -eq 1 ] || fail "input ending early did not exit 1"
has_err "input ended before the game did"

# --json: one valid JSON object per line, the last one the result.
play 0 '' --seed 5 --level novice --json
python3 - "$out" <<'PY' || fail "the --json lines are not what they should be"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows and rows[-1]["type"] == "result", rows[-1]
assert rows[-1]["winner"] in (-1, 0, 1)
assert abs(sum(rows[-1]["returns"])) < 1e-9
types = {r["type"] for r in rows}
assert {"prompt", "ai", "dice", "you", "table"} <= types, types
PY

# Usage errors exit 2.
run 2 play
has_err "which ruleset?"
run 2 play no-such-ruleset
has_err "'no-such-ruleset' is not built in"
run 2 play duel --side 2
has_err "--side must be from 0 to 1"
run 2 play duel --level genius
has_err "--level"
run 0 play --help
has "usage: opfor play RULESET"

finish "play: FAILED" "play: all checks passed"

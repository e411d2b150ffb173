#!/usr/bin/env bash
# tests/cli/arena.sh BIN_DIR [SOURCE_DIR] — `opfor arena` end to end with small N: the same
# command prints the same result with one or two threads, seeds matter, the counts add up,
# JSON is valid and complete (also in Patrol Mode with the director), and bad flags exit 2
# naming the flag and its allowed values while an unreadable scenario exits 1.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"
first="$tmp/first"

# Help, and the command is listed.
run 0 arena --help
has "usage: opfor arena"
has "mcts:LEVEL"
run 0 --help
has "arena"

# The same command gives the same result with 1 and 2 threads; another seed differs.
run 0 arena --a table --b random --games 12 --seed 5 --threads 1
has "arena: table (a) vs random (b), competitive, 12 games, seed 5"
has "win_rate_a "
has "(95% CI "
cp "$out" "$first"
run 0 arena --a table --b random --games 12 --seed 5 --threads 2
cmp -s "$out" "$first" || fail "one and two threads differ"
run 0 arena --a random --b random --games 12 --seed 6 --json
json_ok
[ "$(json_get 'd["wins_a"]+d["wins_b"]+d["draws"]+d["errors"]')" = 12 ] || fail "counts do not add up to 12"
[ "$(json_get 'd["a_by_side"][0]["games"]')" = 6 ] || fail "a did not play side 0 in half the games"
[ "$(json_get 'd["a_by_side"][1]["games"]')" = 6 ] || fail "a did not play side 1 in half the games"
[ "$(json_get '0 <= d["ci95"][0] <= d["win_rate_a"] <= d["ci95"][1] <= 1')" = True ] ||
  fail "win_rate_a is not inside its interval"

# Patrol Mode: a is the non-player side, the director steers and places generals.
run 0 arena --a table --b weak --games 4 --seed 3 --mode patrol --rollouts 2 --json
json_ok
has '"mode":"patrol"'
has '"scenarios":["patrol_default"]'
[ "$(json_get 'd["patrol"]["director"]')" = True ] || fail "the director is not on"
[ "$(json_get 'd["patrol"]["spottings"] >= d["patrol"]["steered"] >= 0')" = True ] ||
  fail "more spottings steered than made"
[ "$(json_get 'd["a_by_side"][1]["games"]')" = 4 ] || fail "a did not keep the non-player side"
run 0 arena --a table --b medium --games 4 --seed 3 --mode patrol --director off
has "director off"
has "player (b) win rate "
has " 0 steered"

# Progress on standard error also for fewer than 20 games, when they take long (a line at most
# every 5 s: checked only when the run took 7 s or more); --quiet silences it.
start=$(date +%s)
run 0 arena --a mcts:novice --b random --games 12 --seed 1
if [ $(($(date +%s) - start)) -ge 7 ]; then
  grep -qE '^arena: [0-9]+/12 games, ' "$err" || fail "no progress line in a run of 7 s or more"
fi
run 0 arena --a table --b random --games 12 --seed 1 --quiet
[ -s "$err" ] && fail "--quiet printed on standard error"

# Usage errors name the flag and the allowed values; missing files fail with exit 1.
run 2 arena --a table --b nonsense --games 2 --seed 1
has_err "--b must be one of"
run 2 arena --a table --b random --games 0 --seed 1
has_err "--games must be a whole number"
run 2 arena --a table --b random --games 2
has_err "--seed S is required"
run 2 arena --a table --b random --games 2 --seed 1 --mode solo
has_err "--mode must be competitive or patrol"
run 2 arena --a table --b random --games 2 --seed 1 --threads 99
has_err "--threads must be"
run 2 arena --a table --b random --games 2 --seed 1 --band 70-30
has_err "--band must be LO-HI"
run 2 arena --a table --b random --games 2 --seed 1 --bogus
has_err "unknown option '--bogus'"
run 2 arena --a table --b random --games 2 --seed 1 --scenario=
has_err "arena: --scenario needs a file name"
run 1 arena --a table --b random --games 2 --seed 1 --scenario /nonexistent/x.yaml
has_err "opfor: arena: "

finish "arena.sh: $fails failed" "arena.sh: $fails failed"

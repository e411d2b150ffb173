#!/usr/bin/env bash
# tests/cli/ruleset_commands.sh BIN_DIR [SOURCE_DIR] — the commands a ruleset registers itself
# (RULESET_COMMANDS in rulesets/NAME/ruleset.cmake) and the generic ones over the interface:
# `opfor --help` lists a ruleset's own command (patrol), `opfor selfplay RULESET` and
# `opfor bench engine --ruleset NAME` run the ruleset's own version when it brings one and the
# generic one (ai/arena policies, random playouts) when not: the latter on the test-only duel,
# so without it (built without -DOPFOR_TEST_RULESETS=ON) those checks are skipped.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"

# A ruleset's own command is listed and runs; its own selfplay is not a second command.
run 0 --help
has "  patrol     Patrol Mode"
grep -c "^  selfplay " "$out" | grep -qx 1 || fail "selfplay listed more than once"
run 0 patrol --help
has "usage: opfor patrol"

# Viktoria!'s own selfplay and engine benchmark, through the generic commands.
run 0 selfplay Viktoria --games 1 --seed 3
has "scenario: Encounter at Lindenau"
run 0 bench engine --ruleset viktoria --seconds 0.01 --json
json_eq "d['name']" "engine"
json_eq "'random_kind_activations_per_s' in d" "True"
run 2 bench engine --ruleset chess
has_err "bench engine: --ruleset must be a registered ruleset, got 'chess'"
run 2 bench engine --ruleset
has_err "bench engine: --ruleset needs a value"

if ! "$bin" selfplay duel --games 1 --seed 1 >/dev/null 2>&1; then
  echo "ruleset_commands: duel not built: the generic paths are skipped"
  finish "$fails check(s) failed" "ruleset_commands: all checks passed"
  exit 0
fi

# The generic selfplay: seeded, the same output every time, arena policies by name.
run 0 selfplay duel --games 4 --seed 7
has "ruleset: duel"
has "summary: 4 games, a won"
cp "$out" "$tmp/first"
run 0 selfplay duel --games 4 --seed 7
cmp -s "$out" "$tmp/first" || fail "selfplay duel: the same seed gave another output"
run 0 selfplay duel --games 2 --seed 1 --policy-a mcts:novice --json
json_ok
json_eq "d['policy_a']" "mcts:novice"
json_eq "len(d['games'])" "2"
json_eq "d['summary']['wins_a'] + d['summary']['wins_b'] + d['summary']['draws']" "2"
run 2 selfplay duel --games 1 --seed 1 --policy-b clever
has_err "--policy-b must be one of random"
run 2 selfplay duel --seed 1
has_err "--games N is required"
run 0 selfplay --help
has "usage: opfor selfplay RULESET"
has "usage: opfor selfplay viktoria"

# The generic engine benchmark.
run 0 bench engine --ruleset duel --seconds 0.01 --json
json_eq "d['ruleset']" "duel"
json_eq "d['games_per_s'] > 0 and d['activations_per_s'] > 0" "True"

finish "$fails check(s) failed" "ruleset_commands: all checks passed"

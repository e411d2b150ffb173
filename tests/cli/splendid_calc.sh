#!/usr/bin/env bash
# tests/cli/splendid_calc.sh BIN_DIR [SOURCE_DIR] — `opfor calc splendid` end to end: --list
# and --list --json name the six actions, each action's --json carries the shared schema
# (dice, needed, p, expected, distribution, the breakpoints' quarter/third/half), --rolled
# gives the outcome, an edited model is read, and a forbidden roll or a bad die exits 2.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"

run 0 calc splendid --list
for a in breakpoints command test fire artillery melee; do has "$a "; done
run 0 calc splendid --list --json
json_ok
json_eq "[a['name'] for a in d['actions']]" \
  "['breakpoints', 'command', 'test', 'fire', 'artillery', 'melee']"

run 0 calc splendid breakpoints --stands 69 --json
json_ok
json_eq "(d['facts']['quarter'], d['facts']['third'], d['facts']['half'])" "(18, 23, 35)"

run 0 calc splendid fire --stands 4 --target block --mounted --json
json_ok
json_eq "(d['dice'], d['needed'], d['expected'], len(d['distribution']))" \
  "('6D6', '2 or less', 2, 7)"
json_eq "round(d['distribution'][0]['p'] * 729)" "64"
run 0 calc splendid fire --stands 4 --target block --mounted --rolled 1,2,2,4,5,6 --json
json_eq "(d['success'], d['outcome'].split(',')[0])" "(True, '3 hits')"

run 0 calc splendid artillery --gun heavy --range 19 --target block --rolled 2,2,5
has "2 hits, 1 miss"
run 0 calc splendid melee --stand hand-to-hand --stands 5 --defender block --json
json_eq "(d['dice'], d['needed'], d['expected'])" "('5D6', '3 or less', 2.5)"
run 0 calc splendid test --kind hold-back --open-order --json
json_eq "(d['dice'], d['needed'], round(d['p'] * 6))" "('1D6', '5 or less', 5)"
run 0 calc splendid command --rank commander --rolled 1
has "charismatic, units within 9 in"

# an edited model (a partial file)
printf 'quality:\n  regular: {fire: 3}\n' >"$tmp/model.yaml"
run 0 calc splendid fire --stands 2 --model "$tmp/model.yaml" --json
json_eq "d['needed']" "3 or less"
printf 'quality:\n  elite: {fire: 3}\n' >"$tmp/bad.yaml"
run 1 calc splendid fire --model "$tmp/bad.yaml"
has_err "bad.yaml:2"

# refusals
run 2 calc splendid artillery --gun frame --range 25
has_err "cannot fire beyond 20 in"
run 2 calc splendid test --kind charge --open-order
has_err "open order cannot charge"
run 2 calc splendid fire --stands 3 --rolled 1,2
has_err "3 thrown"

finish "splendid calc: FAILED" "splendid calc: ok"

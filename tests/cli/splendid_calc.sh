#!/usr/bin/env bash
# tests/cli/splendid_calc.sh BIN_DIR [SOURCE_DIR] — `opfor calc splendid` end to end: --list
# and --list --json name the six actions, each action's --json carries the shared schema
# (dice, needed, p, expected, distribution, the breakpoints' quarter/third/half), --rolled
# gives the outcome, an edited model is read, a forbidden roll answers "allowed": false
# (exit 0) while a bad die exits 2, the readings' options, terrain (--terrain, an edited
# model's terrain:) and the army generator.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"

run 0 calc splendid --list
for a in breakpoints command test fire artillery melee army; do has "$a "; done
run 0 calc splendid --list --json
json_ok
json_eq "[a['name'] for a in d['actions']]" \
  "['breakpoints', 'command', 'test', 'fire', 'artillery', 'melee', 'army']"

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

# terrain (docs/splendid.md 5): the target's cover, the bounce target's, a foot stand's own;
# a game master's numbers in an edited model
run 0 calc splendid fire --stands 4 --target block --terrain woods --json
json_eq "(d['dice'], d['working']['terrain_dice'])" "('4D6', -1)"
run 0 calc splendid melee --stand pikes --terrain town --json
json_eq "(d['dice'], d['needed'])" "('1D6', '5 or less')"
run 0 calc splendid artillery --gun heavy --range 15 --bounce --bounce-terrain woods --json
json_eq "round(d['bounce']['expected'] * 27)" "4"
printf 'terrain:\n  woods: {fire_dice: -2}\n' >"$tmp/woods.yaml"
run 0 calc splendid fire --stands 4 --target block --terrain woods --model "$tmp/woods.yaml" --json
json_eq "d['dice']" "3D6"
printf 'terrain:\n  swamp: {cv: 1}\n' >"$tmp/swamp.yaml"
run 1 calc splendid fire --model "$tmp/swamp.yaml"
has_err "swamp.yaml:2"

# a roll the rules forbid is an answer: exit 0, "Not allowed" and the rule; --json says
# "allowed": false with the reason; bad input stays exit 2 naming the field or the dice
run 0 calc splendid artillery --gun frame --range 25
has "Not allowed: a frame gun cannot fire beyond 20 in"
run 0 calc splendid artillery --gun frame --range 25 --json
json_eq "(d['allowed'], d['reason'], d['dice'], d['distribution'])" \
  "(False, 'a frame gun cannot fire beyond 20 in', '', [])"
run 0 calc splendid test --kind charge --open-order --json
has '"allowed":false,"reason":"a foot unit in open order cannot charge'
run 0 calc splendid fire --stands 1 --target open-order --json
has 'the stands cannot fire (R-12)","fields"'
run 0 calc splendid melee --outflank --defender defensive-block --json
has '"allowed":false,"reason":"a defensive block cannot be outflanked"'
run 0 calc splendid fire --stands 3 --json
has '"allowed":true,"fields"'
run 2 calc splendid fire --stands 3 --rolled 1,2
has_err "3 thrown"
run 2 calc splendid artillery --gun siege --range 5
has_err "gun: 'siege' is not one of frame, regular, heavy"

# R-16 (open_order_may_charge: mounted) and R-2/R-30 (a command stand is mounted, in open
# order): the readings docs/splendid.md takes, and the model options that change them
run 0 calc splendid test --kind charge --open-order --mounted --json
has '"allowed":true'
has '"needed":"3 or less"'
printf 'readings: {open_order_may_charge: none, command_stand_mounted: false}\n' >"$tmp/r.yaml"
run 0 calc splendid test --kind charge --open-order --mounted --model "$tmp/r.yaml" --json
has '"allowed":false'
run 0 calc splendid melee --stand command --defender open-order --json
has '"facts":{"cv":3}'
run 0 calc splendid melee --stand command --defender open-order --model "$tmp/r.yaml" --json
has '"facts":{"cv":2}'

# the test vectors of docs/splendid.md 8.8
run 0 calc splendid artillery --gun heavy --range 19 --target block --bounce --json
json_eq "round(d['facts']['bounce_expected'] * 3, 6)" "2.0"
run 0 calc splendid artillery --gun regular --range 5 --target line --mounted --defensive --json
json_eq "(round(d['facts']['flinch'] * 27, 6), round(d['facts']['overrun'] * 27, 6))" "(7.0, 20.0)"
run 0 calc splendid test --kind charge-home --heavy --json
has '"expected":2.5,'
run 0 calc splendid test --kind extend --mounted --gap 3 --rolled 2
has "short of the target, 1 marker"
run 0 calc splendid test --kind initiative --rolled 5,8
has "the side with 5 has the initiative"

# the army generator (§Appendix): the table's chances, a throw's units, a seeded army, a
# collection with what it lacks and substitutes, --out for a scenario, errors with line:col
run 0 calc splendid --list
has "army "
run 0 calc splendid army --json
json_eq "(d['dice'], len(d['distribution']), round(d['facts']['pike_and_musket'] * 36, 6))" \
  "('2D6', 11, 20.0)"
json_eq "[round(x['p'] * 36, 6) for x in d['distribution']]" \
  "[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]"
run 0 calc splendid army --rolled 3 --json
json_eq "[u['type'] for u in d['army']['units']]" "['mounted', 'mounted']"
run 0 calc splendid army --throws 12 --seed 7 --json
cp "$out" "$tmp/seed7.json"
run 0 calc splendid army --throws 12 --seed 7 --json
cmp -s "$out" "$tmp/seed7.json" || fail "--seed 7 twice gave two armies"
json_eq "len(d['army']['throws'])" "12"
cat >"$tmp/coll.yaml" <<'EOF2'
# the units I own
units:
  - {name: Lord Saye's Regiment, type: pike_and_musket, stands: {pike: 2, musket: 4}}
  - {type: foot, stands: 5}
  - {name: Rupert's Horse, type: mounted, stands: 4}
EOF2
run 0 calc splendid army --rolled 10 --collection "$tmp/coll.yaml"
has "Foot 1 (5: 5 hand_to_hand)"
has "Not fielded: throw 1: Regular Artillery: no Regular Artillery unit left in the collection"
run 0 calc splendid army --rolled 4 --collection "$tmp/coll.yaml" --json
has '"units":[],"not_fielded":[{"throw":1,"type":"dragoon",'
run 0 calc splendid army --rolled 4 --collection "$tmp/coll.yaml" --substitute --json
json_eq "(d['army']['units'][0]['owned'], d['army']['units'][0]['substitute_for'])" \
  "(\"Rupert's Horse\", 'dragoon')"
run 0 calc splendid army --rolled 9,3 --side Parliament --out "$tmp/army.yaml"
has "Written: $tmp/army.yaml"
grep -q '^units:$' "$tmp/army.yaml" || fail "--out: no units: list"
[ "$(grep -c '^  - {name: ' "$tmp/army.yaml")" = 6 ] || fail "--out: not 4 units and 2 command"
grep -q 'type: pike_and_musket, quality: regular, formation: block' "$tmp/army.yaml" ||
  fail "--out: no Pike and Musket block"
grep -q 'side: "Parliament"' "$tmp/army.yaml" || fail "--out: side not written"
run 2 calc splendid army --out "$tmp/none.yaml"
has_err "needs its throws"
run 2 calc splendid fire --stands 2 --out "$tmp/none.yaml"
has_err "only the army action writes a file"
printf 'units:\n  - {type: foot}\n  - {type: cannon, stands: 1}\n' >"$tmp/bad_coll.yaml"
run 2 calc splendid army --rolled 7 --collection "$tmp/bad_coll.yaml"
has_err "bad_coll.yaml:3:12: type: unknown 'cannon'"
run 2 calc splendid army --rolled 13
has_err "2D6 totals (2 to 12)"

# through a daemon (opford's calc method): the same answers, a forbidden roll as
# "allowed": false, the army with its units
if [ -x "$(dirname "$bin")/opford" ]; then
  dwork=$(mktemp -d /tmp/svcalc.XXXXXX)
  "$(dirname "$bin")/opford" --socket "$dwork/s" --state-dir "$dwork/st" --log-level error \
    >"$dwork/log" 2>&1 &
  dpid=$!
  trap 'kill "$dpid" 2>/dev/null; rm -rf "$tmp" "$dwork"' EXIT
  for _ in $(seq 100); do [ -S "$dwork/s" ] && break; sleep 0.1; done
  run 0 calc splendid artillery --gun frame --range 25 --json --connect "$dwork/s"
  has '"allowed":false,"reason":"a frame gun cannot fire beyond 20 in"'
  run 0 calc splendid artillery --gun frame --range 25 --connect "$dwork/s"
  has "Not allowed: a frame gun cannot fire beyond 20 in"
  run 0 calc splendid army --rolled 9,3 --json --connect "$dwork/s"
  json_eq "([u['type'] for u in d['army']['units']], d['army']['sub_commanders'])" \
    "(['pike_and_musket', 'regular_artillery', 'mounted', 'mounted'], 1)"
  run 0 calc splendid army --rolled 9,3
  cp "$out" "$tmp/local.out"
  run 0 calc splendid army --rolled 9,3 --connect "$dwork/s"
  cmp -s "$tmp/local.out" "$out" || fail "army text differs through the daemon"
  run 2 calc splendid army --rolled 9,3 --out "$tmp/x.yaml" --connect "$dwork/s"
  has_err "--out writes a file here"
  run 2 calc splendid army --rolled 7 --collection "$tmp/coll.yaml" --connect "$dwork/s"
  has_err "names a file: the daemon reads no file a client names"
fi

finish "splendid calc: FAILED" "splendid calc: ok"

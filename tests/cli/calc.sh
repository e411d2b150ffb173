#!/usr/bin/env bash
# tests/cli/calc.sh BIN_DIR [SOURCE_DIR] — `opfor calc`, `opfor demo` and `opfor bench calc`
# end to end: what the app would show, --json that parses, --list, --help, edited models,
# and exit codes (0 ok, 2 for a wrong ruleset/action/field/value, 1 for a bad model file)
# with messages that list what is allowed. Any failure makes the script exit 1.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"

# --- what the app shows ---------------------------------------------------------------
run 0 calc viktoria fire_rifle --actor veteran --target soldier --cover soft --range 20
has "Fire Rifle (Viktoria! VI, IX): actor veteran, target soldier, cover soft, range 20 in"
has "To hit: 4+ (exact 46.3%, as rolled 50.0%)"
has "Critical: 6, then 6 kills (2.8%)"
has "Save: 6+ (exact 21.4%, as rolled 16.7%)"
has "Effect (D6): 1-2 scratch; 3-5 wounded; 6 killed"
has "Range bracket: medium"

# the same with --flag=value forms and a bracket name
run 0 calc viktoria fire-rifle --actor=veteran --target=soldier --cover=soft --range=medium
has "To hit: 4+ (exact 46.3%, as rolled 50.0%)"

run 0 calc viktoria attack_lance --actor soldier --charging
has "actor-mounted, charging"
has "To hit: 2+ (exact 83.2%, as rolled 83.3%)"
has "Effect (D6): 1 scratch; 2-4 wounded; 5-6 killed"

run 0 calc viktoria check_morale --actor veteran --general
has "Morale check: 5+ on 2D6 (exact 87.0%, as rolled 83.3%)"
run 0 calc viktoria check_morale --actor veteran --general=no --half-strength=yes
has "Morale check: 7+ on 2D6"

run 0 calc viktoria advance --actor soldier --terrain rough --obstacles 1
has "Move (open ground): 4 plus 1d3 inches (5-7 in, mean 6)"
has "Adjusted for terrain: (3 plus 1d3) x 1/2 inches (2-3 in, mean 2.5)"

run 0 calc viktoria call_support_fire --registered 2 --guns heavy
has "Call for fire: 8+ on 2D6 (41.7%)"
has "Blast radius: 6 in"

run 0 calc viktoria weather_event --level 3 --wind NW
has "2 backs two points -> SW"
has "6 rises one level -> 4 (High Winds/Inclement)"

run 0 calc viktoria test_out_of_command --actor soldier --range 10 --weather 5
has "Command test: "
has "Command radius: 6 in"

run 0 calc viktoria test_vs_blast --actor transport --cover fortification
has "Effect (D6): 1 no damage; 2-4 damaged; 5-6 destroyed"

# every action answers its defaults
for a in fire_pistol fire_carbine fire_rifle test_vs_mg fire_artillery call_support_fire \
         throw_bomb test_vs_blast attack_sword attack_lance attack_bayonet attack_dagger \
         hypnotic_attack test_vs_mesmerism heal check_morale rally test_out_of_command \
         advance run_gallop charge crawl weather_event; do
  run 0 calc viktoria "$a"
  run 0 calc viktoria "$a" --json
  json_ok
done

# --- JSON -------------------------------------------------------------------------------
run 0 calc viktoria fire_rifle --actor veteran --target soldier --cover soft --range 20 --json
json_ok
python3 - "$out" <<'EOF' || fail "fire_rifle JSON has the wrong content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ruleset"] == "viktoria" and d["action"] == "fire_rifle"
assert d["fields"]["actor"] == "veteran" and d["fields"]["range"] == 20
rolls = {r["name"]: r for r in d["rolls"]}
assert set(rolls) == {"hit", "critical", "save"}
for r in d["rolls"]:
    assert set(r) >= {"name", "dice", "need", "p_exact", "p_rendered", "error"}
    assert abs(r["p_rendered"] - r["p_exact"] - r["error"]) < 1e-9
assert rolls["hit"]["need"] == "4+" and rolls["hit"]["dice"] == "D6"
assert abs(rolls["hit"]["p_rendered"] - 0.5) < 1e-12
assert abs(rolls["critical"]["p_exact"] - 1 / 36) < 1e-9
o = {x["name"]: x for x in d["outcomes"]}
assert abs(sum(x["p_exact"] for x in d["outcomes"]) - 1) < 1e-9
assert d["facts"]["bracket"] == "medium"
EOF

run 0 calc viktoria check_morale --json --actor elite
json_ok
python3 - "$out" <<'EOF' || fail "check_morale JSON wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rolls"][0]["dice"] == "2D6" and d["rolls"][0]["need"].endswith("on 2D6")
EOF

# --- --list and --help --------------------------------------------------------------------
run 0 calc viktoria --list
has "fire_pistol  Fire Pistol (VI, IX)"
has "--range           inches 0-9, or point_blank (to 2 in), short (to 4 in), medium (to 6 in), long (to 9 in) [default short]"
has "weather_event  Weather Event"
run 0 calc viktoria --list --json
json_ok
python3 - "$out" <<'EOF' || fail "--list --json wrong"
import json, sys
d = json.load(open(sys.argv[1]))
names = [a["name"] for a in d["actions"]]
assert len(names) == 23 and names[0] == "fire_pistol" and "weather_event" in names
f = {x["name"]: x for x in d["actions"][2]["fields"]}
assert f["actor"]["values"] == ["civilian", "conscript", "soldier", "veteran", "elite"]
assert f["cover"]["values"] == ["none", "soft", "hard", "fortification"]
assert f["actor-mounted"]["kind"] == "flag"
EOF
run 0 calc --help
has "usage: opfor calc RULESET ACTION"
run 0 calc viktoria fire_pistol --help
has "--target-prone"
has "Target Prone/Crawling"

# --- wrong input: exit 2, saying what is allowed ------------------------------------------
run 2 calc
has_err "missing ruleset; allowed: viktoria"
run 2 calc warhammer fire_rifle
has_err "unknown ruleset 'warhammer'; allowed: viktoria"
run 2 calc viktoria
has_err "missing action; allowed: fire_pistol, fire_carbine"
run 2 calc viktoria fire_cannon
has_err "unknown action 'fire_cannon'; allowed: fire_pistol"
run 2 calc viktoria fire_rifle --colour red
has_err "unknown field --colour; fire_rifle takes: --actor, --target, --cover, --range"
run 2 calc viktoria fire_rifle --general
has_err "fire_rifle has no field --general"
run 2 calc viktoria fire_rifle --actor sergeant
has_err "bad value 'sergeant' for --actor (fire_rifle); allowed: civilian, conscript, soldier, veteran, elite"
run 2 calc viktoria fire_rifle --cover bush
has_err "allowed: none, soft, hard, fortification"
run 2 calc viktoria fire_rifle --actor-mounted=perhaps
has_err "allowed: yes, no"
run 2 calc viktoria fire_pistol --range 12
has_err "out of range: a pistol reaches 9 in at most"
run 2 calc viktoria fire_carbine --range 40
has_err "36 in at most"
# a roll the rules forbid is an answer, not a wrong command line: exit 0, "Not allowed" and
# the reason; --json says "allowed": false with the reason (every answer says "allowed")
run 0 calc viktoria attack_lance --no-actor-mounted
has "Not allowed: a lance attack is made from horseback"
run 0 calc viktoria attack_lance --no-actor-mounted --json
json_ok
json_eq "(d['allowed'], 'horseback' in d['reason'], d['dice'], d['distribution'])" \
  "(False, True, '', [])"
run 0 calc viktoria fire_rifle --json
json_eq "(d['allowed'], 'reason' in d)" "(True, False)"
run 2 calc viktoria fire_rifle --range
has_err "--range needs a value"
run 2 calc viktoria --actor veteran fire_rifle
has_err "before the action"
# --no- turns a flag off; on a field with values it is refused, not read as the value
run 2 calc viktoria fire_rifle --no-actor veteran
has_err "--no-actor: only flags take no- (--actor is not a flag; write --actor VALUE)"
run 0 calc viktoria fire_rifle --no-moving --actor elite
has "actor elite, target soldier"
# a number of inches beyond any table says the bound, not "allowed: inches"
run 2 calc viktoria fire_rifle --range 20000
has_err "bad value '20000' for --range (fire_rifle): inches must be from 0 to 10000, or point_blank"
run 2 calc viktoria test_out_of_command --range -1
has_err "bad value '-1' for --range (test_out_of_command): inches must be from 0 to 10000"

# --- edited model files --------------------------------------------------------------------
printf 'fire:\n  hit:\n    actor: {veteran: 3.0, elite: 3.0}\n' >"$tmp/hot.yaml"
run 0 calc viktoria fire_rifle --actor veteran --model "$tmp/hot.yaml"
has "To hit: 2+, re-roll a 1 needing"
printf 'fire:\n  hit:\n    sharpshootr: 1\n' >"$tmp/bad.yaml"
run 1 calc viktoria fire_rifle --model "$tmp/bad.yaml"
has_err "$tmp/bad.yaml:3:5: unknown key 'fire.hit.sharpshootr'"
printf 'fire:\n  hit:\n    actor: {veteran: 3.0}\n' >"$tmp/order.yaml"
run 1 calc viktoria fire_rifle --model "$tmp/order.yaml"
has_err "$tmp/order.yaml:3:22: fire.hit.actor.veteran (3) and fire.hit.actor.elite (0.8)"
run 1 calc viktoria fire_rifle --model "$tmp/missing.yaml"
has_err "$tmp/missing.yaml: cannot open"
# a folder, or a file that is not UTF-8: the message names the file and says why
run 1 calc viktoria fire_rifle --model "$tmp"
has_err "$tmp: cannot read: Is a directory"
printf 'fire:\n  hit: {sharpshooter: 1.1}\n# \377\n' >"$tmp/latin1.yaml"
run 1 calc viktoria fire_rifle --model "$tmp/latin1.yaml"
has_err "$tmp/latin1.yaml:3:3: not UTF-8 text (byte 0xff)"
if [ $# -ge 2 ]; then
  run 0 calc viktoria heal --model "$2/rulesets/viktoria/model.yaml"
  has "Heal: 4+"
fi

# --- demo and bench --------------------------------------------------------------------------
run 0 demo
has "1. A veteran fires his rifle at a soldier in soft cover, 20 inches away"
has "To hit: 4+ (exact 46.3%, as rolled 50.0%)"
has "Morale check: 5+ on 2D6"
lines=$(wc -l <"$out")
[ "$lines" -le 32 ] || fail "demo prints $lines lines, want at most 32"
run 2 demo --fast
run 0 bench calc --seconds 0.05 --json
json_ok
python3 - "$out" <<'EOF' || fail "bench JSON wrong"
import json, sys
d = json.load(open(sys.argv[1]))
b = d["benchmarks"][0]
assert b["name"] == "calc" and b["unit"] == "queries/s" and len(b["per_run"]) == 5
assert b["min"] <= b["median"] <= b["max"] and b["median"] > 1000
assert d["machine"] and d["cpu"]
EOF
run 2 bench nosuch
has_err "unknown benchmark 'nosuch'; allowed: calc"
run 2 bench --seconds 0
has_err "--seconds"

# --- asking a daemon (--connect): the same words as the local calculator -------------------
if [ -x "$(dirname "$bin")/opford" ]; then
  dwork=$(mktemp -d /tmp/calcsh.XXXXXX)
  "$(dirname "$bin")/opford" --socket "$dwork/s" --state-dir "$dwork/st" --log-level error \
    >"$dwork/log" 2>&1 &
  dpid=$!
  trap 'kill "$dpid" 2>/dev/null; rm -rf "$tmp" "$dwork"' EXIT
  for _ in $(seq 100); do [ -S "$dwork/s" ] && break; sleep 0.1; done
  run 0 calc viktoria fire_rifle --range=20 --no-moving --actor=veteran --cover soft --json \
    --connect "$dwork/s"
  json_eq 'd["fields"]["range"], d["fields"]["moving"], d["fields"]["actor"]' "20 False veteran"
  run 0 calc viktoria fire_rifle --connect="$dwork/s" --json
  json_eq 'd["action"]' "fire_rifle"
  run 0 calc viktoria fire_pistol --help --connect "$dwork/s"
  has "--target-prone"
  run 2 calc viktoria fire_rifle --no-actor veteran --connect "$dwork/s"
  has_err "--no-actor: only flags take no-"
  run 1 calc viktoria fire_rifle --model "$tmp" --connect "$dwork/s"
  has_err "$tmp: cannot read: Is a directory"
  # the text through the daemon is the local text: title with the fields, tables, distances,
  # facts, notes, and the critical as "6, then 6 kills"; so is --list and an error's exit code
  same_text() {
    run "$1" calc viktoria "${@:2}"
    cp "$out" "$tmp/local.out"
    cp "$err" "$tmp/local.err"
    run "$1" calc viktoria "${@:2}" --connect "$dwork/s"
    cmp -s "$tmp/local.out" "$out" || fail "--connect text differs: ${*:2}"
    cmp -s "$tmp/local.err" "$err" || fail "--connect message differs: ${*:2}"
  }
  same_text 0 fire_rifle --actor veteran --target soldier --cover soft --range 20
  has "Critical: 6, then 6 kills (2.8%)"
  has "Range: 20 in; Range bracket: medium; Maximum range: no limit"
  same_text 0 advance --actor soldier --terrain rough --obstacles 1
  has "Adjusted for terrain: (3 plus 1d3) x 1/2 inches (2-3 in, mean 2.5)"
  same_text 0 advance --actor transport --terrain road
  same_text 0 weather_event --level 3 --wind NW
  has "2 backs two points -> SW"
  same_text 0 weather_event
  same_text 0 call_support_fire --registered 2 --guns heavy
  same_text 0 test_out_of_command --actor soldier --range 10 --weather 5
  same_text 0 attack_lance --actor soldier --charging
  same_text 0 check_morale --actor veteran --general --half-strength
  same_text 0 fire_artillery --range 30
  same_text 0 test_vs_blast --actor transport --cover fortification
  same_text 0 --list
  has "fire_pistol  Fire Pistol (VI, IX)"
  same_text 2 fire_pistol --range 12
  # a combination the rules forbid: the same "Not allowed" line and exit 0 both ways, and the
  # daemon's JSON says "allowed": false with the reason
  same_text 0 fire_rifle --target-running --target-prone
  has "Not allowed: a target cannot be both running and prone"
  run 0 calc viktoria attack_lance --no-actor-mounted --json --connect "$dwork/s"
  json_eq "(d['allowed'], 'horseback' in d['reason'])" "(False, True)"
  head -c 1100000 /dev/zero | tr '\0' '#' >"$tmp/huge.yaml"
  run 1 calc viktoria fire_rifle --model "$tmp/huge.yaml" --connect "$dwork/s"
  has_err "larger than 1 MiB"
fi

finish "$fails check(s) failed" "calc.sh: all checks passed"

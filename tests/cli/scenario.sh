#!/usr/bin/env bash
# tests/cli/scenario.sh BIN_DIR SOURCE_DIR — `opfor scenario` end to end: check on good and
# bad files (exit codes, file:line:col messages, JSON), list and show of the built-ins,
# and usage errors. Each check greps the output for exact text; any failure exits 1.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"
data="$src/tests/data/scenarios"

cd "$data" || { echo "no $data"; exit 1; }

# A valid file.
run 0 scenario check good.yaml
has "good.yaml: valid: 'Skirmish at the Ford', competitive, 2 units, 10 figures, 2 terrain features"
run 0 scenario check good.yaml --json
json_ok
json_eq 'd["valid"], d["units"], d["figures"], len(d["errors"])' "True 2 10 0"

# Each kind of error names file:line:col and what was expected; exit 1.
run 1 scenario check bad_key.yaml
has "bad_key.yaml:9:5: unknown key 'colour' in unit; allowed keys: name, side, type, quality,"
run 1 scenario check bad_enum.yaml
has "bad_enum.yaml:11:29: unknown quality 'heroic'; expected one of: civilian, conscript, soldier, veteran, elite"
run 1 scenario check off_table.yaml
has "off_table.yaml:6:29: objective position [80, 10] is off the table"
run 1 scenario check overlap.yaml
has "overlap.yaml:10:59: figure 2 of unit 'Blue Foot' at [10.50, 10.00] overlaps figure 1 of unit 'Blue Foot'"
run 1 scenario check syntax.yaml
has "syntax.yaml:3:1: YAML syntax: flow sequence without a closing bracket"
run 1 scenario check missing.yaml
has "missing.yaml: cannot open: No such file or directory"
run 1 scenario check bad_enum.yaml --json
json_ok
json_eq 'd["valid"], d["errors"][0]["line"], d["errors"][0]["col"], d["errors"][0]["file"]' \
  "False 11 29 bad_enum.yaml"

# A warning does not make the file invalid.
run 0 scenario check no_leader.yaml
has "no_leader.yaml:6:5: warning: unit 'Rabble' has no leader"
has "no_leader.yaml: valid:"
run 0 scenario check no_leader.yaml --json
json_eq 'd["valid"], d["warnings"][0]["line"], d["warnings"][0]["col"]' "True 6 5"

# Built-ins: listed, valid, shown by name.
run 0 scenario list
has "patrol_default         patrol       The Farm at Hollebeke"
has "competitive_default    competitive  Encounter at Lindenau"
has "encounter              competitive  Encounter at Marston Lane"
has "generated              competitive  Two Armies Rolled Up"
run 0 scenario list --json
json_ok
json_eq '[s["name"] for s in d["scenarios"]], all(s["valid"] for s in d["scenarios"])' \
  "['patrol_default', 'competitive_default', 'encounter', 'generated'] True"
# A Splendid Victory!'s generated armies (docs/splendid.md 9.5): the built-in checks, and a
# file's mistakes in its generate map are named at their line and column.
run 0 scenario check generated
has "generated: valid: 'Two Armies Rolled Up'"
# ... and plays by name: its generated units are on the table (the Commander named after his side)
echo quit | "$bin" play splendid --scenario generated --seed 2 >"$out" 2>"$err" ||
  fail "opfor play splendid --scenario generated failed"
has "A Splendid Victory!, seed 2: you are side 0"
has "Parliament General"
run 1 scenario check gen_noseed.yaml
has "gen_noseed.yaml:9:14: generate: needs a seed"
run 1 scenario check gen_throws.yaml --json
json_eq 'd["valid"], d["errors"][0]["line"], d["errors"][0]["col"]' "False 9 31"
run 1 scenario check gen_key.yaml
has "gen_key.yaml:9:23: unknown key 'side' in generate"
# A file is read for the ruleset its `ruleset:` line names (A Splendid Victory!'s block).
run 0 scenario check "$src/rulesets/splendid/scenarios/encounter.yaml"
has "valid: 'Encounter at Marston Lane', competitive"
run 0 scenario check "$src/rulesets/viktoria/scenarios/patrol_default.yaml"
has "valid: 'The Farm at Hollebeke', patrol, 6 units, 31 figures"
run 0 scenario check "$src/rulesets/viktoria/scenarios/competitive_default.yaml"
has "valid: 'Encounter at Lindenau', competitive"
run 0 scenario show
has "scenario   The Farm at Hollebeke"
has "table      72 x 48 inches, north is the top edge"
has "Hussar Troop            British    cavalry      veteran    6 figures at [56.0, 6.0] facing N"
has "[50.75,  6.00] veteran   mounted; pistol, carbine, sword; leader"
has "patrol block present"
run 0 scenario show competitive_default --json
json_ok
json_eq 'd["mode"], len(d["units"]), d["units"][2]["name"], d["units"][2]["figures_count"]' \
  "competitive 8 Fusiliers 12"
json_eq 'd["units"][2]["figures"][0]["pos"], d["units"][2]["figures"][0]["skills"]' \
  "[15.75, 8] ['leader']"
run 0 scenario show good.yaml
has "   1 river        River                line of  2 points  cover none, sight clear, move rough"
has "  Red Horse               Red        cavalry      soldier    4 figures at [24.0, 40.0] facing S"
has "  Ford                 at [24.0, 24.0], radius 3, 3 points"
run 1 scenario show bad_key.yaml
has_err "bad_key.yaml:9:5: unknown key 'colour'"

# The full example in docs/scenario-format.md stays valid.
doc=$(mktemp --suffix=.yaml)
awk '/^```yaml$/{on=1; next} /^```$/{if (on) exit} on' "$src/docs/scenario-format.md" >"$doc"
run 0 scenario check "$doc"
has "valid: 'The Farm at Hollebeke', patrol, 4 units, 20 figures, 6 terrain features"
rm -f "$doc"

# Usage errors exit 2 and say what is allowed.
# A folder, and a name that is neither a file nor a built-in, say so.
run 1 scenario check "$src/tests/data/scenarios"
has "scenarios: cannot read: Is a directory"
run 1 scenario show machines_demo
has_err "machines_demo: cannot open: No such file or directory; nor is it a built-in scenario: patrol_default, competitive_default"

run 2 scenario
has_err "opfor: scenario: missing command (allowed: check, list, show)"
run 2 scenario frob
has_err "opfor: scenario: unknown command 'frob' (allowed: check, list, show)"
run 2 scenario check
has_err "opfor: scenario check: missing FILE"
run 2 scenario check a.yaml b.yaml
has_err "opfor: scenario check: takes one FILE"
run 2 scenario list --yaml
has_err "opfor: scenario: unknown flag '--yaml' (flags: --json, --help)"
run 0 scenario --help
has "usage: opfor scenario check FILE [--json]"

# Machines (XII.C-D): tracks and runways, and each unit's machine keys, in show.
run 0 scenario show "$src/rulesets/viktoria/scenarios/machines_demo.yaml"
has "terrain (4 features, 2 tracks and runways)"
has "runway       Airstrip             line of  2 points  30.0 in long (XII.D)"
has "payload 6 (fire out 3), wheeled"
has "aboard Armoured Car"
run 0 scenario show "$src/rulesets/viktoria/scenarios/machines_demo.yaml" --json
json_eq '[r["kind"] for r in d["routes"]], [u.get("payload") for u in d["units"] if u["name"] == "Armoured Car"]' "['runway', 'track'] [6]"
json_eq '[u.get("track") for u in d["units"] if u["type"] == "vehicle"]' "[None, 'Main line']"

finish "scenario.sh: $fails failed" "scenario.sh: all passed"

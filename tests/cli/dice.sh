#!/usr/bin/env bash
# tests/cli/dice.sh BIN_DIR [SOURCE_DIR] — `opfor dice` end to end: tables, rolls, chance
# rendering, JSON validity, and exit codes/messages for bad input.
# Each check greps the output for exact expected text; any failure makes the script exit 1.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"

# Table of an expression given as several words.
run 0 dice 3 dice + 6 inches
has "expression  3d6+6 inches"
has "min 9  max 24  mean 16.5"
has "     16    0.125000    0.625000"
has "     24    0.004630    0.004630"

# 2d6: P(>=8) = 15/36.
run 0 dice 2d6
has "      8    0.138889    0.416667"
has "      2    0.027778    1.000000"

# Rolls are reproducible with a seed and stay within range.
run 0 dice 2d6 --roll 50 --seed 7
has "50 rolls (seed 7):"
first=$(cat "$out")
run 0 dice 2d6 --roll=50 --seed=7
[ "$first" = "$(cat "$out")" ] || fail "same seed gave different rolls"
run 0 dice 1d3+4 --roll 200 --json
json_ok
python3 - "$out" <<'EOF' || fail "JSON rolls out of range or wrong shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["canonical"] == "1d3+4" and d["min"] == 5 and d["max"] == 7
assert abs(d["mean"] - 6) < 1e-9
assert [t["total"] for t in d["table"]] == [5, 6, 7]
assert abs(sum(t["p_eq"] for t in d["table"]) - 1) < 1e-9
r = d["rolls"]
assert r["seed"] == 1 and r["count"] == 200 and len(r["results"]) == 200
assert all(5 <= v <= 7 for v in r["results"]) and set(r["results"]) == {5, 6, 7}
EOF

# Bad expressions: exit 2, message, the expression echoed and a caret under column 5.
run 2 dice "2d6-1d3"
has_err "opfor: dice: bad expression at column 5"
has_err "cannot be subtracted"
has_err "  2d6-1d3"
grep -qx '      ^' "$err" || fail "caret not under column 5"
run 2 dice 61d6
has_err "1..60"
run 2 dice 2d6 x
has_err "column 5"

# Usage errors name the flag and the allowed values.
run 2 dice
has_err "missing EXPR"
run 2 dice 2d6 --roll 0
has_err "--roll must be a whole number from 1 to 1000000"
run 2 dice 2d6 --roll
has_err "--roll needs a value"
run 2 dice 2d6 --seed -4
has_err "--seed must be a whole number >= 0"
run 2 dice 2d6 --bogus
has_err "unknown flag '--bogus'"

# Chance rendering.
run 0 dice chance 37%
has "roll        5+"
has "p_exact     0.37"
has "p_rendered  0.3333333333"
has "error       -0.03666666667"
run 0 dice chance 0.02 --mode fine
has "roll        6, then 6+"
run 0 dice chance 0.95 --mode=fine
has "roll        2+, re-roll a 1 needing 3+"
run 0 dice chance 0.4166666666666667 --mode 2d6
has "roll        8+ on 2D6"
run 0 dice chance 0
has "roll        no chance"
run 0 dice chance 100%
has "roll        automatic"
run 0 dice chance 0.5 --json
json_ok
python3 - "$out" <<'EOF' || fail "chance JSON fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["roll"] == "4+" and d["kind"] == "d6" and d["need"] == 4 and d["mode"] == "d6"
assert d["p_exact"] == 0.5 and d["p_rendered"] == 0.5 and d["error"] == 0
EOF
run 2 dice chance 1.5
has_err "P must be a number from 0 to 1 or a percentage"
run 2 dice chance 120%
has_err "got '120%'"
run 2 dice chance
has_err "missing P"
run 2 dice chance 0.5 --mode 3d6
has_err "--mode must be d6, fine or 2d6, got '3d6'"

# Help.
run 0 dice --help
has "usage: opfor dice EXPR"
# the help states the spread limit the parser enforces
has "at most 600 (6d100, not 7d100)"
run 0 dice 6d100
has "min 6  max 600"
run 2 dice 7d100
has_err "too many outcomes: max - min would be 693, at most 600"
run 0 dice chance --help
has "--mode fine"

finish "dice.sh: $fails failure(s)" "dice.sh: all checks passed"

#!/usr/bin/env bash
# tests/cli/opford_move_roll.sh BIN_DIR SOURCE_DIR — the table's own die for an order's move:
# `report` with `resolve` and `move_roll` moves the unit exactly as the rules engine does with
# that D3 (with 2, to the order's "stop"), refusals name what is wrong, and an order cut short
# carries its "limit"; driven by tests/cli/opford_move_roll_test.py (python3-msgpack). Bounded
# in time; kills any daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_move_roll.sh opford-move-roll "$@"
OPFOR_SOURCE_DIR=$src timeout -k 5 120 "$py" "$src/tests/cli/opford_move_roll_test.py" "$bin" "$work"

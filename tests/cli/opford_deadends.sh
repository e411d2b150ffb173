#!/usr/bin/env bash
# tests/cli/opford_deadends.sh BIN_DIR SOURCE_DIR — the dead ends of the daemon's clients (issue
# 15): Ctrl-C while the AI thinks, then taking the game up again; a daemon restart under a
# running terminal game and under `opfor watch`; no protocol method's name in what a player
# reads. Driven by tests/cli/opford_deadends_test.py (python3-msgpack) over a real opford.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_deadends.sh opford-dead "$@"
timeout -k 5 300 "$py" "$src/tests/cli/opford_deadends_test.py" "$bin" "$work"

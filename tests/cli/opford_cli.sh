#!/usr/bin/env bash
# tests/cli/opford_cli.sh BIN_DIR SOURCE_DIR — the `opfor` game commands as a game master uses
# them against a real opford: watch limits and its end at a closed game, report's command-line
# checks, the daemon's words for a unit that left or died, --token-file over loopback TCP, and
# the game-over and games lines (tests/cli/opford_cli_test.py). Bounded in time; kills any
# daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_cli.sh opford-cli "$@"
OPFOR_SOURCE_DIR=$src timeout -k 5 300 "$py" "$src/tests/cli/opford_cli_test.py" "$bin" "$work"

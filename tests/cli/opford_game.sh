#!/usr/bin/env bash
# tests/cli/opford_game.sh BIN_DIR SOURCE_DIR — opford's game methods end to end: a whole
# Patrol Mode game over a Unix socket and loopback TCP, events, validation, SIGKILL during a
# stream of reports then a restart, SIGTERM, and the `opfor` game commands; driven by a stock
# MessagePack client (tests/cli/opford_game_test.py, python3-msgpack). Bounded in time; kills
# any daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_game.sh opford-game "$@"
OPFOR_SOURCE_DIR=$src timeout -k 5 300 "$py" "$src/tests/cli/opford_game_test.py" "$bin" "$work"

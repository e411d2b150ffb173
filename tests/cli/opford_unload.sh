#!/usr/bin/env bash
# tests/cli/opford_unload.sh BIN_DIR SOURCE_DIR — games leave opford's memory (idle, closed)
# and come back identical from the store; subscriptions survive; a search on a closed game is
# cancelled (tests/cli/opford_unload_test.py, python3-msgpack). Bounded in time.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_unload.sh opford-unl "$@"
timeout -k 5 120 "$py" "$src/tests/cli/opford_unload_test.py" "$bin" "$work"

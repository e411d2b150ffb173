#!/usr/bin/env bash
# tests/cli/opford_busy.sh BIN_DIR SOURCE_DIR — a full search queue (issue 16): with one worker
# and --max-queued 1, an ai.orders beyond the limit is answered BUSY with the hint ask_again and
# a message naming the limit, the log says so once, and the same request succeeds once there is
# room. Driven by tests/cli/opford_busy_test.py (python3-msgpack) over a real opford.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_busy.sh opford-busy "$@"
timeout -k 5 120 "$py" "$src/tests/cli/opford_busy_test.py" "$bin" "$work"

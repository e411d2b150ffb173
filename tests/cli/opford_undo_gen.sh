#!/usr/bin/env bash
# tests/cli/opford_undo_gen.sh BIN_DIR SOURCE_DIR — game.undo for a game of another ruleset than
# the table engine's (the test-only dice duel), driven by tests/cli/opford_undo_gen_test.py
# (python3-msgpack): take back the last table entry, one level, until the AI's next order, and
# the same after a restart. Skips when opford does not register the duel. Bounded in time.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_undo_gen.sh opford-undo "$@"
timeout -k 5 120 "$py" "$src/tests/cli/opford_undo_gen_test.py" "$bin" "$work"

#!/usr/bin/env bash
# tests/cli/opford_generic.sh BIN_DIR SOURCE_DIR — a game of another ruleset than the table
# engine's (the test-only dice duel) played through opford's generic methods by a stock
# MessagePack client (tests/cli/opford_generic_test.py, python3-msgpack): views, orders,
# reports, events, replay after a restart. Skips when opford does not register the duel.
# Bounded in time; kills any daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_generic.sh opford-gen "$@"
timeout -k 5 240 "$py" "$src/tests/cli/opford_generic_test.py" "$bin" "$work"

#!/usr/bin/env bash
# tests/cli/opford_clients.sh BIN_DIR SOURCE_DIR — several real clients on one opford (issue 15):
# two `opfor patrol --connect` terminals (and a terminal against `opfor report`) answering the
# same order at once, an undo announced to every client, and the one-shot commands right after a
# daemon restart. Driven by tests/cli/opford_clients_test.py (python3-msgpack) over a real opford.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_clients.sh opford-cli2 "$@"
timeout -k 5 240 "$py" "$src/tests/cli/opford_clients_test.py" "$bin" "$work"

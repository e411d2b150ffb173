#!/usr/bin/env bash
# tests/cli/opford_splendid.sh BIN_DIR SOURCE_DIR — A Splendid Victory! through opford
# (tests/cli/opford_splendid_test.py, python3-msgpack): hello's scenarios and modes, game.new
# on a built-in scenario by name (never a file), the table's reports checked and applied, the
# game replayed after a restart. Bounded in time; kills any daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_splendid.sh opford-sv "$@"
timeout -k 5 120 "$py" "$src/tests/cli/opford_splendid_test.py" "$bin" "$work"

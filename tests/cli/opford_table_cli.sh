#!/usr/bin/env bash
# tests/cli/opford_table_cli.sh BIN_DIR SOURCE_DIR — a daemon game of another ruleset than
# Viktoria! played from the terminal only (tests/cli/opford_table_cli_test.py): `opfor state`
# says who is to move and lists the legal actions, outcomes and typed reports with the units
# they allow now; `opfor report --form`, `opfor act`, `opfor roll` and `opfor undo` play the
# table's side, refused with the rules' reason. Bounded in time; kills any daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_table_cli.sh opford-tc "$@"
timeout -k 5 300 "$py" "$src/tests/cli/opford_table_cli_test.py" "$bin" "$work"

#!/usr/bin/env bash
# tests/cli/opford_club.sh BIN_DIR SOURCE_DIR — opford as a club runs it (issue 16): one daemon
# per state directory (a second refuses, naming the first; a SIGKILLed holder leaves no lock;
# socket activation is held to it too), and a client over --max-clients told why, in the
# `opfor` command's own output. Driven by tests/cli/opford_club_test.py; every wait is bounded.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_club.sh opford-club "$@"
timeout -k 5 120 "$py" "$src/tests/cli/opford_club_test.py" "$bin" "$work"

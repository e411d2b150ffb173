#!/usr/bin/env bash
# tests/cli/opford.sh BIN_DIR SOURCE_DIR — runs build/bin/opford against a stock MessagePack
# client (python3-msgpack): sessions on a Unix socket and on loopback TCP, split and batched
# frames, hostile frames, tokens, timeouts, reload, socket activation and clean shutdown.
# The python script does the work (tests/cli/opford_test.py); this wrapper finds a python with
# msgpack, bounds the run, and kills any daemon left behind whatever happens.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford.sh opford-test "$@"
timeout -k 5 240 "$py" "$src/tests/cli/opford_test.py" "$bin/opford" "$work"

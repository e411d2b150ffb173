#!/usr/bin/env bash
# tests/web/opford_web.sh BIN_DIR SOURCE_DIR — the table page's transport: opford serving
# `--listen http://127.0.0.1:0`, its files over HTTP and MessagePack-RPC over a WebSocket
# (tests/web/opford_web_test.py). Registered for the native stage only (tests/CMakeLists.txt).
set -euo pipefail
# shellcheck source=SCRIPTDIR/../cli/lib.bash
. "$(dirname "$0")/../cli/lib.bash"
daemon_test opford_web.sh opford-web "$@"
timeout -k 5 120 "$py" "$src/tests/web/opford_web_test.py" "$bin" "$work"

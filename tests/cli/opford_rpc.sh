#!/usr/bin/env bash
# tests/cli/opford_rpc.sh BIN_DIR SOURCE_DIR — opford's calc methods, worker threads, model
# reload, game store checks and `opfor bench rpc`, driven by a stock MessagePack client
# (tests/cli/opford_rpc_test.py, python3-msgpack). Bounded in time; kills any daemon it left.
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_rpc.sh opford-rpc "$@"
timeout -k 5 240 "$py" "$src/tests/cli/opford_rpc_test.py" "$bin" "$work"

#!/usr/bin/env bash
# tests/cli/opford_soak.sh BIN_DIR SOURCE_DIR [GAMES DECISIONS BOUND_MIB] — the daemon soak
# (issue 16): a real opford plays GAMES games with DECISIONS novice AI decisions in all, each
# game closed, and its RSS may grow at most BOUND_MIB after the fifth game
# (tests/cli/opford_soak_test.py, python3-msgpack). ctest runs the short size (10 games, 150
# decisions, 5 MiB: about 2.5 MiB a game stayed in memory before games were unloaded, so a
# daemon that keeps them fails it); `make soak` the full one (200, 10000, 16 MiB).
# A sanitizer build or an emulated one (about 20 times slower a decision) runs 9 games with 27
# decisions by default: still 4 games past the fifth, enough to fail a daemon that keeps them.
# OPFORD_SOAK_TIMEOUT bounds the run in seconds (default 120).
set -euo pipefail
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
daemon_test opford_soak.sh opford-soak "$@"
games=10 decisions=150
if grep -q __asan_init "$bin/opford" 2>/dev/null || [ "$(head -c 2 "$bin/opford")" = "#!" ]; then
  games=9 decisions=27
fi
timeout -k 5 "${OPFORD_SOAK_TIMEOUT:-120}" "$py" "$src/tests/cli/opford_soak_test.py" "$bin" \
  "$work" "${3:-$games}" "${4:-$decisions}" "${5:-5}"

#!/usr/bin/env bash
# tests/cli/opford_game.sh BIN_DIR SOURCE_DIR — opford's game methods end to end: a whole
# Patrol Mode game over a Unix socket and loopback TCP, events, validation, SIGKILL during a
# stream of reports then a restart, SIGTERM, and the `opfor` game commands; driven by a stock
# MessagePack client (tests/cli/opford_game_test.py, python3-msgpack). Bounded in time; kills
# any daemon it left.
set -euo pipefail
bin=$1
src=$2
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import msgpack' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
  echo "opford_game.sh: needs python3 with msgpack (apt-get install python3-msgpack; see tools/deps.sh)"
  exit 1
fi
[ -x "$bin/opford" ] || { echo "opford_game.sh: $bin/opford not built"; exit 1; }
work=$(mktemp -d /tmp/opford-game.XXXXXX) # short: Unix socket paths must fit in 107 bytes
cleanup() {
  if [ -f "$work/pids" ]; then
    while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done <"$work/pids"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
OPFOR_SOURCE_DIR=$src timeout -k 5 300 "$py" "$src/tests/cli/opford_game_test.py" "$bin" "$work"

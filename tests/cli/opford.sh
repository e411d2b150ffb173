#!/usr/bin/env bash
# tests/cli/opford.sh BIN_DIR SOURCE_DIR — runs build/bin/opford against a stock MessagePack
# client (python3-msgpack): sessions on a Unix socket and on loopback TCP, split and batched
# frames, hostile frames, tokens, timeouts, reload, socket activation and clean shutdown.
# The python script does the work (tests/cli/opford_test.py); this wrapper finds a python with
# msgpack, bounds the run, and kills any daemon left behind whatever happens.
set -euo pipefail
bin=$1
src=$2
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import msgpack' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
  echo "opford.sh: needs python3 with msgpack (apt-get install python3-msgpack; see tools/deps.sh)"
  exit 1
fi
[ -x "$bin/opford" ] || { echo "opford.sh: $bin/opford not built"; exit 1; }
work=$(mktemp -d /tmp/opford-test.XXXXXX) # short: Unix socket paths must fit in 107 bytes
cleanup() {
  if [ -f "$work/pids" ]; then
    while read -r pid; do kill -KILL "$pid" 2>/dev/null || true; done <"$work/pids"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
timeout -k 5 240 "$py" "$src/tests/cli/opford_test.py" "$bin/opford" "$work"

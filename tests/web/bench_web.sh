#!/usr/bin/env bash
# tests/web/bench_web.sh BIN_DIR [SOURCE_DIR] — `opfor bench web` (issue 19): usage errors exit 2;
# a short run against the opford it spawns and one against a daemon given with --connect and
# --web both answer every request on both paths (WebSocket and Unix socket) with sane figures
# in the JSON (requests per second above zero, p50 <= p99 under two seconds, no error answers,
# the share that is the ratio of the two rates); a page that is not there is a clear error.
set -u
# shellcheck source=SCRIPTDIR/../cli/lib.bash
. "$(dirname "$0")/../cli/lib.bash"
cli_init "$@"
opford="$(dirname "$bin")/opford"
[ -x "$opford" ] || { echo "bench_web.sh: $opford is not built"; exit 1; }
work=$(mktemp -d /tmp/opfor-bench-web.XXXXXX)
pid=
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$work" "$tmp"
}
trap cleanup EXIT

run 0 bench web --help
has "--web URL"
has "--seconds S"
run 2 bench web --clients 201
has_err "--clients must be a whole number from 1 to 200"
run 2 bench web --connect "$work/x.sock"
has_err "--connect and --web go together"

# sane CHECK: the figures of one path ("websocket" or "unix") in $out
sane() {
  local side=$1 got
  got=$(python3 - "$out" "$side" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
s = d[sys.argv[2]]
bad = []
if not s["requests_per_second"] > 0: bad.append("rps")
if not 0 < s["latency_p50_ms"] <= s["latency_p99_ms"] < 2000: bad.append("latency")
if s["error_responses"] != 0: bad.append("errors")
cpu = s["daemon_cpu_us_per_request"]
if (cpu is None) != (d["daemon"] != "spawned") or (cpu is not None and not cpu >= 0):
    bad.append("daemon_cpu")
share = d["websocket"]["requests_per_second"] / d["unix"]["requests_per_second"]
if abs(d["websocket_share_of_unix"] - share) > 1e-6 * share: bad.append("share")
if d["at_least_half"] != (share >= 0.5): bad.append("at_least_half")
print(" ".join(bad) or "ok")
PY
)
  [ "$got" = ok ] || fail "bench web --json, $side: $got"
}

# Its own daemon: 50 clients on each path for a fifth of a second.
run 0 bench web --seconds 0.2 --runs 1 --json
json_ok
json_eq '(d["bench"], d["clients"], d["daemon"])' "('web', 50, 'spawned')"
sane websocket
sane unix

# A running daemon: --connect (its Unix socket) and --web (its page).
"$opford" --socket "$work/s.sock" --state-dir "$work/state" --log-level error \
  --listen http://127.0.0.1:0 >"$work/opford.out" 2>"$work/opford.err" &
pid=$!
url=
for _ in $(seq 200); do
  url=$(sed -n 's|^opford: table page at \(http://[^ ]*\)$|\1|p' "$work/opford.out")
  [ -n "$url" ] && [ -S "$work/s.sock" ] && break
  sleep 0.05
done
[ -n "$url" ] || fail "opford printed no table page address"
run 0 bench web --connect "unix:$work/s.sock" --web "$url" --clients 8 --seconds 0.2 --runs 2 \
  --json
json_eq '(d["clients"], d["runs"], d["daemon"])' "(8, 2, '$work/s.sock')"
sane websocket
sane unix
run 0 bench web --connect "$work/s.sock" --web "$url" --clients 4 --seconds 0.1 --runs 1
has "WebSocket / Unix socket:"
kill "$pid"
wait "$pid" 2>/dev/null
pid=

# A page that is not there: a clear error, exit 1.
run 1 bench web --connect "$work/s.sock" --web "http://127.0.0.1:1/" --seconds 0.1 --runs 1
has_err "opfor: bench web:"

finish "bench_web.sh: $fails failed" "bench_web.sh: all checks passed"

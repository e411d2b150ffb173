#!/usr/bin/env bash
# tests/cli/bench_rpc.sh BIN_DIR [SOURCE_DIR] — `opfor bench rpc` at its edges: usage errors
# exit 2; more clients than the daemon's listen queue holds, connecting while the daemon is
# paused (SIGSTOP), are tried again so the run completes once the daemon accepts; a daemon that
# drops clients gives a clear error (exit 1, not a silent SIGPIPE); and the daemon the benchmark
# spawned goes when the benchmark is killed. (Its figures are checked in opford_rpc.sh.)
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"
opford="$(dirname "$bin")/opford"
[ -x "$opford" ] || { echo "bench_rpc.sh: $opford is not built"; exit 1; }
work=$(mktemp -d /tmp/opfor-bench-rpc.XXXXXX)
pid=
cleanup() {
  if [ -n "$pid" ]; then
    kill -CONT "$pid" 2>/dev/null
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$work" "$tmp"
}
trap cleanup EXIT

run 0 bench rpc --help
has "(100-100000000,"
run 2 bench rpc --clients 1001
has_err "--clients must be a whole number from 1 to 1000"
run 2 bench rpc --requests 10
has_err "--requests must be a whole number from 100 to"

# 300 connections at once (opford's listen queue holds 128) to a daemon that accepts none yet.
"$opford" --socket "$work/s.sock" --state-dir "$work/state" --log-level error \
  --max-clients 400 --hello-timeout 0 --idle-timeout 0 &
pid=$!
for _ in $(seq 200); do [ -S "$work/s.sock" ] && break; sleep 0.05; done
[ -S "$work/s.sock" ] || fail "opford did not start listening"
kill -STOP "$pid"
timeout 60 "$bin" bench rpc --socket "$work/s.sock" --clients 300 --requests 1000 --runs 1 \
  >"$out" 2>"$err" &
bench=$!
sleep 1.5
kill -CONT "$pid"
wait "$bench"
rc=$?
[ "$rc" -eq 0 ] || fail "bench rpc with 300 clients on a paused daemon exited $rc, want 0"
has "300 clients"
has "requests/s"

# More clients than a daemon takes (64 by default): a clear error and exit 1, not a silent
# death by SIGPIPE.
kill "$pid"
wait "$pid" 2>/dev/null
rm -rf "$work/state"
"$opford" --socket "$work/s2.sock" --state-dir "$work/state" --log-level error \
  --max-clients 4 &
pid=$!
for _ in $(seq 200); do [ -S "$work/s2.sock" ] && break; sleep 0.05; done
run 1 bench rpc --socket "$work/s2.sock" --clients 40 --requests 1000 --runs 1
has_err "opfor: bench rpc: the daemon closed a connection"
has_err "--max-clients"

# Killing the benchmark (SIGTERM) takes the daemon it spawned with it.
"$bin" bench rpc --requests 100000000 --runs 9 >"$out" 2>"$err" &
bench=$!
child=
for _ in $(seq 200); do
  child=$(ps -o pid= --ppid "$bench" | tr -d ' ' | head -1)
  [ -n "$child" ] && break
  sleep 0.05
done
if [ -z "$child" ]; then
  fail "bench rpc spawned no daemon"
else
  dir=$(tr '\0' '\n' <"/proc/$child/cmdline" | sed -n 's|/opford.sock$||p' | head -1)
  sleep 0.5
  kill -TERM "$bench"
  wait "$bench" 2>/dev/null
  for _ in $(seq 40); do kill -0 "$child" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$child" 2>/dev/null; then
    fail "the spawned opford outlived bench rpc"
    kill "$child"
  fi
  case "$dir" in /tmp/opfor-bench-*) rm -rf "$dir" ;; esac
fi

finish "bench_rpc.sh: $fails failed" "bench_rpc.sh: all checks passed"

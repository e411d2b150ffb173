#!/usr/bin/env bash
# tests/web/display_link.sh BIN_DIR SOURCE_DIR — a Pi without a screen shows the table page's
# players' link on its e-ink panel: opford with --display (the emulator, PNG frames) and the page
# draws a waiting card other than the one it draws without the page, and says so in its log.
set -euo pipefail
bin=$1
# shellcheck source=SCRIPTDIR/../cli/lib.bash
. "$(dirname "$0")/../cli/lib.bash"
daemon_workdir opfor-dlink
echo "leak:libfontconfig.so" >"$work/lsan.supp" # as tests/cli/display.sh: fontconfig's own
export LSAN_OPTIONS="suppressions=$work/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fail() {
  echo "display_link.sh: FAIL: $*"
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
  exit 1
}
# first_frame NAME [ARGS...]: starts opford drawing into $work/NAME, waits for its first frame,
# stops it; prints the frame's path
first_frame() {
  local name=$1
  shift
  "$bin/opford" --socket "$work/$name.sock" --state-dir "$work/$name-state" \
    --display "sim:7in5v2:$work/$name" --log-level info "$@" >"$work/$name.log" 2>&1 &
  local pid=$!
  echo "$pid" >>"$work/pids"
  local f="" i
  for i in $(seq 150); do
    f=$(find "$work/$name" -name 'frame-*.png' 2>/dev/null | sort | head -n 1)
    [ -n "$f" ] && break
    sleep 0.1
  done
  kill -TERM "$pid"
  wait "$pid" || fail "$name: opford exited non-zero after SIGTERM"
  [ -n "$f" ] || fail "$name: no frame drawn"
  echo "$f"
}
with=$(first_frame page --listen http://127.0.0.1:0)
without=$(first_frame plain)
grep -q "display: the waiting card shows the players' link as a QR code" "$work/page.log" ||
  fail "the log does not say the panel shows the link"
grep -q "shows the players' link" "$work/plain.log" && fail "without the page the log says so"
cmp -s "$with" "$without" && fail "the waiting card is the same with and without the page"
echo "display_link.sh: passed"

#!/usr/bin/env bash
# tests/cli/display.sh BIN_DIR SOURCE_DIR — the e-ink display end to end, over the emulator:
# opford --display sim:7in5v2:DIR draws each order as an 800x480 PNG frame; `opfor display
# --connect ... --sim DIR --once` draws the same game from another process; a long-running
# `opfor display` survives a daemon restart (reconnects, reads the state again, draws the next
# event); bad specs are usage errors. Every wait is bounded; daemons and clients are killed on
# exit whatever happens. The game is driven by tests/cli/display_drive.py (python3-msgpack).
set -euo pipefail
bin=$1
src=$2
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
need_msgpack_python display.sh
drive() { timeout -k 5 60 "$py" "$src/tests/cli/display_drive.py" "$@"; }
daemon_workdir opfor-disp # daemons and clients go in $work/pids, killed on exit
# Sanitizer builds: fontconfig leaks a few hundred bytes once while parsing its XML config; not
# ours to fix, so that library alone is suppressed (no effect on ordinary builds).
echo "leak:libfontconfig.so" >"$work/lsan.supp"
export LSAN_OPTIONS="suppressions=$work/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fail() {
  echo "display.sh: FAIL: $*"
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }; done
  exit 1
}
# wait_for SECONDS COMMAND...: polls every 0.1 s
wait_for() {
  local t=$(($1 * 10)); shift
  while ! "$@" 2>/dev/null; do
    t=$((t - 1)); [ "$t" -gt 0 ] || return 1
    sleep 0.1
  done
}
count_frames() { find "$1" -name 'frame-*.png' 2>/dev/null | wc -l; }
frames_at_least() { [ "$(count_frames "$1")" -ge "$2" ]; }
last_frame() { find "$1" -name 'frame-*.png' | sort | tail -n 1; }
sock=$work/s.sock
start_daemon() {
  "$bin/opford" --socket "$sock" --state-dir "$work/state" --display "sim:7in5v2:$work/frames" \
    --log-level debug >>"$work/opford.log" 2>&1 &
  dpid=$!
  echo "$dpid" >>"$work/pids"
  wait_for 10 test -S "$sock" || fail "opford did not create its socket"
}
stop_daemon() {
  kill -TERM "$dpid"
  local i
  for i in $(seq 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$dpid" 2>/dev/null && fail "opford did not stop on SIGTERM"
  wait "$dpid" || fail "opford exited non-zero after SIGTERM"
}

# --- bad specs are usage errors (exit 2) that name the problem
set +e
out=$("$bin/opford" --socket "$work/x.sock" --display sim:7in5v2 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "sim without DIR: exit $rc, want 2"
grep -q "sim:PANEL:DIR\|sim:7in5v2:DIR" <<<"$out" || fail "sim without DIR: message: $out"
set +e
out=$("$bin/opford" --socket "$work/x.sock" --display epd:9in7 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "unknown panel: exit $rc"
grep -q "2in13v4, 7in5v2" <<<"$out" || fail "unknown panel: message lacks the panels: $out"
set +e
out=$("$bin/opfor" display --panel 9in7 2>&1); rc=$?
set -e
[ "$rc" = 2 ] && grep -q "2in13v4" <<<"$out" || fail "opfor display --panel 9in7: exit $rc: $out"
set +e
"$bin/opfor" display --rotate 45 >/dev/null 2>&1; rc=$?
set -e
[ "$rc" = 2 ] || fail "--rotate 45: exit $rc"
"$bin/opfor" display --help | grep -q -- "--connect ADDR" || fail "opfor display --help"
# a real panel on a machine without SPI: a runtime failure naming the device
set +e
out=$("$bin/opford" --socket "$work/x.sock" --state-dir "$work/xs" --display epd:2in13v4 \
  --display-spidev "$work/no-spidev" 2>&1); rc=$?
set -e
[ "$rc" = 1 ] && grep -q "no-spidev" <<<"$out" || fail "epd without SPI: exit $rc: $out"

# --- the daemon draws a waiting card at start, then each order
start_daemon
wait_for 10 frames_at_least "$work/frames" 1 || fail "no frame at start"
first=$(last_frame "$work/frames")
mapfile -t got < <(drive "$sock" order) || fail "driving the game to an order failed"
game=${got[0]}
[ -n "$game" ] && [ -n "${got[1]:-}" ] || fail "no order: ${got[*]}"
echo "game $game, order: ${got[1]}"
# the refresh policy keeps 2 s between refreshes: the order card may come a little later
grep -q "display: " "$work/opford.log" || fail "no display lines in the log"
wait_for 15 grep -q "kind\|refresh" "$work/opford.log" || true
sleep 3 # the newest card wins after the minimum interval
n=$(count_frames "$work/frames")
[ "$n" -ge 2 ] || fail "only $n frame(s) after an order"
last=$(last_frame "$work/frames")
[ "$(drive png "$last")" = 800x480 ] || fail "$last is not 800x480"
cmp -s "$first" "$last" && fail "the order frame equals the waiting frame"
grep -q "emulator recorded" "$work/opford.log" && fail "the driver broke the panel protocol"

# --- a display-only client draws the same game once and exits
json=$(timeout -k 5 30 "$bin/opfor" display --connect "unix:$sock" --sim "$work/once" --once --json \
  2>"$work/once.log") || fail "opfor display --once failed"
grep -q "\"game\":\"$game\"" <<<"$json" || fail "--once followed another game: $json"
grep -q '"refreshes":1' <<<"$json" || fail "--once: $json"
[ "$(count_frames "$work/once")" = 1 ] || fail "--once wrote $(count_frames "$work/once") frames"
[ "$(drive png "$(last_frame "$work/once")")" = 800x480 ] || fail "--once frame size"
cmp -s "$(last_frame "$work/once")" "$last" || fail "the client's frame differs from the daemon's"
timeout -k 5 30 "$bin/opfor" display --connect "$sock" --sim "$work/small" --panel 2in13v4 --once \
  2>>"$work/once.log" || fail "--panel 2in13v4 --once failed"
[ "$(drive png "$(last_frame "$work/small")")" = 250x122 ] || fail "2.13 inch frame size"

# --- bad wiring in a config file: one clear line naming the file, exit 1
printf 'display-pin-rst: 25\ndisplay-pin-dc: 25\n' >"$work/pins.yaml"
"$bin/opfor" display --config "$work/pins.yaml" --sim "$work/pins" --once 2>"$work/pins.err" &&
  fail "shared pins accepted"
grep -q "^opfor: display: $work/pins.yaml: two of the pins share a line" "$work/pins.err" ||
  fail "shared pins: $(cat "$work/pins.err")"

# --- a long-running client reconnects after a daemon restart and draws the next event
"$bin/opfor" display --connect "unix:$sock" --sim "$work/live" --verbose >"$work/client.log" 2>&1 &
cpid=$!
echo "$cpid" >>"$work/pids"
wait_for 15 grep -q "following game $game" "$work/client.log" || fail "the client did not follow $game"
wait_for 10 frames_at_least "$work/live" 1 || fail "the client drew nothing"
dlast=$(last_frame "$work/frames")
dn=$(count_frames "$work/frames")
stop_daemon
grep -q "panel asleep" "$work/opford.log" || fail "opford did not put the panel to sleep"
wait_for 10 grep -q "connection to .* lost" "$work/client.log" || fail "the client missed the drop"
sleep 2 # let it back off at least once against a missing socket
start_daemon
# the restarted daemon's own panel shows the game under way where it stood (its open order),
# the same card as before the restart, never "Waiting for orders"
wait_for 15 frames_at_least "$work/frames" $((dn + 1)) || fail "the restarted daemon drew nothing"
dnew=$(last_frame "$work/frames")
cmp -s "$dnew" "$first" && fail "the restarted daemon shows the waiting card while $game is active"
cmp -s "$dnew" "$dlast" || fail "the restarted daemon's card ($dnew) differs from the one before the restart ($dlast)"
grep -q "game $game: its current state handed to the event listener" "$work/opford.log" ||
  fail "the restarted daemon did not load $game for its panel"
wait_for 40 grep -q "reconnected to" "$work/client.log" || fail "the client did not reconnect"
follows() { [ "$(grep -c "following game $game" "$work/client.log")" -ge 2 ]; }
wait_for 10 follows || fail "no follow after reconnect"
# after the restart the clients show the game's open order again, the card from before the
# restart, never a waiting card: the long-running one (redrawn from the state it read again)
# and a one-shot client started now
sleep 2.5 # a redraw after the reconnection has reached the emulator
clive=$(last_frame "$work/live")
cmp -s "$clive" "$last" || fail "after the restart the client shows $clive, not the order card"
timeout -k 5 30 "$bin/opfor" display --connect "unix:$sock" --sim "$work/once2" --once \
  2>>"$work/once.log" || fail "opfor display --once after the restart failed"
cmp -s "$(last_frame "$work/once2")" "$last" ||
  fail "after the restart a new client draws another card than the open order's"
before=$(count_frames "$work/live")
sleep 2.5 # past the minimum interval since the client's last refresh
kinds=$(drive "$sock" press "$game") || fail "no event after the restart"
echo "events after the restart: $kinds"
wait_for 15 frames_at_least "$work/live" $((before + 1)) ||
  fail "the client drew no new frame after the restart ($before frames; events: $kinds)"
[ "$(drive png "$(last_frame "$work/live")")" = 800x480 ] || fail "live frame size"
kill -TERM "$cpid"
for i in $(seq 100); do kill -0 "$cpid" 2>/dev/null || break; sleep 0.1; done
wait "$cpid" || fail "opfor display exited non-zero after SIGTERM"
grep -q "panel asleep" "$work/client.log" || fail "the client did not put the panel to sleep"
grep -q "emulator recorded" "$work/client.log" && fail "the client broke the panel protocol"
stop_daemon
echo "display.sh: ok"

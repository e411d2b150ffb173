#!/usr/bin/env bash
# tests/cli/display_splendid.sh BIN_DIR SOURCE_DIR — the e-ink card of a game of A Splendid
# Victory! (its built-in encounter), end to end over the emulator: opford --display
# sim:7in5v2:DIR draws the AI's order from the order event and game.state's scene (the ruleset's
# scene hook: terrain, every unit's rectangle turned to its facing, the acting unit ringed),
# compared with tests/display/golden/card_splendid_7in5.png (tests/cli/display_drive.py
# golden; OPFOR_UPDATE_GOLDEN=1 writes it); `opfor display --once` draws the same card from
# game.state alone.
set -euo pipefail
bin=$1
src=$2
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
need_msgpack_python display_splendid.sh
need_opford display_splendid.sh "$bin"
drive() { timeout -k 5 60 "$py" "$src/tests/cli/display_drive.py" "$@"; }
daemon_workdir opfor-dsv # daemons go in $work/pids, killed on exit
echo "leak:libfontconfig.so" >"$work/lsan.supp"
export LSAN_OPTIONS="suppressions=$work/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fail() {
  echo "display_splendid.sh: FAIL: $*"
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }; done
  exit 1
}
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
golden=$src/tests/display/golden/card_splendid_7in5.png

"$bin/opford" --socket "$sock" --state-dir "$work/state" --display "sim:7in5v2:$work/frames" \
  --log-level debug >>"$work/opford.log" 2>&1 &
dpid=$!
echo "$dpid" >>"$work/pids"
wait_for 10 test -S "$sock" || fail "opford did not create its socket"
wait_for 10 frames_at_least "$work/frames" 1 || fail "no frame at start"

mapfile -t got < <(drive "$sock" splendid) || fail "driving A Splendid Victory! to an order failed"
game=${got[0]}
[ -n "$game" ] && [ -n "${got[1]:-}" ] || fail "no order: ${got[*]}"
echo "game $game, order: ${got[1]}"
# the order card: the waiting card, then this one (the refresh policy may hold it 2 s)
wait_for 15 frames_at_least "$work/frames" 2 || fail "no card after the splendid order"
sleep 3 # nothing newer may follow the order (a table side to move before it may have its card)
last=$(last_frame "$work/frames")
[ "$(drive png "$last")" = 800x480 ] || fail "$last is not 800x480"
drive golden "$last" "$golden" || fail "the splendid order card differs from $golden (see $last)"

# a display-only client builds the same card from game.state alone (the order still open)
timeout -k 5 30 "$bin/opfor" display --connect "unix:$sock" --sim "$work/once" --once \
  >"$work/once.log" 2>&1 || fail "opfor display --once failed"
[ "$(count_frames "$work/once")" = 1 ] || fail "--once wrote $(count_frames "$work/once") frames"
cmp -s "$(last_frame "$work/once")" "$last" || fail "the client's frame differs from the daemon's"

kill -TERM "$dpid"
for _ in $(seq 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
wait "$dpid" || fail "opford exited non-zero after SIGTERM"
grep -Eq "display: .* event\(s\), [1-9][0-9]* card\(s\)" "$work/opford.log" ||
  fail "opford drew no card"
echo "display_splendid.sh: ok"

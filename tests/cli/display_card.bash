# tests/cli/display_card.bash — sourced by display_generic.sh and display_splendid.sh: the
# e-ink card of one ruleset's game, end to end over the emulator. opford --display
# sim:7in5v2:DIR draws the AI's order from the order event and game.state's scene, the last
# frame is compared with a golden PNG (tests/cli/display_drive.py golden;
# OPFOR_UPDATE_GOLDEN=1 writes it), and `opfor display --once` must draw the same card from
# game.state alone.
# display_card NAME BIN SRC RULESET WHAT GOLDEN ONLY_ORDER
#   NAME: the calling script (for messages); RULESET: the display_drive.py target; WHAT: the
#   game in words; ONLY_ORDER=1: the order is the only event that makes a card (exactly two
#   frames, one card drawn), 0: a table side to move before it may have its card too.
display_card() {
  local name=$1 bin=$2 src=$3 ruleset=$4 what=$5 golden=$6 only_order=$7
  # shellcheck source=SCRIPTDIR/lib.bash
  . "$src/tests/cli/lib.bash"
  need_msgpack_python "$name"
  need_opford "$name" "$bin"
  drive() { timeout -k 5 60 "$py" "$src/tests/cli/display_drive.py" "$@"; }
  daemon_workdir "opfor-card-$ruleset" # daemons go in $work/pids, killed on exit
  echo "leak:libfontconfig.so" >"$work/lsan.supp"
  export LSAN_OPTIONS="suppressions=$work/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  fail() {
    echo "$name: FAIL: $*"
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
  local sock=$work/s.sock

  "$bin/opford" --socket "$sock" --state-dir "$work/state" --display "sim:7in5v2:$work/frames" \
    --log-level debug >>"$work/opford.log" 2>&1 &
  local dpid=$!
  echo "$dpid" >>"$work/pids"
  wait_for 10 test -S "$sock" || fail "opford did not create its socket"
  wait_for 10 frames_at_least "$work/frames" 1 || fail "no frame at start"

  local got
  mapfile -t got < <(drive "$sock" "$ruleset") || fail "driving $what to an order failed"
  if [ "${got[0]:-}" = SKIP ]; then
    echo "$name: SKIP: this opford does not register $what (build with -DOPFOR_TEST_RULESETS=ON)"
    exit 0
  fi
  [ -n "${got[0]}" ] && [ -n "${got[1]:-}" ] || fail "no order: ${got[*]}"
  echo "game ${got[0]}, order: ${got[1]}"
  # the order card: the waiting card, then this one (the refresh policy may hold it 2 s)
  wait_for 15 frames_at_least "$work/frames" 2 || fail "no card after $what's order"
  sleep 3 # nothing newer may follow the order
  if [ "$only_order" = 1 ]; then
    [ "$(count_frames "$work/frames")" = 2 ] || fail "$(count_frames "$work/frames") frames, want 2"
  fi
  local last
  last=$(last_frame "$work/frames")
  [ "$(drive png "$last")" = 800x480 ] || fail "$last is not 800x480"
  drive golden "$last" "$golden" || fail "$what's order card differs from $golden (see $last)"

  # a display-only client builds the same card from game.state alone (the order still open)
  timeout -k 5 30 "$bin/opfor" display --connect "unix:$sock" --sim "$work/once" --once \
    >"$work/once.log" 2>&1 || fail "opfor display --once failed"
  [ "$(count_frames "$work/once")" = 1 ] || fail "--once wrote $(count_frames "$work/once") frames"
  cmp -s "$(last_frame "$work/once")" "$last" || fail "the client's frame differs from the daemon's"

  kill -TERM "$dpid"
  for _ in $(seq 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
  wait "$dpid" || fail "opford exited non-zero after SIGTERM"
  if [ "$only_order" = 1 ]; then
    grep -q "display: .* event(s), 1 card(s)" "$work/opford.log" ||
      fail "opford drew more than the order"
  else
    grep -Eq "display: .* event\(s\), [1-9][0-9]* card\(s\)" "$work/opford.log" ||
      fail "opford drew no card"
  fi
  echo "$name: ok"
}

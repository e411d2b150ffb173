#!/usr/bin/env bash
# tests/cli/make_run.sh BIN_DIR SOURCE_DIR — `make run` (tools/run.sh) keeps its games and
# scores in the user's state directory: the "takes it up again" line it prints at `q` is a
# command that really resumes the game, and a finished game reaches `opfor scores`.
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"
bindir=$(dirname "$bin")
[ -x "$bindir/opford" ] || { echo "make_run.sh: $bindir/opford is not built"; exit 1; }
export XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" HOME="$tmp/home" USER=tester
export OPFOR_BIN="$bindir"
# The table page is left out here (this test runs under the sanitizers and qemu too); the
# native-only tests/web/opford_web.sh checks that `make run` prints its address.
export OPFOR_WEB=none
runit() { bash "$src/tools/run.sh" unused "$@" >"$out" 2>"$err"; }

grep -q 'bash tools/run.sh $(BUILD) $(GAME)' "$src/Makefile" || fail "make run does not run tools/run.sh with GAME"

# a game left with q stays in the state directory
printf 'i\nq\n' | runit || fail "make run exited $?"
has "Games and scores are kept in $tmp/state/opfor."
game=$(sed -n 's/^The game stays saved in the daemon: `make run GAME=\([a-z0-9]*\)` takes it up again\.$/\1/p' "$out")
[ -n "$game" ] || fail "no 'make run GAME=ID' line"
[ -f "$tmp/state/opfor/opfor.db" ] || fail "no database in the state directory"

# the hint's command takes it up again: the same game, the press kept
printf 'u\nq\n' | runit "$game" || fail "make run GAME=$game exited $?"
has "Viktoria! Patrol Mode against opford: game $game"
# (the press, and an order when the enemy drew the initiative and the AI answered before q:
# the fresh seed decides which)
grep -Eq "Log entries [1-9][0-9]*, events [1-9][0-9]*," "$out" || fail "the press was not kept"
has "The game stays saved in the daemon: \`make run GAME=$game\` takes it up again."

# stopped by a signal to the whole group (daemon included), the game prints q's line: make
# run's command that takes the game up again, which then finds it where it stood. SIGTERM
# here: a script's background job ignores SIGINT (tests/cli/opford_deadends.sh sends the
# client SIGINT itself)
mkfifo "$tmp/in"
setsid bash "$src/tools/run.sh" unused "$game" <"$tmp/in" >"$out" 2>"$err" &
spid=$!
exec 3>"$tmp/in"
printf 'u\n' >&3
for _ in $(seq 100); do grep -q '^Log entries' "$out" 2>/dev/null && break; sleep 0.1; done
kill -TERM -- -"$spid"
for _ in $(seq 100); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
kill -KILL -- -"$spid" 2>/dev/null
wait "$spid"
rc=$?
exec 3>&-
[ "$rc" -ne 0 ] || fail "make run exited 0 after SIGTERM"
has "The game stays saved in the daemon: \`make run GAME=$game\` takes it up again."
printf 'q\n' | runit "$game" || fail "make run GAME=$game after SIGTERM exited $?"
has "Viktoria! Patrol Mode against opford: game $game"

# the daemon's game takes points as "X,Y" or "X Y", and a one-letter unit spends nothing
printf 'a H\nm Hussar 58,18\nm 1st 30, 12\nq\n' | runit "$game" || fail "the points game exited $?"
# (the one client of the local and the daemon's game names the units the letter might mean)
has "'H' is too short to be sure which unit acted; it could be Major Harcourt, Hussar Troop; give more of the name (nothing changed)."
has "Hussar Troop moved to x 58.0, y 18.0"
has "1st Section moved to x 30.0, y 12.0"
grep -q " acted$" "$out" && fail "a one-letter name spent the initiative"

# a finished game is in `opfor scores`
printf 'r Major killed 1\nr Sharp killed 1\nr 9-p killed 5\nr 1st killed 12\nr Hussar killed 6\n' | runit "$game" ||
  fail "the last game exited $?"
has "Game over: lost (every player unit is lost)"
has "The game is over: \`make run GAME=$game\` shows it."
run 0 scores
grep -q "^   1 *0  $game *patrol_default *lost" "$out" || fail "the finished game is not in opfor scores"

finish "$fails check(s) failed" "make_run.sh: all checks passed"

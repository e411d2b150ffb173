#!/usr/bin/env bash
# tools/run.sh BUILD_DIR [GAME] — `make run` (and `make run GAME=ID`): the daemon with the
# default scenario and the terminal Patrol Mode game played against it.
#
# The daemon keeps its games and their high scores where an installed opford keeps them, in
# the user's state directory ($XDG_STATE_HOME/opfor, else ~/.local/state/opfor), so a game
# left with `q` (or Ctrl-C) is still there for `make run GAME=ID`, and a finished one reaches
# `opfor scores`. Only the socket is temporary: the daemon runs while the game does.
set -u
build=${1:?usage: tools/run.sh BUILD_DIR [GAME]}
game=${2:-}
bindir=${OPFOR_BIN:-$build/bin} # the tests point it at their build's binaries
if [ -n "${XDG_STATE_HOME:-}" ]; then
  state="$XDG_STATE_HOME/opfor"
elif [ -n "${HOME:-}" ]; then
  state="$HOME/.local/state/opfor"
else
  echo "make run: no state directory: set XDG_STATE_HOME or HOME" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/opfor-run.XXXXXX) || exit 1
# The table page (docs/web.md) on this machine: OPFOR_WEB (`make run WEB=...`) is its address,
# port 0 picks a free one; "none" leaves it out.
web=${OPFOR_WEB:-http://127.0.0.1:0}
webopt=()
[ "$web" = none ] || webopt=(--listen "$web")
"$bindir/opford" --socket "$dir/opford.sock" --state-dir "$state" --log-level warn \
  "${webopt[@]}" >"$dir/opford.out" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
for _ in $(seq 100); do
  [ -S "$dir/opford.sock" ] && break
  kill -0 $pid 2>/dev/null || { echo "make run: the daemon did not start" >&2; exit 1; }
  sleep 0.05
done
echo "Games and scores are kept in $state."
for _ in $(seq 40); do # the daemon prints the page's address once it listens
  grep -q 'table page at' "$dir/opford.out" 2>/dev/null && break
  [ "$web" = none ] && break
  sleep 0.05
done
sed -n -e 's/^opford: table page at \(.*\)$/The table page (calculator): \1/p' \
  -e "s/^opford: game master's link: /  game master's link: /p" \
  -e "s/^opford: players' link: /  players' link: /p" "$dir/opford.out"
if [ -n "$game" ]; then
  "$bindir/opfor" patrol --connect "$dir/opford.sock" --game "$game" \
    --resume-hint "make run GAME="
else
  "$bindir/opfor" patrol --connect "$dir/opford.sock" --scenario patrol_default \
    --resume-hint "make run GAME="
fi

#!/usr/bin/env bash
# tests/cli/arena.sh BIN_DIR [SOURCE_DIR] — `opfor arena` end to end with small N: the same
# command prints the same result with one or two threads, seeds matter, the counts add up,
# JSON is valid and complete (also in Patrol Mode with the director), bad flags exit 2
# naming the flag and its allowed values while an unreadable scenario exits 1, and SIGINT or
# SIGTERM mid-run prints the summary of the games finished (exit 130 / 143).
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"
first="$tmp/first"

# Help, and the command is listed.
run 0 arena --help
has "usage: opfor arena"
has "mcts:LEVEL"
run 0 --help
has "arena"

# The same command gives the same result with 1 and 2 threads; another seed differs.
run 0 arena --a table --b random --games 12 --seed 5 --threads 1
has "arena: table (a) vs random (b), competitive, 12 games, seed 5"
has "win_rate_a "
has "(95% CI "
cp "$out" "$first"
run 0 arena --a table --b random --games 12 --seed 5 --threads 2
cmp -s "$out" "$first" || fail "one and two threads differ"
run 0 arena --a random --b random --games 12 --seed 6 --json
json_ok
[ "$(json_get 'd["wins_a"]+d["wins_b"]+d["draws"]+d["errors"]')" = 12 ] || fail "counts do not add up to 12"
[ "$(json_get 'd["a_by_side"][0]["games"]')" = 6 ] || fail "a did not play side 0 in half the games"
[ "$(json_get 'd["a_by_side"][1]["games"]')" = 6 ] || fail "a did not play side 1 in half the games"
[ "$(json_get '0 <= d["ci95"][0] <= d["win_rate_a"] <= d["ci95"][1] <= 1')" = True ] ||
  fail "win_rate_a is not inside its interval"

# Patrol Mode: a is the non-player side, the director steers and places generals.
run 0 arena --a table --b weak --games 4 --seed 3 --mode patrol --rollouts 2 --json
json_ok
has '"mode":"patrol"'
has '"scenarios":["patrol_default"]'
[ "$(json_get 'd["patrol"]["director"]')" = True ] || fail "the director is not on"
[ "$(json_get 'd["patrol"]["spottings"] >= d["patrol"]["steered"] >= 0')" = True ] ||
  fail "more spottings steered than made"
[ "$(json_get 'd["a_by_side"][1]["games"]')" = 4 ] || fail "a did not keep the non-player side"
run 0 arena --a table --b medium --games 4 --seed 3 --mode patrol --director off
has "director off"
has "player (b) win rate "
has " 0 steered"

# Progress on standard error also for fewer than 20 games, when they take long (a line at most
# every 5 s: checked only when the run took 7 s or more); --quiet silences it.
run 0 arena --a table --b random --games 12 --seed 1 --quiet
[ -s "$err" ] && fail "--quiet printed on standard error"

# A signal mid-run: no new games, the summary of games 1..N marked as interrupted, exit
# 128 + the signal; those N games are the same as a run of N games. A second signal kills.
# signal_run SIG DELAY SECOND ARGS...: runs opfor ARGS (SIG not ignored), sends SIG after
# DELAY seconds (and again SECOND seconds later when SECOND > 0); prints the exit code
# (-SIG when the signal killed it).
signal_run() {
  python3 - "$bin" "$out" "$err" "$@" <<'PY'
import signal, subprocess, sys, time
binary, out, err, sig, delay, second = sys.argv[1:7]
sig = getattr(signal, sig)
dfl = lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL),
               signal.signal(signal.SIGTERM, signal.SIG_DFL))
with open(out, "w") as o, open(err, "w") as e:
    p = subprocess.Popen([binary] + sys.argv[7:], stdout=o, stderr=e, preexec_fn=dfl)
    time.sleep(float(delay))
    p.send_signal(sig)
    if float(second) > 0:
        time.sleep(float(second))
        if p.poll() is None:
            p.send_signal(sig)
    print(p.wait(timeout=120))
PY
}
# The signal must land after the handlers are in and a game is over: on a loaded machine or
# under qemu the start alone can take seconds, so the delays below add a measured start
# (a run of one game, --quiet, timed here) to the fixed ones.
t0=$(date +%s.%N)
run 0 arena --a table --b random --games 1 --seed 4 --quiet
start=$(python3 -c "import sys; print('%.2f' % (2 * ($(date +%s.%N) - $t0)))")
later() { python3 -c "print('%.2f' % ($1 + $start))"; }
# Progress on a short run of slow games: interrupted after 6.5 s, the game in progress ends
# after the 5 s mark, so at least one progress line must be there.
rc=$(signal_run SIGINT 6.5 0 arena --a mcts:novice --b random --games 12 --seed 1)
[ "$rc" = 130 ] || fail "progress run: exit $rc, want 130 (interrupted)"
grep -qE '^arena: [0-9]+/12 games, ' "$err" || fail "no progress line in a run of 6.5 s or more"
rc=$(signal_run SIGINT "$(later 1.5)" 0 arena --a table --b random --games 1000000 --seed 4 --threads 2)
[ "$rc" = 130 ] || fail "SIGINT: exit $rc, want 130"
n=$(sed -n 's/^arena: interrupted after \([0-9]*\) of 1000000 games (the summary covers games 1-\1)$/\1/p' "$out")
if [ -z "$n" ] || [ "$n" -lt 1 ]; then
  fail "SIGINT: no 'interrupted after N of 1000000 games' line"
else
  has "competitive, $n games, seed 4"
  has_err "arena: interrupted: no new games"
  tail -n +2 "$out" >"$first"
  run 0 arena --a table --b random --games "$n" --seed 4 --threads 1
  cmp -s "$out" "$first" || fail "the interrupted run's $n games differ from a run of $n games"
fi
rc=$(signal_run SIGTERM "$(later 1.5)" 0 arena --a table --b random --games 1000000 --seed 4 --json --quiet)
[ "$rc" = 143 ] || fail "SIGTERM: exit $rc, want 143"
json_ok
[ "$(json_get 'd["interrupted"] and d["games_played"] == d["games"] >= 1 and '`
  `'d["games_requested"] == 1000000 and '`
  `'d["wins_a"] + d["wins_b"] + d["draws"] + d["errors"] == d["games"]')" = True ] ||
  fail "SIGTERM: the JSON summary is not marked interrupted or does not add up"
run 0 arena --a table --b random --games 3 --seed 4 --json
[ "$(json_get 'd["interrupted"]')" = False ] || fail "a whole run is marked interrupted"
# A game of mcts:challenge takes seconds: the second SIGINT ends the run at once, no summary.
rc=$(signal_run SIGINT 0.5 0.5 arena --a mcts:challenge --b heuristic --games 4 --seed 1)
[ "$rc" = -2 ] || fail "a second SIGINT did not kill the run (exit $rc)"
[ -s "$out" ] && fail "a run killed by a second SIGINT printed a summary"

# Usage errors name the flag and the allowed values; missing files fail with exit 1.
run 2 arena --a table --b nonsense --games 2 --seed 1
has_err "--b must be one of"
run 2 arena --a table --b random --games 0 --seed 1
has_err "--games must be a whole number"
run 2 arena --a table --b random --games 2
has_err "--seed S is required"
run 2 arena --a table --b random --games 2 --seed 1 --mode solo
has_err "--mode must be competitive or patrol"
run 2 arena --a table --b random --games 2 --seed 1 --threads 99
has_err "--threads must be"
run 2 arena --a table --b random --games 2 --seed 1 --band 70-30
has_err "--band must be LO-HI"
run 2 arena --a table --b random --games 2 --seed 1 --bogus
has_err "unknown flag '--bogus'"
run 2 arena --a table --b random --games 2 --seed 1 --scenario=
has_err "arena: --scenario needs a value: a file name"
run 1 arena --a table --b random --games 2 --seed 1 --scenario /nonexistent/x.yaml
has_err "opfor: arena: "

# --ruleset: viktoria is the default (the same result named or not); an unknown name lists
# the registered ones; every other ruleset plays random and mcts:LEVEL, and refuses the
# Patrol Mode options (Viktoria!'s own arena's) and Viktoria!'s bots it does not have.
run 0 arena --a table --b random --games 12 --seed 5
cp "$out" "$first"
run 0 arena --ruleset viktoria --a table --b random --games 12 --seed 5
cmp -s "$out" "$first" || fail "--ruleset viktoria differs from the default"
run 2 arena --ruleset nope --a random --b random --games 2 --seed 1
has_err "arena: --ruleset must be one of viktoria"
others=$(sed -n "s/.*--ruleset must be one of \(.*\); got 'nope'.*/\1/p" "$err" | tr -d ',')
[ -n "$others" ] || fail "no ruleset list in the usage error"
for rs in $others; do
  [ "$rs" = viktoria ] && continue
  run 0 arena --ruleset "$rs" --a random --b mcts:novice --games 4 --seed 1 --json --quiet
  json_ok
  [ "$(json_get 'd["ruleset"] == "'"$rs"'" and d["wins_a"]+d["wins_b"]+d["draws"]+d["errors"] == 4')" = True ] ||
    fail "$rs: the counts do not add up to 4"
  run 2 arena --ruleset "$rs" --a random --b random --games 2 --seed 1 --mode patrol
  has_err "arena: unknown flag '--mode'"
  run 2 arena --ruleset "$rs" --a random --b random --games 2 --seed 1 --rollouts 3
  has_err "arena: unknown flag '--rollouts'"
done

# The test ruleset (built with -DOPFOR_TEST_RULESETS=ON): its own bot and the search both
# beat random play clearly (400 games, seed 1: greedy 0.76, mcts:standard 0.77; the bound
# leaves room for the noise of 100 games).
case " $others " in
*" duel "*)
  for a in greedy mcts:standard; do
    run 0 arena --ruleset duel --a "$a" --b random --games 100 --seed 1 --json --quiet
    json_ok
    [ "$(json_get 'd["win_rate_a"] >= 0.65')" = True ] || fail "duel: $a does not beat random"
  done ;;
*) echo "arena.sh: the duel is not built; its strength checks skipped" ;;
esac

finish "arena.sh: $fails failed" "arena.sh: $fails failed"

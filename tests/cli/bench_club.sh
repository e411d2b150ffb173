#!/usr/bin/env bash
# tests/cli/bench_club.sh BIN_DIR [SOURCE_DIR] — `opfor bench club` small (issue 16): 5 tables at
# a compressed pace, a burst of 10 on one worker (5 from one client for 5 games, 5 clients with
# one game each). Every decision is answered; the burst is fair (every single-game client is
# answered before the flooding client's last answer: a first-come queue fails this, the flood
# being queued first); searches that started with many waiting were shortened, and the orders
# and the daemon's log say so. Timing targets are printed, not checked here (shared machines).
set -u
# shellcheck source=SCRIPTDIR/lib.bash
. "$(dirname "$0")/lib.bash"
cli_init "$@"
[ -x "$(dirname "$bin")/opford" ] || { echo "bench_club.sh: opford is not built"; exit 1; }

run 0 bench club --help
has "--pace S"
has "--burst B"
run 2 bench club --burst 1
has_err "--burst must be a whole number from 2 to 1000"
run 2 bench club --pace 0
has_err "--pace"

run 0 bench club --games 5 --pace 2 --duration 3 --burst 10 --solo 4 --workers 1 --json
json_ok
json_eq 'd["burst_answered"]' 10
json_eq 'd["burst_fair"]' True
json_eq 'd["burst_single_last_place"] < d["burst_flood_last_place"]' True
json_eq 'd["solo_decisions"]' 4
json_eq 'd["club_decisions"] > 0' True
json_eq 'd["burst_shortened"] > 0' True
json_eq 'd["daemon_busy_log_lines"] > 0' True
json_eq 'd["workers"]' 1

finish "bench_club.sh: $fails failed" "bench_club.sh: all checks passed"

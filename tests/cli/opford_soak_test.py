"""tests/cli/opford_soak_test.py BIN_DIR WORK [GAMES DECISIONS BOUND_MIB] -- the daemon soak
(issue 16): a real opford plays GAMES Patrol Mode games one after another, each closed after
its share of DECISIONS AI decisions (ai.orders at level novice, fixed seeds), and its resident
memory (VmRSS in /proc/PID/status) may grow by at most BOUND_MIB between the end of the fifth
game and the end of the run: games leave memory when closed, so the daemon stays flat however
many it has served. Prints one figures line for docs/BENCHMARKS.md. `make soak` runs the full
size (200 games, 10,000 decisions, 16 MiB); ctest a short one (tests/cli/opford_soak.sh).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from opford_lib import Checks, Client, Daemon, player_steps, rss_kib  # noqa: E402

# Under AddressSanitizer freed memory sits in a quarantine (256 MiB by default), which would
# fake growth here; keep it small for the daemon started here.
if "ASAN_OPTIONS" in os.environ:
    os.environ["ASAN_OPTIONS"] += ":quarantine_size_mb=1"
else:
    os.environ["ASAN_OPTIONS"] = "quarantine_size_mb=1"

BIN, WORK = sys.argv[1], sys.argv[2]
GAMES = int(sys.argv[3]) if len(sys.argv) > 3 else 10
DECISIONS = int(sys.argv[4]) if len(sys.argv) > 4 else 150
BOUND_MIB = float(sys.argv[5]) if len(sys.argv) > 5 else 5.0
WARM = 5  # games played before the reference figure

t = Checks(detail_max=2000)



def play(c, game, want):
    """Plays game like a table until `want` AI decisions were given or it ends; returns
    (decisions, error or None)."""
    orders = 0
    for _ in range(want * 8 + 40):
        if orders >= want:
            break
        err, st = c.call("game.state", {"game": game})
        if err or st["status"] != "active":
            return orders, err
        if st["pending"] == "none":
            err, _ = c.call("viktoria.initiative", {"game": game})
        elif st["pending"] == "player":
            err, _ = player_steps(c, game, st)
        else:
            err, order = c.call("ai.orders", {"game": game})
            if err:
                return orders, err
            orders += 1
            err, _ = c.call("report", {"game": game, "resolve": True})
            if err and err[0] == 4:  # ILLEGAL: the order needs no resolving
                err = None
        if err:
            return orders, err
    return orders, None


d = Daemon(os.path.join(BIN, "opford"), WORK, "soak", ["--workers", "1"])
t.check("soak_daemon_ready", d.ready, d.logtext()[-2000:])
if not d.ready:
    t.finish("opford_soak: ")
c = Client(d.sock, timeout=60)
c.rpc("hello", {"client": "soak"})
start = time.time()
decisions, games, errors, rss_warm = 0, 0, [], None
k = 0
# GAMES games, and more (at most as many again) while the decisions fall short: a game that
# ends early leaves its share to the next ones, and the last one's to extra games
while (k < GAMES or decisions < DECISIONS) and k < 2 * GAMES:
    gid = f"soak{k}"
    err, _ = c.call("game.new", {"seed": 1000 + k, "id": gid, "level": "novice"})
    if err:
        errors.append((gid, "new", err))
        break
    left = max(1, GAMES - k)
    want = max(0, (DECISIONS - decisions + left - 1) // left)
    n, err = play(c, gid, want)
    decisions += n
    if err:
        errors.append((gid, "play", err))
    err, _ = c.call("game.close", {"game": gid})
    if err:
        errors.append((gid, "close", err))
    games += 1
    k += 1
    if games == WARM:
        rss_warm = rss_kib(d.proc.pid)
secs = time.time() - start
rss_end = rss_kib(d.proc.pid)
c.close()
t.check("soak_no_errors", not errors, repr(errors[:5]))
t.check("soak_decisions", decisions >= DECISIONS, f"{decisions} of {DECISIONS}")
grow = (rss_end - (rss_warm or 0)) / 1024.0
print(f"opford soak: {games} games, {decisions} AI decisions (novice), {secs:.1f} s; "
      f"RSS {rss_warm / 1024.0:.1f} MiB after {WARM} games, {rss_end / 1024.0:.1f} MiB at the "
      f"end ({grow:+.1f} MiB; bound {BOUND_MIB:g} MiB)")
t.check("soak_rss_flat", rss_warm is not None and grow <= BOUND_MIB,
        f"grew {grow:.1f} MiB after game {WARM}")
rc = d.stop()
t.check("soak_daemon_exit_0", rc == 0, repr(rc))
t.finish("opford_soak: ")

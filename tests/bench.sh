#!/bin/sh
# make bench: the benchmarks (never part of make check).
#
#  1. Every engine in the games table, in process: actions per second of
#     random legal play, legal-list generation included (bench_engine).
#     Target: at least 1,000,000 for every game.
#  2. The referee: a horserace match of 5 C random bots (bin/random), with
#     its log, reporting decisions per second, the referee's round trip
#     (wall time per decision, the bots' work included) and its own CPU
#     time per decision, each divided by a raw pipe round trip measured in
#     the same run (bench_pipe: one short line each way between two
#     processes).  Target: a round trip at most 1.5 x the raw one.  The
#     raw round trip swings with the machine (2 us with busy cores, 45 us
#     idle, as cores sleep), so compare the ratios of one run only.
#
# Environment: B (build dir), BENCH_GAMES (horserace games, default 300),
# BENCH_SECONDS (per engine, default 1).
set -eu
cd "$(dirname "$0")/.."
B=${B:-build/std}
GAMES=${BENCH_GAMES:-300}
SECS=${BENCH_SECONDS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "== engines: random legal play in process (target: 1,000,000 actions/s)"
"$B/tests/bench_engine" -t "$SECS" | tee "$tmp/engines"

bots=""
for i in 1 2 3 4 5; do
	bots="$bots -b 'bin/random --seed $i'"
done
echo "== referee: horserace, 5 C random bots, $GAMES games"
"$B/tests/bench_pipe" -n 200000 > "$tmp/pipe1"
eval bin/referee -g horserace -s 1 --games "$GAMES" -q --stats \
    --log "$tmp/match.log" "$bots" 2> "$tmp/stats"
eval bin/referee -g horserace -s 1 --games "$GAMES" -q --stats \
    "$bots" 2> "$tmp/stats-nolog"
"$B/tests/bench_pipe" -n 200000 > "$tmp/pipe2"
size=$(grep '"type":"request"' "$tmp/match.log" | head -n 200 |
    awk '{ n += length($0) } END { printf "%d", n / NR }')
"$B/tests/bench_pipe" -n 100000 -s "$size" > "$tmp/pipe3"
python3 - "$tmp" "$size" <<'PY'
import json, sys
d, size = sys.argv[1], int(sys.argv[2])
def load(name):
    return json.loads(open(d + "/" + name).read().strip().splitlines()[-1])
rtt = min(load("pipe1")["pipe_rtt_us"], load("pipe2")["pipe_rtt_us"])
rtt_big = load("pipe3")["pipe_rtt_us"]
for label, name in (("with its log", "stats"), ("without a log", "stats-nolog")):
    s = load(name)
    per = s["cpu_us_per_decision"]
    print("referee %-14s %8.0f decisions/s, wall %6.1f us/decision, "
          "referee CPU %5.1f us/decision" % (label,
          s["decisions"] / (s["wall_us"] / 1e6), s["wall_us_per_decision"], per))
    print("    referee round trip (wall per decision, bots included) / raw pipe "
          "round trip (%.2f us, 64 B): %.1f x (target 1.5 x)"
          % (rtt, s["wall_us_per_decision"] / rtt))
    print("    referee CPU per decision / raw pipe round trip (%.2f us, 64 B): "
          "%.1f x" % (rtt, per / rtt))
    print("    referee CPU per decision / pipe round trip of a request-sized "
          "line (%.2f us, %d B): %.1f x" % (rtt_big, size, per / rtt_big))
slow = [json.loads(l) for l in open(d + "/engines")]
slow = [e["game"] for e in slow if e["actions_per_s"] < 1e6]
print("engines under 1,000,000 actions/s:", ", ".join(slow) if slow else "none")
PY

#  3. The tournament schedule: tables per second of `tournament schedule`
#     for a balanced schedule of 1,000, 100,000 and 1,000,000 tables (the
#     documented maximum) of the horserace example's 5 bots at 4 seats and
#     of 30 bots at 6 seats, and every subset of 30 bots at 6 seats
#     (593,775 tables, max_tables 1000000).  Target: seconds for a million.
echo "== tournament schedule: tables per second"
python3 - "$tmp" <<'PY'
import json, subprocess, sys, time
d = sys.argv[1]
ex = json.load(open("tournaments/examples/horserace.json"))
bots30 = [{"name": "b%d" % i, "command": "bin/random"} for i in range(30)]
cases = []
for tables in (1000, 100000, 1000000):
    cases.append(("5 bots, 4 seats, balanced", dict(ex, schedule="balanced",
        tables=tables, duplicate=False)))
for tables in (1000, 100000, 1000000):
    cases.append(("30 bots, 6 seats, balanced", {"game": "horserace",
        "seats": 6, "bots": bots30, "tables": tables, "duplicate": False}))
cases.append(("30 bots, 6 seats, every subset", {"game": "horserace",
    "seats": 6, "bots": bots30, "max_tables": 1000000, "duplicate": False}))
for label, doc in cases:
    path = d + "/sched.json"
    json.dump(doc, open(path, "w"))
    t0 = time.perf_counter()
    out = subprocess.run(["bin/tournament", "schedule", path], check=True,
        capture_output=True, text=True).stdout.splitlines()
    el = time.perf_counter() - t0
    n = int(out[0].split(": ")[2].split()[0])
    print("%-32s %8d tables %7.2f s %10.0f tables/s   %s" % (label, n, el,
        n / el, out[1]))
PY

#  4. Tournaments across machines (tests/bench_dist.sh): games per second
#     through GNU parallel against tournament run, and merge's memory.
sh tests/bench_dist.sh

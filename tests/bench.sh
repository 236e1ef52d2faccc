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

# the cost of the containment (limits, own uids, --sandbox): SECURITY.md
B=$B BENCH_GAMES=$GAMES sh tests/bench_security.sh

#!/bin/sh
# Benchmarks of tournaments across machines (run by make bench, never by
# make check):
#
#  1. The overhead of the job route: games per second of a 10,000-game
#     horserace tournament of 5 C random bots at 4 seats (5 tables of 2,000
#     games, no match logs), played by `tournament run -j 2` and by
#     `tournament plan --chunk C | parallel --pipe -N1 -j 2 tournament job`
#     then `tournament merge`, in one run (C = 1,000 and 100 games: 10 and
#     100 jobs).  Both must give the same games.
#  2. `tournament merge` and `tournament rate` of 100,000 and 1,000,000
#     made-up games spread over 100 job journals (tests/mkjobs.py: lines
#     as a job writes them): wall and CPU seconds, the CPU against Python's
#     json.loads of the same lines (the parser's limit), and the maximum
#     resident set (flat means about the same for both sizes).
#
# Environment: B (build dir), BENCH_DIST_GAMES (games of part 1, a multiple
# of 40; default 10000), BENCH_MERGE_LINES (the larger of part 2, a multiple
# of 20,000; default 1000000).
set -eu
cd "$(dirname "$0")/.."
GAMES=${BENCH_DIST_GAMES:-10000}
LINES=${BENCH_MERGE_LINES:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
command -v parallel >/dev/null 2>&1 ||
    { echo "bench_dist: GNU parallel is not installed (apt-get install parallel)" >&2; exit 1; }

# Seconds since the epoch, with fractions.
now() { date +%s.%N; }

mkfile() {	# mkfile FILE OUTPUT DEALS
	cat >"$1" <<EOF
{"name": "bench", "game": "horserace", "seats": 4, "deals": $3,
 "bots": [{"name": "r1", "command": "bin/random --seed 1"},
  {"name": "r2", "command": "bin/random --seed 2"},
  {"name": "r3", "command": "bin/random --seed 3"},
  {"name": "r4", "command": "bin/random --seed 4"},
  {"name": "r5", "command": "bin/random --seed 5"}],
 "logs": false, "output": "$2", "seed": 5}
EOF
}

games() {	# the games of a journal, canonical and sorted
	python3 tests/journal_games.py "$1"
}

deals=$((GAMES / 20))
echo "== tournaments across machines: $GAMES horserace games, 5 C random bots, 2 at a time"
mkfile "$tmp/t.json" "$tmp/local" "$deals"
t0=$(now)
bin/tournament run -q -j 2 "$tmp/t.json"
t1=$(now)
games "$tmp/local/journal.jsonl" >"$tmp/g.local"
echo "$t0 $t1 $GAMES" | awk '{ printf "tournament run -j 2:                       %7.1f s %8.1f games/s\n", $2 - $1, $3 / ($2 - $1) }'
for chunk in 1000 100; do
	t0=$(now)
	bin/tournament plan "$tmp/t.json" --chunk "$chunk" 2>/dev/null |
	    tee "$tmp/plan$chunk" |
	    parallel --pipe -N1 -j 2 bin/tournament job --out "$tmp/jobs$chunk"
	t1=$(now)
	jobs=$(wc -l <"$tmp/plan$chunk")
	bin/tournament merge -q "$tmp/merged$chunk" "$tmp/jobs$chunk" 2>/dev/null
	t2=$(now)
	games "$tmp/merged$chunk/journal.jsonl" >"$tmp/g.merged"
	cmp -s "$tmp/g.local" "$tmp/g.merged" ||
	    { echo "bench_dist: the jobs' games differ from the local run's" >&2; exit 1; }
	echo "$t0 $t1 $t2 $GAMES $chunk $jobs" | awk '{ printf "parallel -j 2, --chunk %-5d (%3d jobs):     %7.1f s %8.1f games/s (merge %.1f s more)\n", $5, $6, $2 - $1, $4 / ($2 - $1), $3 - $2 }'
done

echo "== tournament merge and rate: made-up games in 100 job journals (tests/mkjobs.py)"
# cpu FILE: the user + system seconds /usr/bin/time wrote to FILE
cpu() { awk '{ print $3 + $4 }' "$1"; }
for n in $((LINES / 10)) "$LINES"; do
	rm -rf "$tmp/m" "$tmp/mout"
	mkfile "$tmp/m.json" "$tmp/mout" $((n / 20))
	bin/tournament plan "$tmp/m.json" --chunk $((n / 100)) >"$tmp/m.plan" 2>/dev/null
	python3 tests/mkjobs.py "$tmp/m.plan" "$tmp/m"
	/usr/bin/time -f "%M %e %U %S" -o "$tmp/time" \
	    bin/tournament merge -q "$tmp/mout" "$tmp/m" 2>"$tmp/merge.err" ||
	    { cat "$tmp/merge.err" >&2; exit 1; }
	/usr/bin/time -f "%M %e %U %S" -o "$tmp/rtime" \
	    bin/tournament rate "$tmp/mout/journal.jsonl" >/dev/null 2>"$tmp/rate.err" ||
	    { cat "$tmp/rate.err" >&2; exit 1; }
	# the parser's limit: Python's json.loads of the same lines
	/usr/bin/time -f "%M %e %U %S" -o "$tmp/ptime" python3 -c '
import json, sys
for p in sys.argv[1:]:
    for line in open(p, "rb"):
        json.loads(line)' "$tmp"/m/job-*.jsonl
	got=$(grep -c '"table"' "$tmp/mout/journal.jsonl")
	py=$(cpu "$tmp/ptime")
	for what in merge rate; do
		f=$tmp/time
		[ "$what" = rate ] && f=$tmp/rtime
		read -r kb secs _ <"$f"
		printf '%-5s of %7d games: %5.1f s wall %5.1f s CPU (%.2fx json.loads %.1f s), %5.1f MB resident at most (%d lines out)\n' \
		    "$what" "$n" "$secs" "$(cpu "$f")" \
		    "$(echo "$(cpu "$f") $py" | awk '{ print $1 / $2 }')" "$py" \
		    "$(echo "$kb" | awk '{ print $1 / 1024 }')" "$got"
	done
done

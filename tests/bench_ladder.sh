#!/bin/sh
# make bench: the ladder's games per second against tournament run's on the
# same bots and settings (the game's defaults, the same -j; each sizing its
# referee runs by their pace): short games (horserace, 5 random bots at its
# 5 seats, -j 1, BENCH_LADDER_GAMES games, 200: the issue's size, where a
# ladder's fixed costs show; with --games and as many bots as seats a slot
# takes its share at once, as tournament run's), the same with 8 bots at 5
# seats (tables of different bots: the first table times the pace, each
# table pays its bots' start; 2000 games) and daifugo's C bots (-j 2, 200
# games; the search bot at 5 ms a move: at its default 100 ms the row takes
# an hour and prices the bots' thinking, not the host).  The runs
# alternate, ladder then tournament, BENCH_REPS times (3); the row is the
# median of the ratios (ladder / tournament), as the machine may be
# shared.  Then the ladder host's cost at each size of BENCH_LADDER_SYNTH
# (BOTS:GAMES ..., default 300:30000; 1000:1000000 is the size of issue
# 38's goal, some 20 minutes on a busy machine; 10000:1000000 its most
# bots, BENCH_LADDER_BOOT=20 replicates keeping it to some 20 minutes):
# `ladder synth` fills a nyse ladder, `ladder site -v` fits it cold then
# warm, with the bootstrap and without (a running ladder's refit between
# two bootstraps); the row is its peak memory, the store's size and the
# warm refit's CPU over the cold fit's; then `ladder synth --append` adds
# 2,000 games to the store, each committed in its own transaction as the
# run commits it, the ingest's CPU a game.  Then the
# ladder's tables as jobs (ladder run --spool, GNU parallel -j 2 as two
# workers) against ladder run -j 2 on the same 8 random bots at 5 seats
# (BENCH_SPOOL_GAMES games, 1000): the ratio of games per second and the
# host's CPU per game ingested.  Environment: BIN (bin: the programs
# priced), BENCH_REPS, BENCH_ONLY=spool (that row alone),
# BENCH_ONLY=host (the host's rows alone), BENCH_LADDER_BOOT (the
# ladder's bootstrap replicates; 200, its default, unless given).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
BIN=${BIN:-$top/bin}
games=${BENCH_LADDER_GAMES:-200}
synth=${BENCH_LADDER_SYNTH:-300:30000}
boot=${BENCH_LADDER_BOOT:-200}
reps=${BENCH_REPS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_ladder.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

now() { python3 -c 'import time; print(time.monotonic())'; }

# A new ladder $tmp/lad of GAME with the bots BOT... (programs of $BIN).
make_ladder() {	# GAME BOT...
	g=$1; shift
	rm -rf "$tmp/lad"
	"$BIN/tournament" ladder init "$tmp/lad" -g "$g" >/dev/null
	i=0
	for b in "$@"; do
		i=$((i + 1))
		"$BIN/tournament" ladder add "$tmp/lad" "b$i" -c "$BIN/$b" >/dev/null
	done
}

# One ladder: games per second of `ladder run --games $games`.
ladder_rate() {	# GAME JOBS BOT...
	g=$1 j=$2; shift 2
	make_ladder "$g" "$@"
	t0=$(now)
	"$BIN/tournament" ladder run -q -j "$j" --games "$games" "$tmp/lad"
	t1=$(now)
	n=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM games").fetchone()[0])' "$tmp/lad/ladder.db")
	python3 -c "print($n / ($t1 - $t0))"
}

# The same bots and settings through `tournament run` at its best: a
# table of every 5 of the bots, enough deals for $games games, played in chunks
# sized by their pace (deals_per_run auto), as the ladder sizes its tables.
tour_rate() {	# GAME JOBS BOT...
	g=$1 j=$2; shift 2
	rm -rf "$tmp/out"
	python3 - "$tmp/t.json" "$g" "$games" "$tmp/out" "$BIN" "$@" <<'PY'
import json, sys
path, game, games, out, bin_, bots = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6:]
# duplicate, a table of every 5 of the bots (both games seat 5 by
# default): deals x 5 games a table, a deal of every table per round
from math import comb
per = comb(len(bots), 5) * 5
json.dump({"game": game, "deals": -(-games // per),
    "output": out, "bots": [{"name": "b%d" % (i + 1), "command": bin_ + "/" + b}
    for i, b in enumerate(bots)]}, open(path, "w"))
PY
	t0=$(now)
	"$BIN/tournament" run -q -j "$j" "$tmp/t.json"
	t1=$(now)
	n=$(($(wc -l < "$tmp/out/journal.jsonl") - 1))
	python3 -c "print($n / ($t1 - $t0))"
}

row() {	# LABEL GAME JOBS BOT...
	label=$1; shift
	r=""
	k=0
	while [ "$k" -lt "$reps" ]; do
		k=$((k + 1))
		l=$(ladder_rate "$@")
		t=$(tour_rate "$@")
		r="$r $(python3 -c "print($l / $t)")"
		printf '  %s round %d: ladder %.1f games/s, tournament %.1f games/s\n' \
		    "$label" "$k" "$l" "$t"
	done
	python3 -c 'import statistics, sys
r = sorted(float(x) for x in sys.argv[2:])
print("%-44s %5.2fx (median of %d; %s)" % ("ladder/tournament games/s, " + sys.argv[1] + ":", statistics.median(r), len(r), " ".join("%.2f" % x for x in r)))' "$label" $r
}

only=${BENCH_ONLY:-}
if [ -z "$only" ]; then
row "horserace 5 random -j 1, $games games" horserace 1 random random random random random
games0=$games
games=2000
row "horserace 8 random at 5 seats -j 1, $games games" horserace 1 random random random random random random random random
games=$games0
row "daifugo C bots -j 2" daifugo 2 daifugo_bot "daifugo_mcts --ms 5" daifugo_bot "daifugo_mcts --ms 5" random
fi

# One ladder through its spool: games per second of `ladder run --spool
# --workers $2 --games $games` with GNU parallel -j $2 as the engine (the
# README's line), and the ladder host's own CPU per game ingested (its
# process alone, from /proc: the workers are its descendants) in
# $tmp/host_cpu.
spool_rate() {	# GAME WORKERS BOT...
	g=$1 j=$2; shift 2
	make_ladder "$g" "$@"
	t0=$(now)
	"$BIN/tournament" ladder run -q --spool "$tmp/lad/spool" --workers "$j" \
	    --games "$games" --submit "parallel -j \"\$JOBS\" $BIN/tournament job --from \"\$PLAN\" --index {} --out \"\$OUT\" ::: \$(seq 0 \$((JOBS - 1)))" \
	    "$tmp/lad" &
	pid=$!
	ticks=0
	while t=$(cut -d' ' -f14,15 "/proc/$pid/stat" 2>/dev/null); do
		ticks=$(( ${t% *} + ${t#* } ))
		sleep 0.1
	done
	wait "$pid"
	t1=$(now)
	n=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM games").fetchone()[0])' "$tmp/lad/ladder.db")
	python3 -c "print($ticks / $(getconf CLK_TCK) / $n * 1000)" > "$tmp/host_cpu"
	python3 -c "print($n / ($t1 - $t0))"
}

# Rows of the spool: its games per second over ladder run -j's.
spool_row() {	# LABEL GAME JOBS BOT...
	label=$1; shift
	r="" c=""
	k=0
	while [ "$k" -lt "$reps" ]; do
		k=$((k + 1))
		l=$(ladder_rate "$@")
		s=$(spool_rate "$@")
		r="$r $(python3 -c "print($s / $l)")"
		c="$c $(cat "$tmp/host_cpu")"
		printf '  %s round %d: spool %.1f games/s (host %.2f ms CPU a game), ladder run %.1f games/s\n' \
		    "$label" "$k" "$s" "$(cat "$tmp/host_cpu")" "$l"
	done
	python3 -c 'import statistics, sys
n = (len(sys.argv) - 2) // 2
r = sorted(float(x) for x in sys.argv[2:2 + n])
c = sorted(float(x) for x in sys.argv[2 + n:])
print("%-44s %5.2fx (median of %d; %s); host %.2f ms CPU a game" % ("spool/ladder run games/s, " + sys.argv[1] + ":", statistics.median(r), n, " ".join("%.2f" % x for x in r), statistics.median(c)))' "$label" $r $c
}

games0=$games
games=${BENCH_SPOOL_GAMES:-1000}
[ "$only" = host ] ||
    spool_row "horserace 8 random at 5 seats, 2 workers, $games games" horserace 2 random random random random random random random random
games=$games0

# The ladder host at BOTS:GAMES of synthetic nyse games.
host_row() {	# BOTS:GAMES
	nb=${1%%:*} ng=${1#*:}
	rm -rf "$tmp/syn"
	"$BIN/tournament" ladder init --boot "$boot" "$tmp/syn" -g nyse >/dev/null
	"$BIN/tournament" ladder synth "$tmp/syn" --bots "$nb" --games "$ng" >/dev/null
	/usr/bin/time -f 'peak %M' -o "$tmp/time" \
	    "$BIN/tournament" ladder site -v "$tmp/syn" 2>"$tmp/site"
	"$BIN/tournament" ladder synth "$tmp/syn" --append --games 2000 >"$tmp/app"
	python3 - "$tmp/site" "$tmp/time" "$nb" "$ng" "$tmp/app" "$(du -sk "$tmp/syn/ladder.db" | cut -f1)" "$boot" <<'PY'
import re, sys
site, peak = open(sys.argv[1]).read(), open(sys.argv[2]).read()
rd = float(re.search(r"read in ([0-9.]+) s", site).group(1))
cold = float(re.search(r"fitted \(\d+ bootstrap replicates\) in ([0-9.]+) s", site).group(1))
warm = float(re.search(r"refitted warm in ([0-9.]+) s", site).group(1))
point = float(re.search(r"without the bootstrap in ([0-9.]+) s", site).group(1))
wrote = float(re.search(r"the site written in ([0-9.]+) s", site).group(1))
mb = int(re.search(r"peak (\d+)", peak).group(1)) / 1024
app = float(re.search(r"appended in ([0-9.]+) s", open(sys.argv[5]).read()).group(1))
label = "ladder site, %s bots %s games:" % (sys.argv[3], sys.argv[4])
print("%-44s %5.3fx warm/cold fit (peak %.0f MB, store %.0f MB; read %.2f s, cold %.2f s with %s replicates, warm %.2f s, without the bootstrap %.2f s, site written %.2f s CPU)" % (
    label, warm / cold, mb, int(sys.argv[6]) / 1024, rd, cold, sys.argv[7], warm, point, wrote))
print("%-44s %5.0f us CPU a game ingested (2,000 games appended, %.0f a second a core; + its read, %.0f us, at the refit)" % (
    "ladder ingest, %s bots %s games:" % (sys.argv[3], sys.argv[4]), app / 2000 * 1e6, 2000 / app, rd / int(sys.argv[4]) * 1e6))
PY
}

if [ "$only" != spool ]; then
	for size in $synth; do
		host_row "$size"
	done
fi

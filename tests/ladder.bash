# Helpers of the ladder's tests (tests/ladder.bats, tests/ladder_hostile.bats),
# loaded after helpers.bash with `load ladder`: each test runs from the top
# of the tree in a directory of its own, $T, its ladder $L, its settings
# $T/settings.json (horserace at 3 seats, one duplicate deal a table:
# deals_per_run 1, tables of a fixed size; the
# limits of $TOUR_LIMITS); a ladder run ($bg) or server ($srv) left by a
# failed test is stopped.

setup() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ladder.XXXXXX")
	chmod 755 "$T"
	L=$T/lad
	printf '{"game": "horserace", "seats": 3, "deals_per_run": 1, "duplicate": true, %s}\n' \
	    "$TOUR_LIMITS" > "$T/settings.json"
}

teardown() {
	show_failure
	[ -z "${bg:-}" ] || { kill -9 "$bg" 2>/dev/null; wait "$bg" 2>/dev/null || true; }
	[ -z "${srv:-}" ] || { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null || true; }
	rm -rf "$T"
}

# The store's answer to one SQL query.
q() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for r in c.execute(sys.argv[2]):
    print("|".join("" if x is None else str(x) for x in r))' "$L/ladder.db" "$1"
}

# A Python bot in a directory of its own: $1, named by its file.
pybot() {
	mkdir -p "$1"
	cp bots/python/random_bot.py bots/python/cardarena.py "$1/"
	chmod -R go+rX "$1"
}

# Starts ladder serve on a free port with "$@" (options); sets $srv, $port.
serve() {
	bin/tournament ladder serve "$L" --port 0 "$@" > "$T/serve.out" 2>&1 &
	srv=$!
	wait_for grep -q "^serving" "$T/serve.out"
	port=$(sed -n 's|.*127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$T/serve.out")
}

# Does every table holding a game of the store have its replay, and no
# bot page say one is missing?  (A log without one holds no game the
# store counts: its table was stopped, or abandoned, in its first game.)
replays_jobs_complete() {
	local f
	for f in $(q "SELECT DISTINCT t.log FROM tables t JOIN games g ON \
	    g.tab = t.id WHERE t.log IS NOT NULL"); do
		[ -s "$L/$f.html" ] || { echo "no replay: $f"; return 1; }
	done
	for f in "$L"/logs/t*.jsonl; do
		[ -e "$f.html" ] && continue
		[ "$(q "SELECT count(*) FROM games g JOIN tables t ON \
		    t.id = g.tab WHERE t.log = 'logs/${f##*/}'")" = 0 ] ||
		    { echo "no replay: $f"; return 1; }
	done
	! grep -q "no replay\|being made" "$L"/site/bots/*.html
}

# Exports the ladder $L to the file $2 and checks ladder status is
# tournament rate --boot $1 of it, byte for byte, in every format (the
# status texts left in $T/status.FORMAT).
status_is_rate() {
	local boot=$1 export=$2 f
	bin/tournament ladder export "$L" -o "$export"
	for f in text csv json md html; do
		bin/tournament ladder status -f $f "$L" > "$T/status.$f"
		bin/tournament rate --boot "$boot" -f $f -t lad "$export" > "$T/rate.$f"
		cmp "$T/status.$f" "$T/rate.$f"
	done
}

# four_bots: a ladder $L of four C random bots (horserace, 3 seats, tables
# of 4 duplicate deals: 12 games), each starting 0.2 s late, so that a
# job's games come in three bursts (a referee run per seat rotation) and
# a test can catch one between two.
four_bots() {
	local i
	printf '{"game": "horserace", "seats": 3, "deals_per_run": 4, "duplicate": true, %s}\n' \
	    "$TOUR_LIMITS" > "$T/settings.json"
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json" >/dev/null
	for i in 1 2 3 4; do
		bin/tournament ladder add "$L" "r$i" \
		    -c "sh -c 'sleep 0.2; exec $PWD/bin/random --seed $i'" >/dev/null
	done
}

# jobs_complete N: every table of the store not abandoned holds all its games, once each,
# and the store holds $1 games in all.
jobs_complete() {
	[ "$(q "SELECT count(*) FROM games")" -eq "$1" ]
	[ "$(q "SELECT count(*) FROM (SELECT DISTINCT tab, game FROM games)")" -eq "$1" ]
	[ "$(q "SELECT count(*) FROM tables t WHERE NOT abandoned AND hi != \
	    (SELECT count(*) FROM games g WHERE g.tab = t.id AND g.game < t.hi)")" -eq 0 ]
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL")" -eq 0 ]
}

# The number of game lines in a journal (0 when it is gone).
games_in() {
	local n
	n=$(grep -c '^{"table"' "$1" 2>/dev/null) || true
	echo "${n:-0}"
}

# Has process $1 ended?
gone() {
	! kill -0 "$1" 2>/dev/null
}

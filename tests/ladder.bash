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
replays_complete() {
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
		bin/tournament rate --boot "$boot" -f $f -t "${L##*/}" "$export" > "$T/rate.$f"
		cmp "$T/status.$f" "$T/rate.$f"
	done
}

# four_bots: a ladder $L of four C random bots (horserace, 3 seats, tables
# of 4 duplicate deals: 12 games), each run by a script in its directory
# that holds its messages after its twelfth request (some two games)
# while a file "gate" is there (gate on|off): with the gate on before a
# run, every job stands mid-job (hold_jobs) for as long as the test
# needs, without a timing guess.
four_bots() {
	local i
	printf '{"game": "horserace", "seats": 3, "deals_per_run": 4, "duplicate": true, %s}\n' \
	    "$TOUR_LIMITS" > "$T/settings.json"
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json" >/dev/null
	mkdir -p "$T/holdbot"
	cat > "$T/holdbot/hold.sh" <<'EOF'
n=0
while IFS= read -r l; do
	case $l in *request*) n=$((n + 1)) ;; esac
	while [ "$n" -gt 12 ] && [ -e gate ]; do sleep 0.05; done
	printf '%s\n' "$l"
done | exec "$1" --seed "$2"
EOF
	chmod -R go+rX "$T/holdbot"
	for i in 1 2 3 4; do
		bin/tournament ladder add "$L" "r$i" --dir "$T/holdbot" \
		    -c "sh hold.sh $PWD/bin/random $i" >/dev/null
	done
}

# gate on|off: holds four_bots' bots (after their twelfth request) or lets
# them play.
gate() {
	local i
	for i in 1 2 3 4; do
		if [ "$1" = on ]; then
			touch "$L/bots/r$i/v1/gate"
		else
			rm -f "$L/bots/r$i/v1/gate"
		fi
	done
}

# hold_jobs: with the gate on before the run, waits until a job of the
# ladder's spool has a game in and the journals stand still: the jobs
# out stand mid-job, those with a game in listed in $held.
hold_jobs() {
	local f before after
	wait_for sh -c "grep -qs '^{\"table\"' $L/spool/out/b*/job-*.jsonl"
	after=$(cat "$L"/spool/out/b*/job-*.jsonl | wc -l)
	until [ "$before" = "$after" ]; do
		before=$after
		sleep 1
		after=$(cat "$L"/spool/out/b*/job-*.jsonl | wc -l)
	done
	held=""
	for f in "$L"/spool/out/b*/job-*.jsonl; do
		midjob "$f" && held="$held $f"
	done
	held=${held# }
	[ -n "$held" ]
}

# jobs_complete N: every table of the store not abandoned holds all its
# games, once each, every table has ended, and the store holds N games,
# none with a bot that crashed (workers that cannot start the bots would
# play every game out as crashes, all the same).
jobs_complete() {
	! q "SELECT line FROM games" | grep '"crash":[1-9]' || false
	[ "$(q "SELECT count(*) FROM games")" -eq "$1" ]
	[ "$(q "SELECT count(*) FROM (SELECT DISTINCT tab, game FROM games)")" -eq "$1" ]
	[ "$(q "SELECT count(*) FROM tables t WHERE NOT abandoned AND hi != \
	    (SELECT count(*) FROM games g WHERE g.tab = t.id AND g.game < t.hi)")" -eq 0 ]
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL")" -eq 0 ]
}

# Has process $1 ended?
gone() {
	! kill -0 "$1" 2>/dev/null
}

# The pid of the `tournament job` process that holds journal $1 open
# (nothing when none does).
holder() {
	local p
	for p in $(pgrep -f "bin/tournament job --from $T/"); do
		ls -l "/proc/$p/fd" 2>/dev/null | grep -q -- "$1" && { echo "$p"; return; }
	done
	return 0
}

# midjob JOURNAL [any]: is the journal a job's begun and not ended: some
# of its games in (with any, maybe none yet), not all (its plan line, in
# its header, says how many)?
midjob() {
	local n
	[ -s "$1" ] || return 1
	set -- "$1" "${2:-some}" $(head -n 1 "$1" |
	    sed -n 's/.*"games":\[\([0-9]*\),\([0-9]*\)\].*/\1 \2/p')
	[ $# -eq 4 ] || return 1
	n=$(grep -c '^{"table"' "$1") || true
	[ "${n:-0}" -lt $(($4 - $3)) ] && { [ "$2" = any ] || [ "${n:-0}" -ge 1 ]; }
}

# strangers_ladder: a ladder $L, run from $T (the working directory a bot
# without a directory of its own is shown, as the README's lines run it
# from the directory that holds the ladder's), of three victims (a
# directory each, its secret.txt; the third's first version replaced by a
# second), a fourth retired and the snoop: a bot without a directory that
# tries to read the victims' copies, the old and the retired ones', the
# store and the spool's plan (the seeds) and says on
# its stderr what it read ("snoop: read PATH") and what not; snooped
# lists what it read in every log of the ladder and its spool.
strangers_ladder() {
	local i
	bin/tournament ladder init --boot 20 "$L" "$T/settings.json" >/dev/null
	for i in 1 2 3 4; do
		mkdir -p "$T/vic$i"
		echo "the model of vic$i" > "$T/vic$i/secret.txt"
		echo 'exec "$1" --seed "$2"' > "$T/vic$i/bot.sh"
		chmod -R go+rX "$T/vic$i"
		bin/tournament ladder add "$L" "vic$i" --dir "$T/vic$i" -c "sh bot.sh $PWD/bin/random $i" >/dev/null
	done
	bin/tournament ladder retire "$L" vic4 >/dev/null
	# vic3's first version, in play no more, beside its second
	bin/tournament ladder update "$L" vic3 --dir "$T/vic3" -c "sh bot.sh $PWD/bin/random 3" >/dev/null
	mkdir -p "$T/snoopdir"
	cat > "$T/snoopdir/snoop.sh" <<EOF
for f in $L/bots/vic1/v1/secret.txt $L/bots/vic2/v1/secret.txt \\
    $L/bots/vic3/v1/secret.txt $L/bots/vic3/v2/secret.txt \\
    $L/bots/vic4/v1/secret.txt \\
    $L/ladder.db $L/spool/batch-000001.jsonl; do
	if head -c 1 "\$f" >/dev/null 2>&1; then
		echo "snoop: read \$f" >&2
	else
		echo "snoop: denied \$f" >&2
	fi
done
exec "\$1" --seed 9
EOF
	chmod -R go+rX "$T/snoopdir"
	bin/tournament ladder add "$L" snoop -c "sh $T/snoopdir/snoop.sh $PWD/bin/random" >/dev/null
}

# The reports of strangers_ladder's snoop: "snoop: read|denied PATH", one
# a line, in $T/seen (at least one of each path was asked of it).
snooped() {
	find "$L" -name '*.stderr' -exec cat {} + | grep '^snoop: ' > "$T/seen" || true
	sort "$T/seen" | uniq -c
	[ "$(grep -c "^snoop: denied $L/ladder.db\$\|^snoop: read $L/ladder.db\$" "$T/seen")" -ge 1 ]
}

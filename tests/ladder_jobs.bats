#!/usr/bin/env bats
# The ladder's tables as jobs (tournament ladder run --spool,
# tournaments/ladder/ladder_jobs.c) with GNU parallel as the engine on this
# machine (-j 2 standing for two workers): a worker SIGKILLed mid-job and a
# journal deleted, then no game lost nor doubled and the ladder's table
# tournament rate's of its export byte for byte; the refusals (a journal
# no job of the ladder writes, one whose plan line is another job's, a
# job line of another build); kill -9 of the ladder host between
# submitting and ingesting, then a restart: nothing lost nor doubled; a
# bot retired while its tables are out; bad inputs; the tables a killed
# host left out counted in play and judged after a restart; a submit
# command that fails; the workers' logs copied into the ladder's logs
# (linked by the site with their replays, served), but not a link nor a
# file past the bound; kill -9 of the host while a whole table's logs
# settle, then a restart ends that table and copies its logs.  The same on a real Slurm is in tests/slurm.bats.

load helpers
load ladder

# The submit command of the README's line: the batch's lines on GNU
# parallel.
PAR='parallel -j "$JOBS" bin/tournament job --from "$PLAN" --index {} --out "$OUT" ::: $(seq 0 $((JOBS - 1)))'

@test "ladder --spool on GNU parallel -j 2: a worker SIGKILLed mid-job, a journal deleted; no game lost or doubled, the table is rate's" {
	four_bots
	# the README's line, on this ladder, stopped after 72 games
	readme_block "tests/ladder_jobs.bats runs this line" >"$T/cmds"
	[ "$(grep -c '^bin/tournament ladder run club --spool club/spool --workers 2' "$T/cmds")" -eq 1 ]
	grep -qF -- "--submit '$PAR'" "$T/cmds"
	sed -i "s|club|$L|g; s|--workers 2|& --games 72 --job-timeout 3|" "$T/cmds"
	gate on
	sh -e "$T/cmds" 2>"$T/run.err" &
	bg=$!
	# every job out stands mid-job: one worker SIGKILLed, another's
	# journal deleted, then play goes on
	hold_jobs
	killed=${held%% *}
	pid=$(holder "$killed")
	[ -n "$pid" ]
	kill -9 "$pid"
	wait_for gone "$pid"
	deleted=""
	for f in "$L"/spool/out/b*/job-*.jsonl; do
		[ "$f" != "$killed" ] && midjob "$f" any && { deleted=$f; break; }
	done
	[ -n "$deleted" ]
	rm "$deleted"
	gate off
	wait "$bg"
	echo "killed $killed, deleted $deleted" >&3 || true
	[ -n "$killed" ]
	[ -n "$deleted" ]
	midjob "$killed"
	# the lost jobs were planned again, their games kept: after the
	# timeout, or at once when GNU parallel, its worker killed, exits
	# non-zero at its batch's end
	grep -q "stood still for 3s: its games missing are played again\|wrote no journal for 3s\|the submit command exited with status [1-9][0-9]* (1 failure in a row, 1 in all): its [12] jobs\? with games missing \(is\|are\) planned again now" "$T/run.err"
	[ "$(q "SELECT count(*) FROM jobs WHERE state = 'lost'")" -ge 1 ]
	[ "$(q "SELECT count(*) FROM jobs WHERE state = 'out'")" -eq 0 ]
	jobs_complete 72
	status_is_rate 20 "$L/export.jsonl"
	# the workers' logs were copied into the ladder's logs at their
	# tables' ends: the site links them and their replays as a local
	# table's, nothing in the spool (beside the plans: the seeds)
	[ "$(q "SELECT count(*) FROM games WHERE log NOT LIKE 'logs/t%.b%.t%.jsonl'")" -eq 0 ]
	for f in $(q "SELECT DISTINCT log FROM games"); do
		[ -f "$L/$f" ] && [ ! -L "$L/$f" ]
	done
	bin/tournament ladder site "$L" >/dev/null
	for f in $(q "SELECT DISTINCT log FROM games"); do
		[ -s "$L/$f.html" ]
	done
	grep -q 'href="../../logs/t[0-9]*\.b[0-9]*\.t[^"]*\.jsonl">log</a>' "$L/site/bots/r1.html"
	grep -q 'class="replay" href="../../logs/t[0-9]*\.b[0-9]*\.t[^"]*\.jsonl\.html#' "$L/site/bots/r1.html"
	! grep -q 'href="[^"]*spool' "$L"/site/bots/*.html || false
	! grep -q 'played by a worker\|its log is gone\|no replay' "$L"/site/bots/*.html || false
	# the spool and its plans are the ladder's alone (they hold the seeds)
	[ "$(stat -c %a "$L/spool")" = 700 ]
	[ "$(stat -c %a "$L/spool/batch-000001.jsonl")" = 600 ]
}

@test "ladder --spool refuses a journal no job of it writes and one whose plan line is another job's; a line of another build is refused" {
	four_bots
	# a journal of another tournament's table
	printf '{"name": "other", "game": "horserace", "seats": 3, "deals": 1, "duplicate": true, "bots": [{"name": "x", "command": "%s/bin/random"}, {"name": "y", "command": "%s/bin/random"}, {"name": "z", "command": "%s/bin/random"}]}\n' \
	    "$PWD" "$PWD" "$PWD" > "$T/other.json"
	bin/tournament plan "$T/other.json" 2>/dev/null | head -n 1 > "$T/other.plan"
	bin/tournament job --out "$T/other" < "$T/other.plan"
	cat > "$T/submit.sh" <<EOF
b=\$(basename "\$PLAN" .jsonl | sed "s/^batch-0*//"); from=0
# batch 1: a stranger beside its journals
[ "\$b" -ne 1 ] || cp "$T/other/job-000000.jsonl" "\$OUT/job-000099.jsonl"
if [ "\$b" -eq 2 ]; then
	# batch 2, line 0: batch 1's first journal in its place
	until [ -s "\${OUT%/*}/b000001/job-000000.jsonl" ]; do sleep 0.05; done
	cp "\${OUT%/*}/b000001/job-000000.jsonl" "\$OUT/job-000000.jsonl"
	from=1
fi
[ "\$from" -lt "\$JOBS" ] || exit 0
exec parallel -j "\$JOBS" bin/tournament job --from "\$PLAN" --index {} --out "\$OUT" ::: \$(seq \$from \$((JOBS - 1)))
EOF
	run bin/tournament ladder run "$L" --games 48 --spool "$T/sp" --workers 2 \
	    --job-timeout 2 --submit "sh $T/submit.sh"
	[ "$status" -eq 0 ]
	[ "$(grep -c "b000001/job-000099.jsonl: refused: no job of the ladder writes it" <<<"$output")" -eq 1 ]
	[ "$(grep -c "b000002/job-000000.jsonl: refused: its header's plan line is not the one of job" <<<"$output")" -eq 1 ]
	# the refused job was planned again: its games are in, none twice
	[ "$(q "SELECT state FROM jobs WHERE batch = 2 AND idx = 0")" = lost ]
	jobs_complete 48
	# nothing of the strangers went in
	[ "$(q "SELECT count(*) FROM games WHERE line LIKE '%\"x\"%'")" -eq 0 ]
	status_is_rate 20 "$L/export.jsonl"
	# a job line of another build (its fingerprint made again) is refused
	head -n 1 "$T/sp/batch-000001.jsonl" | python3 -c '
import json, sys
l = json.loads(sys.stdin.readline())
l.pop("fingerprint")
l["build"] = "0123456789abcdef"
h = 0xcbf29ce484222325
for b in json.dumps(l, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode():
    h = ((h ^ b) * 0x100000001b3) % 2 ** 64
l["fingerprint"] = "%016x" % h
print(json.dumps(l, separators=(",", ":")))' > "$T/edited"
	build=$(head -n 1 "$T/sp/batch-000001.jsonl" | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["build"])')
	run bin/tournament job --out "$T/edited.out" < "$T/edited"
	[ "$status" -eq 2 ]
	[ "$output" = "tournament: job 0: planned for build 0123456789abcdef of the referee, this one is build $build (install the ladder host's build on this worker)" ]
	[ ! -e "$T/edited.out/job-000000.jsonl" ]
}

@test "ladder --spool: kill -9 of the host between submitting and ingesting, restarted: nothing lost or doubled" {
	four_bots
	# no workers yet: the jobs are written and submitted, nothing played
	bin/tournament ladder run "$L" --games 48 --spool "$T/sp" --workers 2 \
	    --submit true 2>"$T/run1.err" &
	bg=$!
	wait_for test -s "$T/sp/batch-000001.jsonl"
	kill -9 "$bg"
	wait "$bg" || true
	bg=""
	# the store holds the jobs out, the plan is whole
	[ "$(q "SELECT count(*) FROM jobs WHERE state = 'out'")" -eq 2 ]
	[ "$(wc -l < "$T/sp/batch-000001.jsonl")" -eq 2 ]
	[ "$(q "SELECT count(*) FROM games")" -eq 0 ]
	# the workers play it while the host is down
	OUT=$T/sp/out/b000001 PLAN=$T/sp/batch-000001.jsonl JOBS=2 sh -c "$PAR"
	run bin/tournament ladder run "$L" --games 48 --spool "$T/sp" --workers 2 \
	    --job-timeout 3 --submit "$PAR"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ladder: 2 jobs of a stopped run still out: their journals are read"* ]]
	[ "$(q "SELECT count(*) FROM jobs WHERE batch = 1 AND state = 'done'")" -eq 2 ]
	[ "$(q "SELECT count(*) FROM jobs WHERE state != 'done'")" -eq 0 ]
	jobs_complete 48
	status_is_rate 20 "$L/export.jsonl"
}

@test "ladder run --spool: one line for every bad input; --help names the options" {
	bin/tournament ladder init "$L" "$T/settings.json" >/dev/null
	run bin/tournament ladder run "$L" --workers 2
	[ "$status" -eq 2 ]
	[[ "$output" == *"--submit, --workers and --job-timeout go with --spool"* ]]
	[ "${#lines[@]}" -eq 1 ]
	run bin/tournament ladder run "$L" --spool "$T/sp" -j 2
	[ "$status" -eq 2 ]
	[[ "$output" == *"-j plays tables here; with --spool the workers play (--workers K)"* ]]
	run bin/tournament ladder run "$L" --spool "$T/sp" --workers 0
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run bin/tournament ladder run "$L" --spool "$T/sp" --job-timeout x
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	# a spool that cannot be made: one line, exit status 1
	for i in 1 2 3; do
		bin/tournament ladder add "$L" "r$i" -c "bin/random --seed $i" >/dev/null
	done
	: > "$T/file"
	run bin/tournament ladder run -q "$L" --games 3 --spool "$T/file/sp"
	[ "$status" -eq 1 ]
	[ "$(grep -c "$T/file/sp: Not a directory" <<<"$output")" -eq 1 ]
	run bin/tournament ladder run --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"[--spool SPOOL [--workers K] [--submit CMD]"* ]]
	[[ "$output" == *"[--job-timeout SECONDS]]"* ]]
}

@test "ladder run --spool: a bot retired while its tables are out: they are played out and counted, the next round seats it no more" {
	four_bots
	gate on
	bin/tournament ladder run "$L" --games 96 --spool "$L/spool" --workers 2 \
	    --job-timeout 60 --submit "$PAR" 2>"$T/run.err" &
	bg=$!
	hold_jobs
	out=$(q "SELECT group_concat(tab) FROM jobs WHERE state = 'out'")
	[ -n "$out" ]
	# a bot at a table out
	bot=$(q "SELECT v.player FROM seats s JOIN versions v ON v.id = s.version \
	    WHERE s.tab = ${out%%,*} AND s.seat = 0")
	bin/tournament ladder retire "$L" "${bot%.v1}"
	gate off
	wait "$bg"
	# the tables out at the retire, its own among them, ended whole
	for t in ${out//,/ }; do
		[ "$(q "SELECT hi - (SELECT count(*) FROM games WHERE tab = $t) FROM tables WHERE id = $t")" -eq 0 ]
	done
	jobs_complete 96
	# the last tables, of the round after the retire, seat it no more
	last=$(q "SELECT max(id) FROM tables")
	[ "$(q "SELECT count(*) FROM seats s JOIN versions v ON v.id = s.version \
	    WHERE v.player = '$bot' AND s.tab = $last")" -eq 0 ]
	[ "$(q "SELECT count(*) FROM seats s JOIN versions v ON v.id = s.version \
	    WHERE v.player = '$bot' AND s.tab > $last - 2")" -eq 0 ]
	status_is_rate 20 "$L/export.jsonl"
}

@test "ladder --spool: a bot without a directory, shown the working directory that holds the ladder, reads no other entrant's copy (seated or not, retired), nor the store, nor a plan" {
	strangers_ladder
	# the README's line, its program by its full path
	sub=${PAR/bin\//$PWD/bin/}
	(cd "$T" && "$OLDPWD/bin/tournament" ladder run lad --games 48 --spool lad/spool \
	    --workers 2 --job-timeout 60 --submit "$sub") 2>"$T/run.err"
	jobs_complete 48
	snooped
	! grep '^snoop: read' "$T/seen" || false
}

@test "ladder --spool as an ordinary user (its bots of its uid): a bot without a directory reads no other entrant's copy, nor the store, nor a plan" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make the user"
	command -v setpriv >/dev/null || skip "no setpriv"
	as="setpriv --reuid nobody --regid $(id -g nobody) --clear-groups"
	strangers_ladder
	chown -R nobody "$T"
	$as env HOME="$T" sh -c 'cd "$1" && exec "$2/bin/tournament" ladder run lad --games 24 \
	    --spool lad/spool --workers 2 --job-timeout 60 --submit "$3"' sh "$T" "$PWD" \
	    "${PAR/bin\//$PWD/bin/}" 2>"$T/run.err"
	jobs_complete 24
	snooped
	! grep '^snoop: read' "$T/seen" || false
}

@test "ladder --spool: the tables a killed host left out count in play: a restart with --games hands out only the rest, every table ends whole" {
	four_bots
	# two tables of 12 games out, no worker plays them
	bin/tournament ladder run "$L" --games 36 --spool "$T/sp" --workers 2 \
	    --submit true 2>"$T/run1.err" &
	bg=$!
	wait_for test -s "$T/sp/batch-000001.jsonl"
	kill -9 "$bg"
	wait "$bg" || true
	bg=""
	[ "$(q "SELECT count(*) FROM jobs WHERE state = 'out'")" -eq 2 ]
	[ "$(q "SELECT sum(hi) FROM tables")" -eq 24 ]
	# taken up, lost after 3 s and played again; the new tables meanwhile
	# take only the 12 games --games leaves
	run bin/tournament ladder run "$L" --games 36 --spool "$T/sp" --workers 4 \
	    --job-timeout 3 --submit "$PAR"
	[ "$status" -eq 0 ]
	[ "$(q "SELECT sum(hi) FROM tables WHERE id > 2")" -eq 12 ]
	jobs_complete 36
	status_is_rate 20 "$L/export.jsonl"
}

@test "ladder --spool: a table a killed host left out that fails is judged: its bots are backed off, the next table seats the others" {
	four_bots
	for i in 5 6; do
		bin/tournament ladder add "$L" "r$i" --dir "$T/holdbot" \
		    -c "sh hold.sh $PWD/bin/random $i" >/dev/null
	done
	bin/tournament ladder run "$L" --games 6 --spool "$T/sp" --workers 1 \
	    --submit true 2>"$T/run1.err" &
	bg=$!
	wait_for test -s "$T/sp/batch-000001.jsonl"
	kill -9 "$bg"
	wait "$bg" || true
	bg=""
	[ "$(q "SELECT count(*) FROM tables")" -eq 1 ]
	# its job and the two made again are never played (batches 1-3):
	# table 1 ends as failed; then batches are played
	cat > "$T/submit.sh" <<EOF2
b=\$(basename "\$PLAN" .jsonl | sed "s/^batch-0*//")
[ "\$b" -ge 4 ] || exit 0
exec $PAR
EOF2
	run bin/tournament ladder run "$L" --games 18 --spool "$T/sp" --workers 1 \
	    --job-timeout 2 --submit "sh $T/submit.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"table 1: 3 jobs lost, 6 of its 6 games not played; it ends as failed"* ]]
	[ "$(q "SELECT count(*) FROM jobs WHERE tab = 1 AND state = 'lost'")" -eq 3 ]
	# its three bots were charged and backed off: table 2 seats the
	# others; table 3 one of them at most (a failing bot at a time)
	[ "$(q "SELECT count(*) FROM seats WHERE tab = 2 AND version IN \
	    (SELECT version FROM seats WHERE tab = 1)")" -eq 0 ]
	[ "$(q "SELECT count(*) FROM seats WHERE tab = 3 AND version IN \
	    (SELECT version FROM seats WHERE tab = 1)")" -le 1 ]
	[ "$(q "SELECT group_concat(n) FROM (SELECT count(*) n FROM games GROUP BY tab ORDER BY tab)")" = "12,6" ]
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL")" -eq 0 ]
}

@test "ladder --spool: a submit command that fails is said at once with its status, its jobs lacking games played again at once; three failures in a row stop the run" {
	four_bots
	# batch 1: its line 0 played, line 1 not, then a failure
	cat > "$T/submit.sh" <<EOF2
b=\$(basename "\$PLAN" .jsonl | sed "s/^batch-0*//")
if [ "\$b" -eq 1 ]; then
	bin/tournament job --from "\$PLAN" --index 0 --out "\$OUT"
	exit 3
fi
exec $PAR
EOF2
	# (the old code waited out the job timeout)
	run timeout 120 bin/tournament ladder run "$L" --games 48 --spool "$T/sp" \
	    --workers 2 --job-timeout 600 --submit "sh $T/submit.sh"
	[ "$status" -eq 0 ]
	[ "$(grep -c "batch 1: the submit command exited with status 3 (1 failure in a row, 1 in all): its 1 job with games missing is planned again now" <<<"$output")" -eq 1 ]
	[ "$(q "SELECT group_concat(state) FROM (SELECT state FROM jobs WHERE batch = 1 ORDER BY idx)")" = "done,lost" ]
	jobs_complete 48
	status_is_rate 20 "$L/export.jsonl"
	# one that always fails: three in a row, then a clear stop
	run timeout 120 bin/tournament ladder run "$L" --games 24 --spool "$T/sp" \
	    --workers 2 --job-timeout 600 --submit 'echo no >&2; exit 7'
	[ "$status" -eq 1 ]
	[ "$(grep -c "the submit command exited with status 7" <<<"$output")" -eq 3 ]
	[[ "$output" == *"the submit command failed 3 times in a row (the last, batch "*": it exited with status 7): stopping; the jobs of its last batch stay out for the next run"* ]]
	[ "$(q "SELECT count(*) FROM games")" -eq 48 ]
	[ "$(q "SELECT count(*) FROM jobs WHERE state = 'out'")" -eq 2 ]
}

@test "ladder --spool: a worker's log that is a link or too large is not copied into the ladder's logs; the others are, and ladder serve serves them" {
	four_bots
	echo SECRET > "$T/secret"
	gate on
	bin/tournament ladder run "$L" --games 24 --spool "$L/spool" --workers 2 \
	    --job-timeout 60 --submit "$PAR" 2>"$T/run.err" &
	bg=$!
	hold_jobs
	# the jobs stand mid-job: one log made a link, another a sparse file
	# past the bound (their workers write on in the files moved aside)
	set -- "$L"/spool/out/b000001/logs/*.jsonl
	[ $# -ge 2 ]
	mv "$1" "$1.aside"
	ln -s "$T/secret" "$1"
	mv "$2" "$2.aside"
	truncate -s 300M "$2"
	gate off
	wait "$bg"
	bg=""
	grep -q "b000001/logs/${1##*/}: not copied into the ladder's logs (a symbolic link; a regular file of at most 256 MiB is)" "$T/run.err"
	grep -q "b000001/logs/${2##*/}: not copied into the ladder's logs (larger than its bound; a regular file of at most 256 MiB is)" "$T/run.err"
	jobs_complete 24
	# nothing of either in the ladder's logs; the other logs are there
	! grep -rq SECRET "$L/logs" || false
	[ -z "$(find "$L/logs" -type l -o -size +100M)" ]
	n=0
	for f in $(q "SELECT DISTINCT log FROM games"); do
		[ -f "$L/$f" ] && n=$((n + 1))
	done
	[ "$n" -ge 1 ]
	# each copied whole: its match's result in (replay --verify)
	for f in $(q "SELECT DISTINCT log FROM games"); do
		[ ! -f "$L/$f" ] || bin/replay --verify -q "$L/$f"
	done
	bin/tournament ladder site "$L" >/dev/null
	grep -q 'its log is gone' "$L"/site/bots/*.html
	# ladder serve serves a copied log and its replay (its table ended)
	f=$(for f in $(q "SELECT DISTINCT log FROM games"); do [ -f "$L/$f" ] && echo "$f"; done | head -n 1)
	serve
	curl -sf "http://127.0.0.1:$port/$f" | head -c 200 | grep -q .
	curl -sf "http://127.0.0.1:$port/$f.html" | grep -q '<html'
	# no name outside that form, no link
	! curl -sf "http://127.0.0.1:$port/logs/t000001.b000001.x" || false
	status_is_rate 20 "$L/export.jsonl"
}

@test "ladder --spool: kill -9 of the host while a whole table's logs settle: the restart ends it (not abandoned) and copies its logs" {
	four_bots
	# the workers play the table, then keep its logs changing for 8 s:
	# the host waits for them to stand still before the table ends
	cat > "$T/submit.sh" <<EOF2
$PAR || exit 1
( for i in \$(seq 80); do touch "\$OUT"/logs/*.jsonl; sleep 0.1; done ) >/dev/null 2>&1 &
EOF2
	bin/tournament ladder run "$L" --games 12 --spool "$T/sp" --workers 1 \
	    --job-timeout 60 --submit "sh $T/submit.sh" 2>"$T/run1.err" &
	bg=$!
	# every game in, the job done, the table not ended: the window
	job_done() { [ "$(q "SELECT count(*) FROM jobs WHERE state = 'done'")" -eq 1 ]; }
	wait_for job_done
	[ "$(q "SELECT count(*) FROM games")" -eq 12 ]
	[ "$(q "SELECT count(*) FROM tables WHERE ended IS NULL")" -eq 1 ]
	kill -9 "$bg"
	wait "$bg" || true
	bg=""
	[ -z "$(ls "$L/logs" | grep '^t000001\.b')" ]
	run bin/tournament ladder run "$L" --games 12 --spool "$T/sp" --workers 1 \
	    --job-timeout 60 --submit "sh $T/submit.sh"
	[ "$status" -eq 0 ]
	[[ "$output" != *"abandoned"* ]]
	[[ "$output" == *"ladder: 1 table of a stopped run with no job out taken up"* ]]
	# ended here, not abandoned, no game of it played again (the run's
	# 12 new games are a second table's)
	[ "$(q "SELECT abandoned FROM tables WHERE id = 1")" -eq 0 ]
	[ "$(q "SELECT count(*) FROM jobs WHERE tab = 1")" -eq 1 ]
	jobs_complete 24
	# its logs copied, each whole
	n=0
	for f in $(q "SELECT DISTINCT log FROM games WHERE tab = 1"); do
		[ -f "$L/$f" ]
		bin/replay --verify -q "$L/$f"
		n=$((n + 1))
	done
	[ "$n" -ge 1 ]
	status_is_rate 20 "$L/export.jsonl"
}

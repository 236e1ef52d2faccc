#!/usr/bin/env bats
# End-to-end tests of tournaments across machines: `tournament plan` (one
# self-contained line per job, --chunk, --only), `tournament job` (run
# twice or killed and run again: each game once; an edited line refused),
# GNU parallel with 4 workers, one of them killed with SIGKILL mid-job and
# its job retried with --retries, `tournament merge` (the local run's
# games and rating table byte for byte, duplicates dropped, missing and
# failed jobs listed with a rerun command that works as printed; made-up
# journals merged and rated byte for byte as the tree-parsing reader did)
# and `tournament status`; the README's "Across machines" commands as
# written.
# The Slurm test is tests/slurm.bats.
#
# The bots are stateless (tests/bots/det.py: a choice is a function of the
# request), so a game does not depend on which games its bot processes
# played before.  Bots get a scrubbed environment: CARDARENA_BOT_ENV names
# the variables (DET_SLEEP, the pause between answers) they may keep.

load helpers

setup() {
	cd "$BATS_TEST_DIRNAME/.." || return 1
	T=$BATS_TEST_TMPDIR
	# bots run as users of their own (SECURITY.md): they must reach $T
	chmod go+rx "$T" "${T%/*}" "${T%/*/*}" 2>/dev/null || true
	mkfile "$T/t.json" "$T/local"
}

# A tournament file: 5 stateless bots, horserace at 4 seats, duplicate, 2
# deals per table: 5 tables of 8 games.
mkfile() {
	cat >"$1" <<EOF
{"name": "t", "game": "horserace", "options": {"races": 2}, "seats": 4,
 "bots": [
  {"name": "a", "command": "python3 $PWD/tests/bots/det.py a"},
  {"name": "b", "command": "python3 $PWD/tests/bots/det.py b"},
  {"name": "c", "command": "python3 $PWD/tests/bots/det.py c"},
  {"name": "d", "command": "python3 $PWD/tests/bots/det.py d"},
  {"name": "e", "command": "python3 $PWD/tests/bots/det.py e"}],
 "deals": 2, "duplicate": true, "concurrency": 2, $TOUR_LIMITS,
 "output": "$2", "seed": 11}
EOF
}

# The games of a journal, one canonical line each, sorted.
games() {
	python3 tests/journal_games.py "$1"
}

# Has process $1 ended (and been reaped by its parent)?
gone() {
	[ ! -e "/proc/$1" ]
}

# Counts the game lines of job journals and checks none is doubled.
no_doubles() {
	python3 - "$@" <<'PY'
import json, sys
seen = set()
for p in sys.argv[1:]:
    for line in open(p):
        d = json.loads(line)
        if "table" in d:
            k = (d["table"], d["game"])
            assert k not in seen, "%s: %s twice" % (p, k)
            seen.add(k)
print(len(seen))
PY
}

@test "plan: one self-contained, fingerprinted line per job in the local order; --chunk, --only and errors" {
	run bin/tournament plan "$T/t.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"tournament plan: 5 jobs (5 tables, 1 job of at most 8 games each), 40 games; Slurm: sbatch --array=0-4"* ]]
	bin/tournament plan "$T/t.json" --chunk 5 >"$T/plan" 2>"$T/err"
	# 5 is rounded down to a whole deal (4 games): 2 jobs per table
	grep -q "10 jobs (5 tables, 2 jobs of at most 4 games each)" "$T/err"
	python3 - "$T/plan" "$T/t.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["job"] for l in lines] == list(range(10))
# chunk by chunk across the tables, as a local run plays deal by deal
assert [(l["table"], l["games"]) for l in lines] == \
    [(t, [g, g + 4]) for g in (0, 4) for t in range(5)]
src = json.load(open(sys.argv[2]))
cmds = {b["name"]: b["command"] for b in src["bots"]}
for l in lines:
    t = l["tournament"]
    # everything a job needs: the table's bots with their commands
    assert len(t["bots"]) == 4 and all(b["command"] == cmds[b["name"]] for b in t["bots"])
    assert t["game"] == "horserace" and t["seed"] == 11 and t["deals"] == 2
    assert "output" not in t and "concurrency" not in t
    assert l["header"]["tables"] == 5 and len(l["fingerprint"]) == 16
assert len({l["fingerprint"] for l in lines}) == 10
PY
	run bin/tournament plan "$T/t.json" --chunk 4 --only 1,3-4,9
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^{')" -eq 4 ]
	run bin/tournament plan "$T/t.json" --chunk 3
	[ "$status" -eq 2 ]
	[[ "$output" == *"--chunk 3: at least 4 games (a deal is played from every seat in one job)"* ]]
	run bin/tournament plan "$T/t.json" --only 10
	[ "$status" -eq 2 ]
	[[ "$output" == *"job 10 does not exist (the plan has jobs 0 to 4)"* ]]
	run bin/tournament plan "$T/t.json" --only 2-x
	[ "$status" -eq 2 ]
	[[ "$output" == *"job numbers and ranges, e.g. 3,7-9"* ]]
}

@test "job: run twice, or killed and run again, writes each game once; an edited line is refused" {
	bin/tournament plan "$T/t.json" >"$T/plan" 2>/dev/null
	# killed with SIGKILL once its first game is in
	CARDARENA_BOT_ENV=DET_SLEEP DET_SLEEP=0.02 bin/tournament job --from "$T/plan" --index 2 --out "$T/j" &
	pid=$!
	wait_for grep -q '^{"table"' "$T/j/job-000002.jsonl"
	kill -9 "$pid"
	wait "$pid" || true
	# the orphaned referee ends its log (PDEATHSIG) before its sum is taken
	no_leftovers "$T/j/logs"
	n=$(grep -c '^{"table"' "$T/j/job-000002.jsonl")
	[ "$n" -ge 1 ] && [ "$n" -lt 8 ] || false
	(cd "$T/j/logs" && md5sum *.jsonl) >"$T/sums"
	run bin/tournament job --from "$T/plan" --index 2 --out "$T/j"
	[ "$status" -eq 0 ]
	[ "$(no_doubles "$T/j/job-000002.jsonl")" -eq 8 ]
	# the second run played the rest into logs of its own
	(cd "$T/j/logs" && md5sum -c --quiet "$T/sums")
	[ "$(ls "$T"/j/logs/*.jsonl | wc -l)" -gt "$(wc -l <"$T/sums")" ]
	cp "$T/j/job-000002.jsonl" "$T/before"
	sed -n 3p "$T/plan" | bin/tournament job --out "$T/j"
	cmp "$T/before" "$T/j/job-000002.jsonl"
	# a line whose content no longer matches its fingerprint
	sed -n 3p "$T/plan" | sed 's/"seed":11/"seed":12/' >"$T/edited"
	run bin/tournament job --out "$T/j" <"$T/edited"
	[ "$status" -eq 2 ]
	[[ "$output" == *"its fingerprint does not match its content (a damaged or edited line)"* ]]
	run bin/tournament job --out "$T/j" </dev/null
	[ "$status" -eq 2 ]
	[[ "$output" == *"stdin: no job line"* ]]
	run bin/tournament job --from "$T/plan" --index 9 --out "$T/j"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no line 9 (the plan has 5 jobs)"* ]]
	# a job whose bot cannot run: refused before it plays (exit status
	# 1), naming the bot
	sed 's|python3 [^"]*det.py a|/nonexistent/bot|' "$T/t.json" >"$T/bad.json"
	bin/tournament plan "$T/bad.json" 2>/dev/null |
	    grep -m 1 /nonexistent/bot >"$T/badplan"
	run bin/tournament job --out "$T/bad" <"$T/badplan"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot a: cannot execute '/nonexistent/bot'"* ]]
	[ ! -s "$T/bad/job-000000.jsonl" ] || [ "$(grep -c '"table"' "$T/bad/job-000000.jsonl")" -eq 0 ]
}

@test "GNU parallel, 4 workers, one SIGKILLed mid-job and retried: merge gives the local run's games and table" {
	run bin/tournament run -q "$T/t.json"
	[ "$status" -eq 0 ]
	bin/tournament plan "$T/t.json" --chunk 4 >"$T/plan" 2>/dev/null
	CARDARENA_BOT_ENV=DET_SLEEP DET_SLEEP=0.02 parallel --pipe -N1 -j 4 --retries 3 \
	    bin/tournament job --out "$T/par" <"$T/plan" 2>"$T/par.err" &
	ppid=$!
	# SIGKILL one worker's job once it has a game in (not all of them)
	killed=""
	end=$(($(date +%s) + ${WAIT_MAX:-600}))
	while [ "$(date +%s)" -lt "$end" ]; do
		for f in "$T"/par/job-*.jsonl; do
			[ -e "$f" ] || continue
			n=$(grep -c '^{"table"' "$f" || true)
			if [ "$n" -ge 1 ] && [ "$n" -lt 4 ]; then
				idx=$(basename "$f" .jsonl)
				idx=$((10#${idx#job-}))
				pid=$(pgrep -f "^bin/tournament job --out $T/par" |
				    while read -r p; do
					[ -r "/proc/$p/fd" ] || continue
					ls -l "/proc/$p/fd" 2>/dev/null | grep -q "$f" && echo "$p"
				    done | head -n 1)
				# the job may end, or play its last game,
				# between the look and the kill: then its
				# retry has nothing to resume; look again
				if [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null &&
				    wait_for gone "$pid" &&
				    [ "$(grep -c '^{"table"' "$f")" -lt 4 ]; then
					killed=$idx
					break 2
				fi
			fi
		done
		sleep 0.05
	done
	wait "$ppid"
	[ -n "$killed" ]
	echo "killed job $killed" >&3 || true
	# the killed job was retried and resumed: a second log for it
	ls "$T"/par/logs/ | grep -q -- '-2\.jsonl$'
	[ "$(no_doubles "$T"/par/job-*.jsonl)" -eq 40 ]
	run bin/tournament status "$T/merged" "$T/par"
	[ "$status" -eq 0 ]
	[[ "$output" == "t: 10 jobs: 10 done, 0 running, 0 failed, 0 missing; 40 of 40 games" ]]
	run bin/tournament merge "$T/merged" "$T/par"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Rank  Name"* ]]
	games "$T/local/journal.jsonl" >"$T/g.local"
	games "$T/merged/journal.jsonl" >"$T/g.merged"
	[ "$(wc -l <"$T/g.local")" -eq 40 ]
	cmp "$T/g.local" "$T/g.merged"
	# the same header as the local run's, and the same rating table
	[ "$(head -n 1 "$T/local/journal.jsonl")" = "$(head -n 1 "$T/merged/journal.jsonl")" ]
	cmp "$T/local/results.txt" "$T/merged/results.txt"
	cmp "$T/local/results.csv" "$T/merged/results.csv"
	# every log a merged line names is there
	python3 - "$T/merged" <<'PY'
import json, os, sys
for line in open(sys.argv[1] + "/journal.jsonl"):
    d = json.loads(line)
    if "table" in d:
        assert os.path.exists(os.path.join(sys.argv[1], d["log"])), d["log"]
PY
	# merging again, and a copy of the jobs: every duplicate dropped
	cp -r "$T/par" "$T/copy"
	run bin/tournament merge -q "$T/merged" "$T/par" "$T/copy"
	[ "$status" -eq 0 ]
	[[ "$output" == *"40 of 40 games (80 duplicates dropped, 0 lines refused)"* ]]
	games "$T/merged/journal.jsonl" >"$T/g.again"
	cmp "$T/g.local" "$T/g.again"
	# a journal of another tournament is refused by name
	sed 's/"seed": 11/"seed": 12/' "$T/t.json" >"$T/t12.json"
	bin/tournament plan "$T/t12.json" --only 0 2>/dev/null |
	    bin/tournament job --out "$T/other"
	run bin/tournament merge -q "$T/m2" "$T/par" "$T/other"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/other/job-000000.jsonl: a job of another tournament than"*"(its \"seed\" differs)"* ]]
}

@test "merge lists missing and failed jobs with a rerun command that works as printed" {
	bin/tournament plan "$T/t.json" --chunk 4 >"$T/plan" 2>/dev/null
	# jobs 0-3 and 6 run; 5 is cut short (its journal lost its last lines)
	bin/tournament plan "$T/t.json" --chunk 4 --only 0-3,5-6 2>/dev/null |
	    parallel --pipe -N1 -j 2 bin/tournament job --out "$T/part"
	head -n 2 "$T/part/job-000005.jsonl" >"$T/cut"
	mv "$T/cut" "$T/part/job-000005.jsonl"
	# a game line of another job pasted in, and a torn last line
	sed -n 2p "$T/part/job-000000.jsonl" >>"$T/part/job-000006.jsonl"
	printf '{"table":3,"ga' >>"$T/part/job-000006.jsonl"
	run bin/tournament status "$T/out" "$T/part"
	[ "$status" -eq 1 ]
	[[ "$output" == *"t: 10 jobs: 5 done, 0 running, 1 failed, 4 missing; 21 of 40 games"* ]]
	run bin/tournament merge -q "$T/out" "$T/part"
	[ "$status" -eq 1 ]
	[[ "$output" == *"table 0 game 0 is not one of job 6's games; refused"* ]]
	[[ "$output" == *"job-000006.jsonl: a torn last line was left out"* ]]
	[[ "$output" == *"failed or running (a journal, not every game): jobs 5"* ]]
	[[ "$output" == *"missing (no journal): jobs 4,7-9"* ]]
	[[ "$output" == *"Slurm: sbatch --array=5,4,7-9"* ]]
	[ "$(grep -c '"table"' "$T/out/journal.jsonl")" -eq 21 ]
	[ -s "$T/out/results.txt" ]
	# the printed command, as printed (tournament on PATH)
	cmd=$(printf '%s\n' "$output" | sed -n 's/^rerun them: //p')
	[[ "$cmd" == "tournament plan $T/t.json --chunk 4 --only 5,4,7-9 | parallel --pipe -N1 tournament job --out $T/part" ]]
	PATH="$PWD/bin:$PATH" sh -c "$cmd"
	run bin/tournament merge -q "$T/out" "$T/part"
	[ "$status" -eq 0 ]
	[ "$(grep -c '"table"' "$T/out/journal.jsonl")" -eq 40 ]
	run bin/tournament run -q "$T/t.json"
	games "$T/local/journal.jsonl" >"$T/g.local"
	games "$T/out/journal.jsonl" >"$T/g.out"
	cmp "$T/g.local" "$T/g.out"
	run bin/tournament merge "$T/out" "$T/nothing-here"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/nothing-here: No such file or directory"* ]]
}

@test "merge and rate read made-up job journals (odd, damaged, doubled and torn lines among them) byte for byte as the tree-parsing reader did" {
	# the md5s were recorded from the code before jgame_scan (8a6c7b7),
	# results.html again after its head-to-head marked the diagonal and
	# its recent games said "log not found" for a log that is not there
	# (the rest of the page as before: diffed by hand);
	# tests/mkjobs.py writes the same bytes for the same plan anywhere
	cat >"$T/g.json" <<EOF
{"name": "golden", "game": "horserace", "seats": 4, "deals": 100,
 "duplicate": true, "output": "$T/gout", "seed": 3,
 "bots": [{"name": "a", "command": "x"}, {"name": "b", "command": "x"},
  {"name": "c", "command": "x"}, {"name": "d", "command": "x"},
  {"name": "e", "command": "x"}]}
EOF
	bin/tournament plan "$T/g.json" --chunk 100 >"$T/plan" 2>/dev/null
	python3 tests/mkjobs.py "$T/plan" "$T/gm" --odd
	run bin/tournament merge -q "$T/gout" "$T/gm"
	[ "$status" -eq 0 ]
	[[ "$output" == *"job-000001.jsonl:102: damaged line skipped"* ]]
	[[ "$output" == *"2000 of 2000 games (1 duplicate dropped, 2 lines refused)"* ]]
	(cd "$T/gout" && md5sum journal.jsonl results.txt results.csv \
	    results.json results.md results.html) >"$T/sums"
	cat >"$T/want" <<EOF
c8223e23388a8cc56a3afcac3135c8a6  journal.jsonl
1597e1d2ccca10e46319002cccec9589  results.txt
909ae23238dde9033c2aa0c282e78a75  results.csv
b84aa57300320536914ec94e20a329ef  results.json
c74a9a58c14ad5e95772fdd294be9938  results.md
b837f61d22fe0aac0a58b74a1f834062  results.html
EOF
	diff "$T/want" "$T/sums"
	# merged again: the journal is read back (its logs already made
	# relative), every game a duplicate
	cp "$T/gout/journal.jsonl" "$T/first"
	run bin/tournament merge -q "$T/gout" "$T/gm"
	[ "$status" -eq 0 ]
	cmp "$T/first" "$T/gout/journal.jsonl"
	bin/tournament rate -f csv "$T/gm/job-000001.jsonl" \
	    "$T/gm/job-000002.jsonl" 2>/dev/null | md5sum >"$T/sums"
	[ "$(cat "$T/sums")" = "2e051afa3f7d3c990c4e3d1a81121486  -" ]
}

@test "README, Across machines: the GNU parallel commands as written" {
	# run from a copy of the layout the commands expect
	mkdir -p "$T/w"
	ln -s "$PWD/bin" "$T/w/bin"
	ln -s "$PWD/tournaments" "$T/w/tournaments"
	readme_block "tests/dist.bats runs these lines" >"$T/cmds"
	[ "$(grep -c '^bin/tournament\|^parallel' "$T/cmds")" -eq 4 ]
	(cd "$T/w" && sh -e "$T/cmds") >"$T/out" 2>&1
	grep -q "horserace-example: 10 jobs: 10 done, 0 running, 0 failed, 0 missing; 80 of 80 games" "$T/out"
	[ "$(grep -c '"table"' "$T/w/out/horserace/journal.jsonl")" -eq 80 ]
	# the same table as a local run of the file, with the seed the plan
	# drew (the file names none)
	seed=$(head -n 1 "$T/w/out/horserace/journal.jsonl" | jv "$(cat)" 'd["seed"]')
	sed 's|"output": "out/horserace"|"output": "out/local", "seed": '"$seed"'|' \
	    tournaments/examples/horserace.json >"$T/w/local.json"
	(cd "$T/w" && bin/tournament run -q local.json)
	diff "$T/w/out/local/results.txt" "$T/w/out/horserace/results.txt"
}

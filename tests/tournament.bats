#!/usr/bin/env bats
# End-to-end tests of bin/tournament: the tournament file's errors, the
# schedule command, a small round robin with its journal and reports,
# resuming (nothing played twice), a torn last journal line, a journal of
# another tournament refused, a second run on the same output refused,
# SIGKILL at several points then resumed giving the same games as an
# uninterrupted run, Ctrl-C stopping cleanly, and
# `tournament rate` with its formats and --anchor.
#
# The bots here are a stateless Python bot whose choice is a function of
# the request alone, so a game's result does not depend on which games its
# bot processes played before: a resumed tournament must reproduce the
# uninterrupted one exactly, places and scores included.  Time limits are
# $TOUR_LIMITS (helpers.bash); kills and stops happen at points counted in
# games played, never after a fixed delay.

load helpers

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/tournament.XXXXXX")
	# as root each bot runs as a user of its own, which reads det.py
	chmod 755 "$T"
	cp "$BATS_TEST_DIRNAME/bots/det.py" "$T/det.py"
	mkfile "$T/t.json" "$T/out" 3
}

teardown() {
	show_failure
	# a tournament a failed test left running (and its stalled bot)
	if [ -n "${bg:-}" ]; then
		touch "$T/stall/go" 2>/dev/null || true
		kill -INT "$bg" 2>/dev/null && kill -INT "$bg" 2>/dev/null
		wait "$bg" 2>/dev/null || true
	fi
	rm -rf "$T"
}

# Writes a tournament file: 5 deterministic bots, horserace at 4 seats,
# duplicate, DEALS deals per table (5 tables x DEALS x 4 games).
mkfile() {
	cat >"$1" <<EOF
{
  "name": "t",
  "game": "horserace",
  "options": {"races": 2},
  "seats": 4,
  "bots": [
    {"name": "a", "command": "python3 $T/det.py a"},
    {"name": "b", "command": "python3 $T/det.py b"},
    {"name": "c", "command": "python3 $T/det.py c"},
    {"name": "d", "command": "python3 $T/det.py d"},
    {"name": "e", "command": "python3 $T/det.py e"}
  ],
  "deals": $3,
  "duplicate": true,
  "concurrency": 2,
  ${4:-}
  $TOUR_LIMITS,
  "output": "$2",
  "seed": 11
}
EOF
}

# Writes tournament file $1: horserace, one race, three seats, output $2;
# bot $3 named $4 against r1 and r2 ($R1, $R2: C random bots unless set);
# $5: more keys, each with its comma.
one_race() {
	cat >"$1" <<EOF2
{"game": "horserace", "options": {"races": 1}, "seats": 3, "deals": 1,
 "duplicate": false, "seed": 3, "output": "$2", $5
 "bots": [
  {"name": "$4", "command": "$3"},
  {"name": "r1", "command": "${R1:-bin/random --seed 1}"},
  {"name": "r2", "command": "${R2:-bin/random --seed 2}"}]}
EOF2
}

# Prints how many games the journal in directory $1 has (0 if none).
played() {
	local n
	n=$(grep -c '"table"' "$1/journal.jsonl" 2>/dev/null) || true
	echo "${n:-0}"
}

# Succeeds when the journal in directory $2 has more than $1 games, or
# the tournament writing it has ended.
more_than() {
	[ "$(played "$2")" -gt "$1" ] || ! kill -0 "$pid" 2>/dev/null
}

# Runs tournament file $2 (output $3) and sends it SIGINT once its journal
# has more than $1 games; its exit status is in $status, stderr in $T/err.
interrupt_after() {
	bin/tournament run --no-progress "$2" 2>"$T/err" &
	pid=$!
	wait_for more_than "$1" "$3"
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
}

# The games of a journal, one canonical line each, sorted (no log path).
games() {
	python3 - "$1" <<'PY'
import json, sys
out = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "table" in d:
        out.append(json.dumps([d["table"], d["game"], d["deal"], d["seed"],
            d["bots"], d["places"], d["scores"]]))
print("\n".join(sorted(out)))
PY
}

# Writes $1 to $T/bad.json and checks tournament run refuses it (exit 2),
# its reason in $output.
refused_file() {
	echo "$1" >"$T/bad.json"
	run bin/tournament run "$T/bad.json"
	[ "$status" -eq 2 ]
}

@test "a tournament file with errors is refused with the reason" {
	run bin/tournament run "$T/none.json"
	[ "$status" -eq 2 ]
	[ "$output" = "tournament: $T/none.json: No such file or directory" ]
	echo '[]' >"$T/bad.json"
	run bin/tournament schedule "$T/bad.json"
	[ "$status" -eq 2 ]
	[ "$output" = "tournament: $T/bad.json: not a JSON object" ]
	refused_file '{"game": "horserace", "game": "nyse"}'
	[[ "$output" == "tournament: $T/bad.json: line 1: duplicate object key"* ]]
	refused_file '{"game": "horserace", "bots": []}'
	[[ "$output" == *'"bots": a non-empty array'* ]]
	refused_file '{"game": "nosuch", "bots": [{"name":"a","command":"x"}]}'
	[[ "$output" == *'unknown game "nosuch"'* ]]
	refused_file '{"game": "horserace", "colour": 1}'
	[[ "$output" == *'unknown key "colour"'* ]]
	refused_file '{"game": "horserace", "bots": [{"name":"b","command":"x"},{"name":"a","command":"x"},{"name":"c","command":"x"},{"name":"a","command":"y"}]}'
	[[ "$output" == *'"bots": two bots are called a' ]]
	refused_file "{\"game\": \"horserace\", \"bots\": [$(for i in $(seq 4097); do printf '{"name":"b%d","command":"x"},' "$i"; done | sed 's/,$//')]}"
	[[ "$output" == *'"bots": at most 4096' ]]
	refused_file '{"game": "horserace", "options": {"stack": -5}, "bots": [{"name":"a","command":"x"}]}'
	[[ "$output" == *'"options": '* ]]
	# fewer bots than seats is a bad file too: status 2, as --help says
	echo '{"game": "nyse", "seats": 3, "bots": [{"name":"a","command":"x"},{"name":"b","command":"y"}]}' >"$T/bad.json"
	for c in run schedule plan; do
		run bin/tournament $c "$T/bad.json"
		[ "$status" -eq 2 ]
		[ "$output" = "tournament: $T/bad.json: 2 bots for tables of 3 seats: a table needs 3 different bots" ]
	done
}

@test "fewer bots than seats is an error (of the file: status 2)" {
	sed -e '/"name": "c"/d' -e '/"name": "d"/d' -e '/"name": "e"/d' \
	    -e 's/"name": "b", "command": "\(.*\)"},/"name": "b", "command": "\1"}/' \
	    "$T/t.json" >"$T/few.json"
	run bin/tournament schedule "$T/few.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"2 bots for tables of 4 seats: a table needs 4 different bots"* ]]
}

@test "schedule shows every subset and its balance" {
	run bin/tournament schedule -v "$T/t.json"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"5 tables (every subset), 12 games each (3 deals x every seat rotation), 60 games"* ]]
	[[ "${lines[1]}" == "pairs share 3 to 3 tables; bots sit at 4 to 4; seat counts within 0" ]]
	[ "${#lines[@]}" -eq 7 ]
}

@test "a round robin writes its journal, logs and every report" {
	run bin/tournament run --no-progress "$T/t.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Rank  Name"* ]]
	[[ "$output" == *"report:  $T/out/results.html"* ]]
	[ "$(grep -c '"table"' "$T/out/journal.jsonl")" -eq 60 ]
	head -1 "$T/out/journal.jsonl" | grep -q '"journal":1'
	for f in txt csv json md html; do [ -s "$T/out/results.$f" ]; done
	[ "$(wc -l <"$T/out/results.csv")" -eq 6 ]
	grep -q '<svg' "$T/out/results.html"
	! grep -q 'http[s]*://[^w]' "$T/out/results.html" || false
	jq -e '(.players | length) == 5 and .games == 60' "$T/out/results.json"
	# every journal line names its match log, which exists
	python3 - "$T/out" <<'PY'
import json, os, sys
for line in open(sys.argv[1] + "/journal.jsonl"):
    d = json.loads(line)
    if "table" in d:
        assert os.path.exists(os.path.join(sys.argv[1], d["log"])), d["log"]
PY
	# running it again plays nothing and changes nothing
	cp "$T/out/journal.jsonl" "$T/before"
	run bin/tournament run -q "$T/t.json"
	[ "$status" -eq 0 ]
	cmp "$T/before" "$T/out/journal.jsonl"
}

@test "a torn last line is dropped and its game played again" {
	mkfile "$T/t1.json" "$T/one" 1
	run bin/tournament run -q "$T/t1.json"
	[ "$status" -eq 0 ]
	games "$T/one/journal.jsonl" >"$T/full"
	# cut the last line in the middle, as a crash during a write would
	n=$(tail -1 "$T/one/journal.jsonl" | wc -c)
	truncate -s -$((n / 2)) "$T/one/journal.jsonl"
	run bin/tournament run -q "$T/t1.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"torn last line was dropped"* ]]
	games "$T/one/journal.jsonl" >"$T/again"
	cmp "$T/full" "$T/again"
}

@test "a journal of another tournament is not resumed" {
	mkfile "$T/t1.json" "$T/one" 1
	run bin/tournament run -q "$T/t1.json"
	[ "$status" -eq 0 ]
	sed 's/"seed": 11/"seed": 12/' "$T/t1.json" >"$T/t2.json"
	run bin/tournament run -q "$T/t2.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *'written for another tournament (its "seed" differs)'* ]]
}

@test "a second run on the same output directory is refused while one runs" {
	mkfile "$T/t1.json" "$T/one" 1
	mkdir -p "$T/one"
	# flock(1) holds the directory's lock as a running tournament does.
	run flock "$T/one" bin/tournament run -q "$T/t1.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/one: another tournament run is using this output directory"* ]]
	[ ! -e "$T/one/journal.jsonl" ]
	run bin/tournament run -q "$T/t1.json"
	[ "$status" -eq 0 ]
	[ "$(grep -c '"table"' "$T/one/journal.jsonl")" -eq 20 ]
}

@test "killed with SIGKILL at several points and resumed: the same games" {
	run bin/tournament run -q "$T/t.json"
	[ "$status" -eq 0 ]
	games "$T/out/journal.jsonl" >"$T/straight"
	[ "$(wc -l <"$T/straight")" -eq 60 ]
	mkfile "$T/k.json" "$T/killed" 3
	kills=0
	# Each run is killed once it has added a game to the journal, at
	# one of a few delays after that.
	for d in 0 0.3 0.1 0.6 0.05 0.9 0.2 0 0.45 0.15; do
		n=$(played "$T/killed")
		[ "$n" -lt 60 ] || break
		if [ $((kills % 2)) -eq 0 ]; then
			# the tournament alone, its referees left to die with it
			bin/tournament run -q "$T/k.json" 2>/dev/null &
			pid=$!
			wait_for more_than "$n" "$T/killed"
			sleep "$d"
			kill -9 "$pid" 2>/dev/null || true
		else
			# the whole process group at once
			setsid bin/tournament run -q "$T/k.json" 2>/dev/null &
			pid=$!
			wait_for more_than "$n" "$T/killed"
			sleep "$d"
			kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid" 2>/dev/null || true
		fi
		wait "$pid" 2>/dev/null || true
		kills=$((kills + 1))
	done
	run bin/tournament run -q "$T/k.json"
	[ "$status" -eq 0 ]
	games "$T/killed/journal.jsonl" >"$T/resumed"
	[ "$(grep -c '"table"' "$T/killed/journal.jsonl")" -eq 60 ]
	cmp "$T/straight" "$T/resumed"
	# more than one run played games: the kills did interrupt it
	[ "$(ls "$T/killed/logs" | grep -c -- '-[0-9]*\.jsonl$')" -ge 1 ]
}

@test "SIGINT stops cleanly and the run resumes to the same games" {
	run bin/tournament run -q "$T/t.json"
	games "$T/out/journal.jsonl" >"$T/straight"
	mkfile "$T/i.json" "$T/int" 3
	interrupt_after 4 "$T/i.json" "$T/int"
	if [ "$status" -ne 0 ]; then
		[ "$status" -eq 130 ]
		grep -q "stopping: the games being played are discarded" "$T/err"
		grep -q "run the same file again to resume" "$T/err"
	fi
	# every line written is whole
	python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/int/journal.jsonl"
	run bin/tournament run -q "$T/i.json"
	[ "$status" -eq 0 ]
	games "$T/int/journal.jsonl" >"$T/resumed"
	cmp "$T/straight" "$T/resumed"
}

@test "rate's text: the head to head shows the games together and whole names, never two alike" {
	R1="bin/random --seed 1" R2="bin/random --seed 2" \
	    one_race "$T/long.json" "$T/long" "bin/random --seed 3" random-c-number-three
	sed -i 's/"name": "r1"/"name": "random-c-number-one"/; s/"name": "r2"/"name": "random-c-number-two"/; s/"deals": 1/"deals": 4/' "$T/long.json"
	run bin/tournament run -q "$T/long.json"
	[ "$status" -eq 0 ]
	run bin/tournament rate "$T/long/journal.jsonl"
	[ "$status" -eq 0 ]
	h=$(printf '%s\n' "$output" | sed -n '/^Head to head/,$p')
	echo "$h"
	# the column heads: every name whole
	for n in one two three; do
		grep -q -E "^ +.* random-c-number-$n( |\$)" <<<"$(sed -n 3p <<<"$h")"
	done
	# each cell: the score and the games together (4 deals, one game each)
	[ "$(grep -c -E '[0-9.]+ \(4\)' <<<"$h")" -eq 3 ]
	[ "$(grep -o -E '[0-9.]+ \(4\)' <<<"$h" | wc -l)" -eq 6 ]
}

@test "rate: formats, anchor and several journals" {
	mkfile "$T/t1.json" "$T/one" 1
	run bin/tournament run -q "$T/t1.json"
	[ "$status" -eq 0 ]
	run bin/tournament rate "$T/one/journal.jsonl"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == *"Rank  Name"*"Elo"*"+-"*"Games"*"Score%"*"Place"*"1st%"*"Timeouts"*"Crashes"*"Illegal"*"Limits"* ]]
	[[ "$output" == *"Likelihood of superiority"* ]]
	[[ "$output" == *"Head to head"* ]]
	run bin/tournament rate -f csv "$T/one/journal.jsonl"
	[ "${lines[0]}" = "rank,name,elo,pm,lo,hi,games,score_pct,mean_place,first_pct,timeouts,crashes,illegal,flagged,los_next,limits,hello_timeouts,limit_cpu,limit_memory,limit_fsize" ]
	[ "${#lines[@]}" -eq 6 ]
	run bin/tournament rate -f json --anchor c=2000 "$T/one/journal.jsonl"
	[ "$status" -eq 0 ]
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); p={x["name"]: x for x in d["players"]}; assert abs(p["c"]["elo"] - 2000) < 1e-6 and sum(x["games"] for x in d["players"]) == 80' "$output"
	run bin/tournament rate -f md "$T/one/journal.jsonl"
	[[ "${lines[2]}" == "| Rank | Name | Elo | ± | Games | Score % | Place | 1st % | Timeouts | Crashes | Illegal | Limits |" ]]
	# Another seed: other games of the same tournament, rated together.
	sed -e 's/"seed": 11/"seed": 12/' -e "s|$T/one|$T/two|" "$T/t1.json" >"$T/t2.json"
	run bin/tournament run -q "$T/t2.json"
	[ "$status" -eq 0 ]
	run bin/tournament rate -f html -o "$T/r.html" "$T/one/journal.jsonl" "$T/two/journal.jsonl"
	[ "$status" -eq 0 ]
	grep -q "40 games, 5 players" "$T/r.html"
	grep -q "<svg" "$T/r.html"
	run bin/tournament rate --anchor nobody=1 "$T/one/journal.jsonl"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no player called nobody"* ]]
	run bin/tournament rate -f xml "$T/one/journal.jsonl"
	[ "$status" -eq 2 ]
	# NaN passed both range checks and gave every player 1500 +- 0.
	run bin/tournament rate --prior nan "$T/one/journal.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--prior nan: a number from 0 to 1000000"* ]]
}

@test "a bot's working directory and environment" {
	mkdir -p "$T/home"
	cat >"$T/e.json" <<EOF2
{"game": "horserace", "seats": 3, "deals": 1, "seed": 3, "output": "$T/eout",
 $TOUR_LIMITS,
 "bots": [
  {"name": "envbot", "dir": "$T/home", "env": {"FOO": "it's here"},
   "command": "sh -c 'echo \"cwd=\$(pwd) FOO=\$FOO\" >&2; exec python3 $T/det.py x'"},
  {"name": "r1", "command": "python3 $T/det.py y"},
  {"name": "r2", "command": "python3 $T/det.py z"}]}
EOF2
	run bin/tournament run -q "$T/e.json"
	[ "$status" -eq 0 ]
	cat "$T"/eout/logs/*.bot*.stderr | grep -q "cwd=$T/home FOO=it's here"
	# A working directory that is not there is refused before any game
	# (it used to show only as the bot crashing in every game).
	sed -e "s|$T/home|$T/nohome|" -e "s|$T/eout|$T/nout|" "$T/e.json" >"$T/n.json"
	run bin/tournament run -q "$T/n.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot envbot: \"dir\" $T/nohome: No such file or directory"* ]]
	[ ! -e "$T/nout" ]
}

@test "make demo's script: a round robin of the bundled bots, the table, the report and replays" {
	DEMO_DIR="$T/demo" run sh tools/demo.sh
	[ "$status" -eq 0 ]
	[[ "$output" == *"Rank  Name"* ]]
	[[ "$output" == *"daifugo_bot"* ]]
	[[ "$output" == *"Likelihood of superiority"* ]]
	[ -s "$T/demo/results.html" ]
	[ -s "$T/demo/journal.jsonl" ]
	ls "$T"/demo/logs/*.jsonl.html >/dev/null
	grep -q 'jsonl.html#step=[0-9]' "$T/demo/results.html"
	# It ends with the next steps for a bot author.
	[[ "$output" == *"next: write your own bot: protocol.md is the whole contract"* ]]
	[[ "$output" == *"bin/botcheck -- 'python3 mybot.py'"* ]]
	# make demo builds every program the README's tour and the demo's
	# closing lines name (not the tests), in parallel, without echoing
	# each compiler line (a dry run of a full rebuild shows what it would do).
	names=$( { sed -n '/^## A tour/,/^### Entering a bot/p' README.md
	    printf '%s\n' "$output" | sed -n '/^next:/,$p'; } |
	    grep -o 'bin/[a-z_<>]*' | sort -u)
	run make -n -B demo
	[ "$status" -eq 0 ]
	[[ "$output" == *" -s -j"* ]]
	[[ "$output" != *"tests/t_"* ]]
	n=0
	for p in $names; do
		if [ "$p" = "bin/<game>_bot" ]; then
			for b in bots/*_bot.c; do
				b=${b#bots/}
				[[ "$output" == *" -o bin/${b%.c} "* ]]
			done
			continue
		fi
		echo "$p"
		[[ "$output" == *" -o $p "* ]]
		n=$((n + 1))
	done
	[ "$n" -ge 7 ]
	# Every game of the schedule is in the journal, none twice.
	python3 - "$T/demo/journal.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
games = [(r["table"], r["game"]) for r in rows if "places" in r]
assert len(games) == len(set(games)) > 0, len(games)
PY
}

@test "rate refuses journals of different games or options, a journal given twice, the same games twice" {
	mkfile "$T/t1.json" "$T/one" 1
	run bin/tournament run -q "$T/t1.json"
	[ "$status" -eq 0 ]
	j=$T/one/journal.jsonl
	run bin/tournament rate "$j" "$j"
	[ "$status" -eq 1 ]
	[ "$output" = "tournament: $j is given twice: its games would count twice" ]
	mkdir "$T/sub"
	run bin/tournament rate "$j" "$T/sub/../one/journal.jsonl"
	[ "$status" -eq 1 ]
	[ "$output" = "tournament: $T/sub/../one/journal.jsonl is given twice (as $j): its games would count twice" ]
	# A copy holds the same games.
	cp "$j" "$T/copy.jsonl"
	run bin/tournament rate "$j" "$T/copy.jsonl"
	[ "$status" -eq 1 ]
	[[ "$output" == "tournament: $T/copy.jsonl:2: table "*" game "*" is also in $j: the same games given twice would count twice" ]]
	# Journals of another game, or other options.
	sed '1s/"game":"horserace"/"game":"nyse"/' "$j" >"$T/nyse.jsonl"
	run bin/tournament rate "$j" "$T/nyse.jsonl"
	[ "$status" -eq 1 ]
	[ "$output" = "tournament: $T/nyse.jsonl: a journal of nyse, but $j is of horserace: rate one game at a time" ]
	sed '1s/"races":2/"races":3/' "$j" >"$T/races.jsonl"
	grep -q '"races":3' "$T/races.jsonl"
	run bin/tournament rate "$j" "$T/races.jsonl"
	[ "$status" -eq 1 ]
	[ "$output" = "tournament: $T/races.jsonl: its options differ from those of $j (option races): rate games of one set of options together" ]
	# Parts of one tournament holding different games are rated together.
	{ head -n 1 "$j"; sed -n '2,11p' "$j"; } >"$T/part1.jsonl"
	{ head -n 1 "$j"; sed -n '12,$p' "$j"; } >"$T/part2.jsonl"
	run bin/tournament rate -f json "$T/part1.jsonl" "$T/part2.jsonl"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | jq -e '.games == 20'
}

@test "a bot that times out at its moves: the run's end names the move limits" {
	# It answers the hello (no hurry: 10 minutes for it), then never a move.
	one_race "$T/silent.json" "$T/silent" "python3 tests/bots/hostile.py silent $T nochild" \
	    silent '"time_hello_ms": 600000, "time_per_move_ms": 200, "time_bank_ms": 1,'
	run bin/tournament run --no-progress "$T/silent.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" =~ silent\ timed\ out\ [0-9]+\ times?\ in\ 1\ game$'\n' ]]
	[[ "$output" == *'moves:'*'raise "time_per_move_ms" (now 200 ms) and "time_bank_ms" (now 1 ms a game)'*"in $T/silent.json"* ]]
	[[ "$output" != *"silent: "*"at the hello"* ]]
	# The journal counts its timeouts, none of them at the hello.
	python3 - "$T/silent/journal.jsonl" <<'PY'
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])][1:]
f = games[0]["faults"][games[0]["bots"].index("silent")]
assert f["timeout"] >= 1 and "hello_timeout" not in f, f
PY
}

@test "a bot killed by a limit: the tables count it under Limits and name the limit" {
	# It allocates until the memory limit kills it, before its hello; the
	# others are Python bots, which run under that limit in every build
	# (the SANITIZE=1 build's bin/random cannot).
	R1="python3 tests/bots/det.py 1" R2="python3 tests/bots/det.py 2" \
	    one_race "$T/hog.json" "$T/hog" "python3 tests/hostile/bot.py memhog cardarena-hog-$$" \
	    hog '"time_hello_ms": 600000, "time_per_move_ms": 60000, "limits": {"mem_mb": 256},'
	run bin/tournament run --no-progress "$T/hog.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# The table's Limits column, not its Crashes column.
	[[ "$output" == *"Timeouts Crashes Illegal Limits"* ]]
	row=$(grep -E '^ +[0-9]+[ *] hog ' <<<"$output")
	[ "$(awk '{print $(NF-3), $(NF-2), $(NF-1), $NF}' <<<"$row")" = "0 0 0 1" ]
	[[ "$output" == *"hog: limits hit: memory 1"* ]]
	[[ "$output" == *'hog hit the memory limit 1 time: raise "limits": {"mem_mb": ...}'*'(now 256 MiB of address space) in '"$T/hog.json"* ]]
	# The journal and every format of the table say which limit.
	python3 - "$T/hog/journal.jsonl" <<'PY'
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])][1:]
f = games[0]["faults"][games[0]["bots"].index("hog")]
assert f == {"timeout": 0, "crash": 0, "illegal": 0, "limit": 1,
             "limit_memory": 1}, f
PY
	run bin/tournament rate -f json "$T/hog/journal.jsonl"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" '[p["faults"] for p in d["players"] if p["name"] == "hog"][0]')" = \
	    '{"timeout": 0, "crash": 0, "illegal": 0, "limit": 1, "hello_timeout": 0, "limits": {"cpu": 0, "memory": 1, "fsize": 0}}' ]
	run bin/tournament rate -f csv "$T/hog/journal.jsonl"
	[ "$status" -eq 0 ]
	[[ "$(grep ',hog,' <<<"$output")" == *",1,0,0,1,0" ]]
	run bin/tournament rate -f md "$T/hog/journal.jsonl"
	[[ "$output" == *"| Illegal | Limits |"* ]]
	[[ "$(grep -m1 '^| [0-9].* | hog |' <<<"$output")" == *"| 0 | 0 | 0 | 1 |" ]]
	[[ "$output" == *"hog: limits hit: memory 1"* ]]
	run bin/tournament rate -f html "$T/hog/journal.jsonl"
	[[ "$output" == *"<th>Illegal</th><th>Limits</th>"* ]]
	[[ "$output" == *'<p class="faults">hog: limits hit: memory 1</p>'* ]]
	! pgrep -f "cardarena-hog-$$" || false
}

@test "a bot that times out: the run's end names the limits to raise" {
	one_race "$T/slow.json" "$T/slow" "python3 tests/bots/hostile.py hello_hang $T" hangs \
	    '"time_hello_ms": 500, "time_per_move_ms": 200, "time_bank_ms": 1,'
	run bin/tournament run --no-progress "$T/slow.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# It never answered the hello: the note says so and names that limit.
	[[ "$output" =~ hangs\ timed\ out\ [0-9]+\ times?\ in\ 1\ game:\ 1\ at\ the\ hello, ]]
	[[ "$output" == *'hello: raise'*'"time_hello_ms" (now 500 ms) in '"$T/slow.json"* ]]
	[[ "$output" == *"hangs: 1 of its timeouts at the hello"* ]]
	# Without timeouts, no such note.
	one_race "$T/ok.json" "$T/ok" "bin/random --seed 3" r0 "$TOUR_LIMITS,"
	run bin/tournament run --no-progress "$T/ok.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Rank  Name"* ]]
	[[ "$output" != *"timed out"* ]]
}

@test "tables are played chunk by chunk: with one deal per run, a stopped tournament has no game beyond the deal after the least finished table's" {
	mkfile "$T/i.json" "$T/int" 3 '"deals_per_run": 1,'
	# Stopped a third of the way (60 games: 5 tables x 3 deals x 4 seats).
	interrupt_after 20 "$T/i.json" "$T/int"
	[ "$status" -eq 130 ]
	python3 - "$T/int/journal.jsonl" <<'PY'
import json, sys
games = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "table" in d:
        games.setdefault(d["table"], set()).add(d["game"])
k = 4                                   # games of a deal: one per seat rotation
done = {t: 0 for t in range(5)}         # whole deals played, from deal 0
for t in range(5):
    while {done[t] * k + i for i in range(k)} <= games.get(t, set()):
        done[t] += 1
lo = min(done.values())
# Every table has finished the deals before lo; none has a game beyond deal
# lo + 1 (a table whose deal lo was being played may be behind one whose
# deal lo + 1 was done: a deal is begun only within one deal of the oldest
# being played, and the games being played at the stop are discarded).
for t, g in games.items():
    assert max(g) // k <= lo + 1, (t, sorted(g), done)
assert sum(len(g) for g in games.values()) < 60, "it was not stopped"
print(done)
PY
	# Resumed, it ends with the games of an uninterrupted run.
	run bin/tournament run -q "$T/i.json"
	[ "$status" -eq 0 ]
	[ "$(grep -c '"table"' "$T/int/journal.jsonl")" -eq 60 ]
	ls "$T"/int/logs/t00004.d002*.jsonl >/dev/null
}

# Prints the number of games of the journal $1 of deal $2 or below, then
# the number beyond it.
deal_counts() {
	python3 - "$1" "$2" <<'PY'
import json, sys
n = [0, 0]
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "table" in d:
        n[d["deal"] > int(sys.argv[2])] += 1
print(n[0], n[1])
PY
}

# True when the journal $1 has at least $3 games of deal $2 or below and
# the tournament $4 has a single referee running.
held_back() {
	[ -s "$1" ] && [ "$(deal_counts "$1" "$2" | cut -d' ' -f1)" -ge "$3" ] &&
	    [ "$(pgrep -c -P "$4")" -eq 1 ]
}

# stalled DEALS RUN: starts the tournament $T/s.json (mkfile: DEALS deals,
# runs of RUN) in the background ($bg), bot e's first game waiting until
# $T/stall/go exists: its table's first deal is slow, the other slot goes
# on.  Its bots run as the referee's user, unsandboxed, so that bot e may
# write there (isolated or sandboxed bots have nowhere to write but their
# own).
stalled() {
	mkdir -m 1777 "$T/stall"
	mkfile "$T/s.json" "$T/s" "$1" "\"deals_per_run\": $2,"
	sed -i "s|det.py e\"|det.py e $T/stall\"|" "$T/s.json"
	grep -q "det.py e $T/stall" "$T/s.json"
	sed -i 's|^  "seed": 11|  "bot_user": "same", "sandbox": false, "seed": 11|' "$T/s.json"
	grep -q '"bot_user": "same", "sandbox": false' "$T/s.json"
	bin/tournament run --no-progress "$T/s.json" >"$T/out.txt" 2>"$T/err" 3>&- &
	bg=$!
}

# release: lets stalled's bot e go on and waits for the tournament, its
# exit status in $status.
release() {
	touch "$T/stall/go"
	status=0
	wait "$bg" || status=$?
	bg=
}

@test "a slow table holds the others back: no table begins a deal two beyond one still being played" {
	# Bot e's first game waits: its table's deal 0 is slow.
	stalled 3 1
	# The other slot plays the other 4 tables' deal 0 and every table's
	# deal 1 (36 games), then waits: deal 2 is two beyond deal 0.
	wait_for held_back "$T/s/journal.jsonl" 1 36 "$bg"
	test -e "$T/stall/stalled"
	[ "$(deal_counts "$T/s/journal.jsonl" 1)" = "36 0" ]
	release
	cat "$T/err"
	[ "$status" -eq 0 ]
	# Every game is played, the slow deal's before any of deal 2.
	python3 - "$T/s/journal.jsonl" <<'PY'
import json, sys
g = [json.loads(l) for l in open(sys.argv[1])][1:]
assert len(g) == 60, len(g)
d0 = [i for i, x in enumerate(g) if x["deal"] == 0]
d2 = [i for i, x in enumerate(g) if x["deal"] == 2]
assert len(d0) == 20 and len(d2) == 20 and max(d0) < min(d2), (d0, d2)
PY
}

@test "a slow table holds the others back by chunks: with runs of 2 deals, none begins a chunk two beyond the slow table's" {
	stalled 6 2
	# The other slot plays the other 4 tables' first two chunks and the
	# slow table's second, deals 0 to 3 (72 games), then waits: a chunk
	# from deal 4 would be two beyond the slow one.
	wait_for held_back "$T/s/journal.jsonl" 3 72 "$bg"
	test -e "$T/stall/stalled"
	run deal_counts "$T/s/journal.jsonl" 3
	[ "$output" = "72 0" ]
	release
	[ "$status" -eq 0 ]
	[ "$(grep -c '"table"' "$T/s/journal.jsonl")" -eq 120 ]
}

@test "run --replays renders every match log, bots named as in the file; each report row links to its game's step" {
	cat >"$T/r.json" <<EOF2
{"game": "nyse", "seats": 3, "deals": 2, "seed": 3, "output": "$T/r", $TOUR_LIMITS,
 "bots": [{"name": "alpha", "command": "bin/random --seed 1"},
  {"name": "beta", "command": "bin/random --seed 2"},
  {"name": "gamma", "command": "bin/random --seed 3"},
  {"name": "delta", "command": "bin/nyse_bot"}]}
EOF2
	run bin/tournament run --no-progress --replays "$T/r.json"
	[ "$status" -eq 0 ]
	# one log per run: at least one per table
	n=$(ls "$T"/r/logs/*.jsonl | wc -l)
	[ "$n" -ge 4 ]
	[[ "$output" == *"replays: $n match logs rendered as HTML"* ]]
	for f in "$T"/r/logs/*.jsonl; do
		[ -s "$f.html" ]
		grep -q '"bots":\[{"name":"\(alpha\|beta\|gamma\|delta\)"' "$f.html"
	done
	# Every row's link opens the replay at the step where its game is dealt.
	python3 - "$T/r/results.html" >"$T/links" <<'PY'
import re, sys
rows = re.findall(r'<tr><td>(\d+)</td><td>(\d+)</td>.*?href="([^"#]*)#step=(\d+)">replay', open(sys.argv[1]).read())
assert rows, "no replay links"
for table, game, page, step in rows:
    print(game, page[:-len(".html")], step)
PY
	[ "$(wc -l <"$T/links")" -ge 10 ]
	while read -r game log step; do
		bin/replay --no-keys "$T/r/$log" | grep -q "^== step $step: game $game dealt"
	done <"$T/links"
	# The viewer opens at the step the address names.
	log=$(head -n 1 "$T/links" | cut -d ' ' -f 2)
	grep -q 'location.hash.slice(1)).get("step")' "$T/r/$log.html"
	# Without it, or with "replays": false, nothing is rendered.
	sed -e 's|"output": "[^"]*"|"output": "'"$T"'/n"|' "$T/r.json" >"$T/n.json"
	run bin/tournament run -q "$T/n.json"
	[ "$status" -eq 0 ]
	! ls "$T"/n/logs/*.html 2>/dev/null || false
	refused_file '{"game": "nyse", "replays": "yes", "bots": [{"name":"a","command":"x"}]}'
	[[ "$output" == *'"replays": true or false'* ]]
}

# Writes tournament file $1 of three pidrec.py bots (one table of 3),
# horserace, one race, $2 deals in runs of $3, duplicate $4, output $5.
pidfile() {
	mkdir -p "$T/rec"
	chmod 1777 "$T/rec"
	cp "$BATS_TEST_DIRNAME/bots/pidrec.py" "$T/pidrec.py"
	cat >"$1" <<EOF2
{"name": "p", "game": "horserace", "options": {"races": 1}, "seats": 3,
 "bots": [{"name": "a", "command": "python3 $T/pidrec.py $T/rec/a"},
          {"name": "b", "command": "python3 $T/pidrec.py $T/rec/b"},
          {"name": "c", "command": "python3 $T/pidrec.py $T/rec/c"}],
 "deals": $2, "deals_per_run": $3, "duplicate": $4, "concurrency": 2,
 "bot_user": "same", "sandbox": false, $TOUR_LIMITS, "output": "$5"}
EOF2
}

# Checks the records in $T/rec: $1 processes in all, each a bot's whole
# life for one run, and none of them met a deal twice ($2 seats a deal
# has games when duplicate, else 1).
check_lives() {
	python3 - "$T/rec" "$1" "$2" <<'PY'
import collections, os, sys
d, want, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lives = collections.defaultdict(list)
for name in os.listdir(d):
    for line in open(os.path.join(d, name)):
        who, what = line.split()[:2]
        if what != "start":
            lives[who].append(int(what) // per)
starts = sum(1 for n in os.listdir(d) for l in open(os.path.join(d, n))
             if l.split()[1] == "start")
assert starts == want, (starts, want)
assert len(lives) == want, (len(lives), want)
for who, deals in lives.items():
    assert len(deals) == len(set(deals)), (who, deals)
print(starts, "processes; deals per process:",
      sorted(len(v) for v in lives.values()))
PY
}

# Plays the tournament of pidfile ($1 deals, $2 a run, duplicate $3) into
# $T/$4 from fresh records, with more tournament run flags after $7;
# checks it exits 0, its journal holds $5 tables ("-": not counted), and
# check_lives $6 $7.
lives_run() {
	local deals=$1 per=$2 dup=$3 out=$T/$4 tables=$5 lives=$6 seats=$7
	shift 7
	rm -rf "$T/rec"
	pidfile "$T/p.json" "$deals" "$per" "$dup" "$out"
	run bin/tournament run -q "$@" "$T/p.json"
	[ "$status" -eq 0 ]
	if [ "$tables" != - ]; then
		[ "$(grep -c '"table"' "$out/journal.jsonl")" -eq "$tables" ]
	fi
	check_lives "$lives" "$seats"
}

@test "bots live across a run: D deals in runs of C start seats x ceil(D/C) processes, seats^2 x ceil(D/C) duplicate, none meets a deal twice" {
	lives_run 5 2 false po 5 9 1
	lives_run 5 2 true pd 15 27 3
	# One run of all 5 deals: 3 processes, each meeting every deal once.
	lives_run 5 5 false p1 - 3 1
}

@test "auto chunks with no more tables than slots start each slot's bots once: no run to time the pace" {
	# one table at -j 1: one run of its 5 deals, 3 processes
	lives_run 5 '"auto"' false a1 5 3 1 -j 1
	# at -j 2: the even shares, 3 deals and 2, a run each
	lives_run 5 '"auto"' false a2 5 6 1 -j 2
	# with duplicate: each seat rotation of the one run, 3 of them
	lives_run 5 '"auto"' true ad 15 9 3 -j 1
}

@test "affinity: each referee run and its bots on one CPU, the slots on CPUs of their own; without it, on all of them" {
	pidfile "$T/a.json" 4 1 false "$T/a"
	sed -i 's|"deals": 4,|"deals": 4, "affinity": true,|' "$T/a.json"
	run bin/tournament run -q "$T/a.json"
	[ "$status" -eq 0 ]
	# every bot process was allowed exactly one CPU
	n=$(nproc)
	awk '$2 == "start" { print $3 }' "$T"/rec/* >"$T/cpus"
	[ "$(wc -l <"$T/cpus")" -eq 12 ]
	! grep -q , "$T/cpus" || false
	# with two CPUs or more, the two slots' runs used two
	if [ "$n" -ge 2 ]; then
		[ "$(sort -u "$T/cpus" | wc -l)" -eq 2 ]
	fi
	rm -rf "$T/rec"
	pidfile "$T/b.json" 2 1 false "$T/b"
	run bin/tournament run -q "$T/b.json"
	[ "$status" -eq 0 ]
	awk '$2 == "start" { print $3 }' "$T"/rec/* | sort -u >"$T/all"
	[ "$(cat "$T/all")" = "$(python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')" ]
	# a bad value is refused
	sed -i 's|"affinity": true|"affinity": 2|' "$T/a.json"
	run bin/tournament run -q "$T/a.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'"affinity": true or false'* ]]
}

@test "the chunking changes no game: runs of 1 deal, of 3 and auto give the same journal" {
	mkfile "$T/c1.json" "$T/c1" 3 '"deals_per_run": 1,'
	mkfile "$T/c3.json" "$T/c3" 3 '"deals_per_run": 3,'
	mkfile "$T/ca.json" "$T/ca" 3 '"deals_per_run": "auto",'
	for c in c1 c3 ca; do
		run bin/tournament run -q "$T/$c.json"
		[ "$status" -eq 0 ]
		games "$T/$c/journal.jsonl" > "$T/$c.games"
	done
	[ "$(wc -l < "$T/c1.games")" -eq 60 ]
	cmp "$T/c1.games" "$T/c3.games"
	cmp "$T/c1.games" "$T/ca.games"
	# Runs of 3 deals: one log per table.
	[ "$(ls "$T"/c3/logs/*.jsonl | wc -l)" -eq 5 ]
	run bin/tournament run -q "$T/c1.json"
	[ "$status" -eq 0 ]
	mkfile "$T/bad.json" "$T/bad" 3 '"deals_per_run": 0,'
	run bin/tournament run -q "$T/bad.json"
	[ "$status" -ne 0 ]
	[[ "$output" == *'"deals_per_run"'* ]]
}

@test "the bundled bots keep nothing from game to game: a lifetime begun at deal 2 plays deals 2-3 as one begun at 0" {
	# What makes the chunking change no game with bots that learn
	# nothing: every bundled bot's moves in a game depend on its seed,
	# the match's nonce and the game alone (horserace_bot's caches and
	# the MCTS bots' first draw of each search once carried over).
	for g in stocks speculation nyse daifugo horserace; do
		n=4 o=""
		[ "$g" = horserace ] && o="-o races=4"
		set -- -b "bin/${g}_bot --seed 1" \
		    -b "python3 bots/python/greedy_bot.py --seed 2" \
		    -b "node bots/js/greedy_bot.js --seed 3" \
		    -b "bin/${g}_mcts --iterations 40 --seed 4"
		if [ "$g" = daifugo ]; then
			n=5
			set -- "$@" -b "python3 bots/python/mcts_bot.py --iterations 10 --seed 5"
		fi
		for fg in 0 $((2 * n)); do
			bin/referee -g "$g" -n "$n" $o -s 23 --duplicate \
			    --games $((4 * n)) --first-game "$fg" --no-sandbox \
			    --time-per-move 600000 --time-hello 600000 \
			    --results "$T/$g.$fg" "$@" >/dev/null 2>"$T/$g.err"
			jq -c 'select(.game >= '$((2 * n))') |
			    [.game, .places, .scores]' "$T/$g.$fg" |
			    sort >"$T/$g.$fg.g"
		done
		[ "$(wc -l <"$T/$g.0.g")" -eq $((2 * n)) ]
		diff "$T/$g.0.g" "$T/$g.$((2 * n)).g"
	done
}

@test "with no seed named, a tournament draws a secret one, keeps it in the journal (mode 0600), says it at the end and resumes with it" {
	sed '/"seed": 11/d; s/"output": "\([^"]*\)",/"output": "\1"/' "$T/t.json" > "$T/s.json"
	! grep -q '"seed"' "$T/s.json" || false
	interrupt_after 8 "$T/s.json" "$T/out"
	[ "$status" -eq 130 ]
	[ "$(stat -c %a "$T/out/journal.jsonl")" = 600 ]
	seed=$(head -1 "$T/out/journal.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seed"])')
	[ "$seed" != 1 ]
	run bin/tournament run --no-progress "$T/s.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"seed:    $seed (drawn fresh"* ]]
	[ "$(grep -c '"table"' "$T/out/journal.jsonl")" -eq 60 ]
	# Another run of the same file draws another seed.
	sed 's#"output": "[^"]*"#"output": "'"$T"'/out2"#' "$T/s.json" > "$T/s2.json"
	run bin/tournament run -q "$T/s2.json"
	[ "$status" -eq 0 ]
	seed2=$(head -1 "$T/out2/journal.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["seed"])')
	[ "$seed2" != "$seed" ]
	# A file that names one is warned about.
	sed 's#"output": "[^"]*"#"output": "'"$T"'/named"#' "$T/t.json" > "$T/n.json"
	run bin/tournament run --no-progress "$T/n.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"names the seed 11: whoever knows it"* ]]
}

@test "a table's seed, published with its logs, gives away neither the tournament's seed nor another table's" {
	mkfile "$T/t.json" "$T/o" 3
	run bin/tournament run -q "$T/t.json"
	[ "$status" -eq 0 ]
	# from the games' seeds (the logs show them) each table's seed is
	# recovered, as anyone could; it does not lead back to the master
	run python3 tests/seedinv.py "$T/o/journal.jsonl" 11
	[ "$status" -eq 0 ]
	[[ "$output" == "tables 5, recovered 5, master 0" ]]
}

@test "a bot command or a referee that cannot be executed is refused before any table starts, naming the bot" {
	sed 's#python3 '"$T"'/det.py c#'"$T"'/no-such-bot#' "$T/t.json" > "$T/m.json"
	run bin/tournament run -q "$T/m.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot c: cannot execute '$T/no-such-bot'"* ]]
	[ ! -e "$T/out/journal.jsonl" ]
	sed 's#python3 '"$T"'/det.py c#no-such-command-xyz#' "$T/t.json" > "$T/m.json"
	run bin/tournament run -q "$T/m.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot c: cannot execute 'no-such-command-xyz': not found"* ]]
	CARDARENA_REFEREE=$T/no-referee run bin/tournament run -q "$T/t.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the referee $T/no-referee cannot be executed"* ]]
	# A bot whose command, dir or env names a path inside the output
	# directory (hidden from bots: its journal holds every seed) would
	# unhide it: refused before anything is played.
	mkdir -p "$T/out"
	cp "$T/det.py" "$T/out/det.py"
	sed 's#'"$T"'/det.py c#'"$T"'/out/det.py c#' "$T/t.json" > "$T/h.json"
	run bin/tournament run -q "$T/h.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot c: its command names $T/out/det.py, inside the output directory"* ]]
	[ ! -e "$T/out/journal.jsonl" ]
	sed 's#"command": "python3 '"$T"'/det.py c"#"command": "python3 det.py c", "dir": "'"$T"'/out"#' "$T/t.json" > "$T/h.json"
	run bin/tournament run -q "$T/h.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot c: its \"dir\" $T/out lies inside the output directory"* ]]
}

@test "one runner: no referee command line is built and no process forked outside the pool's spawner" {
	# Processes are forked only by referee/proc.c (the bots, and every
	# helper program through proc_helper), contain.c, nsbox.c and sweep.c
	# (containment's own: the sandbox's launcher, which forks the bot's
	# init and the bot, the straggler sweep's kill and its watchdog); the
	# referee's command line only in tournaments/pool/pool.c.
	run sh -c "grep -lE '\\bfork\\(|execv|execl|posix_spawn|popen\\(|system\\(' \
	    referee/*.c referee/engine/*.c referee/engine/games/*.c tournaments/*.c tournaments/*/*.c tools/*/*.c bots/*.c bots/lib/*.c | sort"
	echo "$output"
	[ "$output" = "$(printf 'referee/contain.c\nreferee/nsbox.c\nreferee/proc.c\nreferee/sweep.c')" ]
	run sh -c "grep -l -e '\"--game-list\"' -e '\"--first-game\"' -e '\"--results\"' tournaments/*.c tournaments/*/*.c"
	[ "$output" = "tournaments/pool/pool.c" ]
	# The fault names are written once (referee/results.c, proto.c's
	# protocol names, contain.c's limits).
	run sh -c "grep -l '\"hello_timeout\"\\|\"line_too_long\"' referee/*.c tournaments/*.c tournaments/*/*.c | sort"
	[ "$output" = "$(printf 'referee/proto.c\nreferee/results.c')" ]
}

@test "one referee run of 30,000 games: its list of games is short ranges, not 30,000 numbers in one argument (over 128 KiB: 'Argument list too long')" {
	cat >"$T/big.json" <<EOF
{"name": "big", "game": "horserace", "options": {"races": 1}, "seats": 3,
 "bots": [{"name": "a", "command": "bin/random --seed 1"},
          {"name": "b", "command": "bin/random --seed 2"},
          {"name": "c", "command": "bin/random --seed 3"}],
 "deals": 30000, "deals_per_run": 30000, "duplicate": false, "concurrency": 1,
 "sandbox": false,
 $TOUR_LIMITS, "output": "$T/big"}
EOF
	run bin/tournament run -q "$T/big.json"
	echo "$output" | tail -5
	[ "$status" -eq 0 ]
	[[ "$output" != *"Argument list too long"* ]]
	[ "$(grep -c '"table"' "$T/big/journal.jsonl")" -eq 30000 ]
	# one run: one log for the table's 30,000 games
	[ "$(ls "$T/big/logs" | grep -c 'jsonl$')" -eq 1 ]
}

@test "a deal book: two tournaments of other seeds meet the same deals, in order and repeated; a bad book is refused at the start" {
	python3 - "$T/book" <<'PY'
import json, random, sys
ranks, suits = "A23456789TJQK", "SHDC"
rng = random.Random(7)
with open(sys.argv[1], "w") as f:
    f.write("# three daifugo deals\n")
    for i in range(3):
        deck = [r + s for s in suits for r in ranks] + ["JK", "JK"]
        rng.shuffle(deck)
        f.write(json.dumps({"deck": deck, "seating": [0, 1, 2, 3, 4]}) + "\n\n")
PY
	for s in 1 2; do
		cat >"$T/b$s.json" <<EOF2
{"game": "daifugo", "options": {"deals": 1}, "seats": 5, "deals": 4, "duplicate": false,
 "bots": [{"name": "a", "command": "python3 $T/det.py a"}, {"name": "b", "command": "python3 $T/det.py b"},
          {"name": "c", "command": "python3 $T/det.py c"}, {"name": "d", "command": "python3 $T/det.py d"},
          {"name": "e", "command": "python3 $T/det.py e"}],
 "deal_book": "$T/book", "seed": $s, "output": "$T/bo$s", $TOUR_LIMITS}
EOF2
		run bin/tournament run -q "$T/b$s.json"
		[ "$status" -eq 0 ]
	done
	python3 - "$T/bo1" "$T/bo2" <<'PY'
import glob, json, sys
def deals(d):
    h = json.loads(open(d + "/journal.jsonl").readline())
    assert h["deal_book"].startswith("3 deals, "), h
    out = {}
    for f in glob.glob(d + "/logs/*.jsonl"):
        for l in open(f):
            e = json.loads(l)
            if e.get("type") == "game_start":
                out[e["game"]] = (json.dumps(e["deal"], sort_keys=True), e["seed"])
    return out
a, b = deals(sys.argv[1]), deals(sys.argv[2])
assert sorted(a) == sorted(b) == [0, 1, 2, 3], (sorted(a), sorted(b))
for g in a:
    # the same deal whatever the seed
    assert a[g][0] == b[g][0] and a[g][1] != b[g][1], g
# in order, and repeated: deal 3 is the book's first again
assert len({a[0][0], a[1][0], a[2][0]}) == 3 and a[3][0] == a[0][0]
PY
	# the logs show the book's decks
	grep -q '"deal_book":\[' "$T"/bo1/logs/*.jsonl
	printf '{"deck": ["3D", "3D"]}\n' >> "$T/book"
	run bin/tournament run -q "$T/b1.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'"deal_book": '"$T/book"': deal 4: '* ]]
}

@test "a bot that crashes in every game gets a closing note: where its stderr is, and botcheck's command" {
	one_race "$T/c.json" "$T/c" "/bin/false" dud "$TOUR_LIMITS,"
	run bin/tournament run --no-progress "$T/c.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"dud crashed (exited or closed its output) 1 time in 1 game; its stderr is in"* ]]
	[[ "$output" == *"$T/c/logs/*.botN.stderr"* ]]
	[[ "$output" == *"It crashed in every game: it may not start here at all; try"*"bin/botcheck -g horserace -- /bin/false"* ]]
	# A bot that does not crash gets no such note.
	[[ "$output" != *"r1 crashed"* ]]
	# botcheck's command is quoted for the shell, whatever the bot's
	one_race "$T/q.json" "$T/q" "sh -c \\\"exit 3\\\"" quoted "$TOUR_LIMITS,"
	run bin/tournament run --no-progress "$T/q.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bin/botcheck -g horserace -- 'sh -c \"exit 3\"'"* ]]
}

@test "a referee that fails: its last message is quoted with the table's bots by their tournament names, and its stderr file names them at its head" {
	printf '#!/bin/sh\necho "referee: bot 1: cannot go on" >&2\nexit 1\n' >"$T/ref"
	chmod +x "$T/ref"
	one_race "$T/f.json" "$T/f" "bin/random --seed 3" solo "\"referee\": \"$T/ref\", $TOUR_LIMITS,"
	run bin/tournament run --no-progress "$T/f.json"
	echo "$output"
	[ "$status" -eq 1 ]
	f=$(ls "$T"/f/logs/*.referee.stderr)
	head -n 1 "$f" | grep -q '^# the referee.s bots: bot 0: [a-z0-9]*, bot 1: [a-z0-9]*, bot 2: [a-z0-9]*$'
	name=$(head -n 1 "$f" | sed 's/.*bot 1: \([a-z0-9]*\),.*/\1/')
	[[ "$output" == *"table 0: the referee exited with status 1; \"referee: bot 1 ($name): cannot go on\"; see $f"* ]]
	# the retry hint is not "run again" alone: the warning says why
	[[ "$output" == *"the warnings above say why"* ]]
}

@test "a referee's results pipe holds some 1,000 lines (1 MiB): no referee waits while the runner syncs the journal" {
	[ "$(cat /proc/sys/fs/pipe-max-size)" -ge 1048576 ] || skip "pipe-max-size under 1 MiB here"
	# a referee that notes the size of its stdout's pipe (F_GETPIPE_SZ)
	printf '#!/bin/sh\npython3 -c "import fcntl, sys; print(fcntl.fcntl(1, 1032), file=sys.stderr)" 2>>"%s"\nexec "%s" "$@"\n' \
	    "$T/sizes" "$PWD/bin/referee" >"$T/ref"
	chmod +x "$T/ref"
	one_race "$T/p.json" "$T/p" "bin/random --seed 3" solo "\"referee\": \"$T/ref\", $TOUR_LIMITS,"
	run bin/tournament run -q "$T/p.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/sizes")" -eq 1048576 ]
}

@test "the sandbox is checked once by the tournament, not again by each referee run" {
	bin/referee -g horserace --sandbox -q -b bin/random -b bin/random \
	    -b bin/random >/dev/null 2>&1 || skip "bubblewrap cannot run here"
	# a bwrap that notes each command it runs (the check runs `true`),
	# where the bots' users and the tournament's check may run it
	chmod 711 "$T"
	mkdir -m 755 "$T/w"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec %s "$@"\n' "$T/w/calls" \
	    "$(command -v bwrap)" >"$T/w/bwrap"
	chmod 755 "$T/w/bwrap"
	: >"$T/w/calls"
	chmod 666 "$T/w/calls"
	one_race "$T/t.json" "$T/out" "bin/random --seed 7" r0 \
	    '"sandbox": true, "bot_user": "same", "deals_per_run": 2,'
	sed -i 's/"deals": 1,/"deals": 6,/' "$T/t.json"
	run env CARDARENA_BWRAP="$T/w/bwrap" bin/tournament run -q "$T/t.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(played "$T/out")" -eq 6 ]
	# three runs of two deals, three bots each: nine bot starts, one check
	[ "$(grep -c 'bin/random --seed [127]$' "$T/w/calls")" -eq 9 ]
	[ "$(grep -c ' true$' "$T/w/calls")" -eq 1 ]
	# the referee on its own checks it (and --sandbox-checked does not)
	: >"$T/w/calls"
	run env CARDARENA_BWRAP="$T/w/bwrap" bin/referee -g horserace -q \
	    --bot-user same --sandbox -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 0 ]
	[ "$(grep -c ' true$' "$T/w/calls")" -eq 1 ]
	: >"$T/w/calls"
	run env CARDARENA_BWRAP="$T/w/bwrap" bin/referee -g horserace -q \
	    --bot-user same --sandbox-checked -b bin/random -b bin/random \
	    -b bin/random
	[ "$status" -eq 0 ]
	[ "$(grep -c ' true$' "$T/w/calls")" -eq 0 ]
	[ "$(grep -c 'bin/random$' "$T/w/calls")" -eq 3 ]
}

# Plays 4 tables of 3 (4 pidrec.py bots held at their second game while
# $T/hold exists), $1 deals, duplicate $2, at -j 1 into $T/$3 with runs
# ended on time after their first game (CARDARENA_RUN_SECONDS=0); once
# the first game is journalled the hold goes.  Checks that every game of
# every table is in the journal once, that no bot process met a deal
# twice and each bot started once per lifetime of a run ($4 lifetimes a
# run); the games of the first run (its log t00000.d000) in $T/first.
ended_on_time() {
	local deals=$1 dup=$2 out=$T/$3 lives=$4
	rm -rf "$T/rec"
	pidfile "$T/e.json" "$deals" '"auto"' "$dup" "$out"
	sed -i "s|/rec/\([a-c]\)\"|/rec/\1 --hold=$T/hold\"|" "$T/e.json"
	sed -i 's|"bots": \[|"bots": [{"name": "d", "command": "python3 '"$T"'/pidrec.py '"$T"'/rec/d --hold='"$T"'/hold"},|' "$T/e.json"
	touch "$T/hold"
	CARDARENA_RUN_SECONDS=0 bin/tournament run -q -j 1 "$T/e.json" \
	    >"$T/e.out" 2>&1 &
	pid=$!
	wait_for more_than 0 "$out"
	rm "$T/hold"
	wait "$pid"
	python3 - "$out" "$T/rec" "$deals" "$lives" >"$T/first" <<'PY'
import collections, json, os, sys
out, rec, deals, lives = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
g = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))
     if '"table"' in l]
per = len(g) // (4 * deals)
for t in range(4):
    mine = sorted(x["game"] for x in g if x["table"] == t)
    assert mine == list(range(deals * per)), (t, mine)
runs = [f for f in os.listdir(os.path.join(out, "logs"))
        if f.endswith(".jsonl")]
seen = collections.defaultdict(list)
starts = 0
for name in os.listdir(rec):
    for line in open(os.path.join(rec, name)):
        who, what = line.split()[:2]
        if what == "start":
            starts += 1
        else:
            seen[who].append(int(what) // per)
assert starts == 3 * lives * len(runs), (starts, lives, len(runs))
for who, d in seen.items():
    assert len(d) == len(set(d)), (who, d)
print(" ".join(str(x["game"]) for x in sorted(g, key=lambda x: x["game"])
               if x.get("log", "").endswith("t00000.d000.jsonl")))
PY
}

@test "auto chunks with more tables than slots: the first run ends on time as it plays, no game lost or played twice, no bot started twice for the pace" {
	# the first run (table 0, every deal listed) is ended after its first
	# game: it finishes the game in play (the second) and ends; the
	# next run of the table begins at deal 2, every bot of a run once
	ended_on_time 5 false en 1
	head -n 1 "$T/en/logs/t00000.d000.jsonl" | grep -q '"game_list":\[0,1,2,3,4\]'
	# (the referee looks at the signal before each game: one that lands
	# before the second game began ends the run after the first, which
	# the referee is free to do; which happens is a matter of timing)
	case $(cat "$T/first") in
	"0 1") next=2 ;;
	"0") next=1 ;;
	*) cat "$T/first"; false ;;
	esac
	head -n 1 "$T/en/logs/t00000.d00$next.jsonl" | grep -q "\"game_list\":\[$next[],]"
	# duplicate: the deal in play ends it, its later seat rotations play
	# up to it (deals 0 and 1 from every seat, or deal 0 alone as above),
	# then the next deals
	ended_on_time 4 true ed 3
	case $(cat "$T/first") in
	"0 1 2 3 4 5") next=2 ;;
	"0 1 2") next=1 ;;
	*) cat "$T/first"; false ;;
	esac
	head -n 1 "$T/ed/logs/t00000.d00$next.jsonl" | grep -q "\"game_list\":\[$((next * 3))[],]"
	# a bad value is refused
	run env CARDARENA_RUN_SECONDS=soon bin/tournament run -q "$T/e.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'CARDARENA_RUN_SECONDS=soon: not a number'* ]]
}

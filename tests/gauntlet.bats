#!/usr/bin/env bats
# End-to-end tests of `tournament gauntlet` with real bots: a heuristic
# bot against random ones is accepted (H1), a random bot against the
# heuristic is rejected (H0), a random bot equal to its random pool is
# rejected against a wide elo1, the same seed gives the same result at any
# -j, the progress line shows the LLR and its bounds, --max-deals stops
# undecided (exit 3), --no-duplicate and --log-dir, and the command line's
# errors.

load helpers

@test "gauntlet: a heuristic bot against random ones is accepted (H1), with progress lines" {
	run bin/tournament gauntlet -g nyse -n 3 --time-per-move 600000 -s 5 --elo1 50 -j 2 \
	    -c bin/nyse_bot -p 'bin/random --seed 1' -p 'bin/random --seed 2'
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"result: H1"* ]]
	# the verdict says what it means for the bounds given
	echo "$output" | grep -Fx 'result: H1: the candidate gains more than elo0 +0 Elo (one that gains +0 or less ends here at most alpha 0.05 of the time)'
	[[ "$output" == *"LLR "*"(-2.94, 2.94)"* ]]
	echo "$output" | grep -E '^[0-9]+ deals, [0-9]+ games; score [0-9.]+%; Elo \+(inf \[\+[0-9.]+, \+inf\]|[0-9.]+)'
	echo "$output" | grep -E '^SPRT: elo0 0, elo1 50, alpha 0.05, beta 0.05; LLR [0-9.]+'
}

@test "gauntlet: a random bot against the heuristic one is rejected (H0)" {
	run bin/tournament gauntlet -g stocks -n 3 --time-per-move 600000 -s 2 --elo1 50 \
	    -c 'bin/random --seed 4' -p bin/stocks_bot
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"result: H0"* ]]
	echo "$output" | grep -Fx 'result: H0: the candidate gains less than elo1 +50 Elo (one that gains +50 or more ends here at most beta 0.05 of the time); a smaller gain is not ruled out: see the interval'
	# (-inf when the candidate lost every pairing of every unit)
	echo "$output" | grep -E 'Elo -([0-9.]+|inf) '
}

# Seeded bots are equal candidates only because the SDKs mix each match's
# nonce into --seed (else a seeded random bot is one fixed strategy in
# every unit, each numbering its games from 0, and such "equal"
# candidates were accepted far more often than alpha): the hello of
# every match carries its nonce, the same in every chunk of the match and
# another in another gauntlet.  The error rate over many runs is t_sprt's
# simulation.
@test "gauntlet: a candidate equal to its pool is not accepted" {
	mkdir "$T/units"
	run bin/tournament gauntlet -g horserace -n 3 --time-per-move 600000 -s 3 --elo0 0 \
	    --elo1 150 -j 2 -c 'bin/random --seed 9' \
	    -p 'bin/random --seed 1' -p 'bin/random --seed 2' --log-dir "$T/units" \
	    --deals-per-run 1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"result: H0"* ]]
	# another gauntlet, other deals: its match has another nonce
	mkdir "$T/units2"
	run bin/tournament gauntlet -q -g horserace -n 3 --time-per-move 600000 -s 4 --elo0 0 \
	    --elo1 150 -c 'bin/random --seed 9' \
	    -p 'bin/random --seed 1' -p 'bin/random --seed 2' --log-dir "$T/units2"
	python3 - "$T"/units/logs/*.jsonl -- "$T"/units2/logs/*.jsonl <<'PY'
import json, sys
k = sys.argv.index("--")
runs = [sys.argv[1:k], sys.argv[k + 1:]]
nonces = []
for paths in runs:
    seen = set()
    for path in paths:
        with open(path) as f:
            head = f.readline()
        # a run stopped at the verdict before its header has none (an
        # empty log, or one whose first line says it was aborted)
        if head.strip() and json.loads(head).get("type") == "header":
            seen.add(json.loads(head)["nonce"])
    assert len(paths) >= 1 and len(seen) == 1, seen
    nonces.append(seen.pop())
assert nonces[0] != nonces[1], nonces
PY
}

@test "gauntlet: the same seed gives the same result at -j 1 and -j 3" {
	a=$(bin/tournament gauntlet -q -g daifugo -n 4 --time-per-move 600000 -s 11 --elo1 80 -j 1 \
	    -c bin/daifugo_bot -p 'bin/random --seed 1' -p 'bin/random --seed 2')
	b=$(bin/tournament gauntlet -q -g daifugo -n 4 --time-per-move 600000 -s 11 --elo1 80 -j 3 \
	    -c bin/daifugo_bot -p 'bin/random --seed 1' -p 'bin/random --seed 2')
	echo "$a"
	[ -n "$a" ]
	[ "$a" = "$b" ]
}

@test "gauntlet: --max-deals stops undecided (result none, exit 3); --no-duplicate plays single games" {
	run bin/tournament gauntlet -q -g speculation -n 3 --time-per-move 600000 --max-deals 2 \
	    -c 'bin/random --seed 1' -p 'bin/random --seed 2'
	echo "$output"
	[ "$status" -eq 3 ]
	echo "$output" | grep -Fx 'result: none: undecided between elo0 +0 and elo1 +10 Elo after 2 deals (--max-deals)'
	[[ "$output" == *"2 deals, 6 games"* ]]
	run bin/tournament gauntlet -q -g speculation -n 3 --time-per-move 600000 --max-deals 5 \
	    --no-duplicate -c 'bin/random --seed 1' -p 'bin/random --seed 2'
	[ "$status" -eq 3 ]
	[[ "$output" == *"5 units, 5 games"* ]]
	[[ "$output" == *"single games"* ]]
}

# Issue 35: with one pool bot at a table of 4 its three seats went to
# three "bots" rated apart (1545 / 1490 / 1435, 99% likely one better
# than another, all one program).
@test "gauntlet: one pool bot at a table of 4 is one entry of the table, its copies named" {
	run bin/tournament gauntlet -g horserace -n 4 --time-per-move 600000 -s 3 --max-deals 4 \
	    --no-progress -O "$T/g" -c bin/horserace_bot -p 'bin/random --seed 2'
	echo "$output"
	[ "$status" -eq 3 ]
	echo "$output" | grep -Fx 'copies: pool-1 sits at 3 seats of every table (one program, so one entry in the table: its games and meetings count each seat)'
	# the table: the candidate and pool-1, no copy
	rows=$(echo "$output" | grep -E '^ +[0-9]+ +[a-z]' | awk '{print $2}' | sort | tr '\n' ' ')
	[ "$rows" = "candidate pool-1 " ]
	[[ "$output" == *"against pool-1 (bin/random --seed 2) at 3 seats; 1 table of 4"* ]]
	# the journal's header names the copies; rate of it agrees
	head -n 1 "$T/g/journal.jsonl" | python3 -c '
import json, sys
h = json.load(sys.stdin)
assert h["copies"] == {"pool-1.2": "pool-1", "pool-1.3": "pool-1"}, h'
	run bin/tournament rate -f json "$T/g/journal.jsonl"
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c '
import json, sys
r = json.load(sys.stdin)
players = {p["name"]: p for p in r["players"]}
assert sorted(players) == ["candidate", "pool-1"], players
assert players["pool-1"]["games"] == 3 * players["candidate"]["games"], players'
}

@test "gauntlet: --log-dir keeps each run's match log in its output directory" {
	run bin/tournament gauntlet -q -g nyse -n 3 --time-per-move 600000 --max-deals 2 \
	    --deals-per-run 1 --log-dir "$T" -c bin/nyse_bot -p 'bin/random --seed 2'
	[ "$status" -eq 3 ]
	log_complete "$T/logs/t00000.d000.jsonl"
	log_complete "$T/logs/t00000.d001.jsonl"
	[ ! -e "$T/logs/t00000.d002.jsonl" ]
	bin/replay --verify "$T/logs/t00000.d001.jsonl"
	[ "$(grep -c '"table"' "$T/journal.jsonl")" -eq 6 ]
}

@test "gauntlet: bad command lines and failing bots are one-line errors" {
	run bin/tournament gauntlet -g nyse -c bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"at least one pool bot"* ]]
	run bin/tournament gauntlet -c bin/random -p bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"-g GAME is required"* ]]
	run bin/tournament gauntlet -g chess -c bin/random -p bin/random
	[ "$status" -eq 2 ]
	[[ "$output" == *"no such game"* ]]
	run bin/tournament gauntlet -g nyse -c bin/random -p bin/random --elo0 10 --elo1 5
	[ "$status" -eq 2 ]
	[[ "$output" == *"elo0 must be below elo1"* ]]
	run bin/tournament gauntlet -g nyse -c bin/random -p bin/random --beta 0
	[ "$status" -eq 2 ]
	run bin/tournament gauntlet -g nyse -c bin/random -p bin/random -o board=1,1,1,1,1,1
	[ "$status" -eq 2 ]
	[[ "$output" == *"option board: the six values must be"* ]]
	run bin/tournament gauntlet -g nyse -c bin/random -p bin/random -o bord=1
	[ "$status" -eq 2 ]
	[[ "$output" == *"-o bord=1: nyse has no option 'bord'"* ]]
	run bin/tournament gauntlet -g nyse -n 3 --time-per-move 600000 -c "$T/missing-bot" -p bin/random
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot candidate: cannot execute '$T/missing-bot'"* ]]
	run bin/tournament gauntlet --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--elo0"* ]]
}

@test "gauntlet: Ctrl-C stops it undecided (result none, exit 3) with no process left" {
	cp bin/random "$T/random-$MARK"
	bin/tournament gauntlet -g daifugo -n 4 --elo0 0 --elo1 1 -j 2 \
	    -c "$T/random-$MARK --seed 1" -p "$T/random-$MARK --seed 2" \
	    > "$T/out" 2> "$T/err" &
	pid=$!
	wait_for grep -q 'gauntlet: 10 deals' "$T/err"
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	cat "$T/out" "$T/err"
	[ "$status" -eq 3 ]
	grep -q -E '^result: none: undecided between elo0 \+0 and elo1 \+1 Elo after [0-9]+ deals \(stopped\)$' "$T/out"
	grep -q -E '^[0-9]+ deals, [0-9]+ games' "$T/out"
	no_leftovers "random-$MARK"
}

@test "gauntlet: killed with SIGKILL and run again on its output directory, it reaches the same verdict on the same units" {
	cp bin/daifugo_bot "$T/dbot-$MARK"
	args=(-q -g daifugo -n 4 --time-per-move 600000 --time-hello 600000 -s 11 --elo1 80
	    --deals-per-run 2 -c "$T/dbot-$MARK" -p 'bin/random --seed 1' -p 'bin/random --seed 2')
	run bin/tournament gauntlet -O "$T/ref" "${args[@]}"
	[ "$status" -eq 0 ]
	ref=$output
	[[ "$ref" == *"result: H1"* ]]
	for i in 1 2 3; do
		bin/tournament gauntlet -O "$T/k" -j 2 "${args[@]}" > "$T/out" 2>&1 &
		pid=$!
		wait_for sh -c "[ \$(grep -c '\"table\"' '$T/k/journal.jsonl' 2>/dev/null || echo 0) -ge $((4 * i)) ] || ! kill -0 $pid 2>/dev/null"
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" || true
	done
	run bin/tournament gauntlet -O "$T/k" -j 2 "${args[@]}"
	[ "$status" -eq 0 ]
	[ "$output" = "$ref" ]
	no_leftovers "dbot-$MARK"
}

@test "gauntlet: a tournament file with a \"gauntlet\" object, its candidate named among its bots" {
	cat > "$T/g.json" <<EOF
{"name": "g", "game": "nyse", "seats": 3, $TOUR_LIMITS,
 "bots": [{"name": "r1", "command": "bin/random --seed 1"},
          {"name": "heur", "command": "bin/nyse_bot"},
          {"name": "r2", "command": "bin/random --seed 2"}],
 "seed": 5, "output": "$T/gout",
 "gauntlet": {"candidate": "heur", "elo1": 50}}
EOF
	run bin/tournament gauntlet -j 2 "$T/g.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"result: H1"* ]]
	[[ "$output" == *"SPRT: elo0 0, elo1 50"* ]]
	[[ "$output" == *"Rank  Name"* ]]
	[ -s "$T/gout/journal.jsonl" ]
	[ -s "$T/gout/results.json" ]
	# A file with no "gauntlet" object, or a bad one, is refused.
	sed 's/"gauntlet": {[^}]*}/"comment": "x"/' "$T/g.json" > "$T/r.json"
	run bin/tournament gauntlet "$T/r.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'no "gauntlet" object'* ]]
	sed 's/"candidate": "heur"/"candidate": "nobody"/' "$T/g.json" > "$T/b.json"
	run bin/tournament gauntlet "$T/b.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'"candidate": no bot called nobody'* ]]
	run bin/tournament gauntlet -g nyse "$T/g.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"takes no bots, game or referee flags"* ]]
	run bin/tournament run "$T/g.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"a gauntlet"*"tournament gauntlet $T/g.json"* ]]
}

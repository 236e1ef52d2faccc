#!/usr/bin/env bats
# End-to-end tests of bin/referee: the command line, matches between the
# C, Python and JavaScript bots, determinism, the log, --setup with the
# scripted bot, duplicate seating, results lines and stopping by signal.

load helpers

C1='bin/random --seed 1'
PY='python3 bots/python/random_bot.py --seed 2'
JS='node bots/js/random_bot.js --seed 3'
C4='bin/random --seed 4'

@test "--help explains the command line and how -b is split" {
	run bin/referee --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: referee -g GAME"* ]]
	[[ "$output" == *"split into words without a shell"* ]]
	[[ "$output" == *"--on-fault"* ]]
}

@test "--list-games lists every game with its player counts" {
	run bin/referee --list-games
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^horserace\ +3-8\ +Horse ]]
	[ "$(printf '%s\n' "$output" | wc -l)" -ge 1 ]
}

@test "--describe gives players and every option with type and default" {
	run bin/referee --describe horserace
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["players"]["min"], d["players"]["max"]')" = "[3, 8]" ]
	[ "$(jv "$output" '[o["type"] for o in d["options"] if o["name"] == "stack"]')" = '["int"]' ]
	[ "$(jv "$output" 'all("default" in o and "type" in o for o in d["options"])')" = true ]
}

@test "bad command lines give clear errors and status 2" {
	run bin/referee -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"no game"* ]]
	run bin/referee $LIMITS -g nosuch -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"no game 'nosuch' (see --list-games)"* ]]
	run bin/referee $LIMITS -g horserace
	[ "$status" -eq 2 ]; [[ "$output" == *"no bots"* ]]
	run bin/referee $LIMITS -g horserace -b "$C1" -b "$C4"
	[ "$status" -eq 2 ]; [[ "$output" == *"3 to 8 players, not 2"* ]]
	run bin/referee $LIMITS -g horserace -n 4 -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"-n 4 players but 3 bots"* ]]
	run bin/referee $LIMITS -g horserace -s -5 -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"-s -5: too small"* ]]
	run bin/referee $LIMITS -g horserace -o colour=red -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"no option 'colour'"* ]]
}

@test "an unknown game, game option or tournament key: did you mean the one close name" {
	run bin/referee $LIMITS -g horserac -b "$C1"
	[ "$status" -eq 2 ]
	[ "$output" = "referee: no game 'horserac' (did you mean horserace? see --list-games)" ]
	run bin/referee --describe Stock
	[ "$output" = "referee: no game 'Stock' (did you mean stocks? see --list-games)" ]
	run bin/referee $LIMITS -g horserace -o rcaes=2 -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"horserace has no option 'rcaes' (did you mean races? see --describe horserace)" ]]
	run bin/botcheck -g daifgo -- "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no game 'daifgo' (did you mean daifugo? see bin/referee --list-games)" ]]
	# nothing close, or two names as close: no guess
	run bin/referee $LIMITS -g chess -b "$C1"
	[ "$output" = "referee: no game 'chess' (see --list-games)" ]
	run bin/referee $LIMITS -g horserace -o colour=red -b "$C1" -b "$C4" -b "$C1"
	[[ "$output" != *"did you mean"* ]]
	echo '{"game": "horserace", "concurency": 2, "bots": [{"name":"a","command":"x"}]}' >"$T/bad.json"
	run bin/tournament run "$T/bad.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'unknown key "concurency" (did you mean "concurrency"?)' ]]
	echo '{"game": "nyce", "bots": [{"name":"a","command":"x"}]}' >"$T/bad.json"
	run bin/tournament run "$T/bad.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'unknown game "nyce" (did you mean nyse? '* ]]
	run bin/referee $LIMITS -g horserace -o stack=lots -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"option stack: 'lots' is not a whole number"* ]]
	run bin/referee $LIMITS -g horserace --on-fault shrug -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"not random, default or retire"* ]]
	run bin/referee $LIMITS -g horserace --time-per-move 0 -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"--time-per-move 0: too small"* ]]
	run bin/referee $LIMITS -g horserace -b "$C1" -b "'unclosed" -b "$C1"
	[ "$status" -eq 1 ]; [[ "$output" == *"bot 1: unterminated ' quote"* ]]
	run bin/referee $LIMITS -g horserace extra -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"unexpected argument 'extra'"* ]]
	run bin/referee --bogus
	[ "$status" -eq 2 ]; [ "$output" = "referee: unknown option --bogus (see referee --help)" ]
}

@test "a bot that cannot be executed is a clear error, nothing left running" {
	run bin/referee $LIMITS -g horserace -b "$C1" -b "./no/such/bot $MARK" -b "$C1"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bot 1: cannot execute './no/such/bot': No such file or directory"* ]]
}

@test "--setup errors name the file and the cause" {
	echo '{"deck": ["2S", "2S"]}' > "$T/dup.json"
	run bin/referee $LIMITS -g horserace --setup "$T/dup.json" -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"--setup $T/dup.json: setup: deck: deck card 1: 2S twice"* ]]
	echo '{"deck": [' > "$T/bad.json"
	run bin/referee $LIMITS -g horserace --setup "$T/bad.json" -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"--setup $T/bad.json: line 2"* ]]
	run bin/referee $LIMITS -g horserace --setup "$T/none.json" -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"--setup $T/none.json: No such file or directory"* ]]
	[[ "$output" != *"line -1"* ]]
	run bin/referee $LIMITS -g horserace --setup "$T" -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"--setup $T: Is a directory"* ]]
	echo '{"dealer": 0, "dealer": 2}' > "$T/twice.json"
	run bin/referee $LIMITS -g horserace --setup "$T/twice.json" -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"--setup $T/twice.json: line 1"*"duplicate object key"* ]]
}

@test "--deal-book: a NUL byte, an endless line or endless deals are refused as soon as read, naming the line" {
	printf '# a book\n\n{"deck": [\n' > "$T/bad"
	run bin/referee $LIMITS -g horserace --deal-book "$T/bad" -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]; [[ "$output" == *"--deal-book $T/bad:3: "* ]]
	# /dev/zero: one line without end, of NUL bytes (read to 1 GB before)
	run bin/referee $LIMITS -g horserace --deal-book /dev/zero -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]
	[ "$output" = "referee: --deal-book /dev/zero:1: a NUL byte (not a text file)" ]
	# a line without end from a pipe: read up to the limit, no further
	run bin/referee $LIMITS -g horserace --deal-book <(printf '{}\n'; tr '\0' x </dev/zero) -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == "referee: --deal-book /dev/fd/"*":2: longer than 1048576 bytes" ]]
	# deals without end: refused at the one past the most a book holds
	run bin/referee $LIMITS -g horserace --deal-book <(echo '# deals'; yes '{}') -b "$C1" -b "$C1" -b "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == "referee: --deal-book /dev/fd/"*":1000002: more than 1000000 deals" ]]
	# the tournament reads its "deal_book" alike
	cat > "$T/t.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 1, "deal_book": "/dev/zero", "output": "$T/out",
 "bots": [{"name": "a", "command": "$C1"}, {"name": "b", "command": "$C1"}, {"name": "c", "command": "$C1"}]}
EOF
	run bin/tournament run -q "$T/t.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *'"deal_book": /dev/zero:1: a NUL byte (not a text file)'* ]]
	[ ! -e "$T/out" ]
}

@test "a horserace match mixing the C, Python and JS bots completes" {
	run bin/referee $LIMITS -g horserace -s 42 --log "$T/m.log" -b "$C1" -b "$PY" -b "$JS" -b "$C4"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["type"], d["games"], d["faults"]')" = '["result", 1, [0, 0, 0, 0]]' ]
	[ "$(jv "$output" 'd["names"]')" = '["random", "random-py", "random-js", "random"]' ]
	log_complete "$T/m.log"
	[ "$(last_line "$T/m.log" | jv "$(cat)" 'd["places"]')" = "$(jv "$output" 'd["places"]')" ]
	lines_of "$T/m.log" action | grep -q '"source":"bot"'
	! lines_of "$T/m.log" fault || false
}

@test "same seed and bots: byte-identical actions and the same result" {
	for i in 1 2; do
		bin/referee $LIMITS -g horserace -s 7 -o races=6 --log "$T/r$i.log" \
		    -b "$C1" -b "$PY" -b "$JS" -b "$C4" > "$T/out$i"
		lines_of "$T/r$i.log" action > "$T/a$i"
		lines_of "$T/r$i.log" result | sed 's/,"t":[0-9]*//' > "$T/res$i"
	done
	[ -s "$T/a1" ]
	cmp "$T/a1" "$T/a2"
	cmp "$T/res1" "$T/res2"
	cmp "$T/out1" "$T/out2"
	lines_of "$T/r1.log" game_start | sed 's/"t":[0-9]*,//' > "$T/d1"
	lines_of "$T/r2.log" game_start | sed 's/"t":[0-9]*,//' > "$T/d2"
	cmp "$T/d1" "$T/d2"
	# A different seed deals differently.
	bin/referee $LIMITS -g horserace -s 8 -o races=6 --log "$T/r3.log" \
	    -b "$C1" -b "$PY" -b "$JS" -b "$C4" > /dev/null
	lines_of "$T/r3.log" game_start | sed 's/"t":[0-9]*,//' > "$T/d3"
	! cmp -s "$T/d1" "$T/d3" || false
}

@test "a log to a FIFO or a device is written there, its mode left alone, no stderr files beside it" {
	# as root, a chmod 0600 of the log path broke /dev/null for everyone
	mkfifo "$T/fifo"
	chmod 644 "$T/fifo"
	cat "$T/fifo" > "$T/fifo.out" &
	bin/referee $LIMITS -g nyse -n 2 -s 3 --log "$T/fifo" -b "$C1" -b "$C4" > /dev/null
	wait $!
	[ "$(stat -c %a "$T/fifo")" = 644 ]
	[ "$(jv "$(head -n 1 "$T/fifo.out")" 'd["type"]')" = '"header"' ]
	log_complete "$T/fifo.out"
	[ -z "$(ls "$T" | grep stderr)" ]
	if [ "$(id -u)" -eq 0 ]; then
		mknod "$T/null" c 1 3
		chmod 666 "$T/null"
		bin/referee $LIMITS -g nyse -n 2 -s 3 --log "$T/null" -b "$C1" -b "$C4" > /dev/null
		[ "$(stat -c %a "$T/null")" = 666 ]
		[ -z "$(ls "$T" | grep stderr)" ]
	fi
}

@test "the log: header, deal with hidden cards, messages with times, actions" {
	bin/referee $LIMITS -g horserace -s 3 --log "$T/m.log" -b "$C1" -b "$C4" -b "$C1" > /dev/null
	h=$(head -n 1 "$T/m.log")
	[ "$(jv "$h" 'd["cardarena"] != "", d["protocol"], d["log_format"], d["game"], d["seed"]')" = '[true, 1, 2, "horserace", 3]' ]
	[ "$(jv "$h" '[b["command"] for b in d["bots"]]')" = '["bin/random --seed 1", "bin/random --seed 4", "bin/random --seed 1"]' ]
	[ "$(jv "$h" 'd["options"]["players"], d["options"]["stack"]')" = '[3, 150]' ]
	g=$(lines_of "$T/m.log" game_start | head -n 1)
	[ "$(jv "$g" 'len(d["deal"]["stock_order"]) > 0, type(d["seed"]).__name__')" = '[true, "int"]' ]
	s=$(lines_of "$T/m.log" send | grep '"type":"request"' | head -n 1)
	[ "$(jv "$s" 'type(d["t"]).__name__, "stock_order" in json.dumps(d["msg"]["view"])')" = '["int", false]' ]
	[ "$(jv "$s" 'sorted(d["msg"].keys())')" = '["events", "game", "id", "legal", "seat", "time_left_ms", "type", "view"]' ]
	r=$(lines_of "$T/m.log" recv | head -n 1)
	[ "$(jv "$r" 'type(d["t"]).__name__, type(d["line"]).__name__')" = '["int", "str"]' ]
	[ "$(lines_of "$T/m.log" game_end | wc -l)" -eq 1 ]
	[ -e "$T/m.log.bot0.stderr" ]
	log_complete "$T/m.log"
	# its blocks, reserved a MiB ahead as it is written, are given back
	# at its close: what it holds on disk is about its size
	size=$(stat -c %s "$T/m.log")
	[ "$(($(stat -c '%b * %B' "$T/m.log")))" -lt $((size + 65536)) ]
}

@test "a log cut by a file size limit keeps every byte it wrote" {
	run bash -c "trap '' XFSZ; ulimit -f 100; exec bin/referee $LIMITS -g horserace -s 1 --games 5 -q --log '$T/m.log' -b '$C1' -b '$C4' -b '$C1'"
	[ "$status" -eq 3 ]
	[[ "$output" == *"log: File too large"* ]]
	[ "$(stat -c %s "$T/m.log")" -eq 102400 ]
}

@test "--setup and bin/scripted reproduce a rule situation" {
	echo '{"dealer": 0, "deck": ["2S", "3S", "2H", "3H", "2D", "3D", "2C"]}' > "$T/s.json"
	printf '%s\n' '# seat 1 bets 5 on spades, then stops' \
	    '{"type":"bet","kind":"win","suits":["S"],"amount":5}' '{"type":"done"}' > "$T/p1"
	printf '%s\n' '{"type":"done"}' > "$T/p2"
	run bin/referee $LIMITS -g horserace -s 1 -o races=1 --setup "$T/s.json" --log "$T/m.log" \
	    -b "$C1" -b "bin/scripted $T/p1" -b "bin/scripted $T/p2"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
	lines_of "$T/m.log" action > "$T/a"
	[ "$(sed -n 1p "$T/a" | jv "$(cat)" 'd["seat"], d["action"]')" = '[1, {"type": "bet", "kind": "win", "suits": ["S"], "amount": 5}]' ]
	[ "$(wc -l < "$T/a")" -eq 3 ]
	g=$(lines_of "$T/m.log" game_start)
	[ "$(jv "$g" 'd["deal"]["odds_cards"]')" = '["2S", "3S", "2H", "3H", "2D", "3D", "2C"]' ]
}

@test "bin/scripted exits non-zero at an illegal action (an exit fault)" {
	echo '{"dealer": 0}' > "$T/s.json"
	printf '%s\n' '{"type":"bet","kind":"win","suits":["S"],"amount":21}' > "$T/p1"
	run bin/referee $LIMITS -g horserace -s 1 -o races=1 --setup "$T/s.json" --log "$T/m.log" \
	    -b "$C1" -b "bin/scripted $T/p1" -b "$C4"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["fault_kinds"][1]["exit"], d["faults"]')" = '[1, [0, 1, 0]]' ]
	grep -q 'is not legal for seat 1' "$T/m.log.bot1.stderr"
	lines_of "$T/m.log" fault | grep -q '"detail":"exited with status 1"'
}

@test "--games with --duplicate rotates seats; --results has a line per game" {
	run bin/referee $LIMITS -g horserace -s 9 -o races=1 --games 6 --duplicate \
	    --results "$T/res" --log "$T/m.log" -b "$C1" -b "$PY" -b "$C4"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["games"]')" = 6 ]
	[ "$(wc -l < "$T/res")" -eq 6 ]
	# Each seat rotation is played whole, with its own bot processes:
	# games 0 and 3 (rotation 0), then 1 and 4, then 2 and 5.
	[ "$(jq -sc 'map(.game)' "$T/res")" = "[0,3,1,4,2,5]" ]
	[ "$(sed -n 3p "$T/res" | jv "$(cat)" 'd["game"], d["seats"], len(d["places"]), d["log"]')" = "[1, [2, 0, 1], 3, \"$T/m.log\"]" ]
	# Games 0-2 are one deal from every seat: the same seed.
	[ "$(grep -E '"game":[012],' "$T/res" | grep -o '"seed":[0-9]*' | sort -u | wc -l)" -eq 1 ]
	[ "$(sed -n 2p "$T/res" | jv "$(cat)" 'd["seed"]')" != "$(sed -n 1p "$T/res" | jv "$(cat)" 'd["seed"]')" ]
	# The bots stay alive across the games of a rotation, not across
	# rotations: one hello and one bye each per rotation.
	[ "$(lines_of "$T/m.log" send | grep -c '"type":"hello"')" -eq 9 ]
	[ "$(lines_of "$T/m.log" send | grep -c '"type":"bye"')" -eq 9 ]
	[ "$(lines_of "$T/m.log" send | grep -c '"type":"start"')" -eq 18 ]
	log_complete "$T/m.log"
}

@test "--game-list plays only the listed games" {
	run bin/referee $LIMITS -g horserace -s 9 -o races=1 --games 5 --game-list 1,3 \
	    --results - -q -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | without_warning | jq -sc 'map(.game)')" = "[1,3]" ]
	# A game listed twice would be played and reported twice.
	run bin/referee $LIMITS -g horserace -s 9 -o races=1 --games 5 --game-list 1,3,1 \
	    --results - -q -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--game-list: game 1 is given twice"* ]]
	# ranges: A-B lists A..B; one downward, or over a listed game, refused
	run bin/referee $LIMITS -g horserace -s 9 -o races=1 --games 8 --game-list 0-2,5,6-7 \
	    --results - -q -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | without_warning | jq -sc 'map(.game)')" = "[0,1,2,5,6,7]" ]
	run bin/referee $LIMITS -g horserace -s 9 -o races=1 --games 8 --game-list 3-1 \
	    -q -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--game-list: 3-1 runs downward"* ]]
	run bin/referee $LIMITS -g horserace -s 9 -o races=1 --games 8 --game-list 1-3,2 \
	    -q -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--game-list: game 2 is given twice"* ]]
	run bin/referee $LIMITS -g horserace -s 9 -o races=1 --games 8 --game-list 6-8 \
	    -q -b "$C1" -b "$C4" -b "$C1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--game-list 8: too large (from 0 to 7)"* ]]
}

# Starts a horserace match in the background, bot 0 tests/bots/hostile.py
# silent (more of its arguments in $1), logging to $T/m.log; waits for
# its first request and checks the bot runs.  The referee's pid in $pid.
start_silent() {
	bin/referee $LIMITS -g horserace -s 1 --log "$T/m.log" \
	    -b "python3 tests/bots/hostile.py silent $MARK${1:+ $1}" -b "$C1" -b "$C4" &
	pid=$!
	wait_for grep -q '"type":"request"' "$T/m.log"
	pgrep -f -- "$MARK" >/dev/null
}

@test "SIGTERM: the referee kills every bot and grandchild, the log says why" {
	start_silent
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 143 ]
	[ "$(last_line "$T/m.log" | jv "$(cat)" 'd["type"]')" = '"aborted"' ]
	no_leftovers "$MARK"
	# the log of a stopped match is no error to the replay: a note, and
	# what it holds verifies
	run bin/replay --html "$T/m.html" "$T/m.log"
	[ "$status" -eq 0 ]
	[[ "$output" == "replay: note: $T/m.log: the match was stopped before its end (stopped by signal 15 (Terminated)); the replay shows it up to there" ]]
	[[ "$output" != *"does not verify"* ]]
	grep -q 'the match was stopped before its end' "$T/m.html"
	run bin/replay --verify "$T/m.log"
	[ "$status" -eq 0 ]
	[[ "$output" == "$T/m.log: ok ("*"; the match was stopped before its end, stopped by signal 15 (Terminated))" ]]
}

@test "SIGKILL of the referee: its bots die with it (PR_SET_PDEATHSIG)" {
	start_silent nochild
	kill -KILL "$pid"
	wait "$pid" || true
	no_leftovers "$MARK"
}

@test "bots' stderr is saved per bot with turn markers and a size cap" {
	run bin/referee $LIMITS -g horserace -s 2 -o races=3 --stderr-cap 400 --log "$T/m.log" \
	    -b "python3 tests/bots/hostile.py chatty $MARK" -b "$C1" -b "$PY"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
	f="$T/m.log.bot0.stderr"
	head -n 1 "$f" | grep -q '^--- cardarena: game 0, request [0-9]* ---$'
	grep -q '^chatty: request [0-9]*, chatter x*$' "$f"
	tail -n 1 "$f" | grep -q '^--- cardarena: [0-9]* more bytes dropped (the cap is 400) ---$'
	[ "$(head -c 400 "$f" | wc -c)" -eq 400 ]
	[ "$(wc -c < "$f")" -lt 480 ]
	[ ! -s "$T/m.log.bot1.stderr" ]
	# Without a log, bots' stderr goes to the referee's stderr, marked.
	run bin/referee $LIMITS -g horserace -s 2 -o races=1 -q \
	    -b "python3 tests/bots/hostile.py chatty $MARK" -b "$C1" -b "$PY"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--- cardarena: bot 0 (hostile-chatty), game 0, request"* ]]
}

@test "a match's places keep the game's own tie-breaks (nyse: equal scores, chip count)" {
	# Seed 52: seats 0 and 1 both score 12; nyse's tie-breaks put seat 1
	# before seat 0 (the bots' moves depend on the match's nonce too).
	run bin/referee $LIMITS -g nyse -n 3 -s 52 --results "$T/r.jsonl" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2' -b 'bin/random --seed 3'
	[ "$status" -eq 0 ]
	game=$(head -n 1 "$T/r.jsonl")
	[ "$(jv "$game" 'd["scores"]')" = '[12, 12, 16]' ]
	[ "$(jv "$game" 'd["places"]')" = '[3, 2, 1]' ]
	[ "$(jv "$output" 'd["places"]')" = '[3, 2, 1]' ]
	# Over several games, equal summed scores are parted by summed places.
	run bin/referee $LIMITS -g nyse -n 3 -s 8 --games 3 --results "$T/r3.jsonl" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2' -b 'bin/random --seed 3'
	[ "$status" -eq 0 ]
	python3 - "$T/r3.jsonl" "$(printf '%s\n' "$output" | without_warning)" <<'PY'
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])]
res = json.loads(sys.argv[2])
n = len(res["scores"])
tot = [sum(g["scores"][b] for g in games) for b in range(n)]
psum = [sum(g["places"][b] for g in games) for b in range(n)]
assert res["scores"] == tot, (res, tot)
want = [1 + sum(1 for j in range(n) if tot[j] > tot[i] or
        (tot[j] == tot[i] and psum[j] < psum[i])) for i in range(n)]
assert res["places"] == want, (res["places"], want)
PY
}

@test "a game replayed alone (--game-list, as a tournament resumes) is the same game, with C, Python and JS bots" {
	for b in "$C1" 'python3 bots/python/random_bot.py --seed 3' 'node bots/js/random_bot.js --seed 3'; do
		rm -f "$T/a.jsonl" "$T/p.jsonl"
		run bin/referee $LIMITS -g nyse -n 3 -s 3 --games 5 --results "$T/a.jsonl" -q \
		    -b "$b" -b "$b" -b "$C4"
		[ "$status" -eq 0 ]
		run bin/referee $LIMITS -g nyse -n 3 -s 3 --games 5 --game-list 2,4 \
		    --results "$T/p.jsonl" -q -b "$b" -b "$b" -b "$C4"
		[ "$status" -eq 0 ]
		python3 - "$T/a.jsonl" "$T/p.jsonl" <<'PY'
import json, sys
full = {json.loads(l)["game"]: json.loads(l) for l in open(sys.argv[1])}
part = [json.loads(l) for l in open(sys.argv[2])]
assert [p["game"] for p in part] == [2, 4], part
for p in part:
    f = full[p["game"]]
    assert (p["seed"], p["scores"], p["places"]) == (f["seed"], f["scores"], f["places"]), (p, f)
PY
	done
}

@test "every game's actions say their kind in \"type\"; an answer by value with the old \"action\" key is still taken" {
	for g in horserace stocks speculation nyse daifugo; do
		n=$(bin/referee --describe "$g" | jq .players.default)
		bots=()
		for i in $(seq 1 "$n"); do bots+=(-b "bin/random --seed $i"); done
		bin/referee $LIMITS -g "$g" -s 2 --log "$T/$g.log" "${bots[@]}" \
		    >/dev/null
		python3 - "$T/$g.log" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["type"] == "send" and d["msg"].get("type") == "request":
        for e in d["msg"]["legal"]:
            assert isinstance(e.get("type"), str) and "action" not in e, e
            n += 1
    if d["type"] == "action":
        assert isinstance(d["action"].get("type"), str), d
assert n > 0
PY
	done
	# A protocol 1 bot that answers by value with "action" for the kind.
	cat > "$T/old.py" <<'PY'
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "old"}), flush=True)
    elif m["type"] == "request":
        a = dict(m["legal"][0])
        a["action"] = a.pop("type")
        if isinstance(a.get("amount"), dict):
            a["amount"] = a["amount"]["min"]
        print(json.dumps({"id": m["id"], "action": a}), flush=True)
    elif m["type"] == "bye":
        break
PY
	for g in nyse daifugo; do
		run bin/referee $LIMITS -g "$g" -s 3 -b "python3 $T/old.py" -b 'bin/random --seed 1' -b 'bin/random --seed 2' -b 'bin/random --seed 3'
		[ "$status" -eq 0 ]
		[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0, 0]' ]
	done
}

@test "a fixed-seed match of each game logs the same lines twice (tools/seedlogs.sh)" {
	tools/seedlogs.sh "$T/a"
	tools/seedlogs.sh "$T/b"
	[ "$(ls "$T/a" | wc -l)" -eq 15 ]
	diff -r "$T/a" "$T/b"
}

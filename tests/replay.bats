#!/usr/bin/env bats
# bin/replay end to end: --verify on logs of every game (faults, duplicate
# matches, tournament directories) and on tampered logs (a changed action,
# a changed card of the deal, a changed result, each caught at its line),
# --emit re-feeding the random bot its exact input, the terminal replay
# (all-seeing, one seat, stepping keys under tmux), damaged, torn and
# unknown-version logs, and the HTML viewer in headless chromium.

load helpers

# Ends a tmux session a test started, even when it failed.
teardown() {
	show_failure
	if [ -n "${TMUX_SESSION:-}" ]; then
		tmux kill-session -t "$TMUX_SESSION" 2>/dev/null || true
	fi
}

# Plays a match of game $1 (seed $2) with the default number of random
# bots, bot i seeded i + 1, logging to $T/$1.log; further arguments go to
# the referee.
match() {
	local game=$1 seed=$2 n i bots=()
	shift 2
	n=$(bin/referee --describe "$game" | jq .players.default)
	for i in $(seq 1 "$n"); do
		bots+=(-b "bin/random --seed $i")
	done
	bin/referee $LIMITS -g "$game" -s "$seed" --log "$T/$game.log" "$@" "${bots[@]}" \
	    >/dev/null
}

# Options that keep a match of game $1 short (stocks: hitting its cap).
short() {
	case $1 in
	horserace) echo "-o races=2" ;;
	daifugo) echo "-o deals=2" ;;
	speculation) echo "-o deals=3" ;;
	stocks) echo "-o max_turns=20" ;;
	*) echo "" ;;
	esac
}

# Rewrites line $2 (1-based) of log $1 with the Python expression $3 over
# d (the line's JSON), keeping every other byte.
tamper() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
path, n, expr = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path, encoding="utf-8").read().split("\n")
d = json.loads(lines[n - 1])
exec(expr)
lines[n - 1] = json.dumps(d, separators=(",", ":"), ensure_ascii=False)
open(path, "w", encoding="utf-8").write("\n".join(lines))
PY
}

# verifies STATUS ARGS...: runs bin/replay --verify ARGS... (its report
# in $output, and shown) and checks it exits STATUS.
verifies() {
	local want=$1
	shift
	run bin/replay --verify "$@"
	echo "$output"
	[ "$status" -eq "$want" ]
}

# Changes line $2 of log $1 by the Python statement $3 (tamper) and
# checks bin/replay --verify then fails on it (exit 1); its report is in
# $output.
tampered_fails() {
	tamper "$1" "$2" "$3"
	verifies 1 "$1"
}

# The 1-based number of the first line of log $1 matching regex $2.
line_no() {
	grep -n -m1 -E "$2" "$1" | cut -d: -f1
}

@test "replay --verify passes on a log of every game" {
	for g in horserace daifugo speculation stocks nyse; do
		match "$g" 7 $(short "$g")
		verifies 0 "$T/$g.log"
		[[ "$output" == *"$g.log: ok (1 games, "*" messages identical)" ]]
	done
}

@test "replay --verify passes on several games, duplicate seats, a game list, a set-up, and a directory of logs" {
	mkdir "$T/tour" "$T/tour/sub"
	bin/referee $LIMITS -g horserace -s 5 -n 3 --games 6 --duplicate --log "$T/tour/a.log" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2' -b 'bin/random --seed 3' >/dev/null
	bin/referee $LIMITS -g speculation -s 6 -n 3 --games 4 --game-list 1,3 --log "$T/tour/sub/b.log" \
	    -b 'bin/random --seed 4' -b 'bin/random --seed 5' -b 'bin/random --seed 6' >/dev/null
	printf '%s\n' '{"dealer": 1, "deck": ["KS","5H","4C","KH","3S","6C","2D","AH","8C","QH"]}' \
	    > "$T/setup.json"
	bin/referee $LIMITS -g speculation -s 7 -n 3 -o deals=2 --setup "$T/setup.json" \
	    --log "$T/tour/c.log" -b 'bin/random --seed 7' -b 'bin/random --seed 8' \
	    -b 'bin/random --seed 9' >/dev/null
	echo "not a log" > "$T/tour/notes.txt"
	verifies 0 "$T/tour"
	[[ "$output" == *"a.log: ok (6 games,"* ]]
	# The games before a listed one are replayed first (game 0 before 1).
	[[ "$output" == *"b.log: ok (4 games,"* ]]
	[[ "$output" == *"c.log: ok (1 games,"* ]]
	[[ "$output" == *"verified 3 logs: 3 ok, 0 failed"* ]]
}

@test "replay --verify resolves only the options the user set (a nyse set-up board with the default board option)" {
	printf '{"board":[5,4,3,2,2,1]}\n' > "$T/board.json"
	match nyse 4 --setup "$T/board.json"
	grep -q '"options_given":\[\]' "$T/nyse.log"
	verifies 0 "$T/nyse.log"
	# An option set on the command line is named, and still verifies.
	match nyse 5 -o open_holdings=off
	grep -q '"options_given":\["open_holdings"\]' "$T/nyse.log"
	verifies 0 "$T/nyse.log"
}

@test "replay --verify passes on logs with faults under every policy" {
	for mode in exit_start exit_mid silent garbage illegal wrong_id longline; do
		# Short moves for the modes that never answer (the other
		# bots' timeouts, if any, verify as well).
		bin/referee $LIMITS -g horserace -s 11 -o races=2 --time-per-move 100 \
		    --time-bank 0 --grace 100 --log "$T/$mode.log" \
		    -b "python3 tests/bots/hostile.py $mode $MARK" \
		    -b 'bin/random --seed 1' -b 'bin/random --seed 2' >/dev/null
		grep -q '"type":"fault"' "$T/$mode.log"
	done
	for policy in default retire; do
		bin/referee $LIMITS -g horserace -s 11 -o races=2 --on-fault $policy \
		    --log "$T/$policy.log" -b "python3 tests/bots/hostile.py illegal $MARK" \
		    -b 'bin/random --seed 1' -b 'bin/random --seed 2' >/dev/null
	done
	grep -q '"retired":true' "$T/retire.log"
	verifies 0 "$T"/*.log
	[[ "$output" == *"verified 9 logs: 9 ok, 0 failed"* ]]
	no_leftovers "$MARK"
}

@test "replay --verify names and counts a log of a match stopped before its first game" {
	# A referee stopped while its bots start writes no header, only the
	# line that ends the match: such a log was skipped without a word.
	mkdir "$T/logs"
	match horserace 3 -o races=1
	cp "$T/horserace.log" "$T/logs/t000001.jsonl"
	printf '%s\n' '{"type":"aborted","n":0,"t":5120,"detail":"stopped by signal 15 (Terminated)"}' \
	    > "$T/logs/t000002.jsonl"
	echo "a bot's stderr" > "$T/logs/t000002.jsonl.bot0.stderr"
	verifies 0 "$T/logs"
	[[ "$output" == *"t000002.jsonl: no game (the match ended before its first game: stopped by signal 15 (Terminated))"* ]]
	[[ "$output" == *"verified 2 logs: 1 ok, 0 failed, 1 with no game"* ]]
	verifies 0 "$T/logs/t000002.jsonl"
	[[ "$output" == *"t000002.jsonl: no game"* ]]
	# a damaged log is still a failure, not a log without games
	echo '{"type":"garbage"}' > "$T/logs/t000003.jsonl"
	verifies 1 "$T/logs/t000003.jsonl"
}

@test "replay --verify catches a changed action" {
	match horserace 3
	n=$(line_no "$T/horserace.log" '^\{"type":"action".*"source":"bot","action":\{"type":"bet"')
	# The same bet, one chip more: still legal, but not what the bot answered.
	tampered_fails "$T/horserace.log" "$n" 'd["action"]["amount"] += 1 if d["action"]["amount"] < 20 else -1'
	[[ "$output" == *"horserace.log:$n: seat "*"'s action at step "*" (bot) differs"* ]]
	[[ "$output" == *"verified 1 logs: 0 ok, 1 failed"* ]]
}

@test "replay --verify catches a changed card in the deal" {
	match horserace 3
	n=$(line_no "$T/horserace.log" '^\{"type":"game_start"')
	# Swap the first two cards of the stock: a different race follows.
	tampered_fails "$T/horserace.log" "$n" 's = d["deal"]["stock_order"]; s[0], s[1] = s[1], s[0]'
	[[ "$output" == *"horserace.log:$n: the deal (all-seeing view) differs"* ]]

	# A card of a hand in a message a bot received.
	match daifugo 4
	n=$(line_no "$T/daifugo.log" '^\{"type":"send".*"type":"request"')
	python3 - "$T/daifugo.log" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
lines = open(path).read().split("\n")
i = lines[n - 1].index('"hand":["') + len('"hand":["')
c = lines[n - 1][i:i + 2]
lines[n - 1] = lines[n - 1][:i] + ("4S" if c != "4S" else "5S") + lines[n - 1][i + 2:]
open(path, "w").write("\n".join(lines))
PY
	verifies 1 "$T/daifugo.log"
	[[ "$output" == *"daifugo.log:$n: the request message to bot "*" differs at byte"* ]]
}

@test "replay --verify catches a changed result" {
	match stocks 5 $(short stocks)
	grep -q '"type":"game_end".*"capped":true' "$T/stocks.log"
	n=$(line_no "$T/stocks.log" '^\{"type":"game_end"')
	cp "$T/stocks.log" "$T/orig.log"
	tampered_fails "$T/stocks.log" "$n" 'd["places"] = d["places"][::-1] if d["places"] != d["places"][::-1] else [1] * len(d["places"])'
	[[ "$output" == *"stocks.log:$n: the places differs"* ]]

	cp "$T/orig.log" "$T/stocks.log"
	tampered_fails "$T/stocks.log" "$n" 'd["scores"][0] += 1'
	[[ "$output" == *"stocks.log:$n: the scores differs"* ]]

	cp "$T/orig.log" "$T/stocks.log"
	n=$(wc -l < "$T/stocks.log")
	tampered_fails "$T/stocks.log" "$n" 'd["scores"][0] += 1'
	[[ "$output" == *"stocks.log:$n: the match's result differs"* ]]

	cp "$T/orig.log" "$T/stocks.log"
	verifies 0 "$T/stocks.log"
}

# Feeds the bot at seat $2 of log $1 its emitted input through the random
# bot with seed $3 and compares its answers with the logged ones.
refeed() {
	local log=$1 seat=$2 seed=$3 bot
	bot=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "game_start":
        print(d["seats"][int(sys.argv[2])]); break' "$log" "$seat")
	bin/replay --emit --seat "$seat" "$log" > "$T/in.txt"
	# Exactly the bytes the bot was sent, line for line.
	grep "^{\"type\":\"send\",\"n\":[0-9]*,\"t\":[0-9]*,\"bot\":$bot," "$log" |
	    sed 's/^{"type":"send","n":[0-9]*,"t":[0-9]*,"bot":[0-9]*,"msg"://; s/}$//' > "$T/sent.txt"
	cmp "$T/in.txt" "$T/sent.txt"
	bin/random --seed "$seed" < "$T/in.txt" > "$T/out.txt"
	python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "recv" and d["bot"] == int(sys.argv[2]):
        print(d["line"])' "$log" "$bot" > "$T/logged.txt"
	[ -s "$T/logged.txt" ]
	diff "$T/logged.txt" "$T/out.txt"
}

@test "replay --emit fed to the random bot reproduces its logged answers" {
	match horserace 9 --games 2
	refeed "$T/horserace.log" 1 2
	refeed "$T/horserace.log" 3 4
	match daifugo 9 $(short daifugo)
	refeed "$T/daifugo.log" 0 1
	match nyse 9
	refeed "$T/nyse.log" 2 3
}

@test "replay --emit --upto K ends with the request that step K answered" {
	match speculation 12
	# A step taken by seat 2's bot: its frame number in the replay (one
	# deal frame, then one per action).
	k=$(python3 -c 'import json,sys
k = 0
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "action":
        k += 1
        if d["seat"] == 2 and d["source"] == "bot" and k > 20:
            print(k); break' "$T/speculation.log")
	bin/replay --emit --seat 2 --upto "$k" "$T/speculation.log" > "$T/in.txt"
	last=$(tail -n 1 "$T/in.txt")
	[ "$(jv "$last" 'd["type"]')" = '"request"' ]
	id=$(jv "$last" 'd["id"]')
	# The random bot answers that request exactly as logged.
	bin/random --seed 3 < "$T/in.txt" | tail -n 1 > "$T/ans.txt"
	logged=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "recv" and d["bot"] == 2 and json.loads(d["line"]).get("id") == int(sys.argv[2]):
        print(d["line"])' "$T/speculation.log" "$id")
	[ -n "$logged" ]
	[ "$(cat "$T/ans.txt")" = "$logged" ]
	# Step K in the terminal replay is that seat's action.
	bin/replay --no-keys --step "$k" "$T/speculation.log" | head -n 8 | grep -q "^-- step $k (game 0, step $((k - 1))): seat 2: "
	run bin/replay --emit --seat 2 --upto 999999 "$T/speculation.log"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--upto 999999: the replay has steps 0 to "* ]]
}

@test "replay LOG prints the match: cards with suit symbols, money, every step, the result" {
	match stocks 2
	run bin/replay --no-keys "$T/stocks.log"
	[ "$status" -eq 0 ]
	[[ "$output" == "stocks: Sid Sackson"* ]]
	[[ "$output" == *"== step 0: game 0 dealt (seed "* ]]
	[[ "$output" =~ [♠♥♦♣] ]]
	[[ "$output" =~ money:?\ [0-9]+ ]]
	[[ "$output" == *"== game 0 over"* ]]
	[[ "$output" == *"seat 0 (bot 0): place "* ]]
	steps=$(grep -c '^{"type":"action"' "$T/stocks.log")
	[ "$(printf '%s\n' "$output" | grep -c '^-- step ')" -eq "$steps" ]
	run bin/replay --no-keys --ascii "$T/stocks.log"
	! [[ "$output" =~ [♠♥♦♣] ]] || false
	run bin/replay --no-keys --step 5 "$T/stocks.log"
	[[ "$(printf '%s\n' "$output" | grep -m1 '^-- step ')" == "-- step 5 "* ]]
}

@test "replay --seat N shows exactly what that bot received" {
	match horserace 4
	run bin/replay --no-keys --seat 1 "$T/horserace.log"
	[ "$status" -eq 0 ]
	sent=$(grep -c '^{"type":"send","n":[0-9]*,"t":[0-9]*,"bot":1,"msg":{"type":"request"' "$T/horserace.log")
	[ "$(printf '%s\n' "$output" | grep -c '<- request #')" -eq "$sent" ]
	# Nothing of the all-seeing view: not the stock order, no one's sealed bets.
	! [[ "$output" == *"stock_order"* ]] || false
	! [[ "$output" == *"sealed_bets"* ]] || false
	[[ "$output" == *"-> answer: {\"id\":"* ]]
	run bin/replay --no-keys "$T/horserace.log"
	[[ "$output" == *"stock_order"* ]]
	run bin/replay --seat 9 "$T/horserace.log"
	[ "$status" -eq 2 ]
}

@test "replay LOG marks faults and the bots' debug text at their step" {
	bin/referee $LIMITS -g horserace -s 11 -o races=2 --log "$T/f.log" \
	    -b "python3 tests/bots/hostile.py illegal $MARK" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2' >/dev/null
	run bin/replay --no-keys "$T/f.log"
	[ "$status" -eq 0 ]
	nf=$(grep -c '^{"type":"fault"' "$T/f.log")
	[ "$nf" -gt 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '! fault of seat 0 (bot 0): illegal: ')" -eq "$nf" ]
	# Each fault right under the substituted move it caused.
	[ "$(printf '%s\n' "$output" | grep -A1 -- '(substituted after a fault) --$' | grep -c '! fault of seat 0')" -eq "$nf" ]
	bin/referee $LIMITS -g horserace -s 11 -o races=2 --log "$T/d.log" \
	    -b "python3 tests/bots/hostile.py chatty $MARK" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2' >/dev/null
	run bin/replay --no-keys "$T/d.log"
	nd=$(grep -c '^--- cardarena: game 0, request [0-9]* ---$' "$T/d.log.bot0.stderr")
	[ "$nd" -gt 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '> seat 0 says: chatty: request ')" -eq "$nd" ]
	run bin/replay --no-keys --seat 0 "$T/d.log"
	[ "$(printf '%s\n' "$output" | grep -c '> seat 0 says: chatty: request ')" -eq "$nd" ]
	run bin/replay --no-keys --seat 1 "$T/d.log"
	! [[ "$output" == *"says: chatty"* ]] || false
	no_leftovers "$MARK"
}

@test "replay on a terminal steps with keys (tmux)" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	match nyse 3
	s="replay-$MARK"
	TMUX_SESSION=$s
	tmux new-session -d -s "$s" -x 160 -y 50 -c "$PWD" \
	    "bin/replay $T/nyse.log; sleep 600" 3>&- 4>&-
	# Succeeds once the pane shows $1 (each key is answered by a redraw).
	shows() { [[ "$(tmux capture-pane -p -t "$s")" == *"$1"* ]]; }
	steps=$(grep -c '^{"type":"action"' "$T/nyse.log")
	wait_for shows "nyse replay: step 0 of "
	tmux send-keys -t "$s" Right
	wait_for shows "nyse replay: step 1 of "
	tmux send-keys -t "$s" n n
	wait_for shows "nyse replay: step 3 of "
	tmux send-keys -t "$s" Left
	wait_for shows "nyse replay: step 2 of "
	tmux send-keys -t "$s" G
	wait_for shows "nyse replay: step $steps of $steps"
	out=$(tmux capture-pane -p -t "$s")
	tmux send-keys -t "$s" q
	# The replay quits: the pane runs only the sleep after it.
	WAIT_MAX=60 wait_for eval '! pgrep -f "^bin/replay $T/nyse.log" >/dev/null'
	[[ "$out" == *"nyse replay: step $steps of $steps"* ]]
	[[ "$out" == *"== game 0 over"* ]]
}

@test "a log of an unknown format version, or damaged, is a clear error" {
	match horserace 1
	sed '1s/"log_format":2,/"log_format":99,/' "$T/horserace.log" > "$T/v99.log"
	run bin/replay "$T/v99.log"
	[ "$status" -eq 1 ]
	[[ "$output" == *"v99.log: log format version 99 is unknown (this replay reads version 2)"* ]]
	verifies 1 "$T/v99.log"
	# A line cut in the middle of the log.
	awk 'NR == 12 { print substr($0, 1, 40); next } { print }' "$T/horserace.log" > "$T/bad.log"
	run bin/replay "$T/bad.log"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.log:12: damaged log: "* ]]
	# Not a log at all.
	tail -n +2 "$T/horserace.log" > "$T/nohead.log"
	run bin/replay "$T/nohead.log"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not a cardarena match log"* ]]
}

@test "a torn last line is reported and the rest still shown" {
	match speculation 8
	nlines=$(wc -l < "$T/speculation.log")
	# A killed referee: the first 300 lines whole, the next one cut.
	{ head -n 300 "$T/speculation.log"; sed -n 301p "$T/speculation.log" | head -c 50; } > "$T/torn.log"
	run bin/replay --no-keys "$T/torn.log"
	echo "$output" | head -n 5
	[ "$status" -eq 0 ]
	[[ "$output" == *"torn.log:301: the last line is torn (50 bytes without an end of line): dropped, the 300 complete lines are used"* ]]
	[[ "$output" == *"-- step 10 "* ]]
	verifies 1 "$T/torn.log"
	[[ "$output" == *"the log ends before the match's result (its last line is torn)"* ]]
	bin/replay --html "$T/torn.html" "$T/torn.log" 2>/dev/null
	grep -q 'the last line is torn' "$T/torn.html"
	[ "$nlines" -gt 301 ]
}

@test "replay --html writes one self-contained page" {
	match daifugo 2
	bin/replay --html "$T/d.html" "$T/daifugo.log"
	[ "$(head -c 15 "$T/d.html")" = '<!DOCTYPE html>' ]
	grep -q '<script type="application/json" id="replay-data">{"format":"cardarena-replay/1"' "$T/d.html"
	# No external file or address: no src, href, url(), @import, http(s).
	! grep -Eiq '(src|href)=|url\(|@import|https?://' "$T/d.html" || false
	# Exactly the two scripts, no "</" from the data inside them.
	[ "$(grep -c '</script>' "$T/d.html")" -eq 2 ]
	bin/replay --html - "$T/daifugo.log" | cmp - "$T/d.html"
}

@test "the HTML viewer in headless chromium: every game, stepping, seat views, faults, debug text; screenshots" {
	need_browser
	pages=()
	for g in horserace daifugo speculation stocks nyse; do
		match "$g" 21 $(short "$g")
		bin/replay --html "$T/$g.html" "$T/$g.log"
		pages+=("$T/$g.html")
	done
	bin/referee $LIMITS -g horserace -s 11 -o races=2 \
	    --log "$T/horserace-faults.log" -b "python3 tests/bots/hostile.py illegal $MARK" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2' >/dev/null
	bin/referee $LIMITS -g horserace -s 11 -o races=2 --log "$T/horserace-debug.log" \
	    -b "python3 tests/bots/hostile.py chatty $MARK" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2' >/dev/null
	bin/replay --html "$T/horserace-faults.html" "$T/horserace-faults.log"
	bin/replay --html "$T/horserace-debug.html" "$T/horserace-debug.log"
	grep -q '"debug":\[{"seat":0,"bot":0,"text":"chatty: request' "$T/horserace-debug.html"
	rm -f build/screenshots/*.png
	run node tests/browser/viewer.test.mjs --shots build/screenshots "${pages[@]}" \
	    "$T/horserace-faults.html" "$T/horserace-debug.html"
	echo "$output" | grep -v '^ok '
	[ "$status" -eq 0 ]
	! [[ "$output" == *"not ok"* ]] || false
	[ "$(printf '%s\n' "$output" | grep -c '^ok ')" -ge 100 ]
	for g in horserace daifugo speculation stocks nyse; do
		[ -s "build/screenshots/$g.png" ]
		[ -s "build/screenshots/$g-seat1.png" ]
	done
	[ -s build/screenshots/horserace-faults-fault.png ]
	no_leftovers "$MARK"
}

@test "replay: a header with a bad set-up, an empty directory, a directory as LOG and clashing modes are clear errors" {
	match daifugo 5 -o deals=1
	sed '1s/"setup":null/"setup":{"bogus":1}/' "$T/daifugo.log" > "$T/setup.log"
	for mode in "" --verify --emit; do
		run bin/replay $mode ${mode:+--seat 0} "$T/setup.log"
		[ "$status" -eq 1 ]
		[[ "$output" == *"setup.log: the header's set-up: setup: unknown key \"bogus\""* ]]
	done
	mkdir "$T/none"
	echo 'not a log' > "$T/none/notes.txt"
	verifies 1 "$T/none"
	[[ "$output" == *"verified 0 logs"* ]]
	[[ "$output" == *"no match log found"* ]]
	run bin/replay "$T/none"
	[ "$status" -eq 1 ]
	[[ "$output" == *"none: Is a directory"* ]]
	verifies 2 --html "$T/x.html" "$T/daifugo.log"
	[[ "$output" == *"give one of --verify, --emit, --html and --table"* ]]
	[ ! -e "$T/x.html" ]
	run bin/replay --upto 3 "$T/daifugo.log"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--upto K goes with --emit"* ]]
	run sh -c 'bin/replay --verify "$1" > /dev/full' sh "$T/daifugo.log"
	[ "$status" -eq 1 ]
	[[ "$output" == *"stdout: No space left on device"* ]]
}

@test "answers' debug text from the C, Python and JS SDKs: in both replays, per step and seat, escaped" {
	echo '{"dealer": 0, "deck": ["2S", "3S", "2H", "3H", "2D", "3D", "2C"]}' > "$T/s.json"
	# bin/scripted sends an action's "debug" with it (the C SDK's bot_say).
	printf '%s\n' '{"type":"bet","kind":"win","suits":["S"],"amount":5,"debug":"<b>spades</b>\u001b[31m red"}' \
	    '{"type":"done","debug":"two\nlines"}' > "$T/p1"
	cat > "$T/say.py" <<'PY'
import sys
sys.path.insert(0, "bots/python")
import cardarena

def choose(request):
    request.say("py <i>%d legal</i>" % len(request.legal))
    i, amount = request.random_choice()
    return i if amount is None else (i, amount)

cardarena.run(choose, name="say-py")
PY
	cat > "$T/say.js" <<'JS'
const cardarena = require(process.cwd() + '/bots/js/cardarena');
cardarena.run((request, bot) => {
  bot.say('js </script> ' + request.legal.length);
  const [i, amount] = bot.randomChoice(request);
  return amount === null ? i : [i, amount];
}, { name: 'say-js' });
JS
	run bin/referee $LIMITS -g horserace -s 1 -o races=1 --setup "$T/s.json" \
	    --log "$T/d.log" -b "python3 $T/say.py --seed 1" \
	    -b "bin/scripted $T/p1" -b "node $T/say.js --seed 2"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
	lines_of "$T/d.log" recv | grep '"bot":1' | grep -q '\\"debug\\":\\"<b>spades'
	# The terminal: each answer's text under its step, control bytes
	# escaped, never sent to the terminal.
	run bin/replay --no-keys --ascii "$T/d.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *'> seat 1 debug: <b>spades</b>\033[31m red'* ]]
	[[ "$output" == *'> seat 1 debug: two'* ]]
	[ "$(printf '%s\n' "$output" | grep -A1 '> seat 1 debug: two' | tail -n 1 | tr -d ' ')" = lines ]
	[ "$(printf '%s\n' "$output" | grep -c '> seat 0 debug: py <i>[0-9]* legal</i>')" -eq \
	    "$(lines_of "$T/d.log" recv | grep '"bot":0' | grep -c 'debug')" ]
	[[ "$output" == *'> seat 2 debug: js </script> '* ]]
	[ "$(printf '%s' "$output" | tr -d '\n' | LC_ALL=C tr -d '[:print:]' | wc -c)" -eq 0 ]
	# The bet's text is on the bet's step: the line after its action.
	printf '%s\n' "$output" | grep -A3 'seat 1.*bet' | grep -q '> seat 1 debug: <b>spades'
	# One seat's replay shows that seat's text only.
	run bin/replay --no-keys --ascii --seat 1 "$T/d.log"
	[[ "$output" == *'> seat 1 debug: <b>spades'* ]]
	[[ "$output" != *'seat 0 debug'* ]]
	# The HTML page: the text as data, its "<" escaped, shown as text.
	bin/replay --html "$T/d.html" "$T/d.log"
	grep -q '"seat":1,"bot":1,"text":"\\u003cb>spades\\u003c/b>\\u001[bB]\[31m red","from":"answer"' "$T/d.html"
	grep -q '"text":"js \\u003c/script> ' "$T/d.html"
	! grep -q '<b>spades' "$T/d.html" || false
	grep -q 'x.from === "answer" ? " debug: "' "$T/d.html"
}

@test "--names with --verify is refused (it names the seats of a replay to show)" {
	verifies 2 --names a,b some.jsonl
	[ "$output" = "replay: --names goes with a replay to show, not --verify" ]
}

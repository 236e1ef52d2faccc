#!/usr/bin/env bats
# Fault tests: a horserace match with one hostile bot (tests/bots/hostile.py)
# at seat 0 and two well-behaved C random bots.  Every match must end with
# a complete result, the right fault counted for the right bot (and none
# for the others), and no process of the hostile bot or its grandchild
# left behind.  The limits are $LIMITS (helpers.bash), so a loaded machine
# never turns an answer into a timeout; only the tests of timeouts, whose
# hostile bot never answers, give short moves (100 ms) with a bank of
# 10 s per game, which keeps the good bots clear of a timeout however
# loaded the machine (the hostile bot spends its bank on its first one).

load helpers

# Plays a short match with hostile MODE at seat 0; the result line is in
# $output, the log in $T/m.log.
hostile_match() {
	run bin/referee $LIMITS -g horserace -s 11 -o races=2 --grace 100 \
	    --log "$T/m.log" "$@" \
	    -b "python3 tests/bots/hostile.py $MODE $MARK" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2'
	[ "$status" -eq 0 ]
	log_complete "$T/m.log"
	[ "$(jv "$output" 'd["games"], d["faults"][1:]')" = '[1, [0, 0]]' ]
	no_leftovers "$MARK"
}

# The limits of the tests of timeouts (see the top).
SHORT="--time-per-move 100 --time-bank 10000"

# Prints the count of fault kind $1 for bot 0.
count() {
	jv "$output" "d[\"fault_kinds\"][0][\"$1\"]"
}

# Prints the total of bot 0's faults.
total() {
	jv "$output" 'd["faults"][0]'
}

# Checks bot 0 was charged a fault of kind $1 for every request sent to
# it (helpers.bash's requests), and no other fault.
fault_per_answer() {
	local n
	n=$(requests)
	[ "$(count "$1")" -eq "$n" ]
	[ "$(total)" -eq "$n" ]
}

@test "a bot that exits at start: one exit fault, its seat autoplayed" {
	MODE=exit_start hostile_match
	[ "$(count exit)" -eq 1 ]
	[ "$(total)" -eq 1 ]
	lines_of "$T/m.log" fault | grep -q '"detail":"exited with status 3"'
	lines_of "$T/m.log" action | grep '"bot":0' | grep -q '"source":"autoplay","policy":"random"'
	! lines_of "$T/m.log" action | grep '"bot":0' | grep -q '"source":"bot"' || false
}

@test "a bot that exits mid-game: one exit fault, the open request closed" {
	MODE=exit_mid hostile_match
	[ "$(count exit)" -eq 1 ]
	[ "$(total)" -eq 1 ]
	lines_of "$T/m.log" action | grep '"bot":0' | grep -q '"source":"bot"'
	lines_of "$T/m.log" action | grep '"bot":0' | grep -q '"source":"fault"'
	lines_of "$T/m.log" fault | grep -q '"fault":"exit","id":[0-9]*,"detail":"exited with status 4"'
}

@test "a bot that never answers: a timeout per request, then killed" {
	MODE=silent hostile_match $SHORT
	n=$(requests)
	[ "$n" -ge 1 ]
	[ "$(lines_of "$T/m.log" fault | grep -c '"fault":"timeout","id":[0-9]')" -eq "$n" ]
	[ "$(count timeout)" -eq "$n" ]
	[ "$(total)" -eq "$n" ]
	# The first timeout spends the bank; later requests get the move's time.
	[ "$(lines_of "$T/m.log" fault | grep -c '"detail":"no answer within 10100 ms"')" -eq 1 ]
	[ "$(lines_of "$T/m.log" fault | grep -c '"detail":"no answer within 100 ms"')" -eq $((n - 1)) ]
	# Told of each fault, with the move played for it.
	lines_of "$T/m.log" send | grep '"bot":0' | grep -q '"type":"error","id":[0-9]*,"fault":"timeout".*"action":{'
}

@test "a bot that prints garbage: a malformed fault per answer" {
	MODE=garbage hostile_match
	fault_per_answer malformed
	lines_of "$T/m.log" recv | grep '"bot":0' | grep -q '"line":"this is not JSON {"'
}

@test "a bot that prints a 10 MiB line without a newline: one line_too_long" {
	MODE=longline hostile_match $SHORT
	[ "$(count line_too_long)" -eq 1 ]
	# The line never ends, so each later request times out.
	n=$(requests)
	[ "$(count timeout)" -eq $((n - 1)) ]
	lines_of "$T/m.log" recv | grep '"bot":0' | grep -q '"truncated":true'
	# Only a prefix of the line is logged.
	[ "$(wc -c < "$T/m.log")" -lt 1000000 ]
}

@test "a bot that answers illegal actions: an illegal fault per answer" {
	MODE=illegal hostile_match
	fault_per_answer illegal
	lines_of "$T/m.log" fault | grep -q '"detail":"index 5 is not in 0..4"'
	lines_of "$T/m.log" fault | grep -q '"detail":"not an action: '
}

@test "a bot that answers with a wrong id: a wrong_id fault per answer" {
	MODE=wrong_id hostile_match
	fault_per_answer wrong_id
	lines_of "$T/m.log" fault | grep -q '"detail":"answer for id 1001, the open request is 1"'
}

@test "a bot that never answers the hello: a timeout, and it still plays" {
	MODE=hello_hang hostile_match $SHORT --time-hello 5000
	lines_of "$T/m.log" fault | grep -q '"fault":"timeout","id":null,"detail":"no hello answer within 5000 ms"'
	[ "$(count timeout)" -ge 2 ]
}

@test "--on-fault default plays the game's default move for a faulty bot" {
	MODE=garbage hostile_match --on-fault default
	lines_of "$T/m.log" action | grep '"bot":0' | grep -q '"source":"fault","policy":"default"'
	! lines_of "$T/m.log" action | grep -q '"policy":"random"' || false
}

@test "--on-fault retire: one fault, then the seat is autoplayed for the game" {
	MODE=garbage hostile_match --on-fault retire
	[ "$(count malformed)" -eq 1 ]
	lines_of "$T/m.log" send | grep '"bot":0' | grep -q '"type":"error".*"retired":true'
	[ "$(requests)" -eq 1 ]
	lines_of "$T/m.log" action | grep '"bot":0' | grep -q '"source":"autoplay","policy":"retire"'
}

@test "faults are counted per game in --results and per bot in the result" {
	MODE=garbage
	run bin/referee $LIMITS -g horserace -s 11 -o races=3 --games 2 --results "$T/res" \
	    -q -b "python3 tests/bots/hostile.py $MODE $MARK" -b 'bin/random --seed 1' \
	    -b 'bin/random --seed 2'
	[ "$status" -eq 0 ]
	a=$(sed -n 1p "$T/res" | jv "$(cat)" 'd["faults"][0]')
	b=$(sed -n 2p "$T/res" | jv "$(cat)" 'd["faults"][0]')
	[ "$a" -ge 1 ] && [ "$b" -ge 1 ] || false
	[ "$(sed -n 1p "$T/res" | jv "$(cat)" 'd["faults"][1:]')" = '[0, 0]' ]
	no_leftovers "$MARK"
}

@test "each --results line counts the game's faults per bot and by kind" {
	run bin/referee $LIMITS -g nyse -n 3 -s 3 --games 2 --results "$T/r.jsonl" -q \
	    -b 'bin/random --seed 1' -b "python3 tests/bots/hostile.py illegal $MARK" \
	    -b 'bin/random --seed 4'
	[ "$status" -eq 0 ]
	python3 - "$T/r.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2
for r in rows:
    k = r["fault_kinds"]
    assert [sum(x.values()) for x in k] == r["faults"], r
    assert k[1]["illegal"] == r["faults"][1] > 0, r
    assert k[0]["illegal"] == k[2]["illegal"] == 0, r
PY
	no_leftovers "$MARK"
}

@test "a bot that floods bad lines and exits: one exit fault, the referee unharmed" {
	# Each bad line is answered with an error message; once the bot is
	# gone that write fails and the bot is lost in the middle of reading
	# its output (a nested read used to free the buffer being walked).
	# (--max-faults 0: without the cap of faults per game, every line
	# is read and answered while the bot lives; hostile.bats has the cap.)
	# Its failed hello retires it to autoplay, so the match does not wait
	# for it: 2000 lines (past the flood cap of 1000) end it well inside a
	# 3-race game; with 20000 and one race the game could end first under
	# load, the bot not yet gone (no exit fault, rightly).
	run bin/referee $LIMITS -g horserace -s 1 -o races=3 --log "$T/m.log" \
	    --results "$T/r.jsonl" -q --max-faults 0 \
	    -b "sh -c 'yes garbage | head -n 2000; : $MARK'" \
	    -b 'bin/random --seed 1' -b 'bin/random --seed 2'
	[ "$status" -eq 0 ]
	log_complete "$T/m.log"
	[ "$(jv "$(cat "$T/r.jsonl")" 'd["fault_kinds"][0]["exit"]')" -eq 1 ]
	[ "$(jv "$(cat "$T/r.jsonl")" 'd["faults"][1:]')" = '[0, 0]' ]
	no_leftovers "$MARK"
}

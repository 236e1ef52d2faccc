#!/usr/bin/env bats
# The Python and JavaScript bot SDKs (bots/python/cardarena.py,
# bots/js/cardarena.js): matches of the SDK bots complete without faults;
# the example bots make their documented choices on hand-made requests;
# answers by value, async choices, seeding, ranged entries, --help.

load helpers

PYR='python3 bots/python/random_bot.py --seed 2'
JSR='node bots/js/random_bot.js --seed 3'
PYG='python3 bots/python/greedy_bot.py --seed 4'
JSG='node bots/js/greedy_bot.js --seed 5'

# Feeds the lines of file $2 to bot command $1 (run from the top of the
# tree); its answers are in $output ($status its exit status).
feed() {
	run sh -c "$1 < '$2' 2> '$T/err'"
}

# Writes the hello of game $1 (seat 1 of 4) to $T/in.
hello() {
	printf '{"type":"hello","protocol":1,"game":"%s","options":{},"seat":1,"players":4,"games":1,"limits":{}}\n' "$1" > "$T/in"
}

# answers BOT LINE...: ends $T/in with a bye, feeds it to bot command BOT
# (feed) and checks it exits 0 with the answers LINE... after its hello.
answers() {
	local bot=$1 i=1
	shift
	echo '{"type":"bye"}' >> "$T/in"
	feed "$bot" "$T/in"
	[ "$status" -eq 0 ]
	for want; do
		[ "${lines[i]}" = "$want" ]
		i=$((i + 1))
	done
}

@test "horserace and daifugo matches of the four SDK bots complete without faults" {
	run bin/referee $LIMITS -g horserace -s 5 --games 2 --log "$T/h.log" \
	    -b "$PYR" -b "$JSR" -b "$PYG" -b "$JSG"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["games"], d["names"], d["faults"]')" = \
	    '[2, ["random-py", "random-js", "greedy-py", "greedy-js"], [0, 0, 0, 0]]' ]
	log_complete "$T/h.log"
	run bin/referee $LIMITS -g daifugo -s 5 -o deals=2 \
	    -b "$PYR" -b "$JSR" -b "$PYG" -b "$JSG"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0, 0]' ]
}

@test "the SDK random bots: seeded moves, the same seed the same match" {
	hello nyse
	for id in 1 2 3; do
		printf '{"type":"request","id":%d,"game":0,"seat":1,"view":{},"events":[],"legal":[{"a":0},{"a":1},{"a":2},{"a":3},{"a":4},{"a":5},{"a":6}],"time_left_ms":1000}\n' "$id" >> "$T/in"
	done
	printf '{"type":"request","id":4,"game":0,"seat":1,"view":{},"events":[],"legal":[{"type":"bet","amount":{"min":3,"max":90}}],"time_left_ms":1000}\n{"type":"bye"}\n' >> "$T/in"
	feed 'python3 bots/python/random_bot.py --seed 11' "$T/in"
	[ "$status" -eq 0 ]
	# random.Random(seed): randrange over the list, then randint in a range.
	want=$(python3 -c 'import random, json
r = random.Random(11)
print(json.dumps({"type": "hello", "name": "random-py", "version": "1"}, separators=(",", ":")))
for i in (1, 2, 3):
    print(json.dumps({"id": i, "index": r.randrange(7)}, separators=(",", ":")))
i = r.randrange(1)
print(json.dumps({"id": 4, "index": i, "amount": r.randint(3, 90)}, separators=(",", ":")))')
	[ "$output" = "$want" ]
	feed 'node bots/js/random_bot.js --seed 11' "$T/in"
	[ "$status" -eq 0 ]
	a=$output
	feed 'node bots/js/random_bot.js --seed 11' "$T/in"
	[ "$output" = "$a" ]
	[ "${lines[0]}" = '{"type":"hello","name":"random-js","version":"1"}' ]
	[[ "${lines[4]}" =~ ^\{\"id\":4,\"index\":0,\"amount\":[0-9]+\}$ ]]
	amount=$(jv "${lines[4]}" 'd["amount"]')
	[ "$amount" -ge 3 ] && [ "$amount" -le 90 ] || false
}

@test "greedy-py bets the best positive win bet, Kelly-staked, then is done" {
	hello horserace
	legal='[{"type":"done"},{"type":"bet","kind":"win","suits":["S"],"amount":{"min":1,"max":20}},{"type":"bet","kind":"win","suits":["H"],"amount":{"min":1,"max":20}},{"type":"bet","kind":"win","suits":["D"],"amount":{"min":1,"max":20}},{"type":"bet","kind":"win","suits":["C"],"amount":{"min":1,"max":20}}]'
	view() {	# odds, my_bets
		printf '{"phase":"bet","chips":[150,150,150,150],"stock":{"cards":41,"suits":[11,11,11,8],"jokers":0},"odds":%s,"my_bets":%s}' "$1" "$2"
	}
	req() {	# id, view
		printf '{"type":"request","id":%d,"game":0,"seat":1,"time_left_ms":1000,"view":%s,"events":[],"legal":%s}\n' "$1" "$2" "$legal" >> "$T/in"
	}
	# Spades at 10 to 1 win about 30%: worth 2.3 a chip; Kelly says 23% of
	# 150 chips, over the limit of 20.
	req 1 "$(view '[10,1,1,1]' '[]')"
	# Once a bet is down: done.
	req 2 "$(view '[10,1,1,1]' '[{"kind":"win","suits":["S"],"stake":20}]')"
	# Even odds everywhere: every win bet loses on average.
	req 3 "$(view '[1,1,1,1]' '[]')"
	# Hearts at 3 to 1: worth 0.2 a chip; Kelly says about 7%, 10 chips.
	req 4 "$(view '[1,3,1,1]' '[]')"
	answers "$PYG" '{"id":1,"index":1,"amount":20}' '{"id":2,"index":0}' \
	    '{"id":3,"index":0}'
	[ "$(jv "${lines[4]}" 'd["index"]')" = 2 ]
	amount=$(jv "${lines[4]}" 'd["amount"]')
	[ "$amount" -ge 5 ] && [ "$amount" -le 15 ] || false
}

@test "greedy-js sheds weak cards first and keeps jokers and 2s" {
	hello daifugo
	req() {	# id, order, hand size, legal
		printf '{"type":"request","id":%d,"game":0,"seat":1,"time_left_ms":1000,"view":{"phase":"%s","order":"%s","hand":%s},"events":[],"legal":%s}\n' \
		    "$1" "$2" "$3" "$(python3 -c 'import json,sys; print(json.dumps(["3S"] * int(sys.argv[1])))' "$4")" "$5" >> "$T/in"
	}
	p() {	# cards, kind, rank
		printf '{"type":"play","cards":%s,"kind":"%s","rank":%s}' "$1" "$2" "$3"
	}
	pass='{"type":"pass"}'
	# Following a single: the weakest card that beats it, no 2, no joker.
	req 1 play normal 7 "[$pass,$(p '["9S"]' single '"9"'),$(p '["QS"]' single '"Q"'),$(p '["2H"]' single '"2"'),$(p '["JK"]' joker null)]"
	# Only a 2 or a joker beats it and the hand is big: pass.
	req 2 play normal 7 "[$pass,$(p '["2H"]' single '"2"'),$(p '["JK"]' joker null)]"
	# The same with 3 cards left: the weaker of the two.
	req 3 play normal 3 "[$pass,$(p '["2H"]' single '"2"'),$(p '["JK"]' joker null)]"
	# Leading: the most cards.
	req 4 play normal 7 "[$(p '["4D"]' single '"4"'),$(p '["4C"]' single '"4"'),$(p '["4D","4C"]' set '"4"'),$(p '["9S"]' single '"9"')]"
	# Reversed order: 9 is weaker than 4, and the 3s are the power cards.
	req 5 play reversed 7 "[$pass,$(p '["3H"]' single '"3"'),$(p '["4D"]' single '"4"'),$(p '["9S"]' single '"9"')]"
	# The exchange: give the weakest cards.
	req 6 exchange normal 7 '[{"type":"give","cards":["AC","2C"]},{"type":"give","cards":["3S","4S"]},{"type":"give","cards":["3S","KD"]}]'
	answers "$JSG" '{"id":1,"index":1}' '{"id":2,"index":0}' \
	    '{"id":3,"index":1}' '{"id":4,"index":2}' '{"id":5,"index":3}' \
	    '{"id":6,"index":1}'
	[ "${lines[0]}" = '{"type":"hello","name":"greedy-js","version":"1"}' ]
}

@test "SDK bots answer by value and may choose asynchronously (JS)" {
	cat > "$T/byvalue.py" <<'EOF'
import cardarena
cardarena.run(lambda request: dict(request.legal[-1]), name="by-value-py")
EOF
	cat > "$T/async.js" <<EOF
const cardarena = require('$PWD/bots/js/cardarena.js');
class Late extends cardarena.Bot {
  async choose(request) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return request.legal[request.legal.length - 1];
  }
}
new Late({ name: 'async-js' }).main();
EOF
	# (the referee gives bots a scrubbed environment: --env passes one)
	run bin/referee $LIMITS --env PYTHONPATH=bots/python -g nyse -s 3 --log "$T/m.log" \
	    -b "python3 $T/byvalue.py" -b "node $T/async.js" -b 'bin/random --seed 1'
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["names"], d["faults"]')" = '[["by-value-py", "async-js", "random"], [0, 0, 0]]' ]
	lines_of "$T/m.log" recv | grep '"bot":0' | grep -q '"line":"{\\"id\\":[0-9]*,\\"action\\":{'
	lines_of "$T/m.log" recv | grep '"bot":1' | grep -q '"line":"{\\"id\\":[0-9]*,\\"action\\":{'
	lines_of "$T/m.log" action | grep '"bot":1' | grep -q '"source":"bot"'
}

@test "a ranged entry chosen without an amount is the bot's error, said on stderr" {
	hello horserace
	printf '{"type":"request","id":1,"game":0,"seat":1,"view":{},"events":[],"legal":[{"type":"bet","amount":{"min":1,"max":5}}],"time_left_ms":1000}\n' >> "$T/in"
	echo 'import cardarena; cardarena.run(lambda r: 0)' > "$T/noamount.py"
	feed "env PYTHONPATH=bots/python python3 $T/noamount.py" "$T/in"
	[ "$status" -ne 0 ]
	grep -q "legal entry 0 is ranged: choose() must return (index, amount)" "$T/err"
	echo "require('$PWD/bots/js/cardarena.js').run(() => 0);" > "$T/noamount.js"
	feed "node $T/noamount.js" "$T/in"
	[ "$status" -ne 0 ]
	grep -q "legal entry 0 is ranged: choose() must return \[index, amount\]" "$T/err"
}

@test "SDK bots: --help, bad arguments, errors from the referee on stderr" {
	run python3 bots/python/greedy_bot.py --help
	[ "$status" -eq 0 ]; [[ "$output" == *"usage: greedy_bot.py [--seed N]"* ]]
	run python3 bots/python/random_bot.py --frobnicate
	[ "$status" -eq 2 ]; [ "$output" = "random-py: unknown option --frobnicate (see random_bot.py --help)" ]
	run node bots/js/greedy_bot.js --help
	[ "$status" -eq 0 ]; [[ "$output" == *"usage: greedy_bot.js [--seed N]"* ]]
	run node bots/js/random_bot.js --seed x
	[ "$status" -eq 2 ]; [[ "$output" == *"--seed x: not a whole number"* ]]
	hello nyse
	printf '{"type":"error","id":3,"fault":"timeout","message":"no answer within 5 ms"}\n{"type":"future","x":1}\n\n{"type":"bye"}\n' >> "$T/in"
	feed "$PYR" "$T/in"
	[ "$status" -eq 0 ]
	grep -q "referee says: no answer within 5 ms" "$T/err"
	feed "$JSR" "$T/in"
	[ "$status" -eq 0 ]
	grep -q "referee says: no answer within 5 ms" "$T/err"
}

# A hello with nonce $1 (none if empty), a start, six requests of 40
# entries, bye: to $T/in.
nonce_input() {
	local legal id
	legal=$(python3 -c 'print(",".join("{\"a\":%d}" % i for i in range(40)))')
	if [ -n "$1" ]; then
		printf '{"type":"hello","protocol":1,"game":"nyse","options":{},"seat":1,"players":4,"games":1,"limits":{},"nonce":"%s"}\n' "$1" > "$T/in"
	else
		hello nyse
	fi
	printf '{"type":"start","game":0,"seat":1}\n' >> "$T/in"
	for id in 1 2 3 4 5 6; do
		printf '{"type":"request","id":%d,"game":0,"seat":1,"view":{},"events":[],"legal":[%s],"time_left_ms":1000}\n' "$id" "$legal" >> "$T/in"
	done
	printf '{"type":"bye"}\n' >> "$T/in"
}

@test "the SDKs mix the hello's nonce into --seed: the same match the same moves, another match others" {
	for bot in 'bin/random --seed 7' "$PYR --seed 7" "$JSR --seed 7"; do
		nonce_input 00000000000000aa
		feed "$bot" "$T/in"
		[ "$status" -eq 0 ]
		a=$output
		feed "$bot" "$T/in"
		[ "$output" = "$a" ] || { echo "$bot: the same nonce, other moves"; false; }
		nonce_input 3f00000000000bb0
		feed "$bot" "$T/in"
		[ "$output" != "$a" ] || { echo "$bot: another nonce, the same moves"; false; }
		nonce_input ""
		feed "$bot" "$T/in"
		[ "$output" != "$a" ] || { echo "$bot: the nonce is not used"; false; }
	done
}

@test "the referee's hello carries the match nonce, SHA-256 of the seed, in the log's header too" {
	run bin/referee $LIMITS -g nyse -s 5 --log "$T/a.log" -b bin/random -b bin/random -b bin/random
	[ "$status" -eq 0 ]
	run bin/referee $LIMITS -g nyse -s 6 --log "$T/b.log" -b bin/random -b bin/random -b bin/random
	python3 - "$T/a.log" 5 "$T/b.log" 6 <<'PY'
import hashlib, json, sys
nonces = set()
for path, seed in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    want = hashlib.sha256(("cardarena match nonce %s" % seed).encode()).hexdigest()[:16]
    lines = [json.loads(l) for l in open(path)]
    assert lines[0]["nonce"] == want, (lines[0].get("nonce"), want)
    hellos = [l["msg"] for l in lines
              if l.get("type") == "send" and l["msg"]["type"] == "hello"]
    assert len(hellos) == 3 and all(h["nonce"] == want for h in hellos), hellos
    nonces.add(want)
assert len(nonces) == 2
PY
	run bin/replay --verify "$T/a.log"
	[ "$status" -eq 0 ]
	# a header whose nonce is not its seed's does not verify
	sed '1s/"nonce":"[0-9a-f]*"/"nonce":"0000000000000000"/' "$T/a.log" > "$T/c.log"
	run bin/replay --verify "$T/c.log"
	[ "$status" -ne 0 ]
	[[ "$output" == *"the header's nonce is not the seed's"* ]]
}

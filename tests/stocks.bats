#!/usr/bin/env bats
# End-to-end tests of stocks through bin/referee: short matches of the
# heuristic bot (bin/stocks_bot) against the random bots complete with a
# complete result, the heuristic bot beats them, the options reach the game,
# --setup is honoured or refused with a cause, and on fixed deals (with
# bin/scripted as the other player) the heuristic bot makes the moves it is
# meant for: buy a company and push it up, sell before a crash, and play a
# face card as $0 against a company the other player holds.

load helpers

HEUR='bin/stocks_bot --seed 7'
R1='bin/random --seed 1'
R2='bin/random --seed 2'
R3='bin/random --seed 3'

# Checks every results line of $1: $2 games of $3 seats, places 1..P with
# a first place, a score per seat, no faults; $4 (optional) the capped flag.
complete_results() {
	check_results "$1" "$2" "$3" places=range ${4:+"capped=$4"}
}

# Prints the actions seat $2 took in log $1, one JSON object a line.
actions_of() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["type"] == "action" and d["seat"] == int(sys.argv[2]):
        print(json.dumps(d["action"], sort_keys=True))
EOF
}

@test "stocks: heuristic vs two random bots, duplicate, completes with a complete result" {
	duplicate_match stocks 3 6 -n 3 --log "$T/m.log" \
	    -b "$HEUR" -b "$R1" -b "$R2"
	complete_results "$T/r.jsonl" 6 3 false
	[ "$(jv "$output" 'd["games"]')" = 6 ]
	log_complete "$T/m.log"
	grep -q '"type":"joker"' "$T/m.log"
}

@test "stocks: the heuristic bot beats three random bots (mean place under 1.5 of 4 over 24 games)" {
	duplicate_match stocks 11 24 -n 4 -q \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3"
	complete_results "$T/r.jsonl" 24 4
	mean_place_under 1.5
}

@test "stocks: max_turns caps a match, sell_same_turn and bank reach the game" {
	run bin/referee $LIMITS -g stocks -n 2 -s 5 --games 2 -q -o max_turns=3 \
	    --results "$T/c.jsonl" -b "$HEUR" -b "$R1"
	[ "$status" -eq 0 ]
	complete_results "$T/c.jsonl" 2 2 true
	run bin/referee $LIMITS -g stocks -n 5 -s 5 --games 2 -q -o sell_same_turn=on \
	    -o bank=0 --log "$T/o.log" --results "$T/o.jsonl" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3" -b "$R1"
	[ "$status" -eq 0 ]
	complete_results "$T/o.jsonl" 2 5
	grep -q '"options":{"players":5,"bank":0,"sell_same_turn":true,"max_turns":400}' "$T/o.log"
	grep -q '"type":"bank_short"' "$T/o.log"
}

@test "stocks: --setup is played as given, and a bad one is refused with a cause" {
	printf '{"turn": ["KH", "5S", "7S", "3H", "2D", "TC"], "start": 1, "deck": ["AS", "AS"]}\n' > "$T/good.json"
	run bin/referee $LIMITS -g stocks -n 2 -s 1 --setup "$T/good.json" --log "$T/g.log" -q \
	    -b "$R1" -b "$R2"
	[ "$status" -eq 0 ]
	grep -q '"type":"setup_card","card":"KH","company":null' "$T/g.log"
	grep -q '"start":1,"turn":1,' "$T/g.log"
	grep -q '"hands":\[\[[^]]*\],\["AS","AS",' "$T/g.log"
	printf '{"turn": ["5S", "6H", "5D", "5C", "7C"]}\n' > "$T/bad.json"
	run bin/referee $LIMITS -g stocks -n 2 -s 1 --setup "$T/bad.json" -b "$R1" -b "$R2"
	[ "$status" -eq 2 ]
	[[ "$output" == *"\"turn\" goes on after the fourth price card"* ]]
}

@test "stocks_bot buys a company it can push up, pushes it, and sells it before a face card on top can crash it" {
	printf '%s\n' '{"turn": ["5S", "6H", "5D", "5C"], "start": 0, "deck": ["7H", "TH", "JH", "3D", "AS", "2S", "4D", "6D", "AD", "2D", "7D", "8D", "AC", "KS", "9D", "TD", "2C", "3C", "4C"]}' > "$T/s.json"
	printf '%s\n' '{"type": "price", "card": "JH", "value": 11}' '{"type": "end"}' > "$T/p1"
	run bin/referee $LIMITS -g stocks -n 2 -s 1 --setup "$T/s.json" -o max_turns=3 \
	    --log "$T/m.log" --results "$T/r.jsonl" -q \
	    -b "$HEUR" -b "bin/scripted $T/p1"
	[ "$status" -eq 0 ]
	run actions_of "$T/m.log" 0
	[ "$status" -eq 0 ]
	# Turn 1: the 7H bought at 6 before the TH lifts hearts to 10.
	buy=$(printf '%s\n' "$output" | grep -n '"card": "7H", .*"type": "buy"' | cut -d: -f1)
	lift=$(printf '%s\n' "$output" | grep -n '"card": "TH", "type": "price", "value": 10' | cut -d: -f1)
	[ -n "$buy" ] && [ -n "$lift" ] && [ "$buy" -lt "$lift" ] || false
	# Turn 3, hearts at 11 under the other player's JH: sold.
	printf '%s\n' "$output" | grep -q '"card": "7H", "proceeds": 77, "shares": 7, "type": "sell"'
	[ "$(jv "$(last_line "$T/r.jsonl")" 'd["places"]')" = "[1, 2]" ]
}

@test "stocks_bot plays a face card as \$0 against the company the other player holds" {
	printf '%s\n' '{"turn": ["5S", "6H", "2D", "5C"], "start": 1, "deck": ["7D", "5D", "JD", "AS", "2S", "3S", "AH", "AC", "4S", "6S", "2H", "2C", "7S", "8S", "3H", "3C", "9S", "TS"]}' > "$T/s.json"
	printf '%s\n' '{"type": "buy", "card": "7D", "shares": 7, "cost": 14}' \
	    '{"type": "buy", "card": "5D", "shares": 5, "cost": 10}' '{"type": "end"}' > "$T/p1"
	run bin/referee $LIMITS -g stocks -n 2 -s 1 --setup "$T/s.json" -o max_turns=2 \
	    --log "$T/m.log" --results "$T/r.jsonl" -q \
	    -b "$HEUR" -b "bin/scripted $T/p1"
	[ "$status" -eq 0 ]
	run actions_of "$T/m.log" 0
	[[ "$output" == *'{"card": "JD", "type": "price", "value": 0}'* ]]
	grep -q '"type":"bankrupt","company":"D","certificates":2' "$T/m.log"
	[ "$(jv "$(last_line "$T/r.jsonl")" 'd["places"], d["scores"][1]')" = "[[1, 2], 176]" ]
}

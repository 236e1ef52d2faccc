#!/usr/bin/env bats
# End-to-end tests of horserace through bin/referee: matches of the
# heuristic bot (bin/horserace_bot) with the random bots complete with a
# complete result in the base game and the variants, the heuristic bot does
# better than the random bots, --setup fixes the deal (or is refused with a
# cause), and a rule case (the dealer going into debt) is reproduced from
# the command line with bin/scripted.

load helpers

HEUR='bin/horserace_bot --seed 7'
R1='bin/random --seed 1'
R2='bin/random --seed 2'
R3='bin/random --seed 3'
R4='bin/random --seed 4'

# Checks every results line of $1: $2 games of $3 seats, places that agree
# with the scores (1 + the number of higher scores), no faults, not capped.
complete_results() {
	check_results "$1" "$2" "$3" places=scores capped=false
}

@test "horserace: heuristic vs four random bots, duplicate, completes with a complete result" {
	duplicate_match horserace 3 10 --log "$T/m.log" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3" -b "$R4"
	complete_results "$T/r.jsonl" 10 5
	[ "$(jv "$output" 'd["games"]')" = 10 ]
	grep -q '"type":"header"' "$T/m.log"
	[ "$(jv "$(last_line "$T/m.log")" 'd["type"]')" = '"result"' ]
}

@test "horserace: the variants run to the end (Calcutta, joker, every bet, dealer's odds; 3 and 8 players)" {
	run bin/referee $LIMITS -g horserace -s 4 --games 4 -q -o calcutta=on \
	    -o joker=on --results "$T/c.jsonl" -b "$HEUR" -b "$R1" -b "$R2"
	[ "$status" -eq 0 ]
	complete_results "$T/c.jsonl" 4 3
	run bin/referee $LIMITS -g horserace -n 8 -s 4 --games 2 -q \
	    -o bets=win,exacta,trifecta,daily_double -o dealer_sets_odds=on \
	    -o joker=on -o dd_multiplier=3 --results "$T/v.jsonl" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3" -b "$R4" \
	    -b 'bin/random --seed 5' -b 'bin/random --seed 6' -b "$HEUR"
	[ "$status" -eq 0 ]
	complete_results "$T/v.jsonl" 2 8
}

@test "horserace: the heuristic bot places better than the random bots (60 games)" {
	duplicate_match horserace 11 60 -q \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3" -b "$R4"
	complete_results "$T/r.jsonl" 60 5
	python3 - "$T/r.jsonl" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
heur = sum(r["places"][0] for r in rows) / len(rows)
rand = sum(sum(r["places"][1:]) for r in rows) / (4 * len(rows))
print(heur, rand)
sys.exit(0 if heur < rand else 1)
EOF
}

@test "horserace: --setup fixes the dealer and the odds cards; a bad one is refused" {
	printf '%s\n' '{"dealer": 2, "deck": ["2S","3S","2H","3H","2D","3D","2C"]}' \
	    > "$T/setup.json"
	run bin/referee $LIMITS -g horserace -n 3 -s 5 --setup "$T/setup.json" \
	    --log "$T/m.log" -b "$HEUR" -b "$R1" -b "$R2"
	[ "$status" -eq 0 ]
	deal=$(lines_of "$T/m.log" game_start)
	[ "$(jv "$deal" 'd["deal"]["dealer"]')" = 2 ]
	[ "$(jv "$deal" '",".join(d["deal"]["odds_cards"])')" = '"2S,3S,2H,3H,2D,3D,2C"' ]
	printf '%s\n' '{"deck": ["AS"]}' > "$T/bad.json"
	run bin/referee $LIMITS -g horserace -n 3 --setup "$T/bad.json" \
	    -b "$R1" -b "$R2" -b "$R3"
	[ "$status" -ne 0 ]
	[[ "$output" == *"aces are the horses"* ]]
}

@test "horserace: a dealer going into debt, reproduced with bin/scripted" {
	printf '%s\n' '{"dealer": 0, "deck": ["2S","3S","4S","5S","2H","2D","2C",
	    "6S","7S","8S","9S","TS","JS","QS","KS"]}' > "$T/setup.json"
	printf '%s\n' '{"type":"bet","kind":"win","suits":["S"],"amount":10}' \
	    > "$T/bet.txt"
	run bin/referee $LIMITS -g horserace -n 4 -s 1 -o stack=10 -o races=1 \
	    --setup "$T/setup.json" --results "$T/r.jsonl" -b "$R1" \
	    -b "bin/scripted $T/bet.txt" -b "bin/scripted $T/bet.txt" \
	    -b "bin/scripted $T/bet.txt"
	[ "$status" -eq 0 ]
	r=$(last_line "$T/r.jsonl")
	[ "$(jv "$r" 'd["scores"]')" = '[-290, 110, 110, 110]' ]
	[ "$(jv "$r" 'd["places"]')" = '[4, 1, 1, 1]' ]
	[ "$(jv "$r" 'd["faults"]')" = '[0, 0, 0, 0]' ]
}

#!/usr/bin/env bats
# End-to-end tests of Speculation through bin/referee: short matches of the
# heuristic bot (bin/speculation_bot) with the random bots complete with a
# complete result that conserves the counters, the heuristic bot beats
# them, every rule option runs, a max_turns cap is reported, and --setup is
# honoured or refused with its cause.

load helpers

HEUR='bin/speculation_bot --seed 7'
R1='bin/random --seed 1'
R2='bin/random --seed 2'
R3='bin/random --seed 3'
R4='bin/random --seed 4'

# Checks every results line of $1: $2 games of $3 seats, places from 1 to
# P consistent with the scores of the players, no faults, and (without the
# widow, so no pool is left over) the counters of all add up to P x $4.
complete_results() {
	if [ "$4" -gt 0 ]; then
		check_results "$1" "$2" "$3" places=ranks 'scores>=0' \
		    "sum=$(($3 * $4))"
	else
		check_results "$1" "$2" "$3" places=ranks 'scores>=0'
	fi
}

@test "speculation: heuristic vs three random bots, duplicate, completes with a complete result" {
	duplicate_match speculation 3 8 -n 4 --log "$T/m.log" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3"
	complete_results "$T/r.jsonl" 8 4 100
	[ "$(jv "$output" 'd["games"]')" = 8 ]
	[ "$(jv "$output" 'd["names"][0]')" = '"speculation_bot"' ]
	log_complete "$T/m.log"
}

@test "speculation: the heuristic bot beats the random bots (mean place under 1.5 of 4 over 40 games)" {
	duplicate_match speculation 11 40 -n 4 -q \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3"
	complete_results "$T/r.jsonl" 40 4 100
	mean_place_under 1.5
}

@test "speculation: every rule option runs to the end; a max_turns cap is reported" {
	run bin/referee $LIMITS -g speculation -n 5 -s 5 --games 6 -q \
	    -o widow=on -o stacked=on -o all_cards_rank=on -o pay_5_jack=on \
	    -o stack=60 -o ante=3 --results "$T/o.jsonl" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3" -b "$R4"
	[ "$status" -eq 0 ]
	complete_results "$T/o.jsonl" 6 5 0
	run bin/referee $LIMITS -g speculation -n 3 -s 5 --games 3 -q -o max_turns=1 \
	    -o deals=2 --results "$T/c.jsonl" -b "$HEUR" -b "$R1" -b "$R2"
	[ "$status" -eq 0 ]
	complete_results "$T/c.jsonl" 3 3 100
	[ "$(grep -c '"capped":true' "$T/c.jsonl")" -ge 1 ]
}

@test "speculation: --setup fixes the dealer and the deck; a bad one is refused with its cause" {
	printf '%s\n' '{"dealer": 1, "deck": ["KS","5H","4C","KH","3S","6C","2D","AH","8C","QH"]}' \
	    >"$T/setup.json"
	run bin/referee $LIMITS -g speculation -n 3 -s 1 -o deals=1 \
	    --setup "$T/setup.json" --log "$T/m.log" -b "$HEUR" -b "$R1" -b "$R2"
	[ "$status" -eq 0 ]
	start=$(lines_of "$T/m.log" game_start | head -n 1)
	[ "$(jv "$start" '[d["deal"][k] for k in ("dealer", "high", "trump")]')" = '[1, "QH", "H"]' ]
	[ "$(jv "$start" 'd["deal"]["hands"]')" = '[["5H", "3S", "AH"], ["4C", "6C", "8C"], ["KS", "KH", "2D"]]' ]
	printf '%s\n' '{"deck": ["AS", "AS"]}' >"$T/bad.json"
	run bin/referee $LIMITS -g speculation -n 3 --setup "$T/bad.json" \
	    -b "$R1" -b "$R2" -b "$R3"
	[ "$status" -ne 0 ]
	[[ "$output" == *"deck[1]: AS is there twice"* ]]
}

#!/usr/bin/env bats
# End-to-end tests of daifugo through bin/referee: a match of the heuristic
# bot (bin/daifugo_bot) with the random bots in C and Python completes with
# a complete result and the heuristic bot places clearly better; options
# and --setup reach the engine, a bad set-up is refused with its cause; and
# the bot's choices in crafted situations follow its heuristics.

load helpers

HEUR='bin/daifugo_bot --seed 7'
R1='bin/random --seed 1'
R2='bin/random --seed 2'
PY1='python3 bots/python/random_bot.py --seed 3'
PY2='python3 bots/python/random_bot.py --seed 4'

# Checks every results line of $1: $2 games of $3 seats, places consistent
# with the scores (ties share), no faults, never capped.
complete_results() {
	check_results "$1" "$2" "$3" places=scores 'scores>=0' 'sum>0' \
	    capped=false
}

@test "daifugo: heuristic, random C and random Python bots, duplicate, complete with a complete result" {
	duplicate_match daifugo 3 10 --log "$T/m.log" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$PY1" -b "$PY2"
	complete_results "$T/r.jsonl" 10 5
	log_complete "$T/m.log"
	[ "$(jv "$(last_line "$T/m.log")" 'd["games"]')" = 10 ]
	grep -q '"type":"deal_end"' "$T/m.log"
}

@test "daifugo: the heuristic bot places better than the random bots (mean place under 2.4 of 5 over 25 games)" {
	duplicate_match daifugo 11 25 -q \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$PY1" -b "$PY2"
	complete_results "$T/r.jsonl" 25 5
	run python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
h = sum(r["places"][0] for r in rows) / len(rows)
r = sum(sum(r["places"][1:]) for r in rows) / (4 * len(rows))
print(h, r)' "$T/r.jsonl"
	set -- $output
	python3 -c "import sys; sys.exit(0 if $1 < 2.4 and $1 < $2 - 0.8 else 1)"
}

@test "daifugo: options reach the engine (4 and 7 players, no jokers, unlimited passes, no 8-cut, no 11-back)" {
	run bin/referee $LIMITS -g daifugo -n 4 -s 5 --games 2 -q -o jokers=0 \
	    -o pass_limit=unlimited -o deals=2 -o eight_cut=off \
	    -o eleven_back=off --results "$T/a.jsonl" --log "$T/a.log" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$PY1"
	[ "$status" -eq 0 ]
	complete_results "$T/a.jsonl" 2 4
	grep -q '"options":{"players":4,"jokers":0,"deals":2,"pass_limit":"unlimited","eight_cut":false,"eleven_back":false}' "$T/a.log"
	[ "$(grep -c '"type":"deal_end"' "$T/a.log")" -ge 4 ]
	run bin/referee $LIMITS -g daifugo -n 7 -s 5 --games 1 -q -o jokers=1 -o deals=1 \
	    --results "$T/b.jsonl" -b "$HEUR" -b "$R1" -b "$R2" -b "$PY1" \
	    -b "$R1" -b "$R2" -b "$HEUR"
	[ "$status" -eq 0 ]
	complete_results "$T/b.jsonl" 1 7
}

@test "daifugo: --setup is dealt as given, and a bad one is refused with a cause" {
	python3 - "$T/good.json" <<'PY'
import json, sys
ranks, suits = "A23456789TJQK", "SHDC"
deck = [r + s for s in suits for r in ranks] + ["JK", "JK"]
deck.remove("3D"); deck.insert(3, "3D")
json.dump({"deck": deck, "seating": [4, 3, 2, 1, 0]}, open(sys.argv[1], "w"))
PY
	run bin/referee $LIMITS -g daifugo -s 1 --games 1 --setup "$T/good.json" \
	    --log "$T/g.log" -q -o deals=1 -b "$R1" -b "$R2" -b "$R1" -b "$R2" -b "$R1"
	[ "$status" -eq 0 ]
	# Card 3 of the deck goes to the fourth seat clockwise, seat 1: it leads.
	grep -q '"type":"trick","leader":1,"first_play":true' "$T/g.log"
	grep -q '"seating":\[4,3,2,1,0\]' "$T/g.log"
	printf '{"deck": ["3D", "3D"]}\n' > "$T/bad.json"
	run bin/referee $LIMITS -g daifugo -s 1 --setup "$T/bad.json" \
	    -b "$R1" -b "$R2" -b "$R1" -b "$R2" -b "$R1"
	[ "$status" -eq 2 ]
	[[ "$output" == *"a deck lists all 54 cards"* ]]
}

# Sends bin/daifugo_bot a hello and one crafted request; prints its choice.
# $1: a Python dict: hand, table (or None), sizes (hand sizes, seat 0 the
# bot), order, legal (entries as the referee lists them).
ask_bot() {
	python3 - "$1" <<'PY'
import json, subprocess, sys
s = eval(sys.argv[1])
n = len(s["sizes"])
view = {"deal": 1, "deals": 5, "phase": "play", "seat": 0, "seating": list(range(n)),
        "classes": ["commoner"] * n, "previous": None, "hand": s["hand"],
        "hand_sizes": s["sizes"], "points": [0] * n, "deal_points": [0] * n,
        "finished": [], "turn": 0, "table": s["table"], "passed": [],
        "revolution": s["order"] == "reversed", "coup": False, "order": s["order"],
        "first_play": False, "played": [[] for _ in range(n)], "waiting": [], "exchange": None}
hello = {"type": "hello", "protocol": 1, "game": "daifugo", "seat": 0, "players": n,
         "options": {"players": n, "jokers": 2, "deals": 5, "pass_limit": "once",
                     "eight_cut": True, "eleven_back": True}, "games": 1}
req = {"type": "request", "id": 1, "game": 0, "view": view, "events": [],
       "legal": s["legal"], "time_left_ms": 1000}
out = subprocess.run(["bin/daifugo_bot", "--seed", "1"], capture_output=True, text=True,
                     input="\n".join(json.dumps(m) for m in [hello, req, {"type": "bye"}]) + "\n").stdout
ans = [json.loads(l) for l in out.splitlines() if '"id"' in l][0]
print(json.dumps(s["legal"][ans["index"]]["cards"] if "cards" in s["legal"][ans["index"]] else "pass"))
PY
}

single() {
	printf '{"type": "play", "cards": ["%s"], "kind": "single", "rank": "%s"}' "$1" "${1:0:1}"
}

@test "daifugo_bot follows with a weak single and keeps its joker and 2" {
	run ask_bot "{'hand': ['5S', '9D', '2S', 'JK'], 'sizes': [4, 9, 9, 9, 9], 'order': 'normal',
	    'table': {'cards': ['4C'], 'kind': 'single', 'rank': '4', 'count': 1, 'player': 1},
	    'legal': [{'type': 'pass'}, $(single 5S), $(single 9D), $(single 2S),
	              {'type': 'play', 'cards': ['JK'], 'kind': 'joker', 'rank': None}]}"
	[ "$status" -eq 0 ]
	[ "$output" = '["5S"]' ]
}

@test "daifugo_bot takes the lead with its 2 when the rest of its hand goes in one play" {
	run ask_bot "{'hand': ['5H', '6H', '7H', '2S'], 'sizes': [4, 9, 9, 9, 9], 'order': 'normal',
	    'table': {'cards': ['9C'], 'kind': 'single', 'rank': '9', 'count': 1, 'player': 1},
	    'legal': [{'type': 'pass'}, $(single 2S)]}"
	[ "$status" -eq 0 ]
	[ "$output" = '["2S"]' ]
}

@test "daifugo_bot starts a revolution with a weak hand, not with a strong one" {
	rev='{"type": "play", "cards": ["4S", "4H", "4D", "4C"], "kind": "set", "rank": "4"}'
	run ask_bot "{'hand': ['4S', '4H', '4D', '4C', '5S', '6H', '7D', 'AC'], 'sizes': [8, 9, 9, 9, 9],
	    'order': 'normal', 'table': None,
	    'legal': [$(single 5S), $(single 6H), $(single 7D), $(single AC), $rev]}"
	[ "$status" -eq 0 ]
	[ "$output" = '["4S", "4H", "4D", "4C"]' ]
	run ask_bot "{'hand': ['4S', '4H', '4D', '4C', 'KS', 'AH', '2D', '2C'], 'sizes': [8, 9, 9, 9, 9],
	    'order': 'normal', 'table': None,
	    'legal': [$(single KS), $(single AH), $(single 2D), $rev]}"
	[ "$status" -eq 0 ]
	[ "$output" = '["KS"]' ]
}

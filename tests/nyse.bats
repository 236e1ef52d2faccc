#!/usr/bin/env bats
# End-to-end tests of NYSE through bin/referee: short matches of the
# heuristic bot (bin/nyse_bot) against the random bots complete with a
# complete result, the heuristic bot beats them, solitaire and
# open_holdings=off run, --setup is honoured or refused with a cause, and
# the heuristic bot makes the moves it is meant for on crafted requests.

load helpers

HEUR='bin/nyse_bot --seed 7'
R1='bin/random --seed 1'
R2='bin/random --seed 2'
R3='bin/random --seed 3'

# Checks every results line of $1: $2 games of $3 seats, distinct places
# 1..P, a score per seat, no faults, never capped.
complete_results() {
	check_results "$1" "$2" "$3" places=perm 'scores>=0' capped=false
}

@test "nyse: heuristic vs three random bots, duplicate, completes with a complete result" {
	duplicate_match nyse 3 8 -n 4 --log "$T/m.log" \
	    -b "$HEUR" -b "$R1" -b "$R2" -b "$R3"
	complete_results "$T/r.jsonl" 8 4
	[ "$(jv "$output" 'd["games"]')" = 8 ]
	grep -q '"type":"header"' "$T/m.log"
}

@test "nyse: the heuristic bot beats the random bots (mean place under 1.8 of 4 over 40 games)" {
	duplicate_match nyse 11 40 -n 4 -q -b "$HEUR" -b "$R1" -b "$R2" -b "$R3"
	complete_results "$T/r.jsonl" 40 4
	mean_place_under 1.8
}

@test "nyse: solitaire and open_holdings=off matches run to the end" {
	run bin/referee $LIMITS -g nyse -n 1 -s 5 --games 5 -q --results "$T/s.jsonl" \
	    -b "$HEUR"
	[ "$status" -eq 0 ]
	complete_results "$T/s.jsonl" 5 1
	run bin/referee $LIMITS -g nyse -n 3 -s 5 --games 6 -q -o open_holdings=off \
	    -o board=shuffled --results "$T/o.jsonl" -b "$HEUR" -b "$R1" -b "$R2"
	[ "$status" -eq 0 ]
	complete_results "$T/o.jsonl" 6 3
}

@test "nyse: --setup is played as given, and a bad one is refused with a cause" {
	printf '{"start": 2, "board": [5, 4, 3, 2, 2, 1], "piles": {"red": ["speculate"]}}\n' > "$T/good.json"
	run bin/referee $LIMITS -g nyse -n 3 -s 1 --setup "$T/good.json" --log "$T/g.log" -q \
	    -b "$R1" -b "$R2" -b "$R3"
	[ "$status" -eq 0 ]
	grep -q '"type":"start","start":2,"board":\[5,4,3,2,2,1\]' "$T/g.log"
	printf '{"piles": {"red": ["gold"]}}\n' > "$T/bad.json"
	run bin/referee $LIMITS -g nyse -n 3 -s 1 --setup "$T/bad.json" -b "$R1" -b "$R2" -b "$R3"
	[ "$status" -eq 2 ]
	[[ "$output" == *"piles.red[0] must be plain, speculate, invest or swap"* ]]
}

# Sends bin/nyse_bot a hello and one crafted request; prints its choice.
# $1: a Python dict of the situation: pos, supply, hold, marks, legal
# (the bot is seat 0).
ask_bot() {
	python3 - "$1" <<'EOF'
import json, subprocess, sys
COL = ["blue", "black", "red", "green"]
MARKS = ["plain", "speculate", "invest", "swap"]
s = eval(sys.argv[1])
board, L = [1, 2, 3, 4, 5, 2], "ABCDEFGHIJKL"
n, me, hold = len(s["hold"]), 0, s["hold"]
markers = {c: {"position": L[p] if p < 12 else "crashed",
               "value": board[p // 2] if p < 12 else 0, "crashed": p >= 12}
           for c in COL for p in [s["pos"].get(c, 0)]}
hs = [{"chips": sum(h.values()), "colours": {c: h.get(c, 0) for c in COL}} for h in hold]
hs[me]["marks"] = {c: {m: s["marks"].get(c, {}).get(m, 0) for m in MARKS} for c in COL}
supply = {c: s["supply"].get(c, 0) for c in COL}
view = {"game": "nyse", "players": n, "seat": me, "board": board, "markers": markers,
        "supply": supply, "used": {c: {"speculate": 0, "invest": 0, "swap": 0} for c in COL},
        "discarded": {c: 10 - supply[c] - sum(h.get(c, 0) for h in hold) for c in COL},
        "holdings": hs, "phase": "turn", "turn": me, "turns": 30, "refused": []}
hello = {"type": "hello", "protocol": 1, "game": "nyse", "seat": me, "players": n,
         "options": {"players": n, "board": board, "open_holdings": True}, "games": 1}
req = {"type": "request", "id": 1, "game": 0, "view": view, "events": [],
       "legal": s["legal"], "time_left_ms": 1000}
out = subprocess.run(["bin/nyse_bot", "--seed", "1"], capture_output=True, text=True,
                     input="\n".join(json.dumps(m) for m in [hello, req, {"type": "bye"}]) + "\n").stdout
ans = [json.loads(l) for l in out.splitlines() if '"id"' in l][0]
print(json.dumps(s["legal"][ans["index"]], sort_keys=True))
EOF
}

@test "nyse_bot speculates an opponent's colour into a crash" {
	run ask_bot '{"pos": {"blue": 9}, "supply": {"blue": 3, "black": 10, "red": 9, "green": 10},
	    "hold": [{"red": 1}, {"blue": 6}], "marks": {"red": {"speculate": 1}},
	    "legal": [{"type": "take", "colour": c} for c in COL] +
	        [{"type": "discard", "colour": c} for c in COL] +
	        [{"type": "speculate", "chip": "red", "marker": c} for c in COL]}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"chip": "red", "marker": "blue", "type": "speculate"}' ]
}

@test "nyse_bot takes the colour before a rise, not the one before a fall" {
	run ask_bot '{"pos": {"blue": 5, "black": 9}, "supply": {"blue": 5, "black": 1, "red": 10, "green": 10},
	    "hold": [{}, {}], "marks": {},
	    "legal": [{"type": "take", "colour": c} for c in COL]}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"colour": "blue", "type": "take"}' ]
}

@test "nyse_bot, ahead, discards to end the game rather than push its colour into a fall" {
	run ask_bot '{"pos": {"blue": 9, "black": 4}, "supply": {"blue": 2},
	    "hold": [{"blue": 6}, {"black": 4}], "marks": {"blue": {"plain": 6}},
	    "legal": [{"type": "take", "colour": "blue"}, {"type": "discard", "colour": "blue"}]}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"colour": "blue", "type": "discard"}' ]
}

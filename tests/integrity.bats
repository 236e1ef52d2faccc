#!/usr/bin/env bats
# Match integrity end to end (issues 13 and 17): duplicate rotations in
# fresh bot processes (a bot that memorises deals learns nothing), a game
# the same game whatever the game list and a resumed tournament the same
# tournament with bots that keep state, --max-decisions, lean and capped
# logs, logs no bot can spoil (every hostile answer verifies), --verify
# catching every deleted line at its place and odd headers, a full disk
# stopping a tournament at once, duplicate options and unclear messages.
#
# The bots are tests/bots/integrity.py (see its modes).

load helpers

IB="python3 tests/bots/integrity.py"

teardown() {
	if [ -n "${FULL_MNT:-}" ]; then
		umount "$FULL_MNT" 2>/dev/null || true
	fi
}

# The "seen"/"new" lines the memory bots wrote to the stderr files of $1.
memory_says() {
	cat "$1".bot*.stderr | grep -E '^game [0-9]+: (seen|new)$' | sort
}

@test "duplicate: each seat rotation has fresh bot processes, so a bot that memorises deals learns nothing" {
	bin/referee -g horserace -n 3 -s 11 -o races=2 --games 6 --duplicate \
	    --log "$T/m.log" -q -b "$IB memory" -b "$IB memory" -b "$IB memory"
	# Every bot plays every deal once per rotation: never seen before.
	[ "$(memory_says "$T/m.log" | grep -c new)" -eq 18 ]
	[ "$(memory_says "$T/m.log" | grep -c seen)" -eq 0 ]
	# One hello and one bye per bot and rotation.
	[ "$(lines_of "$T/m.log" send | grep -c '"msg":{"type":"hello"')" -eq 9 ]
	[ "$(lines_of "$T/m.log" send | grep -c '"msg":{"type":"bye"')" -eq 9 ]
	bin/replay --verify "$T/m.log"
	# The control: the same process dealt the same cards twice (a set-up
	# fixes the deck) does say so, so the bot's memory works.
	printf '%s\n' '{"dealer": 0, "deck": ["2S","3S","2H","3H","4H","2D","2C","3D","4D","5D","6D","7D","8D","9D"]}' >"$T/setup.json"
	bin/referee -g horserace -n 3 -s 11 -o races=1 --games 2 --setup "$T/setup.json" \
	    --log "$T/c.log" -q -b "$IB memory" -b "$IB memory" -b "$IB memory"
	[ "$(memory_says "$T/c.log" | grep -c 'game 1: seen')" -eq 3 ]
}

@test "duplicate in a tournament: a bot that memorises deals learns nothing across rotations" {
	cat >"$T/m.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 2, "seed": 4, "output": "$T/mout",
 "options": {"races": 1}, "duplicate": true,
 "bots": [{"name": "m1", "command": "$IB memory"}, {"name": "m2", "command": "$IB memory"},
          {"name": "m3", "command": "$IB memory"}, {"name": "m4", "command": "$IB memory"}]}
EOF
	run bin/tournament run -q "$T/m.json"
	[ "$status" -eq 0 ]
	says=$(cat "$T"/mout/logs/*.bot*.stderr | grep -E '^game [0-9]+: (seen|new)$')
	# 4 tables of 6 games, 3 bots each
	[ "$(printf '%s\n' "$says" | grep -c new)" -eq 72 ]
	[ "$(printf '%s\n' "$says" | grep -c seen || true)" -eq 0 ]
	bin/replay --verify -q "$T/mout/logs"
}

# Prints the results line of game $2 in results file $1, without its log.
game_line() {
	python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if d["game"] == int(sys.argv[2]):
        d.pop("log"); print(json.dumps(d, sort_keys=True))' "$1" "$2"
}

@test "--game-list: a game is the same game whatever the list, with bots that keep state" {
	bots=(-b "$IB stateful" -b "bin/random --seed 2" -b "$IB stateful")
	bin/referee -g horserace -n 3 -s 2949826092126892291 -o races=2 --games 12 \
	    --duplicate --results "$T/all" -q "${bots[@]}"
	bin/referee -g horserace -n 3 -s 2949826092126892291 -o races=2 --games 12 \
	    --duplicate --game-list 10,4 --results "$T/some" --log "$T/some.log" -q "${bots[@]}"
	[ "$(wc -l < "$T/some")" -eq 2 ]
	[ "$(game_line "$T/some" 10)" = "$(game_line "$T/all" 10)" ]
	[ "$(game_line "$T/some" 4)" = "$(game_line "$T/all" 4)" ]
	# Games 1, 4 (rotation 1) and 7, 10 (up to the last listed) were
	# played; only the listed ones count.
	[ "$(lines_of "$T/some.log" game_start | grep -c '"replayed":true')" -eq 2 ]
	[ "$(jv "$(last_line "$T/some.log")" 'd["games"]')" = 2 ]
	bin/replay --verify "$T/some.log"
	# --no-replay (the tournament's deal runs): only the listed games,
	# new processes at the first of each lifetime (4 and 7: rotation 1).
	bin/referee -g horserace -n 3 -s 8 -o races=1 --games 9 --duplicate \
	    --game-list 7,4 --no-replay --log "$T/nr.log" -q "${bots[@]}"
	[ "$(lines_of "$T/nr.log" game_start | grep -o '"game":[0-9]*' | tr '\n' ' ')" = '"game":4 "game":7 ' ]
	[ "$(lines_of "$T/nr.log" send | grep -c '"msg":{"type":"hello"')" -eq 3 ]
	bin/replay --verify "$T/nr.log"
	# Without --duplicate the bots live for the whole match.
	bin/referee -g horserace -n 3 -s 8 -o races=1 --games 5 --results "$T/all2" -q "${bots[@]}"
	bin/referee -g horserace -n 3 -s 8 -o races=1 --games 5 --game-list 3 \
	    --results "$T/some2" -q "${bots[@]}"
	[ "$(game_line "$T/some2" 3)" = "$(game_line "$T/all2" 3)" ]
}

# Prints the game lines of journal $1, in order, without their log names.
journal_games() {
	python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if "places" in d:
        d.pop("log", None); print(json.dumps(d, sort_keys=True))' "$1"
}

@test "a tournament killed -9 and resumed has the same journal as an uninterrupted one, with bots that keep state" {
	# Bots live across a chunk of deals: with a fixed deals_per_run the
	# chunks are the same in both runs, and a chunk cut by the kill is
	# replayed from its start, so a stateful bot meets the same history.
	for out in one two; do
		cat >"$T/$out.json" <<EOF
{"game": "horserace", "seats": 3, "deals": 4, "seed": 17, "output": "$T/$out", "deals_per_run": 2,
 "options": {"races": 2}, "duplicate": true,
 "bots": [{"name": "s1", "command": "$IB stateful"}, {"name": "s2", "command": "$IB stateful"},
          {"name": "r3", "command": "bin/random --seed 3"}, {"name": "s4", "command": "$IB stateful"}]}
EOF
	done
	bin/tournament run -q "$T/one.json"
	[ "$(journal_games "$T/one/journal.jsonl" | wc -l)" -eq 48 ]
	# Killed in the middle of the first table (12 games).
	bin/tournament run -q "$T/two.json" &
	pid=$!
	for i in $(seq 1 600); do
		n=$(grep -c '"places"' "$T/two/journal.jsonl" 2>/dev/null || true)
		[ "${n:-0}" -ge 5 ] && break
		sleep 0.05
	done
	kill -9 "$pid"
	wait "$pid" || true
	n=$(journal_games "$T/two/journal.jsonl" | wc -l)
	echo "killed after $n games"
	[ "$n" -lt 48 ]
	sleep 0.5
	bin/tournament run -q "$T/two.json"
	diff <(journal_games "$T/one/journal.jsonl") <(journal_games "$T/two/journal.jsonl")
}

@test "--max-decisions: a Calcutta auction raised by 1 from a stack of 1000000 ends, capped, a draw" {
	run bin/referee -g horserace -n 3 -s 1 -o calcutta=on -o stack=1000000 \
	    --max-decisions 2000 --results "$T/res" --log "$T/c.log" --log-level lean \
	    -b "$IB raise1" -b "$IB raise1" -b "$IB raise1"
	[ "$status" -eq 0 ]
	[ "$(jv "$(cat "$T/res")" 'd["capped"], d["places"], d["scores"]')" = '[true, [1, 1, 1], [0, 0, 0]]' ]
	[ "$(lines_of "$T/c.log" action | wc -l)" -eq 2000 ]
	lines_of "$T/c.log" game_end | grep -q '"max_decisions":true'
	bin/replay --verify "$T/c.log"
	# The default cap bounds it too (here as a tournament would run it).
	[ "$(bin/referee --help | grep -c 'default 100000')" -eq 1 ]
	# A log claiming the cap where the rules go on is caught.
	sed 's/"max_decisions":2000/"max_decisions":3000/' "$T/c.log" >"$T/c3.log"
	run bin/replay --verify "$T/c3.log"
	[ "$status" -ne 0 ]
	[[ "$output" == *"game 0 ends at step 2000, but the rules go on"* ]]
}

@test "a lean log has no message text, verifies, and replays the very messages" {
	bots=(-b "bin/random --seed 1" -b "bin/random --seed 2" -b "bin/random --seed 3")
	bin/referee -g horserace -n 3 -s 6 -o races=2 --games 3 --duplicate --log "$T/full.log" -q "${bots[@]}"
	bin/referee -g horserace -n 3 -s 6 -o races=2 --games 3 --duplicate --log "$T/lean.log" \
	    --log-level lean -q "${bots[@]}"
	! grep -q '"msg"' "$T/lean.log" || false
	[ "$(stat -c %s "$T/lean.log")" -lt "$(( $(stat -c %s "$T/full.log") / 3 ))" ]
	bin/replay --verify "$T/lean.log"
	# The messages rebuilt from the lean log are the full log's, but for
	# the time left (timing).
	for s in 0 1 2; do
		diff <(bin/replay --emit --seat $s "$T/full.log" | sed 's/"time_left_ms":[0-9]*//') \
		    <(bin/replay --emit --seat $s "$T/lean.log" | sed 's/"time_left_ms":[0-9]*//')
	done
	# A lean request with another id is caught.
	n=$(grep -n -m1 '"kind":"request"' "$T/lean.log" | cut -d: -f1)
	sed "${n}s/\"id\":\\([0-9]*\\)/\"id\":9\\1/" "$T/lean.log" >"$T/bad.log"
	run bin/replay --verify "$T/bad.log"
	[ "$status" -ne 0 ]
	[[ "$output" == *"bad.log:$n:"* ]]
}

@test "--log-max: the log stops at its cap with a log_capped line; the match and its results go on" {
	run bin/referee -g horserace -n 3 -s 1 -o calcutta=on -o stack=1000000 \
	    --max-decisions 3000 --results "$T/res" --log "$T/c.log" --log-max 65536 \
	    -b "$IB raise1" -b "$IB raise1" -b "$IB raise1"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$T/c.log")" -le 65536 ]
	[ "$(jv "$(last_line "$T/c.log")" 'd["type"], d["max"]')" = '["log_capped", 65536]' ]
	[ "$(wc -l < "$T/res")" -eq 1 ]
	run bin/replay --verify "$T/c.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"stops at its size cap"* ]]
	run bin/referee -g horserace --log-max 100 -b x -b y -b z
	[ "$status" -eq 2 ]
}

@test "whatever bytes a bot answers, the log stays JSON, verifies, and the fault is malformed" {
	python3 - "$T" <<'PY'
import os, sys
answers = {
    "bad_utf8": b'{"id":ID,"index":0,"x":"\xff\xfe"}',
    "bare_ff": b'\xff',
    "overlong": b'{"id":ID,"index":0,"x":"\xc0\xaf"}',
    "surrogate": b'{"id":ID,"index":0,"x":"\xed\xa0\x80"}',
    "past_10ffff": b'{"id":ID,"index":0,"x":"\xf4\x90\x80\x80"}',
    "cut_sequence": b'{"id":ID,"index":0,"x":"\xe2\x82"}',
    "nul": b'\x00',
    "nul_after": b'{"id":ID,"index":0}\x00',
    "nul_inside": b'{"id":ID,"index":0,"x":"a\x00b"}',
    "escaped_nul": b'{"id":ID,"index":0,"x":"\\u0000"}',
    "lone_surrogate_escape": b'{"id":ID,"index":0,"x":"\\ud800"}',
    "bom": b'\xef\xbb\xbf{"id":ID,"index":0}',
    "controls": b'\x01\x02\x1b[31m\x7f',
    "latin1": b'{"id":ID,"index":0,"name":"caf\xe9"}',
}
for name, data in answers.items():
    open(os.path.join(sys.argv[1], name + ".ans"), "wb").write(data)
PY
	for f in "$T"/*.ans; do
		name=$(basename "$f" .ans)
		bin/referee -g horserace -n 3 -s 3 -o races=1 --log "$T/$name.log" -q \
		    -b "$IB raw $f" -b "bin/random --seed 1" -b "bin/random --seed 2"
		# Every line is strict JSON (Python refuses nothing jansson takes).
		python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]' "$T/$name.log"
		run bin/replay --verify "$T/$name.log"
		echo "$name: $output"
		[ "$status" -eq 0 ]
		lines_of "$T/$name.log" fault | head -n 1 | grep -q '"fault":"malformed"'
	done
	# Not UTF-8 or with a NUL: kept byte for byte, as base64.
	python3 - "$T" <<'PY'
import base64, json, os, re, sys
t = sys.argv[1]
for name in ("bad_utf8", "nul", "nul_inside", "surrogate", "latin1"):
    raw = open(os.path.join(t, name + ".ans"), "rb").read()
    got = [json.loads(l) for l in open(os.path.join(t, name + ".log"))]
    lines = [base64.b64decode(d["line_base64"]) for d in got
             if d["type"] == "recv" and "line_base64" in d]
    assert len(lines) == 1, (name, lines)
    assert re.sub(rb'^\{"id":[0-9]+', b'{"id":ID', lines[0]) == raw, \
        (name, lines[0], raw)
PY
}

@test "--verify catches every deleted line at its place, and odd headers" {
	bin/referee -g horserace -n 3 -s 5 -o races=1 --log "$T/d.log" -q \
	    -b "bin/random --seed 1" -b "bin/random --seed 2" -b "bin/random --seed 3"
	bin/replay --verify "$T/d.log"
	python3 - "$T/d.log" <<'PY'
import json, re, subprocess, sys
path = sys.argv[1]
lines = open(path).read().split("\n")[:-1]
kinds = {}
for k in range(1, len(lines)):
    d = json.loads(lines[k])
    kind = d["type"] + ("/" + d["msg"]["type"] if d["type"] == "send" else "")
    kinds[kind] = kinds.get(kind, 0) + 1
    cut = path + ".cut"
    open(cut, "w").write("\n".join(lines[:k] + lines[k + 1:]) + "\n")
    r = subprocess.run(["bin/replay", "--verify", cut], capture_output=True,
                       text=True)
    m = re.search(re.escape(cut) + r":(\d+):", r.stdout)
    assert r.returncode != 0, "line %d (%s) deleted: passes" % (k + 1, kind)
    assert m and int(m.group(1)) == k + 1, (k + 1, kind, r.stdout)
# hello, bye and recv lines were among them
assert kinds["send/hello"] == 3 and kinds["send/bye"] == 3, kinds
assert kinds["recv"] >= 6, kinds
PY
	# A header's odd set-up, seed or game list is refused at line 1.
	for change in 'd["setup"] = [[[[]]]]' 'd["setup"] = 3' 'd["seed"] = -1' \
	    'd["game_list"] = [0, 0]' 'd["game_list"] = [5]' 'd["game_list"] = "x"'; do
		cp "$T/d.log" "$T/h.log"
		python3 - "$T/h.log" "$change" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
d = json.loads(lines[0])
exec(sys.argv[2])
lines[0] = json.dumps(d, separators=(",", ":"))
open(sys.argv[1], "w").write("\n".join(lines))
PY
		run bin/replay --verify "$T/h.log"
		echo "$change: $output"
		[ "$status" -ne 0 ]
		[[ "$output" == *"h.log:1: the header"* ]]
	done
	cp "$T/d.log" "$T/h.log"
	python3 - "$T/h.log" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
d = json.loads(lines[0]); d["seed"] = -1
lines[0] = json.dumps(d, separators=(",", ":"))
open(sys.argv[1], "w").write("\n".join(lines))
PY
	run bin/replay --verify "$T/h.log"
	[[ "$output" == *"the header's seed is not a whole number from 0 to 2^63-1"* ]]
}

@test "a full disk stops a tournament at once, keeps the journal, names no empty stderr file" {
	mkdir "$T/disk"
	cat >"$T/f.json" <<EOF
{"name": "full", "game": "horserace", "seats": 3, "deals": 4, "seed": 3, "output": "$T/disk/out", "deals_per_run": 1,
 "options": {"races": 2}, "log_level": "full",
 "bots": [{"name": "a", "command": "bin/random --seed 1"}, {"name": "b", "command": "bin/random --seed 2"},
          {"name": "c", "command": "bin/random --seed 3"}, {"name": "d", "command": "bin/random --seed 4"}]}
EOF
	# A small tmpfs when this may mount one, else a file size limit
	# (writes then fail with EFBIG instead of ENOSPC).
	if mount -t tmpfs -o size=200k tmpfs "$T/disk" 2>/dev/null; then
		FULL_MNT=$T/disk
		run bin/tournament run "$T/f.json"
	else
		run sh -c "trap '' XFSZ; ulimit -f 200; exec bin/tournament run '$T/f.json'"
	fi
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"stopped at once: the disk is full"* ]]
	# Stopped at the first run that could not write: the runs before it
	# (one deal of 3 games each, one at a time) and it, none after.
	kept=$(grep -c '"places"' "$T/disk/out/journal.jsonl")
	[ "$kept" -ge 1 ]
	[ "$(ls "$T/disk/out/logs" | grep -c '\.jsonl$')" -eq $((kept / 3 + 1)) ]
	# No empty referee stderr file is left, none is pointed at: each
	# holds a message beside the line naming its bots (the referee's
	# that it could not write, as root where bots cannot be isolated
	# its warning that says so)
	[ "$(find "$T/disk/out" -name '*.referee.stderr' -empty | wc -l)" -eq 0 ]
	for f in $(echo "$output" | grep -o '/[^ ()]*\.referee\.stderr'); do
		grep -q '^referee: ' "$f"
	done
	# What is journalled is kept, and resumes once there is room.
	cp -r "$T/disk/out" "$T/room"
	sed "s|$T/disk/out|$T/room|" "$T/f.json" >"$T/g.json"
	run bin/tournament run -q "$T/g.json"
	[ "$status" -eq 0 ]
	[ "$(grep -c '"places"' "$T/room/journal.jsonl")" -eq 48 ]
}

@test "a game option given twice, or a set naming a choice twice, is refused" {
	run bin/referee -g horserace -n 3 -o races=2 -o races=3 -b x -b y -b z
	[ "$status" -eq 2 ]
	[[ "$output" == *"option races is given twice"* ]]
	run bin/referee -g horserace -n 3 -o bets=win,win -b x -b y -b z
	[ "$status" -eq 2 ]
	[[ "$output" == *"option bets: 'win' is given twice"* ]]
	cat >"$T/o.json" <<EOF
{"game": "horserace", "seats": 3, "output": "$T/oout", "options": ["races=2", "races=3"],
 "bots": [{"name": "a", "command": "x"}, {"name": "b", "command": "x"}, {"name": "c", "command": "x"}]}
EOF
	run bin/tournament run -q "$T/o.json"
	[ "$status" -ne 0 ]
	[[ "$output" == *"option races is given twice"* ]]
}

@test "a bot env with an empty name or a name with '=' says so" {
	for env in '{"": "v"}' '{"A=B": "v"}' '{"A": 3}'; do
		cat >"$T/e.json" <<EOF
{"game": "horserace", "seats": 3, "output": "$T/eout",
 "bots": [{"name": "a", "command": "x", "env": $env}, {"name": "b", "command": "x"},
          {"name": "c", "command": "x"}]}
EOF
		run bin/tournament run -q "$T/e.json"
		echo "$env: $output"
		[ "$status" -ne 0 ]
		case $env in
		*'""'*) [[ "$output" == *'"env": an empty variable name'* ]] ;;
		*A=B*) [[ "$output" == *"variable name \"A=B\" contains '='"* ]] ;;
		*) [[ "$output" == *'A: the value is not a string'* ]] ;;
		esac
	done
}

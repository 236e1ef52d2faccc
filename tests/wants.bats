#!/usr/bin/env bats
# The hello's "wants" (protocol.md): a bot that names the parts of the
# messages it reads is sent only those, the log replays and verifies, a
# malformed "wants" is a fault with every part sent; the SDKs' bots ask
# for less with --wants LIST.

load helpers

# the parse-free bench bot, of the build under test (SANITIZE or not)
PF=${B:-build/std}/tests/bench_bot

# Prints, for bot $2 of log $1, the sorted keys of each message type sent
# to it: "start: game players seat type", ...
keys_of() {
	python3 - "$1" "$2" <<'PY'
import json, sys
seen = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "send" and d["bot"] == int(sys.argv[2]):
        m = d["msg"]
        if m["type"] in ("start", "request", "end"):
            seen.setdefault(m["type"], " ".join(sorted(m)))
for t in ("start", "request", "end"):
    print("%s: %s" % (t, seen.get(t, "")))
PY
}

@test "each bot is sent the parts it wants, the others all; the log verifies" {
	run bin/referee -g horserace -s 3 --games 2 --log "$T/m.log" \
	    -b "$PF --wants legal" -b "$PF --seed 2" \
	    -b "$PF --seed 3 --wants view,legal,nosuchpart"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
	run keys_of "$T/m.log" 0
	[ "${lines[0]}" = "start: game players seat type" ]
	[ "${lines[1]}" = "request: game id legal seat time_left_ms type" ]
	[ "${lines[2]}" = "end: game places scores seat type" ]
	run keys_of "$T/m.log" 1
	[ "${lines[0]}" = "start: game players seat type view" ]
	[ "${lines[1]}" = "request: events game id legal seat time_left_ms type view" ]
	[ "${lines[2]}" = "end: events game places scores seat type view" ]
	run keys_of "$T/m.log" 2
	[ "${lines[0]}" = "start: game players seat type view" ]
	[ "${lines[1]}" = "request: game id legal seat time_left_ms type view" ]
	[ "${lines[2]}" = "end: game places scores seat type view" ]
	# The bot told everything still gets every event once.
	python3 - "$T/m.log" <<'PY'
import json, sys
n = {0: 0, 1: 0}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "send" and d["bot"] == 1 and "events" in d["msg"]:
        n[1] += len(d["msg"]["events"])
assert n[1] > 0, n
PY
	run bin/replay --verify "$T/m.log"
	[ "$status" -eq 0 ]
}

@test "a wants that is not an array of names is a malformed fault; every part is sent" {
	cat > "$T/bot.py" <<'PY'
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "w", "wants": "legal"}), flush=True)
    elif m["type"] == "request":
        e = m["legal"][0]
        a = {"id": m["id"], "index": 0}
        if isinstance(e.get("amount"), dict):
            a["amount"] = e["amount"]["min"]
        print(json.dumps(a), flush=True)
    elif m["type"] == "bye":
        break
PY
	run bin/referee -g horserace -s 3 --log "$T/m.log" \
	    -b "python3 $T/bot.py" -b "$PF" -b "$PF --seed 2"
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["fault_kinds"][0]["malformed"], d["faults"]')" = '[1, [1, 0, 0]]' ]
	grep -q '"detail":"the hello answer.s \\"wants\\" is not an array of part names"' "$T/m.log"
	run keys_of "$T/m.log" 0
	[ "${lines[1]}" = "request: events game id legal seat time_left_ms type view" ]
	run bin/replay --verify "$T/m.log"
	[ "$status" -eq 0 ]
}

@test "the C, Python and JS SDKs: --wants legal asks for the legal list alone" {
	run bin/referee -g horserace -s 4 --games 2 --log "$T/m.log" \
	    -b 'bin/random --seed 1 --wants legal' \
	    -b 'python3 bots/python/random_bot.py --seed 2 --wants legal' \
	    -b 'node bots/js/random_bot.js --seed 3 --wants legal'
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
	for b in 0 1 2; do
		grep '"type":"recv","n":[0-9]*,"t":[0-9]*,"bot":'$b',' "$T/m.log" | head -n 1 |
		    grep -q 'wants.*legal'
		run keys_of "$T/m.log" $b
		[ "${lines[0]}" = "start: game players seat type" ]
		[ "${lines[1]}" = "request: game id legal seat time_left_ms type" ]
		[ "${lines[2]}" = "end: game places scores seat type" ]
	done
	run bin/replay --verify "$T/m.log"
	[ "$status" -eq 0 ]
}

@test "the SDKs refuse a --wants with a part that does not exist" {
	run bin/random --wants legal,bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"--wants legal,bogus: not a list of view, events and legal"* ]]
	run python3 bots/python/random_bot.py --wants bogus
	[ "$status" -ne 0 ]
	[[ "$output" == *"--wants bogus: not a list of view, events and legal"* ]]
	run node bots/js/random_bot.js --wants bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"--wants bogus: not a list of view, events and legal"* ]]
}

@test "the C SDK: a bot that reads every part still gets them all" {
	run bin/referee -g horserace -s 4 --log "$T/m.log" \
	    -b 'bin/horserace_bot --seed 1' -b 'bin/random --seed 2' -b 'bin/random --seed 3'
	[ "$status" -eq 0 ]
	[ "$(jv "$output" 'd["faults"]')" = '[0, 0, 0]' ]
	run keys_of "$T/m.log" 0
	[ "${lines[1]}" = "request: events game id legal seat time_left_ms type view" ]
}

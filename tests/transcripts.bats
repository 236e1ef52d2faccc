#!/usr/bin/env bats
# protocol.md's transcripts (one whole conversation per game, hello to bye)
# are what tools/transcript.py makes of real matches today: the test plays
# them again and fails on any difference, so they cannot drift from the
# referee; and a transcript edited by hand is caught.

load helpers

@test "protocol.md: each game's transcript is what the referee says today (tools/transcript.py --check)" {
	run python3 tools/transcript.py --check
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "protocol.md: a transcript differing from the referee's text fails the check, with a diff" {
	sed 's/"type":"bye"/"type":"goodbye"/' protocol.md >"$T/protocol.md"
	! cmp -s protocol.md "$T/protocol.md" || false
	run python3 tools/transcript.py --check "$T/protocol.md"
	[ "$status" -eq 1 ]
	[[ "$output" == *'-> {"type":"goodbye"}'* ]]
	[[ "$output" == *'+> {"type":"bye"}'* ]]
}

@test "protocol.md: every transcript holds a hello, a start, a request with view and legal list, an answer, an error, an end and a bye; horserace and speculation a ranged answer" {
	for g in horserace daifugo speculation stocks nyse; do
		awk -v g="### Transcript: $g" '$0 == g { on = 1; next }
		    /^### / { on = 0 } on' protocol.md >"$T/$g"
		grep -q '^> {"type":"hello"' "$T/$g"
		grep -q '^< {"type":"hello"' "$T/$g"
		grep -q '^> {"type":"start"' "$T/$g"
		grep '^> {"type":"request"' "$T/$g" | grep -q '"view":{.*"legal":\['
		grep -q '^< {"id":[0-9]*,"index":' "$T/$g"
		grep -q '^< {"id":[0-9]*,"action":' "$T/$g"
		grep -q '^> {"type":"error","id":[0-9]*,"fault":"illegal"' "$T/$g"
		grep -q '^> {"type":"end"' "$T/$g"
		grep -q '^> {"type":"bye"}$' "$T/$g"
	done
	grep -q '^< {"id":[0-9]*,"index":[0-9]*,"amount":' "$T/horserace"
	grep -q '^< {"id":[0-9]*,"index":[0-9]*,"amount":' "$T/speculation"
}

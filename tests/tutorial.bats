#!/usr/bin/env bats
# The README's tutorial, run exactly as written: every ```sh block of its
# "## Tutorial" section, in order, as one bash script with -e (a command
# that fails fails the test), in a scratch copy of bin/, bots/ and
# tournaments/; then what the tutorial says each step gives is checked.

load helpers

@test "tutorial: the README's commands run as written and do what it says" {
	[ -n "$T" ] && [ -d "$T" ]
	python3 - README.md "$T/tutorial.sh" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
sec = re.search(r"^## Tutorial.*?(?=^## )", text, re.S | re.M).group(0)
blocks = re.findall(r"^```sh\n(.*?)^```$", sec, re.S | re.M)
assert len(blocks) >= 5, "only %d sh blocks in the tutorial" % len(blocks)
with open(sys.argv[2], "w") as f:
    f.write("set -e\n")
    for b in blocks:
        f.write(b)
PY
	grep -q 'bin/tournament gauntlet' "$T/tutorial.sh"
	cp -r bin bots tournaments "$T/"
	cd "$T"
	run bash tutorial.sh
	echo "$output"
	[ "$status" -eq 0 ]
	# the list of games, then the match: a result line with three places
	echo "$output" | grep -E '^nyse '
	echo "$output" | grep -E '"places":\[[1-3],[1-3],[1-3]\]'
	log_complete nyse.log
	# replay drew the match
	grep -q 'markers' nyse.txt
	# the new bot passed its check
	[ -f mybot/first.py ]
	echo "$output" | grep -E '^botcheck: PASS'
	# the gauntlet decided
	echo "$output" | grep -E '^result: H[01]$'
	# the round robin's journal and its table
	[ "$(grep -c '"table"' out/mytour/journal.jsonl)" -gt 1 ]
	echo "$output" | grep -E '^ +[1-4] +first '
	echo "$output" | grep -E '^ +[1-4] +greedy '
}

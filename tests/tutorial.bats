#!/usr/bin/env bats
# The README's tutorial, run exactly as written: every ```sh block of its
# "## Tutorial" section, in order, as one bash script with -e (a command
# that fails fails the test), in a scratch copy of bin/, bots/ and
# tournaments/; then what the tutorial says each step gives is checked.

load helpers

@test "tutorial: the README's commands run as written and do what it says" {
	[ -n "$T" ] && [ -d "$T" ]
	readme_script Tutorial "$T/tutorial.sh" 5
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
	echo "$output" | grep -E '^result: H[01]: the candidate gains (more|less) than elo[01] '
	# the round robin's journal and its table
	[ "$(grep -c '"table"' out/mytour/journal.jsonl)" -gt 1 ]
	echo "$output" | grep -E '^ +[1-4] +first '
	echo "$output" | grep -E '^ +[1-4] +greedy '
}

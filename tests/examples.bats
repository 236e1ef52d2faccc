#!/usr/bin/env bats
# The example bots beat the random bot at every game: the Python and the
# JavaScript greedy bots (bots/python/greedy_bot.py, bots/js/greedy_bot.js)
# each play a duplicate match against C random bots, and a one-sided sign
# test over the deals (tests/signtest.py) must give p < 0.01.  Small
# options keep the games short; horserace, a game of luck, lets the dealer
# set the odds raises the bet limit and plays 6 races a game, so that skill shows in
# 24 deals.

load helpers

# beats GAME SEATS DEALS BOT [REFEREE ARGS...]: plays and tests.
beats() {
	local game=$1 seats=$2 deals=$3 bot=$4 i
	shift 4
	set -- "$@" -b "$bot"
	for i in $(seq 2 "$seats"); do
		set -- "$@" -b "bin/random --seed $i"
	done
	bin/referee -g "$game" -n "$seats" -s 7 --games $((seats * deals)) \
	    --duplicate $LIMITS --results "$T/r" -q "$@"
	[ "$(wc -l < "$T/r")" -eq $((seats * deals)) ]
	grep -q '"faults":\[0,' "$T/r"
	! grep -v '"faults":\[0,' "$T/r" || false
	out=$(python3 tests/signtest.py "$seats" < "$T/r")
	echo "# $game, ${bot%% *}: $out" >&3
	python3 -c 'import sys; sys.exit(not float(sys.argv[1].split("p=")[1]) < 0.01)' "$out"
}

HR="-o dealer_sets_odds=on -o bet_limit=100 -o races=6"

PY='python3 bots/python/greedy_bot.py'
JS='node bots/js/greedy_bot.js'

# greedy GAME BOT: the greedy bot command BOT beats the random bots at
# GAME, in the match set for that game (beats; horserace: seeded, with
# $HR).
greedy() {
	case $1 in
	horserace)	beats horserace 3 24 "$2 --seed 1" $HR ;;
	stocks)		beats stocks 3 10 "$2" ;;
	speculation)	beats speculation 3 10 "$2" -o deals=3 ;;
	nyse)		beats nyse 3 10 "$2" ;;
	daifugo)	beats daifugo 4 10 "$2" -o deals=2 ;;
	*)		false ;;
	esac
}

@test "examples: greedy-py beats random at horserace (sign test p < 0.01)" {
	greedy horserace "$PY"
}
@test "examples: greedy-js beats random at horserace (sign test p < 0.01)" {
	greedy horserace "$JS"
}
@test "examples: greedy-py beats random at stocks (sign test p < 0.01)" {
	greedy stocks "$PY"
}
@test "examples: greedy-js beats random at stocks (sign test p < 0.01)" {
	greedy stocks "$JS"
}
@test "examples: greedy-py beats random at speculation (sign test p < 0.01)" {
	greedy speculation "$PY"
}
@test "examples: greedy-js beats random at speculation (sign test p < 0.01)" {
	greedy speculation "$JS"
}
@test "examples: greedy-py beats random at nyse (sign test p < 0.01)" {
	greedy nyse "$PY"
}
@test "examples: greedy-js beats random at nyse (sign test p < 0.01)" {
	greedy nyse "$JS"
}
@test "examples: greedy-py beats random at daifugo (sign test p < 0.01)" {
	greedy daifugo "$PY"
}
@test "examples: greedy-js beats random at daifugo (sign test p < 0.01)" {
	greedy daifugo "$JS"
}

@test "examples: the sign test's p-value (tests/signtest.py)" {
	# two 2-seat deals won, one lost, one even: p = P(X >= 2 | n = 3) = 1/2
	printf '%s\n' '{"game":0,"places":[1,2]}' '{"game":1,"places":[1,2]}' \
	    '{"game":2,"places":[1,2]}' '{"game":3,"places":[1,1]}' \
	    '{"game":4,"places":[2,1]}' '{"game":5,"places":[2,1]}' \
	    '{"game":6,"places":[1,2]}' '{"game":7,"places":[2,1]}' > "$T/r"
	run python3 tests/signtest.py 2 < "$T/r"
	[ "$output" = "won 2 lost 1 of 4 p=0.5" ]
}

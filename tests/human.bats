#!/usr/bin/env bats
# bin/human, the seat for a person, driven under tmux as a person would:
# a script reads the pane (capture-pane), answers each prompt with keys
# (send-keys), and plays a whole match of each of the five games (small
# options keep them short) from the first seat; the match must end with
# no fault of the human seat.  The horserace match also tries the help,
# a number out of range, an amount out of range and a refused
# confirmation.

load helpers

teardown() {
	tmux -L "$MARK" kill-server 2>/dev/null || true
}

# The last non-blank line of the pane.
last() {
	tmux -L "$MARK" capture-pane -p -t h | awk 'NF { l = $0 } END { print l }'
}

# Everything the pane showed.
screen() {
	tmux -L "$MARK" capture-pane -p -S - -t h
}

# Is the last line a prompt of bin/human (or the end of the match)?
at_prompt() {
	last | grep -E -q '^(action 1-[0-9]+ \(\? help\)|amount -?[0-9]+--?[0-9]+|play .*\(y/n, Enter = y\)):$|^EXIT='
}

# Types keys then Enter and waits for the next prompt (the pane changed
# and its last line is a prompt again).
type_line() {
	local before end=$(($(date +%s) + ${WAIT_MAX:-600}))
	before=$(screen | md5sum)
	tmux -L "$MARK" send-keys -t h -l "$1"
	tmux -L "$MARK" send-keys -t h Enter
	while [ "$(date +%s)" -lt "$end" ]; do
		if [ "$(screen | md5sum)" != "$before" ] && at_prompt; then
			return 0
		fi
		sleep 0.05
	done
	echo "no prompt after '$1'; last line: $(last)" >&2
	return 1
}

# Starts a referee with the human at seat 0 and the given arguments,
# without the sandbox (a sandboxed bot has no terminal) and as the
# referee's user (an isolated bot cannot see the terminal's foreground).
start() {
	tmux -L "$MARK" -f /dev/null new-session -d -s h -x 200 -y 50 \
	    "bin/referee -s 3 --time-per-move 600000 --no-sandbox --bot-user same $* ; echo EXIT=\$?; sleep 600"
	tmux -L "$MARK" set-option -t h history-limit 100000 >/dev/null
}

# Answers every prompt (the 2nd action when there are two or more, the
# lowest amount, Enter to confirm) until the referee exits.
play_out() {
	local l n end=$(($(date +%s) + ${WAIT_MAX:-600}))
	while [ "$(date +%s)" -lt "$end" ]; do
		l=$(last)
		case $l in
		EXIT=*)
			echo "$l"
			return 0 ;;
		"action 1-"*"(? help):")
			n=${l#action 1-}
			n=${n%% *}
			if [ "$n" -ge 2 ]; then type_line 2; else type_line 1; fi ;;
		amount\ *-*":")
			n=${l#amount }
			type_line "${n%%-*}" ;;
		play*"(y/n, Enter = y):")
			type_line "" ;;
		*)
			sleep 0.05 ;;
		esac
	done
	echo "the match did not end; last line: $l" >&2
	return 1
}

# Checks the end of a match: exit 0, no fault of bot 0, the seat's lines.
check_end() {
	screen > "$T/screen"
	grep -q '^EXIT=0$' "$T/screen"
	grep -q '==== the match is over ====' "$T/screen"
	grep -q 'you placed' "$T/screen"
	grep -q '"faults":\[0,' "$T/screen"
}

@test "human: a whole horserace match, with help, bad numbers, a bad amount and a refused confirmation" {
	start -g horserace -n 3 -o races=2 -o bet_limit=5 \
	    -b "'bin/human --no-colour'" -b bin/horserace_bot -b "'bin/random --seed 1'"
	wait_for at_prompt
	screen | grep -q 'horserace, 3 players, 1 game(s); you play seat 0'
	type_line '?'
	screen | grep -q 'choose action N of the list'
	type_line 0
	screen | grep -q "'0': type a number from 1 to"
	type_line abc
	screen | grep -q "'abc': type a number from 1 to"
	type_line 2
	[[ "$(last)" == "amount 1-5:" ]]
	type_line 6
	screen | grep -q "'6': the amount must be a whole number from 1 to 5"
	type_line 3
	[[ "$(last)" == "play bet: kind win, suits [S], amount 3? (y/n, Enter = y):" ]]
	type_line n
	[[ "$(last)" == "action 1-"*"(? help):" ]]
	type_line t
	screen | grep -q -- '---- the table ----'
	play_out
	check_end
	grep -q '  1  done' "$T/screen"
	grep -q '(amount 1..5)' "$T/screen"
}

@test "human: a whole stocks match" {
	start -g stocks -n 2 -o max_turns=6 -b "'bin/human --ascii'" -b bin/stocks_bot
	play_out
	check_end
	grep -q 'companies:' "$T/screen"
	grep -q 'hand: ' "$T/screen"
}

@test "human: a whole speculation match" {
	start -g speculation -n 3 -o deals=1 -o max_turns=12 \
	    -b bin/human -b bin/speculation_bot -b "'bin/random --seed 2'"
	play_out
	check_end
	grep -q 'trump: ' "$T/screen"
}

@test "human: a whole nyse match" {
	start -g nyse -n 2 -b bin/human -b bin/nyse_bot
	play_out
	check_end
	grep -q 'markers: ' "$T/screen"
}

@test "human: a whole daifugo match" {
	start -g daifugo -n 4 -o deals=1 -b bin/human -b bin/daifugo_bot \
	    -b "'bin/random --seed 1'" -b "'bin/random --seed 2'"
	play_out
	check_end
	grep -q 'hand: ' "$T/screen"
}

@test "human: no terminal is a one-line error; --help; a bad option" {
	run setsid bin/human < /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == *"no terminal to play on"* ]]
	run bin/human --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: human"* ]]
	run bin/human --bogus
	[ "$status" -eq 2 ]
}
